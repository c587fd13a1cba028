"""Default crawl ids and crawl ids reused for another site: bases whose slugs
collide get distinct default ids, one base always the same id, and a crawl id
holding an unfinished crawl of another base is refused (never resumed with the
other site's pages), through the real spider and Redis."""
from __future__ import annotations

import re
from pathlib import Path

import pytest_twisted
from helpers import FAST, FIXTURES, crawl_in_process, project_settings, run_scrapy
from hypothesis import given, settings
from hypothesis import strategies as st

from skeleton.store.keys import CRAWLS, MAX_CRAWL_ID, CrawlKeys, crawl_id_error, crawl_id_for, valid_crawl_id
from skeleton.web.urls import canonical

#: bases the former default ids mixed up, in groups that shared one id
COLLIDING = [
    ["http://h/a_b/", "http://h/a-b/", "http://h/a/b/", "http://h/a+b/"],
    ["http://host:8000/en/", "http://host/8000/en/", "http://host-8000/en/"],
    ["http://h/docs/", "https://h/docs/"],
    ["http://h/" + "d" * 180 + "/one/", "http://h/" + "d" * 180 + "/two/"],
    ["http://h/p/?lang=en", "http://h/p/?lang=fr", "http://h/p/"],
]


def test_the_bases_that_shared_a_default_id_get_distinct_ids() -> None:
    for group in COLLIDING:
        for mode in ("sew", "bfs"):
            ids = [crawl_id_for(base, mode) for base in group]
            assert len(set(ids)) == len(group), group
            assert all(valid_crawl_id(crawl) for crawl in ids)
    # the two modes of one site are two crawls, side by side
    assert crawl_id_for("http://h/docs/", "sew") != crawl_id_for("http://h/docs/", "bfs")


def test_default_ids_are_readable_and_follow_the_canonical_base() -> None:
    crawl = crawl_id_for("http://127.0.0.1:8000/en/index.html")
    assert re.fullmatch(r"127\.0\.0\.1-8000-en-[0-9a-f]{10}", crawl)
    # one canonical base, one id, whoever computes it (the spider canonicalizes first)
    for same in ("http://127.0.0.1:8000/en/", " http://127.0.0.1:8000/en/#top",
                 "HTTP://127.0.0.1:8000/en/index.html"):
        assert crawl_id_for(same) == crawl
    assert re.fullmatch(r"127\.0\.0\.1-8000-en-bfs-[0-9a-f]{10}",
                        crawl_id_for("http://127.0.0.1:8000/en/", "bfs"))
    assert "secret" not in crawl_id_for("http://user:secret@h/x/")
    long = crawl_id_for("http://h/" + "x" * 500 + "/", "bfs")
    # room is left for the timestamp skeleton.recrawl appends
    assert valid_crawl_id(long) and valid_crawl_id(long + "-20260102T030405Z")


_SEGMENT = st.text(alphabet="ab_-.+:%2", min_size=1, max_size=4)
_BASES = st.builds(
    lambda scheme, host, port, segments, query: (
        f"{scheme}://{host}{port}/" + "".join(f"{s}/" for s in segments) + query),
    st.sampled_from(["http", "https"]), st.sampled_from(["h", "h-1", "H"]),
    st.sampled_from(["", ":8000", ":80"]), st.lists(_SEGMENT, max_size=4),
    st.sampled_from(["", "?a=1", "?a=2&b=1"]))


@settings(max_examples=300, deadline=None)
@given(_BASES, _BASES, st.sampled_from(["sew", "bfs"]))
def test_different_canonical_bases_never_share_a_default_id(one: str, two: str, mode: str) -> None:
    first, second = crawl_id_for(one, mode), crawl_id_for(two, mode)
    assert valid_crawl_id(first) and valid_crawl_id(second)
    assert (first == second) == ((canonical(one) or one) == (canonical(two) or two))


def _tiny(serve) -> str:  # type: ignore[no-untyped-def]
    return serve(FIXTURES / "tinysite") + "index.html"


@pytest_twisted.inlineCallbacks
def test_a_crawl_id_of_another_base_is_not_resumed(serve, redis_settings, redis_client) -> None:
    crawl = "ids-other-base"
    keys = CrawlKeys(crawl)
    redis_client.delete(*keys.all())
    first, other = _tiny(serve), _tiny(serve)  # the same pages on two ports: two sites
    config = project_settings(redis_settings)
    stats, items = yield crawl_in_process(config, base=first, mode="bfs", crawl=crawl,
                                          max_pages="2")
    assert stats["finish_reason"] == "max_pages" and len(items) == 2
    queued = redis_client.lrange(keys.requests, 0, -1)
    assert queued
    # the lifecycle extension refuses it when it opens (the check `scrapy crawl` makes first,
    # atomically): nothing fetched, nothing of the stored crawl changed
    stats, items = yield crawl_in_process(config, base=other, mode="bfs", crawl=crawl)
    assert stats["finish_reason"] == "base_mismatch" and items == []
    assert "downloader/request_count" not in stats
    assert stats["skeleton/base_mismatch"] == canonical(first)
    meta = redis_client.hgetall(keys.meta)
    assert meta[b"base"] == canonical(first).encode() and meta[b"finish_reason"] == b"max_pages"
    assert redis_client.lrange(keys.requests, 0, -1) == queued
    assert redis_client.hlen(keys.pages) == 2 and redis_client.zcard(keys.workers) == 0
    # its own base resumes it to the end; a finished crawl id starts afresh with any base
    stats, items = yield crawl_in_process(config, base=first, mode="bfs", crawl=crawl)
    assert stats["finish_reason"] == "finished" and len(items) == 13  # 15 pages, 2 done before
    stats, items = yield crawl_in_process(config, base=other, mode="bfs", crawl=crawl)
    assert stats["finish_reason"] == "finished" and len(items) == 15
    pages = [url.decode() for url in redis_client.hkeys(keys.pages)]
    assert len(pages) == 15 and all(url.startswith(canonical(other)) for url in pages)


@pytest_twisted.inlineCallbacks
def test_a_crawl_that_cannot_be_opened_fetches_and_writes_nothing(serve, redis_settings, redis_client,
                                                                  monkeypatch) -> None:
    import skeleton.store.meta

    crawl = "ids-open-failed"
    keys = CrawlKeys(crawl)
    redis_client.delete(*keys.all())
    redis_client.hset(keys.meta, mapping={"base": "x", "finish_reason": "shutdown"})
    monkeypatch.setattr(skeleton.store.meta, "OPEN_SCRIPT", "return redis.error_reply('no')")
    stats, items = yield crawl_in_process(project_settings(redis_settings), base=_tiny(serve),
                                          mode="bfs", crawl=crawl)
    assert stats["finish_reason"] == "open_failed" and items == []
    assert "downloader/request_count" not in stats
    assert redis_client.hgetall(keys.meta) == {b"base": b"x", b"finish_reason": b"shutdown"}
    redis_client.delete(*keys.all())


def test_scrapy_crawl_refuses_another_base_in_one_line(serve, redis_settings, redis_client,
                                                        tmp_path: Path) -> None:
    crawl = "ids-other-base-cli"  # as if recorded under a former default id
    keys = CrawlKeys(crawl)
    redis_client.delete(*keys.all())
    stored, other = canonical(_tiny(serve)), "http://127.0.0.1:9/two/"
    redis_client.hset(keys.meta, mapping={"base": stored, "mode": "bfs", "finish_reason": "shutdown"})
    redis_client.lpush(keys.requests, b"kept")
    redis_client.sadd(CRAWLS, crawl)
    data = f"SKELETON_DATA_DIR={redis_settings['SKELETON_DATA_DIR']}"
    default = CrawlKeys(crawl_id_for(stored, "bfs"))
    redis_client.delete(*default.all())
    try:
        done = run_scrapy(["crawl", "skeleton", "-a", f"base={other}", "-a", "mode=bfs",
                           "-a", f"crawl={crawl}", "-s", data], tmp_path)
        assert done.returncode == 2 and "Traceback" not in done.stderr
        errors = [line for line in done.stderr.splitlines() if "error:" in line]
        assert len(errors) == 1, done.stderr
        assert f"'{crawl}'" in errors[0] and stored in errors[0] and other in errors[0]
        assert redis_client.hget(keys.meta, "base") == stored.encode()
        assert redis_client.lrange(keys.requests, 0, -1) == [b"kept"]
        # the same base under its default id: a new crawl, which says where the old one is
        done = run_scrapy(["crawl", "skeleton", "-a", f"base={stored}", "-a", "mode=bfs",
                           "-s", data, *FAST], tmp_path)
        assert done.returncode == 0, done.stderr
        assert (f"starting crawl {default.crawl} of {stored} afresh; an unfinished crawl of "
                f"this base is recorded as {crawl}: resume it with -a crawl={crawl}") in done.stderr
        assert redis_client.hget(default.meta, "finish_reason") == b"finished"
        assert redis_client.lrange(keys.requests, 0, -1) == [b"kept"]
    finally:
        redis_client.srem(CRAWLS, crawl, default.crawl)


def test_a_crawl_id_over_the_limit_is_refused_naming_the_limit(tmp_path: Path) -> None:
    assert MAX_CRAWL_ID == 200 and valid_crawl_id("a" * 200) and crawl_id_error("a" * 200) is None
    assert crawl_id_error("a" * 201) == "crawl id must be at most 200 characters, got 201"
    # the other rules keep their own message; a trailing line break is no part of an id
    for bad in ("a b", ".hidden", "-x", "abc\n"):
        assert not valid_crawl_id(bad)
        assert crawl_id_error(bad) == (f"invalid crawl id {bad!r}: use letters, digits, '.', '_', '-', "
                                       "starting with a letter or a digit")
    done = run_scrapy(["crawl", "skeleton", "-a", "base=http://127.0.0.1:9/", "-a", "crawl=" + "c" * 250],
                      tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-2000:]
    errors = [line for line in done.stderr.splitlines() if "error" in line.lower()]
    assert len(errors) == 1 and errors[0].endswith("error: crawl id must be at most 200 characters, got 250"), \
        done.stderr
    assert not (tmp_path / ".skeleton-data").exists()  # refused before Redis
