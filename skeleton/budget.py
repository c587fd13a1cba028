"""The per-page analysis budget, and a shutdown that does not wait for a page.

A page's analysis (the spider's callback: SEW, the evidence, views, URL rules,
the offers) runs on the reactor's thread: while it runs, the crawl does nothing
else, and Scrapy's handler of SIGTERM and SIGINT (Ctrl-C), which only schedules
the shutdown on the reactor (``reactor.callFromThread``), waits for it too. Every
per-page pass is linear in the page (``benchmarks/linear.py``: about 2 s for a
page of 100k links in nested lists), so the analysis is stopped cooperatively:

* :class:`Deadline` is one page's: its end (``SKELETON_ANALYSIS_BUDGET`` seconds
  after the page's analysis started; none with a budget of 0) and whether a
  shutdown is pending. :meth:`Deadline.check` raises :class:`BudgetSpent` past
  the end, :class:`ShutdownPending` once a shutdown signal came.
* :func:`checkpoint` checks the deadline of the analysis running (:func:`within`
  makes a deadline the running one, a context variable); it does nothing when no
  analysis runs (the same functions called by the middlewares, the benchmarks,
  the training tools). The analysis calls it between its steps and in its loops
  over links, link groups and candidate sets.
* :class:`ShutdownWatch` sets its flag in the signal handler itself (Python runs
  it between two bytecodes of the analysis), then calls the handler it wraps
  (Scrapy's, which starts the graceful shutdown and makes a second signal force
  it).

How precise: a check runs between two steps and once per link, group or
candidate set, but one step in C (lxml's parse of at most 5 MB, one XPath over
the page) cannot be interrupted, nor can a signal handler run during it: the cut
comes at most one such step late (a few tenths of a second on the pages of
``benchmarks/linear.py``). The budget counts from the page's parse, by the first
component that reads the page (the middlewares' passes are included; they run
before the spider and are not cut).
"""
from __future__ import annotations

import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

__all__ = ["BUDGET_SETTING", "BUDGET_STATUS", "DEFAULT_BUDGET", "SHUTDOWN_SIGNALS", "AnalysisCut",
           "BudgetSpent", "Deadline", "ShutdownPending", "ShutdownWatch", "checkpoint", "within"]

#: the setting: seconds a page's analysis may take; 0: no budget
BUDGET_SETTING = "SKELETON_ANALYSIS_BUDGET"
#: its default (the slowest page of ``benchmarks/linear.py`` takes about 2 s)
DEFAULT_BUDGET = 30.0
#: the ``status`` of a page whose analysis was cut by the budget (``reason`` ``failed``)
BUDGET_STATUS = "analysis_budget"
#: the signals that stop a crawl (Scrapy's ``install_shutdown_handlers``)
SHUTDOWN_SIGNALS: tuple[int, ...] = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGBREAK")
                                          if hasattr(signal, name))


class AnalysisCut(BaseException):
    """A page's analysis stopped before its end. Not an ``Exception``: no
    ``except Exception`` of an optional analysis (sections, blocks) takes it for
    its own failure; the spider's callback catches it."""


class BudgetSpent(AnalysisCut):
    """The page's analysis took longer than its budget (``seconds``, ``budget``)."""

    def __init__(self, seconds: float, budget: float) -> None:
        super().__init__(f"analysis over its budget: {seconds:.3f} s, budget {budget:g} s")
        self.seconds = seconds
        self.budget = budget


class ShutdownPending(AnalysisCut):
    """A shutdown signal came during the page's analysis."""


def _never() -> bool:
    return False


@dataclass(slots=True)
class Deadline:
    """One page's deadline: ``budget`` seconds (0 or less: none) from ``started``
    on ``clock``; ``stopping`` tells whether a shutdown is pending."""

    budget: float
    started: float
    stopping: Callable[[], bool] = _never
    clock: Callable[[], float] = field(default=time.monotonic, repr=False)

    @property
    def until(self) -> float | None:
        """The clock's time the budget ends, None without a budget."""
        return self.started + self.budget if self.budget > 0 else None

    def elapsed(self) -> float:
        return self.clock() - self.started

    def check(self) -> None:
        """Raise :class:`ShutdownPending` when a shutdown is pending, else
        :class:`BudgetSpent` when the budget is spent."""
        if self.stopping():
            raise ShutdownPending("a shutdown signal came during the analysis")
        if self.budget > 0:
            elapsed = self.clock() - self.started
            if elapsed >= self.budget:
                raise BudgetSpent(elapsed, self.budget)


#: the deadline of the analysis running, None outside one
_RUNNING: ContextVar[Deadline | None] = ContextVar("skeleton_analysis_deadline", default=None)


def checkpoint() -> None:
    """Check the deadline of the analysis running (:meth:`Deadline.check`); nothing
    outside an analysis."""
    deadline = _RUNNING.get()
    if deadline is not None:
        deadline.check()


@contextmanager
def within(deadline: Deadline | None) -> Iterator[Deadline | None]:
    """Run the block as an analysis under ``deadline`` (checked once on entry)."""
    token = _RUNNING.set(deadline)
    try:
        if deadline is not None:
            deadline.check()
        yield deadline
    finally:
        _RUNNING.reset(token)


Handler = Callable[[int, FrameType | None], Any]


class ShutdownWatch:
    """Knows whether a shutdown signal (SIGINT, SIGTERM) came: :meth:`watch` wraps
    the handlers in place (Scrapy's, installed when the reactor starts), the
    wrapper sets :attr:`requested` and calls the handler it wraps. Call it (cheap)
    before each analysis: Scrapy installs its handlers after the spider is made and
    replaces them on the first signal. A handler that is not a function (the
    default, ignored) is left alone. :meth:`unwatch` puts the wrapped handlers back."""

    def __init__(self) -> None:
        self.requested = False
        self._wrapped: dict[int, Handler] = {}

    def __call__(self) -> bool:
        return self.requested

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        self.requested = True
        handler = self._wrapped.get(signum)
        if handler is not None:
            handler(signum, frame)

    def watch(self) -> None:
        if self.requested:
            return
        for signum in SHUTDOWN_SIGNALS:
            try:
                current = signal.getsignal(signum)
                if current == self._handle or not callable(current):
                    continue
                self._wrapped[signum] = current
                signal.signal(signum, self._handle)
            except (ValueError, OSError):  # not the main thread: the crawl runs elsewhere
                return

    def unwatch(self) -> None:
        for signum, handler in self._wrapped.items():
            try:
                if signal.getsignal(signum) == self._handle:
                    signal.signal(signum, handler)
            except (ValueError, OSError):
                pass
        self._wrapped.clear()
