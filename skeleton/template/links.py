"""The hyperlink nodes of a page with their DOM paths, and dDistance
(Alarte et al., Section 3.2, Definition 3).

A DOM path is kept as the child positions from the root to the ``<a>``
element, so two paths share a prefix exactly when they share those ancestor
nodes, and dDistance(n, n') = j + k is the number of steps from each node up
to their deepest common ancestor. Paths are computed with one iterative walk
(no recursion: 5 000 levels of nesting are fine).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from lxml import etree

from skeleton.web.urls import resolve

from .hyperlinks import page_identity, same_domain

__all__ = ["MAX_PAGE_LINKS", "KeyLink", "page_links", "d_distance", "as_key_links"]

#: Links beyond this many on one page are ignored (a partial answer, bounded cost).
MAX_PAGE_LINKS = 10_000


@dataclass(frozen=True, slots=True)
class KeyLink:
    """A hyperlink node: its canonical URL, its page identity (``page_identity``),
    its DOM path (child positions from the root) and its number in document order."""

    url: str
    identity: str
    path: tuple[int, ...]
    number: int


def d_distance(a: Sequence[int], b: Sequence[int]) -> int:
    """Definition 3: 0 for the same path, else j + k, the lengths of the two
    paths below their longest common prefix."""
    shared = 0
    for x, y in zip(a, b):
        if x != y:
            break
        shared += 1
    return len(a) + len(b) - 2 * shared


def _anchor_paths(root: etree._Element, limit: int) -> Iterable[tuple[etree._Element, tuple[int, ...]]]:
    """(``<a href>`` element, DOM path) in document order, iteratively."""
    positions: list[int] = []
    counters: list[int] = [0]
    found = 0
    for event, el in etree.iterwalk(root, events=("start", "end")):
        if event == "start":
            positions.append(counters[-1])
            counters[-1] += 1
            counters.append(0)
            if el.tag == "a" and el.get("href") is not None:
                yield el, tuple(positions)
                found += 1
                if found >= limit:
                    return
        else:
            counters.pop()
            positions.pop()


def _distinct_links(candidates: Iterable[tuple[str, tuple[int, ...]]], page_url: str,
                    most: int) -> list[KeyLink]:
    """KeyLinks of the (URL, DOM path) ``candidates`` that lead to other pages of
    ``page_url``'s domain, each page once (its first candidate), at most ``most``."""
    seen = {page_identity(page_url)}
    out: list[KeyLink] = []
    for url, path in candidates:
        if not url or not same_domain(url, page_url):
            continue
        ident = page_identity(url)
        if ident in seen:
            continue
        seen.add(ident)
        out.append(KeyLink(url, ident, path, len(out)))
        if len(out) >= most:
            break
    return out


def page_links(root: etree._Element | None, page_url: str,
               limit: int = MAX_PAGE_LINKS) -> list[KeyLink]:
    """getLinks of Algorithm 2: the page's non-repeated links to other pages of
    its domain (self-links and other domains dropped), each at its first
    occurrence in document order."""
    if root is None:
        return []
    anchors = ((resolve(el.get("href") or "", page_url), path)
               for el, path in _anchor_paths(root, limit))
    return _distinct_links(anchors, page_url, limit)


def as_key_links(links: Iterable[KeyLink | str] | None, page_url: str) -> list[KeyLink]:
    """Normalize what a ``fetch_links`` callable returns: KeyLinks are kept,
    plain URLs become KeyLinks without a DOM path; other domains, self-links and
    repeats are dropped."""
    candidates = ((link.url, link.path) if isinstance(link, KeyLink) else (link, ())
                  for link in links or () if isinstance(link, (KeyLink, str)))
    return _distinct_links(candidates, page_url, MAX_PAGE_LINKS)
