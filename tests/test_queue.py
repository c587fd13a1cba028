"""The leased queue on a real (embedded) Redis: FIFO leases, acks, continuations,
expiry and requeue by another worker, malformed entries, what `scrapy status` reads
from the lease and worker keys of a running crawl; refused settings."""
from __future__ import annotations

import time
from pathlib import Path
from types import SimpleNamespace

import pytest
import pytest_twisted
from helpers import FIXTURES, project_settings, run_scrapy
from scrapy import Request
from scrapy.settings import Settings
from scrapy.statscollectors import MemoryStatsCollector

from skeleton import serializer
from skeleton.queue import LEASE_META, LeasedFifoQueue
from skeleton.redis_keys import CrawlKeys


def make_queue(client, crawl: str, lease: float = 60.0) -> LeasedFifoQueue:
    spider = SimpleNamespace(name="skeleton", keys=CrawlKeys(crawl),
                             settings=Settings({"SKELETON_LEASE_TIMEOUT": lease}),
                             crawler=SimpleNamespace(stats=MemoryStatsCollector(
                                 SimpleNamespace(settings=Settings()))))
    return LeasedFifoQueue(client, spider, CrawlKeys(crawl).requests, serializer)


@pytest.fixture
def fresh(redis_client):
    def make(crawl: str, **kwargs):  # type: ignore[no-untyped-def]
        redis_client.delete(*CrawlKeys(crawl).all(), CrawlKeys(crawl).workers)
        return make_queue(redis_client, crawl, **kwargs)
    return make


def urls(n: int) -> list[Request]:
    return [Request(f"http://example.com/{i}") for i in range(n)]


def test_fifo_leases_acks_and_continuations(fresh, redis_client) -> None:
    queue = fresh("q-fifo")
    keys = queue.keys
    for request in urls(3):
        assert queue.push(request, ["set", request.url])
    assert not queue.push(Request("http://example.com/1"), ["set", "http://example.com/1"])
    first, second = queue.pop(), queue.pop()
    assert [first.url, second.url] == ["http://example.com/0", "http://example.com/1"]
    assert len(queue) == 1 and queue.in_flight() == 2
    assert redis_client.hlen(keys.inflight) == 2
    assert queue.ack(first.meta[LEASE_META]) and not queue.ack(first.meta[LEASE_META])
    # a redirect of the second request: pushed, and its lease ends in the same script
    redirect = second.replace(url="http://example.com/moved")
    assert queue.push(redirect, ["set", redirect.url])
    assert queue.in_flight() == 0 and len(queue) == 2
    # a continuation the dupefilter has seen still ends its lease
    third = queue.pop()
    assert not queue.push(third.replace(), ["set", "http://example.com/1"])
    assert queue.in_flight() == 0 and queue.pop().url == "http://example.com/moved"


def test_expired_leases_are_requeued_by_another_worker(fresh) -> None:
    dead = fresh("q-expiry", lease=0.05)
    alive = make_queue(dead.server, "q-expiry")
    for request in urls(3):
        dead.push(request, [""])
    lost = [dead.pop(), dead.pop()]
    time.sleep(0.1)  # let the 50 ms leases expire (not a timing assertion)
    alive.requeue_expired()
    assert dead.in_flight() == 0 and len(alive) == 3
    # the requeued requests come first, oldest first: breadth-first order is kept
    assert [alive.pop().url for _ in range(3)] == [r.url for r in lost] + ["http://example.com/2"]
    assert not dead.ack(lost[0].meta[LEASE_META])  # too late: it was requeued
    assert dead.stats.get_value("skeleton/leases/lost") == 1
    assert alive.stats.get_value("skeleton/leases/requeued") == 2


def test_heartbeat_renews_leases_and_close_puts_them_back(fresh) -> None:
    queue = fresh("q-renew", lease=0.3)
    for request in urls(2):
        queue.push(request, [""])
    held = queue.pop()
    for _ in range(4):
        time.sleep(0.1)
        queue.heartbeat()
        assert queue.requeue_expired() == 0
    assert queue.release() == 1 and queue.in_flight() == 0
    assert queue.pop().url == held.url


def test_status_reads_workers_and_leases_from_redis(fresh, redis_client, redis_settings) -> None:
    from skeleton.commands.status import crawl_status
    from skeleton.redis_keys import CRAWLS

    one, two = fresh("q-status"), make_queue(redis_client, "q-status")
    keys = one.keys
    redis_client.sadd(CRAWLS, "q-status")
    seconds, micros = redis_client.time()
    # a worker whose last heartbeat is older than a lease time is not alive
    redis_client.zadd(keys.workers, {"gone": seconds * 1000 + micros // 1000 - 120_000})
    one.heartbeat(), two.heartbeat()
    for request in urls(3):
        one.push(request, ["set", request.url])
    one.pop(), two.pop()
    settings = Settings({**redis_settings, "SKELETON_LEASE_TIMEOUT": 60})
    status = crawl_status(settings, "q-status")
    assert status["state"] == "running" and status["workers alive"] == 2
    assert status["queued"] == 1 and status["in flight"] == 2
    assert status["dupefilter"] == "3 fingerprints"
    one.release(), two.release()
    one.retire(), two.retire()
    status = crawl_status(settings, "q-status")
    assert status["state"] == "interrupted (no worker alive)" and status["workers alive"] == 0
    assert status["queued"] == 3 and status["in flight"] == 0
    redis_client.hset(keys.meta, "finish_reason", "finished")
    try:
        assert crawl_status(settings, "q-status")["state"] == "finished"
    finally:
        redis_client.srem(CRAWLS, "q-status")


def test_malformed_entries_are_dropped_and_counted(fresh, redis_client) -> None:
    queue = fresh("q-malformed")
    queue.push(Request("http://example.com/ok"), [""])
    for junk in (b"not json", b'{"url": 5}', b'{"__skeleton_type__": "pickle", "v": 1}', b"\xff"):
        redis_client.rpush(queue.key, junk)
    assert queue.pop().url == "http://example.com/ok"
    assert queue.pop() is None
    assert queue.stats.get_value("skeleton/queue/malformed") == 4
    assert queue.in_flight() == 1 and len(queue) == 0


@pytest_twisted.inlineCallbacks
def test_a_crawl_survives_a_malformed_entry(serve, redis_settings, redis_client) -> None:
    from helpers import crawl_in_process

    keys = CrawlKeys("q-crawl-junk")
    redis_client.delete(*keys.all())
    redis_client.lpush(keys.requests, b"{broken")
    base = serve(FIXTURES / "tinysite")
    stats, items = yield crawl_in_process(project_settings(redis_settings),
                                          base=f"{base}index.html", mode="bfs",
                                          crawl="q-crawl-junk")
    assert stats["finish_reason"] == "finished" and len(items) == 17
    assert stats["skeleton/queue/malformed"] == 1
    assert redis_client.zcard(keys.leases) == 0 and redis_client.llen(keys.requests) == 0


def test_settings_that_delete_shared_keys_are_refused(tmp_path: Path, redis_settings,
                                                     redis_client) -> None:
    args = ["crawl", "skeleton", "-a", "base=http://127.0.0.1:9/", "-a", "crawl=q-shared"]
    done = run_scrapy([*args, "-s", "SCHEDULER_PERSIST=False"], tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "error: SCHEDULER_PERSIST=False is refused" in done.stderr
    keys = CrawlKeys("q-shared")
    seconds, micros = redis_client.time()
    redis_client.zadd(keys.workers, {"someone-else": seconds * 1000 + micros // 1000})
    try:
        done = run_scrapy([*args, "-s", "SCHEDULER_FLUSH_ON_START=True", "-s",
                           f"SKELETON_DATA_DIR={redis_settings['SKELETON_DATA_DIR']}"], tmp_path)
    finally:
        redis_client.delete(keys.workers)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert ("error: SCHEDULER_FLUSH_ON_START is refused: 1 other worker(s) of crawl "
            "'q-shared' are alive") in done.stderr


def test_bloom_size() -> None:
    from skeleton.dupefilter import bloom_size

    assert bloom_size(10_000_000, 0.001) == (143775876, 10)
    with pytest.raises(ValueError):
        bloom_size(10**10, 1e-9)


@pytest_twisted.inlineCallbacks
def test_a_crawl_with_the_bloom_dupefilter(serve, redis_settings, redis_client) -> None:
    from helpers import crawl_in_process

    keys = CrawlKeys("q-bloom")
    redis_client.delete(*keys.all())
    base = serve(FIXTURES / "tinysite")
    settings = project_settings({**redis_settings,
                                 "DUPEFILTER_CLASS": "skeleton.dupefilter.BloomDupeFilter",
                                 "SKELETON_BLOOM_CAPACITY": "100000"})
    stats, items = yield crawl_in_process(settings, base=f"{base}index.html", mode="bfs",
                                          crawl="q-bloom")
    assert stats["finish_reason"] == "finished" and len(items) == 17
    assert redis_client.type(keys.dupefilter) == b"string"
    assert redis_client.strlen(keys.dupefilter) <= 100000 * 15 // 8 + 1
