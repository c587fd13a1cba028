"""Every HTML page's body kept in Redis, for the analyses run after the crawl.

``KeptPagesMiddleware`` is a spider middleware. When the crawl keeps its pages
(:func:`skeleton.store.kept.keep_pages`: ``SKELETON_KEEP_PAGES=True``, or unset
with the ``wisdom`` analysis), the body of every 2xx HTML response up to
``SKELETON_KEEP_PAGES_MAX_BYTES`` is packed (:func:`skeleton.store.kept.pack_page`,
zlib) under its final URL in ``:page_html``, where ``scrapy informative`` and
``scrapy schema`` read it: a default crawl run with ``-s SKELETON_KEEP_PAGES=True``
can have its WISDOM blocks and logical schema computed afterwards, without
crawling again.

Pages wait for the scheduler's :data:`~skeleton.store.scheduler.flush_requested`
and are written in one pipelined round trip per batch, on the scheduler's I/O
thread before the pages' leases are acknowledged (as the entropy middleware's
counts); more than :data:`~skeleton.store.scheduler.MAX_BATCH_WAITING` waiting, or
the spider closing, writes them at once. Stats: ``skeleton/kept_pages/kept``,
``/too_large``, ``/bytes`` (compressed), ``/errors``.
"""
from __future__ import annotations

import logging
from functools import partial
from typing import TYPE_CHECKING, Any, Self

from scrapy import signals
from scrapy.exceptions import NotConfigured

from skeleton.middlewares.shared import crawl_keys, declared_encoding, inc_stat, page_to_analyse
from skeleton.web.urls import canonical
from skeleton.store import outage
from skeleton.store.kept import keep, keep_max_bytes, keep_pages, pack_page
from skeleton.store.keys import CrawlKeys
from skeleton.store.scheduler import MAX_BATCH_WAITING, flush_requested
from skeleton.store.server import StoreError, connect
from skeleton.store.writes import Write, submit

if TYPE_CHECKING:
    from skeleton.store.server import Client
    from scrapy.crawler import Crawler
    from scrapy.http import Response

__all__ = ["KeptPagesMiddleware", "STATS_PREFIX"]

logger = logging.getLogger(__name__)

STATS_PREFIX = "skeleton/kept_pages"


class KeptPagesMiddleware:
    """Keeps every HTML page's compressed body in ``:page_html``, in batches."""

    def __init__(self, crawler: Crawler, server: Client, keys: CrawlKeys, max_bytes: int) -> None:
        self.crawler = crawler
        self.server = server
        self.keys = keys
        self.max_bytes = max_bytes
        self.waiting: dict[str, bytes] = {}

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        if not keep_pages(crawler.settings):
            raise NotConfigured  # off by default: -s SKELETON_KEEP_PAGES=True, or -a analyses=wisdom
        middleware = cls(crawler, connect(crawler.settings), crawl_keys(crawler, "KeptPagesMiddleware"),
                         keep_max_bytes(crawler.settings))
        crawler.signals.connect(middleware.flush, signal=flush_requested)
        crawler.signals.connect(middleware.spider_closed, signal=signals.spider_closed)
        return middleware

    def _inc(self, name: str, count: int = 1) -> None:
        inc_stat(self.crawler, f"{STATS_PREFIX}/{name}", count)

    def process_spider_input(self, response: Response) -> None:
        if not page_to_analyse(response, self.crawler):
            return
        if len(response.body) > self.max_bytes:
            self._inc("too_large")
            return
        url = canonical(response.url) or response.url  # the final URL, as the spider records it
        self.waiting[url] = pack_page(response.body, url, declared_encoding(response))
        if len(self.waiting) > MAX_BATCH_WAITING:
            self.flush()

    def flush(self, writes: list[Write] | None = None) -> None:
        """Write the pages waiting in one round trip: handed to the scheduler's
        exchange on ``flush_requested`` (``writes``), at once otherwise."""
        waiting, self.waiting = self.waiting, {}
        if not waiting or outage.is_down(self.crawler):
            return
        submit(Write(partial(self._write, waiting), partial(self._written, waiting),
                     partial(self._not_written, len(waiting))), writes)

    def _write(self, waiting: dict[str, bytes]) -> None:
        keep(self.server, self.keys, waiting)

    def _written(self, waiting: dict[str, bytes], _: Any) -> None:
        self._inc("kept", len(waiting))
        self._inc("bytes", sum(len(blob) for blob in waiting.values()))

    def _not_written(self, pages: int, exc: Exception) -> None:
        if outage.is_down(self.crawler):
            return  # declared by another write of the same exchange
        self._inc("errors")
        if not isinstance(exc, StoreError):
            logger.error("could not keep %d pages: %r", pages, exc, exc_info=exc)
            return
        logger.warning("could not keep %d pages: %s", pages, exc)
        outage.redis_failed(self.crawler, exc, "keeping the crawled pages")

    def spider_closed(self) -> None:
        try:
            self.flush()
        finally:
            self.server.close()
