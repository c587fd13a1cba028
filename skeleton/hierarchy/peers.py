"""The trees a user could draw without the skeleton: the peers it must never lose to.

* :func:`bfs_tree`: an SEO crawler's tree. Every link is followed breadth-first from the
  start page and each page hangs from the page whose link reached it first.
* :func:`folder_tree`: the URL-folder tree. Each crawled page hangs from the nearest crawled
  page whose URL names a folder containing it (``/a/b/c.html`` under ``/a/b/``, else under
  ``/a/b.html``'s folder ``/a/b/``, else ``/a/``, ... else the start page).

Both are benchmarks' baselines (``benchmarks/farm_loo.py``) and pure functions of the
pages and their links; neither reads a page.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable

from skeleton.web.urls import directory, split_url

from skeleton.sew.nesting import INDEX_NAMES, section_folder

__all__ = ["bfs_tree", "folder_tree", "folder_owners"]


def bfs_tree(root: str, links: Callable[[str], Iterable[str]],
             max_pages: int | None = None) -> dict[str, str]:
    """Child -> parent: each page reached from ``root`` over ``links(page)`` (the page's
    followed links, in document order) hangs from the page that reached it first, in
    breadth-first order. At most ``max_pages`` pages are visited (the root included)."""
    parent: dict[str, str] = {}
    seen = {root}
    queue = deque([root])
    while queue and (max_pages is None or len(seen) <= max_pages):
        page = queue.popleft()
        for child in links(page):
            if child not in seen:
                seen.add(child)
                parent[child] = page
                queue.append(child)
    return parent


def _host(url: str) -> str:
    parts = split_url(url)
    return parts.netloc.lower() if parts is not None else ""


def _is_index(url: str) -> bool:
    parts = split_url(url)
    name = ((parts.path if parts is not None else "") or "/").rsplit("/", 1)[-1]
    return not name or name.lower() in INDEX_NAMES


def folder_owners(pages: Iterable[str]) -> dict[tuple[str, str], str]:
    """(host, folder) -> the page that names it (:func:`.offers.section_folder`): a
    folder's index page before a page named like the folder (``/a/`` before ``/a.html``),
    then the smaller URL; pages with a query name no folder."""
    owners: dict[tuple[str, str], str] = {}
    for page in sorted(pages, key=lambda u: (not _is_index(u), u)):
        if "?" in page:
            continue
        owners.setdefault((_host(page), section_folder(page)), page)
    return owners


def folder_tree(root: str, pages: Iterable[str]) -> dict[str, str]:
    """Child -> parent: every page but ``root`` under the nearest other page whose folder
    (:func:`folder_owners`) holds it, walking up the page's directory; ``root`` when no
    page names any of its folders. Linear in the pages' total path length."""
    pages = list(pages)
    owners = folder_owners(pages)
    parent: dict[str, str] = {}
    for page in pages:
        if page == root:
            continue
        host = _host(page)
        folder = directory(page.split("?", 1)[0])
        found = root
        while True:
            owner = owners.get((host, folder))
            if owner is not None and owner != page:
                found = owner
                break
            if folder == "/":
                break
            folder = folder[: folder.rstrip("/").rfind("/") + 1] or "/"
        parent[page] = found
    return parent
