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

import re
from collections.abc import Iterable

from skeleton.hierarchy.pagination import first_page_folder
from skeleton.sew.nesting import INDEX_NAMES, directory_index
from skeleton.web.urls import split_url

__all__ = ["FACET_MIN_KEYS", "FACET_MIN_VALUES", "SCRIPT_SUFFIXES", "control_links", "facet_links"]

#: a page whose last path segment ends so is served by a script: its query names pages
SCRIPT_SUFFIXES = (".php", ".php3", ".php4", ".php5", ".asp", ".aspx", ".jsp", ".jspx", ".cfm", ".cgi",
                   ".pl", ".py", ".do", ".action", ".nsf")

#: a page's child-folder links are facets when at least this many keys...
FACET_MIN_KEYS = 2
#: ...each name at least this many values (``m-leather``, ``m-linen``; ``b-acme``, ``b-vela``)
FACET_MIN_VALUES = 2
_SLUG = re.compile(r"[^\w]+", re.UNICODE)
#: a count after a facet's value: ``leather (12)``, ``leather [12]``
_COUNT = re.compile(r"\s*[(\[]\s*\d+\s*[)\]]\s*$")


def control_links(page_url: str, urls: Iterable[str]) -> frozenset[str]:
    """The ``urls`` (absolute, canonical) that are sort or filter controls of the page
    ``page_url``: same scheme, host and path as the page (a folder, its ``index.html``
    and the folder's name without its slash alike), which has no query but numbers
    (``?page=2``) and is not served by a script (:data:`SCRIPT_SUFFIXES`), and a
    query of their own every key of which is a control key: among these links to
    the page's path, one holds a value of that key with no digit. Two passes over
    ``urls``."""
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


def facet_links(page_url: str, links: Iterable[tuple[str, str]]) -> frozenset[str]:
    """The ``links`` (``(url, text)``, absolute) that are filters written in the path:
    each leads to a folder right below the page's own (a folder's index page) named
    ``KEY-VALUE`` or ``KEY_VALUE``, whose link text is the value (``/shoes/m-leather/``
    "leather", ``/shoes/color_red/`` "Red (4)"), and the page links at least
    ``FACET_MIN_KEYS`` keys so, each with ``FACET_MIN_VALUES`` values or more; a key
    of digits only is a date or a number (``/blog/2024-recap/`` "Recap"), no key. A
    sub-section's folder is named for its whole text (``/shoes/boots/`` "Boots"). A
    later page (``/shoes/page/2/``) links its first page's facets. One pass over the
    links."""
    page = split_url(page_url)
    here = directory_index(page_url)
    if page is None or here is None:
        return frozenset()
    here = first_page_folder(here)
    groups: dict[str, set[str]] = {}
    for url, text in links:
        folder = directory_index(url)
        if folder is None or not folder.startswith(here) or url == page_url:
            continue
        parts = split_url(url)
        if parts is None or parts.netloc != page.netloc:  # another host's folders are not this page's
            continue
        segment = folder[len(here):].rstrip("/")
        value = _SLUG.sub("-", _COUNT.sub("", text or "").strip().casefold()).strip("-")
        if not value or "/" in segment or len(segment) <= len(value) + 1:
            continue
        key, sep, tail = segment[: -len(value) - 1], segment[-len(value) - 1], segment[-len(value):]
        if sep in "-_" and tail.casefold().replace("_", "-") == value and key.isalnum() and not key.isdigit():
            groups.setdefault(key, set()).add(url)
    facets = [urls for urls in groups.values() if len(urls) >= FACET_MIN_VALUES]
    return frozenset(url for urls in facets for url in urls) if len(facets) >= FACET_MIN_KEYS else frozenset()


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
