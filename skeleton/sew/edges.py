"""A page's followed navigation links and their nesting (which entry of a nested
table of contents each link hangs from).

Which page becomes a page's parent is decided later, from every offer and the
page's own evidence (:mod:`skeleton.hierarchy`).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

from skeleton.budget import checkpoint

from .detect import NavLink

__all__ = ["nest_links", "followed_links"]


def nest_links(page: str, links: Iterable[tuple[str, str]]) -> list[tuple[str, str, int]]:
    """``(url, parent, level)`` for one page's navigation links ``(url, parent)``.

    A link hangs from the page (level 1) or from another of the page's links
    (its level + 1). A parent that is neither is replaced by the page, and a
    cycle of parents is cut by hanging its last entry from the page, so every
    chain ends at the page. The first occurrence of a URL wins.
    """
    parents: dict[str, str] = {}
    for url, parent in links:
        if url != page and url not in parents:
            parents[url] = parent
    for url, parent in parents.items():
        if parent != page and (parent not in parents or parent == url):
            parents[url] = page
    levels: dict[str, int] = {}
    for url in parents:
        chain: list[str] = []
        node = url
        while node != page and node not in levels and node not in chain:
            chain.append(node)
            node = parents[node]
        if node in chain:
            parents[chain[-1]] = page
            node = page
        level = levels.get(node, 0)
        for entry in reversed(chain):
            level += 1
            levels[entry] = level
    return [(url, parents[url], levels[url]) for url in parents]


def followed_links(raw: Iterable[NavLink], page: str, skip: Callable[[str], str | None],
                   aliases: Iterable[str] = ()) -> tuple[list[tuple[str, str, str, int]], list[str]]:
    """The links a crawl follows, as ``(url, text, parent, level)``, and the reasons
    of the links it skips (one per skipped link).

    ``raw`` are a page's navigation links (``Detection.nav_links``), ``page`` its
    URL and ``aliases`` its other URLs (after a redirect), ``skip(url)`` says why a link must not be
    followed (off-site, out of scope, a trap) or None. First occurrence of a URL
    wins; a nested entry whose parent entry is skipped hangs from its nearest
    kept ancestor, else from the page; ``level`` is the nesting level below the
    page (1 for direct links)."""
    own = {page, *aliases}
    raw = list(raw)
    by_url: dict[str, NavLink] = {}
    for link in raw:
        by_url.setdefault(link.url, link)
    kept: dict[str, NavLink] = {}
    reasons = []
    for link in raw:
        checkpoint()
        if link.url in kept or link.url in own:
            continue
        reason = skip(link.url)
        if reason:
            reasons.append(reason)
            continue
        kept[link.url] = link
    links = []
    for url, link in kept.items():
        parent, seen = link.parent, {url}
        while parent not in own and parent not in kept and parent in by_url and parent not in seen:
            seen.add(parent)
            parent = by_url[parent].parent
        links.append((url, page if parent in own else parent))
    return ([(url, kept[url].text, parent, level) for url, parent, level in nest_links(page, links)],
            reasons)
