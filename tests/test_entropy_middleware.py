"""The entropy middleware and its Redis store, against the embedded Redis server:
concurrent workers equal the batch computation, a URL counts once, the update
touches only the page's terms, a real crawl fills the keys and ``scrapy entropy``
reads them."""
from __future__ import annotations

import json
import math
import uuid
from decimal import Decimal, getcontext
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
import pytest_twisted
from helpers import TrapHandler, crawl_in_process, project_settings, run_scrapy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.stats import entropy as scipy_entropy
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse, Request, Response
from scrapy.utils.test import get_crawler

from skeleton.crawl_settings import SETTING, CrawlSettings
from skeleton.store.scheduler import flush_requested
from skeleton.middlewares.entropy import EntropyMiddleware
from skeleton.entropy.statistics import entropy
from skeleton.store.entropy import SCRIPT_CHUNK, EntropyStore
from skeleton.store.entropy import term_weights
from skeleton.store.keys import ENTROPY_BUCKETS, LONG_TERM, CrawlKeys, entropy_bucket, url_id
from skeleton.store.server import connect
from skeleton.spiders.skeleton import SkeletonSpider

SITE = Path(__file__).resolve().parent / "fixtures" / "tinysite"
VOCAB = [f"term{i}" for i in range(12)]
BASE = "http://127.0.0.1:9/site/index.html"


def batch_en(per_page: list[int], n: int) -> float:
    positive = [c for c in per_page if c > 0]
    if n <= 1 or len(positive) <= 1:
        return 0.0
    return float(scipy_entropy(np.array(positive, dtype=float), base=n))


def exact_en(counts: list[int], n: int) -> float:
    """EN with 60-digit decimals (a reference where floats lose digits)."""
    getcontext().prec = 60
    positive = [Decimal(c) for c in counts if c > 0]
    total = sum(positive)
    if n <= 1 or len(positive) <= 1:
        return 0.0
    h = -sum((c / total) * (c / total).ln() for c in positive)
    return float(h / Decimal(n).ln())


def check_against_batch(store: EntropyStore, pages: dict[str, dict[str, int]]) -> None:
    """Redis statistics equal the batch computation over ``pages`` (to 1e-9)."""
    n = len(pages)
    assert store.page_count() == n
    vocabulary = {t for counts in pages.values() for t in counts}
    stored = dict(store.scan())
    assert set(stored) == vocabulary
    entropies = store.entropies(vocabulary)
    for term in vocabulary:
        per_page = [counts.get(term, 0) for counts in pages.values()]
        assert stored[term].total == sum(per_page)
        assert stored[term].pages == sum(1 for c in per_page if c)
        assert math.isclose(entropies[term], batch_en(per_page, n), rel_tol=1e-9, abs_tol=1e-12)


@pytest.fixture
def crawl_keys(redis_client) -> Iterator[CrawlKeys]:
    keys = CrawlKeys(f"entropy-{uuid.uuid4().hex[:12]}")
    yield keys
    redis_client.delete(*keys.all())


@pytest.fixture
def second_client(redis_settings) -> Iterator[object]:
    client = connect(redis_settings)
    yield client
    client.close()


page_st = st.dictionaries(st.sampled_from(VOCAB), st.integers(min_value=1, max_value=60),
                          max_size=len(VOCAB))


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(page_st, min_size=1, max_size=20), st.randoms(use_true_random=False))
def test_two_interleaved_workers_equal_the_batch(redis_client, second_client, crawl_keys,
                                                 pages_list, rnd) -> None:
    redis_client.delete(*crawl_keys.all())
    workers = [EntropyStore(redis_client, crawl_keys), EntropyStore(second_client, crawl_keys)]
    pages = {f"http://h/p{i}": counts for i, counts in enumerate(pages_list)}
    # each page goes to one worker, some to both (a retry): any arrival order
    jobs = [(rnd.randrange(2), url) for url in pages]
    jobs += [(1 - w, url) for w, url in jobs if rnd.random() < 0.3]
    rnd.shuffle(jobs)
    counted = [workers[w].add_page(url, pages[url]) for w, url in jobs]
    assert sum(counted) == len(pages)
    check_against_batch(workers[0], pages)


def test_same_url_twice_counts_once(redis_client, crawl_keys) -> None:
    store = EntropyStore(redis_client, crawl_keys)
    assert store.add_page("http://h/a", {"alpha": 2, "beta": 1}) is True
    assert store.add_page("http://h/b", {"alpha": 1}) is True
    before = (store.page_count(), dict(store.scan()))
    assert store.add_page("http://h/a", {"alpha": 9, "gamma": 4}) is False
    assert (store.page_count(), dict(store.scan())) == before
    assert store.page_terms("http://h/a") == {"alpha": 2, "beta": 1}
    check_against_batch(store, {"http://h/a": {"alpha": 2, "beta": 1}, "http://h/b": {"alpha": 1}})


def test_page_terms_can_be_left_out(redis_client, crawl_keys) -> None:
    store = EntropyStore(redis_client, crawl_keys, keep_page_terms=False)
    assert store.add_page("http://h/a", {"alpha": 2})
    assert redis_client.exists(crawl_keys.page_terms) == 0
    assert store.page_terms("http://h/a") == {}


def test_read_api_and_pages_without_terms(redis_client, crawl_keys) -> None:
    store = EntropyStore(redis_client, crawl_keys)
    assert store.weights([]) == {} and store.page_count() == 0
    assert store.weights(["never"]) == {"never": 1.0}
    for i, counts in enumerate([{"a": 2, "b": 1}, {"a": 2, "b": 1}, {"a": 2, "b": 4}, {}]):
        store.add_page(f"http://h/{i}", counts)
    # the paper's Figure 5: Term_A uniform on 3 of 4 pages, Term_B skewed
    weights = store.weights(["a", "b", "a", "never"])
    assert store.page_count() == 4 and list(weights) == ["a", "b", "never"]
    assert round(weights["a"], 6) == 0.207519 and round(weights["b"], 6) == 0.374185
    assert weights["never"] == 1.0


def test_the_update_returns_the_page_weights_read_later(redis_client, crawl_keys) -> None:
    store = EntropyStore(redis_client, crawl_keys)
    pages = [{"a": 2, "b": 1}, {"a": 2, "b": 1}, {"a": 2, "b": 4, "c": 1}, {}]
    for i, counts in enumerate(pages):
        counted, weights = store.count_page(f"http://h/{i}", counts)
        assert counted and list(weights) == list(counts)
        for term, w in store.weights(counts).items():
            assert math.isclose(weights[term], w, rel_tol=1e-12, abs_tol=1e-12)
    counted, weights = store.count_page("http://h/0", {"a": 5, "b": 1})  # a retry: read only
    assert not counted and store.page_count() == 4
    assert round(weights["a"], 6) == 0.207519 and round(weights["b"], 6) == 0.374185
    assert store.count_page("http://h/empty", {}) == (True, {})


@settings(max_examples=50, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.integers(min_value=1, max_value=10**30), min_size=1, max_size=12),
       st.integers(min_value=0, max_value=10**6))
def test_joined_statistics_of_very_large_counts_stay_finite_and_exact(redis_client, crawl_keys,
                                                                      counts, extra) -> None:
    """The store's join (page by page) keeps EN exact where S ln S - Q would not."""
    redis_client.delete(*crawl_keys.all())
    store = EntropyStore(redis_client, crawl_keys, keep_page_terms=False)
    for i, tf in enumerate(counts):
        assert store.add_page(f"http://h/{i}", {"t": tf})
    n = len(counts) + extra  # pages without the term count in n too
    en = entropy(store.snapshot(["t"])[1]["t"], n)
    assert math.isfinite(en) and 0.0 <= en <= 1.0
    assert math.isclose(en, exact_en(counts, n), rel_tol=1e-9, abs_tol=1e-15)


def test_a_concentrated_term_keeps_relative_precision(redis_client, crawl_keys) -> None:
    # the naive ln S - Q/S form cancels to 0 here; the stored spread does not
    store = EntropyStore(redis_client, crawl_keys, keep_page_terms=False)
    store.add_page("http://h/a", {"t": 10**15})
    counted, weights = store.count_page("http://h/b", {"t": 1})
    en = store.entropies(["t"])["t"]
    assert counted and en > 0 and math.isclose(en, exact_en([10**15, 1], 2), rel_tol=1e-9)
    assert weights["t"] == 1.0 - en


def _calls(redis_client) -> dict[str, int]:
    return {name: info["calls"] for name, info in redis_client.info("commandstats").items()}


def test_update_touches_only_the_page_terms_in_one_round_trip(redis_client, crawl_keys) -> None:
    store = EntropyStore(redis_client, crawl_keys)
    store.add_page("http://h/big", {f"w{i}": 1 + i % 5 for i in range(5000)})
    store.add_page("http://h/warm", {"x": 1})  # the script is loaded now
    redis_client.config_resetstat()
    store.add_page("http://h/small", {"w1": 3, "w2": 1, "new": 2})
    calls = _calls(redis_client)
    # one EVALSHA; inside it one SISMEMBER, SADD and SCARD, one HSET for the page's
    # terms blob and one HMGET + HSET per bucket of the page's terms, whatever the
    # vocabulary
    buckets = len({entropy_bucket(t) for t in ("w1", "w2", "new")})
    assert calls.get("cmdstat_evalsha") == 1 and calls.get("cmdstat_sadd") == 1
    assert calls.get("cmdstat_sismember") == 1
    assert calls.get("cmdstat_hmget") == buckets and calls.get("cmdstat_hset") == buckets + 1
    assert set(calls) - {"cmdstat_config"} == {"cmdstat_evalsha", "cmdstat_sismember", "cmdstat_sadd",
                                               "cmdstat_scard", "cmdstat_hmget", "cmdstat_hset"}
    # terms longer than LONG_TERM bytes share one hash: one HMGET + HSET per SCRIPT_CHUNK
    long = {f"{'x' * LONG_TERM}{i}": 2 for i in range(2 * SCRIPT_CHUNK + 1)}
    redis_client.config_resetstat()
    assert store.add_page("http://h/long", long)
    calls = _calls(redis_client)
    assert calls.get("cmdstat_hmget") == 3 and calls.get("cmdstat_hset") == 3 + 1
    assert redis_client.hlen(crawl_keys.entropy_bucket(ENTROPY_BUCKETS)) == len(long)
    check_against_batch(store, {"big": {f"w{i}": 1 + i % 5 for i in range(5000)}, "warm": {"x": 1},
                                "small": {"w1": 3, "w2": 1, "new": 2}, "long": long})


def test_a_batch_is_one_script_call_touching_each_bucket_once(redis_client, crawl_keys) -> None:
    store = EntropyStore(redis_client, crawl_keys, keep_page_terms=False)
    store.add_page("http://h/warm", {"x": 1})
    pages = [(f"http://h/{i}", {f"t{i % 7}": 1 + i % 3, f"u{i}": 2, "all": i + 1}) for i in range(40)]
    redis_client.config_resetstat()
    assert store.count_pages(pages) == [True] * 40
    calls = _calls(redis_client)
    terms = {t for _, counts in pages for t in counts}
    buckets = len({entropy_bucket(t) for t in terms})
    assert calls.get("cmdstat_evalsha") == 1 and calls.get("cmdstat_sadd") == 40
    assert calls.get("cmdstat_hmget") == buckets == calls.get("cmdstat_hset")
    check_against_batch(store, {"http://h/warm": {"x": 1}, **dict(pages)})


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.integers(0, 11), page_st), min_size=1, max_size=30),
       st.lists(st.integers(1, 8), min_size=1, max_size=8))
def test_batches_with_repeated_pages_equal_the_batch(redis_client, second_client, crawl_keys,
                                                     jobs, sizes) -> None:
    """Pages sent in batches of any size by two workers, some URLs several times
    (within a batch, across batches, with other counts): each URL counts once, with
    the counts it was first sent with, and the statistics equal the offline ones."""
    redis_client.delete(*crawl_keys.all())
    workers = [EntropyStore(redis_client, crawl_keys), EntropyStore(second_client, crawl_keys)]
    first: dict[str, dict[str, int]] = {}
    counted = 0
    start, turn = 0, 0
    while start < len(jobs):
        size = sizes[turn % len(sizes)]
        batch = [(f"http://h/p{i}", counts) for i, counts in jobs[start:start + size]]
        flags = workers[turn % 2].count_pages(batch)
        for (url, counts), flag in zip(batch, flags):
            assert flag == (url not in first)
            if flag:
                first[url] = counts
        counted += sum(flags)
        start, turn = start + size, turn + 1
    assert counted == len(first)
    check_against_batch(workers[0], first)
    assert workers[1].page_terms(next(iter(first))) == first[next(iter(first))]


def test_vocabulary_in_compact_hashes(redis_client, crawl_keys) -> None:
    """The statistics take the smallest form, and the buckets stay compact Redis
    hashes (no timing: the encoding Redis reports)."""
    store = EntropyStore(redis_client, crawl_keys, keep_page_terms=False)
    store.count_pages([(f"http://h/{i}", {f"w{j}": 1 + (i + j) % 4 for j in range(i, i + 400)})
                       for i in range(30)])
    store.add_page("http://h/long", {"y" * (LONG_TERM + 1): 3, "é" * 40: 1, "once": 7})
    once = crawl_keys.entropy_bucket(entropy_bucket("once"))
    assert redis_client.hget(once, "once") == b"7"
    assert len(redis_client.hget(crawl_keys.entropy_bucket(entropy_bucket("w40")), "w40")) == 16
    assert redis_client.hlen(crawl_keys.entropy_bucket(ENTROPY_BUCKETS)) == 2
    encodings = {redis_client.object("encoding", key) for key in crawl_keys.entropy[:ENTROPY_BUCKETS]
                 if redis_client.exists(key)}
    assert encodings in ({b"ziplist"}, {b"listpack"})
    assert len(redis_client.smembers(crawl_keys.entropy_pages)) == 31
    assert redis_client.sismember(crawl_keys.entropy_pages, url_id("http://h/long"))
    assert store.vocabulary_size() == 429 + 3 == len(dict(store.scan()))


# -- the middleware -----------------------------------------------------------------


def make_middleware(redis_settings, crawl: str, **extra) -> tuple[EntropyMiddleware, object]:
    crawler = get_crawler(SkeletonSpider, {**redis_settings, **extra,  # as the spider publishes it
                                           SETTING: CrawlSettings(BASE, crawl, "bfs")})
    crawler.spider = SkeletonSpider(base=BASE, mode="bfs", crawl=crawl)
    crawler.spider._set_crawler(crawler)
    return EntropyMiddleware.from_crawler(crawler), crawler


def response(url: str, body: bytes, content_type: str | None = "text/html; charset=utf-8",
             status: int = 200, meta: dict | None = None) -> Response:
    headers = {"Content-Type": content_type} if content_type else {}
    return HtmlResponse(url, status=status, body=body, headers=headers,
                        request=Request(url, meta=meta or {}))


def test_middleware_counts_html_pages_once(redis_settings, redis_client, crawl_keys) -> None:
    mw, crawler = make_middleware(redis_settings, crawl_keys.crawl, SKELETON_KEEP_PAGE_TERMS=True)
    assert not hasattr(crawler.spider, "entropy")  # readers use skeleton.store.entropy
    page = b"<html><title>Cats</title><body><p>The cat sat. 2024</p><script>dog()</script></html>"
    mw.process_spider_input(response("http://h/a", page))
    mw.process_spider_input(response("http://h/a", page))  # a retry
    # a redirect is counted under the final URL, canonicalised, as the spider records it
    mw.process_spider_input(response("http://H/b#x", b"<p>cat food</p>",
                                     meta={"redirect_urls": ["http://h/first", "http://h/mid"]}))
    for skipped in (response("http://h/c.png", b"\x89PNG\r\n", "image/png"),
                    response("http://h/404", b"<p>missing</p>", status=404)):
        mw.process_spider_input(skipped)
    mw.process_spider_input(response("http://h/bin", b"\x00\x01\x02\x03"))
    # without WISDOM, pages wait for the scheduler's flush_requested (before it acks leases)
    assert redis_client.scard(crawl_keys.entropy_pages) == 0
    crawler.signals.send_catch_log(flush_requested)
    stats = crawler.stats.get_stats()
    assert stats["skeleton/entropy/pages"] == 2 and stats["skeleton/entropy/duplicates"] == 1
    assert stats["skeleton/entropy/unparsable"] == 1
    assert redis_client.smembers(crawl_keys.entropy_pages) == {url_id("http://h/a"), url_id("http://h/b")}
    assert mw.store.page_terms("http://h/a") == {"cats": 1, "cat": 1, "sat": 1}
    check_against_batch(mw.store, {"a": {"cats": 1, "cat": 1, "sat": 1},
                                   "b": {"cat": 1, "food": 1}})
    assert mw.weights(["cat", "food"]) == {"cat": 0.0, "food": 1.0}
    # what any other component reads, given the crawl's keys only
    assert term_weights(redis_client, crawl_keys, ["cat", "food", "unseen"]) == {
        "cat": 0.0, "food": 1.0, "unseen": 1.0}
    mw.spider_closed(crawler.spider, "finished")
    assert crawler.stats.get_value("skeleton/entropy/vocabulary") == 4


@pytest.mark.parametrize("body", [
    b"<html><body></body></html>", b"<html><body><img src=a.png><img src=b.png></body></html>",
    ("<p>" + "données énormes " * 100_000 + "</p>").encode(),
    "<p>東京の天気は晴れ Привет мир مرحبا بالعالم</p>".encode(),
    b"<p>\xff\xfe\x80 broken \xc3\x28 bytes</p>",
])
def test_bad_pages_never_raise(redis_settings, crawl_keys, body: bytes) -> None:
    mw, crawler = make_middleware(redis_settings, crawl_keys.crawl)
    mw.process_spider_input(response("http://h/page", body))
    mw.flush()
    assert crawler.stats.get_value("skeleton/entropy/pages") == 1
    for term, w in mw.weights(mw.store.page_terms("http://h/page")).items():
        assert w == 1.0 and term.strip()


def test_middleware_settings(redis_settings, crawl_keys) -> None:
    with pytest.raises(NotConfigured):
        make_middleware(redis_settings, crawl_keys.crawl, SKELETON_ENTROPY_ENABLED=False)
    with pytest.raises(ValueError, match="klingon"):
        make_middleware(redis_settings, crawl_keys.crawl, SKELETON_ENTROPY_LANGUAGE="klingon")
    mw, _ = make_middleware(redis_settings, crawl_keys.crawl, SKELETON_ENTROPY_LANGUAGE="fr",
                            SKELETON_KEEP_PAGE_TERMS=False)
    mw.process_spider_input(response("http://h/fr", "<p>le chat et la souris</p>".encode()))
    mw.flush()
    assert mw.entropies(["chat", "souris", "le"]) == {"chat": 0.0, "souris": 0.0, "le": 0.0}
    assert dict(mw.store.scan()).keys() == {"chat", "souris"}
    assert mw.store.page_terms("http://h/fr") == {}
    mw, _ = make_middleware(redis_settings, crawl_keys.crawl, SKELETON_ENTROPY_STOP_WORDS=["Chat"],
                            SKELETON_KEEP_PAGE_TERMS=True)
    mw.process_spider_input(response("http://h/custom", b"<p>the chat</p>"))
    mw.flush()
    assert mw.store.page_terms("http://h/custom") == {"the": 1}
    # by default a page's terms are kept only for WISDOM's second pass
    mw, _ = make_middleware(redis_settings, crawl_keys.crawl)
    mw.process_spider_input(response("http://h/default", b"<p>plain words</p>"))
    mw.flush()
    assert mw.store.page_terms("http://h/default") == {}
    mw, _ = make_middleware(redis_settings, crawl_keys.crawl, SKELETON_ANALYSES="wisdom")
    mw.process_spider_input(response("http://h/wisdom", b"<p>plain words</p>"))
    assert mw.store.page_terms("http://h/wisdom") == {"plain": 1, "words": 1}
    crawler = get_crawler(SkeletonSpider, redis_settings)
    with pytest.raises(NotConfigured):
        EntropyMiddleware.from_crawler(crawler)  # no skeleton spider


# -- a real crawl and the command ----------------------------------------------------


@pytest_twisted.inlineCallbacks
def test_crawl_fills_the_entropy_keys_and_scrapy_entropy_lists_them(
        serve, redis_settings, redis_client, tmp_path: Path) -> None:
    crawl = f"tiny-{uuid.uuid4().hex[:8]}"
    keys = CrawlKeys(crawl)
    base = serve(SITE)
    stats, items = yield crawl_in_process(project_settings({**redis_settings, "SKELETON_KEEP_PAGE_TERMS": True}),
                                          base=f"{base}index.html", mode="bfs", crawl=crawl)
    html = [i for i in items if i["reason"] != "non_html"]
    assert stats["finish_reason"] == "finished" and len(html) >= 10
    assert stats["skeleton/entropy/pages"] == len(html)
    assert redis_client.smembers(keys.entropy_pages) == {url_id(i["url"]) for i in html}
    # every key of the crawl is one of CrawlKeys.all(), which a finished crawl starting
    # afresh deletes (skeleton.store.meta.OPEN_SCRIPT)
    stored = {k.decode() for k in redis_client.scan_iter(match=f"skeleton:{crawl}:*")}
    assert any(k.startswith(f"skeleton:{crawl}:entropy:") for k in stored)
    assert stored - {keys.workers} <= set(keys.all())
    store = EntropyStore(redis_client, keys)
    pages = {i["url"]: store.page_terms(i["url"]) for i in html}
    assert all(pages.values())
    check_against_batch(store, pages)
    assert stats["skeleton/entropy/vocabulary"] == store.vocabulary_size()

    done = run_scrapy(["entropy", "--crawl", crawl, "--top", "3", "--format", "json",
                       "-s", f"SKELETON_DATA_DIR={redis_settings['SKELETON_DATA_DIR']}"], tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout)
    assert report["pages"] == len(html) and report["vocabulary"] == store.vocabulary_size()
    most, least = report["most_informative"], report["least_informative"]
    assert len(most) == len(least) == 3
    assert [r["weight"] for r in most] == sorted((r["weight"] for r in most), reverse=True)
    assert most[0]["weight"] >= least[-1]["weight"]
    # "tinysite" is in every page's title: among the least informative
    everywhere = {r["term"] for r in least}
    assert any(store.weights([t])[t] < 0.1 for t in everywhere)
    done = run_scrapy(["entropy", "--crawl", crawl, "--term", "Tinysite", "--term", "zzzz",
                       "-s", f"SKELETON_DATA_DIR={redis_settings['SKELETON_DATA_DIR']}"], tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert lines[0] == f"crawl {crawl}: {len(html)} pages counted"
    row = next(line.split() for line in lines if line.split()[0] == "tinysite")
    tiny = dict(store.scan())["tinysite"]
    assert int(row[3]) == tiny.pages and int(row[4]) == tiny.total
    assert float(row[1]) == pytest.approx(store.weights(["tinysite"])["tinysite"], abs=1e-4)
    assert next(line.split() for line in lines if line.split()[0] == "zzzz")[1:] == \
        ["1.0000", "0.0000", "0", "0"]


@pytest_twisted.inlineCallbacks
def test_crawl_without_entropy(serve, redis_settings, redis_client) -> None:
    crawl = f"noent-{uuid.uuid4().hex[:8]}"
    base = serve(handler=TrapHandler)
    settings = project_settings({**redis_settings, "SKELETON_ENTROPY_ENABLED": False})
    stats, items = yield crawl_in_process(settings, base=base, mode="bfs", depth="1", crawl=crawl)
    assert items and stats["finish_reason"] == "finished"
    assert not any(k.startswith("skeleton/entropy/") for k in stats)
    assert redis_client.exists(*CrawlKeys(crawl).entropy, CrawlKeys(crawl).entropy_pages) == 0


def test_an_unknown_stop_word_language_is_one_error_line(tmp_path: Path) -> None:
    done = run_scrapy(["crawl", "skeleton", "-a", "base=http://127.0.0.1:9/",
                       "-s", "SKELETON_ENTROPY_LANGUAGE=xx"], tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert "error: no stop-word list for language 'xx'" in done.stderr
