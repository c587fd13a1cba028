"""The crawl's scope is the base URL's scheme, host, port and directory (issue 29):
redirects, meta refreshes and frames out of it are never fetched, and the page
that redirects out is recorded with reason ``redirect_offsite``.

Through the real spider (``scrapy crawl`` in a subprocess, as a user runs it)
against two local servers: the site on 127.0.0.1, and another server on another
port that counts every request it gets (robots.txt too). Another host name is
``localhost``, which resolves to 127.0.0.1: the same server, told apart by the
``Host`` header of the requests."""
from __future__ import annotations

import http.server
import json
from pathlib import Path
from typing import Any, ClassVar

import pytest
from helpers import FAST, run_scrapy

#: the page record's reason and the crawl stat (literals: the tests read as a spec)
REDIRECT_OFFSITE_REASON = "redirect_offsite"
REDIRECT_OFFSITE_STAT = "skeleton/redirect_offsite"

from skeleton.store.keys import CrawlKeys
from skeleton.store.server import connect
from skeleton.store.tree import load_hash


class Recorder(http.server.BaseHTTPRequestHandler):
    """Answers ``pages`` (path -> (status, headers, HTML), ``{other}`` and ``{self}``
    in them replaced by the other server's and this one's root URL without the
    trailing slash, ``{localhost}`` by this server under the name localhost); 404
    for any other path. Every request is appended to ``seen`` as (Host, path)."""

    pages: ClassVar[dict[str, tuple[int, dict[str, str], str]]] = {}
    seen: ClassVar[list[tuple[str, str]]]
    other: ClassVar[str] = ""

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        self.seen.append((self.headers.get("Host", ""), self.path))
        port = self.server.server_address[1]
        names = {"{other}": self.other, "{self}": f"http://127.0.0.1:{port}",
                 "{localhost}": f"http://localhost:{port}"}
        status, headers, body = self.pages.get(self.path, (404, {}, "<html><body>not found</body></html>"))
        for name, value in names.items():
            body = body.replace(name, value)
            headers = {k: v.replace(name, value) for k, v in headers.items()}
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        for key, value in headers.items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)


def page(title: str, links: list[str], head: str = "") -> str:
    items = "".join(f'<li><a href="{href}">{href}</a></li>' for href in links)
    return (f"<html><head><title>{title}</title>{head}</head>"
            f"<body><ul>{items}</ul><p>{title}</p></body></html>")


def site(away: tuple[int, dict[str, str], str]) -> dict[str, tuple[int, dict[str, str], str]]:
    """/docs/: a home page, two pages, and ``away.html`` answered with ``away``."""
    nav = ["a.html", "b.html", "away.html"]
    return {"/docs/": (200, {}, page("Home", nav)),
            "/docs/a.html": (200, {}, page("A", ["./", "b.html"])),
            "/docs/b.html": (200, {}, page("B", ["./", "a.html"])),
            "/docs/away.html": away}


def servers(serve: Any, pages: dict[str, tuple[int, dict[str, str], str]]
            ) -> tuple[str, str, list[tuple[str, str]], list[tuple[str, str]]]:
    """Start the other server, then the site; (the site's root URL, the other
    server's without the trailing slash, the requests the site got, the requests
    the other server got)."""
    other_seen: list[tuple[str, str]] = []
    other = type("Other", (Recorder,), {"seen": other_seen, "pages": {
        "/docs/target.html": (200, {}, page("Elsewhere", ["more.html"])),
        "/docs/more.html": (200, {}, page("More", []))}})
    other_root = serve(handler=other).rstrip("/")
    seen: list[tuple[str, str]] = []
    root = serve(handler=type("Site", (Recorder,), {"seen": seen, "pages": pages, "other": other_root}))
    return root, other_root, seen, other_seen


def crawl(root: str, cwd: Path, crawl_id: str) -> tuple[Any, dict[str, Any]]:
    done = run_scrapy(["crawl", "skeleton", "-a", f"base={root}docs/", "-a", "mode=bfs",
                       "-a", f"crawl={crawl_id}", "-O", "pages.jsonl", *FAST], cwd)
    client = connect({"SKELETON_DATA_DIR": str(cwd / ".skeleton-data")})
    try:
        pages = load_hash(client, CrawlKeys(crawl_id).pages)
    finally:
        client.close()
    return done, pages


REDIRECTS = {
    "302 to another port": ((302, {"Location": "{other}/docs/target.html"}, ""),
                            "{other}/docs/target.html", "302"),
    "meta refresh to another port": (
        (200, {}, page("Moved", [], '<meta http-equiv="refresh" content="0; url={other}/docs/target.html">')),
        "{other}/docs/target.html", "refresh"),
    "301 to another host name": ((301, {"Location": "{localhost}/docs/a.html"}, ""),
                                 "{localhost}/docs/a.html", "301"),
}


@pytest.mark.parametrize("case", list(REDIRECTS))
def test_a_redirect_out_of_scope_is_not_fetched_and_its_page_is_recorded(serve, tmp_path: Path,
                                                                         case: str) -> None:
    away, target, status = REDIRECTS[case]
    root, other_root, seen, other_seen = servers(serve, site(away))
    done, pages = crawl(root, tmp_path, "scoped")
    # the crawl ends by itself
    assert done.returncode == 0, done.stderr[-3000:]
    assert "'finish_reason': 'finished'" in done.stderr and "Traceback" not in done.stderr
    # the target gets no request: not the page, not its robots.txt
    own_port = root.rstrip("/").rsplit(":", 1)[1]
    assert other_seen == []
    assert all(host == f"127.0.0.1:{own_port}" for host, _ in seen), seen
    # the page that redirected out is a leaf of the crawl, under its own URL
    away_url = root + "docs/away.html"
    assert set(pages) == {root + "docs/", root + "docs/a.html", root + "docs/b.html", away_url}
    record = pages[away_url]
    assert record["reason"] == REDIRECT_OFFSITE_REASON and record["status"] == status
    assert record["nav_links"] == [] and record["found_from"] == root + "docs/"
    names = {"{other}": other_root, "{localhost}": f"http://localhost:{own_port}"}
    for name, value in names.items():
        target = target.replace(name, value)
    assert record["redirect_to"] == target
    assert "not following the" in done.stderr and f"of {away_url} to {target}" in done.stderr
    assert f"'{REDIRECT_OFFSITE_STAT}': 1" in done.stderr
    assert "'skeleton/leaf_reason/redirect_offsite': 1" in done.stderr
    fed = {json.loads(line)["url"]: json.loads(line) for line in
           (tmp_path / "pages.jsonl").read_text("utf-8").splitlines()}
    assert fed[away_url]["reason"] == REDIRECT_OFFSITE_REASON
    # scrapy status counts it, with the pages done
    status_done = run_scrapy(["status", "--crawl", "scoped", "--json"], tmp_path)
    counts = json.loads(status_done.stdout)
    assert counts["redirect_offsite"] == 1 and counts["pages_done"] == 4 and counts["failed_pages"] == 0
    assert "redirect offsite: 1" in run_scrapy(["status", "--crawl", "scoped"], tmp_path).stdout


def test_a_base_page_redirecting_out_of_scope_ends_the_crawl_with_an_error_line(serve, tmp_path: Path) -> None:
    pages = site((200, {}, ""))
    pages["/docs/"] = (302, {"Location": "{other}/docs/target.html"}, "")
    root, other_root, seen, other_seen = servers(serve, pages)
    done, records = crawl(root, tmp_path, "base-away")
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr[-3000:]
    target = other_root + "/docs/target.html"
    assert (f"the base page {root}docs/ redirects to {target}, out of the crawl's scope" in done.stderr)
    assert f"start from -a base={target}" in done.stderr
    assert other_seen == [] and [path for _, path in seen] == ["/robots.txt", "/docs/"]
    assert records[root + "docs/"]["reason"] == REDIRECT_OFFSITE_REASON
    assert records[root + "docs/"]["redirect_to"] == target and set(records) == {root + "docs/"}


def test_frames_out_of_scope_are_not_fetched_nor_followed_out(serve, tmp_path: Path) -> None:
    """A frame on the page's host but out of the base's directory is not
    downloaded; a frame in scope that redirects to another port is not followed."""
    pages = site((200, {}, page("Away", ["./"])))
    frames = '<iframe src="/nav/toc.html"></iframe><iframe src="frame.html"></iframe>'
    pages["/docs/"] = (200, {}, page("Home", ["a.html", "b.html", "away.html"]).replace("<ul>", frames + "<ul>"))
    pages["/docs/frame.html"] = (302, {"Location": "{other}/docs/target.html"}, "")
    pages["/nav/toc.html"] = (200, {}, page("Toc", ["/docs/a.html"]))
    root, _, seen, other_seen = servers(serve, pages)
    done, records = crawl(root, tmp_path, "frames")
    assert done.returncode == 0, done.stderr[-3000:]
    assert other_seen == []
    assert "/nav/toc.html" not in [path for _, path in seen]
    assert [path for _, path in seen].count("/docs/frame.html") == 1
    assert "'skeleton/frames/out_of_scope': 1" in done.stderr
    assert f"'{REDIRECT_OFFSITE_STAT}': 1" in done.stderr
    assert set(records) == {root + "docs/", root + "docs/a.html", root + "docs/b.html", root + "docs/away.html"}
    assert not any(r.get("reason") for r in records.values())  # a frame is no page of the crawl


# -- the middlewares, one response at a time ------------------------------------

BASE = "http://127.0.0.1:9/site/"


def middlewares(base: str | None = BASE) -> tuple[Any, Any, Any]:
    """(crawler, redirect middleware, meta refresh middleware) of the project's
    settings, for a spider whose ``base`` is ``base`` (None: a spider without one)."""
    from types import SimpleNamespace

    from scrapy.utils.misc import load_object
    from scrapy.utils.test import get_crawler

    from skeleton import settings as project_settings

    from skeleton.crawl_settings import SETTING, CrawlSettings

    published = {SETTING: CrawlSettings(base, "scope")} if base else {}
    crawler = get_crawler(settings_dict={"DOWNLOADER_MIDDLEWARES": project_settings.DOWNLOADER_MIDDLEWARES,
                                         **published})
    crawler.spider = SimpleNamespace()
    crawler.stats.open_spider()
    classes = {name: cls for name, cls in project_settings.DOWNLOADER_MIDDLEWARES.items() if cls}
    redirect = load_object(next(n for n in classes if n.endswith("ScopedRedirectMiddleware")))
    refresh = load_object(next(n for n in classes if n.endswith("TolerantMetaRefreshMiddleware")))
    return crawler, redirect.from_crawler(crawler), refresh.from_crawler(crawler)


def moved(url: str, location: str, status: int = 302, meta: dict[str, Any] | None = None) -> Any:
    from scrapy.http import Request, Response

    request = Request(url, meta=meta or {})
    return request, Response(url, status=status, headers={"Location": location}, request=request)


@pytest.mark.parametrize("location", [
    "http://127.0.0.1:8/site/x.html",  # another port
    "https://127.0.0.1:9/site/x.html",  # another scheme
    "http://localhost:9/site/x.html",  # another host name
    "/other/x.html",  # the same host, out of the base's directory
])
def test_a_redirect_out_of_scope_goes_on_as_the_response(location: str) -> None:
    crawler, redirect, _ = middlewares()
    request, response = moved(BASE + "a.html", location)
    assert redirect.process_response(request, response) is response
    assert request.meta["skeleton_redirect_offsite"].endswith("/x.html")
    assert 302 in request.meta["handle_httpstatus_list"]  # HttpErrorMiddleware lets it through
    assert crawler.stats.get_value(REDIRECT_OFFSITE_STAT) == 1


def test_redirects_in_scope_robots_txt_and_other_spiders_are_followed() -> None:
    crawler, redirect, _ = middlewares()
    request, response = moved(BASE + "a", BASE + "a/", 301)
    assert redirect.process_response(request, response).url == BASE + "a/"
    _, plain, _ = middlewares("http://h.test/site/")  # http's default port, written or not
    request, response = moved("http://h.test/site/b", "http://h.test:80/site/b/")
    assert plain.process_response(request, response).url == "http://h.test:80/site/b/"
    # RFC 9309: a robots.txt redirect is followed to another host
    request, response = moved("http://127.0.0.1:9/robots.txt", "http://127.0.0.1:8/robots.txt",
                              meta={"dont_obey_robotstxt": True})
    assert redirect.process_response(request, response).url == "http://127.0.0.1:8/robots.txt"
    _, other, _ = middlewares(None)  # a spider without a base URL: Scrapy's behaviour
    request, response = moved(BASE + "a.html", "http://elsewhere.test/")
    assert other.process_response(request, response).url == "http://elsewhere.test/"
    assert crawler.stats.get_value(REDIRECT_OFFSITE_STAT) is None


def test_a_meta_refresh_out_of_scope_goes_on_as_the_response() -> None:
    from scrapy.http import HtmlResponse, Request

    crawler, _, refresh = middlewares()

    def refreshing(head: str) -> tuple[Any, Any]:
        request = Request(BASE + "old.html")
        body = f"<html><head>{head}</head><body>moved</body></html>".encode()
        return request, HtmlResponse(BASE + "old.html", body=body, request=request,
                                     headers={"Content-Type": "text/html; charset=utf-8"})

    request, response = refreshing('<meta http-equiv="refresh" content="0; url=http://127.0.0.1:8/site/">')
    assert refresh.process_response(request, response) is response
    assert request.meta["skeleton_redirect_offsite"] == "http://127.0.0.1:8/site/"
    assert "handle_httpstatus_list" not in request.meta  # a 200: nothing to let through
    # read against <base href>, as Scrapy reads it
    request, response = refreshing('<base href="http://127.0.0.1:8/"><meta http-equiv="refresh" content="0; url=x">')
    assert refresh.process_response(request, response) is response
    request, response = refreshing('<meta http-equiv="refresh" content="0; url=new.html">')
    assert refresh.process_response(request, response).url == BASE + "new.html"
    assert crawler.stats.get_value(REDIRECT_OFFSITE_STAT) == 2


def test_an_alias_is_recorded_for_redirects_in_scope_only() -> None:
    from scrapy.http import Response

    from skeleton.middlewares.aliases import redirect_target

    def target(location: str, scope: str | None = BASE) -> str | None:
        return redirect_target(BASE + "a", Response(BASE + "a", status=301, headers={"Location": location}),
                               100, scope=scope)

    assert target(BASE + "b/") == BASE + "b/"
    assert target("/other/b/") is None and target("/other/b/", None) == "http://127.0.0.1:9/other/b/"
    assert target("http://127.0.0.1:8/site/b/") is None
