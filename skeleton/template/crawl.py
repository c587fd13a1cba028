"""The template menu in the live skeleton crawl (``-a template_menu=N``): pure
helpers, no Scrapy or Redis.

Before the crawl, the spider runs Algorithm 2 from the base URL one page at a
time (:class:`.subdigraph.CSSearch`) through :func:`search_template_menu`, with
an asynchronous ``fetch_links`` and a bounded number of page loads, and keeps
the menu (:func:`.menu.menu_urls`) in the crawl's ``:meta`` as the JSON of
:func:`encode_menu`; every worker then reads the same menu back
(:func:`decode_menu`). Pages at depth ``MENU_MIN_DEPTH`` and deeper get it as
one more LinkSetDup template set (:func:`templates_with_menu`), as the offline
step :func:`.skeleton_step.find_skeleton_with_menu` does.
"""
from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from .links import KeyLink
from .menu import menu_urls
from .skeleton_step import MENU_MIN_DEPTH
from .subdigraph import CSResult, CSSearch

__all__ = ["MENU_MAX_LOADS", "AsyncFetchLinks", "search_template_menu", "encode_menu",
           "decode_menu", "templates_with_menu"]

#: Page loads allowed to find the n-CS, the base page included; None: the
#: search's own budget, ``subdigraph.LOADS_PER_MEMBER * n`` (12 for n = 3).
MENU_MAX_LOADS: int | None = None

#: ``fetch_links(url)`` awaited: the page's links, or None when it cannot be loaded.
AsyncFetchLinks = Callable[[str], Awaitable[Sequence[KeyLink | str] | None]]


async def search_template_menu(base_url: str, fetch_links: AsyncFetchLinks, n: int,
                               max_loads: int | None = MENU_MAX_LOADS) -> CSResult:
    """Algorithm 2 from ``base_url``, one awaited page at a time, in the order of
    :class:`.subdigraph.CSSearch`, at most ``max_loads`` loads (base page
    included; None: the search's default budget)."""
    search = CSSearch(base_url, await fetch_links(base_url), n, max_loads)
    while (url := search.next_url()) is not None:
        search.add(await fetch_links(url))
    return search.result


def encode_menu(result: CSResult) -> str:
    """The ``:meta`` value for a search result: JSON with the menu URLs (sorted;
    empty when no menu was found), ``n``, the pages of the subdigraph and ``loaded``."""
    return json.dumps({"n": result.size, "urls": sorted(menu_urls(result)),
                       "pages": result.pages, "loaded": result.loaded}, sort_keys=True)


def decode_menu(raw: str | bytes | None) -> set[str] | None:
    """The menu URLs stored by :func:`encode_menu`; None when there is no valid value
    (then the menu is to be computed), an empty set when none was found."""
    if raw is None:
        return None
    try:
        data: Any = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return None
    urls = data.get("urls") if isinstance(data, dict) else None
    if not isinstance(urls, list) or not all(isinstance(u, str) for u in urls):
        return None
    return set(urls)


def templates_with_menu(template: list[set[str]], menu: set[str] | frozenset[str],
                        depth: int, min_depth: int = MENU_MIN_DEPTH) -> list[set[str]]:
    """The template sets for detection on a page at ``depth``: ``template``, plus
    the menu from ``min_depth`` on (unchanged without a menu)."""
    return [*template, set(menu)] if menu and depth >= min_depth else template
