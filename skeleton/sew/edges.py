"""Which parent a page hangs from when several navigation pages lead to it.

SEW's FINDSKELETON (Section 3.4) keeps the first parent a breadth-first crawl
meets, which depends on crawl timing. The skeleton keeps instead the best edge
under one total order, so any arrival order and any number of workers give the
same tree:

1. the smallest depth (the page's shallowest position in the skeleton);
2. then the edge offered by the shallowest page: the home page's nested table of
   contents (entry ``items.html``, sub-entry ``items/modules.html``) states the
   structure before a sibling page's cross-reference to the same page at the
   same depth (``attributes.html`` -> ``items/modules.html``);
3. then the directory index page whose directory holds most of the child's
   (``/en/mod/`` over ``/en/caching.html`` for ``/en/mod/mod_cache.html``;
   ``urls.section_dirs``): among equally deep parents, the section the URL
   itself names, rather than a "related pages" box, a sibling in the same flat
   folder (a shop's ``/p/a.html`` -> ``/p/b.html``) or a site map;
4. then the smallest parent URL (bytewise), a stable last resort.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

from .detect import NavLink
from .urls import section_dirs

__all__ = ["EdgeRank", "edge_rank", "nest_links", "followed_links"]

#: (depth, depth of the offering page, -section directories, parent URL): smaller is better.
EdgeRank = tuple[int, int, int, str]


def edge_rank(parent: str, child: str, depth: int, offered_at: int) -> EdgeRank:
    """The sort key of the edge ``parent -> child`` at ``depth``, offered by a page
    crawled at depth ``offered_at``."""
    return depth, offered_at, -section_dirs(parent, child), parent


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
