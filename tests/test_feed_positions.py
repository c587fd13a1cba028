"""The tree's parent and depth written into feed files (JSON lines, JSON, CSV)."""
from __future__ import annotations

import csv
import json
from pathlib import Path

from skeleton.exports.feed import fill_feed, tree_positions

ROOT = "http://h/"
EDGES = {"http://h/a/": {"parent": ROOT, "depth": 1}, "http://h/a/1.html": {"parent": "http://h/a/", "depth": 2}}
ITEMS = [{"url": ROOT, "parent": None, "depth": None, "title": "Home"},
         {"url": "http://h/a/", "parent": None, "depth": None, "title": 'A, "quoted"'},
         {"url": "http://h/a/1.html", "parent": None, "depth": None, "title": "Été"},
         {"url": "http://h/page/2/", "parent": None, "depth": None, "title": "no node"}]
WANTED = {ROOT: (None, 0), "http://h/a/": (ROOT, 1), "http://h/a/1.html": ("http://h/a/", 2),
          "http://h/page/2/": (None, None)}


def test_json_lines_and_json_feeds_get_the_tree_positions(tmp_path: Path) -> None:
    positions = tree_positions(ROOT, EDGES)
    lines = tmp_path / "pages.jsonl"
    lines.write_text("".join(json.dumps(item) + "\n" for item in ITEMS), "utf-8")
    assert fill_feed(lines, "jsonlines", positions) == 3
    got = [json.loads(line) for line in lines.read_text("utf-8").splitlines()]
    assert {i["url"]: (i["parent"], i["depth"]) for i in got} == WANTED
    assert [list(i) for i in got] == [list(i) for i in ITEMS]  # the fields keep their order
    listed = tmp_path / "pages.json"
    listed.write_text(json.dumps(ITEMS), "utf-8")
    assert fill_feed(listed, "json", positions) == 3
    assert {i["url"]: (i["parent"], i["depth"]) for i in json.loads(listed.read_text("utf-8"))} == WANTED


def test_a_csv_feed_gets_the_tree_positions(tmp_path: Path) -> None:
    path = tmp_path / "pages.csv"
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(ITEMS[0]))
        writer.writeheader()
        writer.writerows({k: ("" if v is None else v) for k, v in item.items()} for item in ITEMS)
    assert fill_feed(path, "csv", tree_positions(ROOT, EDGES)) == 3
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert {r["url"]: (r["parent"] or None, int(r["depth"]) if r["depth"] else None) for r in rows} == WANTED
    assert rows[1]["title"] == 'A, "quoted"' and rows[2]["title"] == "Été"
