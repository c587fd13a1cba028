"""Redis going away mid-crawl: after the client's bounded retries
(:func:`skeleton.store.server.retry_policy`) a component that still gets a
connection error calls :func:`redis_down`, which stops the crawl once, cleanly,
with the reason ``redis_unavailable``.

From then on the components write nothing more and **wait for Redis no more**:
the scheduler hands out and acknowledges no request, the tree pipeline drops the
items of the responses still in flight, and the middlewares (redirect aliases,
URL variants, entropy, WISDOM) skip their Redis work for them, so the worker
exits within one retry budget of the first failure (plus the download timeout
of requests in flight). Any component whose retries run out first declares the
outage (:func:`redis_failed`). A page whose item or child requests could not be
stored keeps its lease in Redis and is crawled again by a worker that runs
later (leases expire, :mod:`skeleton.store.queue`). Everything acknowledged before
was written first, so no stored edge depends on what was lost.
"""
from __future__ import annotations

import logging
import weakref
from typing import TYPE_CHECKING

import redis
from scrapy.utils.defer import deferred_from_coro

from skeleton.redact import redact_text

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

__all__ = ["REASON", "REDIS_ERRORS", "redis_down", "redis_failed", "is_down", "any_down"]

logger = logging.getLogger(__name__)

REASON = "redis_unavailable"
#: What a Redis client raises once its retries are spent.
REDIS_ERRORS = (redis.ConnectionError, redis.TimeoutError, OSError)

_DOWN: weakref.WeakSet[Crawler] = weakref.WeakSet()
_EVER_DOWN: list[bool] = [False]


def redis_down(crawler: Crawler, exc: BaseException, doing: str) -> None:
    """Record that Redis is gone for ``crawler`` and close its spider (once)."""
    if crawler in _DOWN:
        return
    _DOWN.add(crawler)
    _EVER_DOWN[0] = True
    logger.error("Redis unavailable while %s, retries spent (%s): stopping the crawl (%s)",
                 doing, redact_text(exc, crawler.settings.get("REDIS_URL")), REASON)
    if crawler.stats is not None:
        crawler.stats.set_value("skeleton/redis_unavailable", doing)
    engine = crawler.engine if crawler.crawling else None  # no engine before the crawl
    if engine is not None and engine.spider is not None:
        deferred_from_coro(engine.close_spider_async(reason=REASON))


def redis_failed(crawler: Crawler, exc: BaseException, doing: str) -> None:
    """A component's Redis call failed with ``exc``: a connection error left after
    the client's retries (:data:`REDIS_ERRORS`) is an outage (:func:`redis_down`);
    any other Redis error (a script error, a full server) concerns that call only."""
    if isinstance(exc, REDIS_ERRORS):
        redis_down(crawler, exc, doing)


def is_down(crawler: Crawler) -> bool:
    return crawler in _DOWN


def any_down() -> bool:
    """Whether any crawl of this process stopped because Redis went away."""
    return _EVER_DOWN[0]
