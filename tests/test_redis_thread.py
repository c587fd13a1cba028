"""The batch writes and the queue exchange run on the scheduler's I/O thread, not the
reactor's (issue 14: Redis off the page's path), and a write that loses Redis keeps
its pages' leases unacknowledged."""
from __future__ import annotations

import threading

import pytest
import pytest_twisted
import redis
from helpers import FIXTURES, project_settings

from skeleton.pipelines.tree import TreePipeline
from skeleton.store.keys import CrawlKeys
from skeleton.store.queue import LeasedFifoQueue
from skeleton.store.writes import Write, submit


def test_a_write_without_an_exchange_runs_at_once_and_reports() -> None:
    seen: list[object] = []
    submit(Write(lambda: 3, seen.append, seen.append), None)
    boom = ValueError("boom")

    def fail() -> None:
        raise boom

    submit(Write(fail, seen.append, seen.append), None)
    assert seen == [3, boom]


def test_a_write_handed_to_an_exchange_waits_for_it() -> None:
    ran: list[int] = []
    writes: list[Write] = []
    submit(Write(lambda: ran.append(1), ran.append, ran.append), writes)
    assert ran == [] and len(writes) == 1
    writes[0].now()
    assert ran == [1, None]


@pytest_twisted.inlineCallbacks
def test_the_tree_writes_and_the_queue_exchange_run_on_the_io_thread(
        serve, redis_settings, redis_client, monkeypatch) -> None:
    from helpers import crawl_in_process

    keys = CrawlKeys("io-thread")
    redis_client.delete(*keys.all())
    threads: dict[str, set[str]] = {"store": set(), "send": set()}
    store, send = TreePipeline._store, LeasedFifoQueue.send

    def recorded_store(self, waiting):  # type: ignore[no-untyped-def]
        threads["store"].add(threading.current_thread().name)
        return store(self, waiting)

    def recorded_send(self, plan):  # type: ignore[no-untyped-def]
        threads["send"].add(threading.current_thread().name)
        return send(self, plan)

    monkeypatch.setattr(TreePipeline, "_store", recorded_store)
    monkeypatch.setattr(LeasedFifoQueue, "send", recorded_send)
    base = serve(FIXTURES / "tinysite")
    stats, items = yield crawl_in_process(project_settings(redis_settings), base=f"{base}index.html",
                                          crawl="io-thread")
    assert stats["finish_reason"] == "finished" and len(items) >= 10
    # every page is stored and acknowledged: nothing queued, leased or in flight
    assert redis_client.hlen(keys.pages) == len(items)
    assert redis_client.zcard(keys.leases) == 0 and redis_client.llen(keys.requests) == 0
    main = threading.main_thread().name
    # the crawl's batches go through the I/O thread; only the last ones, written
    # when the worker closes, may run where the reactor runs
    assert any(name.startswith("skeleton-redis") for name in threads["store"])
    assert any(name.startswith("skeleton-redis") for name in threads["send"])
    assert threads["store"] <= {main} | {n for n in threads["store"] if n.startswith("skeleton-redis")}


@pytest_twisted.inlineCallbacks
def test_a_write_that_loses_redis_acknowledges_nothing(
        serve, redis_settings, redis_client, monkeypatch) -> None:
    from helpers import crawl_in_process

    keys = CrawlKeys("io-thread-lost")
    redis_client.delete(*keys.all())
    store, send = TreePipeline._store, LeasedFifoQueue.send
    events: list[tuple[str, int]] = []

    def flaky_store(self, waiting):  # type: ignore[no-untyped-def]
        if not any(kind == "lost" for kind, _ in events):  # the first batch: Redis is gone
            events.append(("lost", len(waiting)))
            raise redis.ConnectionError("gone")
        events.append(("stored", len(waiting)))
        return store(self, waiting)

    def recorded_send(self, plan):  # type: ignore[no-untyped-def]
        events.append(("sent", len(plan.acks)))
        return send(self, plan)

    monkeypatch.setattr(TreePipeline, "_store", flaky_store)
    monkeypatch.setattr(LeasedFifoQueue, "send", recorded_send)
    base = serve(FIXTURES / "tinysite")
    stats, items = yield crawl_in_process(project_settings(redis_settings), base=f"{base}index.html",
                                          crawl="io-thread-lost")
    assert stats["finish_reason"] == "redis_unavailable", (events, {k: v for k, v in stats.items() if "redis" in k or "item" in k})
    lost = next(n for n, (kind, _) in enumerate(events) if kind == "lost")
    assert stats["skeleton/redis_unavailable/items_not_stored"] >= events[lost][1] >= 1
    # the exchange that carried the lost batch sent nothing: its acknowledgements
    # (and pushes) stay with this worker, whose leases expire for another to crawl
    assert not any(kind == "sent" for kind, _ in events[lost + 1:])
    stored = redis_client.hlen(keys.pages)
    pending = redis_client.zcard(keys.leases) + redis_client.llen(keys.requests)
    assert stored < len(items) and pending >= events[lost][1]


if __name__ == "__main__":  # pragma: no cover
    pytest.main([__file__])


@pytest_twisted.inlineCallbacks
def test_the_tree_pipeline_keeps_its_client_until_the_io_thread_is_done(
        serve, redis_settings, redis_client, monkeypatch) -> None:
    """The pipeline's Redis client is closed only after the scheduler (whose I/O
    thread may still be writing the pipeline's last batch) is closed."""
    from helpers import crawl_in_process

    from skeleton.store.scheduler import Scheduler

    order: list[str] = []
    close, closed = Scheduler.close, TreePipeline.spider_closed

    def scheduler_close(self, reason):  # type: ignore[no-untyped-def]
        close(self, reason)
        order.append("scheduler closed")

    def client_closed(self):  # type: ignore[no-untyped-def]
        order.append("tree client closed")
        closed(self)

    monkeypatch.setattr(Scheduler, "close", scheduler_close)
    monkeypatch.setattr(TreePipeline, "spider_closed", client_closed)
    redis_client.delete(*CrawlKeys("io-thread-close").all())
    base = serve(FIXTURES / "tinysite")
    stats, _ = yield crawl_in_process(project_settings(redis_settings), base=f"{base}index.html",
                                      crawl="io-thread-close")
    assert stats["finish_reason"] == "finished"
    assert order == ["scheduler closed", "tree client closed"]


@pytest_twisted.inlineCallbacks
def test_a_write_that_fails_otherwise_leaves_its_pages_to_be_crawled_again(
        serve, redis_settings, redis_client, monkeypatch) -> None:
    """A batch write that raises something else than a lost connection (a bug, a
    client closed under it) acknowledges nothing: its pages' leases expire and the
    pages are crawled again, so every page ends up stored."""
    from helpers import crawl_in_process

    keys = CrawlKeys("io-thread-bug")
    redis_client.delete(*keys.all())
    store = TreePipeline._store
    lost: list[str] = []

    def buggy_store(self, waiting):  # type: ignore[no-untyped-def]
        if not lost:
            lost.extend(args[1] for _, args in waiting)  # the pages' URLs
            raise ValueError("a bug")
        return store(self, waiting)

    monkeypatch.setattr(TreePipeline, "_store", buggy_store)
    base = serve(FIXTURES / "tinysite")
    settings = project_settings({**redis_settings, "SKELETON_LEASE_TIMEOUT": "2"})
    stats, items = yield crawl_in_process(settings, base=f"{base}index.html", crawl="io-thread-bug")
    assert stats["finish_reason"] == "finished" and lost
    assert stats["skeleton/leases/not_acknowledged"] >= 1
    urls = [item["url"] for item in items]
    # the lost batch's pages were fetched again, and every page is stored
    assert all(urls.count(url) == 2 for url in lost)
    assert redis_client.hlen(keys.pages) == len(set(urls))
    assert redis_client.zcard(keys.leases) == 0 and redis_client.llen(keys.requests) == 0
