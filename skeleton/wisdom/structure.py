"""The informative structure of one page: WISDOM end to end (paper Figure 4).

Phase 1 (:mod:`~skeleton.wisdom.features`), the information coverage tree
(:mod:`~skeleton.wisdom.coverage`), k-MIB (:mod:`~skeleton.wisdom.mib`) and
expanding and condensing (:mod:`~skeleton.wisdom.merging`), run once for TOC
blocks and once for article blocks over the same tree.

Each :class:`Block` names its root by XPath (lxml ``getroottree().getpath()``)
and reports, after condensing:

* ``anchors``: ``<a href>`` elements in the block;
* ``text_length``: context (non-anchor text) length; ``anchor_text_length``;
* ``score``: f_A of the root, the value k-MIB ranks by (API_A for TOC blocks,
  or ALEN_A with ``toc_feature="alen"``; CLEN_A for article blocks);
* ``index``: the type-constraint value (mean API for TOC, CII for article);
* ``origin``: ``"mib"``, ``"dstm"`` or ``"cstm"``; ``removed``: XPaths of the
  sub-trees condensing took out.

Bad input never raises: ``None``, an empty tree, a page with no text or no links,
10,000 links or 5,000 nested levels give an empty or partial structure.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

from lxml import etree

from skeleton.wisdom.constraints import ARTICLE, TOC, WisdomParams, search_feature, type_index
from skeleton.wisdom.coverage import CoverageTree, build_coverage_tree
from skeleton.wisdom.features import PageTerms, WeightLookup, features_of
from skeleton.wisdom.merging import condense, expand
from skeleton.wisdom.mib import k_mib
from skeleton.wisdom.page import PageText, paused_gc, scan_page
from skeleton.wisdom.tokens import Tokenizer

__all__ = ["Block", "InformativeStructure", "informative_blocks", "blocks_of_kind"]


@dataclass
class Block:
    """One informative block: a sub-tree of the page, minus condensed parts."""

    xpath: str
    kind: str
    origin: str
    anchors: int
    text_length: int
    anchor_text_length: int
    score: float
    index: float
    removed: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class InformativeStructure:
    """The TOC blocks and article blocks of one page."""

    url: str
    toc: list[Block] = field(default_factory=list)
    article: list[Block] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"url": self.url, "toc": [b.to_dict() for b in self.toc],
                "article": [b.to_dict() for b in self.article]}

    def rows(self) -> list[dict]:
        """The blocks as the crawl's items carry them: TOC blocks then article
        blocks, each ``{"kind", "xpath", "anchors" (TOC) or "text_length"
        (article), "score"}``."""
        return ([{"kind": b.kind, "xpath": b.xpath, "anchors": b.anchors, "score": b.score}
                 for b in self.toc]
                + [{"kind": b.kind, "xpath": b.xpath, "text_length": b.text_length,
                    "score": b.score} for b in self.article])

    def __bool__(self) -> bool:
        return bool(self.toc or self.article)


def blocks_of_kind(tree: CoverageTree, kind: str, params: WisdomParams) -> list[Block]:
    """k-MIB, expansion and condensing for one block type."""
    if not len(tree):
        return []
    feature = search_feature(kind, params)
    agg = tree.aggregated(feature)
    elements = tree.nodes.elements
    getpath = elements[0].getroottree().getpath
    blocks = []
    for node, origin in expand(tree, k_mib(tree, kind, params), kind, params):
        removed = condense(tree, node, kind, params) if params.condense else []
        blocks.append(Block(
            xpath=getpath(elements[node]), kind=kind, origin=origin,
            anchors=tree.anchors_a[node] - sum(tree.anchors_a[r] for r in removed),
            text_length=round(tree.clen_a[node] - sum(tree.clen_a[r] for r in removed)),
            anchor_text_length=round(tree.alen_a[node] - sum(tree.alen_a[r] for r in removed)),
            score=round(agg[node], 6), index=round(type_index(tree, node, kind), 6),
            removed=[getpath(elements[r]) for r in removed]))
    return blocks


def informative_blocks(root: etree._Element | etree._ElementTree | None, url: str,
                       weight: WeightLookup | None, page_terms: PageTerms | None = None,
                       params: WisdomParams = WisdomParams(),
                       tokenizer: Tokenizer | None = None,
                       text: PageText | None = None) -> InformativeStructure:
    """The informative structure (TOC and article blocks) of the page ``root``.

    ``weight`` maps a term to W = 1 - EN (a mapping or a callable; unknown terms
    get :data:`~skeleton.wisdom.features.UNKNOWN_WEIGHT`). ``page_terms(url)``
    gives the terms of a linked page for API, or ``None`` if unknown (see
    ``params.missing_page``). ``url`` is the page's own URL, used to resolve links.
    ``tokenizer``: ``None`` for the default terms (:mod:`skeleton.wisdom.tokens`).
    ``text``: the page's :func:`~skeleton.wisdom.page.scan_page` pass if already
    made (then ``tokenizer`` is not used).
    """
    structure = InformativeStructure(url=url)
    if isinstance(root, etree._ElementTree):
        root = root.getroot()
    if root is None:
        return structure
    with paused_gc():
        if text is None:
            text = scan_page(root, tokenizer)
        nodes = features_of(text, url, weight, page_terms, params.missing_page)
        tree = build_coverage_tree(nodes)
        structure.toc = blocks_of_kind(tree, TOC, params)
        structure.article = blocks_of_kind(tree, ARTICLE, params)
    return structure
