"""The template menu in the skeleton crawl (``-a template_menu=N``): the pure
helpers of ``skeleton.template.crawl`` and real crawls of the template fixture site.

The crawls use a pinned SEW model (``fixtures/templatemenu.model.json``, the
default model of commit 2a8ee67) so that they test the wiring, not the shipped
model, which is retrained from time to time.
"""
from __future__ import annotations

import json
import uuid
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import pytest
import pytest_twisted
from helpers import FIXTURES, crawl_in_process, project_settings, run_scrapy
from scrapy.exceptions import UsageError
from scrapy.http import HtmlResponse, Request
from scrapy.utils.test import get_crawler

from skeleton.store.keys import META_TEMPLATE_MENU, CrawlKeys
from skeleton.spiders.requests import META_CONTEXT, META_DEPTH
from skeleton.spiders.skeleton import SkeletonSpider
from skeleton.template.crawl import (decode_menu, encode_menu, search_template_menu,
                                     templates_with_menu)
from skeleton.template.menu import links_fetcher, menu_urls
from skeleton.template.subdigraph import find_complete_subdigraph

SITE = FIXTURES / "templatesite"
MODEL = str(FIXTURES / "templatemenu.model.json")
#: the links every templatesite page shares (canonical: directory indexes by their directory)
MENU = ["", "about/", "contact.html", "news/", "privacy.html", "products/"]
TREE = ["", ["about/", "contact.html", "news/", "products/"]]


def run(coro: Coroutine[Any, Any, Any]) -> Any:
    """Drive a coroutine whose awaits never suspend (the fetchers here), without
    an event loop (pytest-twisted's asyncio reactor owns this thread's loop)."""
    try:
        coro.send(None)
    except StopIteration as stop:
        return stop.value
    coro.close()
    raise AssertionError("the coroutine suspended")


def site_fetch(base: str):  # type: ignore[no-untyped-def]
    def fetch(url: str) -> bytes | None:
        path = SITE / url[len(base):]
        path = path / "index.html" if url.endswith("/") else path
        return path.read_bytes() if url.startswith(base) and path.is_file() else None
    return fetch


def test_search_template_menu_is_algorithm_2_one_awaited_page_at_a_time() -> None:
    base = "http://site.test/"
    fetch_links = links_fetcher(site_fetch(base))
    loads: list[str] = []

    async def fetch_async(url: str):  # type: ignore[no-untyped-def]
        loads.append(url)
        return fetch_links(url)

    result = run(search_template_menu(base + "index.html", fetch_async, 3))
    expected = find_complete_subdigraph(base + "index.html", fetch_links, 3)
    assert result.pages == expected.pages and result.loaded == expected.loaded == len(loads) == 4
    assert sorted(menu_urls(result)) == [base + u for u in MENU]
    budget = run(search_template_menu(base + "index.html", fetch_async, 3, max_loads=2))
    assert budget.loaded == 2 and menu_urls(budget) == set()  # one page: no subdigraph


def test_no_links_or_no_page_gives_no_menu() -> None:
    async def nothing(url: str) -> None:
        return None

    async def no_links(url: str) -> list[str]:
        return []

    for fetch in (nothing, no_links):
        result = run(search_template_menu("http://site.test/", fetch, 3))
        assert result.loaded == 1 and decode_menu(encode_menu(result)) == set()


def test_menu_json_round_trip_and_bad_values() -> None:
    base = "http://site.test/"
    result = find_complete_subdigraph(base + "index.html", links_fetcher(site_fetch(base)), 3)
    raw = encode_menu(result)
    assert json.loads(raw)["n"] == 3 and json.loads(raw)["loaded"] == 4
    assert decode_menu(raw) == decode_menu(raw.encode()) == menu_urls(result)
    for bad in (None, "", "{", "[1]", '{"urls": "x"}', '{"urls": [1]}', b"\xff"):
        assert decode_menu(bad) is None


def test_templates_with_menu_from_depth_2() -> None:
    template = [{"a"}]
    assert templates_with_menu(template, {"m"}, 0) == templates_with_menu(template, {"m"}, 1) \
        == [{"a"}]
    assert templates_with_menu(template, {"m"}, 2) == [{"a"}, {"m"}]
    assert templates_with_menu(template, set(), 5) == [{"a"}]


@pytest.mark.parametrize("args,message", [
    ({"template_menu": "0"}, "template_menu must be at least 1"),
    ({"template_menu": "three"}, "template_menu must be an integer"),
    ({"template_menu": "3", "mode": "bfs"}, "template_menu works with mode=sew only")])
def test_bad_template_menu_argument(args: dict, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        SkeletonSpider(base="http://x/", **args)
    assert SkeletonSpider(base="http://x/").args.template_menu is None  # off by default


# -- real crawls ---------------------------------------------------------------------


def tree_of(crawl: str, settings: dict[str, str], cwd: Path, base: str) -> list:
    done = run_scrapy(["tree", "--crawl", crawl, "-o", "tree.json",
                       "-s", f"SKELETON_DATA_DIR={settings['SKELETON_DATA_DIR']}"], cwd)
    assert done.returncode == 0, done.stderr[-3000:]
    node = json.loads((cwd / "tree.json").read_text("utf-8"))
    return [node["url"][len(base):], [c["url"][len(base):] for c in node["children"]]]


@pytest_twisted.inlineCallbacks
def test_crawl_stores_the_menu_in_meta_and_finds_the_tree(serve, redis_settings, redis_client,
                                                          tmp_path: Path) -> None:
    base = serve(SITE)
    crawl = f"tmenu-{uuid.uuid4().hex[:8]}"
    stats, items = yield crawl_in_process(project_settings(redis_settings), base=f"{base}index.html",
                                          crawl=crawl, model=MODEL, template_menu="3")
    assert stats["finish_reason"] == "finished"
    assert stats["skeleton/template_menu/loaded"] == 4
    assert stats["skeleton/template_menu/size"] == len(MENU)
    stored = json.loads(redis_client.hget(CrawlKeys(crawl).meta, META_TEMPLATE_MENU))
    assert stored["urls"] == [base + u for u in MENU] and stored["n"] == 3
    assert [u[len(base):] for u in stored["pages"]] == ["contact.html", "privacy.html", "news/"]
    # the pages loaded for the search are not skeleton pages: one item per crawled page
    assert sorted(i["url"][len(base):] for i in items) == sorted(["", *TREE[1]])
    assert tree_of(crawl, redis_settings, tmp_path, base) == TREE

    plain = f"plain-{uuid.uuid4().hex[:8]}"
    stats, _ = yield crawl_in_process(project_settings(redis_settings), base=f"{base}index.html",
                                      crawl=plain, model=MODEL)
    assert "skeleton/template_menu/loaded" not in stats
    assert redis_client.hget(CrawlKeys(plain).meta, META_TEMPLATE_MENU) is None
    assert tree_of(plain, redis_settings, tmp_path, base) == TREE


@pytest_twisted.inlineCallbacks
def test_a_later_worker_reads_the_menu_from_meta(serve, redis_settings, redis_client) -> None:
    base = serve(SITE)
    crawl = f"tmenu-{uuid.uuid4().hex[:8]}"
    seeded = json.dumps({"n": 3, "urls": [base + "news/index.html", base + "privacy.html"],
                         "pages": [], "loaded": 9})
    redis_client.hset(CrawlKeys(crawl).meta, META_TEMPLATE_MENU, seeded)
    stats, _ = yield crawl_in_process(project_settings(redis_settings), base=f"{base}index.html",
                                      crawl=crawl, model=MODEL, template_menu="3")
    assert stats["finish_reason"] == "finished"
    assert stats["skeleton/template_menu/loaded"] == 0  # nothing loaded: read back
    assert stats["skeleton/template_menu/size"] == 2
    assert redis_client.hget(CrawlKeys(crawl).meta, META_TEMPLATE_MENU).decode() == seeded


@pytest_twisted.inlineCallbacks
def test_a_base_page_without_links_gives_no_menu(serve, redis_settings, redis_client,
                                                 tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<html><body><p>Nothing to see.</p></body></html>")
    base = serve(tmp_path)
    crawl = f"tmenu-{uuid.uuid4().hex[:8]}"
    stats, items = yield crawl_in_process(project_settings(redis_settings), base=f"{base}index.html",
                                          crawl=crawl, model=MODEL, template_menu="3")
    assert stats["finish_reason"] == "finished" and len(items) == 1
    assert stats["skeleton/template_menu/loaded"] == 1 and stats["skeleton/template_menu/size"] == 0
    stored = json.loads(redis_client.hget(CrawlKeys(crawl).meta, META_TEMPLATE_MENU))
    assert stored["urls"] == [] and stored["loaded"] == 1


def test_the_detector_gets_the_menu_from_depth_2(redis_settings) -> None:
    crawler = get_crawler(SkeletonSpider, redis_settings)
    spider = SkeletonSpider(base="http://site.test/", model=MODEL, template_menu="3")
    spider.crawler, spider.settings = crawler, crawler.settings
    real, seen = spider.detector, []

    def recording(root, url, base, known, template):  # type: ignore[no-untyped-def]
        seen.append(template)
        return real(root, url, base, known, template)

    spider.detector = recording
    spider.menu = frozenset({"http://site.test/a.html", "http://site.test/b.html"})
    body = (SITE / "news" / "n1.html").read_bytes()
    context = spider.contexts.put([], [["http://site.test/x"]])
    for depth in (1, 2):
        url = f"http://site.test/d{depth}.html"
        request = Request(url, meta={META_DEPTH: depth, META_CONTEXT: context})
        list(spider.parse(HtmlResponse(url, body=body, request=request)))
    assert seen == [[{"http://site.test/x"}], [{"http://site.test/x"}, set(spider.menu)]]
