"""Node features of WISDOM Phase 1 (paper Section 3.1): ALEN, CLEN, API and terms.

One iterative pass over an lxml tree (``etree.iterwalk``, no recursion, so a
5,000-level tree costs nothing special) gives every non-dummy element an index in
document order and its *own* (non-aggregated) feature tuple F = (ALEN, CLEN, API)
plus what the content information index needs (sum of term weights, term count).

Definitions and the choices made where the paper is not explicit:

* **Own text.** An element owns its ``text`` and the ``tail`` of each child (the
  DOM text nodes directly under it). Text owned by an ``<a href>`` element or by
  anything inside one is anchor text; all other text is context (Section 3.1).
* **Length.** ALEN and CLEN count characters of each own text piece after
  whitespace is collapsed and stripped, so indentation never counts.
* **Dummy tags** (Section 3.1.3: comment, ``<br>``, ``<script>`` ...) are
  :data:`DUMMY_TAGS`. A dummy element and its whole subtree have no features and
  no index; their text is not content. The tail after a dummy element still belongs
  to its parent. (Comments are not visited: :func:`skeleton.sew.dom.parse_html`
  removes them and merges the text around them.)
* **Terms and weights.** Terms come from the tokenizer argument. A term's weight is
  W = 1 - EN (Section 3.1) from the lookup argument, clamped to [0, 1]; a term the
  lookup does not know (or a NaN) gets :data:`UNKNOWN_WEIGHT`, the weight of a term
  spread evenly over every page, i.e. no information.
* **API** (Section 3.1.2, API(N) = sum over matched terms of 1 / EN(term)) is
  computed on ``<a href>`` elements only: the *distinct* terms of the whole anchor
  text that also occur in the linked page. EN = 1 - W is floored at
  :data:`ENTROPY_FLOOR` (the paper assumes EN > 0 because a matched term lies in
  two pages; early in a crawl, or for skewed counts, it can still be 0).
  The anchor's surrounding text is not used (the formula names the anchor text only).
* **Missing linked page.** ``page_terms(url)`` gives the linked page's terms. When
  ``page_terms`` is ``None`` or returns ``None`` (page not crawled yet, off-site),
  the policy ``missing_page`` decides: ``"anchor"`` (default) assumes every anchor
  term occurs in the linked page, an upper bound that keeps API meaningful while
  the crawl has not reached the linked page; ``"zero"`` gives API = 0, the paper's
  literal reading for uncrawled pages. Links that do not resolve to an http(s)
  page (``mailto:``, ``javascript:``, fragment-only) always get API = 0.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Union

from lxml import etree

from skeleton.sew.urls import resolve
from skeleton.wisdom.tokens import Tokenizer, tokenize

__all__ = [
    "DUMMY_TAGS", "ANCHOR_TAG", "UNKNOWN_WEIGHT", "ENTROPY_FLOOR", "MISSING_PAGE_POLICIES",
    "WeightLookup", "PageTerms", "NodeFeatures", "weight_function", "text_length",
    "extract_features",
]

#: Tags whose subtree carries no extractable information (Section 3.1.3).
DUMMY_TAGS = frozenset({
    "head", "title", "meta", "link", "base", "script", "style", "noscript", "template",
    "br", "hr", "wbr", "iframe", "frame", "object", "embed", "applet", "param", "svg",
    "math", "canvas", "select", "option", "optgroup", "datalist", "textarea", "input",
})
ANCHOR_TAG = "a"
#: Weight W of a term the lookup does not know: no information (EN = 1).
UNKNOWN_WEIGHT = 0.0
#: Smallest entropy used in 1 / EN (so one matched term adds at most 20 to API).
ENTROPY_FLOOR = 0.05
MISSING_PAGE_POLICIES = ("anchor", "zero")

WeightLookup = Union[Mapping[str, float], Callable[[str], float]]
PageTerms = Callable[[str], Union[Mapping[str, int], None]]


@dataclass(slots=True)
class NodeFeatures:
    """Own features of the non-dummy elements of one page, indexed in document order.

    Index 0 is the root given to :func:`extract_features`; ``parent[0] == -1``.
    ``children[i]`` lists the non-dummy element children of ``i`` in order.
    """

    elements: list = field(default_factory=list)
    parent: list[int] = field(default_factory=list)
    children: list[list[int]] = field(default_factory=list)
    alen: list[int] = field(default_factory=list)
    clen: list[int] = field(default_factory=list)
    api: list[float] = field(default_factory=list)
    anchor: list[bool] = field(default_factory=list)
    weight_sum: list[float] = field(default_factory=list)
    term_count: list[int] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.elements)


def weight_function(weight: WeightLookup | None) -> Callable[[str], float]:
    """A total ``term -> W`` function in [0, 1] from a mapping or a callable."""
    if weight is None:
        return lambda term: UNKNOWN_WEIGHT
    if isinstance(weight, Mapping):
        lookup = weight.get

        def get(term: str) -> float:
            return _clamp(lookup(term, UNKNOWN_WEIGHT))
        return get

    def call(term: str) -> float:
        try:
            return _clamp(weight(term))
        except (KeyError, LookupError):
            return UNKNOWN_WEIGHT
    return call


def _clamp(value: object) -> float:
    try:
        value = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return UNKNOWN_WEIGHT
    if value != value:  # NaN
        return UNKNOWN_WEIGHT
    return 0.0 if value < 0.0 else 1.0 if value > 1.0 else value


def text_length(text: str | None) -> int:
    """Characters of ``text`` with whitespace collapsed and stripped."""
    return len(" ".join(text.split())) if text else 0


def extract_features(root: etree._Element, url: str, weight: WeightLookup | None,
                     page_terms: PageTerms | None = None, tokenizer: Tokenizer = tokenize,
                     missing_page: str = "anchor") -> NodeFeatures:
    """Own F = (ALEN, CLEN, API) and term weights of every non-dummy element."""
    if missing_page not in MISSING_PAGE_POLICIES:
        raise ValueError(f"missing_page must be one of {MISSING_PAGE_POLICIES}")
    wfun = weight_function(weight)
    cache: dict[str, float] = {}
    nodes = NodeFeatures()
    if root is None or not isinstance(root.tag, str) or _tag(root) in DUMMY_TAGS:
        return nodes
    elements, parent, children = nodes.elements, nodes.parent, nodes.children
    alen, clen, is_anchor = nodes.alen, nodes.clen, nodes.anchor
    wsum, tcount = nodes.weight_sum, nodes.term_count
    owner: list[int] = []  # enclosing <a href> of each node, or -1
    anchor_terms: dict[int, set[str]] = {}
    anchor_href: dict[int, str] = {}
    stack: list[int] = []

    def add_text(i: int, text: str) -> None:
        length = text_length(text)
        if not length:
            return
        terms = tokenizer(text)
        if owner[i] >= 0:
            alen[i] += length
            anchor_terms[owner[i]].update(terms)
        else:
            clen[i] += length
        if terms:
            total = 0.0
            for term in terms:
                w = cache.get(term)
                if w is None:
                    w = cache[term] = wfun(term)
                total += w
            wsum[i] += total
            tcount[i] += len(terms)

    walker = etree.iterwalk(root, events=("start", "end"))
    for event, el in walker:
        if event == "start":
            tag = el.tag
            if not isinstance(tag, str):
                walker.skip_subtree()
                continue
            tag = _tag(el)
            if tag in DUMMY_TAGS:
                walker.skip_subtree()
                continue
            i = len(elements)
            p = stack[-1] if stack else -1
            elements.append(el)
            parent.append(p)
            children.append([])
            alen.append(0)
            clen.append(0)
            wsum.append(0.0)
            tcount.append(0)
            href = el.get("href") if tag == ANCHOR_TAG else None
            anchor = href is not None and bool(href.strip())
            is_anchor.append(anchor)
            if anchor:
                owner.append(i)
                anchor_terms[i] = set()
                anchor_href[i] = href
            else:
                owner.append(owner[p] if p >= 0 else -1)
            if p >= 0:
                children[p].append(i)
            stack.append(i)
            if el.text:
                add_text(i, el.text)
        else:
            if not isinstance(el.tag, str) or (stack and elements[stack[-1]] is not el):
                # a skipped (dummy or non-element) node: its tail belongs to the parent
                if stack and el.tail and el is not root:
                    add_text(stack[-1], el.tail)
                continue
            stack.pop()
            if stack and el.tail:
                add_text(stack[-1], el.tail)
    nodes.api.extend([0.0] * len(elements))
    for i, terms in anchor_terms.items():
        if terms:
            nodes.api[i] = _anchor_precision(terms, anchor_href[i], url, cache, wfun,
                                             page_terms, missing_page)
    return nodes


def _anchor_precision(terms: set[str], href: str, url: str, cache: dict[str, float],
                      wfun: Callable[[str], float], page_terms: PageTerms | None,
                      missing_page: str) -> float:
    """API of one anchor (Section 3.1.2): sum of 1 / EN over the matched terms."""
    target = resolve(href, url) if url else ""
    if not target:
        return 0.0
    linked = None
    if page_terms is not None:
        try:
            linked = page_terms(target)
        except (KeyError, LookupError):
            linked = None
    if linked is None:
        if missing_page == "zero":
            return 0.0
        matched = terms
    else:
        matched = [term for term in terms if term in linked]
    total = 0.0
    for term in matched:
        w = cache.get(term)
        if w is None:
            w = cache[term] = wfun(term)
        total += 1.0 / max(1.0 - w, ENTROPY_FLOOR)
    return total if math.isfinite(total) else 0.0


def _tag(el: etree._Element) -> str:
    tag = el.tag
    if "}" in tag:
        tag = tag.rsplit("}", 1)[1]
    return tag.lower()
