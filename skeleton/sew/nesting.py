"""Nested navigation: a table of contents whose entries hold sub-lists.

SEW keeps one flat navigation link set per page. Tables of contents and mega-menus
show several levels of the hierarchy at once: a chapter entry followed by the
list of its sections. When an accepted link set B lies inside the container of a
shallower accepted set A (the lowest common ancestor of A's links), each link of B
hangs from the nearest link of A before it in document order. This is the
skeleton's own structure, read from one page; it goes beyond the paper.
"""
from __future__ import annotations

from collections.abc import Sequence
from os.path import commonprefix

from skeleton.budget import checkpoint

from .links import LinkNode
from ..web.urls import directory, split_url

__all__ = ["common_chain", "is_nested", "nest_link_sets", "directory_index", "directory_hosts"]

#: File names that make a URL the index page of its directory.
INDEX_NAMES = frozenset({"index.html", "index.htm", "index.php", "index.shtml", "default.htm",
                         "default.html", "default.aspx"})


def common_chain(links: Sequence[LinkNode]) -> tuple[int, ...]:
    """Ids of the common ancestors of all links (their lowest common ancestor last)."""
    return tuple(commonprefix([link.chain for link in links]))


def _contains(lca: tuple[int, ...], link_sets_first: int, link_set: Sequence[LinkNode]) -> bool:
    k = len(lca)
    return all(b.chain[:k] == lca and b.number > link_sets_first for b in link_set)


def is_nested(inner: Sequence[LinkNode], outer: Sequence[LinkNode]) -> bool:
    """Does link set ``inner`` lie inside the container of the shallower ``outer``?"""
    return (len(outer) > 1 and outer[0].depth < inner[0].depth
            and _contains(common_chain(outer), outer[0].number, inner))


def nest_link_sets(link_sets: Sequence[Sequence[LinkNode]]) -> dict[int, LinkNode]:
    """For every link (by number) of a nested set, the link it hangs from."""
    ordered = sorted((s for s in link_sets if s), key=lambda s: (s[0].depth, s[0].number))
    placed: list[tuple[Sequence[LinkNode], tuple[int, ...]]] = []
    parent: dict[int, LinkNode] = {}
    for b_set in ordered:
        checkpoint()
        host = None
        for a_set, lca in placed:
            if a_set[0].depth < b_set[0].depth and len(a_set) > 1 \
                    and _contains(lca, a_set[0].number, b_set):
                if host is None or len(lca) >= len(host[1]):
                    host = (a_set, lca)
        if host is not None:
            a_links = host[0]
            i = 0
            for b in b_set:  # both in document order
                while i + 1 < len(a_links) and a_links[i + 1].number < b.number:
                    i += 1
                parent[b.number] = a_links[i]
        placed.append((b_set, common_chain(b_set)))
    return parent


def directory_index(url: str) -> str | None:
    """The directory a URL is the index page of (``/a/b/`` for ``/a/b/`` and
    ``/a/b/index.html``), or None (also for an unparsable URL)."""
    parts = split_url(url)
    if parts is None:
        return None
    path = parts.path or "/"
    if path.endswith("/") or path.rsplit("/", 1)[-1].lower() in INDEX_NAMES:
        return directory(url)
    return None


def directory_hosts(link_sets: Sequence[Sequence[LinkNode]], page_url: str) -> dict[int, LinkNode]:
    """For the accepted links of a flat menu, the directory index they hang from.

    A drop-down menu often lists a section's index page beside the section's
    pages (``user-guide/index.html``, ``user-guide/installation.html``, ...) in
    one flat list; the site's URLs say the pages belong to the section. A link
    hangs from the accepted link to the index page of its deepest enclosing
    directory below the current page's directory, in the same set (beyond the
    paper)."""
    here = directory(page_url)
    out: dict[int, LinkNode] = {}
    for link_set in link_sets:
        checkpoint()
        # a set's links hang from an index page of the same set: a separate list (a
        # "Topics" drop-down of categories beside a "Tags" entry linking categories/)
        # is the page's own, whatever its URLs' folders
        indexes: dict[str, LinkNode] = {}
        for link in link_set:
            d = directory_index(link.url) if link.url else None
            if d and d != here and d.startswith(here) and d not in indexes:
                indexes[d] = link
        if not indexes:
            continue
        for link in link_set:
            if not link.url:
                continue
            own = directory_index(link.url)
            d = directory(link.url)
            if own is not None:  # an index hangs from the index of the directory above
                d = directory(d.rstrip("/") or "/")
            while d.startswith(here) and d != here:
                host = indexes.get(d)
                if host is not None and host.url != link.url:
                    out[link.number] = host
                    break
                d = directory(d.rstrip("/") or "/")
    return out
