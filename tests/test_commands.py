"""``scrapy train`` and ``scrapy evaluate`` end to end on a labelled fixture site."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import FAST, ROOT, run_scrapy

SITES = ROOT / "tests" / "sites"
TRUTH_BASE = "http://127.0.0.1:8000/"


def truth_on(base: str, tmp_path: Path, name: str) -> Path:
    """The site's truth file with its URLs moved to ``base`` (the test server)."""
    text = (SITES / f"{name}.truth.json").read_text("utf-8").replace(TRUTH_BASE, base)
    path = tmp_path / f"{name}.truth.json"
    path.write_text(text, "utf-8")
    return path


def evaluate(tmp_path: Path, truth: Path, crawl: str) -> dict:
    done = run_scrapy(["evaluate", "--truth", str(truth), "--crawl", crawl, "--json"], tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def test_train_crawl_and_evaluate_beat_the_breadth_first_tree(serve, tmp_path: Path) -> None:
    name = "docs_sidebar"
    model = tmp_path / "model.json"
    done = run_scrapy(["train", "--site", str(SITES / f"{name}.truth.json"), str(SITES / name),
                       "-o", str(model)], tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    params = json.loads(model.read_text("utf-8"))
    assert 0.0 <= params["tau"] <= 1.0 and params["meta"]["trained_on"] == [name]

    base = serve(SITES / name)
    truth = truth_on(base, tmp_path, name)
    for mode, extra in (("sew", ["-a", f"model={model}"]), ("bfs", [])):
        done = run_scrapy(["crawl", "skeleton", "-a", f"base={base}index.html", "-a", f"mode={mode}",
                           "-a", f"crawl=docs-{mode}", *extra, *FAST], tmp_path)
        assert done.returncode == 0, done.stderr[-3000:]
    sew, bfs = evaluate(tmp_path, truth, "docs-sew"), evaluate(tmp_path, truth, "docs-bfs")
    assert sew["edges"]["all"]["f1"] > bfs["edges"]["all"]["f1"]
    assert sew["edges"]["1"]["f1"] > bfs["edges"]["1"]["f1"]
    assert sew["pages_fetched"] <= bfs["pages_fetched"]


def test_evaluate_a_tree_file(tmp_path: Path) -> None:
    truth = tmp_path / "truth.json"
    root = "http://h/index.html"
    truth.write_text(json.dumps({"root": root, "edges": [
        [root, "http://h/a.html"], [root, "http://h/b/"], ["http://h/b/", "http://h/b/c.html"]],
        "meta": {"not_in_tree": ["http://h/search.html"]}}))
    tree = {"url": root, "children": [
        {"url": "http://h/a.html", "children": [{"url": "http://h/b/c.html", "children": []}]},
        {"url": "http://h/b/index.html", "children": []},
        {"url": "http://h/search.html", "children": []}]}
    (tmp_path / "tree.json").write_text(json.dumps(tree))
    done = run_scrapy(["evaluate", "--truth", str(truth), "--tree", "tree.json", "--json"], tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    scores = json.loads(done.stdout)
    # found edges a, b (dir/ == dir/index.html), a->c (wrong parent); search is ignored
    assert scores["edges"]["all"] == {"precision": 0.6667, "recall": 0.6667, "f1": 0.6667,
                                      "found": 3, "true": 3}
    assert scores["edges"]["1"]["f1"] == 1.0
    assert scores["pages"]["all"]["f1"] == 1.0


def test_evaluate_rebases_a_truth_served_elsewhere_reads_feeds_and_warns(tmp_path: Path) -> None:
    truth = tmp_path / "truth.json"
    root = "http://127.0.0.1:8000/index.html"
    truth.write_text(json.dumps({"root": root, "edges": [[root, "http://127.0.0.1:8000/a.html"]]}))
    tree = {"url": "http://127.0.0.1:9/index.html", "children": [
        {"url": "http://127.0.0.1:9/a.html", "children": []}]}
    (tmp_path / "tree.json").write_text(json.dumps(tree))
    done = run_scrapy(["evaluate", "--truth", str(truth), "--tree", "tree.json", "--json"], tmp_path)
    assert done.returncode == 0 and json.loads(done.stdout)["edges"]["all"]["f1"] == 1.0
    assert "compared as on http://127.0.0.1:9" in done.stderr
    feed = [{"url": "http://127.0.0.1:9/index.html", "found_from": None},
            {"url": "http://127.0.0.1:9/a.html", "found_from": "http://127.0.0.1:9/index.html"}]
    (tmp_path / "pages.jsonl").write_text("\n".join(json.dumps(item) for item in feed) + "\n")
    done = run_scrapy(["evaluate", "--truth", str(truth), "--tree", "pages.jsonl", "--json"], tmp_path)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert json.loads(done.stdout)["edges"]["all"]["f1"] == 1.0 and "is a feed of pages" in done.stderr
    (tmp_path / "other.json").write_text(json.dumps({"url": "http://127.0.0.1:9/x/", "children": []}))
    done = run_scrapy(["evaluate", "--truth", str(truth), "--tree", "other.json"], tmp_path)
    assert done.returncode == 0 and "warning: no page of the truth is in the crawled tree" in done.stderr
    (tmp_path / "junk.txt").write_text("not json")
    done = run_scrapy(["evaluate", "--truth", str(truth), "--tree", "junk.txt"], tmp_path)
    assert done.returncode == 2 and "neither a tree from 'scrapy tree' nor a feed" in done.stderr


def test_train_and_evaluate_errors(tmp_path: Path) -> None:
    done = run_scrapy(["train", "-o", "m.json"], tmp_path)
    assert done.returncode == 2 and "--site" in done.stderr
    done = run_scrapy(["evaluate", "--truth", "missing.json", "--tree", "t.json"], tmp_path)
    assert done.returncode == 2 and "cannot read truth" in done.stderr


@pytest.mark.parametrize("args", [["tree"], ["status"], ["entropy"], ["informative"],
                                  ["schema", "-o", "s.graphml"], ["diff", "a", "b"],
                                  ["evaluate", "--truth", "t.json", "--crawl", "c"]])
def test_commands_with_an_unreachable_redis_say_so_in_one_line(tmp_path: Path, args) -> None:
    (tmp_path / "t.json").write_text('{"root": "http://h/", "edges": []}')
    done = run_scrapy(args, tmp_path, REDIS_URL="redis://127.0.0.1:1/0")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert "error: cannot reach Redis at redis://127.0.0.1:1/0" in done.stderr
