"""Crawl ids across runs: an interrupted crawl resumes from its Redis queue and
dupefilter; a crawl that finished starts afresh."""
from __future__ import annotations

import pytest_twisted
from helpers import TrapHandler, crawl_in_process, project_settings

from skeleton.store.keys import ENTROPY_BUCKETS, CrawlKeys, entropy_bucket

#: Every page of the trap site down to depth 3 ('a/a/a/' is a trap).
ALL = {"", "a/", "cal?month=0", "a/a/", "cal?month=-1", "cal?month=1", "cal?month=-2",
       "cal?month=2"}


@pytest_twisted.inlineCallbacks
def test_interrupted_crawl_resumes_and_finished_crawl_restarts(serve, redis_settings,
                                                                redis_client) -> None:
    base = serve(handler=TrapHandler)
    settings = project_settings(redis_settings)
    args = {"base": base, "mode": "bfs", "depth": "3", "crawl": "resume"}
    fetched: list[str] = []
    for run in range(10):
        stats, items = yield crawl_in_process(settings, max_pages="3", **args)
        fetched += [item["url"][len(base):] for item in items]
        assert len(items) <= 3
        if stats["finish_reason"] == "finished":
            break
        assert stats["finish_reason"] == "max_pages" and len(items) == 3
    assert run >= 2
    assert sorted(fetched) == sorted(ALL)
    keys = CrawlKeys("resume")
    assert redis_client.hget(keys.meta, "finish_reason") == b"finished"
    assert redis_client.hlen(keys.pages) == len(ALL) and redis_client.llen(keys.requests) == 0
    # starting afresh deletes every key of the crawl, every entropy bucket included
    stale = keys.entropy_bucket(entropy_bucket("zzstale"))
    redis_client.hset(stale, "zzstale", "5")
    redis_client.hset(keys.entropy_bucket(ENTROPY_BUCKETS), "zz" * 40, "5")
    counted = redis_client.scard(keys.entropy_pages)
    assert counted == len(ALL)

    stats, items = yield crawl_in_process(settings, **args)
    assert stats["finish_reason"] == "finished"
    assert sorted(item["url"][len(base):] for item in items) == sorted(ALL)
    assert redis_client.hget(stale, "zzstale") is None
    assert not redis_client.exists(keys.entropy_bucket(ENTROPY_BUCKETS))
    assert stats["skeleton/entropy/pages"] == counted == redis_client.scard(keys.entropy_pages)
