"""Sort and filter controls: links from a listing to itself with a query it lacks.

A shop's category page ``/tools/`` that links ``/tools/?sort=price`` and
``/tools/?color=red`` offers other orders and subsets of its own listing, no other
page: every combination of its controls would otherwise be fetched (a faceted
shop made 2.6 to 3.7 fetches per true page). The rule is structural: the link
keeps the page's own path and adds a query to a page that has none, or only a page
number (``?page=2`` links the same controls as its first page). Kept apart:

* a query key whose values on the page are all numbers (``?page=2``, ``?id=12``:
  a pager or a record, :func:`skeleton.hierarchy.pagination.is_later_page` reads
  pagers). A key the page also links with a value that is no number is a control
  whatever its values: ``?size=40`` beside ``?size=xl`` is a filter;
* a page served by a script (``index.php``, ``default.aspx``, ...): a front
  controller names its pages by their query (``index.php?page=about``), so its
  links that keep its path are its site's pages.

Pure: applied per page by :func:`skeleton.urlrules.links.link_skip_reasons`.
"""
from __future__ import annotations

from collections.abc import Iterable

from skeleton.sew.nesting import INDEX_NAMES
from skeleton.web.urls import split_url

__all__ = ["SCRIPT_SUFFIXES", "control_links"]

#: a page whose last path segment ends so is served by a script: its query names pages
SCRIPT_SUFFIXES = (".php", ".php3", ".php4", ".php5", ".asp", ".aspx", ".jsp", ".jspx", ".cfm", ".cgi",
                   ".pl", ".py", ".do", ".action", ".nsf")


def control_links(page_url: str, urls: Iterable[str]) -> frozenset[str]:
    """The ``urls`` (absolute, canonical) that are sort or filter controls of the page
    ``page_url``: same scheme, host and path as the page (a folder, its ``index.html``
    and the folder's name without its slash alike), which has no query but numbers
    (``?page=2``) and is not served by a script (:data:`SCRIPT_SUFFIXES`), and a query of their own every
    key of which is a control key: among these links to the page's path, one holds
    a value of that key with no digit. Two passes over ``urls``."""
    page = split_url(page_url)
    if page is None or page.path.lower().endswith(SCRIPT_SUFFIXES) or not _numbered(page.query):
        return frozenset()
    path = _folder_path(page.path)
    own: list[tuple[str, list[tuple[str, str]]]] = []
    for url in urls:
        parts = split_url(url)
        if (parts is not None and parts.query and parts.netloc == page.netloc
                and parts.scheme == page.scheme and _folder_path(parts.path) == path):
            own.append((url, _pairs(parts.query)))
    keys = {key for _, pairs in own for key, value in pairs if not any(ch.isdigit() for ch in value)}
    return frozenset(url for url, pairs in own if all(key in keys for key, _ in pairs))


def _numbered(query: str) -> bool:
    """Is the query empty or only numbers (a later page of a listing, ``?page=2``,
    whose controls are its first page's)? A query naming a page (``?cat=shoes``)
    is not."""
    return all(value.isdigit() for _, value in _pairs(query))


def _folder_path(path: str) -> str:
    """``/a`` for ``/a/index.html``, ``/a/`` and ``/a`` (a folder, its index and its
    name without the slash are one page)."""
    head, _, name = (path or "/").rpartition("/")
    return head if name.lower() in INDEX_NAMES else (path or "/").rstrip("/")


def _pairs(query: str) -> list[tuple[str, str]]:
    """The query's ``(key, value)`` pairs, as written (no decoding: keys are compared)."""
    return [(key, value) for key, _, value in (pair.partition("=") for pair in query.split("&") if pair)]
