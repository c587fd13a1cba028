"""The pure tree builder, outline renderer and nested-link levels."""
from __future__ import annotations

from skeleton.sew.edges import nest_links
from skeleton.exports.outline import render_text
from skeleton.exports.table import render_csv
from skeleton.tree import build_tree

R = "http://s/"


def pages(*urls: str) -> dict[str, dict]:
    return {u: {"url": u, "title": u.rsplit("/", 1)[-1].upper() or "HOME"} for u in urls}


def edge(parent: str, depth: int) -> dict:
    return {"parent": parent, "depth": depth}


def test_nested_tree_with_children_sorted_by_url() -> None:
    p = pages(R, R + "b", R + "a", R + "a/2", R + "a/1")
    edges = {R + "b": edge(R, 1), R + "a": edge(R, 1), R + "a/2": edge(R + "a", 2),
             R + "a/1": edge(R + "a", 2)}
    assert build_tree(R, p, edges) == {"url": R, "title": "HOME", "depth": 0, "children": [
        {"url": R + "a", "title": "A", "depth": 1, "children": [
            {"url": R + "a/1", "title": "1", "depth": 2, "children": []},
            {"url": R + "a/2", "title": "2", "depth": 2, "children": []}]},
        {"url": R + "b", "title": "B", "depth": 1, "children": []}]}


def test_unfetched_pages_and_missing_parents_are_dropped() -> None:
    p = pages(R, R + "a", R + "orphan", R + "orphan/child")
    edges = {R + "a": edge(R, 1), R + "never-fetched": edge(R, 1),
             R + "orphan": edge(R + "gone", 2), R + "orphan/child": edge(R + "orphan", 3),
             R + "bad": "not an edge"}
    tree = build_tree(R, p, edges)
    assert [c["url"] for c in tree["children"]] == [R + "a"]


def test_cycles_and_edges_to_the_root_never_loop() -> None:
    p = pages(R, R + "x", R + "y", R + "z")
    edges = {R: edge(R + "x", 1), R + "x": edge(R + "y", 2), R + "y": edge(R + "x", 2),
             R + "z": edge(R + "z", 1)}
    assert build_tree(R, p, edges) == {"url": R, "title": "HOME", "depth": 0, "children": []}


def test_no_root_page_gives_none() -> None:
    assert build_tree(R, pages(R + "a"), {R + "a": edge(R, 1)}) is None
    assert render_text(None) == ""


def test_deep_chains_do_not_recurse() -> None:
    urls = [R] + [f"{R}{i}" for i in range(1, 3000)]
    edges = {urls[i]: edge(urls[i - 1], i) for i in range(1, len(urls))}
    tree = build_tree(R, pages(*urls), edges)
    depth = 0
    while tree["children"]:
        tree, depth = tree["children"][0], depth + 1
    assert depth == 2999
    assert render_text(build_tree(R, pages(*urls), edges)).count("\n") == 3000


def test_render_text_outline() -> None:
    tree = {"url": R, "title": "Home", "children": [
        {"url": R + "a", "title": "", "children": [{"url": R + "a/1", "title": "One", "children": []}]},
        {"url": R + "b", "title": "B", "children": []}]}
    assert render_text(tree) == (
        "Home <http://s/>\n  (untitled) <http://s/a>\n    One <http://s/a/1>\n  B <http://s/b>\n")


def test_nest_links_levels_unknown_parents_and_cycles() -> None:
    links = [("a", R), ("a1", "a"), ("a11", "a1"), ("b", R), ("c", "elsewhere"), ("a", R),
             ("x", "y"), ("y", "x"), ("s", "s"), (R, R)]
    assert nest_links(R, links) == [
        ("a", R, 1), ("a1", "a", 2), ("a11", "a1", 3), ("b", R, 1), ("c", R, 1),
        ("x", "y", 2), ("y", R, 1), ("s", R, 1)]


def test_csv_has_one_row_per_page_with_parent_and_depth() -> None:
    p = pages(R, R + "a", R + "a/1")
    p[R + "a"]["is_navigation"] = True
    edges = {R + "a": edge(R, 1), R + "a/1": edge(R + "a", 2)}
    assert render_csv(build_tree(R, p, edges), p).splitlines() == [
        "url,title,parent,depth,children,is_navigation,status",
        f"{R},HOME,,0,1,False,", f"{R}a,A,{R},1,1,True,", f"{R}a/1,1,{R}a,2,0,False,"]


def test_failed_pages_are_broken_nodes_in_every_export() -> None:
    p = pages(R, R + "a", R + "gone", R + "late")
    p[R + "gone"].update(title="", reason="failed", status="500")
    p[R + "late"].update(title="", reason="failed", status="timeout")
    edges = {R + "a": edge(R, 1), R + "gone": edge(R, 1), R + "late": edge(R + "a", 2)}
    tree = build_tree(R, p, edges)
    assert tree == {"url": R, "title": "HOME", "depth": 0, "children": [
        {"url": R + "a", "title": "A", "depth": 1, "children": [
            {"url": R + "late", "title": "", "depth": 2, "children": [], "broken": True,
             "status": "timeout"}]},
        {"url": R + "gone", "title": "", "depth": 1, "children": [], "broken": True, "status": "500"}]}
    assert render_text(tree) == (
        "HOME <http://s/>\n  A <http://s/a>\n    (untitled) <http://s/late> [failed timeout]\n"
        "  (untitled) <http://s/gone> [failed 500]\n")
    assert render_csv(tree, p).splitlines()[1:] == [
        f"{R},HOME,,0,2,False,", f"{R}a,A,{R},1,1,False,", f"{R}late,,{R}a,2,0,False,timeout",
        f"{R}gone,,{R},1,0,False,500"]
