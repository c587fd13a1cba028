"""A Scrapy extension for the throughput benchmark's workers (not for crawls)."""
from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

__all__ = ["StartupGrace"]


class StartupGrace:
    """Scrapy extension for the benchmark's workers: keeps an idle spider open
    until the benchmark opens the site (it creates the file ``BENCH_GATE``) and
    ``STARTUP_GRACE`` seconds after (negative: until the worker is stopped), and
    shortens Scrapy's 5 s engine heartbeat (``ENGINE_HEARTBEAT``) so that an
    idle worker polls the shared queue often instead of sleeping 5 s."""

    def __init__(self, gate: Path | None, grace: float) -> None:
        self.gate = gate
        self.grace = grace

    @classmethod
    def from_crawler(cls, crawler: Any) -> StartupGrace:
        from scrapy import signals
        from scrapy.core.engine import ExecutionEngine

        heartbeat = crawler.settings.getfloat("ENGINE_HEARTBEAT", 0.0)
        if heartbeat > 0:
            ExecutionEngine._SLOT_HEARTBEAT_INTERVAL = heartbeat
        gate = os.environ.get("BENCH_GATE")
        extension = cls(Path(gate) if gate else None, crawler.settings.getfloat("STARTUP_GRACE", -1))
        crawler.signals.connect(extension.idle, signal=signals.spider_idle)
        return extension

    def idle(self) -> None:
        from scrapy.exceptions import DontCloseSpider

        if self.gate is None:
            return
        try:
            opened = self.gate.stat().st_mtime
        except FileNotFoundError:
            raise DontCloseSpider from None
        if self.grace < 0 or time.time() - opened < self.grace:
            raise DontCloseSpider
