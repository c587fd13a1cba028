"""``scrapy diff``: the pure comparison of two skeletons, and end to end on two
crawls of a fixture site changed between them."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from helpers import FAST, FIXTURES, run_scrapy

from skeleton.diff import Move, Skeleton, diff_skeletons, render_diff, tree_parents

OLD = Skeleton(
    parents={"/": None, "/a": "/", "/b": "/", "/a/1": "/a", "/a/2": "/a", "/b/1": "/b"},
    navigation={"/": True, "/a": True, "/b": True, "/a/1": False, "/a/2": False, "/b/1": False},
)


def test_identical_skeletons_have_no_change() -> None:
    diff = diff_skeletons(OLD, Skeleton(dict(OLD.parents), dict(OLD.navigation)))
    assert not diff.changed
    assert render_diff(diff) == "no change in the skeleton\n"
    assert diff.as_dict() == {"added": [], "removed": [], "moved": [],
                              "navigation_to_content": [], "content_to_navigation": []}


def test_added_removed_moved_and_navigation_changes() -> None:
    new = Skeleton(
        parents={"/": None, "/a": "/", "/b": "/", "/a/1": "/b", "/b/1": "/b", "/c": "/",
                 "/c/1": "/c"},
        navigation={"/": True, "/a": False, "/b": True, "/a/1": True, "/b/1": False, "/c": True},
    )
    diff = diff_skeletons(OLD, new)
    assert diff.changed
    assert diff.added == ["/c", "/c/1"]
    assert diff.removed == ["/a/2"]
    assert diff.moved == [Move("/a/1", "/a", "/b")]
    assert diff.became_content == ["/a"]
    assert diff.became_navigation == ["/a/1"]
    assert render_diff(diff, new).splitlines() == [
        "added (2):", "  + /c (under /)", "  + /c/1 (under /c)",
        "removed (1):", "  - /a/2",
        "moved (1):", "  ~ /a/1: /a -> /b",
        "navigation -> content (1):", "  nav->content /a",
        "content -> navigation (1):", "  content->nav /a/1",
    ]
    assert diff.as_dict()["moved"] == [{"url": "/a/1", "old_parent": "/a", "new_parent": "/b"}]


def test_a_new_root_moves_nothing_but_changes_the_page_set() -> None:
    new = Skeleton(parents={"/en/": None, "/a": "/en/"}, navigation={})
    diff = diff_skeletons(OLD, new)
    assert diff.added == ["/en/"]
    assert diff.moved == [Move("/a", "/", "/en/")]
    assert "/" in diff.removed and "/a" not in diff.removed
    assert diff.became_content == ["/a"]


def test_tree_parents_flattens_a_nested_tree() -> None:
    tree = {"url": "r", "title": "", "children": [
        {"url": "x", "children": [{"url": "y", "children": []}]},
        {"url": "z", "children": [{"url": "y", "children": []}]},
    ]}
    assert tree_parents(tree) == {"r": None, "x": "r", "y": "x", "z": "r"}
    assert tree_parents(None) == {}


CONTACT = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Contact</title></head>
<body><div id="content"><h1>Contact</h1><p>Write to us any time: we read every letter and
answer within a week. Write to us any time: we read every letter and answer within a
week.</p></div></body></html>
"""


def change_site(site: Path) -> None:
    """Home's menu gains a Contact page; guide g5 moves from the guides to the news list."""
    home = site / "index.html"
    html = home.read_text("utf-8")
    home.write_text(html.replace('  <li><a href="about.html">About us</a></li>\n',
                                 '  <li><a href="about.html">About us</a></li>\n'
                                 '  <li><a href="contact.html">Contact</a></li>\n', 1), "utf-8")
    (site / "contact.html").write_text(CONTACT, "utf-8")
    guides = site / "guides" / "index.html"
    html = guides.read_text("utf-8")
    g5 = next(line for line in html.splitlines(keepends=True) if 'href="g5.html"' in line)
    guides.write_text(html.replace(g5, ""), "utf-8")
    news = site / "news" / "index.html"
    html = news.read_text("utf-8")
    marker = '<ul class="articles">\n'
    assert marker in html
    news.write_text(html.replace(marker, marker + g5.replace("g5.html", "../guides/g5.html"), 1),
                    "utf-8")


def crawl(base: str, cwd: Path, crawl_id: str) -> None:
    done = run_scrapy(["crawl", "skeleton", "-a", f"base={base}index.html", "-a",
                       f"crawl={crawl_id}", *FAST], cwd)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "'finish_reason': 'finished'" in done.stderr


def test_scrapy_diff_reports_exactly_the_change(serve, tmp_path: Path) -> None:
    site = tmp_path / "site"
    shutil.copytree(FIXTURES / "tinysite", site)
    base = serve(site)
    work = tmp_path / "work"
    work.mkdir()
    crawl(base, work, "tiny-v1")
    change_site(site)
    crawl(base, work, "tiny-v2")

    done = run_scrapy(["diff", "tiny-v1", "tiny-v2", "--json"], work)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout)
    assert report == {
        "old": "tiny-v1", "new": "tiny-v2", "changed": True,
        "added": [{"url": f"{base}contact.html"}],
        "removed": [],
        "moved": [{"url": f"{base}guides/g5.html", "old_parent": f"{base}guides/",
                   "new_parent": f"{base}news/"}],
        "navigation_to_content": [],
        "content_to_navigation": [],
    }
    done = run_scrapy(["diff", "tiny-v1", "tiny-v2", "--exit-code"], work)
    assert done.returncode == 1
    assert done.stdout.splitlines()[1:] == [
        "added (1):", f"  + {base}contact.html (under {base})",
        "moved (1):", f"  ~ {base}guides/g5.html: {base}guides/ -> {base}news/",
    ]
    done = run_scrapy(["diff", "tiny-v1", "tiny-v1", "--exit-code"], work)
    assert done.returncode == 0 and done.stdout.endswith("no change in the skeleton\n")


@pytest.mark.parametrize("args, message", [
    (["diff", "only-one"], "give two crawl ids"),
    (["diff", "nope", "other"], "no crawl 'nope' recorded"),
])
def test_scrapy_diff_usage_errors(tmp_path: Path, args: list[str], message: str) -> None:
    done = run_scrapy(args, tmp_path)
    assert done.returncode == 2 and message in done.stderr
    assert "Traceback" not in done.stderr
