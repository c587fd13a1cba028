"""Crawl ids across runs: an interrupted crawl resumes from its Redis queue and
dupefilter; a crawl that finished starts afresh; ``scrapy status`` shows when a
crawl started and, apart, when it was last resumed."""
from __future__ import annotations

import json
import time
from pathlib import Path

import pytest_twisted
from helpers import FAST, FIXTURES, TrapHandler, crawl_in_process, project_settings, run_scrapy

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


def _status(cwd: Path, *args: str) -> dict:
    done = run_scrapy(["status", "--json", *args], cwd)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_status_shows_the_start_and_apart_the_last_resume(serve, tmp_path: Path) -> None:
    base = serve(FIXTURES / "tinysite") + "index.html"

    def crawl(crawl_id: str, *args: str) -> None:
        done = run_scrapy(["crawl", "skeleton", "-a", f"base={base}", "-a", "mode=bfs", "-a", f"crawl={crawl_id}",
                           *args, *FAST], tmp_path)
        assert done.returncode == 0, done.stderr[-3000:]

    crawl("early", "-a", "max_pages=2")  # stopped by its budget: resumable
    first = _status(tmp_path, "--crawl", "early")
    assert first["finish_reason"] == "max_pages" and first["started"] and first["resumed"] == ""
    crawl("later")
    later = _status(tmp_path, "--crawl", "later")["started"]
    time.sleep(1.1)  # timestamps are to the second
    crawl("early")  # resumed, and finished
    status = _status(tmp_path)  # the most recently started or resumed crawl
    assert status["crawl"] == "early" and status["finish_reason"] == "finished"
    assert status["started"] == first["started"] and status["resumed"] > later >= first["started"]
    text = run_scrapy(["status"], tmp_path).stdout
    assert f"started:       {first['started']}\n" in text and f"resumed:       {status['resumed']}\n" in text
    listed = json.loads(run_scrapy(["crawls", "--json"], tmp_path).stdout)
    assert [(c["crawl"], c["started"], c["resumed"]) for c in listed] == [
        ("early", first["started"], status["resumed"]), ("later", later, "")]
    time.sleep(1.1)
    crawl("early")  # a finished crawl starts afresh: no resume
    again = _status(tmp_path, "--crawl", "early")
    assert again["started"] > status["resumed"] and again["resumed"] == ""
    assert "resumed:" not in run_scrapy(["status"], tmp_path).stdout
