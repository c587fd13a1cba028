"""Sort and filter controls: links from a listing to itself with a query it lacks.

A shop's category page ``/tools/`` that links ``/tools/?sort=price`` and
``/tools/?color=red`` offers other orders and subsets of its own listing, no other
page: every combination of its controls would otherwise be fetched (a faceted
shop made 2.6 to 3.7 fetches per true page). The rule is structural: the link
keeps the page's own path and adds a query to a page that has none. Kept apart:

* a query whose values include a number (``?page=2``, ``?id=12``: a pager or a
  record, :func:`skeleton.hierarchy.pagination.is_later_page` reads pagers);
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
    ``page_url``: same scheme, host and path as the page (a folder and its
    ``index.html`` alike), which has no query, and a
    query of their own none of whose values holds a digit, the page not served by
    a script (:data:`SCRIPT_SUFFIXES`)."""
    page = split_url(page_url)
    if page is None or page.query or page.path.lower().endswith(SCRIPT_SUFFIXES):
        return frozenset()
    path = _folder_path(page.path)
    found = set()
    for url in urls:
        parts = split_url(url)
        if (parts is not None and parts.query and _folder_path(parts.path) == path
                and parts.netloc == page.netloc and parts.scheme == page.scheme
                and not any(ch.isdigit() for ch in _values(parts.query))):
            found.add(url)
    return frozenset(found)


def _folder_path(path: str) -> str:
    """``/a/`` for ``/a/index.html`` (a folder and its index are one page)."""
    head, _, name = (path or "/").rpartition("/")
    return head + "/" if name.lower() in INDEX_NAMES else path or "/"


def _values(query: str) -> str:
    return "".join(pair.partition("=")[2] for pair in query.split("&"))
