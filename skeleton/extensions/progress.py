"""A crawl's progress, one line every few seconds, and its summary at the end.

``CrawlProgress`` is an extension of the skeleton spider (``NotConfigured`` for any
other spider, or when ``SKELETON_PROGRESS_INTERVAL`` is 0). It replaces Scrapy's
once-a-minute ``LogStats`` line (switched off in the project settings) with one
INFO line every ``SKELETON_PROGRESS_INTERVAL`` seconds (default 5)::

    crawl docs-1a2b: 420 pages (380 navigation, 3 failed), 1250 pages/min; 1200 queued, 16 in flight, 2 workers

The pages, navigation pages, failures and rate are this worker's (Scrapy's stats);
queued requests, requests in flight (leased by any worker) and the workers alive
are the crawl's, read from Redis in one round trip (:mod:`skeleton.store.keys`).
A Redis that does not answer leaves those out of the line.

When the engine stops (after Scrapy's own closing lines) it logs the summary, the
last line of the run: the pages this worker analysed and, when this worker
resolved the crawl's tree (:mod:`skeleton.extensions.lifecycle`, which records the
tree's size and depths in ``:meta``), the nodes per depth, the failed pages, and
the command that shows the tree.
"""
from __future__ import annotations

import json
import logging
import time
from typing import TYPE_CHECKING, Any, Self

from scrapy import signals
from scrapy.exceptions import NotConfigured
from twisted.internet.task import LoopingCall

from skeleton.store import outage
from skeleton.store.keys import CrawlKeys
from skeleton.store.queue import workers_alive
from skeleton.store.server import connect

if TYPE_CHECKING:
    import redis
    from scrapy.crawler import Crawler

__all__ = ["CrawlProgress", "DEFAULT_INTERVAL", "progress_line", "summary_line"]

logger = logging.getLogger("skeleton.progress")

#: seconds between two progress lines
DEFAULT_INTERVAL = 5.0


def progress_line(crawl: str, stats: dict[str, Any], per_minute: float,
                  shared: tuple[int, int, int] | None) -> str:
    """The progress line of ``crawl`` from this worker's ``stats`` (Scrapy's), its
    rate and the crawl's ``(queued, in flight, workers)`` (None: not known)."""
    line = (f"crawl {crawl}: {int(stats.get('skeleton/pages', 0))} pages "
            f"({int(stats.get('skeleton/nav_pages', 0))} navigation, "
            f"{int(stats.get('skeleton/failed_pages', 0))} failed), {per_minute:.0f} pages/min")
    if shared is not None:
        queued, in_flight, workers = shared
        line += (f"; {queued} queued, {in_flight} in flight, {workers} "
                 f"worker{'s' if workers != 1 else ''}")
    return line


def summary_line(crawl: str, reason: str, stats: dict[str, Any], meta: dict[str, str]) -> str:
    """The summary of a run: this worker's pages and, when ``meta`` (the crawl's
    ``:meta``) holds the resolved tree's ``tree_pages`` and ``depths``, the tree."""
    pages = int(stats.get("skeleton/pages", 0))
    failed = int(stats.get("skeleton/failed_pages", 0))
    line = f"crawl {crawl} {reason}: {pages} pages analysed by this worker, {failed} failed"
    nodes = meta.get("tree_pages")
    if nodes and meta.get("finish_reason"):
        try:
            depths = {int(d): int(n) for d, n in json.loads(meta.get("depths") or "{}").items()}
        except (ValueError, TypeError, AttributeError):
            depths = {}
        per_depth = " ".join(f"{d}:{n}" for d, n in sorted(depths.items()))
        line += (f"; tree of {nodes} nodes" + (f" (nodes per depth {per_depth})" if per_depth else "")
                 + f"; see it with `scrapy tree --crawl {crawl} --format text`")
    return line


class CrawlProgress:
    """Logs the crawl's progress every ``interval`` seconds and its summary at the end."""

    def __init__(self, crawler: Crawler, server: redis.Redis, keys: CrawlKeys, interval: float) -> None:
        self.crawler = crawler
        self.server = server
        self.keys = keys
        self.interval = interval
        self.lease = crawler.settings.getfloat("SKELETON_LEASE_TIMEOUT", 60.0)
        self.loop: LoopingCall | None = None
        self.last: tuple[float, int] | None = None
        self.reason = "finished"

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        interval = crawler.settings.getfloat("SKELETON_PROGRESS_INTERVAL", DEFAULT_INTERVAL)
        if interval <= 0:
            raise NotConfigured("SKELETON_PROGRESS_INTERVAL is 0")
        spider = crawler.spider
        if not hasattr(spider, "crawl_id"):
            raise NotConfigured("CrawlProgress works with the skeleton spider only")
        progress = cls(crawler, connect(crawler.settings, retries=0), CrawlKeys(spider.crawl_id),
                       interval)
        crawler.signals.connect(progress.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(progress.spider_closed, signal=signals.spider_closed)
        crawler.signals.connect(progress.engine_stopped, signal=signals.engine_stopped)
        return progress

    def _stats(self) -> dict[str, Any]:
        assert self.crawler.stats is not None
        return self.crawler.stats.get_stats()

    def spider_opened(self, spider: Any) -> None:
        self.last = (time.monotonic(), 0)
        self.loop = LoopingCall(self.log_progress)
        self.loop.start(self.interval, now=False)

    def _shared(self) -> tuple[int, int, int] | None:
        if outage.is_down(self.crawler):
            return None
        try:
            pipe = self.server.pipeline(transaction=False)
            pipe.llen(self.keys.requests)
            pipe.hlen(self.keys.inflight)
            queued, in_flight = pipe.execute()
            return int(queued), int(in_flight), workers_alive(self.server, self.keys, self.lease)
        except outage.REDIS_ERRORS:
            return None  # the components that need Redis report it

    def log_progress(self) -> None:
        stats = self._stats()
        pages = int(stats.get("skeleton/pages", 0))
        now = time.monotonic()
        then, before = self.last or (now, pages)
        self.last = (now, pages)
        per_minute = (pages - before) * 60.0 / (now - then) if now > then else 0.0
        logger.info(progress_line(self.keys.crawl, stats, per_minute, self._shared()))

    def spider_closed(self, spider: Any, reason: str) -> None:
        self.reason = reason
        if self.loop is not None and self.loop.running:
            self.loop.stop()

    def engine_stopped(self) -> None:
        meta: dict[str, str] = {}
        try:
            if not outage.is_down(self.crawler):
                meta = {_text(k): _text(v) for k, v in self.server.hgetall(self.keys.meta).items()}
        except outage.REDIS_ERRORS:
            pass
        finally:
            self.server.close()
        logger.info(summary_line(self.keys.crawl, self.reason, self._stats(), meta))


def _text(value: bytes | str) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else value
