"""scrapy-redis' scheduler, adapted to Scrapy 2.19 and to :mod:`skeleton.redis_server`.

scrapy-redis 0.9.1 works with Scrapy 2.19 except for what this subclass changes:
it passes the deprecated ``spider`` argument to the stats collector, logs through
the deprecated ``Spider.log()``, and builds its own Redis clients from ``REDIS_*``
settings. Here the queue and the dupefilter share one client from
:func:`skeleton.redis_server.connect`, the same code path as every other
component, and the client is closed with the scheduler. The queue, dupefilter,
persistence and idle behaviour are scrapy-redis'.
"""
from __future__ import annotations

import importlib
import logging
from typing import TYPE_CHECKING, Self

from scrapy.utils.misc import load_object
from scrapy_redis import defaults, scheduler

from skeleton.redis_server import connect

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler

__all__ = ["Scheduler"]

logger = logging.getLogger(__name__)


class Scheduler(scheduler.Scheduler):
    """Redis-backed scheduler (settings as in scrapy-redis: ``SCHEDULER_PERSIST``,
    ``SCHEDULER_QUEUE_KEY``, ``SCHEDULER_QUEUE_CLASS``, ``SCHEDULER_DUPEFILTER_KEY``,
    ``SCHEDULER_SERIALIZER``, ``SCHEDULER_IDLE_BEFORE_CLOSE``, ``SCHEDULER_FLUSH_ON_START``;
    ``DUPEFILTER_CLASS`` must take scrapy-redis' ``(server, key, debug)`` arguments)."""

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        settings = crawler.settings
        server = connect(settings)
        server.ping()
        dupefilter_key = (settings.get("SCHEDULER_DUPEFILTER_KEY")
                          or defaults.SCHEDULER_DUPEFILTER_KEY) % {"spider": crawler.spidercls.name}
        instance = cls(
            server=server,
            persist=settings.getbool("SCHEDULER_PERSIST"),
            flush_on_start=settings.getbool("SCHEDULER_FLUSH_ON_START"),
            queue_key=settings.get("SCHEDULER_QUEUE_KEY") or defaults.SCHEDULER_QUEUE_KEY,
            queue_cls=settings.get("SCHEDULER_QUEUE_CLASS") or defaults.SCHEDULER_QUEUE_CLASS,
            dupefilter=load_object(settings["DUPEFILTER_CLASS"])(
                server, key=dupefilter_key, debug=settings.getbool("DUPEFILTER_DEBUG")),
            dupefilter_key=dupefilter_key,
            idle_before_close=settings.getint("SCHEDULER_IDLE_BEFORE_CLOSE"),
            serializer=importlib.import_module(settings.get("SCHEDULER_SERIALIZER")
                                               or "skeleton.serializer"),
        )
        instance.stats = crawler.stats
        return instance

    def open(self, spider: Spider) -> None:
        self.spider = spider
        self.queue = load_object(self.queue_cls)(
            server=self.server, spider=spider, key=self.queue_key % {"spider": spider.name},
            serializer=self.serializer)
        if self.flush_on_start:
            self.flush()
        if len(self.queue):
            logger.info("Resuming crawl (%d requests scheduled)", len(self.queue),
                        extra={"spider": spider})

    def close(self, reason: str) -> None:
        try:
            super().close(reason)
        finally:
            self.server.close()

    def enqueue_request(self, request: Request) -> bool:
        if not request.dont_filter and self.df.request_seen(request):
            self.df.log(request, self.spider)
            return False
        self.stats.inc_value("scheduler/enqueued/redis")
        self.queue.push(request)
        return True

    def next_request(self) -> Request | None:
        request = self.queue.pop(self.idle_before_close)
        if request is not None:
            self.stats.inc_value("scheduler/dequeued/redis")
        return request
