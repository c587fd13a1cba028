"""Node features of WISDOM Phase 1 (paper Section 3.1): ALEN, CLEN, API and terms.

One iterative pass over an lxml tree (:func:`skeleton.wisdom.page.scan_page`, no
recursion, so a 5,000-level tree costs nothing special) gives every non-dummy
element an index in document order, its own text lengths and terms; with the term
weights this gives its *own* (non-aggregated) feature tuple F = (ALEN, CLEN, API)
plus what the content information index needs (sum of term weights, term count).
The pass can be shared: :func:`features_of` takes a :class:`PageText` already made
(the entropy middleware counts the page's terms from the same pass).

Definitions and the choices made where the paper is not explicit:

* **Own text.** An element owns its ``text`` and the ``tail`` of each child (the
  DOM text nodes directly under it). Text owned by an ``<a href>`` element or by
  anything inside one is anchor text; all other text is context (Section 3.1).
* **Length.** ALEN and CLEN count characters of each own text piece after
  whitespace is collapsed and stripped, so indentation never counts.
* **Dummy tags** (Section 3.1.3: comment, ``<br>``, ``<script>`` ...) are
  :data:`DUMMY_TAGS`. A dummy element and its whole subtree have no features and
  no index; their text is not content. The tail after a dummy element still belongs
  to its parent. (Comments are not visited: :func:`skeleton.web.dom.parse_html`
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
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Union

from lxml import etree

from skeleton.wisdom.page import ANCHOR_TAG, DUMMY_TAGS, PageText, link_targets, scan_page
from skeleton.wisdom.tokens import Tokenizer

__all__ = [
    "DUMMY_TAGS", "ANCHOR_TAG", "UNKNOWN_WEIGHT", "ENTROPY_FLOOR", "MISSING_PAGE_POLICIES",
    "WeightLookup", "PageTerms", "NodeFeatures", "weight_function", "page_weights", "text_length",
    "extract_features", "features_of",
]

#: Weight W of a term the lookup does not know: no information (EN = 1).
UNKNOWN_WEIGHT = 0.0
#: Smallest entropy used in 1 / EN (so one matched term adds at most 20 to API).
ENTROPY_FLOOR = 0.05
MISSING_PAGE_POLICIES = ("anchor", "zero")

WeightLookup = Union[Mapping[str, float], Callable[[str], float]]
#: ``page_terms(url)``: the terms of a linked page (any container supporting ``in``).
PageTerms = Callable[[str], Union[Collection[str], None]]


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


def page_weights(weight: WeightLookup | None, terms: Collection[str]) -> dict[str, float]:
    """``term -> W`` in [0, 1] for the given terms (as :func:`weight_function`)."""
    if weight is None:
        return dict.fromkeys(terms, UNKNOWN_WEIGHT)
    if not isinstance(weight, Mapping):
        wfun = weight_function(weight)
        return {term: wfun(term) for term in terms}
    get = weight.get
    out = {term: get(term, UNKNOWN_WEIGHT) for term in terms}
    values = out.values()
    # the usual case (the entropy update's W): floats in [0, 1], no NaN (else sum is NaN)
    if not values or (set(map(type, values)) == {float} and min(values) >= 0.0
                      and max(values) <= 1.0 and sum(values) == sum(values)):
        return out
    for term, value in out.items():
        if not (type(value) is float and 0.0 <= value <= 1.0):
            out[term] = _clamp(value)
    return out


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
                     page_terms: PageTerms | None = None, tokenizer: Tokenizer | None = None,
                     missing_page: str = "anchor") -> NodeFeatures:
    """Own F = (ALEN, CLEN, API) and term weights of every non-dummy element
    (``tokenizer``: ``None`` for the default terms, :mod:`skeleton.wisdom.tokens`)."""
    if missing_page not in MISSING_PAGE_POLICIES:
        raise ValueError(f"missing_page must be one of {MISSING_PAGE_POLICIES}")
    return features_of(scan_page(root, tokenizer), url, weight, page_terms, missing_page)


def features_of(page: PageText, url: str, weight: WeightLookup | None,
                page_terms: PageTerms | None = None, missing_page: str = "anchor") -> NodeFeatures:
    """:func:`extract_features` from the page's :class:`PageText` (shared pass)."""
    if missing_page not in MISSING_PAGE_POLICIES:
        raise ValueError(f"missing_page must be one of {MISSING_PAGE_POLICIES}")
    n = len(page)
    weights = page_weights(weight, page.terms())
    wget = weights.__getitem__
    wsum = [0.0] * n
    tcount = [0] * n
    for node, terms in zip(page.piece_node, page.piece_terms):
        if terms:
            wsum[node] += sum(map(wget, terms))
            tcount[node] += len(terms)
    api = [0.0] * n
    if page.anchors:
        targets = link_targets(page, url)
        for node, terms, target in zip(page.anchors, page.anchor_terms, targets):
            if terms and target:
                api[node] = _anchor_precision(terms, target, weights, page_terms, missing_page)
    return NodeFeatures(page.elements, page.parent, page.children, page.alen, page.clen, api,
                        page.anchor, wsum, tcount)


def _anchor_precision(terms: set[str], target: str, weights: Mapping[str, float],
                      page_terms: PageTerms | None, missing_page: str) -> float:
    """API of one anchor (Section 3.1.2): sum of 1 / EN over the matched terms."""
    linked = None
    if page_terms is not None:
        try:
            linked = page_terms(target)
        except (KeyError, LookupError):
            linked = None
    if linked is None:
        if missing_page == "zero":
            return 0.0
        matched: Collection[str] = terms
    else:
        matched = [term for term in terms if term in linked]
    total = 0.0
    for term in matched:
        total += 1.0 / max(1.0 - weights[term], ENTROPY_FLOOR)
    return total if math.isfinite(total) else 0.0
