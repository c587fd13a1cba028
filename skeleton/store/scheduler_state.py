"""What a worker's scheduler holds between its round trips to Redis, and how it
changes: a plain object, no Redis, no reactor (:mod:`skeleton.store.scheduler` does
the I/O and asks it what to do).

A round trip (an *exchange*) carries the pushes waiting, the acknowledgements when
they are due and the leasing of more requests; one runs at a time, and one asked for
meanwhile follows it (:meth:`SchedulerState.deferred`, :meth:`~SchedulerState.sent`).
Acknowledgements wait for a batch (:attr:`Pace.ack_batch`) or for
:attr:`Pace.ack_every` seconds, so the components' batch writes they carry
(:data:`skeleton.store.scheduler.flush_requested`) cover about a hundred pages.
"""
from __future__ import annotations

from collections import OrderedDict, deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Self

from scrapy import Request

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

__all__ = ["Pace", "SchedulerState", "BoundedSet", "Push", "DEFAULT_SEEN_CACHE", "DEFAULT_FLUSH_INTERVAL",
           "MAX_OUTBOX", "DEFAULT_ACK_BATCH", "DEFAULT_ACK_INTERVAL"]

#: Requests a worker remembers having queued (``SKELETON_SEEN_CACHE``; a GET's URL, else
#: its fingerprint): a link repeated on many pages (a site menu) is filtered without a
#: round trip to Redis or a fingerprint. About 150 bytes each; the oldest are forgotten
#: first, so memory stays flat.
DEFAULT_SEEN_CACHE = 100_000
#: Seconds between two writes of what waits (``SKELETON_FLUSH_INTERVAL``): pushes,
#: acknowledgements and the components' batches.
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
#: stored.
DEFAULT_ACK_BATCH = 128
DEFAULT_ACK_INTERVAL = 1.0

#: A request waiting to be pushed: the request, the key it is remembered by (None:
#: not filtered) and its push (entry, lease, dupefilter arguments).
Push = tuple[Request, str | None, tuple[str, str, list[str | int]]]


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


@dataclass(frozen=True, slots=True)
class Pace:
    """The scheduler's settings: requests leased at a time (``SKELETON_QUEUE_BATCH``,
    else ``CONCURRENT_REQUESTS``), acknowledgements batched, seconds between flushes,
    heartbeats (a quarter of ``SKELETON_LEASE_TIMEOUT``) and polls, the quiet time
    before a worker of a complete crawl closes (``SKELETON_IDLE_CLOSE``) and the
    requests remembered locally (``SKELETON_SEEN_CACHE``)."""

    batch: int = 16
    ack_batch: int = DEFAULT_ACK_BATCH
    ack_every: float = DEFAULT_ACK_INTERVAL
    flush_every: float = DEFAULT_FLUSH_INTERVAL
    beat_every: float = 15.0
    poll_every: float = 1.0
    idle_close: float = 0.0
    seen_cache: int = DEFAULT_SEEN_CACHE

    @classmethod
    def from_settings(cls, settings: BaseSettings) -> Self:
        return cls(batch=max(1, settings.getint("SKELETON_QUEUE_BATCH", 0) or settings.getint("CONCURRENT_REQUESTS", 16)),
                   ack_batch=max(1, settings.getint("SKELETON_ACK_BATCH", DEFAULT_ACK_BATCH)),
                   ack_every=max(0.0, settings.getfloat("SKELETON_ACK_INTERVAL", DEFAULT_ACK_INTERVAL)),
                   flush_every=settings.getfloat("SKELETON_FLUSH_INTERVAL", DEFAULT_FLUSH_INTERVAL),
                   beat_every=settings.getfloat("SKELETON_LEASE_TIMEOUT", 60.0) / 4,
                   poll_every=settings.getfloat("SKELETON_POLL_INTERVAL", 1.0),
                   idle_close=settings.getfloat("SKELETON_IDLE_CLOSE", 0.0),
                   seen_cache=settings.getint("SKELETON_SEEN_CACHE", DEFAULT_SEEN_CACHE))


@dataclass(slots=True)
class SchedulerState:
    """Requests leased and not handed out (``inbox``), pushes and acknowledgements
    waiting, requests remembered as queued (``seen``), the exchange asked for while
    one runs (``again``: requests to lease, None: none) and the requests being
    leased (``leasing``), whether the acknowledgements are due and since when the
    first waits (``time.monotonic``), and since when the crawl looks complete."""

    pace: Pace = field(default_factory=Pace)
    inbox: deque[Request] = field(default_factory=deque)
    outbox: list[Push] = field(default_factory=list)
    acks: list[str] = field(default_factory=list)
    seen: BoundedSet = field(default_factory=lambda: BoundedSet(0))
    again: int | None = None
    leasing: int = 0
    acks_due: bool = False
    acks_since: float | None = None
    idle_since: float | None = None

    def __post_init__(self) -> None:
        self.seen = BoundedSet(self.pace.seen_cache)

    def queued(self, push: Push) -> bool:
        """A request waits to be pushed; True when the outbox is full (send it now)."""
        self.outbox.append(push)
        if push[1] is not None:
            self.seen.add(push[1])
        return len(self.outbox) >= MAX_OUTBOX

    def acked(self, lease: str, now: float) -> bool:
        """A page is done; True when a batch of acknowledgements is due now."""
        if self.acks_since is None:
            self.acks_since = now
        self.acks.append(lease)
        if len(self.acks) >= self.pace.ack_batch:
            self.acks_due = True
        return len(self.acks) >= self.pace.ack_batch

    def ticked(self, now: float) -> bool:
        """The flush timer; True when something is to be sent."""
        if self.acks_since is not None and now - self.acks_since >= self.pace.ack_every:
            self.acks_due = True
        return bool(self.outbox) or self.acks_due

    def to_lease(self) -> int:
        """Requests to lease now (0: none): when the inbox is half empty and the
        exchange running or asked for leases fewer than it lacks."""
        need = self.pace.batch - len(self.inbox)
        return need if len(self.inbox) <= self.pace.batch // 2 and need > self.leasing else 0

    def handed(self) -> Request | None:
        """The next request leased, for the engine (None: none waits)."""
        if not self.inbox:
            return None
        self.idle_since = None
        return self.inbox.popleft()

    def deferred(self, pop: int) -> None:
        """An exchange leasing ``pop`` is asked for while one runs: it follows."""
        self.again = max(self.again or 0, pop)
        self.leasing = max(self.leasing, pop)

    def acking(self, wait: bool) -> bool:
        """Whether the next exchange sends the acknowledgements (due, or ``wait``)."""
        return bool(self.acks) and (wait or self.acks_due)

    def sending(self, acking: bool) -> tuple[list[Push], list[str]]:
        """The pushes, and the acknowledgements if ``acking``, taken for an exchange."""
        outbox, self.outbox = self.outbox, []
        if not acking:
            return outbox, []
        acks, self.acks = self.acks, []
        self.acks_due, self.acks_since = False, None
        return outbox, acks

    def started(self, leasing: int) -> None:
        """An exchange leasing ``leasing`` requests runs."""
        self.leasing = leasing

    def sent(self, requests: list[Request]) -> int | None:
        """An exchange is back with ``requests`` leased; the requests the exchange
        asked for meanwhile leases (None: none was asked for)."""
        self.inbox.extend(requests)
        again, self.again, self.leasing = self.again, None, 0
        return again

    def outage(self) -> None:
        """Redis is gone: what waits is dropped (its pages are crawled again)."""
        self.outbox, self.acks = [], []

    def closed(self) -> None:
        """The worker closed: the requests remembered are forgotten (memory freed)."""
        self.seen = BoundedSet(0)

    def busy(self) -> None:
        """Something is queued or leased somewhere: the crawl is not complete."""
        self.idle_since = None

    def quiet_for(self, now: float) -> float:
        """Seconds the crawl has looked complete."""
        if self.idle_since is None:
            self.idle_since = now
        return now - self.idle_since
