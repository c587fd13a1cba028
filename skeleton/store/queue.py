"""A reliable FIFO request queue for workers sharing a crawl (``SCHEDULER_QUEUE_CLASS``).

scrapy-redis pops requests destructively: a worker killed with SIGKILL loses
the requests it held, while their fingerprints stay in the dupefilter. Here a
pop is a lease: a Lua script (:mod:`skeleton.store.lease_scripts`) moves the entry
from the pending list (``:requests``, LPUSH/RPOP, so breadth-first order is kept)
to ``:inflight`` (lease id -> entry) with a deadline in ``:leases`` (Redis server
time). The lease id names the worker (``host-pid-random:n``,
:mod:`skeleton.store.liveness`).

A lease ends in one of three ways, each one script:

- **ack**: the response was processed (:class:`skeleton.store.scheduler.Scheduler`
  acknowledges it once the page's item is stored; the spider yields the page's
  child requests before the item, so they are already queued);
- **continuation**: a request carrying the lease in ``meta`` (a redirect, a
  retry, a page put back over budget) is pushed and the lease acked at once
  (and the dupefilter checked in the same script);
- **requeue**: an expired lease (its worker died or hung) is moved back to the
  head of the pending list by any worker; a worker closing normally puts back
  the leases it still holds. Live workers renew their leases with each heartbeat
  (:class:`skeleton.store.liveness.Liveness`), which also requeues at once the
  leases of a dead worker of the same host.

Requests travel in batches, one round trip for many: :meth:`LeasedFifoQueue.prepare`
(on the reactor's thread), :meth:`~LeasedFifoQueue.send` (any thread: Redis only),
:meth:`~LeasedFifoQueue.receive` (the reactor's thread again). Entries are JSON
(:mod:`skeleton.store.entries`); an entry that is not a request of the project
(another ``_class``, an unknown callback, bad JSON, wrong types) is a dead letter:
one script moves it as it was to ``:dead`` (the newest :data:`DEAD_LETTER_MAX` are
kept, the ``:meta`` field ``dead_letters`` counts them all) and ends its lease; it
is counted (``skeleton/queue/dead_letter``) and logged in one line, and the worker
goes on with the next entry, so one bad entry never stops a crawl from finishing.
"""
from __future__ import annotations

import itertools
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from scrapy import Request

from skeleton.crawl_settings import crawl_settings
from skeleton.store import serializer as json_serializer
from skeleton.store.entries import decode_entry, encode_entry
from skeleton.store.keys import META_DEAD_LETTERS, CrawlKeys
from skeleton.store.lease_scripts import ACK, DEAD_LETTER, POP_MANY, PUSH_MANY, RELEASE, REQUEUE_EXPIRED
from skeleton.store.liveness import new_worker_id
from skeleton.store.server import run_pipeline

if TYPE_CHECKING:
    import redis
    from scrapy import Spider

__all__ = ["LEASE_META", "DEAD_LETTER_MAX", "Exchange", "LeasedFifoQueue", "request_finished"]

logger = logging.getLogger(__name__)

#: Request meta key holding the lease id of a request popped from the queue.
LEASE_META = "skeleton_lease"
#: Signal (``request=``) a spider sends when a leased request is done without an
#: item, e.g. from an errback: the scheduler acknowledges its lease.
request_finished = object()
#: Dead letters kept in ``:dead`` (the newest).
DEAD_LETTER_MAX = 1000


@dataclass(frozen=True, slots=True)
class Exchange:
    """One round trip: the ``pushes`` (entry, lease, dupefilter arguments), the
    leases ``acks`` acknowledged and the lease ids ``ids`` of the entries leased."""

    pushes: list[tuple[str, str, list[str | int]]]
    acks: list[str]
    ids: list[str]


class LeasedFifoQueue:
    """FIFO queue with leases. Needs the skeleton spider's crawl id
    (:mod:`skeleton.crawl_settings`); settings:
    ``SKELETON_LEASE_TIMEOUT`` (seconds a lease lives without a heartbeat, 60)."""

    def __init__(self, server: redis.Redis, spider: Spider, key: str, serializer: Any = None) -> None:
        self.server, self.spider = server, spider
        self.key = key % {"spider": spider.name}
        self.serializer = serializer or json_serializer
        crawl = crawl_settings(spider.settings)
        if crawl is None:
            raise ValueError("LeasedFifoQueue works with the skeleton spider only")
        self.keys = CrawlKeys(crawl.crawl)
        self.stats = spider.crawler.stats
        self.lease_ms = int(spider.settings.getfloat("SKELETON_LEASE_TIMEOUT", 60.0) * 1000)
        self.worker = new_worker_id()
        self.held: dict[str, None] = {}  # lease ids held, oldest first
        self._serial = itertools.count(1)
        self._push_many, self._ack, self._pop_many = (server.register_script(s) for s in (PUSH_MANY, ACK, POP_MANY))
        self._requeue = server.register_script(REQUEUE_EXPIRED)
        self._release = server.register_script(RELEASE)
        self._dead = server.register_script(DEAD_LETTER)
        for script in (self._push_many, self._ack, self._pop_many):
            server.script_load(script.script)  # a pipeline calls them by sha only

    @property
    def _lease_keys(self) -> list[str]:
        return [self.key, self.keys.leases, self.keys.inflight]

    def __len__(self) -> int:
        return int(self.server.llen(self.key))

    def in_flight(self) -> int:
        """Leases held by all workers of the crawl."""
        return int(self.server.zcard(self.keys.leases))

    def entry(self, request: Request) -> tuple[str, str]:
        """The queue entry of ``request`` and the lease it carries ('' for none,
        taken out of its meta): what an exchange pushes. ``TypeError`` for a request
        class the queue does not take (:data:`skeleton.store.entries.REQUEST_CLASSES`)."""
        lease = request.meta.pop(LEASE_META, None) or ""
        try:
            return encode_entry(request, self.spider, self.serializer), lease
        except TypeError:
            if lease:
                request.meta[LEASE_META] = lease
            raise

    def prepare(self, pushes: list[tuple[str, str, list[str | int]]], acks: list[str],
                pop: int) -> Exchange | None:
        """One round trip: push ``pushes`` (entry, lease, dupefilter mode and
        arguments: :meth:`entry`, :data:`~skeleton.store.lease_scripts.PUSH_MANY`),
        acknowledge ``acks`` (only the leases this worker holds) and lease up to
        ``pop`` entries; None: nothing to send."""
        acks = [lease for lease in acks if lease in self.held]
        ids = [f"{self.worker}:{next(self._serial)}" for _ in range(max(0, pop))]
        if not (pushes or acks or ids):
            return None
        return Exchange(list(pushes), acks, ids)

    def send(self, plan: Exchange) -> list[Any]:
        """Send ``plan`` in one pipeline; Redis' replies. A plan that pushes and
        acknowledges sends its pushes first, in a pipeline of their own, and the
        rest only once they are written: Redis runs every command of a pipeline
        whatever the others answer, and one that refuses the pushes (``OOM``, the
        dupefilter's write comes first) still runs the acknowledgements (they free
        memory), which would end the lease of a page whose child requests were not
        queued. Touches nothing but the Redis client (thread-safe): it may run on
        another thread than the queue's other methods. Raises Redis' errors."""
        pushes, acks, ids = plan.pushes, plan.acks, plan.ids
        scripts = [s.script for s in (self._push_many, self._ack, self._pop_many)]

        def fill_pushes(pipe: Any) -> None:
            if pushes:
                args: list[Any] = []
                for data, lease, dupe in pushes:
                    mode, *rest = dupe or [""]
                    args += [data, lease, mode, len(rest), *rest]
                pipe.evalsha(self._push_many.sha, 4, *self._lease_keys, self.keys.dupefilter, *args)

        def fill_rest(pipe: Any) -> None:
            if acks:
                pipe.evalsha(self._ack.sha, 2, self.keys.leases, self.keys.inflight, *acks)
            if ids:
                pipe.evalsha(self._pop_many.sha, 3, *self._lease_keys, self.lease_ms, *ids)

        if pushes and acks:
            pushed = run_pipeline(self.server, fill_pushes, scripts)
            return pushed + run_pipeline(self.server, fill_rest, scripts)

        def fill(pipe: Any) -> None:
            fill_pushes(pipe)
            fill_rest(pipe)

        return run_pipeline(self.server, fill, scripts)

    def receive(self, plan: Exchange, results: list[Any]) -> tuple[list[bool], list[Request]]:
        """From the ``results`` of :meth:`send` (on the queue's own thread: the
        leases held are updated): whether each push was new, and the requests leased
        (a bad entry goes to the dead letters)."""
        results = list(results)
        pushed = [bool(flag) for flag in results.pop(0)] if plan.pushes else []
        self.forget(lease for _, lease, _ in plan.pushes)
        if plan.acks:
            done = int(results.pop(0))
            self.forget(plan.acks)
            if done < len(plan.acks):
                self.stats.inc_value("skeleton/leases/lost", len(plan.acks) - done)
        leased = (self._leased(lease, data) for lease, data in zip(plan.ids, results.pop(0) if plan.ids else []))
        return pushed, [request for request in leased if request is not None]

    def forget(self, leases: Any) -> None:
        """Stop renewing ``leases`` (ended, or their pages were not written: then
        they expire and their requests go back to the queue, :meth:`requeue_expired`)."""
        for lease in leases:
            self.held.pop(lease, None)

    def _leased(self, lease: str, data: bytes | str) -> Request | None:
        """The request of the entry ``data`` just leased as ``lease``, held; None for
        a bad entry, which goes to the dead letters."""
        try:
            request = decode_entry(data, self.spider, self.serializer)
        except Exception as exc:  # noqa: BLE001 - any bad entry, never Redis: popped above
            self.dead_letter(lease, data, exc)
            return None
        request.meta[LEASE_META] = lease
        self.held[lease] = None
        return request

    def dead_letter(self, lease: str, data: bytes | str, exc: BaseException) -> None:
        """Move the leased entry ``data`` that could not be decoded to ``:dead``."""
        moved = self._dead(keys=[self.keys.dead, self.keys.leases, self.keys.inflight, self.keys.meta],
                           args=[lease, DEAD_LETTER_MAX, META_DEAD_LETTERS])
        if not moved:
            return
        self.stats.inc_value("skeleton/queue/dead_letter")
        logger.warning("moved a bad queue entry to %s (%s: %.200s): %.200r", self.keys.dead,
                       type(exc).__name__, exc, data)

    def requeue_expired(self, limit: int = 1000) -> int:
        """Put the entries of expired leases (any worker's) back at the queue's head."""
        count = int(self._requeue(keys=self._lease_keys, args=[limit]))
        if count:
            self.stats.inc_value("skeleton/leases/requeued", count)
            logger.info("requeued %d requests whose lease expired", count)
        return count

    def release(self) -> int:
        """Put back the leases this worker still holds (at a normal close)."""
        held, self.held = list(self.held), {}
        if not held:
            return 0
        count = int(self._release(keys=self._lease_keys, args=held))
        self.stats.inc_value("skeleton/leases/released", count)
        return count

    def clear(self) -> None:
        self.server.delete(self.key, self.keys.leases, self.keys.inflight)
