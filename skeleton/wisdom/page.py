"""One pass over a parsed page: the text and terms WISDOM and the entropy share.

:func:`scan_page` walks the tree once (``root.iter()``, no recursion) and keeps,
in flat lists indexed in document order, what both consumers need:

* WISDOM's nodes (:mod:`skeleton.wisdom.features`): the non-dummy elements, their
  parents and children, own anchor-text and context lengths (ALEN, CLEN), which
  ones are ``<a href>``;
* the terms of every text piece (``piece_terms[k]``, owned by node
  ``piece_node[k]``; whitespace-only pieces are not listed), cut in one regex pass
  over all pieces, so per-node term counts and weight sums are computed once the
  weights are known;
* each anchor's href and the distinct terms of its whole text (for API);
* ``other_tokens``: the terms of page text outside WISDOM's nodes (``<title>``,
  ``<noscript>`` ...), which the entropy counts as page text too.

:meth:`PageText.counts` is then the page's term counts for the entropy middleware,
equal to :func:`skeleton.entropy.terms.page_terms` of the same tree: the text of
every element except ``<script>``, ``<style>`` and ``<template>`` subtrees.

Ownership: an element owns its ``text`` and the ``tail`` of each child (the DOM
text nodes directly under it). A dummy element (:data:`DUMMY_TAGS`) and its subtree
are no nodes; the tail after a dummy element still belongs to its parent. Text
owned by an ``<a href>`` element or anything inside one is anchor text.
"""
from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import chain
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from skeleton.entropy.terms import MAX_PAGE_TERMS, SKIPPED_TAGS, terms_of_pieces
from skeleton.web.urls import resolve
from skeleton.wisdom.tokens import STOP_WORDS, Tokenizer

__all__ = ["DUMMY_TAGS", "ANCHOR_TAG", "PageText", "scan_page", "link_targets", "paused_gc"]

#: Tags whose subtree carries no extractable information (Section 3.1.3).
DUMMY_TAGS = frozenset({
    "head", "title", "meta", "link", "base", "script", "style", "noscript", "template",
    "br", "hr", "wbr", "iframe", "frame", "object", "embed", "applet", "param", "svg",
    "math", "canvas", "select", "option", "optgroup", "datalist", "textarea", "input",
})
ANCHOR_TAG = "a"
# Kinds of a raw tag: a WISDOM node, an anchor candidate, a dummy whose text is
# still page text, a skipped element (no page text), a comment / PI / entity.
_NODE, _ANCHOR, _DUMMY, _SKIPPED, _NOT_ELEMENT = range(5)
# States of an element: >= 0 its node index (-1: the root's parent); inside a dummy
# element (page text, no node) or inside a skipped one (no page text).
_IN_DUMMY, _IN_SKIPPED = -2, -3
#: Raw tag -> kind, filled as tags are met (a page has a few dozen distinct tags).
_KINDS: dict[Any, int] = {}


@dataclass(slots=True)
class PageText:
    """The text of one page as WISDOM and the entropy middleware read it."""

    elements: list = field(default_factory=list)
    parent: list[int] = field(default_factory=list)
    children: list[list[int]] = field(default_factory=list)
    alen: list[int] = field(default_factory=list)
    clen: list[int] = field(default_factory=list)
    anchor: list[bool] = field(default_factory=list)
    piece_node: list[int] = field(default_factory=list)
    piece_terms: list[list[str]] = field(default_factory=list)
    anchors: list[int] = field(default_factory=list)
    hrefs: list[str] = field(default_factory=list)
    anchor_terms: list[set[str]] = field(default_factory=list)
    other_tokens: list[str] = field(default_factory=list)
    _targets: tuple[str, list[str]] | None = None

    def __len__(self) -> int:
        return len(self.elements)

    def terms(self) -> set[str]:
        """The distinct terms of WISDOM's nodes."""
        return set(chain.from_iterable(self.piece_terms))

    def counts(self, max_terms: int = MAX_PAGE_TERMS) -> dict[str, int]:
        """Term -> frequency over the page text (the entropy middleware's counts);
        with more than ``max_terms`` distinct terms, the most frequent (ties by term)."""
        counts = Counter(chain.from_iterable(self.piece_terms))
        counts.update(self.other_tokens)
        if len(counts) > max(0, max_terms):
            kept = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
            return dict(kept[:max(0, max_terms)])
        return dict(counts)


def _kind_of(tag: Any) -> int:
    """The kind of a raw tag (remembered in ``_KINDS``)."""
    kind = _KINDS.get(tag)
    if kind is None:
        kind = _kind(tag)
        if len(_KINDS) < 10_000:
            _KINDS[tag] = kind
    return kind


def _kind(tag: Any) -> int:
    if not isinstance(tag, str):
        return _NOT_ELEMENT
    name = tag.rsplit("}", 1)[-1].lower()
    if name in SKIPPED_TAGS:
        return _SKIPPED
    if name in DUMMY_TAGS:
        return _DUMMY
    return _ANCHOR if name == ANCHOR_TAG else _NODE


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector for one page's pass. The pass allocates a
    few containers per element; each allocation burst would otherwise trigger
    collections that traverse the whole heap of the process (the crawler's), which
    cost more than the pass itself. Nothing is lost: cycles are collected later."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def scan_page(root: etree._Element | etree._ElementTree | None,
              tokenizer: Tokenizer | None = None, stop: frozenset[str] = STOP_WORDS) -> PageText:
    """The :class:`PageText` of ``root``: :func:`_scan` with the collector paused."""
    with paused_gc():
        return _scan(root, tokenizer, stop)


def _scan(root: etree._Element | etree._ElementTree | None, tokenizer: Tokenizer | None,
          stop: frozenset[str]) -> PageText:
    """The :class:`PageText` of ``root`` (empty for ``None`` or a non-element).

    Terms are :func:`skeleton.entropy.terms.terms` with the ``stop`` words, cut from
    all the text pieces in one pass (:func:`~skeleton.entropy.terms.terms_of_pieces`);
    a ``tokenizer`` given instead is called once per text piece.
    """
    page = PageText()
    if isinstance(root, etree._ElementTree):
        root = root.getroot()
    if root is None or not hasattr(root, "iter"):
        return page
    elements, parent, children = page.elements, page.parent, page.children
    anchors, hrefs = page.anchors, page.hrefs
    owner: list[int] = []  # the enclosing <a href> of each node, as an anchor number, or -1
    kinds = _KINDS
    # the root's parent (None for a whole page) is the "-1" of the root: no branch per element
    state: dict[etree._Element | None, int] = {root.getparent(): -1}
    texts: list[str] = []  # the nodes' text pieces, and their nodes
    other: list[str] = []  # page text outside the nodes
    add_text, add_node, add_other = texts.append, page.piece_node.append, other.append
    add_element, add_parent, add_children = elements.append, parent.append, children.append
    add_owner = owner.append
    for el in root.iter():
        tag = el.tag
        kind = kinds.get(tag)
        if kind is None:
            kind = _kind_of(tag)
        p = state[el.getparent()]
        tail = el.tail  # the root's tail is no page text (p == -1)
        if p >= 0:
            if tail and not tail.isspace():
                add_text(tail)
                add_node(p)
            if kind == _NODE:  # the common case, a plain element under a node: the steps below
                i = len(elements)
                state[el] = i
                add_element(el)
                add_parent(p)
                add_children([])
                children[p].append(i)
                add_owner(owner[p])
                text = el.text
                if text and not text.isspace():
                    add_text(text)
                    add_node(i)
                continue
        elif p == _IN_DUMMY and tail and not tail.isspace():
            add_other(tail)
        if kind == _NOT_ELEMENT:
            continue
        if p == _IN_SKIPPED:
            state[el] = _IN_SKIPPED
            continue
        if kind == _SKIPPED:
            state[el] = _IN_SKIPPED
            continue
        text = el.text
        if kind == _DUMMY or p == _IN_DUMMY:
            state[el] = _IN_DUMMY
            if text and not text.isspace():
                add_other(text)
            continue
        i = len(elements)
        state[el] = i
        add_element(el)
        add_parent(p)
        add_children([])
        if p >= 0:
            children[p].append(i)
        href = el.get("href") if kind == _ANCHOR else None
        if href is not None and href.strip():
            add_owner(len(anchors))
            anchors.append(i)
            hrefs.append(href)
        else:
            add_owner(owner[p] if p >= 0 else -1)
        if text and not text.isspace():
            add_text(text)
            add_node(i)
    return _finish(page, texts, other, owner, tokenizer, stop)


def _finish(page: PageText, texts: list[str], other: list[str], owner: list[int],
            tokenizer: Tokenizer | None, stop: frozenset[str]) -> PageText:
    """Anchor flags, then :func:`_measure` and the terms of the text outside the nodes."""
    page.anchor = [False] * len(page.elements)
    for i in page.anchors:
        page.anchor[i] = True
    _measure(page, texts, owner, tokenizer, stop)
    page.other_tokens = ([t for text in other for t in tokenizer(text)] if tokenizer is not None
                         else [t for found in terms_of_pieces(other, stop) for t in found])
    return page


def _measure(page: PageText, texts: list[str], owner: list[int], tokenizer: Tokenizer | None,
             stop: frozenset[str]) -> None:
    """ALEN, CLEN, the terms of each piece and each anchor's terms."""
    n = len(page.elements)
    alen, clen = [0] * n, [0] * n
    page.alen, page.clen = alen, clen
    anchor_terms: list[set[str]] = [set() for _ in page.anchors]
    page.anchor_terms = anchor_terms
    found = ([tokenizer(text) for text in texts] if tokenizer is not None
             else terms_of_pieces(texts, stop))
    page.piece_terms = found
    lengths = [len(" ".join(text.split())) for text in texts]
    for i, length, terms in zip(page.piece_node, lengths, found):
        a = owner[i]
        if a >= 0:
            alen[i] += length
            if terms:
                anchor_terms[a].update(terms)
        else:
            clen[i] += length


def link_targets(page: PageText, url: str) -> list[str]:
    """The resolved http(s) URL of each anchor with terms (``''`` for anchors
    without terms or links elsewhere), aligned with ``page.anchors``; computed
    once per page and URL."""
    if page._targets is not None and page._targets[0] == url:
        return page._targets[1]
    resolved: dict[str, str] = {}  # a page repeats its hrefs (menus): resolve each once
    targets = []
    for href, terms in zip(page.hrefs, page.anchor_terms):
        if terms and url:
            target = resolved.get(href)
            if target is None:
                target = resolved[href] = resolve(href, url)
            targets.append(target)
        else:
            targets.append("")
    page._targets = (url, targets)
    return targets
