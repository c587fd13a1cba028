"""scrapy-redis' scheduler, adapted to Scrapy 2.19, to :mod:`skeleton.store.server`
and to many workers sharing one crawl.

What changes from scrapy-redis 0.9.1:

- one Redis client from :func:`skeleton.store.server.connect` (bounded retries)
  for the queue and the dupefilter, closed with the scheduler; no deprecated
  ``spider`` arguments or ``Spider.log()``;
- the queue is :class:`skeleton.store.queue.LeasedFifoQueue`: requests are leased, and
  this scheduler acknowledges a lease when the response's item has been stored
  (``item_scraped``/``item_dropped``), when the spider reports it done without
  an item (:data:`skeleton.store.queue.request_finished`, e.g. from an errback) or
  when the callback failed (``spider_error``); the dupefilter check and the push
  are one script;
- shared keys are never deleted by a worker that closes: ``SCHEDULER_PERSIST``
  must stay true, ``SCHEDULER_FLUSH_ON_START`` is refused while other workers
  are alive (:func:`check_settings`, :func:`refuse_flush`);
- completion: a worker with nothing to do closes only when no request is
  pending and none is leased by any worker (expired leases are requeued first),
  seen twice at least ``SKELETON_IDLE_CLOSE`` seconds apart;
- a heartbeat every ``SKELETON_LEASE_TIMEOUT``/4 seconds marks the worker alive,
  renews its leases and requeues expired ones, and those of dead workers of this
  host at once (:meth:`skeleton.store.queue.LeasedFifoQueue.requeue_dead_workers`; also
  when the worker joins);
- every ``SKELETON_POLL_INTERVAL`` seconds (1) a worker whose engine may be
  waiting (Scrapy polls a scheduler that has nothing to give every 5 s) is
  woken if other workers queued requests, or if the crawl looks complete (so an
  idle worker exits within the interval): a marker request passed to
  ``engine.crawl()``, which this scheduler drops, makes the engine ask for work
  and, if it has none, run its idle check;
- Redis errors left after the client's retries, and Redis refusing to write
  (``MISCONF``, ``OOM``: :mod:`skeleton.store.refusal`), stop the crawl
  (:mod:`skeleton.store.outage`).
"""
from __future__ import annotations

import importlib
import logging
import time
from collections import OrderedDict, deque
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Self

from scrapy import Request, signals
from scrapy.exceptions import CloseSpider, DontCloseSpider
from scrapy.utils.misc import load_object
from scrapy_redis import defaults, scheduler
from twisted.internet.task import LoopingCall

from skeleton.crawl_settings import crawl_settings
from skeleton.store import outage
from skeleton.store.queue import LEASE_META, Exchange, LeasedFifoQueue, request_finished, workers_alive
from skeleton.store.server import connect
from skeleton.store.writes import Write

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings

__all__ = ["Scheduler", "check_settings", "refuse_flush", "flush_requested", "PERSIST_ERROR"]

logger = logging.getLogger(__name__)

PERSIST_ERROR = ("SCHEDULER_PERSIST=False is refused: a worker closing would delete the "
                 "queue and dupefilter shared with the other workers of the crawl; start "
                 "a fresh crawl with a new crawl id (-a crawl=ID) instead")
#: Request meta key of the marker request that wakes the engine (never queued).
WAKE_META = "skeleton_wake"
#: Requests a worker remembers having queued (``SKELETON_SEEN_CACHE``; a GET's URL, else
#: its fingerprint): a link repeated on many pages (a site menu) is filtered without a
#: round trip to Redis or a fingerprint. About 150 bytes each; the oldest are forgotten
#: first, so memory stays flat.
DEFAULT_SEEN_CACHE = 100_000
#: Seconds between two writes of what waits (``SKELETON_FLUSH_INTERVAL``): pushes,
#: acknowledgements and the batches of the components listening to :data:`flush_requested`.
DEFAULT_FLUSH_INTERVAL = 0.25
#: Pushes kept waiting at most (a page with thousands of links writes them at once).
MAX_OUTBOX = 2000
#: Acknowledgements sent together (``SKELETON_ACK_BATCH``), and the longest the first
#: of them waits, in seconds (``SKELETON_ACK_INTERVAL``, checked on the flush tick). An
#: exchange sends the acknowledgements waiting, having the components write their
#: batches first, only then, when the crawl is idle and at close: the exchanges that
#: lease requests in between carry pushes and leases only, so the batch writes (tree
#: records, term counts, fingerprints) go in batches of about a hundred pages (the
#: entropy update costs per distinct term of a batch). Leases stay held meanwhile
#: (renewed long before ``SKELETON_LEASE_TIMEOUT``); a worker that dies leaves those
#: pages to be crawled again. A run with a page budget (``max_pages``) sends each
#: acknowledgement at once (the spider sets 1), so that its workers see the pages
#: stored. Below the components' own caps (:data:`MAX_BATCH_WAITING`).
DEFAULT_ACK_BATCH = 128
DEFAULT_ACK_INTERVAL = 1.0
#: Pages a component keeps for its batch write at most before writing them at once
#: (on the reactor's thread): above DEFAULT_ACK_BATCH, so reached only when
#: acknowledgements are held back (no lease to acknowledge, Redis slow).
MAX_BATCH_WAITING = 256
#: Signal (``writes=``, a list) sent before a worker acknowledges leases: components
#: that keep pages' writes for a batch (the tree pipeline, the entropy and URL-variants
#: middlewares) append a :class:`skeleton.store.writes.Write` to ``writes``, sent on the
#: I/O thread before the acknowledgements; a receiver given no list writes at once.
flush_requested = object()
FLUSH_ERROR = ("SCHEDULER_FLUSH_ON_START is refused: {n} other worker(s) of crawl {crawl!r} "
               "are alive and share its queue and dupefilter")


def _call_in_reactor(function: Any, *args: Any) -> None:
    """``function(*args)`` on the reactor's thread (from the I/O thread)."""
    from twisted.internet import reactor  # the reactor Scrapy installed

    reactor.callFromThread(function, *args)  # type: ignore[attr-defined]


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


class BoundedSet:
    """At most ``size`` strings; adding one more forgets the oldest."""

    def __init__(self, size: int) -> None:
        self.size = max(0, size)
        self._items: OrderedDict[str, None] = OrderedDict()

    def __contains__(self, item: object) -> bool:
        return item in self._items

    def __len__(self) -> int:
        return len(self._items)

    def add(self, item: str) -> None:
        if self.size == 0 or item in self._items:
            return
        self._items[item] = None
        if len(self._items) > self.size:
            self._items.popitem(last=False)


def _lease(source: Any) -> str | None:
    """The lease of a Response's or Failure's request, or of a Request."""
    request = source if hasattr(source, "meta") and hasattr(source, "dont_filter") \
        else getattr(source, "request", None)
    return getattr(request, "meta", {}).get(LEASE_META) if request is not None else None


class Scheduler(scheduler.Scheduler):
    """Redis-backed scheduler with leases. Settings: scrapy-redis' (``SCHEDULER_*``,
    ``DUPEFILTER_CLASS`` taking ``(server, key, debug)`` or with a
    ``with_server(server, key, settings)`` constructor), ``SKELETON_LEASE_TIMEOUT``
    (seconds, 60), ``SKELETON_IDLE_CLOSE`` (seconds, 0) and ``SKELETON_SEEN_CACHE``
    (fingerprints remembered locally, :data:`DEFAULT_SEEN_CACHE`; 0 turns it off)."""

    queue: LeasedFifoQueue
    crawler: Crawler
    idle_close: float = 0.0
    beat_every: float = 15.0
    idle_since: float | None = None
    pushed: BoundedSet = BoundedSet(0)
    beat: LoopingCall | None = None
    poll: LoopingCall | None = None
    poll_every: float = 1.0
    tick: LoopingCall | None = None
    flush_every: float = DEFAULT_FLUSH_INTERVAL
    batch: int = 16
    #: the exchange running on the I/O thread: (future, writes, pushes, plan)
    job: tuple[Future[Any], list[Write], list[Any], Exchange | None] | None = None
    #: requests to lease in the exchange asked for while one runs (None: none asked)
    again: int | None = None
    #: requests the running exchange leases, and the one asked for after it
    leasing: int = 0
    #: the next exchange sends the acknowledgements waiting (:data:`DEFAULT_ACK_BATCH`)
    acks_due: bool = False
    #: when the first acknowledgement waiting came (``time.monotonic``), None: none waits
    acks_since: float | None = None
    ack_batch: int = DEFAULT_ACK_BATCH
    ack_every: float = DEFAULT_ACK_INTERVAL

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        settings = crawler.settings
        check_settings(settings)
        server = connect(settings)
        server.ping()
        dupefilter_key = (settings.get("SCHEDULER_DUPEFILTER_KEY")
                          or defaults.SCHEDULER_DUPEFILTER_KEY) % {"spider": crawler.spidercls.name}
        df_cls = load_object(settings["DUPEFILTER_CLASS"])
        if hasattr(df_cls, "with_server"):
            dupefilter = df_cls.with_server(server, dupefilter_key, settings)
        else:
            dupefilter = df_cls(server, key=dupefilter_key, debug=settings.getbool("DUPEFILTER_DEBUG"))
        instance = cls(
            server=server, persist=True,
            flush_on_start=settings.getbool("SCHEDULER_FLUSH_ON_START"),
            queue_key=settings.get("SCHEDULER_QUEUE_KEY") or defaults.SCHEDULER_QUEUE_KEY,
            queue_cls=settings.get("SCHEDULER_QUEUE_CLASS") or "skeleton.store.queue.LeasedFifoQueue",
            dupefilter=dupefilter, dupefilter_key=dupefilter_key,
            serializer=importlib.import_module(settings.get("SCHEDULER_SERIALIZER")
                                               or "skeleton.store.serializer"),
        )
        instance.stats = crawler.stats
        instance.crawler = crawler
        instance.idle_close = settings.getfloat("SKELETON_IDLE_CLOSE", 0.0)
        instance.beat_every = settings.getfloat("SKELETON_LEASE_TIMEOUT", 60.0) / 4
        instance.poll_every = settings.getfloat("SKELETON_POLL_INTERVAL", 1.0)
        instance.pushed = BoundedSet(settings.getint("SKELETON_SEEN_CACHE", DEFAULT_SEEN_CACHE))
        instance.flush_every = settings.getfloat("SKELETON_FLUSH_INTERVAL", DEFAULT_FLUSH_INTERVAL)
        instance.ack_batch = max(1, settings.getint("SKELETON_ACK_BATCH", DEFAULT_ACK_BATCH))
        instance.ack_every = max(0.0, settings.getfloat("SKELETON_ACK_INTERVAL", DEFAULT_ACK_INTERVAL))
        instance.batch = max(1, settings.getint("SKELETON_QUEUE_BATCH", 0)
                             or settings.getint("CONCURRENT_REQUESTS", 16))
        instance.inbox = deque()
        instance.outbox = []
        instance.acks = []
        instance.io = ThreadPoolExecutor(max_workers=1, thread_name_prefix="skeleton-redis")
        return instance

    # -- opening and closing ----------------------------------------------------

    def open(self, spider: Spider) -> None:
        self.spider = spider
        queue = load_object(self.queue_cls)(
            server=self.server, spider=spider, key=self.queue_key % {"spider": spider.name},
            serializer=self.serializer)
        if not isinstance(queue, LeasedFifoQueue):
            raise ValueError("SCHEDULER_QUEUE_CLASS must be a skeleton.store.queue.LeasedFifoQueue")
        self.queue = queue
        if self.flush_on_start:
            refuse_flush(self.server, queue.keys, self.crawler.settings)
            self.flush()
        queue.heartbeat()
        queue.requeue_dead_workers()
        queued = len(queue)
        if queued:
            logger.info("Resuming crawl (%d requests scheduled)", queued, extra={"spider": spider})
        logger.info("worker %s joined crawl %s", queue.worker, queue.keys.crawl)
        self.crawler.stats.set_value("skeleton/worker", queue.worker)
        connect_signal = self.crawler.signals.connect
        connect_signal(self._on_item, signal=signals.item_scraped)
        connect_signal(self._on_item, signal=signals.item_dropped)
        connect_signal(self._on_error, signal=signals.spider_error)
        connect_signal(self._on_finished, signal=request_finished)
        connect_signal(self._on_idle, signal=signals.spider_idle)
        self.beat = LoopingCall(self._heartbeat)
        self.beat.start(self.beat_every, now=False)
        self.poll = LoopingCall(self._poll)
        self.poll.start(self.poll_every, now=False)
        self.tick = LoopingCall(self._flush_tick)
        self.tick.start(self.flush_every, now=False)

    def close(self, reason: str) -> None:
        """Put back the leases still held and leave the crawl. Never deletes
        shared keys (whatever ``reason``)."""
        for loop in (self.beat, self.poll, self.tick):
            if loop is not None and loop.running:
                loop.stop()
        try:
            if hasattr(self, "queue") and not outage.is_down(self.crawler):
                self.exchange(wait=True)  # what waits is written, then the leases held go back
                released = self.queue.release()
                if released:
                    logger.info("put back %d leased requests", released)
                self.queue.retire()
        except outage.REDIS_ERRORS as exc:
            logger.warning("could not put back leased requests (%s): their leases expire", exc)
        finally:
            self.io.shutdown(wait=True)
            self.server.close()
            self.pushed = BoundedSet(0)  # the worker resolves the tree next: its memory is free

    def flush(self) -> None:
        self.df.clear()
        self.queue.clear()

    # -- requests ---------------------------------------------------------------

    def _down(self, exc: BaseException, doing: str) -> None:
        outage.redis_down(self.crawler, exc, doing)

    def enqueue_request(self, request: Request) -> bool:
        if request.meta.get(WAKE_META):
            return False
        if outage.is_down(self.crawler):
            return False  # its parent's lease is not acked: it is crawled again later
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
            if key in self.pushed and LEASE_META not in request.meta:
                # this worker queued it (or found it queued) before: the shared
                # dupefilter holds it, no round trip needed
                self.stats.inc_value("skeleton/scheduler/seen_locally")
                self.df.log(request, self.spider)
                return False
            dupe = self.df.dupe_args(request) if hasattr(self.df, "dupe_args") \
                else ["set", self.df.request_fingerprint(request) if plain else key]
        data, lease = self.queue.entry(request)
        self.outbox.append((request, key, (data, lease, dupe)))
        if key is not None:
            self.pushed.add(key)
        if len(self.outbox) >= MAX_OUTBOX:
            self.exchange()
        return True

    def next_request(self) -> Request | None:
        if outage.is_down(self.crawler):
            return None
        need = self.batch - len(self.inbox)
        if len(self.inbox) <= self.batch // 2 and need > self.leasing:
            self.exchange(pop=need)  # leased while the rest downloads (after the running exchange)
        if not self.inbox:
            return None
        self.idle_since = None
        self.stats.inc_value("scheduler/dequeued/redis")
        return self.inbox.popleft()

    def has_pending_requests(self) -> bool:
        if outage.is_down(self.crawler):
            return False
        if self.inbox or self.outbox:
            return True
        try:
            return len(self.queue) > 0
        except outage.REDIS_ERRORS as exc:
            self._down(exc, "reading the queue length")
            return False

    # -- one round trip for many requests ---------------------------------------

    def exchange(self, pop: int = 0, wait: bool = False) -> None:
        """Send what waits (the pushes, then the acknowledgements) and lease up to
        ``pop`` requests, in one round trip, on the I/O thread: the reactor goes on
        meanwhile, and the requests leased join the inbox when it is back (the
        engine is woken). Before acknowledging, the :data:`flush_requested` signal
        has the components that write a page's data in batches (tree pipeline,
        entropy, URL variants) hand their writes to the exchange, which sends them
        first: a lease is acknowledged only once its page is in Redis, so a worker
        that dies loses nothing. One exchange at a time, in order: one asked for
        while another runs follows it. ``wait``: return only when this exchange (and
        the one running) is done."""
        if self.job is not None and not wait:
            self.again = max(self.again or 0, pop)
            self.leasing = max(self.leasing, pop)
            return
        while self.job is not None:  # waiting: the exchange running (and those it asks for)
            self._finish(*self.job)
        if outage.is_down(self.crawler):
            self.outbox, self.acks = [], []
            return
        writes: list[Write] = []
        acking = bool(self.acks) and (wait or self.acks_due)
        if acking:
            self.crawler.signals.send_catch_log(flush_requested, writes=writes)
            if outage.is_down(self.crawler):  # a component could not write: nothing is acked
                self.outbox, self.acks = [], []
                return
            self.acks_due, self.acks_since = False, None
        outbox, acks = self.outbox, self.acks if acking else []
        self.outbox = []
        if acking:
            self.acks = []
        plan = self.queue.prepare([entry for _, _, entry in outbox], acks, pop)
        if plan is None and not writes:
            return
        future = self.io.submit(self._send, writes, plan)
        job = (future, writes, outbox, plan)
        self.job = job
        self.leasing = len(plan.ids) if plan is not None else 0
        if wait:
            self._finish(*job)
        else:
            future.add_done_callback(lambda _: _call_in_reactor(self._finish, *job))

    def _send(self, writes: list[Write], plan: Exchange | None) -> tuple[list[tuple[bool, Any]], Any, Exchange | None]:
        """On the I/O thread: run ``writes``, then send ``plan`` unless a write lost
        Redis or was refused (:data:`skeleton.store.outage.REDIS_ERRORS`: the writes
        after it are not tried, and nothing is sent). After a write
        failed otherwise, ``plan`` goes without its acknowledgements: a lease ends only
        once its page is written. Never raises: returns each write's ``(True,
        result)`` or ``(False, exception)``, the queue's replies (None: not sent) or
        the exception sending raised, and the plan sent."""
        done: list[tuple[bool, Any]] = []
        failed: Exception | None = None
        for write in writes:
            if isinstance(failed, outage.REDIS_ERRORS):  # Redis is gone: no more retries spent
                done.append((False, failed))
                continue
            try:
                done.append((True, write.run()))
            except Exception as exc:  # noqa: BLE001 - handed to the write's ``failed``
                done.append((False, exc))
                failed = exc if failed is None or isinstance(exc, outage.REDIS_ERRORS) else failed
        if plan is None or isinstance(failed, outage.REDIS_ERRORS):
            return done, None, plan
        if failed is not None and plan.acks:
            plan = Exchange(plan.pushes, [], plan.ids)
        try:
            return done, self.queue.send(plan), plan
        except Exception as exc:  # noqa: BLE001 - reported on the reactor's thread
            return done, exc, plan

    def _finish(self, future: Future[Any], writes: list[Write], outbox: list[Any],
                plan: Exchange | None) -> None:
        """On the reactor's thread, once: the writes' ``done``/``failed``, the
        pushes counted, the requests leased into the inbox; then the exchange asked
        for meanwhile, or the engine woken for the requests leased."""
        if self.job is None or self.job[0] is not future:
            return  # finished already (an exchange that waited for it)
        done, sent, sent_plan = future.result()
        self.job = None
        self.leasing = 0
        if plan is not None and sent_plan is not None and len(sent_plan.acks) < len(plan.acks):
            # a write failed: its pages' leases are not renewed any more, they expire
            # and the pages are crawled again (by this worker or another)
            self.queue.forget(plan.acks)
            self.stats.inc_value("skeleton/leases/not_acknowledged", len(plan.acks))
            logger.warning("%d pages were not written: their leases expire and they are crawled again",
                           len(plan.acks))
        plan = sent_plan
        for write, (ok, value) in zip(writes, done):
            try:
                (write.done if ok else write.failed)(value)
            except Exception:  # a component's bug never loses the exchange
                logger.exception("a batch write failed to report")
        requests: list[Request] = []
        if isinstance(sent, outage.REDIS_ERRORS):
            self._down(sent, "exchanging requests with the queue")
        elif isinstance(sent, Exception):
            logger.error("could not exchange requests with the queue: %r", sent, exc_info=sent)
        elif sent is not None and plan is not None:
            pushed, requests = self.queue.receive(plan, sent)
            for (request, _, _), new in zip(outbox, pushed):
                if new:
                    self.stats.inc_value("scheduler/enqueued/redis")
                else:
                    self.df.log(request, self.spider)
            self.inbox.extend(requests)
        if self.again is not None and not outage.is_down(self.crawler):
            pop, self.again = self.again, None
            self.exchange(pop=pop)
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
        if self.acks_since is not None and time.monotonic() - self.acks_since >= self.ack_every:
            self.acks_due = True
        if (self.outbox or self.acks_due) and self.crawler.crawling:
            self.exchange()

    # -- acknowledgements -------------------------------------------------------

    def _ack(self, lease: str | None) -> None:
        if not lease or outage.is_down(self.crawler):
            return
        if self.acks_since is None:
            self.acks_since = time.monotonic()
        self.acks.append(lease)
        if len(self.acks) >= self.ack_batch:
            self.acks_due = True
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
            self.queue.heartbeat()
            self.queue.requeue_dead_workers()
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
        if pending or leased or self.inbox:
            self.idle_since = None
            if pending or self.inbox:
                self._wake()  # leased by the exchange just finished, or to lease now
            raise DontCloseSpider
        now = time.monotonic()
        if self.idle_since is None:
            self.idle_since = now
        if now - self.idle_since < self.idle_close:
            raise DontCloseSpider
        logger.info("crawl %s complete: nothing queued or leased", self.queue.keys.crawl)
