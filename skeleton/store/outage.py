"""Redis going away mid-crawl, or refusing to write: after the client's bounded
retries (:func:`skeleton.store.server.retry_policy`) a component that still gets
a connection error, or gets a refusal to write (``MISCONF``: a full disk; ``OOM``:
``maxmemory`` reached; :mod:`skeleton.store.refusal`, never retried), calls
:func:`redis_down`, which stops the crawl once, cleanly, with one error line and
the reason ``redis_unavailable`` or ``redis_cannot_write``.

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
from skeleton.store.refusal import CODES, CannotWrite, refusal
from skeleton.store.server import describe

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

__all__ = ["REASON", "CANNOT_WRITE", "REDIS_ERRORS", "redis_down", "redis_failed", "is_down", "any_down",
           "reason"]

logger = logging.getLogger(__name__)

REASON = "redis_unavailable"
#: The reason of a crawl stopped because Redis refused to write (MISCONF, OOM).
CANNOT_WRITE = "redis_cannot_write"
#: What a Redis client raises once its retries are spent, or when Redis refuses to
#: write (:class:`skeleton.store.refusal.CannotWrite`, from the clients of
#: :func:`skeleton.store.server.connect`).
REDIS_ERRORS = (redis.ConnectionError, redis.TimeoutError, OSError, CannotWrite)

_DOWN: weakref.WeakKeyDictionary[Crawler, str] = weakref.WeakKeyDictionary()
_EVER_DOWN: list[bool] = [False]


def redis_down(crawler: Crawler, exc: BaseException, doing: str) -> None:
    """Record that Redis is gone, or cannot write, for ``crawler`` and close its
    spider (once), with one error line naming the server and the cause."""
    if crawler in _DOWN:
        return
    url = crawler.settings.get("REDIS_URL")
    refused = refusal(exc)
    why = REASON if refused is None else CANNOT_WRITE
    _DOWN[crawler] = why
    _EVER_DOWN[0] = True
    if refused is None:
        logger.error("Redis unavailable while %s, retries spent (%s): stopping the crawl (%s)",
                     doing, redact_text(exc, url), REASON)
    else:
        hint = CODES.get(refused.split(" ", 1)[0], "")
        logger.error("Redis cannot write (%s) while %s: %s (%s): stopping the crawl (%s)",
                     describe(url), doing, redact_text(refused, url), hint, CANNOT_WRITE)
    if crawler.stats is not None:
        crawler.stats.set_value(f"skeleton/{why}", doing)
    engine = crawler.engine if crawler.crawling else None  # no engine before the crawl
    if engine is not None and engine.spider is not None:
        deferred_from_coro(engine.close_spider_async(reason=why))


def redis_failed(crawler: Crawler, exc: BaseException, doing: str) -> None:
    """A component's Redis call failed with ``exc``: a connection error left after
    the client's retries (:data:`REDIS_ERRORS`) is an outage, and a refusal to
    write (:func:`skeleton.store.refusal.refusal`) stops the crawl the same way
    (:func:`redis_down`); any other Redis error (a script error) concerns that
    call only."""
    if isinstance(exc, REDIS_ERRORS) or refusal(exc) is not None:
        redis_down(crawler, exc, doing)


def is_down(crawler: Crawler) -> bool:
    """Whether ``crawler`` stopped because Redis went away or cannot write."""
    return crawler in _DOWN


def reason(crawler: Crawler) -> str:
    """Why ``crawler`` stopped for Redis: :data:`REASON` or :data:`CANNOT_WRITE`."""
    return _DOWN.get(crawler, REASON)


def any_down() -> bool:
    """Whether any crawl of this process stopped because Redis went away or cannot write."""
    return _EVER_DOWN[0]
