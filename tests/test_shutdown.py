"""SIGTERM and Ctrl-C stop a crawl whatever page is being analysed (issue 29, item 1).

Scrapy's handler of SIGTERM and SIGINT only schedules the shutdown on the reactor,
which is busy while a page is analysed; the analysis checks for a pending shutdown
(skeleton.budget) and stops, and the page it was analysing is not recorded nor
acknowledged: it stays queued, and the next run with the same crawl id analyses
it and finishes the tree.

Through ``scrapy crawl`` in a subprocess and the embedded Redis: the home page
links a huge page (about 110,000 links in lists nested five deep, analysed in
seconds: ``benchmarks/linear.py``) and a small one; the crawl runs without an
analysis budget and gets the signal right after the server sent the huge page.
How long the exit takes is measured by ``benchmarks/faults.py``, not here."""
from __future__ import annotations

import http.server
import itertools
import json
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from helpers import FAST, scrapy_env, run_scrapy

from skeleton.store.keys import CrawlKeys
from skeleton.store.server import connect
from skeleton.store.tree import load_hash

#: the lists' nesting depth: 10**5 leaves
DEPTH = 5
#: a hang guard only: the crawl ends by itself long before
HANG_GUARD = 120


def huge_page() -> bytes:
    count = itertools.count()

    def level(d: int) -> str:
        if d == DEPTH:
            return ""
        return "<ul>" + "".join(f'<li><a href="/p/{next(count)}.html">Entry {i}</a>{level(d + 1)}</li>'
                                for i in range(10)) + "</ul>"
    return f"<html><head><title>Huge</title></head><body><h1>Huge</h1>{level(0)}</body></html>".encode()


HUGE = huge_page()
HOME = (b'<html><head><title>Home</title></head><body><ul><li><a href="/huge.html">Huge</a></li>'
        b'<li><a href="/small.html">Small</a></li></ul></body></html>')


class Site(http.server.BaseHTTPRequestHandler):
    """``/`` links ``huge.html`` and ``small.html``; ``/p/N.html`` (the huge page's
    links) answer 404. ``served`` is set once the huge page is sent."""

    protocol_version = "HTTP/1.1"
    served = threading.Event()

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        bodies = {"/": HOME, "/huge.html": HUGE,
                  "/small.html": b"<html><head><title>Small</title></head><body><p>Small</p></body></html>"}
        body = bodies.get(self.path)
        self.send_response(200 if body else 404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body or b"")))
        self.end_headers()
        self.wfile.write(body or b"")
        if self.path == "/huge.html":
            self.wfile.flush()
            type(self).served.set()


def stored(cwd: Path, crawl_id: str) -> tuple[dict[str, Any], int, int]:
    """The page records, the requests queued and leased."""
    client = connect({"SKELETON_DATA_DIR": str(cwd / ".skeleton-data")})
    try:
        keys = CrawlKeys(crawl_id)
        return load_hash(client, keys.pages), int(client.llen(keys.requests)), int(client.hlen(keys.inflight))
    finally:
        client.close()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_during_a_long_analysis_stops_the_crawl_and_the_page_stays_queued(
        serve, tmp_path: Path, signum: int) -> None:
    Site.served = threading.Event()
    root = serve(handler=Site)
    args = [sys.executable, "-m", "scrapy", "crawl", "skeleton", "-a", f"base={root}", "-a", "crawl=stop",
            *FAST, "-s", "SKELETON_ANALYSIS_BUDGET=0", "-s", "CONCURRENT_REQUESTS=1"]
    process = subprocess.Popen(args, cwd=tmp_path, env=scrapy_env(), stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL)
    try:
        assert Site.served.wait(60), "the huge page was never requested"
        process.send_signal(signum)
        _, stderr = process.communicate(timeout=HANG_GUARD)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    name = signal.Signals(signum).name
    assert process.returncode == 0, stderr[-3000:]
    assert f"Received {name}, shutting down gracefully" in stderr
    assert "'finish_reason': 'shutdown'" in stderr
    assert "Traceback" not in stderr and " ERROR: " not in stderr, stderr[-3000:]
    # the huge page was not analysed to its end: not recorded, put back in the queue
    assert f"stopping: {root}huge.html left in the queue for the next run" in stderr, stderr[-3000:]
    pages, queued, leased = stored(tmp_path, "stop")
    assert f"{root}huge.html" not in pages and root in pages
    assert queued >= 1 and leased == 0

    # the next run resumes the crawl and finishes the tree
    done = run_scrapy(["crawl", "skeleton", "-a", f"base={root}", "-a", "crawl=stop", *FAST,
                       "-s", "SKELETON_ANALYSIS_BUDGET=0"], tmp_path)
    assert done.returncode == 0 and "'finish_reason': 'finished'" in done.stderr, done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    pages, queued, leased = stored(tmp_path, "stop")
    assert pages[f"{root}huge.html"]["title"] == "Huge" and pages[f"{root}huge.html"]["reason"] is None
    assert f"{root}small.html" in pages and queued == leased == 0
    tree = json.loads(run_scrapy(["tree", "--crawl", "stop"], tmp_path).stdout)
    assert {child["url"] for child in tree["children"]} >= {f"{root}huge.html", f"{root}small.html"}
