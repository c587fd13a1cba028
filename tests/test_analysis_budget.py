"""The per-page analysis budget (issue 29, item 1; skeleton.budget).

A page whose analysis takes longer than ``SKELETON_ANALYSIS_BUDGET`` is cut and
recorded as a broken leaf, ``reason`` ``failed`` and ``status``
``analysis_budget``: in Redis, the feed, ``scrapy status`` and every export of
``scrapy tree``. The deadline is checked between the analysis' steps and inside
its loops over links and candidate sets: on pure functions with a clock that
ticks once per read, the cut comes at the first check past the budget, however
many links are left. A shutdown signal stops the analysis the same way
(tests/test_shutdown.py for a crawl)."""
from __future__ import annotations

import csv
import io
import json
import os
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers import FAST, run_scrapy
from lxml import html as lxml_html

from skeleton.budget import BudgetSpent, Deadline, ShutdownPending, ShutdownWatch, checkpoint, within
from skeleton.hierarchy.evidence import page_evidence
from skeleton.sew.detect import NavLink, detect_navigation
from skeleton.sew.edges import followed_links
from skeleton.sew.links import extract_links
from skeleton.sew.model import load_model
from skeleton.store.keys import CrawlKeys
from skeleton.store.server import connect
from skeleton.store.tree import load_hash
from skeleton.urlrules.links import link_skip_reasons

PAGE = "http://127.0.0.1:8000/site/index.html"
#: links on the page of the loop tests; the budgets are far below
LINKS = 2_000


class Ticks:
    """A clock that reads 1, 2, 3... : one tick per check of the deadline."""

    def __init__(self) -> None:
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        return float(self.reads)


def many_links(n: int = LINKS) -> Any:
    items = "".join(f'<li><a href="/site/p{i}.html">Page {i}</a></li>' for i in range(n))
    return lxml_html.fromstring(f"<html><head><title>Links</title></head><body><ul>{items}</ul></body></html>")


def test_a_deadline_is_spent_at_its_budget_and_never_without_one() -> None:
    clock = Ticks()
    deadline = Deadline(3.0, 0.0, clock=clock)
    deadline.check()
    deadline.check()
    with pytest.raises(BudgetSpent) as cut:
        deadline.check()
    assert cut.value.seconds == 3.0 and cut.value.budget == 3.0
    unbounded = Deadline(0.0, 0.0, clock=Ticks())
    for _ in range(10_000):
        unbounded.check()
    assert unbounded.until is None and deadline.until == 3.0


def test_a_pending_shutdown_stops_before_the_budget_and_without_one() -> None:
    stop = [False]
    for budget in (0.0, 1e9):
        deadline = Deadline(budget, 0.0, stopping=lambda: stop[0], clock=Ticks())
        deadline.check()
        stop[0] = True
        with pytest.raises(ShutdownPending):
            deadline.check()
        stop[0] = False


def test_a_checkpoint_outside_an_analysis_does_nothing_inside_one_checks() -> None:
    checkpoint()  # the middlewares, the benchmarks and the training tools call the same functions
    spent = Deadline(1.0, 0.0, clock=lambda: 5.0)
    with pytest.raises(BudgetSpent):
        with within(spent):
            pass  # checked on entry
    with within(Deadline(10.0, 0.0, clock=lambda: 5.0)):
        checkpoint()
    checkpoint()  # the deadline is gone with its block


def cut_at(budget: int, run: Callable[[], Any]) -> int:
    """Run ``run`` under a deadline of ``budget`` ticks; the clock reads when it was cut."""
    clock = Ticks()
    with pytest.raises(BudgetSpent):
        with within(Deadline(float(budget), 0.0, clock=clock)):
            run()
    return clock.reads


@pytest.mark.parametrize("step", ["extract_links", "detection", "evidence", "link_skip_reasons",
                                  "followed_links"])
def test_a_step_is_cut_inside_its_loop_at_the_first_check_past_the_budget(step: str) -> None:
    """Each loop of the analysis checks the deadline once per link (or set): a
    budget of 50 checks stops a step over 2,000 links at the 50th check."""
    root = many_links()
    links = extract_links(root, PAGE)
    raw = [NavLink(link.url, link.sec_name, PAGE) for link in links]
    runs: dict[str, Callable[[], Any]] = {
        "extract_links": lambda: extract_links(root, PAGE),
        "detection": lambda: detect_navigation(root, PAGE, load_model(None)),
        "evidence": lambda: page_evidence(root, PAGE),
        "link_skip_reasons": lambda: link_skip_reasons(((link.url, link.text) for link in raw), root, PAGE, "en"),
        "followed_links": lambda: followed_links(raw, PAGE, lambda url: None),
    }
    assert cut_at(50, runs[step]) == 50


def test_a_shutdown_signal_sets_the_flag_and_calls_the_handler_in_place() -> None:
    calls: list[int] = []
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: calls.append(signum))
    watch = ShutdownWatch()
    try:
        watch.watch()
        watch.watch()  # once: not wrapped twice
        assert not watch()
        os.kill(os.getpid(), signal.SIGTERM)
        assert watch() and watch.requested and calls == [signal.SIGTERM]
        watch.unwatch()
        os.kill(os.getpid(), signal.SIGTERM)
        assert calls == [signal.SIGTERM, signal.SIGTERM]
        assert signal.getsignal(signal.SIGTERM) != watch._handle
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_a_default_handler_is_left_alone() -> None:
    previous = signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        ShutdownWatch().watch()
        assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
    finally:
        signal.signal(signal.SIGTERM, previous)


# -- through the real spider and Redis -------------------------------------------------

def write_site(folder: Path) -> None:
    folder.mkdir()
    (folder / "index.html").write_text(
        '<html><head><title>=Home</title></head><body><ul><li><a href="a.html">A</a></li>'
        '<li><a href="b.html">B</a></li><li><a href="c.html">C</a></li></ul></body></html>')
    for name in "abc":
        (folder / f"{name}.html").write_text(f"<html><head><title>{name}</title></head><body><p>{name}</p>"
                                             '<ul><li><a href="index.html">Home</a></li></ul></body></html>')


def crawl(root: str, cwd: Path, crawl_id: str, budget: str) -> tuple[Any, dict[str, Any], dict[str, str]]:
    done = run_scrapy(["crawl", "skeleton", "-a", f"base={root}", "-a", f"crawl={crawl_id}", "-O", f"{crawl_id}.jsonl",
                       *FAST, "-s", f"SKELETON_ANALYSIS_BUDGET={budget}"], cwd)
    client = connect({"SKELETON_DATA_DIR": str(cwd / ".skeleton-data")})
    try:
        keys = CrawlKeys(crawl_id)
        pages = load_hash(client, keys.pages)
        failed = {k.decode(): v.decode() for k, v in client.hgetall(keys.failed).items()}
    finally:
        client.close()
    return done, pages, failed


def test_a_page_over_the_analysis_budget_is_a_broken_leaf(serve, tmp_path: Path) -> None:
    write_site(tmp_path / "site")
    root = serve(tmp_path / "site")
    done, pages, failed = crawl(root, tmp_path, "cut", "0.000001")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "'finish_reason': 'finished'" in done.stderr
    assert "Traceback" not in done.stderr and " ERROR: " not in done.stderr, done.stderr[-3000:]
    assert f"analysis of {root} stopped after" in done.stderr
    assert "recorded as failed: analysis_budget" in done.stderr
    assert "'skeleton/failed_pages/analysis_budget': 1" in done.stderr

    # Redis and the feed: a failed page, no links followed (a, b, c never fetched)
    assert failed == {root: "analysis_budget"} and set(pages) == {root}
    assert pages[root]["reason"] == "failed" and pages[root]["nav_links"] == []
    fed = [json.loads(line) for line in (tmp_path / "cut.jsonl").read_text().splitlines()]
    assert [(item["url"], item["reason"], item["status"]) for item in fed] == [(root, "failed", "analysis_budget")]

    # scrapy status counts it; every export of scrapy tree shows it broken
    status = json.loads(run_scrapy(["status", "--crawl", "cut", "--json"], tmp_path).stdout)
    assert status["failed_pages"] == 1 and status["failed_by_status"] == {"analysis_budget": 1}
    tree = json.loads(run_scrapy(["tree", "--crawl", "cut"], tmp_path).stdout)
    assert tree["url"] == root and tree["broken"] is True and tree["status"] == "analysis_budget"
    text = run_scrapy(["tree", "--crawl", "cut", "--format", "text"], tmp_path).stdout
    assert text == f"(untitled) <{root}> [failed analysis_budget]\n"
    rows = list(csv.DictReader(io.StringIO(run_scrapy(["tree", "--crawl", "cut", "--format", "csv"], tmp_path).stdout)))
    assert [(row["url"], row["status"]) for row in rows] == [(root, "analysis_budget")]
    page = run_scrapy(["tree", "--crawl", "cut", "--format", "html"], tmp_path).stdout
    assert "analysis_budget" in page

    # a budget of 0 is none: the same site is crawled whole
    done, pages, failed = crawl(root, tmp_path, "whole", "0")
    assert done.returncode == 0 and failed == {}, done.stderr[-3000:]
    assert set(pages) == {root, *(f"{root}{name}.html" for name in "abc")}
