"""Many workers on one Redis: real ``scrapy crawl`` processes sharing a crawl id
against a separately started redis-server, on a fixture site served slowly.

Nothing here asserts a duration: waits poll Redis, timeouts are only a safety.
"""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis
from helpers import (FAST, ROOT, SlowHandler, redis_ready, run_scrapy, start_redis_server, start_scrapy,
                     wait_for)
from scrapy.settings import Settings

from skeleton.commands.tree import load_crawl_tree
from skeleton.store.keys import CrawlKeys, url_id
from skeleton.store.tree import load_hash

SITE = ROOT / "tests" / "sites" / "docs_sidebar"
#: short leases and quick Redis retries, so dead workers and outages show soon
#: Acknowledgements (and the page writes before them) at least every 0.2 s, not the
#: default 1 s: the tests that stop Redis or a worker once a few pages are stored
#: must find most of the site's 43 pages still to crawl (with 1 s the first write
#: could come when the crawl was nearly done, and the stop after it).
WORKER = [*FAST, "-s", "SKELETON_LEASE_TIMEOUT=2", "-s", "SKELETON_REDIS_RETRIES=2",
          "-s", "SKELETON_REDIS_BACKOFF=0.1", "-s", "LOG_LEVEL=INFO", "-s", "SKELETON_ACK_INTERVAL=0.2"]


class Slow(SlowHandler):
    delay = 0.15

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, directory=str(SITE), **kwargs)  # type: ignore[arg-type]


_SERVERS: dict[Path, subprocess.Popen[bytes]] = {}


@pytest.fixture
def redis_dir(tmp_path: Path) -> Iterator[Path]:
    """A redis-server in ``tmp_path/redis`` with every write fsynced (AOF)."""
    directory = tmp_path / "redis"
    directory.mkdir()
    proc = _SERVERS[directory] = start_redis_server(directory, aof=True)
    wait_for(lambda: redis_ready(f"unix://{directory}/redis.sock"), timeout=30)
    yield directory
    proc.terminate()
    proc.wait(timeout=30)
    del _SERVERS[directory]


def url_of(redis_dir: Path) -> str:
    return f"unix://{redis_dir}/redis.sock"


def client_for(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, socket_timeout=10, socket_connect_timeout=10)


def crawl_args(base: str, crawl: str, mode: str) -> list[str]:
    return ["crawl", "skeleton", "-a", f"base={base}index.html", "-a", f"crawl={crawl}",
            "-a", f"mode={mode}", *WORKER]


def tree_of(url: str, crawl: str) -> dict:
    return load_crawl_tree(Settings({"REDIS_URL": url}), crawl)[1]


def start_workers(n: int, base: str, crawl: str, mode: str, cwd: Path,
                  url: str, *extra: str, first: int = 0) -> list[subprocess.Popen[str]]:
    """``n`` workers of ``crawl``, with the settings ``extra`` (``-s NAME=VALUE``) added;
    their logs ``cwd/CRAWL-I.log``, ``I`` counted from ``first``."""
    workers = []
    for i in range(first, first + n):
        worker = start_scrapy([*crawl_args(base, crawl, mode), *extra], cwd, cwd / f"{crawl}-{i}.log",
                              REDIS_URL=url)
        worker.log = cwd / f"{crawl}-{i}.log"  # type: ignore[attr-defined]
        workers.append(worker)
    return workers


def finish(workers: list[subprocess.Popen[str]]) -> list[str]:
    """Wait for workers to exit by themselves; their logs."""
    for worker in workers:
        worker.wait(timeout=180)
    return [worker.log.read_text("utf-8") for worker in workers]  # type: ignore[attr-defined]


def assert_drained(client: redis.Redis, crawl: str) -> None:
    keys = CrawlKeys(crawl)
    assert client.llen(keys.requests) == 0
    assert client.zcard(keys.leases) == 0 and client.hlen(keys.inflight) == 0
    assert client.hget(keys.meta, "finish_reason") == b"finished"


def test_three_workers_give_the_single_worker_tree(serve, tmp_path: Path,
                                                  redis_dir: Path) -> None:
    """Three workers on one crawl give the single worker's tree, and the work is shared.

    So that the sharing never depends on which process starts first, the first
    worker starts alone (long leases) and is frozen once it has stored pages while
    requests wait in the queue; the two others join and take them; then it resumes."""
    mode = "sew"  # the stricter mode: each page's detection depends on its parents
    base, url = serve(handler=Slow), url_of(redis_dir)
    done = run_scrapy(crawl_args(base, "one", mode), tmp_path, REDIS_URL=url)
    assert done.returncode == 0 and "'finish_reason': 'finished'" in done.stderr, done.stderr[-3000:]
    single = tree_of(url, "one")

    client = client_for(url)
    keys = CrawlKeys("three")
    # long leases for all: the frozen worker stays alive to the others (they join its
    # run, they do not resume it) and its leases do not expire
    long = ("-s", "SKELETON_LEASE_TIMEOUT=60")
    first = start_workers(1, base, "three", mode, tmp_path, url, *long)[0]
    _freeze_when(first, lambda: client.hlen(keys.pages) >= 3 and client.llen(keys.requests) > 0)
    stored = client.hlen(keys.pages)
    others = start_workers(2, base, "three", mode, tmp_path, url, *long, first=1)
    try:
        wait_for(lambda: client.hlen(keys.pages) > stored or any(w.poll() is not None for w in others),
                 timeout=120, every=0.05)
    finally:
        os.kill(first.pid, signal.SIGCONT)
    workers = [first, *others]
    logs = finish(workers)
    for worker, log in zip(workers, logs):
        assert worker.returncode == 0, log[-3000:]
        assert "'finish_reason': 'finished'" in log and "Traceback" not in log, log[-3000:]
    assert sum("'skeleton/pages'" in log for log in logs) >= 2  # the work was shared
    assert tree_of(url, "three") == single
    client = client_for(url)
    try:
        assert_drained(client, "three")
        assert client.hlen(CrawlKeys("three").pages) == client.hlen(CrawlKeys("one").pages)
    finally:
        client.close()

    done = run_scrapy(["status", "--crawl", "three", "--json"], tmp_path, REDIS_URL=url)
    assert done.returncode == 0, done.stderr
    status = json.loads(done.stdout)
    assert status["state"] == "finished" and status["queued"] == status["in_flight"] == 0
    assert status["workers_alive"] == 0 and status["pages_done"] > 20
    assert status["started"] and status["resumed"] == ""  # workers joining a run resume nothing
    assert status["offered_pages"] == client_for(url).hlen(CrawlKeys("three").offers)


def _owned(members: list[bytes], pid: int) -> list[bytes]:
    """The members (worker or lease ids, ``host-pid-random[:n]``) of the process ``pid``."""
    prefix = f"{socket.gethostname()}-{pid}-".encode()
    return [member for member in members if member.startswith(prefix)]


def _victim_leases(client: redis.Redis, crawl: str, pid: int) -> list[bytes]:
    return _owned(client.zrange(CrawlKeys(crawl).leases, 0, -1), pid)


def _freeze_when(worker: subprocess.Popen[str], ready: Callable[[], object]) -> None:
    """Stop ``worker`` (SIGSTOP) at a moment when ``ready()`` holds, checked again once
    it is stopped (a running worker may change what it reads); fail if it ends first."""
    while True:
        wait_for(lambda: worker.poll() is not None or ready(), timeout=120, every=0.01)
        assert worker.poll() is None, "the worker ended before it could be stopped mid-crawl"
        os.kill(worker.pid, signal.SIGSTOP)
        if ready():
            return
        os.kill(worker.pid, signal.SIGCONT)


def test_kill_one_of_three_workers_loses_nothing(serve, tmp_path: Path, redis_dir: Path) -> None:
    """A worker dies holding leases while two others work the same crawl: they put
    its requests back (its process is gone) and finish the single worker's tree.

    The victim starts alone, with long leases (60 s, so they cannot simply expire
    while it is frozen), and is frozen holding some; the two others start and join;
    then the victim is killed. No step depends on which process starts first."""
    base, url = serve(handler=Slow), url_of(redis_dir)
    done = run_scrapy(crawl_args(base, "one", "sew"), tmp_path, REDIS_URL=url)
    assert done.returncode == 0, done.stderr[-3000:]
    single = tree_of(url, "one")

    client = client_for(url)
    keys = CrawlKeys("kill")
    victim = start_workers(1, base, "kill", "sew", tmp_path, url, "-s", "SKELETON_LEASE_TIMEOUT=60")[0]
    _freeze_when(victim, lambda: client.hlen(keys.pages) >= 3 and _victim_leases(client, "kill", victim.pid))
    others = start_workers(2, base, "kill", "sew", tmp_path, url, first=1)
    wait_for(lambda: all(_owned(client.zrange(keys.workers, 0, -1), w.pid) or w.poll() is not None
                         for w in others), timeout=120, every=0.05)
    assert all(w.poll() is None for w in others), "a worker ended before the victim was killed"
    assert _victim_leases(client, "kill", victim.pid)  # still held: the others are waiting on them
    os.kill(victim.pid, signal.SIGKILL)
    victim.wait(timeout=30)
    assert victim.returncode == -signal.SIGKILL

    logs = finish(others)
    for worker, log in zip(others, logs):
        assert worker.returncode == 0, log[-3000:]
        assert "'finish_reason': 'finished'" in log, log[-3000:]
    # the victim ran on this host: its leases went back as soon as its process was gone
    assert any("'skeleton/leases/requeued_dead_worker'" in log for log in logs)
    assert tree_of(url, "kill") == single
    try:
        assert_drained(client, "kill")
    finally:
        client.close()


def test_redis_killed_mid_crawl_stops_cleanly_and_keeps_what_was_stored(
        serve, tmp_path: Path, redis_dir: Path) -> None:
    base, url = serve(handler=Slow), url_of(redis_dir)
    done = run_scrapy(crawl_args(base, "one", "bfs"), tmp_path, REDIS_URL=url)
    assert done.returncode == 0, done.stderr[-3000:]
    single = tree_of(url, "one")

    client = client_for(url)
    keys = CrawlKeys("outage")
    worker = start_workers(1, base, "outage", "bfs", tmp_path, url)[0]
    wait_for(lambda: client.hlen(keys.pages) >= 5, timeout=120, every=0.01)
    client.close()
    _SERVERS[redis_dir].kill()
    _SERVERS[redis_dir].wait(timeout=30)
    log = finish([worker])[0]
    assert worker.returncode == 1, log[-3000:]
    assert "'finish_reason': 'redis_unavailable'" in log, log[-3000:]
    assert "Redis unavailable while" in log

    restarted = start_redis_server(redis_dir, aof=True)
    try:
        wait_for(lambda: redis_ready(url), timeout=30)
        client = client_for(url)
        stored = load_hash(client, keys.pages)
        edges = {k.decode() for k in client.hkeys(keys.offers)}
        assert len(stored) >= 5
        root = base
        for page_url, page in stored.items():  # every stored page has its offers with it
            for link in page["nav_links"]:
                assert link["url"] in edges or link["url"] in (root, page_url)
        # and its entropy update: the middleware counts a page before the spider sees it
        counted = client.smembers(keys.entropy_pages)
        assert {url_id(url) for url in stored} <= counted
        assert client.hget(keys.meta, "finish_reason") is None  # not marked finished
        # a worker started later resumes the crawl: nothing was lost
        done = run_scrapy(crawl_args(base, "outage", "bfs"), tmp_path, REDIS_URL=url)
        assert done.returncode == 0 and "'finish_reason': 'finished'" in done.stderr, \
            done.stderr[-3000:]
        assert tree_of(url, "outage") == single
        assert_drained(client, "outage")
        client.close()
    finally:
        restarted.terminate()
        restarted.wait(timeout=30)


#: log lines of a component that waited for Redis (its retries spent) on one page
_REDIS_WAITS = ("could not count the terms", "could not compute the blocks", "URL variants: could not",
                "could not record the redirect", "could not keep", "Error processing")


@pytest.mark.parametrize("extra", [[], ["-s", "SKELETON_KEEP_PAGES=True"]], ids=["default", "kept-pages"])
def test_once_redis_is_declared_gone_no_component_waits_for_it(serve, tmp_path: Path,
                                                               redis_dir: Path, extra: list[str]) -> None:
    """A Redis that never comes back: the first component whose retries run out
    declares the outage, and from then on the middlewares and the pipeline skip
    Redis for the responses still in flight instead of spending their retries on
    each (the entropy, URL-variant and alias middlewares run by default; the kept
    pages when asked)."""
    base, url = serve(handler=Slow), url_of(redis_dir)
    client = client_for(url)
    keys = CrawlKeys("gone")
    worker = start_scrapy([*crawl_args(base, "gone", "sew"), *extra,
                           "-s", "CONCURRENT_REQUESTS=8", "-s", "CONCURRENT_REQUESTS_PER_DOMAIN=8"],
                          tmp_path, tmp_path / "gone.log", REDIS_URL=url)
    worker.log = tmp_path / "gone.log"  # type: ignore[attr-defined]
    wait_for(lambda: client.hlen(keys.pages) >= 5, timeout=120, every=0.01)
    client.close()
    _SERVERS[redis_dir].kill()
    _SERVERS[redis_dir].wait(timeout=30)
    log = finish([worker])[0]
    assert worker.returncode == 1 and "'finish_reason': 'redis_unavailable'" in log, log[-3000:]
    declared = log.index("Redis unavailable while")
    after = [line for line in log[declared:].splitlines() if any(w in line for w in _REDIS_WAITS)]
    assert after == [], after
    assert "Traceback" not in log, log[-3000:]



def test_a_rerun_after_kill_9_of_the_only_worker_takes_back_its_leases_at_once(
        serve, tmp_path: Path, redis_dir: Path) -> None:
    """The leases of a worker of this host whose process is gone are requeued when
    the next worker joins, not after the lease timeout: here an hour, longer than
    the test's safety timeouts, so the rerun only finishes if they are."""
    base, url = serve(handler=Slow), url_of(redis_dir)
    done = run_scrapy(crawl_args(base, "one", "sew"), tmp_path, REDIS_URL=url)
    assert done.returncode == 0, done.stderr[-3000:]
    single = tree_of(url, "one")

    hour = ["-s", "SKELETON_LEASE_TIMEOUT=3600"]
    client = client_for(url)
    victim = start_scrapy([*crawl_args(base, "crash", "sew"), *hour], tmp_path, tmp_path / "crash.log",
                          REDIS_URL=url)
    while True:
        wait_for(lambda: client.hlen(CrawlKeys("crash").pages) >= 3
                 and _victim_leases(client, "crash", victim.pid), timeout=120, every=0.01)
        os.kill(victim.pid, signal.SIGSTOP)
        if _victim_leases(client, "crash", victim.pid):
            break
        os.kill(victim.pid, signal.SIGCONT)
    os.kill(victim.pid, signal.SIGKILL)
    victim.wait(timeout=30)
    started = client.hget(CrawlKeys("crash").meta, "started")

    rerun = start_scrapy([*crawl_args(base, "crash", "sew"), *hour], tmp_path, tmp_path / "rerun.log",
                         REDIS_URL=url)
    rerun.log = tmp_path / "rerun.log"  # type: ignore[attr-defined]
    log = finish([rerun])[0]
    assert rerun.returncode == 0 and "'finish_reason': 'finished'" in log, log[-3000:]
    assert "'skeleton/leases/requeued_dead_worker'" in log and "its process is gone" in log
    assert tree_of(url, "crash") == single
    # the rerun resumed the interrupted crawl: its start is kept, the resume shown apart
    meta = client.hgetall(CrawlKeys("crash").meta)
    assert meta[b"started"] == started and meta[b"resumed"] >= started
    try:
        assert_drained(client, "crash")
    finally:
        client.close()


def test_max_pages_is_the_budget_of_the_whole_crawl(serve, tmp_path: Path, redis_dir: Path) -> None:
    """Two workers of one crawl with max_pages=10 analyse about 10 pages together
    (each stops once the crawl's count reaches the budget; pages in flight then
    are still stored), not 10 each; a later run with the same budget crawls 10 more."""
    base, url = serve(handler=Slow), url_of(redis_dir)
    client = client_for(url)
    keys = CrawlKeys("budget")
    args = [*crawl_args(base, "budget", "bfs"), "-a", "max_pages=10", "-s", "CONCURRENT_REQUESTS=2",
            "-s", "CONCURRENT_REQUESTS_PER_DOMAIN=2"]
    workers = []
    for i in range(2):
        worker = start_scrapy(args, tmp_path, tmp_path / f"budget-{i}.log", REDIS_URL=url)
        worker.log = tmp_path / f"budget-{i}.log"  # type: ignore[attr-defined]
        workers.append(worker)
    logs = finish(workers)
    assert all("'finish_reason': 'max_pages'" in log for log in logs), logs[0][-2000:]
    first = client.hlen(keys.pages)
    assert 10 <= first <= 10 + 2 * 2, first  # the budget, plus at most the pages in flight
    done = run_scrapy(args, tmp_path, REDIS_URL=url)
    assert done.returncode == 0 and "'finish_reason': 'max_pages'" in done.stderr
    assert 10 <= client.hlen(keys.pages) - first <= 10 + 2
    client.close()
