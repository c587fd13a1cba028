"""The spider's arguments and its callback on bad and awkward inputs."""
from __future__ import annotations

import re

import pytest
import pytest_twisted
from scrapy.exceptions import UsageError
from scrapy.http import HtmlResponse, Request, Response, TextResponse
from scrapy.utils.test import get_crawler

from skeleton.items import PageItem
from skeleton.store.keys import crawl_id_for
from skeleton.analysis.page import scope_filter
from skeleton.sew.detect import NavLink
from skeleton.sew.edges import followed_links
from skeleton.sew.detect import KNOWN_ANCESTORS
from skeleton.spiders.skeleton import SkeletonSpider

BASE = "http://127.0.0.1:9/site/"


#: settings of the session's embedded Redis (detection contexts are stored there)
_SETTINGS: dict[str, str] = {}


@pytest.fixture(autouse=True)
def _embedded_redis(redis_settings: dict[str, str]) -> None:
    _SETTINGS.update(redis_settings)


def make_spider(**args) -> SkeletonSpider:
    args.setdefault("base", BASE)
    args.setdefault("mode", "bfs")
    spider = SkeletonSpider(**args)
    spider._set_crawler(get_crawler(SkeletonSpider, dict(_SETTINGS)))
    return spider


def respond(spider, url: str, body: bytes, content_type: str | None = "text/html; charset=utf-8",
            meta: dict | None = None, cls=Response):
    request = Request(url, meta=meta or {})
    headers = {"Content-Type": content_type} if content_type else {}
    response = cls(url, body=body, headers=headers, request=request)
    out = list(spider.parse(response))
    items = [o for o in out if isinstance(o, PageItem)]
    return items, [o for o in out if isinstance(o, Request)]


def stat(spider, key: str):
    return spider.crawler.stats.get_value(key)


@pytest.mark.parametrize("args, message", [
    ({}, "needs a start URL"),
    ({"base": ""}, "needs a start URL"),
    ({"base": "ftp://127.0.0.1/"}, "absolute http(s) URL"),
    ({"base": "not a url"}, "absolute http(s) URL"),
    ({"base": "http://"}, "absolute http(s) URL"),
    ({"base": "http://user:pw@127.0.0.1/"}, "base must not contain a user name or password, "
                                             "got 'http://user:***@127.0.0.1/'"),
    ({"base": "http://token@127.0.0.1/"}, "user name or password, got 'http://***@127.0.0.1/'"),
    ({"base": "ftp://user:pw@127.0.0.1/"}, "absolute http(s) URL, got 'ftp://user:***@127.0.0.1/'"),
    ({"base": "http://user:pw@[::1/"}, "not a valid URL: 'http://user:***@[::1/'"),
    ({"base": BASE, "depth": "two"}, "depth must be an integer"),
    ({"base": BASE, "depth": "-1"}, "depth must be at least 0"),
    ({"base": BASE, "max_pages": "0"}, "max_pages must be at least 1"),
    ({"base": BASE, "mode": "dfs"}, "mode must be one of"),
    ({"base": BASE, "crawl": "a b"}, "invalid crawl id"),
    ({"base": BASE, "crawl": "x%(spider)s"}, "invalid crawl id"),
    ({"base": BASE, "model": "/nonexistent/model.json"}, "cannot load SEW model"),
    ({"base": BASE, "depht": "1"}, "unknown argument 'depht' for the skeleton spider: did you mean 'depth'?"),
    ({"base": BASE, "zzz": "1"}, "unknown argument 'zzz' for the skeleton spider: its arguments are"),
])
def test_argument_errors(args, message) -> None:
    with pytest.raises(UsageError, match=re.escape(message)):
        SkeletonSpider(**args)


def test_scrapyd_job_argument_is_accepted() -> None:
    assert SkeletonSpider(base=BASE, _job="abc123").base == BASE


def test_arguments_and_defaults() -> None:
    spider = SkeletonSpider(base=" http://127.0.0.1:8000/en/index.html#top ", depth="2",
                            max_pages="10")
    assert spider.base == "http://127.0.0.1:8000/en/"  # a directory index is named by its directory
    assert (spider.max_depth, spider.max_pages, spider.mode) == (2, 10, "sew")
    # the default crawl id: a readable prefix and a hash of the canonical base URL
    assert spider.crawl_id == crawl_id_for("http://127.0.0.1:8000/en/", "sew")
    assert spider.crawl_id.startswith("127.0.0.1-8000-en-") and spider.model is not None
    bfs = SkeletonSpider(base="http://127.0.0.1:8000/en/", mode="bfs", crawl="mine")
    assert bfs.crawl_id == "mine" and bfs.model is None and bfs.max_depth is None


@pytest.mark.parametrize("body, content_type, reason", [
    (b"%PDF-1.4\n%\xe2\xe3\n1 0 obj", "application/pdf", "non_html"),
    (b"\x89PNG\r\n\x1a\n\x00\x00", "image/png", "non_html"),
    (b"", "text/html", "empty"),
    (b"  \n\t ", "text/html", "empty"),
    (b"\x00\x01\x02\x03binary\x00\x00" * 50, "text/html", "binary"),
    (b"\x7fELF\x02\x01\x01\x00\x00\x00", None, "binary"),
])
def test_leaves_without_analysis(body, content_type, reason) -> None:
    spider = make_spider()
    items, requests = respond(spider, BASE, body, content_type)
    assert requests == [] and len(items) == 1
    item = items[0]
    assert item["reason"] == reason and item["nav_links"] == [] and not item["is_navigation"]
    assert item["url"] == BASE and item["found_depth"] == 0 and item["found_from"] is None
    assert stat(spider, f"skeleton/leaf_reason/{reason}") == 1
    assert stat(spider, "skeleton/pages") == 1


def test_undecodable_bytes_are_analysed() -> None:
    spider = make_spider(mode="bfs")
    body = (b"<html><head><title>Caf\xe9 \xff\xfe</title></head><body>"
            b"<a href='a.html'>\xc3\x28 bad utf-8</a></body></html>")
    items, requests = respond(spider, BASE, body, "text/html; charset=utf-8")
    assert items[0]["reason"] is None and items[0]["title"].startswith("Caf")
    assert [r.url for r in requests] == ["http://127.0.0.1:9/site/a.html"]


NUL_PAGE = ('<!DOCTYPE html><html><head><meta charset="utf-8"><title>Nul\x00page</title></head>'
            '<body><p>a\x00b</p><a href="a.html">A</a><a hr\x00ef="b.html">B</a></body></html>')


@pytest.mark.parametrize("body, content_type", [
    (NUL_PAGE.encode("utf-8"), "text/html; charset=utf-8"),
    (b"\xff\xfe" + NUL_PAGE.encode("utf-16-le"), "text/html"),
    (NUL_PAGE.encode("utf-16-le"), "text/html; charset=utf-16le"),
    (NUL_PAGE.encode("utf-16-be"), "text/html"),
])
def test_nul_bytes_and_utf16_pages_are_analysed(body, content_type) -> None:
    spider = make_spider(mode="bfs")
    items, requests = respond(spider, BASE, body, content_type)
    assert items[0]["reason"] is None and items[0]["title"] == "Nulpage"
    assert [r.url for r in requests] == ["http://127.0.0.1:9/site/a.html",
                                         "http://127.0.0.1:9/site/b.html"]


def test_broken_markup_is_analysed() -> None:
    spider = make_spider(mode="bfs")
    body = b"<html><title>x</title><body><ul><li><a href=a.html>A<li><a href='b.html'>B</ul></div></span><p"
    items, requests = respond(spider, BASE, body, None)
    assert items[0]["reason"] is None
    assert [r.url for r in requests] == ["http://127.0.0.1:9/site/a.html",
                                         "http://127.0.0.1:9/site/b.html"]


def test_thousands_of_links() -> None:
    links = "".join(f'<li><a href="p{i}.html">Page {i}</a></li>' for i in range(6000))
    body = f"<html><body><ul>{links}</ul></body></html>".encode()
    for mode in ("sew", "bfs"):
        spider = make_spider(mode=mode)
        items, requests = respond(spider, BASE, body)
        assert len(items) == 1 and items[0]["reason"] is None
        assert len(requests) == len(items[0]["nav_links"]) <= 6000


def test_only_in_scope_http_links_are_followed() -> None:
    spider = make_spider(mode="bfs")
    body = b"""<html><body>
      <a href="a.html">in scope</a> <a href="sub/b.html#frag">in scope, fragment dropped</a>
      <a href="#top">fragment</a> <a href="">empty</a> <a href="index.html">itself</a>
      <a href="mailto:x@example.org">mail</a> <a href="javascript:void(0)">js</a>
      <a href="tel:+1">tel</a> <a href="ftp://127.0.0.1:9/site/f">ftp</a>
      <a href="http://example.org/site/x.html">off-site</a>
      <a href="//example.org/y">off-site, scheme-relative</a>
      <a href="http://127.0.0.1:8/site/z.html">other port</a>
      <a href="/other/c.html">same host, out of scope</a>
      <a href="a/a/a/deep.html">trap</a> <a href="a.html?x=""" + b"y" * 600 + b"""">long</a>
    </body></html>"""
    items, requests = respond(spider, BASE, body)
    assert [r.url for r in requests] == ["http://127.0.0.1:9/site/a.html",
                                         "http://127.0.0.1:9/site/sub/b.html"]
    assert [link["url"] for link in items[0]["nav_links"]] == [r.url for r in requests]
    assert stat(spider, "skeleton/filtered/offsite") == 3
    assert stat(spider, "skeleton/filtered/out_of_scope") == 1
    assert stat(spider, "skeleton/trap/repeated_segment") == 1
    assert stat(spider, "skeleton/trap/url_length") == 1
    assert stat(spider, "skeleton/filtered/not_http") >= 5


def test_followable_nested_links_and_filters() -> None:
    page = "http://127.0.0.1:9/site/toc.html"
    s = "http://127.0.0.1:9/site/"
    raw = [NavLink(s + "1.html", "One", page), NavLink(s + "1/a.html", "One A", s + "1.html"),
           NavLink("http://example.org/x", "Off", page),
           NavLink(s + "x/b.html", "Under off-site", "http://example.org/x"),
           NavLink(s + "x/b/c.html", "Deeper", s + "x/b.html"),
           NavLink(page, "Itself", page), NavLink(s + "1.html", "Again", page)]
    assert followed_links(raw, page, scope_filter(BASE), (page,))[0] == [
        (s + "1.html", "One", page, 1), (s + "1/a.html", "One A", s + "1.html", 2),
        (s + "x/b.html", "Under off-site", page, 1), (s + "x/b/c.html", "Deeper", s + "x/b.html", 2)]


def test_requests_below_the_root_carry_the_context_they_were_given() -> None:
    """Below the root, a page passes on the root's LinkSetDup context unchanged, so
    a page's detection never depends on which parent found it first."""
    spider = make_spider(mode="sew")
    known = [[f"http://127.0.0.1:9/site/k{i}.html"] for i in range(KNOWN_ANCESTORS)]
    context = spider.contexts.put(known, [["http://127.0.0.1:9/site/t.html"]])
    meta = {"skeleton_depth": 3, "skeleton_parent": BASE, "skeleton_context": context}
    url = "http://127.0.0.1:9/site/s/page.html"
    menu = "".join(f"<li><a href='m{i}.html'>Menu {i}</a></li>" for i in range(6))
    body = f"<html><body><ul>{menu}</ul></body></html>".encode()
    items, requests = respond(spider, url, body, meta=meta)
    assert items[0]["found_depth"] == 3 and items[0]["found_from"] == BASE
    for request in requests:
        assert request.meta["skeleton_depth"] == 4 and request.meta["skeleton_parent"] == url
        assert request.meta["skeleton_context"] == context
    assert len(requests) == 6 and items[0]["is_navigation"] is True
    assert items[0]["offers"][requests[0].url]["size"] == 6


def test_the_context_cache_is_bounded_and_forgotten_contexts_are_read_again(monkeypatch) -> None:
    monkeypatch.setattr("skeleton.store.contexts.MAX_CACHED_CONTEXTS", 3)
    spider = make_spider(mode="sew")
    ids = [spider.contexts.put([[f"http://127.0.0.1:9/site/c{i}.html"]], []) for i in range(5)]
    assert len(spider.contexts.cache) == 3 and "" in spider.contexts.cache  # the empty one stays
    assert ids[0] not in spider.contexts.cache
    assert spider.contexts.get(ids[0])[0] == [{"http://127.0.0.1:9/site/c0.html"}]  # from Redis


def test_the_root_passes_its_navigation_sets_to_its_children() -> None:
    spider = make_spider(mode="sew")
    menu = "".join(f"<li><a href='m{i}.html'>Menu {i}</a></li>" for i in range(6))
    body = f"<html><body><ul>{menu}</ul></body></html>".encode()
    items, requests = respond(spider, BASE, body, meta={"skeleton_depth": 0, "skeleton_parent": None,
                                                        "skeleton_context": ""})
    contexts = {r.meta["skeleton_context"] for r in requests}
    assert requests and len(contexts) == 1 and len(next(iter(contexts))) == 20  # an id, not URLs
    # another worker (an empty cache) reads the context from Redis
    other = make_spider(mode="sew")
    assert other.contexts.get(next(iter(contexts)))[0] == [{r.url for r in requests}]


def test_depth_limit() -> None:
    spider = make_spider(mode="bfs", depth="1")
    body = b"<a href='x.html'>X</a><a href='y.html'>Y</a>"
    _, requests = respond(spider, BASE, body)
    assert len(requests) == 2 and {r.meta["skeleton_depth"] for r in requests} == {1}
    items, requests = respond(spider, "http://127.0.0.1:9/site/z.html", body,
                              meta={"skeleton_depth": 1})
    assert requests == [] and len(items[0]["nav_links"]) == 2
    assert stat(spider, "skeleton/depth_limited") == 2


def test_a_redirected_page_is_recorded_under_its_final_url() -> None:
    spider = make_spider(mode="bfs")
    first, final = "http://127.0.0.1:9/site/old", "http://127.0.0.1:9/site/new/"
    meta = {"redirect_urls": [first, "http://127.0.0.1:9/site/mid"], "skeleton_depth": 1}
    items, requests = respond(spider, final, b"<a href='p.html'>P</a>"
                              b"<a href='http://127.0.0.1:9/site/old'>self</a>"
                              b"<a href='http://127.0.0.1:9/site/mid'>self too</a>", meta=meta)
    assert items[0]["url"] == final
    assert [r.url for r in requests] == ["http://127.0.0.1:9/site/new/p.html"]  # aliases are the page
    assert requests[0].meta["skeleton_parent"] == final


def test_errors_in_analysis_give_a_leaf(monkeypatch) -> None:
    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    spider = make_spider(mode="sew")
    monkeypatch.setattr(spider, "detector", broken)  # the page detector (-a detector=...)
    items, requests = respond(spider, BASE, b"<html><title>T</title><a href='a'>A</a></html>")
    assert requests == [] and items[0]["reason"] == "error"
    assert stat(spider, "skeleton/errors") == 1


def test_max_pages_budget() -> None:
    spider = make_spider(mode="bfs", max_pages="2")
    body = b"<a href='next.html'>Next</a>"
    _, requests = respond(spider, BASE, body)
    assert len(requests) == 1
    items, requests = respond(spider, "http://127.0.0.1:9/site/x.html", body)
    assert len(items) == 1 and len(requests) == 1  # queued for a resumed crawl
    meta = {"skeleton_depth": 2, "skeleton_parent": BASE, "skeleton_context": "",
            "redirect_urls": ["http://127.0.0.1:9/site/y.html"], "download_latency": 0.5}
    items, requests = respond(spider, "http://127.0.0.1:9/site/y/", body, meta=meta)
    assert items == [] and [r.url for r in requests] == ["http://127.0.0.1:9/site/y.html"]
    assert requests[0].dont_filter and requests[0].meta == {
        "skeleton_depth": 2, "skeleton_parent": BASE, "skeleton_context": "", "skeleton_lang": None}
    assert stat(spider, "skeleton/max_pages/reached") == 2
    assert stat(spider, "skeleton/max_pages/requeued") == 1
    assert stat(spider, "skeleton/pages") == 2


def test_response_classes(monkeypatch) -> None:
    for cls in (Response, TextResponse, HtmlResponse):
        spider = make_spider(mode="bfs")
        items, requests = respond(spider, BASE, b"<a href='x.html'>X</a>", cls=cls)
        assert items[0]["reason"] is None and len(requests) == 1


def test_the_ancestors_a_page_declares_are_requested_even_without_a_navigation_link() -> None:
    spider = make_spider(mode="sew")
    body = b"""<html><body>
      <nav aria-label="breadcrumb"><a href="../">Home</a> <a href="./">Guide</a>
        <a href="http://example.org/site/guide/">off-site</a> <a href="/other/">out of scope</a></nav>
      <link rel="up" href="chapter.html"><p>Some text, no menu.</p></body></html>"""
    items, requests = respond(spider, BASE + "guide/install.html", body, meta={"depth": 2})
    assert items[0]["evidence"]["crumbs"][:2] == [BASE, BASE + "guide/"]
    urls = [r.url for r in requests]
    assert BASE + "guide/" in urls and BASE + "guide/chapter.html" in urls
    assert not [u for u in urls if "example.org" in u or "/other/" in u]
    assert stat(spider, "skeleton/declared_followed") >= 2


def test_the_other_pages_of_a_listing_are_requested_even_without_a_navigation_link() -> None:
    """A category's second page that lists one post: its pager is followed whatever
    the detection chose (issue 12: pagination is part of its listing)."""
    spider = make_spider(mode="sew")
    body = b"""<html><body><p>One post on this page.</p><a href="../../post.html">A post</a>
      <nav class="pagination"><a href="../../">1</a> <span>2</span> <a href="../3/">3</a>
      <a href="../3/" rel="next">Next</a></nav></body></html>"""
    items, requests = respond(spider, BASE + "cat/page/2/", body, meta={"depth": 2})
    assert items[0]["evidence"]["pager"] == [BASE + "cat/", BASE + "cat/page/3/"]
    urls = [r.url for r in requests]
    assert BASE + "cat/" in urls and BASE + "cat/page/3/" in urls


def test_find_skeleton_fetches_the_declared_ancestors_too() -> None:
    from skeleton.sew.detect import Detection
    from skeleton.analysis.offline import find_skeleton
    from skeleton.sew.model import load_model

    site = {BASE: b"<html><body><a href='guide/install.html'>Install</a></body></html>",
            BASE + "guide/install.html": b"<html><body><nav aria-label='breadcrumb'><a href='../'>Home</a>"
                                         b"<a href='./'>Guide</a></nav></body></html>",
            BASE + "guide/": b"<html><body><p>The guide</p></body></html>"}

    def detector(root, url, base, known, template):  # the root's one link is its navigation
        from skeleton.sew.links import extract_links
        return Detection(nav_sets=[extract_links(root, url)] if url == BASE else [])

    pages = list(find_skeleton(BASE, site.get, load_model(None), detector=detector))
    assert [p.url for p in pages] == [BASE, BASE + "guide/install.html", BASE + "guide/"]


def test_a_bad_language_argument_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="lang must be a language code"):
        make_spider(lang="???")
    assert make_spider(lang="EN-gb").args.lang == "en" and make_spider(lang="any").args.lang == "any"


def test_pages_that_are_no_nodes_are_leaves() -> None:
    """A page answering with a form only, and a page in another language than the
    crawl's (decided on the home page, carried by every request), are leaves with
    their reason; a page naming another URL as canonical is recorded under it."""
    spider = make_spider()
    home = b'<html lang="en"><body><a href="a.html">A</a><a href="de/">Deutsch</a></body></html>'
    items, requests = respond(spider, BASE, home, meta={"skeleton_depth": 0})
    assert items[0]["lang"] == "en" and {r.meta["skeleton_lang"] for r in requests} == {"en"}
    german = b'<html lang="de-DE"><body><a href="x.html">X</a></body></html>'
    items, requests = respond(spider, BASE + "de/", german, meta={"skeleton_depth": 1, "skeleton_lang": "en"})
    assert items[0]["reason"] == "language" and requests == []
    login = (b'<html lang="en"><body><main><form><input name="user"><input type="password" name="pw">'
             b'</form></main><a href="y.html">Y</a></body></html>')
    items, requests = respond(spider, BASE + "signin.html", login, meta={"skeleton_depth": 1, "skeleton_lang": "en"})
    assert items[0]["reason"] == "form" and requests == []
    copy = (b'<html lang="en"><head><link rel="canonical" href="/site/story.html"></head>'
            b'<body><p>The story</p><a href="z.html">Z</a></body></html>')
    items, _ = respond(spider, BASE + "story-print.html", copy, meta={"skeleton_depth": 1, "skeleton_lang": "en"})
    assert items[0]["url"] == BASE + "story.html" and items[0]["aliases"] == [BASE + "story-print.html"]


def test_action_nofollow_and_language_copy_links_are_not_followed() -> None:
    spider = make_spider()
    body = (b'<html lang="en"><head><link rel="alternate" hreflang="fr" href="/site/fr/"></head><body>'
            b'<a href="cart/add.html?item=1">Buy</a><a href="p.html">Add to basket</a>'
            b'<a href="q.html" rel="nofollow">Q</a><a href="fr/">Fran\xc3\xa7ais</a>'
            b'<a href="ok.html">A story</a></body></html>')
    _, requests = respond(spider, BASE, body, meta={"skeleton_depth": 0})
    assert [r.url for r in requests] == [BASE + "ok.html"]
    assert stat(spider, "skeleton/skipped/action/cart") == 2
    assert stat(spider, "skeleton/skipped/nofollow") == 1 and stat(spider, "skeleton/skipped/language") == 1
    spider = make_spider()
    spider.skip_actions = False  # SKELETON_SKIP_ACTIONS = False
    _, requests = respond(spider, BASE, body, meta={"skeleton_depth": 0})
    assert len(requests) == 4


BAD_HREFS = ["http://[::1", "http://127.0.0.1:99999/", "http://exa mple.com/", "http://xn--/",
             "http://te\x01st/", "//[::1", "http://[::1]:70000/", "HTTP://[zz]/", "http://%zz/"]


@pytest.mark.parametrize("mode", ["bfs", "sew"])
def test_unparsable_links_are_skipped_links_not_a_failed_page(mode, caplog) -> None:
    """Issue 13: one malformed href made the whole page an ``error`` leaf. Each is one
    skipped link now, counted; the page and its other links are analysed."""
    from html import escape

    good = "".join(f'<li><a href="s{i}/">Section {i}</a></li>' for i in range(4))
    bad = "".join(f'<li><a href="{escape(h)}">Bad {i}</a></li>' for i, h in enumerate(BAD_HREFS))
    body = (f"<html><head><title>T</title></head><body><nav><ul>{good}</ul></nav>"
            f"<p>Text <a href='%zz'>odd</a> <a href='a\x01b.html'>odd</a></p>"
            f"<footer><ul>{bad}</ul></footer></body></html>").encode()
    spider = make_spider(mode=mode)
    items, requests = respond(spider, BASE, body)
    assert items[0]["reason"] is None and stat(spider, "skeleton/errors") is None
    assert stat(spider, "skeleton/links/unparsable") == len(BAD_HREFS)
    assert not [r for r in caplog.records if r.exc_info or r.levelname == "ERROR"]
    urls = [r.url for r in requests]
    if mode == "bfs":  # every link: the odd ones are links, the unparsable ones skipped
        assert urls == [f"{BASE}s{i}/" for i in range(4)] + [BASE + "%zz", BASE + "a%01b.html"]
        assert stat(spider, "skeleton/filtered/not_http") is None  # counted once, as unparsable


@pytest_twisted.inlineCallbacks
def test_a_crawl_skips_unparsable_links(serve, redis_settings, tmp_path, caplog) -> None:
    """Through the real spider (local HTTP server, embedded Redis): the tiny site
    whose home page has malformed hrefs next to its navigation is crawled as the
    tiny site is: the home page is a navigation node, its links are followed, no
    traceback, and the stat ``skeleton/links/unparsable`` counts the skipped links."""
    import uuid

    from helpers import FIXTURES, UNPARSABLE_HREFS, crawl_in_process, hostile_tinysite, project_settings

    def crawl(site):  # type: ignore[no-untyped-def]
        base = serve(site)
        done = crawl_in_process(project_settings(redis_settings), base=f"{base}index.html",
                                crawl=f"unparsable-{uuid.uuid4().hex[:8]}")
        return done.addCallback(lambda result: (base, *result))

    caplog.set_level("INFO")
    base, stats, items = yield crawl(hostile_tinysite(tmp_path))
    assert stats["finish_reason"] == "finished"
    assert stats["skeleton/links/unparsable"] == len(UNPARSABLE_HREFS)
    assert "skeleton/errors" not in stats
    assert not [r for r in caplog.records if r.exc_info or r.levelname == "ERROR"]
    assert "Traceback" not in caplog.text and "error analysing" not in caplog.text
    home = next(i for i in items if i["url"] == base)
    assert home["reason"] is None and home["is_navigation"]
    assert {link["url"] for link in home["nav_links"]} >= {base + "news/", base + "guides/",
                                                           base + "about.html"}
    found = {i["url"]: i["found_from"] for i in items}
    assert found[base + "news/"] == found[base + "guides/"] == base

    plain_base, plain_stats, plain_items = yield crawl(FIXTURES / "tinysite")
    assert "skeleton/links/unparsable" not in plain_stats

    def pages(site_base, records):  # type: ignore[no-untyped-def]
        return sorted((i["url"][len(site_base):], i["reason"], i["is_navigation"],
                       sorted(link["url"][len(site_base):] for link in i["nav_links"])) for i in records)

    assert pages(base, items) == pages(plain_base, plain_items)  # the same skeleton


def test_scrapy_does_not_read_the_callbacks_source_for_each_response(monkeypatch):
    """Scrapy parses a generator callback's source on every response whose bound
    method it has not cached (each queued request holds its own): the callback
    scrapy calls must not be a generator function."""
    import inspect

    from scrapy.utils import misc

    spider = make_spider()
    read: list[object] = []
    monkeypatch.setattr(misc.inspect, "getsource", lambda obj: read.append(obj) or inspect.getsource(obj))
    for _ in range(3):
        misc.warn_on_generator_with_return_value(spider, getattr(spider, "parse"))
    assert read == []
    items, _ = respond(spider, BASE, b"<html><body><a href='a.html'>A</a></body></html>")
    assert [item["url"] for item in items] == [BASE]


def test_the_parsed_page_is_released_once_the_spider_is_done() -> None:
    """The shared tree leaves the response's meta after the item: a response kept in
    a reference cycle does not keep the tree too."""
    from skeleton.middlewares.shared import META_PAGE

    spider = make_spider()
    request = Request(BASE)
    response = HtmlResponse(BASE, body=b"<html><body><a href='a.html'>A</a></body></html>", request=request,
                            headers={"Content-Type": "text/html"})
    out = list(spider.parse(response))
    assert any(isinstance(o, PageItem) for o in out)
    assert META_PAGE not in response.meta
