"""Pages that fail for good (issue 13): recorded in Redis with their status, broken
leaves of ``scrapy tree``, counted by ``scrapy status``; a later success replaces
the failed record."""
from __future__ import annotations

import functools
import json
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from scrapy.signalmanager import SignalManager

from helpers import FAST, FIXTURES, SiteHandler, run_scrapy

from skeleton.crawl_settings import SETTING, CrawlSettings
from skeleton.hierarchy.resolve import FAILED_REASON
from skeleton.items import PageItem
from skeleton.store.scheduler import flush_requested
from skeleton.pipelines.tree import TreePipeline, page_stored
from skeleton.store.keys import CrawlKeys
from skeleton.store.server import connect
from skeleton.store.tree import load_hash
from skeleton.exports.html import to_html
from skeleton.exports.outline import render_text
from skeleton.tree import not_found_report

SITE = FIXTURES / "tinysite"
#: the tiny site's news section answers 500 to every request, one guide 404, and
#: the about page never answers (longer than the crawl's DOWNLOAD_TIMEOUT)
ALWAYS_500 = {"/news/", "/news/index.html"}
NOT_FOUND = {"/guides/g2.html"}
HANGS = {"/about.html"}
HANG_SECONDS = 2.5
FAULT_SETTINGS = ["-s", "DOWNLOAD_TIMEOUT=1", "-s", "RETRY_TIMES=1"]


class FaultyHandler(SiteHandler):
    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        if path in ALWAYS_500:
            self.send_error(500, "Internal Server Error")
        elif path in NOT_FOUND:
            self.send_error(404, "Not Found")
        elif path in HANGS:
            time.sleep(HANG_SECONDS)  # the crawler has given up: close without an answer
        else:
            super().do_GET()


def _nodes(tree: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """URL -> node of a nested tree, with its parent's URL as ``parent``."""
    out: dict[str, dict[str, Any]] = {}
    stack = [(tree, None)]
    while stack:
        node, parent = stack.pop()
        out[node["url"]] = {**node, "parent": parent}
        stack.extend((child, node["url"]) for child in node.get("children", []))
    return out


def test_pages_failing_for_good_are_broken_leaves_in_redis_tree_and_status(serve, tmp_path: Path) -> None:
    base = serve(handler=functools.partial(FaultyHandler, directory=str(SITE)))
    done = run_scrapy(["crawl", "skeleton", "-a", f"base={base}index.html", "-a", "crawl=faulty",
                       "-O", "pages.jsonl", *FAST, *FAULT_SETTINGS], tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "'finish_reason': 'finished'" in done.stderr and "Traceback" not in done.stderr
    assert "'skeleton/failed_pages': 3" in done.stderr
    assert f"could not fetch {base}guides/g2.html" in done.stderr
    failed = {base + "news/": "500", base + "guides/g2.html": "404", base + "about.html": "timeout"}

    # in Redis: a page record with reason and status, and the :failed index
    client = connect({"SKELETON_DATA_DIR": str(tmp_path / ".skeleton-data")})
    try:
        keys = CrawlKeys("faulty")
        pages = load_hash(client, keys.pages)
        index = {k.decode(): v.decode() for k, v in client.hgetall(keys.failed).items()}
    finally:
        client.close()
    assert index == failed
    for url, status in failed.items():
        assert pages[url]["reason"] == FAILED_REASON and pages[url]["status"] == status
        assert pages[url]["nav_links"] == [] and pages[url]["found_from"]
    assert pages[base + "guides/g2.html"]["found_from"] == base + "guides/"
    fed = {json.loads(line)["url"]: json.loads(line) for line in
           (tmp_path / "pages.jsonl").read_text("utf-8").splitlines()}
    assert {url: fed[url]["status"] for url in failed} == failed

    # scrapy tree: broken leaves under the page that offered them; nothing fetched is lost;
    # the URL the site answered Not Found is a broken link, no node, listed with its page
    gone = base + "guides/g2.html"
    done = run_scrapy(["tree", "--crawl", "faulty"], tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    tree = json.loads(done.stdout)
    nodes = _nodes(tree)
    assert set(nodes) == set(pages) - {gone}  # every other recorded page, fetched or failed, is a node
    assert tree["not_found"] == [{"url": gone, "status": "404", "linked_from": base + "guides/"}]
    for url, status in failed.items():
        if url == gone:
            continue
        assert nodes[url]["broken"] is True and nodes[url]["status"] == status
        offerers = {base, pages[url]["found_from"]}
        assert nodes[url]["parent"] in offerers
    assert nodes[base + "about.html"]["children"] == []
    assert not any(n.get("broken") for url, n in nodes.items() if url not in failed)
    assert nodes[base + "news/"]["parent"] == base  # a section failing: its pages are never fetched
    done = run_scrapy(["tree", "--crawl", "faulty", "--format", "text"], tmp_path)
    lines = done.stdout.splitlines()
    assert f"  (untitled) <{base}about.html> [failed timeout]" in lines
    assert sum("[failed " in line for line in lines) == 2
    assert lines[-1] == f"not found 404 <{gone}> linked from <{base}guides/>"
    done = run_scrapy(["tree", "--crawl", "faulty", "-o", "tree.csv"], tmp_path)
    rows = (tmp_path / "tree.csv").read_text("utf-8").splitlines()
    assert rows[0].endswith(",status") and not any(row.startswith(gone + ",") for row in rows)
    assert any(row.startswith(base + "news/,") and row.endswith(",500") for row in rows)
    done = run_scrapy(["tree", "--crawl", "faulty", "-o", "tree.html"], tmp_path)
    page = (tmp_path / "tree.html").read_text("utf-8")
    assert '<section id="not-found">' in page and f'<a href="{gone}">' in page

    # scrapy status: the count, by status
    done = run_scrapy(["status", "--crawl", "faulty", "--json"], tmp_path)
    status = json.loads(done.stdout)
    assert status["failed_pages"] == 3 and all(" " not in key for key in status)
    assert all(isinstance(status[key], int) for key in ("pages_done", "queued", "in_flight", "workers_alive",
                                                          "offered_pages", "dupefilter_size", "dead_letters"))
    assert status["failed_by_status"] == {"404": 1, "500": 1, "timeout": 1}
    assert status["pages_done"] == len(pages)
    done = run_scrapy(["status", "--crawl", "faulty"], tmp_path)
    assert "failed pages:  3 (404: 1, 500: 1, timeout: 1)" in done.stdout


def _item(url: str, **fields: Any) -> PageItem:
    item = PageItem(url=url, found_from=ROOT, found_depth=1, title="", is_navigation=False,
                    nav_links=[], confidence=0.0, candidates=0, reason=None, nav_blocks=[],
                    evidence={}, offers={}, lang="", aliases=[])
    item.update(fields)
    return item


ROOT = "http://s/"


def test_a_later_success_replaces_a_failed_record_never_the_reverse(redis_client, redis_settings) -> None:
    settings = {**redis_settings, SETTING: CrawlSettings(ROOT, "test-failed-replaced")}
    signals, stored = SignalManager(), []

    def on_stored(fetched: int) -> None:  # the crawl's count of pages analysed, per page
        stored.append(fetched)

    signals.connect(on_stored, signal=page_stored)
    pipeline = TreePipeline(SimpleNamespace(settings=settings, signals=signals),
                            redis_client)
    keys = pipeline.keys
    redis_client.delete(*keys.all())
    page, other = ROOT + "a", ROOT + "b"

    def records() -> tuple[dict[str, Any], dict[bytes, bytes], int]:
        signals.send_catch_log(flush_requested)  # the scheduler, before it acks leases
        return (load_hash(redis_client, keys.pages), redis_client.hgetall(keys.failed),
                int(redis_client.hget(keys.meta, "fetched") or 0))

    pipeline.process_item(_item(page, reason=FAILED_REASON, status="503"))
    assert redis_client.hlen(keys.pages) == 0  # items wait for the scheduler's flush
    pages, failed, fetched = records()
    assert pages[page]["status"] == "503" and failed == {page.encode(): b"503"} and fetched == 0
    pipeline.process_item(_item(page, reason=FAILED_REASON, status="timeout"))  # failed again
    assert records()[1] == {page.encode(): b"timeout"}
    pipeline.process_item(_item(page, title="A"))  # another worker, or a resumed crawl, fetches it
    pages, failed, fetched = records()
    assert pages[page]["title"] == "A" and pages[page]["reason"] is None and failed == {} and fetched == 1
    pipeline.process_item(_item(page, reason=FAILED_REASON, status="500"))  # a later failure
    pages, failed, _ = records()
    assert pages[page]["title"] == "A" and failed == {}
    # a record a canonical link names replaces a failed one too
    pipeline.process_item(_item(other, reason=FAILED_REASON, status="404"))
    records()
    pipeline.process_item(_item(other, title="B", aliases=[ROOT + "b.amp"]))
    pages, failed, _ = records()
    assert pages[other]["title"] == "B" and failed == {}
    assert stored == [1, 2]  # sent for the pages analysed, never for a failed one
    redis_client.delete(*keys.all())


def test_broken_nodes_are_not_scored_as_pages_of_the_site() -> None:
    """A broken link shown in the tree is no page of the site's skeleton: scrapy
    evaluate scores neither it nor the edges to and from it."""
    from skeleton.commands.evaluate import tree_edges

    tree = {"url": "http://s/", "children": [
        {"url": "http://s/a.html", "children": []},
        {"url": "http://s/gone/", "broken": True, "status": "404", "children": [
            {"url": "http://s/gone/b.html", "children": [{"url": "http://s/gone/b/c.html", "children": []}]}]}]}
    root, edges, nodes = tree_edges(tree)
    assert nodes == 4  # the broken one is not counted
    assert sorted(edges) == sorted([(root, "http://s/a.html"), ("http://s/gone/b.html", "http://s/gone/b/c.html")])


def test_the_not_found_report_lists_broken_links_only() -> None:
    """Only failed records answered 404 or 410 are broken links, sorted by URL, each with
    the page whose link found it ("" when the record names none or no string)."""
    pages = {"http://s/b": {"reason": FAILED_REASON, "status": "410", "found_from": "http://s/"},
             "http://s/a": {"reason": FAILED_REASON, "status": "404", "found_from": ["x"]},
             "http://s/c": {"reason": FAILED_REASON, "status": "500", "found_from": "http://s/"},
             "http://s/d": {"reason": None, "status": "404"}, "http://s/e": "not a record"}
    assert not_found_report(pages) == [{"url": "http://s/a", "status": "404", "linked_from": ""},
                                       {"url": "http://s/b", "status": "410", "linked_from": "http://s/"}]
    outline = render_text({"url": "http://s/", "title": "S", "children": [], "not_found": not_found_report(pages)})
    assert outline.splitlines()[1:] == ["not found 404 <http://s/a> linked from <>",
                                        "not found 410 <http://s/b> linked from <http://s/>"]


def test_the_html_page_lists_broken_links_escaped() -> None:
    """The viewer's ``#not-found`` section lists each broken link with the page linking
    it, escaped; a tree without broken links has no section."""
    tree = {"url": "http://s/", "title": "S", "depth": 0, "children": [],
            "not_found": [{"url": "http://s/<b>", "status": "404", "linked_from": ""},
                          {"url": "http://s/c", "status": "410", "linked_from": "http://s/"}, "junk"]}
    page = to_html(tree, "c1")
    assert '<section id="not-found">' in page and "2 URLs the site answered Not Found" in page
    assert '<a href="http://s/&lt;b&gt;">' in page and "<b>" not in page.split('id="not-found"')[1].split("</section>")[0]
    assert 'linked from <a href="http://s/">' in page and "linked from an unknown page" in page
    assert 'id="not-found"' not in to_html({**tree, "not_found": []}, "c1")
