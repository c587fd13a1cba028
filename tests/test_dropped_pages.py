"""Nothing vanishes (issue 29, item 6): a page requested and then given up is recorded.

A redirect loop, a redirect chain longer than ``REDIRECT_MAX_TIMES``, a body over
``DOWNLOAD_MAXSIZE`` (announced by ``Content-Length`` or not) and a gzip bomb (a
small body whose decompressed size is over the limit) are each recorded as a page
that failed for good, with their ``status``: in Redis, in the feed, in ``scrapy
status`` and as a broken leaf of ``scrapy tree``, like the pages answering 500
(tests/test_failed_pages.py). So is a page any middleware drops with
``IgnoreRequest`` after its response came; a page robots.txt disallows is never
requested and is no page.

Through the real spider (``scrapy crawl`` in a subprocess) and Redis, against a
local server on 127.0.0.1."""
from __future__ import annotations

import gzip
import http.server
import json
import os
from pathlib import Path
from typing import Any

import pytest
from helpers import FAST, ROOT, run_scrapy

from skeleton.store.keys import CrawlKeys
from skeleton.store.server import connect
from skeleton.store.tree import load_hash, stored_aliases

#: the limit the crawls run with, and the bodies over it
MAXSIZE = 10_000
BIG = ("<html><head><title>Big</title></head><body><p>" + "big " * 5_000 + "</p></body></html>").encode()
BOMB = gzip.compress(b"<html><head><title>Bomb</title></head><body>" + b" " * 2_000_000 + b"</body></html>")
REDIRECT_MAX_TIMES = 3


def page(title: str, links: list[str], head: str = "") -> bytes:
    items = "".join(f'<li><a href="{href}">{href}</a></li>' for href in links)
    return (f"<html><head><title>{title}</title>{head}</head>"
            f"<body><ul>{items}</ul><p>{title}</p></body></html>").encode()


class Site(http.server.BaseHTTPRequestHandler):
    """One folder per case, each with an index page linking what it tests:

    * ``/loop/``: ``a`` redirects (302) to ``b``, which redirects back to ``a``;
    * ``/chain/``: ``0`` redirects to ``1``, ``1`` to ``2``... forever;
    * ``/big/``: ``page.html`` is ``BIG``, over ``MAXSIZE``, with its ``Content-Length``;
    * ``/stream/``: the same body without ``Content-Length`` (the download stops mid-way);
    * ``/bomb/``: ``page.html`` is ``BOMB``, ``Content-Encoding: gzip``;
    * ``/refresh/``: ``page.html`` has a meta refresh to itself (a page reloading itself);
    * ``/robots/``: ``private.html`` is disallowed by robots.txt, ``dropped.html`` is
      answered, then dropped by the ``Dropper`` middleware (``dropper.py``), ``ok.html`` is a page.
    """

    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:
        pass

    def answer(self, status: int, body: bytes = b"", headers: dict[str, str] | None = None,
               length: bool = True) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "text/plain" if self.path == "/robots.txt"
                         else "text/html; charset=utf-8")
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        if length:
            self.send_header("Content-Length", str(len(body)))
        else:  # the body ends when the connection closes
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        folder, _, name = path.strip("/").partition("/")
        if path == "/robots.txt":
            self.answer(200, b"User-agent: *\nDisallow: /robots/private.html\n")
        elif path == "/loop/a":
            self.answer(302, headers={"Location": "/loop/b"})
        elif path == "/loop/b":
            self.answer(302, headers={"Location": "/loop/a"})
        elif path == "/loop2/a":
            self.answer(302, headers={"Location": "/loop2/b"})
        elif path == "/loop2/b":
            self.answer(302, headers={"Location": "/loop2/a"})
        elif folder == "chain" and name.isdigit():
            self.answer(302, headers={"Location": f"/chain/{int(name) + 1}"})
        elif path == "/big/page.html":
            self.answer(200, BIG)
        elif path == "/stream/page.html":
            self.answer(200, BIG, length=False)
        elif path == "/bomb/page.html":
            self.answer(200, BOMB, {"Content-Encoding": "gzip"})
        elif path == "/refresh/page.html":
            self.answer(200, page("Reloading", ["./"], '<meta http-equiv="refresh" content="5; url=page.html">'))
        elif path in ("/robots/private.html", "/robots/dropped.html", "/robots/ok.html"):
            self.answer(200, page(name, ["./"]))
        elif path == f"/{folder}/" and folder in LINKS:
            self.answer(200, page(folder, LINKS[folder]))
        else:
            self.answer(404, page("Not found", []))


#: the links of each case's index page
LINKS = {"loop": ["a"], "loop2": ["a", "b"], "chain": ["0"], "big": ["page.html"], "stream": ["page.html"],
         "bomb": ["page.html"], "refresh": ["page.html"],
         "robots": ["private.html", "dropped.html", "ok.html"]}

#: case -> (folder, the URL (under the folder) recorded as failed, its status, the
#: URLs recorded as its aliases: the redirects that led to it)
CASES = {
    "redirect loop": ("loop", "b", "redirect_loop", ["a"]),
    "too many redirects": ("chain", str(REDIRECT_MAX_TIMES), "too_many_redirects",
                           [str(n) for n in range(REDIRECT_MAX_TIMES)]),
    "over DOWNLOAD_MAXSIZE": ("big", "page.html", "too_large", []),
    "over DOWNLOAD_MAXSIZE without Content-Length": ("stream", "page.html", "too_large", []),
    "gzip bomb": ("bomb", "page.html", "too_large", []),
}

DROPPER = '''
from scrapy.exceptions import IgnoreRequest


class Dropper:
    """Drops the response of dropped.html (as any middleware may)."""

    def process_response(self, request, response):
        if request.url.endswith("/dropped.html"):
            raise IgnoreRequest("dropped by a test middleware")
        return response
'''
#: the project's settings with the ``Dropper`` (``-s DOWNLOADER_MIDDLEWARES=...`` would
#: replace the project's middlewares, not add one)
DROPPER_SETTINGS = '''
from skeleton.settings import *  # noqa: F403
from skeleton.settings import DOWNLOADER_MIDDLEWARES as PROJECT_MIDDLEWARES

DOWNLOADER_MIDDLEWARES = {**PROJECT_MIDDLEWARES, "dropper.Dropper": 560}
'''


def crawl(root: str, folder: str, cwd: Path, *settings: str, **env: str
          ) -> tuple[Any, dict[str, Any], dict[str, str], dict[str, str]]:
    """``scrapy crawl`` of ``root/folder/`` (crawl id ``folder``); (the finished
    process, the page records, the ``:failed`` index, the aliases)."""
    done = run_scrapy(["crawl", "skeleton", "-a", f"base={root}{folder}/", "-a", "mode=bfs",
                       "-a", f"crawl={folder}", "-O", "pages.jsonl", *FAST,
                       "-s", f"DOWNLOAD_MAXSIZE={MAXSIZE}", "-s", "DOWNLOAD_WARNSIZE=0",
                       "-s", f"REDIRECT_MAX_TIMES={REDIRECT_MAX_TIMES}", *settings], cwd, **env)
    client = connect({"SKELETON_DATA_DIR": str(cwd / ".skeleton-data")})
    try:
        keys = CrawlKeys(folder)
        pages = load_hash(client, keys.pages)
        failed = {k.decode(): v.decode() for k, v in client.hgetall(keys.failed).items()}
        aliases = stored_aliases(client, keys)
    finally:
        client.close()
    return done, pages, failed, aliases


def tree_nodes(cwd: Path, crawl_id: str) -> dict[str, dict[str, Any]]:
    """URL -> node of ``scrapy tree``'s JSON, with its parent's URL as ``parent``."""
    done = run_scrapy(["tree", "--crawl", crawl_id], cwd)
    assert done.returncode == 0, done.stderr[-3000:]
    out: dict[str, dict[str, Any]] = {}
    stack = [(json.loads(done.stdout), None)]
    while stack:
        node, parent = stack.pop()
        out[node["url"]] = {**node, "parent": parent}
        stack.extend((child, node["url"]) for child in node.get("children", []))
    return out


def ended_cleanly(done: Any) -> None:
    """The crawl ended by itself, without a traceback."""
    assert done.returncode == 0, done.stderr[-3000:]
    assert "'finish_reason': 'finished'" in done.stderr
    assert "Traceback" not in done.stderr and " ERROR: " not in done.stderr, done.stderr[-3000:]


@pytest.mark.parametrize("case", list(CASES))
def test_a_page_given_up_after_its_request_is_recorded_as_failed(serve, tmp_path: Path, case: str) -> None:
    folder, name, status, alias_names = CASES[case]
    root = serve(handler=Site)
    home, url = f"{root}{folder}/", f"{root}{folder}/{name}"
    done, pages, failed, aliases = crawl(root, folder, tmp_path)
    ended_cleanly(done)
    assert f"could not fetch {url}: " in done.stderr and f"(recorded as failed: {status})" in done.stderr
    assert f"'skeleton/failed_pages/{status}': 1" in done.stderr

    # in Redis: the page's record, with its status, under the URL last requested;
    # the URLs that redirected to it are its aliases
    assert failed == {url: status}
    assert pages[url]["reason"] == "failed" and pages[url]["status"] == status
    assert pages[url]["found_from"] == home and pages[url]["nav_links"] == []
    assert aliases == {f"{root}{folder}/{alias}": final for alias, final in
                       zip(alias_names, [*(f"{root}{folder}/{n}" for n in alias_names[1:]), url])}
    assert set(pages) == {home, url}
    fed = {json.loads(line)["url"]: json.loads(line) for line in
           (tmp_path / "pages.jsonl").read_text("utf-8").splitlines()}
    assert fed[url]["reason"] == "failed" and fed[url]["status"] == status

    # scrapy status counts it, by status
    done = run_scrapy(["status", "--crawl", folder, "--json"], tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    summary = json.loads(done.stdout)
    assert summary["failed_pages"] == 1 and summary["failed_by_status"] == {status: 1}
    done = run_scrapy(["status", "--crawl", folder], tmp_path)
    assert f"failed pages:  1 ({status}: 1)" in done.stdout

    # scrapy tree: a broken leaf under the page that linked it (or one of its aliases)
    nodes = tree_nodes(tmp_path, folder)
    assert set(nodes) == {home, url}
    assert nodes[url]["broken"] is True and nodes[url]["status"] == status
    assert nodes[url]["parent"] == home and nodes[url]["children"] == []
    done = run_scrapy(["tree", "--crawl", folder, "--format", "text"], tmp_path)
    assert f"  (untitled) <{url}> [failed {status}]" in done.stdout.splitlines()


def test_a_meta_refresh_to_the_page_itself_is_a_page(serve, tmp_path: Path) -> None:
    """A page reloading itself is no redirect loop: it is analysed as a page."""
    root = serve(handler=Site)
    done, pages, failed, _ = crawl(root, "refresh", tmp_path)
    ended_cleanly(done)
    url = f"{root}refresh/page.html"
    assert failed == {} and pages[url]["title"] == "Reloading" and pages[url]["reason"] is None
    assert set(tree_nodes(tmp_path, "refresh")) == {f"{root}refresh/", url}


def test_a_drop_after_the_response_is_recorded_a_page_robots_txt_disallows_is_not(serve, tmp_path: Path) -> None:
    """Any ``IgnoreRequest`` after the response came (here a middleware's) records
    the page as failed, ``ignored``; robots.txt disallowing a page stops it before it
    is requested: it is no page (as before), only counted by Scrapy."""
    (tmp_path / "dropper.py").write_text(DROPPER)
    (tmp_path / "dropper_settings.py").write_text(DROPPER_SETTINGS)
    root = serve(handler=Site)
    home = f"{root}robots/"
    done, pages, failed, _ = crawl(root, "robots", tmp_path, SCRAPY_SETTINGS_MODULE="dropper_settings",
                                   PYTHONPATH=os.pathsep.join([str(ROOT), str(tmp_path)]))
    ended_cleanly(done)
    assert "'skeleton.middlewares.scope.ScopedRedirectMiddleware'" in done.stderr  # the project's, and
    assert "'dropper.Dropper'" in done.stderr  # the test's
    assert "'robotstxt/forbidden': 1" in done.stderr
    assert failed == {f"{home}dropped.html": "ignored"}
    assert set(pages) == {home, f"{home}dropped.html", f"{home}ok.html"}
    nodes = tree_nodes(tmp_path, "robots")
    assert nodes[f"{home}dropped.html"]["broken"] is True and nodes[f"{home}dropped.html"]["status"] == "ignored"
    assert f"{home}private.html" not in nodes


def test_a_redirect_loop_whose_two_ends_are_linked_is_recorded(serve, tmp_path: Path) -> None:
    """``/loop2/`` links both ``a`` and ``b``; ``a`` redirects to ``b`` and ``b`` to
    ``a``: each redirect lands on a URL the dupefilter has seen. The redirect that
    closes the loop (whichever comes second) is given up as ``redirect_loop``: its
    page is a failed page, the other URL its alias (a redirect followed); neither
    vanishes."""
    root = serve(handler=Site)
    home = f"{root}loop2/"
    done, pages, failed, aliases = crawl(root, "loop2", tmp_path)
    ended_cleanly(done)
    ends = {f"{home}a", f"{home}b"}
    assert len(failed) == 1 and set(failed) < ends and set(failed.values()) == {"redirect_loop"}, (failed, aliases)
    [broken] = failed
    [other] = ends - {broken}
    assert aliases == {other: broken}
    assert set(pages) == {home, broken} and pages[broken]["status"] == "redirect_loop"
    assert "'skeleton/failed_pages/redirect_loop': 1" in done.stderr
    fed = {json.loads(line)["url"]: json.loads(line) for line in
           (tmp_path / "pages.jsonl").read_text("utf-8").splitlines()}
    assert fed[broken]["reason"] == "failed" and fed[broken]["status"] == "redirect_loop"

    summary = json.loads(run_scrapy(["status", "--crawl", "loop2", "--json"], tmp_path).stdout)
    assert summary["failed_pages"] == 1 and summary["failed_by_status"] == {"redirect_loop": 1}
    nodes = tree_nodes(tmp_path, "loop2")
    assert set(nodes) == {home, broken} and nodes[broken]["broken"] is True
    assert nodes[broken]["status"] == "redirect_loop" and nodes[broken]["parent"] == home
    done = run_scrapy(["tree", "--crawl", "loop2", "--format", "text"], tmp_path)
    assert f"  (untitled) <{broken}> [failed redirect_loop]" in done.stdout.splitlines()
