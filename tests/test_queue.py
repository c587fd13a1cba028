"""The leased queue on a real (embedded) Redis, through the batched round trips a
crawl uses: FIFO leases, acks, continuations, expiry and requeue by another worker,
heartbeats (worker liveness), bad and foreign entries moved to the dead
letters (importing nothing), what `scrapy status` reads
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

from skeleton.crawl_settings import SETTING, CrawlSettings
from skeleton.store import serializer
from skeleton.store.entries import decode_entry, encode_entry
from skeleton.store.keys import CrawlKeys
from skeleton.store.liveness import Liveness
from skeleton.store.queue import LEASE_META, LeasedFifoQueue


def make_queue(client, crawl: str, lease: float = 60.0) -> LeasedFifoQueue:
    spider = SimpleNamespace(name="skeleton", settings=Settings({
                                 "SKELETON_LEASE_TIMEOUT": lease, SETTING: CrawlSettings("http://127.0.0.1:9/", crawl)}),
                             crawler=SimpleNamespace(stats=MemoryStatsCollector(
                                 SimpleNamespace(settings=Settings()))))
    return LeasedFifoQueue(client, spider, CrawlKeys(crawl).requests, serializer)


def exchange(queue: LeasedFifoQueue, pushes: list, acks: list[str], pop: int) -> tuple[list[bool], list[Request]]:
    """One round trip, as the scheduler makes it (prepare, send, receive)."""
    plan = queue.prepare(pushes, acks, pop)
    return ([], []) if plan is None else queue.receive(plan, queue.send(plan))


def push(queue: LeasedFifoQueue, *requests: Request, dupe: bool = True) -> list[bool]:
    """Push ``requests`` (checked by URL in a set dupefilter unless not ``dupe``)."""
    return exchange(queue, [(*queue.entry(r), ["set", r.url] if dupe else [""]) for r in requests], [], 0)[0]


def pop(queue: LeasedFifoQueue, n: int = 1) -> list[Request]:
    return exchange(queue, [], [], n)[1]


def liveness(queue: LeasedFifoQueue) -> Liveness:
    return Liveness(queue.server, queue.keys, queue.key, queue.worker, queue.lease_ms, queue.stats)


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
    assert push(queue, *urls(3), Request("http://example.com/1")) == [True, True, True, False]
    first, second = pop(queue, 2)
    assert [first.url, second.url] == ["http://example.com/0", "http://example.com/1"]
    assert len(queue) == 1 and queue.in_flight() == 2
    assert redis_client.hlen(keys.inflight) == 2
    lease = first.meta[LEASE_META]
    exchange(queue, [], [lease], 0)
    assert queue.in_flight() == 1 and lease not in queue.held
    assert queue.prepare([], [lease], 0) is None  # acknowledged: no longer held, not sent again
    # a redirect of the second request: pushed, and its lease ends in the same script
    redirect = second.replace(url="http://example.com/moved")
    assert push(queue, redirect) == [True]
    assert queue.in_flight() == 0 and len(queue) == 2 and not queue.held
    # a continuation the dupefilter has seen still ends its lease
    third, = pop(queue)
    assert exchange(queue, [(*queue.entry(third.replace()), ["set", "http://example.com/1"])], [], 0)[0] == [False]
    assert queue.in_flight() == 0 and pop(queue)[0].url == "http://example.com/moved"
    assert queue.stats.get_value("skeleton/leases/lost") is None


def test_one_round_trip_exchange_reloads_its_scripts_after_a_redis_restart(fresh, redis_client) -> None:
    queue = fresh("q-noscript")
    pushes = [(*queue.entry(request), ["set", request.url]) for request in urls(2)]
    redis_client.script_flush()  # what a restarted Redis has: no script cached
    pushed, leased = exchange(queue, pushes, [], 1)
    assert pushed == [True, True] and [r.url for r in leased] == ["http://example.com/0"]
    redis_client.script_flush()
    pushed, leased = exchange(queue, [], [leased[0].meta[LEASE_META]], 1)
    assert pushed == [] and [r.url for r in leased] == ["http://example.com/1"]
    assert queue.in_flight() == 1 and len(queue) == 0


def test_expired_leases_are_requeued_by_another_worker(fresh) -> None:
    dead = fresh("q-expiry", lease=0.05)
    alive = make_queue(dead.server, "q-expiry")
    push(dead, *urls(3), dupe=False)
    lost = pop(dead, 2)
    time.sleep(0.1)  # let the 50 ms leases expire (not a timing assertion)
    alive.requeue_expired()
    assert dead.in_flight() == 0 and len(alive) == 3
    # the requeued requests come first, oldest first: breadth-first order is kept
    assert [r.url for r in pop(alive, 3)] == [r.url for r in lost] + ["http://example.com/2"]
    exchange(dead, [], [lost[0].meta[LEASE_META]], 0)  # too late: it was requeued
    assert dead.stats.get_value("skeleton/leases/lost") == 1 and alive.in_flight() == 3
    assert alive.stats.get_value("skeleton/leases/requeued") == 2


def test_heartbeat_renews_leases_and_close_puts_them_back(fresh) -> None:
    queue = fresh("q-renew", lease=0.3)
    push(queue, *urls(2), dupe=False)
    held, = pop(queue)
    for _ in range(4):
        time.sleep(0.1)
        liveness(queue).beat(queue.held)
        assert queue.requeue_expired() == 0
    assert queue.release() == 1 and queue.in_flight() == 0
    assert pop(queue)[0].url == held.url


def test_status_reads_workers_and_leases_from_redis(fresh, redis_client, redis_settings) -> None:
    from skeleton.commands.status import crawl_status
    from skeleton.store.keys import CRAWLS

    one, two = fresh("q-status"), make_queue(redis_client, "q-status")
    keys = one.keys
    redis_client.sadd(CRAWLS, "q-status")
    seconds, micros = redis_client.time()
    # a worker whose last heartbeat is older than a lease time is not alive
    redis_client.zadd(keys.workers, {"gone": seconds * 1000 + micros // 1000 - 120_000})
    liveness(one).beat([]), liveness(two).beat([])
    push(one, *urls(3))
    pop(one), pop(two)
    settings = Settings({**redis_settings, "SKELETON_LEASE_TIMEOUT": 60})
    status = crawl_status(settings, "q-status")
    assert status["state"] == "running" and status["workers_alive"] == 2
    assert status["queued"] == 1 and status["in_flight"] == 2
    assert status["dupefilter"] == "set" and status["dupefilter_size"] == 3
    one.release(), two.release()
    liveness(one).retire(), liveness(two).retire()
    status = crawl_status(settings, "q-status")
    assert status["state"] == "interrupted (no worker alive)" and status["workers_alive"] == 0
    assert status["queued"] == 3 and status["in_flight"] == 0
    redis_client.hset(keys.meta, "finish_reason", "finished")
    try:
        assert crawl_status(settings, "q-status")["state"] == "finished"
    finally:
        redis_client.srem(CRAWLS, "q-status")


def test_bad_entries_are_moved_to_the_dead_letters(fresh, redis_client) -> None:
    queue = fresh("q-malformed")
    push(queue, Request("http://example.com/ok"), dupe=False)
    junk = [b"not json", b'{"url": 5}', b'{"__skeleton_type__": "pickle", "v": 1}', b"\xff",
            b"[1, 2]", b'{"url": "http://example.com/a", "_class": "os.system"}',
            b'{"url": "http://example.com/b", "_class": ["scrapy.Request"]}',
            b'{"url": "http://example.com/c", "_class": "nonexistent.module.Cls"}',
            b'{"url": "http://example.com/d", "callback": "parse"}']  # the spider has none
    for entry in junk:
        redis_client.rpush(queue.key, entry)
    assert [r.url for r in pop(queue, len(junk) + 2)] == ["http://example.com/ok"]
    assert queue.stats.get_value("skeleton/queue/dead_letter") == len(junk)
    # nothing lost: every entry is kept as it was, newest first, and its lease ended
    assert redis_client.lrange(queue.keys.dead, 0, -1) == junk
    assert redis_client.hget(queue.keys.meta, "dead_letters") == str(len(junk)).encode()
    assert queue.in_flight() == 1 and len(queue) == 0


def test_the_dead_letters_kept_are_bounded(fresh, redis_client, monkeypatch) -> None:
    import skeleton.store.queue

    monkeypatch.setattr(skeleton.store.queue, "DEAD_LETTER_MAX", 3)
    queue = fresh("q-dead-bound")
    for i in range(5):
        redis_client.lpush(queue.key, f'{{"url": {i}}}')
    assert pop(queue, 6) == []
    assert redis_client.lrange(queue.keys.dead, 0, -1) == [b'{"url": 4}', b'{"url": 3}',
                                                            b'{"url": 2}']
    assert redis_client.hget(queue.keys.meta, "dead_letters") == b"5"
    assert queue.in_flight() == 0


def test_only_the_project_request_classes_are_queued(fresh) -> None:
    from scrapy.http import FormRequest

    queue = fresh("q-classes")
    with pytest.raises(TypeError, match="REQUEST_CLASSES"):
        push(queue, FormRequest("http://example.com/form", formdata={"a": "1"}))
    assert len(queue) == 0


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
    assert stats["finish_reason"] == "finished" and len(items) == 15
    assert stats["skeleton/queue/dead_letter"] == 1
    assert redis_client.lrange(keys.dead, 0, -1) == [b"{broken"]
    assert redis_client.zcard(keys.leases) == 0 and redis_client.llen(keys.requests) == 0


#: imported, this module leaves a mark; a queue entry naming it must not import it
PROBE = """
import pathlib
pathlib.Path(__file__).with_name("imported.txt").write_text("imported")
print("IMPORTED BY A QUEUE ENTRY")

class Evil:
    attributes = ("url",)
"""


@pytest_twisted.inlineCallbacks
def test_foreign_queue_entries_import_nothing_and_the_crawl_finishes(
        serve, redis_settings, redis_client, tmp_path: Path, monkeypatch) -> None:
    import sys

    from helpers import crawl_in_process

    from skeleton.commands.status import crawl_status

    (tmp_path / "skeleton_probe_evil.py").write_text(PROBE)
    monkeypatch.syspath_prepend(str(tmp_path))
    crawl = "q-crawl-foreign"
    keys = CrawlKeys(crawl)
    redis_client.delete(*keys.all())
    base = serve(FIXTURES / "tinysite")
    bad = [serializer.dumps({"url": f"{base}about.html", "callback": "parse",
                             "_class": "skeleton_probe_evil.Evil"}),
           serializer.dumps({"url": f"{base}terms.html", "_class": "nonexistent.module.Cls"}),
           serializer.dumps({"url": f"{base}privacy.html", "_class": "os.system"}),
           serializer.dumps({"url": f"{base}news/", "callback": "no_such_method"}),
           serializer.dumps({"url": f"{base}guides/", "callback": "__init__"})]
    # the bad entries wait at the head of the queue, next to the crawl's own requests
    for entry in bad:
        redis_client.lpush(keys.requests, entry)
    stats, items = yield crawl_in_process(project_settings(redis_settings),
                                          base=f"{base}index.html", mode="bfs", crawl=crawl)
    assert stats["finish_reason"] == "finished" and len(items) == 15
    assert {f"{base}about.html", f"{base}terms.html", f"{base}news/"} <= {i["url"] for i in items}
    assert stats["skeleton/queue/dead_letter"] == len(bad)
    assert "skeleton_probe_evil" not in sys.modules and "nonexistent" not in sys.modules
    assert not (tmp_path / "imported.txt").exists()
    assert [x.decode() for x in redis_client.lrange(keys.dead, 0, -1)] == bad[::-1]
    assert redis_client.zcard(keys.leases) == 0 and redis_client.llen(keys.requests) == 0
    status = crawl_status(Settings(redis_settings), crawl)
    assert status["state"] == "finished" and status["dead_letters"] == len(bad)
    assert status["dead_letters_key"] == keys.dead
    shown = run_scrapy(["status", "--crawl", crawl, "-s",
                        f"SKELETON_DATA_DIR={redis_settings['SKELETON_DATA_DIR']}"], tmp_path)
    assert shown.returncode == 0, shown.stderr
    lines = dict(line.split(":", 1) for line in shown.stdout.splitlines())
    assert lines["dead letters"].strip() == f"{len(bad)} (newest in {keys.dead})"


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
    from skeleton.store.dupefilter import bloom_size

    assert bloom_size(10_000_000, 0.001) == (143775876, 10)
    with pytest.raises(ValueError):
        bloom_size(10**10, 1e-9)


def test_the_set_dupefilter_keeps_raw_fingerprints_and_refuses_a_bloom_filter(redis_client) -> None:
    from skeleton.store.dupefilter import BloomDupeFilter, SetDupeFilter

    key = CrawlKeys("q-set").dupefilter
    redis_client.delete(key)
    dupefilter = SetDupeFilter(redis_client, key)
    request = Request("http://h/a")
    raw = bytes.fromhex(dupefilter.request_fingerprint(request))
    assert len(raw) == 20 and dupefilter.dupe_args(request) == ["set", raw]
    assert not dupefilter.request_seen(request) and dupefilter.request_seen(request)
    assert redis_client.smembers(key) == {raw}
    with pytest.raises(ValueError, match="started with another dupefilter"):
        BloomDupeFilter(redis_client, key, capacity=1000)
    redis_client.delete(key)
    BloomDupeFilter(redis_client, key, capacity=1000).request_seen(request)
    with pytest.raises(ValueError, match="started with another dupefilter"):
        SetDupeFilter(redis_client, key)
    redis_client.delete(key)


@pytest_twisted.inlineCallbacks
def test_a_crawl_with_the_bloom_dupefilter(serve, redis_settings, redis_client) -> None:
    from helpers import crawl_in_process

    keys = CrawlKeys("q-bloom")
    redis_client.delete(*keys.all())
    base = serve(FIXTURES / "tinysite")
    settings = project_settings({**redis_settings,
                                 "DUPEFILTER_CLASS": "skeleton.store.dupefilter.BloomDupeFilter",
                                 "SKELETON_BLOOM_CAPACITY": "100000"})
    stats, items = yield crawl_in_process(settings, base=f"{base}index.html", mode="bfs",
                                          crawl="q-bloom")
    assert stats["finish_reason"] == "finished" and len(items) == 15
    assert redis_client.type(keys.dupefilter) == b"string"
    # menu links repeated on every page are filtered by the worker's own memory
    assert stats["skeleton/scheduler/seen_locally"] > 0
    assert redis_client.strlen(keys.dupefilter) <= 100000 * 15 // 8 + 1


class Methods:
    """A spider's callbacks, for the queue's encoding."""

    name = "skeleton"
    settings = Settings({SETTING: CrawlSettings("http://127.0.0.1:9/", "q-encode")})
    crawler = SimpleNamespace(stats=MemoryStatsCollector(SimpleNamespace(settings=Settings())))

    def parse(self, response):  # type: ignore[no-untyped-def]
        return None

    def failed(self, failure):  # type: ignore[no-untyped-def]
        return None

    def _private(self, response):  # type: ignore[no-untyped-def]
        return None


def test_entries_name_the_spider_methods_as_to_dict_does() -> None:
    spider = Methods()
    for callback, errback in ((spider.parse, spider.failed), (None, None), (spider.parse, None),
                              (spider._private, None)):  # not named directly: to_dict's way
        request = Request("http://example.com/a", callback=callback, errback=errback,
                          meta={"skeleton_depth": 2, "skeleton_context": "ab" * 10}, priority=3)
        entry = encode_entry(request, spider, serializer)
        if callback == spider._private:  # written as to_dict writes it (and refused when read back)
            assert serializer.loads(entry) == serializer.loads(serializer.dumps(request.to_dict(spider=spider)))
        else:
            assert decode_entry(entry, spider, serializer).to_dict(spider=spider) == request.to_dict(spider=spider)


def test_entries_leave_out_defaults_and_decode_to_the_same_request() -> None:
    """An entry holds what differs from a request made from its URL alone; decoded,
    every attribute of the request is back, headers of any bytes included."""
    spider = Methods()
    link = Request("http://example.com/section/page.html", callback=spider.parse, errback=spider.failed,
                   headers={"Referer": "http://example.com/section/"},
                   meta={"skeleton_depth": 2, "skeleton_parent": "http://example.com/section/",
                         "skeleton_context": "ab" * 10, "skeleton_lang": "", "depth": 1})
    entry = encode_entry(link, spider, serializer)
    assert set(serializer.loads(entry)) == {"url", "callback", "errback", "headers", "meta"}
    assert len(entry) < len(serializer.dumps(link.to_dict(spider=spider))) / 1.5
    unusual = Request("http://example.com/form", method="POST", body=b"\xff\x00a=1", callback=spider.parse,
                      headers={"X-Name": "caf\u00e9".encode("latin-1"), "Accept": ["a", "b"]},
                      cookies={"s": "1"}, encoding="latin-1", priority=-2, dont_filter=True,
                      flags=["f"], cb_kwargs={"k": [1, 2]})
    for request in (link, unusual, Request("http://example.com/")):
        decoded = decode_entry(encode_entry(request, spider, serializer), spider, serializer)
        assert decoded.to_dict(spider=spider) == request.to_dict(spider=spider)
