"""The requests the skeleton spider makes: the meta they carry, a page's child
request and a page put back in the queue past the page budget.

Every page request carries its depth, the page that found it, the id of the
LinkSetDup context its detection uses (:mod:`skeleton.store.contexts`) and the
language the crawl maps; the queue stores them with it (:mod:`skeleton.store.queue`).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import scrapy
from scrapy.http import Response

from skeleton.analysis.page import PageAnalysis
from skeleton.store.queue import LEASE_META

__all__ = ["META_CONTEXT", "META_DEPTH", "META_LANG", "META_PARENT", "child_requests", "page_request", "requeued"]

META_DEPTH, META_PARENT = "skeleton_depth", "skeleton_parent"
#: the id of the LinkSetDup context carried with each request (the ancestors'
#: navigation link sets and the parent's rejected candidates, stored once in the
#: crawl's ``:contexts``, :mod:`skeleton.sew.context`); "" for none
META_CONTEXT = "skeleton_context"
#: the language the crawl maps, decided on the home page and carried with every request
META_LANG = "skeleton_lang"


def page_request(url: str, depth: int, parent: str | None, context: str, language: str | None,
                 callback: Callable[..., Any], errback: Callable[..., Any]) -> scrapy.Request:
    """The request of the page ``url`` found at ``depth`` by ``parent``."""
    return scrapy.Request(url, callback=callback, errback=errback, meta={
        META_DEPTH: depth, META_PARENT: parent, META_CONTEXT: context, META_LANG: language})


def child_requests(found: PageAnalysis, depth: int, max_depth: int | None, context: str, stats: Any,
                   callback: Callable[..., Any], errback: Callable[..., Any]) -> list[scrapy.Request]:
    """The requests of the links a page at ``depth`` follows (within ``max_depth``;
    stat ``skeleton/depth_limited`` for the others), then of the places it declares
    (breadcrumb, up, filed, pager: fetched even when no navigation set links them;
    ``skeleton/declared_followed``), with the LinkSetDup ``context`` and the crawl's
    language."""
    requests = []
    for url, _, parent, level in found.followed:
        if max_depth is not None and depth + level > max_depth:
            stats.inc_value("skeleton/depth_limited")
            continue
        requests.append(page_request(url, depth + level, parent, context, found.language, callback, errback))
    if max_depth is None or depth + 1 <= max_depth:
        for url in found.places:
            stats.inc_value("skeleton/declared_followed")
            requests.append(page_request(url, depth + 1, found.url, context, found.language, callback, errback))
    return requests


def requeued(response: Response, callback: Callable[..., Any], errback: Callable[..., Any]) -> scrapy.Request:
    """The request of a page answered once the page budget was spent, to be put back
    in the persistent queue so that resuming the crawl fetches it: its first URL
    (before redirects), its meta, and its lease, which pushing it ends
    (:mod:`skeleton.store.queue`); never filtered as a duplicate."""
    first_url = response.meta.get("redirect_urls", [response.url])[0]
    meta = {key: response.meta.get(key) for key in (META_DEPTH, META_PARENT, META_CONTEXT, META_LANG)}
    if LEASE_META in response.meta:
        meta[LEASE_META] = response.meta[LEASE_META]
    return scrapy.Request(first_url, callback=callback, errback=errback, dont_filter=True, meta=meta)
