"""The crawl's lifecycle in Redis, as one worker sees it: open, run budget, finish.

``CrawlLifecycle`` is an extension of the skeleton spider (``NotConfigured`` for
any other spider); it keeps its own Redis client (:func:`skeleton.store.server.connect`).

**Open** (``spider_opened``): a crawl id whose previous run finished (reason
``finished``) is reset and crawled afresh; an interrupted one resumes from its queue
and dupefilter (one script, :data:`skeleton.store.meta.OPEN_SCRIPT`, so workers starting together reset
it once), unless it was started with another base URL: then nothing is written, one
error line names both bases, the stat ``skeleton/base_mismatch`` holds the stored
base and the crawl stops before fetching anything (reason :data:`BASE_MISMATCH`;
``scrapy crawl`` refuses it before starting, :func:`refuse_other_base`). The crawl's
``:meta`` gets base, mode, depth, max_pages and edge_model, ``started`` when the crawl
starts (kept when it resumes) and ``resumed`` when a run resumes it (see
:data:`skeleton.store.meta.OPEN_SCRIPT`), and its id joins ``CRAWLS``.

**Run budget** (``-a max_pages=N``): the first worker of a run sets ``:meta``
``budget_until`` to the pages of earlier runs plus N; workers joining while it runs
share it (:meth:`CrawlLifecycle.run_budget`). The tree pipeline reports the crawl's
``fetched`` count after each stored page (the signal
:data:`skeleton.pipelines.tree.page_stored`); once it reaches ``budget_until`` this
worker closes (reason ``max_pages``, stat ``skeleton/max_pages/reached``) and the
requests still queued stay in Redis.

**Finish** (``spider_closed``): a worker records ``finished``/``finish_reason`` in
``:meta``, after resolving the tree into ``:tree`` (:mod:`skeleton.store.tree`), when
the crawl is complete (reason ``finished``) or when no other worker is alive
(:func:`skeleton.store.liveness.workers_alive`): one worker of many stopping early does
not mark the shared crawl as stopped. Nothing is written for a crawl this worker did
not open (refused: the stored one is not ours; or an error at open) or after Redis
went away (:mod:`skeleton.store.outage`).
"""
from __future__ import annotations

import json
import logging
from collections import Counter
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Self

from scrapy import signals
from scrapy.exceptions import CloseSpider, NotConfigured
from scrapy.utils.defer import deferred_from_coro

from skeleton.crawl_settings import crawl_settings
from skeleton.pipelines.tree import page_stored
from skeleton.store import outage
from skeleton.store.keys import (META_BASE, META_DEPTH, META_EDGE_MODEL, META_FINISH_REASON, META_MAX_PAGES,
                                 META_MODE, CrawlKeys)
from skeleton.store.meta import (add_crawl, budget_until, fetched_count, finish_crawl, meta_fields, open_crawl,
                                 other_base, record_depths, set_budget_until)
from skeleton.store.records import page_count
from skeleton.store.liveness import workers_alive
from skeleton.store.server import connect
from skeleton.store.tree import resolve_recorded_tree, store_tree

if TYPE_CHECKING:
    from skeleton.store.server import Client
    from scrapy import Spider
    from scrapy.crawler import Crawler

__all__ = ["CrawlLifecycle", "BASE_MISMATCH", "OPEN_FAILED", "CRAWL_PAGES_STAT", "refuse_other_base"]

logger = logging.getLogger(__name__)

#: stat: the pages the whole crawl recorded (all workers), set by the worker that
#: finishes it; ``scrapy crawl`` exits with 1 when a finished crawl recorded none
CRAWL_PAGES_STAT = "skeleton/crawl_pages"

#: finish reason of a crawl refused at open: its crawl id holds an unfinished
#: crawl of another base URL
BASE_MISMATCH = "base_mismatch"
#: finish reason of a crawl whose opening failed otherwise (not refused, Redis there)
OPEN_FAILED = "open_failed"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def base_mismatch(crawl: str, stored: str, base: str) -> str:
    """The one-line error for a crawl id that holds a crawl of another base URL."""
    return (f"crawl {crawl!r} holds an unfinished crawl of {stored}, not of {base}: "
            "refusing to mix two sites in one crawl (give another crawl id: -a crawl=ID)")


def refuse_other_base(server: Client, keys: CrawlKeys, base: str) -> None:
    """Raise ``ValueError`` if the crawl would resume a crawl of another base URL
    (its ``:meta`` base differs and it did not finish; a finished crawl starts
    afresh). :class:`CrawlLifecycle` checks the same when it opens, atomically."""
    stored = other_base(server, keys, base)
    if stored:
        raise ValueError(base_mismatch(keys.crawl, stored, base))


class CrawlLifecycle:
    """Opens, budgets and finishes the skeleton spider's crawl in Redis."""

    def __init__(self, crawler: Crawler, server: Client) -> None:
        self.crawler = crawler
        self.server = server
        crawl = crawl_settings(crawler.settings)
        assert crawl is not None, "built by from_crawler"
        self.crawl = crawl
        self.keys = CrawlKeys(crawl.crawl)
        self.root: str = crawl.base
        self.opened = False  # this worker opened the crawl (not refused, no error)
        self.max_pages: int | None = crawl.max_pages
        self.budget_until: int | None = None
        self.edge_model: dict[str, Any] = dict(crawl.edge_model)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        if crawl_settings(crawler.settings) is None:
            raise NotConfigured("CrawlLifecycle works with the skeleton spider only")
        lifecycle = cls(crawler, connect(crawler.settings))
        crawler.signals.connect(lifecycle.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(lifecycle.page_stored, signal=page_stored)
        crawler.signals.connect(lifecycle.spider_closed, signal=signals.spider_closed)
        return lifecycle

    def spider_opened(self, spider: Spider) -> None:
        """Open the crawl (:meth:`open_crawl`). A crawl that cannot be opened is
        closed before it fetches anything: ``CloseSpider`` with :data:`BASE_MISMATCH`,
        :data:`skeleton.store.outage.REASON` (Redis gone after its retries),
        :data:`skeleton.store.outage.CANNOT_WRITE` (Redis refused to write) or
        :data:`OPEN_FAILED` (any other error, logged with its traceback)."""
        try:
            self.open_crawl(spider)
        except CloseSpider:
            raise
        except outage.REDIS_ERRORS as exc:
            outage.redis_down(self.crawler, exc, "opening the crawl")
            raise CloseSpider(outage.reason(self.crawler)) from None
        except Exception:
            logger.exception("could not open crawl %s", self.keys.crawl)
            raise CloseSpider(OPEN_FAILED) from None
        self.opened = True

    def open_crawl(self, spider: Spider) -> None:
        """Reset a finished crawl, resume an interrupted one, refuse another base
        (``CloseSpider(BASE_MISMATCH)``), record the crawl and this run's budget."""
        previous, = meta_fields(self.server, self.keys, META_FINISH_REASON)
        lease = self.crawler.settings.getfloat("SKELETON_LEASE_TIMEOUT", 60.0)
        # this worker's scheduler has beaten already: one alive is this worker alone
        run_starts = workers_alive(self.server, self.keys, lease) <= 1
        fields = {META_BASE: self.root, META_MODE: self.crawl.mode,
                  META_DEPTH: "" if self.crawl.depth is None else str(self.crawl.depth),
                  META_MAX_PAGES: "" if self.crawl.max_pages is None else str(self.crawl.max_pages),
                  META_EDGE_MODEL: json.dumps(self.edge_model, sort_keys=True)}
        reset, stored = open_crawl(self.server, self.keys, self.root, _now(), run_starts, fields)
        if reset == -1:
            self.crawler.stats.set_value("skeleton/base_mismatch", stored)
            logger.error(base_mismatch(self.keys.crawl, stored, self.root))
            raise CloseSpider(BASE_MISMATCH)
        if reset:
            logger.info("crawl %s finished before: starting it afresh", self.keys.crawl)
        elif previous or page_count(self.server, self.keys):
            logger.info("resuming crawl %s (last stopped: %s)", self.keys.crawl, previous or "unknown")
        add_crawl(self.server, self.keys.crawl)
        if self.max_pages is not None:
            self.budget_until = self.run_budget(self.max_pages)

    def run_budget(self, max_pages: int) -> int:
        """The crawl's ``fetched`` count at which this run's ``max_pages`` budget is
        spent, kept in ``:meta`` ``budget_until``: set by the first worker of a run
        (the pages of earlier runs plus ``max_pages``), shared by the workers that
        join it while it runs."""
        lease = self.crawler.settings.getfloat("SKELETON_LEASE_TIMEOUT", 60.0)
        stored = budget_until(self.server, self.keys)
        if stored is not None and workers_alive(self.server, self.keys, lease) > 1:
            return stored
        until = fetched_count(self.server, self.keys) + max_pages
        set_budget_until(self.server, self.keys, until)
        return until

    def page_stored(self, fetched: int) -> None:
        """A page was stored; ``fetched`` is the crawl's count of pages analysed."""
        if self.budget_until is not None and fetched >= self.budget_until:
            self.budget_spent(fetched)

    def budget_spent(self, fetched: int) -> None:
        """The run's page budget is spent, counted over every worker (the crawl's
        ``fetched``): close this worker; the requests still queued stay in Redis."""
        stats = self.crawler.stats
        if stats.get_value("skeleton/max_pages/reached") is None:
            logger.info("crawl %s: %d pages analysed, max_pages=%d reached",
                        self.keys.crawl, fetched, self.max_pages)
        stats.set_value("skeleton/max_pages/reached", self.max_pages)
        if self.crawler.crawling and self.crawler.engine is not None:
            deferred_from_coro(self.crawler.engine.close_spider_async(reason="max_pages"))

    def store_resolved_tree(self) -> None:
        """Resolve the crawl's tree from every page and offer and store it in ``:tree``."""
        tree = resolve_recorded_tree(self.server, self.keys, self.root, self.edge_model)
        store_tree(self.server, self.keys, tree)
        depths = Counter(int(edge.get("depth") or 0) for edge in tree.values())
        depths[0] += 1  # the root
        record_depths(self.server, self.keys, depths)
        logger.info("tree of crawl %s: %d pages below its root; see `scrapy tree --crawl %s`",
                    self.keys.crawl, len(tree), self.keys.crawl)

    def spider_closed(self, spider: Spider, reason: str) -> None:
        """Resolve the tree and mark the crawl finished, when this worker ends it."""
        try:
            if outage.is_down(self.crawler) or not self.opened:
                return  # refused (the stored crawl is not ours) or not opened: write nothing
            lease = self.crawler.settings.getfloat("SKELETON_LEASE_TIMEOUT", 60.0)
            alive = workers_alive(self.server, self.keys, lease)
            if reason != "finished" and alive:
                logger.info("%d other worker(s) still on crawl %s: not marking it %s",
                            alive, self.keys.crawl, reason)
                return
            self.store_resolved_tree()
            finish_crawl(self.server, self.keys, _now(), reason)
            self.crawler.stats.set_value(CRAWL_PAGES_STAT, page_count(self.server, self.keys))
        except outage.REDIS_ERRORS as exc:
            logger.error("could not record the end of crawl %s: %s", self.keys.crawl, exc)
        finally:
            self.server.close()
