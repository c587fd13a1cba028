"""One page, one node: the URL-variants middleware against a real Redis, and the
``news_portal`` fixture crawled end to end by one worker and by two workers sharing
a separately started redis-server (tracking and share parameters, a parameter
that changes content, 301s, canonical copies, pagination, views, a language copy,
cart/login/wishlist/compare/report forms)."""
from __future__ import annotations

import json
from csv import DictReader
from io import StringIO
from pathlib import Path

import pytest
import redis
from helpers import FAST, ROOT, SlowHandler, redis_ready, run_scrapy, start_redis_server, start_scrapy, wait_for
from scrapy import Request
from scrapy.http import HtmlResponse
from scrapy.settings import Settings
from scrapy.utils.test import get_crawler

from skeleton.store import outage
from skeleton.commands.tree import load_crawl_tree
from skeleton.items import PageItem
from skeleton.middlewares.variants import UrlVariantsMiddleware
from skeleton.store.keys import CrawlKeys, url_id
from skeleton.store.scheduler import flush_requested

B = "http://127.0.0.1:9/"
SITE = ROOT / "tests" / "sites" / "news_portal"
TRUTH = ROOT / "tests" / "sites" / "news_portal.truth.json"
PORTAL = [*FAST, "-s", "SKELETON_LEASE_TIMEOUT=5", "-s", "LOG_LEVEL=INFO"]


def _middleware(client, crawl: str, **kwargs) -> tuple[UrlVariantsMiddleware, CrawlKeys]:
    crawler = get_crawler()
    crawler.stats.open_spider()
    keys = CrawlKeys(crawl)
    client.delete(*keys.all())
    return UrlVariantsMiddleware(crawler, client, keys, refresh=0.0, **kwargs), keys


def _stat(middleware: UrlVariantsMiddleware, name: str) -> int:
    return middleware.crawler.stats.get_value(f"skeleton/variants/{name}", 0)


def _page(url: str, text: str, extra: str = "") -> HtmlResponse:
    body = (f"<html><body><nav><a href='/'>Home</a>{extra}</nav><article><h1>Title</h1>"
            f"<p>{text}</p></article></body></html>")
    return HtmlResponse(url, body=body.encode(), encoding="utf-8", request=Request(url))


async def _output(middleware: UrlVariantsMiddleware, entries: list) -> list:
    async def result():
        for entry in entries:
            yield entry
    return [entry async for entry in middleware.process_spider_output(_page(B, "x" * 50), result())]


def _run(coro):
    """Run a coroutine that awaits nothing external (no event loop needed)."""
    try:
        coro.send(None)
    except StopIteration as stop:
        return stop.value
    raise AssertionError("the coroutine waited on something")


def test_tracking_parameters_are_stripped_before_the_request_and_recorded_as_aliases(redis_client) -> None:
    middleware, keys = _middleware(redis_client, "variants-tracking")
    out = _run(_output(middleware, [Request(B + "a/?utm_source=x&id=3"), Request(B + "b/")]))
    assert [r.url for r in out] == [B + "a/?id=3", B + "b/"]
    middleware.crawler.signals.send_catch_log(flush_requested)  # the scheduler, before acks
    assert redis_client.hget(keys.aliases, B + "a/?utm_source=x&id=3") == (B + "a/?id=3").encode()
    assert _stat(middleware, "tracking_stripped") == 1
    off, _ = _middleware(redis_client, "variants-tracking-off", strip=False)
    assert [r.url for r in _run(_output(off, [Request(B + "a/?utm_source=x")]))] == [B + "a/?utm_source=x"]


def test_a_parameter_is_learned_irrelevant_after_two_same_pages_and_then_stripped(redis_client) -> None:
    middleware, keys = _middleware(redis_client, "variants-learn")
    for n in (1, 2):
        middleware.process_spider_input(_page(B + f"p{n}/", f"The text of post {n}, long enough to count."))
        # the variant's navigation differs, its main text does not
        middleware.process_spider_input(_page(B + f"p{n}/?hl=x", f"The text of post {n}, long enough to count.",
                                              extra="<a href='?hl=x'>Highlight</a>"))
    middleware.flush()
    assert redis_client.hget(keys.votes, "q:hl:same") == b"2"
    assert redis_client.hget(keys.aliases, B + "p1/?hl=x") == (B + "p1/").encode()
    out = _run(_output(middleware, [Request(B + "p3/?hl=y")]))
    assert [r.url for r in out] == [B + "p3/"] and _stat(middleware, "learned_stripped") == 1


def test_a_parameter_that_changes_one_page_is_kept(redis_client) -> None:
    middleware, keys = _middleware(redis_client, "variants-keep")
    middleware.process_spider_input(_page(B + "e.html?id=1", "Event one: a concert in the park at noon."))
    middleware.process_spider_input(_page(B + "e.html?id=2", "Event two: a reading at the library tonight."))
    middleware.process_spider_input(_page(B + "e.html", "Event one: a concert in the park at noon."))
    middleware.process_spider_input(_page(B + "f.html", "All events of the week, in one long listing."))
    middleware.process_spider_input(_page(B + "f.html?id=9", "All events of the week, in one long listing."))
    middleware.flush()
    # e.html?id=1 waited for e.html: same; e.html?id=2 differs: one diff vote keeps id for good
    assert redis_client.hget(keys.votes, "q:id:diff") == b"1"
    out = _run(_output(middleware, [Request(B + "e.html?id=5")]))
    assert [r.url for r in out] == [B + "e.html?id=5"]


def test_a_variant_fetched_before_its_simpler_url_waits_for_it(redis_client) -> None:
    middleware, keys = _middleware(redis_client, "variants-wait")
    text = "A post about the harbour festival, with enough words."
    middleware.process_spider_input(_page(B + "post/amp/", text))
    middleware.flush()
    assert redis_client.hexists(keys.variants, B + "post/")
    middleware.process_spider_input(_page(B + "post/", text))
    middleware.flush()
    assert redis_client.hget(keys.aliases, B + "post/amp/") == (B + "post/").encode()
    assert redis_client.hget(keys.votes, "s:amp:same") == b"1"
    assert not redis_client.hexists(keys.variants, B + "post/")
    assert _stat(middleware, "duplicates") == 1


def test_pages_of_one_batch_are_compared_with_each_other_when_the_scheduler_flushes(redis_client) -> None:
    middleware, keys = _middleware(redis_client, "variants-batch")
    text = "A post about the harbour festival, with enough words."
    middleware.process_spider_input(_page(B + "post/amp/", text))
    middleware.process_spider_input(_page(B + "post/", text))
    assert not redis_client.exists(keys.fingerprints)  # not written before the batch ends
    middleware.crawler.signals.send_catch_log(flush_requested)
    assert redis_client.hget(keys.aliases, B + "post/amp/") == (B + "post/").encode()
    assert redis_client.hget(keys.votes, "s:amp:same") == b"1"
    assert not redis_client.exists(keys.variants)  # nothing had to wait
    # each page's 8-byte fingerprint under the 8-byte url_id of its URL
    stored = redis_client.hgetall(keys.fingerprints)
    assert set(stored) == {url_id(B + "post/amp/"), url_id(B + "post/")}
    assert {len(fp) for fp in stored.values()} == {8} and len(set(stored.values())) == 1


def test_a_path_that_answered_with_a_form_is_not_requested_again(redis_client) -> None:
    middleware, keys = _middleware(redis_client, "variants-forms")
    item = PageItem(url=B + "cart/add/", reason="form")
    out = _run(_output(middleware, [item, Request(B + "cart/add/?item=3"), Request(B + "cart/")]))
    assert out[0] is item and [r.url for r in out[1:]] == [B + "cart/"]
    assert redis_client.sismember(keys.forms, B + "cart/add/") and _stat(middleware, "form_skipped") == 1


def test_a_lost_redis_lets_requests_through_and_is_counted() -> None:
    crawler = get_crawler()
    crawler.stats.open_spider()
    gone = redis.Redis(host="127.0.0.1", port=1, socket_timeout=0.2, socket_connect_timeout=0.2)
    middleware = UrlVariantsMiddleware(crawler, gone, CrawlKeys("variants-gone"), refresh=0.0)
    middleware.process_spider_input(_page(B + "a/?x=1", "Some page text that is long enough here."))
    out = _run(_output(middleware, [Request(B + "a/?utm_medium=m")]))
    assert [r.url for r in out] == [B + "a/"]
    # the first failure (retries spent) declares the outage; later calls skip Redis
    assert _stat(middleware, "errors") == 1
    assert outage.is_down(crawler)


# -- the news_portal fixture, crawled ------------------------------------------------

def _truth() -> tuple[str, set[tuple[str, str]]]:
    truth = json.loads(TRUTH.read_text("utf-8"))
    return truth["root"], {tuple(edge) for edge in truth["edges"]}


def _edges(tree: dict, base: str) -> set[tuple[str, str]]:
    """(parent, child) of a nested tree, URLs moved to port 8000 as in the truth."""
    out: set[tuple[str, str]] = set()

    def walk(node: dict) -> None:
        for child in node.get("children", []):
            out.add((node["url"], child["url"]))
            walk(child)

    walk(tree)
    fix = "http://127.0.0.1:8000/"
    return {(p.replace(base, fix), c.replace(base, fix)) for p, c in out}


def _normal(url: str) -> str:
    return url + "index.html" if url.endswith("/") else url


def _check_portal_tree(edges: set[tuple[str, str]]) -> None:
    root, true_edges = _truth()
    found = {(_normal(p), _normal(c)) for p, c in edges}
    nodes = {c for _, c in found}
    true_nodes = {c for _, c in true_edges}
    urls = " ".join(sorted(nodes))
    for marker in ("utm_", "share=", "relatedposts", "ref=", "pf_rd_", "/amp/", "/page/2/", "/tag/",
                   "/author/", "/de/", "/cart/", "/wishlist/", "/compare/", "/report/", "/account/",
                   "?p=", "when="):
        assert marker not in urls, marker
    events = {c for c in nodes if "event.html?id=" in c}
    assert len(events) == 6  # the parameter that changes the page is kept
    football = "http://127.0.0.1:8000/sport/football/index.html"
    assert ("http://127.0.0.1:8000/sport/index.html", football) in found  # linked as /sport/football
    paged = [(p, c) for p, c in true_edges if p.endswith("/news/world/index.html")]
    assert paged and all(edge in found for edge in paged)  # page-2 items hang from the section
    # About and Contact, linked from the footer only, are no nodes by the truth rule;
    # where they hang is the hierarchy's business (the score leaves them out)
    footer = {"http://127.0.0.1:8000/about/index.html", "http://127.0.0.1:8000/contact/index.html"}
    assert nodes - footer == true_nodes


def test_the_portal_is_one_node_per_page(serve, tmp_path: Path) -> None:
    base = serve(SITE)
    done = run_scrapy(["crawl", "skeleton", "-a", f"base={base}", "-a", "crawl=portal", *PORTAL], tmp_path)
    assert done.returncode == 0 and "'finish_reason': 'finished'" in done.stderr, done.stderr[-3000:]
    for stat in ("skeleton/skipped/action/", "skeleton/skipped/language", "skeleton/variants/tracking_stripped",
                 "skeleton/canonical_links", "skeleton/aliases/recorded"):
        assert stat in done.stderr, stat
    tree = run_scrapy(["tree", "--crawl", "portal"], tmp_path)
    assert tree.returncode == 0, tree.stderr[-3000:]
    edges = _edges(json.loads(tree.stdout), base)
    _check_portal_tree(edges)
    csv = run_scrapy(["tree", "--crawl", "portal", "--format", "csv"], tmp_path)
    assert csv.returncode == 0, csv.stderr[-3000:]
    fix = "http://127.0.0.1:8000/"
    rows = {(row["parent"].replace(base, fix), row["url"].replace(base, fix))
            for row in DictReader(StringIO(csv.stdout)) if row["parent"]}
    assert rows == edges  # the CSV gives every page the JSON tree's parent, aliases resolved


class _Slow(SlowHandler):
    delay = 0.05

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, directory=str(SITE), **kwargs)  # type: ignore[arg-type]


@pytest.fixture
def shared_redis(tmp_path: Path):
    directory = tmp_path / "redis"
    directory.mkdir()
    proc = start_redis_server(directory)
    url = f"unix://{directory}/redis.sock"
    wait_for(lambda: redis_ready(url), timeout=30)
    yield url
    proc.terminate()
    proc.wait(timeout=30)


def test_two_workers_share_what_they_learn_and_give_the_same_tree(serve, tmp_path: Path,
                                                                 shared_redis: str) -> None:
    base = serve(handler=_Slow)
    args = ["crawl", "skeleton", "-a", f"base={base}", "-a", "crawl=portal2", *PORTAL]
    workers = [start_scrapy(args, tmp_path, tmp_path / f"w{i}.log", REDIS_URL=shared_redis) for i in range(2)]
    for worker in workers:
        worker.wait(timeout=300)
    logs = [(tmp_path / f"w{i}.log").read_text("utf-8") for i in range(2)]
    for worker, log in zip(workers, logs):
        assert worker.returncode == 0 and "Traceback" not in log, log[-3000:]
    assert all("'skeleton/pages'" in log for log in logs)  # both worked
    settings = Settings({"REDIS_URL": shared_redis})
    tree = load_crawl_tree(settings, "portal2")[1]
    _check_portal_tree(_edges(tree, base))
    client = redis.Redis.from_url(shared_redis, socket_timeout=10)
    try:
        keys = CrawlKeys("portal2")
        assert client.hget(keys.meta, "finish_reason") == b"finished"
        assert client.hlen(keys.fingerprints) > 50 and client.hlen(keys.votes) >= 1
        # action links are skipped before they are fetched: no form page was needed
        assert client.scard(keys.forms) == 0 and any("skeleton/skipped/action/" in log for log in logs)
    finally:
        client.close()


def test_a_clean_url_and_its_file_are_one_node(serve, tmp_path: Path) -> None:
    """A server that answers ``/b`` with the file ``b.html`` (GitHub Pages, Netlify, the
    test server) gives one page under two URLs: a page whose menu links the clean URLs
    makes no second node."""
    site = tmp_path / "site"
    site.mkdir()
    text = " ".join(f"Sentence {i} of this chapter, about harbour cranes and tides." for i in range(6))
    for name in ("index", "a", "b", "c"):
        suffix = "" if name == "b" else ".html"  # b's menu links the clean URLs
        menu = "".join(f"<li><a href='{n}{suffix}'>Chapter {n}</a></li>" for n in "abc")
        (site / f"{name}.html").write_text(f"<html><body><nav><ul>{menu}</ul></nav><main><h1>{name}</h1>"
                                           f"<p>{text} ({name})</p></main></body></html>")
    base = serve(site)
    done = run_scrapy(["crawl", "skeleton", "-a", f"base={base}", "-a", "crawl=clean", *FAST], tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    tree = run_scrapy(["tree", "--crawl", "clean", "--format", "csv"], tmp_path)
    assert tree.returncode == 0, tree.stderr[-3000:]
    urls = {row["url"] for row in DictReader(StringIO(tree.stdout))}
    assert urls == {base, base + "a.html", base + "b.html", base + "c.html"}
