"""The scheduler's I/O thread: one exchange with Redis at a time, off the reactor.

:meth:`IOThread.start` runs an exchange on a thread of its own: first the batch
writes the components handed over (:class:`skeleton.store.writes.Write`), then the
queue's round trip (:meth:`skeleton.store.queue.LeasedFifoQueue.send`) unless a write
lost Redis or was refused (:data:`skeleton.store.outage.REDIS_ERRORS`: the writes after
it are not tried and nothing is sent); after a write failed otherwise the round trip
goes without its acknowledgements, so a lease ends only once its page is written.
Back on the reactor's thread, once (when the thread is done, or at once by
:meth:`IOThread.wait`, which blocks), each write's ``done`` or ``failed`` runs, then
``done`` gets what the round trip brought back (:class:`Sent`).
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from skeleton.store import outage
from skeleton.store.queue import Exchange, LeasedFifoQueue
from skeleton.store.writes import Write

__all__ = ["IOThread", "Sent"]

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Sent:
    """An exchange done: each write's ``(True, result)`` or ``(False, exception)``,
    the queue's ``replies`` (None: not sent; an exception: sending raised it) and the
    ``plan`` sent (the one asked for, less its acknowledgements after a write failed)."""

    writes: list[tuple[bool, Any]]
    replies: Any
    plan: Exchange | None


def _call_in_reactor(function: Any, *args: Any) -> None:
    """``function(*args)`` on the reactor's thread (from the I/O thread)."""
    from twisted.internet import reactor  # the reactor Scrapy installed

    reactor.callFromThread(function, *args)  # type: ignore[attr-defined]


def _exchange(queue: LeasedFifoQueue, writes: list[Write], plan: Exchange | None) -> Sent:
    """On the I/O thread: the writes, then ``plan``. Never raises."""
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
        return Sent(done, None, plan)
    if failed is not None and plan.acks:
        plan = Exchange(plan.pushes, [], plan.ids)
    try:
        return Sent(done, queue.send(plan), plan)
    except Exception as exc:  # noqa: BLE001 - reported on the reactor's thread
        return Sent(done, exc, plan)


class IOThread:
    """One exchange at a time with ``queue``, on a thread named ``skeleton-redis``."""

    def __init__(self, queue: LeasedFifoQueue) -> None:
        self.queue = queue
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="skeleton-redis")
        self._job: tuple[Future[Sent], Callable[[Sent], None], list[Write]] | None = None

    @property
    def busy(self) -> bool:
        """Whether an exchange runs (or ran and was not reported yet)."""
        return self._job is not None

    def start(self, writes: list[Write], plan: Exchange | None, done: Callable[[Sent], None]) -> None:
        """Run ``writes`` then ``plan`` on the thread; ``done(sent)`` on the reactor's
        thread once they are. Not while :attr:`busy`."""
        job = (self._pool.submit(_exchange, self.queue, writes, plan), done, writes)
        self._job = job
        job[0].add_done_callback(lambda _: _call_in_reactor(self._report, job))

    def wait(self) -> None:
        """Block until the running exchange is done and report it now (``done`` may
        start the next one)."""
        if self._job is not None:
            self._report(self._job)

    def _report(self, job: tuple[Future[Sent], Callable[[Sent], None], list[Write]]) -> None:
        if self._job is not job:
            return  # reported already (by wait)
        sent = job[0].result()
        self._job = None
        for write, (ok, value) in zip(job[2], sent.writes):
            try:
                (write.done if ok else write.failed)(value)
            except Exception:  # a component's bug never loses the exchange
                logger.exception("a batch write failed to report")
        job[1](sent)

    def close(self) -> None:
        """Wait for the thread to finish and stop it."""
        self._pool.shutdown(wait=True)
