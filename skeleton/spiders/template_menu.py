"""Scrapy and Redis glue for the skeleton spider's ``-a template_menu=N``.

:func:`load_template_menu` runs before the crawl (from the spider's ``start()``):
it reads the crawl's template menu from ``:meta`` (field
``skeleton.store.keys.META_TEMPLATE_MENU``) or, when no worker stored one yet, finds the
n-complete subdigraph from the base URL (:func:`skeleton.template.crawl.search_template_menu`)
and stores it there. The first stored value wins (``HSETNX``) and every worker
uses the value read back, so workers of one crawl share one menu.

The pages of the search are downloaded one at a time with
``engine.download_async``: they go through the downloader middlewares (robots.txt,
retries, delays) but not through the scheduler, whose Redis queue the workers
share, nor the spider middlewares and pipelines, so they are not recorded as
skeleton pages (a page the crawl reaches later is fetched again). Their requests
carry ``NO_CALLBACK``: their links are read here, no spider callback parses them.
"""
from __future__ import annotations

import logging
from functools import partial
from typing import TYPE_CHECKING

import scrapy
from scrapy.http import Response
from scrapy.http.request import NO_CALLBACK

from skeleton.store import outage
from skeleton.middlewares.shared import declared_encoding, html_response
from skeleton.store.keys import CrawlKeys
from skeleton.store.meta import store_template_menu, stored_template_menu
from skeleton.store.server import connect
from skeleton.web.dom import looks_binary, parse_html
from skeleton.template.crawl import MENU_MAX_LOADS, decode_menu, encode_menu, search_template_menu
from skeleton.template.links import KeyLink, page_links

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

__all__ = ["MENU_REQUEST_META", "response_links", "load_template_menu"]

logger = logging.getLogger(__name__)

#: Set on the requests of the template menu search.
MENU_REQUEST_META = "skeleton_template_menu"


def response_links(response: Response) -> list[KeyLink] | None:
    """The same-domain links of an HTML response (getLinks); None for other content."""
    if not html_response(response) or looks_binary(response.body):
        return None
    root = parse_html(response.body, declared_encoding(response))
    return page_links(root, response.url)


async def _fetch_links(crawler: Crawler, url: str) -> list[KeyLink] | None:
    """Download ``url`` (downloader middlewares only); None when it cannot be loaded."""
    assert crawler.engine is not None
    request = scrapy.Request(url, callback=NO_CALLBACK, dont_filter=True,
                             meta={MENU_REQUEST_META: True})
    try:
        response = await crawler.engine.download_async(request)
    except Exception as exc:  # download error, robots.txt (IgnoreRequest), ...
        logger.debug("template menu: could not load %s: %s", url, exc)
        return None
    if not 200 <= response.status < 300:
        return None
    return response_links(response)


async def load_template_menu(crawler: Crawler, base: str, n: int, keys: CrawlKeys) -> set[str]:
    """The crawl's template menu URLs (empty when none was found), from ``:meta``
    or found now and stored there; logs the outcome once."""
    stats = crawler.stats
    assert stats is not None
    max_loads = MENU_MAX_LOADS  # None: the search's budget, LOADS_PER_MEMBER * n
    if crawler.settings.get("SKELETON_TEMPLATE_MENU_MAX_LOADS") is not None:
        max_loads = max(1, crawler.settings.getint("SKELETON_TEMPLATE_MENU_MAX_LOADS"))
    server = connect(crawler.settings)
    try:
        menu = decode_menu(stored_template_menu(server, keys))
        if menu is None:
            result = await search_template_menu(base, partial(_fetch_links, crawler), n,
                                                max_loads)
            stats.set_value("skeleton/template_menu/loaded", result.loaded)
            menu = decode_menu(store_template_menu(server, keys, encode_menu(result))) or set()
            source = f"{result.loaded} pages loaded"
        else:
            stats.set_value("skeleton/template_menu/loaded", 0)
            source = "read from the crawl's metadata"
    except outage.REDIS_ERRORS as exc:
        outage.redis_down(crawler, exc, "storing the template menu")
        return set()
    finally:
        server.close()
    stats.set_value("skeleton/template_menu/size", len(menu))
    if menu:
        logger.info("template menu of %s: %d links (%s)", base, len(menu), source)
    else:
        logger.info("no template menu found from %s (%s): crawling without it", base, source)
    return menu
