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

__all__ = ["common_chain", "is_nested", "nest_link_sets", "directory_index", "directory_hosts", "folder_holds",
           "misplaced_hosts", "section_folder"]

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


def nest_link_sets(link_sets: Sequence[Sequence[LinkNode]],
                   page_links: Sequence[LinkNode] = ()) -> dict[int, LinkNode]:
    """For every link (by number) of a nested set, the link it hangs from.

    With the page's links (``page_links``, in document order), a nested link hangs
    from its group's own head instead, when the group lies inside the host's entry and
    its head is in no accepted set (:func:`_group_head`; beyond the paper)."""
    ordered = sorted((s for s in link_sets if s), key=lambda s: (s[0].depth, s[0].number))
    placed: list[tuple[Sequence[LinkNode], tuple[int, ...]]] = []
    parent: dict[int, LinkNode] = {}
    first_links: dict[int, LinkNode] | None = None  # read once, when a set is nested
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
            members = {b.number for b in b_set}
            for b in b_set:  # both in document order
                while i + 1 < len(a_links) and a_links[i + 1].number < b.number:
                    i += 1
                a = a_links[i]
                if page_links:
                    if first_links is None:
                        first_links = _first_links(page_links)
                    a = _group_head(b, a, members, first_links) or a
                parent[b.number] = a
        placed.append((b_set, common_chain(b_set)))
    return parent


def _first_links(page_links: Sequence[LinkNode]) -> dict[int, LinkNode]:
    """Element id -> the first link to a page inside it, for every element holding a
    link: one pass over the links' ancestor chains (linear in the page's size)."""
    first: dict[int, LinkNode] = {}
    for link in page_links:
        if link.url:
            for element in link.chain:
                first.setdefault(element, link)
    return first


def _group_head(b: LinkNode, host: LinkNode, members: set[int],
                first_links: dict[int, LinkNode]) -> LinkNode | None:
    """The head of the group ``b`` is listed in, when it is no link of ``b``'s own set:
    the first link of the smallest element around ``b``, below the element ``b`` shares
    with ``host``, whose first link is outside ``b``'s set and whose URL folder holds
    ``b`` (a collapsible group ``<section><div><a href=/guide/>Guide</a></div><div>
    ..items..</div></section>`` whose head link is in no accepted set of its own)."""
    shared = len(commonprefix([host.chain, b.chain]))
    for element in reversed(b.chain[shared:]):
        head = first_links.get(element)
        if head is None or head.number >= b.number or head.number in members:
            continue
        return head if folder_holds(head.url, b.url) else None
    return None


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


def _indexes_below(link_set: Sequence[LinkNode], here: str) -> dict[str, LinkNode]:
    """Directory -> the first link of the set to its index page, for the directories
    below ``here`` (the current page's own)."""
    found: dict[str, LinkNode] = {}
    for link in link_set:
        d = directory_index(link.url) if link.url else None
        if d and d != here and d.startswith(here) and d not in found:
            found[d] = link
    return found


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
        indexes = _indexes_below(link_set, here)
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


def section_folder(url: str) -> str:
    """The folder a page names as its section: its own directory when it is a
    directory's index (``/en/mod/``, ``/en/mod/index.html``), else its path without
    the extension (``/category/devops.html`` -> ``/category/devops/``); ``/`` for an
    unparsable URL."""
    parts = split_url(url)
    path = (parts.path if parts is not None else "") or "/"
    name = path.rsplit("/", 1)[-1]
    if not name or name.lower() in INDEX_NAMES:
        return path[: len(path) - len(name)] or "/"
    return path.rsplit(".", 1)[0] + "/" if "." in name else path + "/"


def folder_holds(page: str, child: str) -> bool:
    """Whether ``child`` lies in the folder ``page`` names as its section
    (:func:`section_folder`), on the same host, and is not ``page`` itself: the home
    page's folder holds every page of its site, ``/docs/`` holds ``/docs/a/b``,
    ``/category/devops.html`` holds ``/category/devops/post.html``. A heading that is
    no page (``#``, an empty URL) holds nothing."""
    a, b = split_url(page), split_url(child)
    if not page or a is None or b is None or a.netloc != b.netloc or page == child:
        return False
    return (b.path or "/").startswith(section_folder(page))


def misplaced_hosts(link_sets: Sequence[Sequence[LinkNode]], hosts: dict[int, LinkNode],
                    page_url: str) -> dict[int, LinkNode]:
    """Nested entries whose host the site's URLs contradict, and the index page they
    hang from instead.

    A drop-down whose sub-menu opens from a label that is no page (``href="#"``:
    Bootstrap's ``dropdown-submenu``, MkDocs' default themes) lists the section's
    index first and its pages after it; document order then hangs the sub-menu from
    the label or from the entry before it, a sibling, or from the section above. The
    deepest directory holding a link (below the current page's directory) whose
    index page is an accepted link of the link's own set, or of its host's set
    inside a smaller container than that whole set (the same drop-down, not another
    entry of the menu bar), is its host instead, when the host (``hosts``, from
    :func:`nest_link_sets`) does not hold the link (:func:`folder_holds`) or holds that
    index page too: a section's index, listed beside its pages, files them, as
    :func:`directory_hosts` says for flat menus (beyond the paper). A label's own
    list without its index (a "Categories" drop-down of category pages beside a
    separate ``categories/`` entry of the menu bar) keeps its host."""
    here = directory(page_url)
    set_of: dict[int, int] = {}
    indexes: list[dict[str, LinkNode]] = []
    spans: list[int] = []
    for index, link_set in enumerate(link_sets):
        for link in link_set:
            set_of.setdefault(link.number, index)
        indexes.append(_indexes_below(link_set, here))
        spans.append(len(common_chain(link_set)) if link_set else 0)
    out: dict[int, LinkNode] = {}
    for link_set in link_sets:
        checkpoint()
        for link in link_set:
            host = hosts.get(link.number)
            if host is None or not link.url:
                continue
            own = indexes[set_of[link.number]]
            other = set_of.get(host.number)
            d = directory(link.url)
            if directory_index(link.url) is not None:
                d = directory(d.rstrip("/") or "/")
            while d.startswith(here) and d != here:
                found = own.get(d)
                if (found is None or found.url == link.url) and other is not None:
                    found = indexes[other].get(d)
                    if found is not None and len(commonprefix([found.chain, link.chain])) <= spans[other]:
                        found = None
                if found is not None and found.url != link.url:
                    if found.url != host.url and (not folder_holds(host.url, link.url) or folder_holds(host.url, found.url)):
                        out[link.number] = found
                    break
                d = directory(d.rstrip("/") or "/")
    return out
