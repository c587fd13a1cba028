"""End to end through the real spider and Redis: the tree does not depend on the
order pages arrive in, and every export gives the same parent and depth."""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from helpers import FAST, run_scrapy

SITES = Path(__file__).resolve().parent / "sites"
#: a shop whose home page lists bestsellers (a shortcut to products that their
#: sub-category files) beside a mega-menu: pages offered by several parents
SITE = SITES / "shop_megamenu"


def crawl(base: str, cwd: Path, *settings: str) -> None:
    cwd.mkdir(parents=True, exist_ok=True)
    done = run_scrapy(["crawl", "skeleton", "-a", f"base={base}index.html", "-O", "pages.jsonl",
                       *FAST, *settings], cwd)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "'finish_reason': 'finished'" in done.stderr, done.stderr[-3000:]


def tree_output(cwd: Path, fmt: str) -> str:
    done = run_scrapy(["tree", "--format", fmt], cwd)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def parents_of(tree: dict) -> dict[str, tuple[str, int]]:
    out, stack = {}, [tree]
    while stack:
        node = stack.pop()
        for child in node["children"]:
            out[child["url"]] = (node["url"], child["depth"])
            stack.append(child)
    return out


def test_concurrency_does_not_change_the_tree_and_exports_agree(serve, tmp_path: Path) -> None:
    base = serve(SITE)
    outputs = {}
    for concurrency in (1, 8, 32):
        cwd = tmp_path / f"c{concurrency}"
        crawl(base, cwd, "-s", f"CONCURRENT_REQUESTS={concurrency}",
              "-s", f"CONCURRENT_REQUESTS_PER_DOMAIN={concurrency}")
        outputs[concurrency] = tree_output(cwd, "json")
    assert outputs[1] == outputs[8] == outputs[32]

    cwd = tmp_path / "c8"
    tree = json.loads(outputs[8])
    parents = parents_of(tree)
    assert len(parents) > 50
    # several pages were offered by more than one parent: the choice was real
    items = [json.loads(line) for line in (cwd / "pages.jsonl").read_text("utf-8").splitlines()]
    offered: dict[str, set[str]] = {}
    for item in items:
        for link in item["nav_links"]:
            offered.setdefault(link["url"], set()).add(item["url"])
    assert sum(len(v) > 1 for v in offered.values()) > 10
    # the feed gives every node the tree's parent and depth (written in once the tree is
    # resolved); pages that are no node keep null
    assert all("offers" not in item for item in items)
    assert {item["url"]: (item["parent"], item["depth"]) for item in items if item["parent"]} == parents
    assert [item["depth"] for item in items if item["url"] == tree["url"]] == [0]
    assert {item["url"] for item in items} >= set(parents)
    # CSV and text agree with the JSON tree on every page's parent and depth
    rows = list(csv.DictReader(io.StringIO(tree_output(cwd, "csv"))))
    assert {r["url"]: (r["parent"], int(r["depth"])) for r in rows if r["parent"]} == parents
    text = tree_output(cwd, "text").splitlines()
    assert len(text) == len(rows) == len(parents) + 1
    depth_of = {u: d for u, (_, d) in parents.items()}
    for line in text[1:]:
        url = line[line.rindex("<") + 1:-1]
        assert (len(line) - len(line.lstrip(" "))) // 2 == depth_of[url]
    # scrapy evaluate scores the same tree: against itself as the truth, a perfect score
    truth = {"root": tree["url"], "edges": [[p, c] for c, (p, _) in sorted(parents.items())]}
    (cwd / "truth.json").write_text(json.dumps(truth))
    done = run_scrapy(["evaluate", "--truth", "truth.json", "--json"], cwd)
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout)["edges"]["all"]["f1"] == 1.0


def test_pagination_and_views_are_no_nodes_in_a_crawled_blog(serve, tmp_path: Path) -> None:
    """The blog fixture's home page runs over ``/page/2/`` and ``/page/3/``: they are
    fetched and recorded, but no node of ``scrapy tree``; the pages they list hang
    from a node that is not a pagination page."""
    base = serve(SITES / "blog")
    cwd = tmp_path / "blog"
    crawl(base, cwd, "-s", "FEED_EXPORT_FIELDS=url,evidence")  # evidence: not in the feed by default
    items = [json.loads(line) for line in (cwd / "pages.jsonl").read_text("utf-8").splitlines()]
    fetched = {item["url"] for item in items}
    paged = {base + "page/2/", base + "page/3/"}
    assert paged <= fetched
    assert any(item.get("evidence", {}).get("pager") for item in items if item["url"] in paged)
    parents = parents_of(json.loads(tree_output(cwd, "json")))
    assert not paged & set(parents)
    assert not paged & {parent for parent, _ in parents.values()}
    rows = list(csv.DictReader(io.StringIO(tree_output(cwd, "csv"))))
    assert not paged & {row["url"] for row in rows}
