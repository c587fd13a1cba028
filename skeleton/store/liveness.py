"""Worker liveness: which workers of a crawl are alive, and what a dead one held.

A worker's id is ``host-pid-random`` (:func:`new_worker_id`) and its lease ids are
``worker:n``. A live worker beats (:meth:`Liveness.beat`, every quarter of
``SKELETON_LEASE_TIMEOUT`` from the scheduler): its time in ``:workers`` is updated
and its leases renewed. The leases of a worker that ran on this host and whose
process is gone (:func:`dead_local_worker`) are requeued at once
(:meth:`Liveness.requeue_dead`, when a worker joins and at each beat); the leases of
any other worker that stopped beating expire (:mod:`skeleton.store.queue`).
"""
from __future__ import annotations

import logging
import os
import secrets
import socket
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import psutil

from skeleton.store.keys import CrawlKeys
from skeleton.store.lease_scripts import HEARTBEAT, REQUEUE_WORKER

if TYPE_CHECKING:
    import redis

__all__ = ["Liveness", "new_worker_id", "dead_local_worker", "workers_alive"]

logger = logging.getLogger(__name__)


def new_worker_id() -> str:
    """``host-pid-random``: unique among workers, and tells where a worker runs."""
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"


def dead_local_worker(worker: str) -> bool:
    """Is ``worker`` (an id of :func:`new_worker_id`, ``host-pid-random``) a worker
    of this host whose process no longer runs (or is a zombie)? A worker of another
    host, or one whose pid runs (possibly reused by another program), is not known
    dead: its leases expire as usual."""
    try:
        host, pid, _ = worker.rsplit("-", 2)
        number = int(pid)
    except ValueError:
        return False
    if host != socket.gethostname() or number <= 0 or number == os.getpid():
        return False
    try:
        return psutil.Process(number).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True
    except psutil.Error:
        return False


def workers_alive(server: redis.Redis, keys: CrawlKeys, lease_seconds: float) -> int:
    """Workers whose last heartbeat is younger than one lease time."""
    seconds, micros = server.time()
    now = seconds * 1000 + micros // 1000
    return int(server.zcount(keys.workers, now - int(lease_seconds * 1000), "+inf"))


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


class Liveness:
    """The worker ``worker`` of the crawl ``keys`` (its pending list ``pending``):
    its heartbeat and, for its host, the requeue of dead workers' leases."""

    def __init__(self, server: redis.Redis, keys: CrawlKeys, pending: str, worker: str,
                 lease_ms: int, stats: Any) -> None:
        self.server, self.keys, self.pending, self.worker = server, keys, pending, worker
        self.lease_ms, self.stats = lease_ms, stats
        self._beat = server.register_script(HEARTBEAT)
        self._requeue_worker = server.register_script(REQUEUE_WORKER)

    def beat(self, held: Iterable[str]) -> None:
        """Say this worker is alive and renew the leases ``held``."""
        self._beat(keys=[self.keys.workers, self.keys.leases], args=[self.worker, self.lease_ms, *held])

    def requeue_dead(self) -> int:
        """Put back at once the leases of the crawl's workers that ran on this host
        and whose process is gone (:func:`dead_local_worker`), instead of waiting
        for their leases to expire. Returns how many entries were requeued."""
        workers = {_text(w) for w in self.server.zrange(self.keys.workers, 0, -1)}
        workers.update(_text(lease).rsplit(":", 1)[0] for lease in self.server.zrange(self.keys.leases, 0, -1))
        count = 0
        for worker in sorted(workers):
            if worker != self.worker and dead_local_worker(worker):
                moved = int(self._requeue_worker(
                    keys=[self.pending, self.keys.leases, self.keys.inflight, self.keys.workers], args=[worker]))
                if moved:
                    logger.info("requeued %d requests of worker %s (its process is gone)", moved, worker)
                count += moved
        if count:
            self.stats.inc_value("skeleton/leases/requeued_dead_worker", count)
        return count

    def retire(self) -> None:
        """Leave the crawl's workers (at a normal close)."""
        self.server.zrem(self.keys.workers, self.worker)
