"""``scrapy diff``: the pure comparison of two skeletons, and end to end on two
crawls of a fixture site changed between them."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from helpers import FAST, FIXTURES, run_scrapy

from lxml import etree

from skeleton.diff import Move, Skeleton, diff_skeletons, marked_tree, render_diff, tree_parents
from skeleton.exports.diagram import icicle, to_svg
from skeleton.exports.html import diff_html

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


def _tree(parents: dict, titles: dict | None = None) -> dict:
    nodes = {url: {"url": url, "title": (titles or {}).get(url, url.upper()), "children": []} for url in parents}
    for url, parent in parents.items():
        if parent is not None:
            nodes[parent]["children"].append(nodes[url])
    return nodes[next(url for url, parent in parents.items() if parent is None)]


def _marks(tree: dict) -> dict[str, str]:
    marks, stack = {}, [tree]
    while stack:
        node = stack.pop()
        marks[node["url"]] = node.get("mark", "")
        stack.extend(node["children"])
    return marks


def test_one_tree_of_both_crawls_marks_added_removed_and_moved_pages() -> None:
    old = _tree({"/": None, "/a": "/", "/a/1": "/a", "/a/2": "/a", "/g": "/a", "/g/1": "/g", "/b": "/", "/b/1": "/b"},
                {"/g/1": "Old title"})
    new = _tree({"/": None, "/a": "/", "/b": "/", "/a/1": "/b", "/b/1": "/b", "/c": "/", "/c/1": "/c"})
    union = marked_tree(old, new)
    assert _marks(union) == {"/": "", "/a": "", "/b": "", "/b/1": "", "/a/1": "moved", "/c": "added",
                             "/c/1": "added", "/a/2": "removed", "/g": "removed", "/g/1": "removed"}
    # a removed page goes back under its old parent, in the same view: a removed section whole
    assert tree_parents(union) == {"/": None, "/a": "/", "/a/2": "/a", "/g": "/a", "/g/1": "/g", "/b": "/",
                                   "/a/1": "/b", "/b/1": "/b", "/c": "/", "/c/1": "/c"}
    removed = next(n for n in union["children"][0]["children"] if n["url"] == "/g")
    assert removed["children"][0]["title"] == "Old title" and removed["children"][0]["depth"] == 3
    assert not any(_marks(marked_tree(old, old)).values())


def test_the_picture_of_a_diff_colours_each_change_with_a_legend() -> None:
    old = _tree({"/": None, "/a": "/", "/a/1": "/a", "/a/2": "/a", "/b": "/"})
    new = _tree({"/": None, "/a": "/", "/b": "/", "/a/1": "/b", "/c": "/"})
    union = marked_tree(old, new)
    svg = etree.fromstring(to_svg(union, "diff").encode())
    ns = "{http://www.w3.org/2000/svg}"
    classes = {g.get("data-key"): g.find(f"{ns}rect").get("class").split() for g in svg.iter(f"{ns}g")
               if g.get("class") == "node"}
    assert "added" in classes["/c"] and "removed" in classes["/a/2"] and "moved" in classes["/a/1"]
    assert not {"added", "removed", "moved"} & set(classes["/b"])
    fills = {g.get("data-key"): g.find(f"{ns}rect").get("fill") for g in svg.iter(f"{ns}g") if g.get("class") == "node"}
    assert len({fills["/c"], fills["/a/2"], fills["/a/1"], fills["/b"]}) == 4  # four colours
    legend = " ".join(svg.find(f".//{ns}g[@class='legend']").itertext())
    assert "added" in legend and "removed" in legend and "moved to another parent" in legend
    assert len(classes) == len(icicle(union))
    page = diff_html(union, "diff <of> two", "added (1):\n  + /c <script>")
    assert 'id="report"' in page and "&lt;script&gt;" in page and "<script>\n__" not in page
    assert "moved to another parent" in page


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
    # the picture: the same changes coloured in one view of both trees
    assert run_scrapy(["diff", "tiny-v1", "tiny-v2", "-o", "diff.svg"], work).returncode == 0
    ns = "{http://www.w3.org/2000/svg}"
    svg = etree.parse(str(work / "diff.svg")).getroot()
    marked = {g.get("data-key"): set(g.find(f"{ns}rect").get("class").split()) & {"added", "removed", "moved"}
              for g in svg.iter(f"{ns}g") if g.get("class") == "node"}
    assert {url: m for url, m in marked.items() if m} == {f"{base}contact.html": {"added"},
                                                         f"{base}guides/g5.html": {"moved"}}
    done = run_scrapy(["diff", "tiny-v1", "tiny-v2", "--format", "html"], work)
    assert done.returncode == 0 and 'id="diagram"' in done.stdout and f"+ {base}contact.html" in done.stdout
    done = run_scrapy(["diff", "tiny-v1", "tiny-v2", "--json", "--format", "svg"], work)
    assert done.returncode == 2 and "disagree" in done.stderr


@pytest.mark.parametrize("args, message", [
    (["diff", "only-one"], "give two crawl ids"),
    (["diff", "nope", "other"], "no crawl 'nope' recorded"),
])
def test_scrapy_diff_usage_errors(tmp_path: Path, args: list[str], message: str) -> None:
    done = run_scrapy(args, tmp_path)
    assert done.returncode == 2 and message in done.stderr
    assert "Traceback" not in done.stderr
