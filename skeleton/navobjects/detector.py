"""Navigation objects as a detector of the skeleton crawl.

Three detectors share one signature, ``(root, page_url, home_url, known,
template) -> Detection``, so that the spider and the offline ``find_skeleton``
call the same function:

* ``sew``: SEW's GENCANLINKSETS + SELECTNAVLINKSET (``skeleton.sew.detect``).
* ``blocks``: the paper's navigation objects: the hyperlinks of the CHD-HD
  blocks the SVM classifies as navigation menu or navigation list.
* ``hybrid``: SEW's accepted link sets, each kept only when most of its
  hyperlinks lie in blocks the SVM classifies as navigation (``hybrid_filter``);
  when the SVM would veto all of a page's sets, SEW's choice stands. The other
  combination, CHD-HD blocks as SEW's candidate sets (``hybrid_candidates``), is
  kept for the benchmark, which measures both (``benchmarks/navobjects.py``).

Every detection also carries the page's blocks with their class
(:attr:`BlockDetection.nav_blocks`), for the page items.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from lxml import etree

from ..sew.candidates import prune_link_set, shallow_positions
from ..sew.detect import Detection, candidate_params, detect_in_links
from ..sew.features import link_set_features
from ..sew.links import LinkNode, extract_links, unparsable_links
from ..sew.model import SEWModel
from ..sew.selection import log_confidence, prob, select
from .clustering import Block, chd_hd
from .domtree import IndexedTree
from .features import page_block_features
from .svm import BlockSVM, load_svm

__all__ = ["CRAWL_DETECTORS", "DETECTORS", "DEFAULT_BLOCK_MODEL", "HYBRID_NAV_SHARE", "BlockDetection", "PageBlocks",
           "PageDetector", "classify_blocks", "load_block_model", "make_detector"]

DETECTORS = ("sew", "blocks", "hybrid", "hybrid_candidates")
#: the detectors the spider offers (``-a detector=...``)
CRAWL_DETECTORS = ("sew", "blocks", "hybrid")
DEFAULT_BLOCK_MODEL = "blocks.json"
#: share of a SEW candidate's hyperlinks that must lie in navigation blocks (hybrid)
HYBRID_NAV_SHARE = 0.5
_NAVIGATION = frozenset({"nav_menu", "nav_list"})

PageDetector = Callable[[etree._Element | None, str, str, Sequence[set[str]], Sequence[set[str]]],
                        Detection]


@dataclass
class BlockDetection(Detection):
    """A detection with the page's hyperlink blocks: ``{"xpath", "class", "links"}``."""

    nav_blocks: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class PageBlocks:
    """A page's CHD-HD blocks and the class the SVM gives each."""

    tree: IndexedTree
    blocks: list[Block]
    classes: list[str]

    def summaries(self) -> list[dict[str, Any]]:
        """One dict per block: XPath of its smallest enclosing subtree, class, size."""
        out = []
        for block, cls in zip(self.blocks, self.classes):
            el = self.tree.element[block.container]
            xpath = el.getroottree().getpath(el) if el is not None else ""
            out.append({"xpath": xpath, "class": cls, "links": len(block)})
        return out

    def link_sets(self, links: Sequence[LinkNode]) -> list[tuple[str, list[LinkNode]]]:
        """(class, link nodes) per block, for the hyperlinks ``links`` knows."""
        by_element = {link.element: link for link in links if link.element is not None}
        out = []
        for block, cls in zip(self.blocks, self.classes):
            nodes = [by_element[self.tree.link_elements[k]] for k in block.links
                     if self.tree.link_elements[k] in by_element]
            out.append((cls, nodes))
        return out


def load_block_model(path: str | Path | None = None) -> BlockSVM:
    """A block SVM from a JSON file, or the shipped default model."""
    if path is None:
        ref = resources.files("skeleton.models").joinpath(DEFAULT_BLOCK_MODEL)
        with resources.as_file(ref) as file:
            return load_svm(file)
    return load_svm(path)


def classify_blocks(root: etree._Element | None, model: BlockSVM) -> PageBlocks:
    """CHD-HD blocks of the page, each classified by the SVM."""
    tree, blocks = chd_hd(root)
    classes = model.predict(page_block_features(tree, blocks)) if blocks else []
    return PageBlocks(tree, blocks, classes)


def _blocks_detection(page: PageBlocks, links: list[LinkNode]) -> BlockDetection:
    nav, rest = [], []
    for cls, nodes in page.link_sets(links):
        if nodes:
            (nav if cls in _NAVIGATION else rest).append(nodes)
    return BlockDetection(nav_sets=nav, rejected_sets=rest, confidence=1.0 if nav else 0.0,
                          candidates=len(page.blocks), links=len(links))


def _hybrid_filter(page: PageBlocks, links: list[LinkNode], page_url: str, home_url: str,
                   model: SEWModel, known: Sequence[set[str]],
                   template: Sequence[set[str]]) -> BlockDetection:
    sew = detect_in_links(links, page_url, home_url, model, known, template)
    in_nav = {link.number for cls, nodes in page.link_sets(links) if cls in _NAVIGATION for link in nodes}
    keep, drop = [], list(sew.rejected_sets)
    for link_set in sew.nav_sets:
        share = sum(link.number in in_nav for link in link_set) / len(link_set)
        (keep if share >= HYBRID_NAV_SHARE else drop).append(link_set)
    if not keep:  # the SVM vetoes some of SEW's sets, never all: a page SEW reads as navigation stays one
        keep, drop = list(sew.nav_sets), list(sew.rejected_sets)
    return BlockDetection(nav_sets=keep, rejected_sets=drop, confidence=sew.confidence if keep else 0.0,
                          candidates=sew.candidates, links=sew.links)


def _hybrid_candidates(page: PageBlocks, links: list[LinkNode], page_url: str, home_url: str,
                       model: SEWModel, known: Sequence[set[str]],
                       template: Sequence[set[str]]) -> BlockDetection:
    params = candidate_params(model)
    context = [*known, *template]
    candidates = []
    for _, nodes in page.link_sets(links):
        if not nodes:
            continue
        depth = min(link.depth for link in nodes)
        positions = shallow_positions(links, depth)
        kept = prune_link_set(nodes, params, context, positions)
        if params.min_nl < len(kept) < params.max_nl:
            candidates.append(kept)
    scores = [log_confidence(link_set_features(c, page_url, home_url), model) for c in candidates]
    chosen = select(scores, model, candidates)
    return BlockDetection(nav_sets=[candidates[i] for i in chosen],
                          rejected_sets=[c for i, c in enumerate(candidates) if i not in set(chosen)],
                          confidence=prob(max(scores), model.mu_c, model.sigma_c) if scores else 0.0,
                          candidates=len(candidates), links=len(links))


def make_detector(name: str, sew_model: SEWModel, block_model: BlockSVM | None,
                  with_blocks: bool = True) -> PageDetector:
    """The detector ``name`` (one of ``DETECTORS``) as a function of the page.

    ``with_blocks`` false skips CHD-HD for ``sew`` (no ``nav_blocks``)."""
    if name not in DETECTORS:
        raise ValueError(f"detector must be one of {', '.join(DETECTORS)}, got {name!r}")
    if block_model is None and (name != "sew" or with_blocks):
        raise ValueError(f"detector {name!r} needs a block model")

    def detect(root: etree._Element | None, page_url: str, home_url: str,
               known: Sequence[set[str]] = (), template: Sequence[set[str]] = ()) -> Detection:
        links = extract_links(root, page_url)
        page = classify_blocks(root, block_model) if block_model is not None and (
            name != "sew" or with_blocks) else None
        if name == "sew" or page is None:
            sew = detect_in_links(links, page_url, home_url, sew_model, known, template)
            result = BlockDetection(nav_sets=sew.nav_sets, rejected_sets=sew.rejected_sets,
                                    confidence=sew.confidence, candidates=sew.candidates, links=sew.links)
        elif name == "blocks":
            result = _blocks_detection(page, links)
        elif name == "hybrid":
            result = _hybrid_filter(page, links, page_url, home_url, sew_model, known, template)
        else:
            result = _hybrid_candidates(page, links, page_url, home_url, sew_model, known, template)
        if page is not None:
            result.nav_blocks = page.summaries()
        result.unparsable = unparsable_links(links, page_url)
        # as SEW's own detection gives them: the page's links and the context it ran with
        result.page_links, result.known, result.template = links, known, template
        return result

    return detect

