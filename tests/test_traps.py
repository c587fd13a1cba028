"""Spider traps end: endless /a/a/a/... paths and endless calendar "next" links.

The crawls run in-process (pytest-twisted, asyncio reactor) so that their stats
can be read; the site is generated on demand by ``helpers.TrapHandler``.
"""
from __future__ import annotations

import http.server

import pytest_twisted
from helpers import TrapHandler, crawl_in_process, project_settings


@pytest_twisted.inlineCallbacks
def test_traps_end_with_a_page_budget(serve, redis_settings) -> None:
    base = serve(handler=TrapHandler)
    stats, items = yield crawl_in_process(project_settings(redis_settings), base=base, mode="bfs",
                                   max_pages="30", crawl="traps-budget")
    urls = [item["url"] for item in items]
    assert stats["finish_reason"] == "max_pages"
    assert len(urls) == 30 == stats["skeleton/pages"]
    assert base + "a/a/" in urls and not any("a/a/a/" in u for u in urls)
    assert stats["skeleton/trap/repeated_segment"] >= 1
    assert stats["skeleton/max_pages/reached"] == 30


@pytest_twisted.inlineCallbacks
def test_traps_end_with_a_depth_limit(serve, redis_settings) -> None:
    base = serve(handler=TrapHandler)
    stats, items = yield crawl_in_process(project_settings(redis_settings), base=base, mode="bfs",
                                   depth="4", crawl="traps-depth")
    assert stats["finish_reason"] == "finished"
    assert max(item["found_depth"] for item in items) == 4
    months = sorted(int(i["url"].rsplit("=", 1)[1]) for i in items if "month=" in i["url"])
    assert months == list(range(-3, 4))
    assert not any("a/a/a/" in item["url"] for item in items)


class RedirectLoopHandler(http.server.BaseHTTPRequestHandler):
    """``/`` links to ``/loop1``, which redirects to ``/loop2``, which redirects back,
    and to ``/ok.html``, a plain page."""

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        if self.path in ("/loop1", "/loop2"):
            self.send_response(302)
            self.send_header("Location", "/loop2" if self.path == "/loop1" else "/loop1")
            self.end_headers()
            return
        body = b"<html><body><a href='/loop1'>Loop</a> <a href='/ok.html'>Ok</a></body></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest_twisted.inlineCallbacks
def test_redirect_loops_end_at_once_and_are_recorded(serve, redis_settings) -> None:
    base = serve(handler=RedirectLoopHandler)
    stats, items = yield crawl_in_process(project_settings(redis_settings), base=base, mode="bfs",
                                          crawl="redirect-loop")
    assert stats["finish_reason"] == "finished"
    assert sorted(item["url"] for item in items if item["reason"] != "failed") == [base, base + "ok.html"]
    # the loop is seen when /loop2 redirects back to /loop1: recorded under /loop2 (issue 29, item 6)
    assert [(item["url"], item["status"]) for item in items if item["reason"] == "failed"] == \
        [(base + "loop2", "redirect_loop")]
    assert stats["downloader/response_status_count/302"] == 2
