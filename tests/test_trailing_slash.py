"""A site that links its folders without the trailing slash (``/guide``) and answers
each such link with a redirect to the folder (``/guide/``): the crawl learns the
habit (:mod:`skeleton.urlrules.slash`) and stops paying a redirect per page
(:mod:`skeleton.middlewares.slash`), offline and through the real spider and Redis.
A guess the site does not serve is asked again as linked, so no page is lost.

Held out by generator family, the farm's portal-news-2 fetched 2.10 pages per true
page before, half of them redirects; docusaurus-blog 1.46."""
from __future__ import annotations

import functools
from pathlib import Path

import pytest
from helpers import SiteHandler, crawl_and_score

from skeleton.analysis.offline import fetch_count, find_skeleton, skeleton_edges
from skeleton.sew.model import load_model
from skeleton.urlrules.duplicates import learned_rules
from skeleton.urlrules.slash import SLASH_DIFF, SLASH_SAME, SLASH_SUPPORT, bare_url, slash_vote, with_slash

TRUTH_HOST = "http://127.0.0.1:8000/"
SECTIONS = {"guide": ["install", "upgrade", "tuning"], "api": ["client", "server", "schema"],
            "ops": ["backup", "restore", "monitor"], "faq": ["billing", "accounts", "notes"]}
LEAVES = ("first", "second")
#: a sub-section served only as a clean URL (``/faq/notes`` from ``faq/notes.html``;
#: ``/faq/notes/`` is 404): the guess for it fails
CLEAN = "faq/notes"
WORDS = ("The service keeps every record in a journal and replays it after a restart. "
         "Each worker reads its share of the queue and reports what it did. ")


# -- the rule, pure --------------------------------------------------------------

@pytest.mark.parametrize("url, bare", [
    ("http://h/guide", True), ("http://h/a/b-c_d", True), ("https://h/x", True),
    ("http://h/guide/", False), ("http://h/", False), ("http://h", False), ("http://h/page.html", False),
    ("http://h/v1.2", False), ("http://h/list?page=2", False), ("ftp://h/guide", False),
    ("mailto:a@h", False), ("http://[::1/x", False),
])
def test_bare_url(url: str, bare: bool) -> None:
    assert bare_url(url) is bare


def test_with_slash_adds_it_to_bare_urls_only() -> None:
    assert with_slash("http://h/guide") == "http://h/guide/"
    assert with_slash("http://h/guide#top") == "http://h/guide/"
    for url in ("http://h/guide/", "http://h/a.html", "http://h/a?b=1", "not a url"):
        assert with_slash(url) == url


def test_slash_votes() -> None:
    assert slash_vote("http://h/guide", "http://h/guide/", True) == SLASH_SAME
    assert slash_vote("http://h/guide", "http://h/guide/index.html", True) == SLASH_SAME
    assert slash_vote("http://h/guide", "http://h/guide", False) == SLASH_DIFF
    assert slash_vote("http://h/guide", "http://h/manual/", True) is None  # another redirect
    assert slash_vote("http://h/guide/", "http://h/guide/", False) is None  # not bare
    assert slash_vote("http://h/a.html", "http://h/a.html", False) is None


def test_the_rule_needs_support_and_no_counter_example() -> None:
    assert not learned_rules({SLASH_SAME: SLASH_SUPPORT - 1}).slash
    assert learned_rules({SLASH_SAME: SLASH_SUPPORT}).slash
    assert not learned_rules({SLASH_SAME: 50, SLASH_DIFF: 1}).slash
    rules = learned_rules({SLASH_SAME: SLASH_SUPPORT, "q:utm:same": 5})
    assert rules.add_slash("http://h/guide") == "http://h/guide/" and rules.params == {"utm"}
    assert learned_rules({}).add_slash("http://h/guide") == "http://h/guide"


# -- the site ----------------------------------------------------------------------

def _page(title: str, menu: str, listing: str) -> str:
    return (f"<!DOCTYPE html><html><head><title>{title}</title></head><body>"
            f'<header><a href="/">Service docs</a><nav><ul>{menu}</ul></nav></header>'
            f"<main><h1>{title}</h1><p>{WORDS * 3}</p>{listing}<p>{WORDS}</p></main>"
            "<footer><p>Built by hand for the tests.</p></footer></body></html>")


def build(out: Path) -> dict:
    """Write the site into ``out`` (every link to a folder without its slash);
    return its truth (corpus format)."""
    menu = "".join(f'<li><a href="/{s}">{s.capitalize()}</a></li>' for s in SECTIONS)
    edges: list[list[str]] = []

    def write(path: str, title: str, listing: list[tuple[str, str]]) -> None:
        links = "".join(f'<li><a href="{href}">{text}</a></li>' for href, text in listing)
        target = out / (f"{path}.html" if path == CLEAN else f"{path}/index.html" if path else "index.html")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(_page(title, menu, f"<ul>{links}</ul>" if links else ""))

    def node(path: str) -> str:
        return TRUTH_HOST + (path if path == CLEAN else f"{path}/index.html" if path else "index.html")

    write("", "Service docs", [])
    for section, subs in SECTIONS.items():
        write(section, section.capitalize(), [(f"/{section}/{sub}", sub.capitalize()) for sub in subs])
        edges.append([node(""), node(section)])
        for sub in subs:
            path = f"{section}/{sub}"
            write(path, sub.capitalize(), [(f"/{path}/{leaf}.html", f"{sub} {leaf}") for leaf in LEAVES]
                  if path != CLEAN else [])
            edges.append([node(section), node(path)])
            for leaf in LEAVES if path != CLEAN else ():
                (out / path / f"{leaf}.html").write_text(_page(f"{sub} {leaf}", menu, ""))
                edges.append([node(path), TRUTH_HOST + f"{path}/{leaf}.html"])
    return {"root": node(""), "edges": edges}


# -- offline ---------------------------------------------------------------------------

def _fetcher(site: Path, asked: list[str]):  # type: ignore[no-untyped-def]
    """``fetch(url)`` as tests/sites/server.py answers: a folder without its slash
    redirects, a clean URL is its ``.html`` file, anything else missing is None."""
    def fetch(url: str) -> bytes | str | None:
        asked.append(url)
        path = url.split("/", 3)[3] if url.count("/") >= 3 else ""
        local = site / path
        if local.is_dir():
            if path and not path.endswith("/"):
                return url + "/"
            local = local / "index.html"
        elif not path.endswith("/") and not local.exists() and local.with_name(local.name + ".html").is_file():
            local = local.with_name(local.name + ".html")
        return local.read_bytes() if local.is_file() else None
    return fetch


def test_offline_crawl_stops_paying_the_redirect_and_keeps_every_page(tmp_path: Path) -> None:
    build(tmp_path)
    asked: list[str] = []
    pages = list(find_skeleton(TRUTH_HOST, _fetcher(tmp_path, asked), load_model()))
    edges = {(p.removeprefix(TRUTH_HOST), c.removeprefix(TRUTH_HOST)) for p, c in skeleton_edges(pages)}
    expected = {("", s + "/") for s in SECTIONS}
    expected |= {(f"{s}/", f"{s}/{sub}/") for s, subs in SECTIONS.items() for sub in subs
                 if f"{s}/{sub}" != CLEAN}
    expected |= {(f"{s}/{sub}/", f"{s}/{sub}/{leaf}.html") for s, subs in SECTIONS.items() for sub in subs
                 if f"{s}/{sub}" != CLEAN for leaf in LEAVES}
    expected.add(("faq/", CLEAN))  # its guess was not served: fetched as linked, a node all the same
    assert edges == expected
    bare = [url for url in asked if bare_url(url) and url.removeprefix(TRUTH_HOST) != CLEAN]
    # the first sections redirect and teach the rule; no sub-section is asked without its slash
    assert len(bare) == SLASH_SUPPORT
    assert asked.count(TRUTH_HOST + CLEAN + "/") == 1 and asked.count(TRUTH_HOST + CLEAN) == 1
    assert fetch_count(pages) == len(asked) < len(pages)


# -- the real spider and Redis -----------------------------------------------------------

def test_crawl_learns_the_slash_and_loses_no_page(serve, tmp_path: Path) -> None:
    site = tmp_path / "site"
    truth = build(site)
    asked: list[str] = []

    class Counting(SiteHandler):
        def send_head(self):  # type: ignore[no-untyped-def]
            asked.append(self.path)
            return super().send_head()

    base = serve(handler=functools.partial(Counting, directory=str(site)))
    score = crawl_and_score(base, truth, tmp_path, "-s", "SKELETON_SLASH_REFRESH=0")
    assert score["edges"]["all"]["f1"] == 1.0, score
    subsections = [f"/{s}/{sub}" for s, subs in SECTIONS.items() for sub in subs if f"{s}/{sub}" != CLEAN]
    # some sub-sections were asked with their slash only: the redirect was answered here
    assert any(path not in asked and path + "/" in asked for path in subsections), asked
    # the guess for the clean URL was not served: asked again as linked, and kept (F1 1.0)
    assert asked.count(f"/{CLEAN}/") == 1 and asked.count(f"/{CLEAN}") == 1, asked


# -- the middleware, on a real (embedded) Redis ----------------------------------------------

def _slash_middleware(client, crawl: str):  # type: ignore[no-untyped-def]
    from scrapy.utils.test import get_crawler

    from skeleton.middlewares.slash import TrailingSlashMiddleware
    from skeleton.store.keys import CrawlKeys

    crawler = get_crawler()
    crawler.stats.open_spider()
    keys = CrawlKeys(crawl)
    client.delete(*keys.all())
    return TrailingSlashMiddleware(crawler, client, keys, refresh=0.0), keys


def _redirect(url: str, location: str):  # type: ignore[no-untyped-def]
    from scrapy import Request
    from scrapy.http import Response

    request = Request(url)
    return request, Response(url, status=301, headers={"Location": location}, request=request)


def test_middleware_learns_guesses_and_sends_a_missed_guess_again(redis_client) -> None:
    from scrapy import Request
    from scrapy.http import Response

    from skeleton.middlewares.slash import META_AS_LINKED, META_GUESS

    mw, keys = _slash_middleware(redis_client, "slash-unit")
    for name in ("a", "b", "c"):
        request, response = _redirect(f"http://h/{name}", f"/{name}/")
        assert mw.process_request(request) is None  # nothing learned yet: asked as linked
        assert mw.process_response(request, response) is response
    guessed = Request("http://h/d")
    answer = mw.process_request(guessed)  # the votes are exchanged first: the site adds the slash
    assert answer is not None and answer.status == 301 and answer.headers[b"Location"] == b"http://h/d/"
    assert guessed.meta[META_GUESS] == "http://h/d"
    # requests that must not be redirected are asked as they are
    for meta in ({"dont_redirect": True}, {"handle_httpstatus_list": [301]}, {META_AS_LINKED: True}):
        assert mw.process_request(Request("http://h/e", meta=meta)) is None
    assert mw.process_request(Request("http://h/e.html")) is None
    # the site does not serve the guess: the URL as linked, once, and no more guesses
    redis_client.hset(keys.aliases, "http://h/d", "http://h/d/")
    followed = Request("http://h/d/", meta={**guessed.meta, "redirect_urls": ["http://h/d"], "redirect_times": 1})
    again = mw.process_response(followed, Response("http://h/d/", status=404, request=followed))
    assert isinstance(again, Request) and again.url == "http://h/d" and again.dont_filter
    assert again.meta[META_AS_LINKED] and META_GUESS not in again.meta and "redirect_urls" not in again.meta
    assert redis_client.hget(keys.aliases, "http://h/d") is None  # the alias the guess made, withdrawn
    assert mw.process_request(Request("http://h/f")) is None
    assert int(redis_client.hget(keys.votes, SLASH_DIFF)) == 1
    assert mw.crawler.stats.get_value("skeleton/slash/missed") == 1


def test_one_bare_page_served_stops_the_rule(redis_client) -> None:
    from scrapy import Request
    from scrapy.http import HtmlResponse

    mw, _ = _slash_middleware(redis_client, "slash-diff")
    request = Request("http://h/about")
    mw.process_response(request, HtmlResponse("http://h/about", body=b"<p>x</p>", request=request))
    for name in "abcdef":
        request, response = _redirect(f"http://h/{name}", f"http://h/{name}/")
        mw.process_request(request)
        mw.process_response(request, response)
    assert mw.process_request(Request("http://h/g")) is None


def test_a_lost_redis_lets_requests_through_and_is_counted() -> None:
    import redis
    from scrapy import Request
    from scrapy.utils.test import get_crawler

    from skeleton.middlewares.slash import TrailingSlashMiddleware
    from skeleton.store import outage
    from skeleton.store.keys import CrawlKeys

    crawler = get_crawler()
    crawler.stats.open_spider()
    gone = redis.Redis(host="127.0.0.1", port=1, socket_timeout=0.2, socket_connect_timeout=0.2)
    mw = TrailingSlashMiddleware(crawler, gone, CrawlKeys("slash-gone"), refresh=0.0)
    request, response = _redirect("http://h/a", "/a/")
    assert mw.process_request(request) is None  # asked as linked: nothing learned
    assert mw.process_response(request, response) is response
    assert crawler.stats.get_value("skeleton/slash/errors") == 1
    assert outage.is_down(crawler)  # the first failure declares the outage; no more Redis
    assert mw.process_request(Request("http://h/b")) is None
    assert crawler.stats.get_value("skeleton/slash/errors") == 1
