"""Batched Redis writes, prepared on the reactor's thread and sent off it.

A component that keeps pages' writes for a batch (the tree pipeline, the entropy
and URL-variants middlewares) answers the scheduler's
:data:`skeleton.store.scheduler.flush_requested` with a :class:`Write`. Its ``run``
does the round trips and touches nothing but the Redis client (thread-safe) and the
data handed to it, so the scheduler runs it on its I/O thread, before the
acknowledgements of the same exchange: a lease is acknowledged only once its
page's data is written, and the reactor goes on with other pages meanwhile.
``done`` (with what ``run`` returned) and ``failed`` (with what it raised) run on
the reactor's thread, where the component's state, stats and signals live.
Outside an exchange (at close, or when a batch is full) a write runs at once on the
caller's thread (:func:`submit` without a list).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["Write", "submit"]


@dataclass(frozen=True, slots=True)
class Write:
    """A batch write: ``run`` (Redis only, any thread), then ``done(result)`` or
    ``failed(exception)`` on the reactor's thread."""

    run: Callable[[], Any]
    done: Callable[[Any], None]
    failed: Callable[[Exception], None]

    def now(self) -> None:
        """Run, then ``done`` or ``failed``, on the caller's thread."""
        try:
            result = self.run()
        except Exception as exc:  # noqa: BLE001 - handed to the component's ``failed``
            self.failed(exc)
            return
        self.done(result)


def submit(write: Write, writes: list[Write] | None) -> None:
    """Hand ``write`` to the exchange collecting ``writes``, or run it now (None)."""
    if writes is None:
        write.now()
    else:
        writes.append(write)
