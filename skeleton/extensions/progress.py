"""A crawl's progress, one line every few seconds (a bar on a terminal), and its
summary at the end.

``CrawlProgress`` is an extension of the skeleton spider (``NotConfigured`` for any
other spider, or when ``SKELETON_PROGRESS_INTERVAL`` is 0). It replaces Scrapy's
once-a-minute ``LogStats`` line (switched off in the project settings) with one
INFO line every ``SKELETON_PROGRESS_INTERVAL`` seconds (default 5)::

    crawl docs-1a2b: 420 pages (380 navigation, 3 failed), 1250 pages/min; 1200 queued, 16 in flight, 2 workers

The pages, navigation pages, failures and rate are this worker's (Scrapy's stats);
queued requests, requests in flight (leased by any worker) and the workers alive
are the crawl's, read from Redis in one round trip (:mod:`skeleton.store.keys`).
A Redis that does not answer leaves those out of the line.

On a terminal (Scrapy logs to ``sys.stderr`` and it is a tty) a live ``tqdm`` bar
replaces those lines, unless ``SKELETON_PROGRESS_BAR`` is False: this worker's pages
out of the crawl's known total (pages + queued + in flight, which grows as the
crawl finds pages), then the time since the start and the line's other numbers::

     26%|██▌       | 420/1636 pages [00:20, 380 navigation, 3 failed, 1250/min; 1200 queued, 16 in flight, 2 workers]

It is redrawn every second, or every interval when shorter (Scrapy's stats); the
Redis numbers are read in the same round trip every ``SKELETON_PROGRESS_INTERVAL``
seconds. While it is shown, Scrapy's root handler writes through ``tqdm.write``
(its level, filters and format kept), so a log line never garbles it. It is erased
when the spider closes, whatever the reason, before Scrapy's closing lines.

When the engine stops (after Scrapy's own closing lines) it logs the summary, the
last line of the run: the pages this worker analysed and, when this worker
resolved the crawl's tree (:mod:`skeleton.extensions.lifecycle`, which records the
tree's size and depths in ``:meta``), the nodes per depth, the failed pages, and
the command that shows the tree.
"""
from __future__ import annotations

import json
import logging
import sys
import time
from typing import TYPE_CHECKING, Any, Self

from scrapy import signals
from scrapy.exceptions import NotConfigured
from scrapy.utils.log import get_scrapy_root_handler
from tqdm import tqdm
from twisted.internet.task import LoopingCall

from skeleton.crawl_settings import crawl_settings
from skeleton.store import outage
from skeleton.store.crawls import queue_counts
from skeleton.store.keys import META_DEPTHS, META_FINISH_REASON, META_TREE_PAGES, CrawlKeys
from skeleton.store.meta import read_meta
from skeleton.store.liveness import workers_alive
from skeleton.store.server import connect

if TYPE_CHECKING:
    from skeleton.store.server import Client
    from scrapy.crawler import Crawler

__all__ = ["BarHandler", "CrawlProgress", "DEFAULT_INTERVAL", "bar_postfix", "bar_total", "progress_line",
           "shows_bar", "summary_line"]

logger = logging.getLogger("skeleton.progress")

#: seconds between two progress lines
DEFAULT_INTERVAL = 5.0
#: seconds between two draws of the bar, at most
BAR_REFRESH = 1.0
#: the bar: no ETA nor tqdm's own rate (the total grows), no crawl id (the line is short
#: already); ``{postfix}`` is :func:`bar_postfix`
BAR_FORMAT = "{percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} pages [{elapsed}{postfix}]"


def progress_line(crawl: str, stats: dict[str, Any], per_minute: float,
                  shared: tuple[int, int, int] | None) -> str:
    """The progress line of ``crawl`` from this worker's ``stats`` (Scrapy's), its
    rate and the crawl's ``(queued, in flight, workers)`` (None: not known)."""
    line = (f"crawl {crawl}: {int(stats.get('skeleton/pages', 0))} pages "
            f"({int(stats.get('skeleton/nav_pages', 0))} navigation, "
            f"{int(stats.get('skeleton/failed_pages', 0))} failed), {per_minute:.0f} pages/min")
    return line + _shared_text(shared)


def _shared_text(shared: tuple[int, int, int] | None) -> str:
    if shared is None:
        return ""
    queued, in_flight, workers = shared
    return f"; {queued} queued, {in_flight} in flight, {workers} worker{'s' if workers != 1 else ''}"


def bar_postfix(stats: dict[str, Any], per_minute: float, shared: tuple[int, int, int] | None) -> str:
    """What the bar shows after its count and time: the other numbers of
    :func:`progress_line`, a little shorter."""
    return (f"{int(stats.get('skeleton/nav_pages', 0))} navigation, "
            f"{int(stats.get('skeleton/failed_pages', 0))} failed, {per_minute:.0f}/min"
            + _shared_text(shared))


def bar_total(pages: int, shared: tuple[int, int, int] | None) -> int | None:
    """The bar's total: this worker's ``pages`` and the crawl's queued requests and
    requests in flight (None: not known)."""
    return None if shared is None else pages + shared[0] + shared[1]


def shows_bar(enabled: bool, handler: logging.Handler | None, stderr: Any) -> bool:
    """Is the bar shown: ``enabled`` (``SKELETON_PROGRESS_BAR``), Scrapy's root
    ``handler`` writes to ``stderr`` (no ``LOG_FILE``, not ``--nolog``), a terminal."""
    return (enabled and stderr is not None and type(handler) is logging.StreamHandler
            and handler.stream is stderr and stderr.isatty())


class BarHandler(logging.Handler):
    """Writes what Scrapy's root ``handler`` would (its level, filters and format)
    through ``tqdm.write``: the bar is cleared, the line written, the bar drawn again."""

    def __init__(self, handler: logging.StreamHandler[Any]) -> None:
        super().__init__(handler.level)
        self.stream = handler.stream
        self.setFormatter(handler.formatter)
        for log_filter in handler.filters:
            self.addFilter(log_filter)

    def emit(self, record: logging.LogRecord) -> None:
        try:
            tqdm.write(self.format(record), file=self.stream)
            self.stream.flush()
        except Exception:  # noqa: BLE001 - logging's own way: report, never raise
            self.handleError(record)


def summary_line(crawl: str, reason: str, stats: dict[str, Any], meta: dict[str, str]) -> str:
    """The summary of a run: this worker's pages and, when ``meta`` (the crawl's
    ``:meta``) holds the resolved tree's ``tree_pages`` and ``depths``, the tree."""
    pages = int(stats.get("skeleton/pages", 0))
    failed = int(stats.get("skeleton/failed_pages", 0))
    line = f"crawl {crawl} {reason}: {pages} pages analysed by this worker, {failed} failed"
    nodes = meta.get(META_TREE_PAGES)
    if nodes and meta.get(META_FINISH_REASON):
        try:
            depths = {int(d): int(n) for d, n in json.loads(meta.get(META_DEPTHS) or "{}").items()}
        except (ValueError, TypeError, AttributeError):
            depths = {}
        per_depth = " ".join(f"{d}:{n}" for d, n in sorted(depths.items()))
        line += (f"; tree of {nodes} nodes" + (f" (nodes per depth {per_depth})" if per_depth else "")
                 + f"; see it with `scrapy tree --crawl {crawl} --format text`")
    return line


class CrawlProgress:
    """Logs the crawl's progress every ``interval`` seconds, or shows it in a bar on
    a terminal (``bar``), and its summary at the end."""

    def __init__(self, crawler: Crawler, server: Client, keys: CrawlKeys, interval: float,
                 bar: bool = True) -> None:
        self.crawler = crawler
        self.server = server
        self.keys = keys
        self.interval = interval
        self.bar_enabled = bar
        self.lease = crawler.settings.getfloat("SKELETON_LEASE_TIMEOUT", 60.0)
        self.loop: LoopingCall | None = None
        self.last: tuple[float, int] | None = None
        self.reason = "finished"
        self.bar: tqdm[Any] | None = None
        self.handlers: tuple[logging.Handler, BarHandler] | None = None  # Scrapy's, the bar's
        self.ticks = 0  # draws of the bar, and between two reads of Redis
        self.every = 1
        self.per_minute = 0.0
        self.shared: tuple[int, int, int] | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        interval = crawler.settings.getfloat("SKELETON_PROGRESS_INTERVAL", DEFAULT_INTERVAL)
        if interval <= 0:
            raise NotConfigured("SKELETON_PROGRESS_INTERVAL is 0")
        crawl = crawl_settings(crawler.settings)
        if crawl is None:
            raise NotConfigured("CrawlProgress works with the skeleton spider only")
        progress = cls(crawler, connect(crawler.settings, retries=0), CrawlKeys(crawl.crawl),
                       interval, crawler.settings.getbool("SKELETON_PROGRESS_BAR", True))
        crawler.signals.connect(progress.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(progress.spider_closed, signal=signals.spider_closed)
        crawler.signals.connect(progress.engine_stopped, signal=signals.engine_stopped)
        return progress

    def _stats(self) -> dict[str, Any]:
        assert self.crawler.stats is not None
        return self.crawler.stats.get_stats()

    def spider_opened(self, spider: Any) -> None:
        self.last = (time.monotonic(), 0)
        handler = get_scrapy_root_handler()
        if shows_bar(self.bar_enabled, handler, sys.stderr):
            assert isinstance(handler, logging.StreamHandler)
            self._open_bar(handler)
            refresh = min(self.interval, BAR_REFRESH)
            self.every = max(1, round(self.interval / refresh))
            self.loop = LoopingCall(self.draw_bar)
            self.loop.start(refresh, now=True)
        else:
            self.loop = LoopingCall(self.log_progress)
            self.loop.start(self.interval, now=False)

    def _open_bar(self, handler: logging.StreamHandler[Any]) -> None:
        self.bar = tqdm(file=handler.stream, leave=False, dynamic_ncols=True, bar_format=BAR_FORMAT)
        self.handlers = (handler, BarHandler(handler))
        logging.root.removeHandler(handler)
        logging.root.addHandler(self.handlers[1])

    def _close_bar(self) -> None:
        """Erases the bar and gives Scrapy's root handler back its place."""
        bar, self.bar = self.bar, None
        if bar is not None:
            bar.close()
        if self.handlers is not None:
            handler, bar_handler = self.handlers
            self.handlers = None
            logging.root.removeHandler(bar_handler)
            if get_scrapy_root_handler() is handler:  # not replaced meanwhile
                logging.root.addHandler(handler)

    def _shared(self) -> tuple[int, int, int] | None:
        if outage.is_down(self.crawler):
            return None
        try:
            queued, in_flight = queue_counts(self.server, self.keys)
            return queued, in_flight, workers_alive(self.server, self.keys, self.lease)
        except outage.REDIS_ERRORS:
            return None  # the components that need Redis report it

    def _rate(self, pages: int) -> float:
        """This worker's pages per minute since the last call."""
        now = time.monotonic()
        then, before = self.last or (now, pages)
        self.last = (now, pages)
        return (pages - before) * 60.0 / (now - then) if now > then else 0.0

    def log_progress(self) -> None:
        stats = self._stats()
        per_minute = self._rate(int(stats.get("skeleton/pages", 0)))
        logger.info(progress_line(self.keys.crawl, stats, per_minute, self._shared()))

    def draw_bar(self) -> None:
        """Draws the bar from Scrapy's stats; every ``interval`` seconds, reads the
        rate and the crawl's numbers as :meth:`log_progress` does."""
        if self.bar is None:
            return
        stats = self._stats()
        pages = int(stats.get("skeleton/pages", 0))
        if self.ticks % self.every == 0:
            self.per_minute = self._rate(pages)
            self.shared = self._shared()
            total = bar_total(pages, self.shared)
            if total is not None:
                self.bar.total = total
        self.ticks += 1
        self.bar.n = pages
        if self.bar.total is not None and self.bar.total < pages:
            self.bar.total = pages
        self.bar.set_postfix_str(bar_postfix(stats, self.per_minute, self.shared), refresh=False)
        self.bar.refresh()

    def spider_closed(self, spider: Any, reason: str) -> None:
        self.reason = reason
        if self.loop is not None and self.loop.running:
            self.loop.stop()
        self._close_bar()

    def engine_stopped(self) -> None:
        self._close_bar()
        meta: dict[str, str] = {}
        try:
            if not outage.is_down(self.crawler):
                meta = read_meta(self.server, self.keys)
        except outage.REDIS_ERRORS:
            pass
        finally:
            self.server.close()
        logger.info(summary_line(self.keys.crawl, self.reason, self._stats(), meta))

