"""The crawl's detection contexts in Redis (``:contexts``), behind a small cache.

A queued request carries the id of the LinkSetDup context of the page that found it
(:mod:`skeleton.sew.context`); the context itself is stored once per crawl in the
hash ``:contexts`` (id -> canonical JSON, written with ``HSETNX``: equal contexts
share an id, so any worker may store one). Each worker keeps the last
:data:`MAX_CACHED_CONTEXTS` it used in memory and reads the others back once.
Redis errors (:data:`skeleton.store.server.StoreError`) reach the caller: a page
whose context cannot be read is not analysed, its lease stays unacknowledged.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import redis

from skeleton.sew.context import Context, decode_context, encode_context
from skeleton.store import outage
from skeleton.store.server import connect

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

__all__ = ["MAX_CACHED_CONTEXTS", "ContextStore"]

#: detection contexts a worker keeps in memory (the others are read again from Redis)
MAX_CACHED_CONTEXTS = 256


class ContextStore:
    """One worker's view of a crawl's ``:contexts`` (``key``): :meth:`get` and
    :meth:`put` contexts by id. Connects on first use (``REDIS_URL``)."""

    def __init__(self, crawler: Crawler, key: str) -> None:
        self.crawler = crawler
        self.key = key
        self.cache: dict[str, Context] = {"": ([], [])}
        self._server: redis.Redis | None = None

    def server(self) -> redis.Redis:
        """The crawl's Redis client, connected on first use; ``ConnectionError`` once
        Redis was declared unavailable (:mod:`skeleton.store.outage`)."""
        if outage.is_down(self.crawler):  # declared gone: no component waits for it
            raise redis.ConnectionError("Redis was declared unavailable")
        if self._server is None:
            self._server = connect(self.crawler.settings)
        return self._server

    def get(self, context_id: str) -> Context:
        """The context ``context_id`` names: from the cache, else read once from
        ``:contexts``. An id that names nothing stored (an entry queued by an older
        release) is the empty context (stat ``skeleton/context/missing``)."""
        found = self.cache.get(context_id)
        if found is None:
            found = decode_context(self.server().hget(self.key, context_id))
            if found is None:
                self.crawler.stats.inc_value("skeleton/context/missing")
                found = ([], [])
            self._remember(context_id, found)
        return found

    def put(self, known: Sequence[Any], template: Sequence[Any]) -> str:
        """Store the context the pages below a page get (once per distinct context
        and worker: ``HSETNX``), and return its id."""
        context_id, blob = encode_context(known, template)
        if context_id not in self.cache:
            self.server().hsetnx(self.key, context_id, blob)
            self._remember(context_id, ([set(u) for u in known], [set(u) for u in template]))
        return context_id

    def _remember(self, context_id: str, context: Context) -> None:
        """Cache a context, forgetting the oldest past ``MAX_CACHED_CONTEXTS`` (the
        empty context stays): worker memory does not grow with the site."""
        self.cache[context_id] = context
        if len(self.cache) > MAX_CACHED_CONTEXTS:
            oldest = next(key for key in self.cache if key)
            del self.cache[oldest]

    def close(self) -> None:
        """Close the client (a later use connects again)."""
        if self._server is not None:
            self._server.close()
            self._server = None
