"""The heap extension: the objects built before the crawl, and the whole heap at its
end, are frozen out of the cyclic collector's sight."""
from __future__ import annotations

import gc

import pytest
from scrapy import signals
from scrapy.exceptions import NotConfigured
from scrapy.utils.test import get_crawler

from skeleton.extensions.heap import FrozenHeap


@pytest.fixture(autouse=True)
def _unfrozen():
    gc.unfreeze()
    yield
    gc.unfreeze()


def test_the_heap_is_frozen_when_the_engine_starts_and_when_the_spider_closes() -> None:
    crawler = get_crawler(settings_dict={"SKELETON_GC_FREEZE": True})
    heap = FrozenHeap.from_crawler(crawler)  # kept: signal receivers are weak references
    assert gc.get_freeze_count() == 0
    crawler.signals.send_catch_log(signals.engine_started)
    frozen = gc.get_freeze_count()
    assert frozen > 0
    kept = [[object()] for _ in range(1000)]  # objects the crawl creates meanwhile
    crawler.signals.send_catch_log(signals.spider_closed, spider=None, reason="finished")
    assert gc.get_freeze_count() >= frozen + len(kept) and heap is not None


def test_the_setting_switches_it_off() -> None:
    with pytest.raises(NotConfigured):
        FrozenHeap.from_crawler(get_crawler(settings_dict={"SKELETON_GC_FREEZE": False}))
