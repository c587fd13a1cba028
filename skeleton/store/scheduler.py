"""The Redis scheduler of workers sharing one crawl (``SCHEDULER``): scrapy-redis'
scheduler, adapted to Scrapy 2.19 and to leases.

- One Redis client (:func:`skeleton.store.server.connect`, bounded retries) for the
  queue and the dupefilter, closed with the scheduler.
- The queue is :class:`skeleton.store.queue.LeasedFifoQueue`: a request handed out is
  leased, and its lease is acknowledged once the response's item is stored
  (``item_scraped``/``item_dropped``), when the spider reports it done without an
  item (:data:`skeleton.store.queue.request_finished`, e.g. from an errback) or when
  the callback failed (``spider_error``). Pushes, acknowledgements and leases go in
  batches, one round trip each, on the I/O thread (:mod:`skeleton.store.iothread`);
  what waits, and when it is sent, is :class:`skeleton.store.scheduler_state.SchedulerState`.
  Before acknowledging, :data:`flush_requested` has the components that write
  pages' data in batches hand their writes to the same exchange, sent first: a
  lease ends only once its page is in Redis, so a worker that dies loses nothing.
- Shared keys are never deleted by a worker that closes: ``SCHEDULER_PERSIST`` must
  stay true, ``SCHEDULER_FLUSH_ON_START`` is refused while other workers are alive
  (:func:`check_settings`, :func:`refuse_flush`).
- Completion: a worker with nothing to do closes only when no request is pending
  and none is leased by any worker (expired leases are requeued first), seen twice
  at least ``SKELETON_IDLE_CLOSE`` seconds apart.
- A heartbeat every ``SKELETON_LEASE_TIMEOUT``/4 seconds marks the worker alive,
  renews its leases, requeues expired ones and those of dead workers of this host
  (:mod:`skeleton.store.liveness`; also when the worker joins).
- Every ``SKELETON_POLL_INTERVAL`` seconds a worker whose engine may be waiting
  (Scrapy polls a scheduler that had nothing to give every 5 s) is woken if requests
  are queued, or if the crawl looks complete (so an idle worker exits within the
  interval): a marker request passed to ``engine.crawl()``, which this scheduler
  drops, makes the engine ask for work and, with none, run its idle check.
- Redis errors left after the client's retries, and Redis refusing to write
  (:mod:`skeleton.store.refusal`), stop the crawl (:mod:`skeleton.store.outage`).
"""
from __future__ import annotations

import importlib
import logging
import time
from typing import TYPE_CHECKING, Any, Self

from scrapy import Request, signals
from scrapy.core.scheduler import BaseScheduler
from scrapy.exceptions import CloseSpider, DontCloseSpider
from scrapy.utils.misc import load_object
from scrapy_redis import defaults
from twisted.internet.task import LoopingCall

from skeleton.crawl_settings import crawl_settings
from skeleton.store import outage
from skeleton.store.iothread import IOThread, Sent
from skeleton.store.liveness import Liveness, workers_alive
from skeleton.store.queue import LEASE_META, Exchange, LeasedFifoQueue, request_finished
from skeleton.store.scheduler_state import Pace, Push, SchedulerState
from skeleton.store.server import connect
from skeleton.store.writes import Write

if TYPE_CHECKING:
    import redis
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings

__all__ = ["Scheduler", "check_settings", "refuse_flush", "flush_requested", "MAX_BATCH_WAITING",
           "PERSIST_ERROR"]

logger = logging.getLogger(__name__)

PERSIST_ERROR = ("SCHEDULER_PERSIST=False is refused: a worker closing would delete the "
                 "queue and dupefilter shared with the other workers of the crawl; start "
                 "a fresh crawl with a new crawl id (-a crawl=ID) instead")
FLUSH_ERROR = ("SCHEDULER_FLUSH_ON_START is refused: {n} other worker(s) of crawl {crawl!r} "
               "are alive and share its queue and dupefilter")
#: Request meta key of the marker request that wakes the engine (never queued).
WAKE_META = "skeleton_wake"
#: Pages a component keeps for its batch write at most before writing them at once
#: (on the reactor's thread): above the acknowledgement batch
#: (:data:`skeleton.store.scheduler_state.DEFAULT_ACK_BATCH`), so reached only when
#: acknowledgements are held back (no lease to acknowledge, Redis slow).
MAX_BATCH_WAITING = 256
#: Signal (``writes=``, a list) sent before a worker acknowledges leases: components
#: that keep pages' writes for a batch (the tree pipeline, the entropy and URL-variants
#: middlewares) append a :class:`skeleton.store.writes.Write` to ``writes``, sent on the
#: I/O thread before the acknowledgements; a receiver given no list writes at once.
flush_requested = object()


def check_settings(settings: BaseSettings) -> None:
    """Raise ``ValueError`` for settings that would delete shared keys."""
    if not settings.getbool("SCHEDULER_PERSIST", True):
        raise ValueError(PERSIST_ERROR)


def refuse_flush(server: Any, keys: Any, settings: BaseSettings) -> None:
    """Raise ``ValueError`` if ``SCHEDULER_FLUSH_ON_START`` is set and workers are alive."""
    if settings.getbool("SCHEDULER_FLUSH_ON_START"):
        alive = workers_alive(server, keys, settings.getfloat("SKELETON_LEASE_TIMEOUT", 60.0))
        if alive:
            raise ValueError(FLUSH_ERROR.format(n=alive, crawl=keys.crawl))


def _lease(source: Any) -> str | None:
    """The lease of a Response's or Failure's request, or of a Request."""
    request = source if hasattr(source, "meta") and hasattr(source, "dont_filter") \
        else getattr(source, "request", None)
    return getattr(request, "meta", {}).get(LEASE_META) if request is not None else None


class Scheduler(BaseScheduler):
    """Redis-backed scheduler with leases. Settings: scrapy-redis' (``SCHEDULER_*``,
    ``DUPEFILTER_CLASS`` taking ``(server, key, debug)`` or with a
    ``with_server(server, key, settings)`` constructor) and those of
    :class:`skeleton.store.scheduler_state.Pace`."""

    spider: Spider
    queue: LeasedFifoQueue
    liveness: Liveness
    io: IOThread | None = None

    def __init__(self, crawler: Crawler, server: redis.Redis, dupefilter: Any) -> None:
        self.crawler, self.stats, self.server, self.df = crawler, crawler.stats, server, dupefilter
        self.state = SchedulerState(Pace.from_settings(crawler.settings))
        self.loops: list[LoopingCall] = []

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        settings = crawler.settings
        check_settings(settings)
        server = connect(settings)
        server.ping()
        key = (settings.get("SCHEDULER_DUPEFILTER_KEY")
               or defaults.SCHEDULER_DUPEFILTER_KEY) % {"spider": crawler.spidercls.name}
        df_cls = load_object(settings["DUPEFILTER_CLASS"])
        if hasattr(df_cls, "with_server"):
            return cls(crawler, server, df_cls.with_server(server, key, settings))
        return cls(crawler, server, df_cls(server, key=key, debug=settings.getbool("DUPEFILTER_DEBUG")))

    def __len__(self) -> int:
        return len(self.queue)

    # -- opening and closing ----------------------------------------------------

    def open(self, spider: Spider) -> None:
        self.spider, settings = spider, self.crawler.settings
        queue = load_object(settings.get("SCHEDULER_QUEUE_CLASS") or "skeleton.store.queue.LeasedFifoQueue")(
            server=self.server, spider=spider, key=settings.get("SCHEDULER_QUEUE_KEY") or defaults.SCHEDULER_QUEUE_KEY,
            serializer=importlib.import_module(settings.get("SCHEDULER_SERIALIZER") or "skeleton.store.serializer"))
        if not isinstance(queue, LeasedFifoQueue):
            raise ValueError("SCHEDULER_QUEUE_CLASS must be a skeleton.store.queue.LeasedFifoQueue")
        self.queue, self.io = queue, IOThread(queue)
        self.liveness = Liveness(self.server, queue.keys, queue.key, queue.worker, queue.lease_ms, self.stats)
        if settings.getbool("SCHEDULER_FLUSH_ON_START"):
            refuse_flush(self.server, queue.keys, settings)
            self.flush()
        self.liveness.beat(queue.held)
        self.liveness.requeue_dead()
        if queued := len(queue):
            logger.info("Resuming crawl (%d requests scheduled)", queued, extra={"spider": spider})
        logger.info("worker %s joined crawl %s", queue.worker, queue.keys.crawl)
        self.stats.set_value("skeleton/worker", queue.worker)
        for handler, signal in ((self._on_item, signals.item_scraped), (self._on_item, signals.item_dropped),
                                (self._on_error, signals.spider_error), (self._on_finished, request_finished),
                                (self._on_idle, signals.spider_idle)):
            self.crawler.signals.connect(handler, signal=signal)
        pace = self.state.pace
        for call, every in ((self._heartbeat, pace.beat_every), (self._poll, pace.poll_every),
                            (self._flush_tick, pace.flush_every)):
            self.loops.append(LoopingCall(call))
            self.loops[-1].start(every, now=False)

    def close(self, reason: str) -> None:
        """Put back the leases still held and leave the crawl. Never deletes
        shared keys (whatever ``reason``)."""
        for loop in self.loops:
            if loop.running:
                loop.stop()
        try:
            if self.io is not None and not outage.is_down(self.crawler):
                self.exchange(wait=True)  # what waits is written, then the leases held go back
                if released := self.queue.release():
                    logger.info("put back %d leased requests", released)
                self.liveness.retire()
        except outage.REDIS_ERRORS as exc:
            logger.warning("could not put back leased requests (%s): their leases expire", exc)
        finally:
            if self.io is not None:
                self.io.close()
            self.server.close()
            self.state.closed()  # the worker resolves the tree next: its memory is free

    def flush(self) -> None:
        self.df.clear()
        self.queue.clear()

    # -- requests ---------------------------------------------------------------

    def _down(self, exc: BaseException, doing: str) -> None:
        outage.redis_down(self.crawler, exc, doing)

    def enqueue_request(self, request: Request) -> bool:
        if request.meta.get(WAKE_META) or outage.is_down(self.crawler):
            return False  # Redis down: its parent's lease is not acked, it is crawled again later
        key = None
        if request.dont_filter:
            dupe: list[str | int] = [""]
        else:
            # the URL of a GET without a body is all its fingerprint depends on: a link
            # this worker queued before is known without computing it
            plain = request.method == "GET" and not request.body
            key = request.url if plain else self.df.request_fingerprint(request)
            # a request carrying a lease (a redirect, a continuation) is always pushed:
            # the push script ends that lease even when the URL was seen
            if key in self.state.seen and LEASE_META not in request.meta:
                # this worker queued it (or found it queued) before: the shared
                # dupefilter holds it, no round trip needed
                self.stats.inc_value("skeleton/scheduler/seen_locally")
                self.df.log(request, self.spider)
                return False
            dupe = self.df.dupe_args(request) if hasattr(self.df, "dupe_args") \
                else ["set", self.df.request_fingerprint(request) if plain else key]
        if self.state.queued((request, key, (*self.queue.entry(request), dupe))):
            self.exchange()
        return True

    def next_request(self) -> Request | None:
        if outage.is_down(self.crawler):
            return None
        if pop := self.state.to_lease():
            self.exchange(pop=pop)  # leased while the rest downloads (after the running exchange)
        request = self.state.handed()
        if request is not None:
            self.stats.inc_value("scheduler/dequeued/redis")
        return request

    def has_pending_requests(self) -> bool:
        if outage.is_down(self.crawler):
            return False
        if self.state.inbox or self.state.outbox:
            return True
        try:
            return len(self.queue) > 0
        except outage.REDIS_ERRORS as exc:
            self._down(exc, "reading the queue length")
            return False

    # -- one round trip for many requests ---------------------------------------

    def exchange(self, pop: int = 0, wait: bool = False) -> None:
        """Send what waits (the pushes, then the acknowledgements when due, after
        the components' :data:`flush_requested` writes) and lease up to ``pop``
        requests, in one round trip on the I/O thread: the reactor goes on meanwhile.
        One exchange at a time, in order: one asked for while another runs follows
        it. ``wait``: return only when this exchange (and the one running) is done."""
        assert self.io is not None, "the scheduler is not open"
        if self.io.busy and not wait:
            self.state.deferred(pop)
            return
        while self.io.busy:  # waiting: the exchange running (and those it asks for)
            self.io.wait()
        if outage.is_down(self.crawler):
            self.state.outage()
            return
        writes: list[Write] = []
        acking = self.state.acking(wait)
        if acking:
            self.crawler.signals.send_catch_log(flush_requested, writes=writes)
            if outage.is_down(self.crawler):  # a component could not write: nothing is acked
                self.state.outage()
                return
        outbox, acks = self.state.sending(acking)
        plan = self.queue.prepare([push for _, _, push in outbox], acks, pop)
        if plan is None and not writes:
            return
        self.state.started(len(plan.ids) if plan is not None else 0)
        self.io.start(writes, plan, lambda sent: self._finish(outbox, plan, sent))
        if wait:
            self.io.wait()

    def _finish(self, outbox: list[Push], plan: Exchange | None, sent: Sent) -> None:
        """On the reactor's thread, once (the writes reported): the pushes counted, the requests leased into the inbox; then the exchange asked for
        meanwhile, and the engine woken for the requests leased."""
        if plan is not None and sent.plan is not None and len(sent.plan.acks) < len(plan.acks):
            # a write failed: its pages' leases are not renewed any more, they expire
            # and the pages are crawled again (by this worker or another)
            self.queue.forget(plan.acks)
            self.stats.inc_value("skeleton/leases/not_acknowledged", len(plan.acks))
            logger.warning("%d pages were not written: their leases expire and they are crawled again",
                           len(plan.acks))
        requests: list[Request] = []
        if isinstance(sent.replies, outage.REDIS_ERRORS):
            self._down(sent.replies, "exchanging requests with the queue")
        elif isinstance(sent.replies, Exception):
            logger.error("could not exchange requests with the queue: %r", sent.replies, exc_info=sent.replies)
        elif sent.replies is not None and sent.plan is not None:
            pushed, requests = self.queue.receive(sent.plan, sent.replies)
            for (request, _, _), new in zip(outbox, pushed):
                if new:
                    self.stats.inc_value("scheduler/enqueued/redis")
                else:
                    self.df.log(request, self.spider)
        again = self.state.sent(requests)
        if again is not None and not outage.is_down(self.crawler):
            self.exchange(pop=again)
        if requests:
            self._wake()

    def _wake(self) -> None:
        """Have the engine ask for requests (and, with none, run its idle check):
        a marker request passed to ``engine.crawl()``, dropped by
        :meth:`enqueue_request`."""
        engine = self.crawler.engine
        if not self.crawler.crawling or engine is None or engine.spider is None:
            return
        crawl = crawl_settings(self.crawler.settings)
        engine.crawl(Request(crawl.base if crawl is not None else "http://localhost/", meta={WAKE_META: True}))

    def _flush_tick(self) -> None:
        if self.state.ticked(time.monotonic()) and self.crawler.crawling:
            self.exchange()

    # -- acknowledgements -------------------------------------------------------

    def _ack(self, lease: str | None) -> None:
        if lease and not outage.is_down(self.crawler) and self.state.acked(lease, time.monotonic()):
            self.exchange()

    def _on_item(self, item: Any, response: Any, spider: Spider, **kwargs: Any) -> None:
        self._ack(_lease(response))

    def _on_error(self, failure: Any, response: Any, spider: Spider) -> None:
        self._ack(_lease(response))

    def _on_finished(self, request: Request) -> None:
        self._ack(_lease(request))

    # -- liveness and completion ------------------------------------------------

    def _heartbeat(self) -> None:
        if outage.is_down(self.crawler):
            return
        try:
            self.liveness.beat(self.queue.held)
            self.liveness.requeue_dead()
            self.queue.requeue_expired()
        except outage.REDIS_ERRORS as exc:
            self._down(exc, "sending the worker heartbeat")

    def _poll(self) -> None:
        """Wake the engine if requests are queued or if nothing is queued or leased
        anywhere (then the engine, if idle, runs :meth:`_on_idle` at once)."""
        engine = self.crawler.engine
        if outage.is_down(self.crawler) or not self.crawler.crawling or engine is None \
                or engine.spider is None:
            return
        try:
            queued = len(self.queue)
            complete = not queued and not self.queue.in_flight()
        except outage.REDIS_ERRORS as exc:
            self._down(exc, "polling the queue")
            return
        if queued or complete:
            self._wake()

    def _on_idle(self, spider: Spider) -> None:
        """Close only when the whole crawl is done, not just this worker's part."""
        if outage.is_down(self.crawler):
            raise CloseSpider(outage.reason(self.crawler))
        self.exchange(wait=True)  # this worker's waiting pushes and acknowledgements first
        if outage.is_down(self.crawler):
            raise CloseSpider(outage.reason(self.crawler))
        try:
            self.queue.requeue_expired()
            pending, leased = len(self.queue), self.queue.in_flight()
        except outage.REDIS_ERRORS as exc:
            self._down(exc, "checking for completion")
            raise CloseSpider(outage.reason(self.crawler)) from None
        if pending or leased or self.state.inbox:
            self.state.busy()
            if pending or self.state.inbox:
                self._wake()  # leased by the exchange just finished, or to lease now
            raise DontCloseSpider
        if self.state.quiet_for(time.monotonic()) < self.state.pace.idle_close:
            raise DontCloseSpider
        logger.info("crawl %s complete: nothing queued or leased", self.queue.keys.crawl)
