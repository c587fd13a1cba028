"""One pass over a parsed page: the text and terms WISDOM and the entropy share.

:func:`scan_page` walks the tree once (``root.iter()``, no recursion) and keeps,
in flat lists indexed in document order, what both consumers need:

* WISDOM's nodes (:mod:`skeleton.wisdom.features`): the non-dummy elements, their
  parents and children, own anchor-text and context lengths (ALEN, CLEN), which
  ones are ``<a href>``;
* the terms of every text piece, in one flat list ``tokens``: piece ``k`` owns
  ``tokens[piece_end[k-1]:piece_end[k]]`` and belongs to node ``piece_node[k]``
  (only pieces with terms are listed), so per-node term counts and weight sums
  are slices, computed once the weights are known;
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

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from skeleton.entropy.terms import MAX_PAGE_TERMS, SKIPPED_TAGS
from skeleton.sew.urls import resolve
from skeleton.wisdom.tokens import Tokenizer, tokenize

__all__ = ["DUMMY_TAGS", "ANCHOR_TAG", "PageText", "scan_page", "link_targets"]

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


@dataclass(slots=True)
class PageText:
    """The text of one page as WISDOM and the entropy middleware read it."""

    elements: list = field(default_factory=list)
    parent: list[int] = field(default_factory=list)
    children: list[list[int]] = field(default_factory=list)
    alen: list[int] = field(default_factory=list)
    clen: list[int] = field(default_factory=list)
    anchor: list[bool] = field(default_factory=list)
    tokens: list[str] = field(default_factory=list)
    piece_node: list[int] = field(default_factory=list)
    piece_end: list[int] = field(default_factory=list)
    anchors: list[int] = field(default_factory=list)
    hrefs: list[str] = field(default_factory=list)
    anchor_terms: list[set[str]] = field(default_factory=list)
    other_tokens: list[str] = field(default_factory=list)
    _targets: tuple[str, list[str]] | None = None

    def __len__(self) -> int:
        return len(self.elements)

    def counts(self, max_terms: int = MAX_PAGE_TERMS) -> dict[str, int]:
        """Term -> frequency over the page text (the entropy middleware's counts);
        with more than ``max_terms`` distinct terms, the most frequent (ties by term)."""
        counts = Counter(self.tokens)
        counts.update(self.other_tokens)
        if len(counts) > max(0, max_terms):
            kept = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
            return dict(kept[:max(0, max_terms)])
        return dict(counts)


def _kind(tag: Any) -> int:
    if not isinstance(tag, str):
        return _NOT_ELEMENT
    name = tag.rsplit("}", 1)[-1].lower()
    if name in SKIPPED_TAGS:
        return _SKIPPED
    if name in DUMMY_TAGS:
        return _DUMMY
    return _ANCHOR if name == ANCHOR_TAG else _NODE


def scan_page(root: etree._Element | etree._ElementTree | None,
              tokenizer: Tokenizer = tokenize) -> PageText:
    """The :class:`PageText` of ``root`` (empty for ``None`` or a non-element)."""
    page = PageText()
    if isinstance(root, etree._ElementTree):
        root = root.getroot()
    if root is None or not hasattr(root, "iter"):
        return page
    elements, parent, children = page.elements, page.parent, page.children
    alen, clen, is_anchor = page.alen, page.clen, page.anchor
    tokens, piece_node, piece_end = page.tokens, page.piece_node, page.piece_end
    anchor_terms, other = page.anchor_terms, page.other_tokens
    owner: list[int] = []  # the enclosing <a href> of each node, as an anchor number, or -1
    kinds: dict[Any, int] = {}
    state: dict[etree._Element, int] = {}
    cut: Callable[[str], list[str]] = tokenizer
    extend_tokens, extend_other = tokens.extend, other.extend
    add_piece, add_end = piece_node.append, piece_end.append

    def add(i: int, text: str) -> None:
        if text.isspace():
            return
        length = len(" ".join(text.split()))
        found = cut(text)
        a = owner[i]
        if a >= 0:
            alen[i] += length
            if found:
                anchor_terms[a].update(found)
        else:
            clen[i] += length
        if found:
            extend_tokens(found)
            add_piece(i)
            add_end(len(tokens))

    add_element, add_parent, add_children = elements.append, parent.append, children.append
    add_alen, add_clen, add_owner, add_anchor = alen.append, clen.append, owner.append, is_anchor.append
    for el in root.iter():
        tag = el.tag
        kind = kinds.get(tag)
        if kind is None:
            kind = kinds[tag] = _kind(tag)
        if el is root:
            p = -1
            if kind == _NOT_ELEMENT:
                continue
        else:
            p = state[el.getparent()]
            tail = el.tail
            if tail:
                if p >= 0:
                    add(p, tail)
                elif p == _IN_DUMMY:
                    extend_other(cut(tail))
            if kind == _NOT_ELEMENT:
                continue
            if p == _IN_SKIPPED:
                state[el] = _IN_SKIPPED
                continue
        if kind == _SKIPPED:
            state[el] = _IN_SKIPPED
            continue
        if kind == _DUMMY or p == _IN_DUMMY:
            state[el] = _IN_DUMMY
            if el.text:
                extend_other(cut(el.text))
            continue
        i = len(elements)
        state[el] = i
        add_element(el)
        add_parent(p)
        add_children([])
        add_alen(0)
        add_clen(0)
        if p >= 0:
            children[p].append(i)
        href = el.get("href") if kind == _ANCHOR else None
        if href is not None and href.strip():
            add_anchor(True)
            add_owner(len(page.anchors))
            page.anchors.append(i)
            page.hrefs.append(href)
            anchor_terms.append(set())
        else:
            add_anchor(False)
            add_owner(owner[p] if p >= 0 else -1)
        text = el.text
        if text:
            add(i, text)
    return page


def link_targets(page: PageText, url: str) -> list[str]:
    """The resolved http(s) URL of each anchor with terms (``''`` for anchors
    without terms or links elsewhere), aligned with ``page.anchors``; computed
    once per page and URL."""
    if page._targets is not None and page._targets[0] == url:
        return page._targets[1]
    targets = [resolve(href, url) if terms and url else ""
               for href, terms in zip(page.hrefs, page.anchor_terms)]
    page._targets = (url, targets)
    return targets
