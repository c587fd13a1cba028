"""The crawl process's heap and Python's cyclic garbage collector.

``FrozenHeap`` keeps the collector's work to what the crawl needs:

* it moves the objects that live as long as the process out of the collector's
  sight (:func:`gc.freeze`): once when the engine starts (the modules, models,
  settings and components built before the first request), so that full
  collections during the crawl traverse only what the crawl itself creates, and once
  when the spider closes, so that the interpreter's last collection at exit does not
  traverse the whole heap either (the operating system frees it). Nothing frozen is
  ever collected: what the startup left as garbage stays (a one-time amount);
* with ``SKELETON_GC_THRESHOLD`` it collects the youngest generation every that many
  allocations of container objects from the engine's start (Python's default is
  700; :func:`gc.set_threshold`, the older generations' thresholds unchanged). A
  page allocates tens of thousands of them, so the default collects several times per
  page; a larger threshold spends less time collecting but lets more garbage coexist,
  and the process's memory grows with it. Off by default.

Settings: ``SKELETON_GC_FREEZE`` (default True) and ``SKELETON_GC_THRESHOLD``
(default 0: Python's); with both off, ``NotConfigured``.
"""
from __future__ import annotations

import gc
from typing import TYPE_CHECKING, Self

from scrapy import signals
from scrapy.exceptions import NotConfigured

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

__all__ = ["FrozenHeap"]


class FrozenHeap:
    """Freezes the heap when the engine starts and when the spider closes, and sets
    the youngest generation's threshold when the engine starts if asked."""

    def __init__(self, freeze: bool, threshold: int) -> None:
        self.freezing = freeze
        self.threshold = threshold

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        settings = crawler.settings
        freeze = settings.getbool("SKELETON_GC_FREEZE", True)
        threshold = max(0, settings.getint("SKELETON_GC_THRESHOLD", 0))
        if not freeze and not threshold:
            raise NotConfigured("SKELETON_GC_FREEZE and SKELETON_GC_THRESHOLD are off")
        extension = cls(freeze, threshold)
        crawler.signals.connect(extension.engine_started, signal=signals.engine_started)
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        return extension

    def engine_started(self) -> None:
        if self.threshold:
            _, older, oldest = gc.get_threshold()
            gc.set_threshold(self.threshold, older, oldest)
        if self.freezing:
            gc.freeze()

    def spider_closed(self) -> None:
        if self.freezing:
            gc.freeze()
