"""The site's sitemap read during the crawl (``SKELETON_SITEMAP``): the skeleton
spider's sitemap requests and their callbacks, a mixin of
:class:`skeleton.spiders.skeleton.SkeletonSpider`.

Why requests of the spider, and not an extension fetching on the side: every
sitemap file is then an ordinary Scrapy request, queued in the crawl's Redis
queue with a lease like a page (a worker that dies mid-file loses nothing),
filtered by the shared dupefilter (workers starting together fetch each file
once), and downloaded through the same middlewares (robots.txt, retries,
AutoThrottle, the size cap, redirects kept in the crawl's scope). The queue
only stores requests whose callbacks are public methods of the spider
(:mod:`skeleton.store.queue`), hence a mixin; it holds no state.

The spider's ``start`` yields :meth:`SitemapReader.sitemap_requests`: the host's
``/robots.txt`` (its ``Sitemap:`` lines) and ``sitemap.xml`` in the base URL's
folder (:func:`skeleton.sitemaps.files.default_sitemaps`). A sitemap index
queues the sitemaps it lists; a sitemap's page URLs in the crawl's scope
(:func:`skeleton.web.urls.in_scope`) are stored in ``:sitemap`` with their
``lastmod`` (:mod:`skeleton.store.sitemap`). Sitemap files are read from the
crawl's origin only (:func:`skeleton.sitemaps.files.sitemap_allowed`), at most
``SKELETON_SITEMAP_MAX_FILES`` of them and ``SKELETON_SITEMAP_MAX_URLS`` page
URLs over every worker. Nothing here makes a page, an item, an offer or a
request for a listed page: the sitemap is a report (``scrapy status``, the
exports), never a parent. Each response or failure ends its queue lease
(:data:`skeleton.store.queue.request_finished`).

Stats: ``skeleton/sitemap/files`` (files read), ``skeleton/sitemap/urls`` (page
URLs stored), ``skeleton/sitemap/out_of_scope`` (listed URLs out of the crawl's
scope, not kept), ``skeleton/sitemap/over_limit/files`` and ``/urls`` (left out
past the bounds), ``skeleton/sitemap/not_sitemap`` (a body that is no sitemap),
``skeleton/sitemap/failed/STATUS`` (a sitemap file that could not be fetched),
``skeleton/sitemap/errors`` (Redis or parsing errors: never cost the crawl).
"""
from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import scrapy
from scrapy.http import Response
from twisted.python.failure import Failure

from skeleton.middlewares.scope import META_REDIRECT_OFFSITE
from skeleton.web.urls import canonical, in_scope
from skeleton.sitemaps.files import INDEX, default_sitemaps, read_sitemap, robots_sitemaps, sitemap_allowed, sitemap_body
from skeleton.store import sitemap as store
from skeleton.store.queue import request_finished
from skeleton.store.server import StoreError

__all__ = ["SITEMAP_SETTING", "MAX_FILES_SETTING", "MAX_URLS_SETTING", "META_SITEMAP", "SitemapReader"]

logger = logging.getLogger(__name__)

SITEMAP_SETTING = "SKELETON_SITEMAP"
MAX_FILES_SETTING = "SKELETON_SITEMAP_MAX_FILES"
MAX_URLS_SETTING = "SKELETON_SITEMAP_MAX_URLS"
#: request meta key marking a sitemap request (its value: ``robots`` or ``sitemap``)
META_SITEMAP = "skeleton_sitemap"


def _status(failure: Failure) -> str:
    response = getattr(failure.value, "response", None)
    status = getattr(response, "status", None)
    return str(status) if status else type(failure.value).__name__


class SitemapReader:
    """Sitemap requests and callbacks of the skeleton spider (see the module).
    Expects ``base``, ``keys``, ``crawler``, ``settings`` and ``contexts`` (whose
    ``server()`` is the crawl's Redis client, :mod:`skeleton.store.contexts`) of the
    spider."""

    base: str
    keys: Any
    crawler: Any
    settings: Any
    contexts: Any

    def _redis(self) -> Any:
        return self.contexts.server()

    def sitemap_requests(self) -> list[scrapy.Request]:
        """The first sitemap requests of the crawl: ``robots.txt`` and the base
        folder's ``sitemap.xml``; none unless ``SKELETON_SITEMAP`` is on."""
        if not self.settings.getbool(SITEMAP_SETTING, False):
            return []
        robots, sitemap = default_sitemaps(self.base)
        return [scrapy.Request(robots, callback=self.parse_robots_sitemaps, errback=self.sitemap_failed,
                               meta={META_SITEMAP: "robots"}),
                self._sitemap_request(sitemap)]

    def _sitemap_request(self, url: str) -> scrapy.Request:
        return scrapy.Request(url, callback=self.parse_sitemap, errback=self.sitemap_failed,
                              meta={META_SITEMAP: "sitemap"})

    def _claimed(self, urls: list[str]) -> Iterator[scrapy.Request]:
        """Requests for the sitemap files ``urls`` this crawl may still read."""
        stats = self.crawler.stats
        limit = self.settings.getint(MAX_FILES_SETTING, 50)
        for url in urls:
            if not sitemap_allowed(url, self.base):
                stats.inc_value("skeleton/sitemap/out_of_scope_files")
                continue
            claim = store.claim_file(self._redis(), self.keys, url, limit)
            if claim < 0:
                stats.inc_value("skeleton/sitemap/over_limit/files")
            elif claim > 0:
                yield self._sitemap_request(url)

    def _finish(self, request: scrapy.Request) -> None:
        self.crawler.signals.send_catch_log(request_finished, request=request)

    def parse_robots_sitemaps(self, response: Response, **kwargs: Any) -> Iterator[scrapy.Request]:
        """Callback of ``robots.txt``: requests for the sitemaps it declares."""
        try:
            if not response.meta.get(META_REDIRECT_OFFSITE) and response.status == 200:
                yield from self._claimed(robots_sitemaps(response.body, response.url))
        except (StoreError, ValueError) as exc:
            self.crawler.stats.inc_value("skeleton/sitemap/errors")
            logger.warning("could not read the sitemaps of %s: %s", response.url, exc)
        self._finish(response.request)

    def parse_sitemap(self, response: Response, **kwargs: Any) -> Iterator[scrapy.Request]:
        """Callback of a sitemap file: a sitemap index queues its sitemaps, a
        sitemap's page URLs in scope are stored."""
        stats = self.crawler.stats
        url = response.meta.get("redirect_urls", [response.request.url])[0]  # the URL claimed
        try:
            server = self._redis()
            if store.claim_file(server, self.keys, url, self.settings.getint(MAX_FILES_SETTING, 50)) < 0:
                stats.inc_value("skeleton/sitemap/over_limit/files")
            elif response.meta.get(META_REDIRECT_OFFSITE):
                store.record_file(server, self.keys, url, "", 0, "redirect_offsite")
            else:
                yield from self._read(server, response, url)
        except (StoreError, ValueError) as exc:
            stats.inc_value("skeleton/sitemap/errors")
            logger.warning("could not read the sitemap %s: %s", url, exc)
        self._finish(response.request)

    def _read(self, server: Any, response: Response, url: str) -> Iterator[scrapy.Request]:
        stats = self.crawler.stats
        body = sitemap_body(response.body, self.settings.getint("DOWNLOAD_MAXSIZE", 0))
        found = read_sitemap(body, response.url) if body is not None else read_sitemap(b"", url)
        if not found.kind:
            stats.inc_value("skeleton/sitemap/not_sitemap")
            store.record_file(server, self.keys, url, "", 0, "not_sitemap")
            return
        stats.inc_value("skeleton/sitemap/files")
        if found.kind == INDEX:
            store.record_file(server, self.keys, url, found.kind, len(found.entries), "ok")
            yield from self._claimed([loc for loc, _ in found.entries])
            return
        kept: dict[str, str] = {}
        for loc, lastmod in found.entries:
            page = canonical(loc)
            if page and in_scope(page, self.base):
                kept[page] = lastmod
            else:
                stats.inc_value("skeleton/sitemap/out_of_scope")
        added, refused = store.add_urls(server, self.keys, kept.items(),
                                        self.settings.getint(MAX_URLS_SETTING, 50_000))
        stats.inc_value("skeleton/sitemap/urls", added)
        if refused:
            stats.inc_value("skeleton/sitemap/over_limit/urls", refused)
        store.record_file(server, self.keys, url, found.kind, len(kept), "ok")

    def sitemap_failed(self, failure: Failure) -> None:
        """Errback of a sitemap request: the file is recorded with its status (a
        sitemap the site does not have is a 404), never as a page."""
        request = failure.request  # type: ignore[attr-defined]
        url = request.meta.get("redirect_urls", [request.url])[0]
        status = _status(failure)
        self.crawler.stats.inc_value(f"skeleton/sitemap/failed/{status}")
        if request.meta.get(META_SITEMAP) == "sitemap":
            try:
                server = self._redis()
                if store.claim_file(server, self.keys, url, self.settings.getint(MAX_FILES_SETTING, 50)) >= 0:
                    store.record_file(server, self.keys, url, "", 0, status)
            except StoreError as exc:
                self.crawler.stats.inc_value("skeleton/sitemap/errors")
                logger.warning("could not record the sitemap %s: %s", url, exc)
        self._finish(request)
