"""The crawl process's heap and Python's cyclic garbage collector.

``FrozenHeap`` moves the objects that live as long as the process out of the
collector's sight (:func:`gc.freeze`): once when the engine starts (the modules,
models, settings and components built before the first request), so that the full
collections during the crawl traverse only what the crawl itself creates, and once
when the spider closes, so that the interpreter's last collection at exit does not
traverse the whole heap either (the operating system frees it). Nothing frozen is
ever collected: what the startup left as garbage stays (a one-time amount, not a
growing one).

Setting: ``SKELETON_GC_FREEZE`` (default True; False: ``NotConfigured``).
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
    """Freezes the heap when the engine starts and when the spider closes."""

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        if not crawler.settings.getbool("SKELETON_GC_FREEZE", True):
            raise NotConfigured("SKELETON_GC_FREEZE is off")
        extension = cls()
        crawler.signals.connect(extension.freeze, signal=signals.engine_started)
        crawler.signals.connect(extension.freeze, signal=signals.spider_closed)
        return extension

    def freeze(self) -> None:
        gc.freeze()
