"""The heap extension: the objects built before the crawl, and the whole heap at its
end, are frozen out of the cyclic collector's sight; the youngest generation is
collected less often."""
from __future__ import annotations

import gc

import pytest
from scrapy import signals
from scrapy.exceptions import NotConfigured
from scrapy.utils.test import get_crawler

from skeleton.extensions.heap import FrozenHeap


@pytest.fixture(autouse=True)
def _collector_as_it_was():
    threshold = gc.get_threshold()
    gc.unfreeze()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


def test_the_heap_is_frozen_when_the_engine_starts_and_when_the_spider_closes() -> None:
    crawler = get_crawler(settings_dict={})
    heap = FrozenHeap.from_crawler(crawler)  # kept: signal receivers are weak references
    before = gc.get_threshold()
    assert gc.get_freeze_count() == 0
    crawler.signals.send_catch_log(signals.engine_started)
    frozen = gc.get_freeze_count()
    assert frozen > 0
    assert gc.get_threshold() == before  # Python's thresholds by default
    kept = [[object()] for _ in range(1000)]  # objects the crawl creates meanwhile
    crawler.signals.send_catch_log(signals.spider_closed, spider=None, reason="finished")
    assert gc.get_freeze_count() >= frozen + len(kept) and heap is not None


def test_each_setting_switches_its_part_on_or_off() -> None:
    older = gc.get_threshold()[1:]
    crawler = get_crawler(settings_dict={"SKELETON_GC_FREEZE": False, "SKELETON_GC_THRESHOLD": 5000})
    heap = FrozenHeap.from_crawler(crawler)
    crawler.signals.send_catch_log(signals.engine_started)
    assert gc.get_freeze_count() == 0 and gc.get_threshold() == (5000, *older) and heap is not None
    with pytest.raises(NotConfigured):
        FrozenHeap.from_crawler(get_crawler(settings_dict={"SKELETON_GC_FREEZE": False,
                                                           "SKELETON_GC_THRESHOLD": 0}))
