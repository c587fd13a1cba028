"""What changed in the skeleton between two crawls (pure: no Redis, no Scrapy).

A crawl's skeleton is given as plain data: ``parents`` maps every page of the
tree to its parent page (``None`` for the root) and ``navigation`` maps pages to
their navigation flag (a page whose navigation links were found, as opposed to
a content page). :func:`diff_skeletons` reports pages added and removed, pages
moved to another parent, and pages that changed between navigation and content;
:func:`tree_parents` turns a nested tree (``scrapy tree``'s JSON) into parents;
:func:`marked_tree` makes one tree of both crawls for the picture of the diff
(:func:`skeleton.exports.diagram.to_svg`, :func:`skeleton.exports.html.diff_html`).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Skeleton", "Move", "SkeletonDiff", "tree_parents", "diff_skeletons", "render_diff", "marked_tree"]


@dataclass(frozen=True)
class Skeleton:
    """One crawl's tree: page -> parent (``None`` for the root), page -> navigation flag."""

    parents: Mapping[str, str | None]
    navigation: Mapping[str, bool] = field(default_factory=dict)

    def is_navigation(self, url: str) -> bool:
        return bool(self.navigation.get(url, False))


@dataclass(frozen=True, order=True)
class Move:
    url: str
    old_parent: str | None
    new_parent: str | None


@dataclass
class SkeletonDiff:
    """Sorted lists of URLs (and moves) that differ from the old skeleton to the new."""

    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    moved: list[Move] = field(default_factory=list)
    became_content: list[str] = field(default_factory=list)
    became_navigation: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.added or self.removed or self.moved
                    or self.became_content or self.became_navigation)

    def as_dict(self) -> dict[str, Any]:
        return {
            "added": [{"url": u} for u in self.added],
            "removed": [{"url": u} for u in self.removed],
            "moved": [{"url": m.url, "old_parent": m.old_parent, "new_parent": m.new_parent}
                      for m in self.moved],
            "navigation_to_content": list(self.became_content),
            "content_to_navigation": list(self.became_navigation),
        }


def tree_parents(tree: Mapping[str, Any] | None) -> dict[str, str | None]:
    """Page -> parent of a nested ``{"url", "children"}`` tree (first occurrence wins)."""
    parents: dict[str, str | None] = {}
    if tree is None:
        return parents
    stack: list[tuple[Mapping[str, Any], str | None]] = [(tree, None)]
    while stack:
        node, parent = stack.pop()
        url = node["url"]
        if url in parents:
            continue
        parents[url] = parent
        stack.extend((child, url) for child in reversed(node.get("children") or []))
    return parents


def diff_skeletons(old: Skeleton, new: Skeleton) -> SkeletonDiff:
    """The structural changes from ``old`` to ``new``. A page is moved when it is
    in both trees under different parents; the navigation flag is compared for
    pages in both trees."""
    both = old.parents.keys() & new.parents.keys()
    return SkeletonDiff(
        added=sorted(new.parents.keys() - old.parents.keys()),
        removed=sorted(old.parents.keys() - new.parents.keys()),
        moved=sorted(Move(url, old.parents[url], new.parents[url])
                     for url in both if old.parents[url] != new.parents[url]),
        became_content=sorted(u for u in both if old.is_navigation(u) and not new.is_navigation(u)),
        became_navigation=sorted(u for u in both
                                 if new.is_navigation(u) and not old.is_navigation(u)),
    )


def render_diff(diff: SkeletonDiff, new: Skeleton | None = None) -> str:
    """A readable report, one change a line: ``+`` added (with its new parent),
    ``-`` removed, ``~`` moved (old parent -> new parent), ``nav->content`` and
    ``content->nav`` for navigation changes."""
    if not diff.changed:
        return "no change in the skeleton\n"
    lines = []

    def section(title: str, entries: list[str]) -> None:
        if entries:
            lines.append(f"{title} ({len(entries)}):")
            lines.extend(f"  {entry}" for entry in entries)

    def under(url: str) -> str:
        parent = new.parents.get(url) if new is not None else None
        return f"{url} (under {parent})" if parent else url

    section("added", [f"+ {under(u)}" for u in diff.added])
    section("removed", [f"- {u}" for u in diff.removed])
    section("moved", [f"~ {m.url}: {m.old_parent or '(root)'} -> {m.new_parent or '(root)'}"
                      for m in diff.moved])
    section("navigation -> content", [f"nav->content {u}" for u in diff.became_content])
    section("content -> navigation", [f"content->nav {u}" for u in diff.became_navigation])
    return "\n".join(lines) + "\n"


def marked_tree(old: Mapping[str, Any] | None, new: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """One tree of both crawls, each changed node marked: the ``new`` tree (a copy)
    with ``"mark": "added"`` on its pages the ``old`` tree lacks and ``"moved"`` on
    its pages under another parent than in ``old``, and the pages of ``old`` that
    ``new`` lacks put back under their old parent (or, when that parent is in
    neither tree's place, the nearest old ancestor that is, else the root), marked
    ``"removed"`` with their old title. Depths are the union's. None when both
    trees are None."""
    if new is None and old is None:
        return None
    old_parents, new_parents = tree_parents(old), tree_parents(new)
    titles: dict[str, str] = {}
    broken: dict[str, Mapping[str, Any]] = {}
    for tree in (old, new):
        stack = [tree] if tree is not None else []
        while stack:
            node = stack.pop()
            titles[node["url"]] = str(node.get("title") or "")
            if node.get("broken"):
                broken[node["url"]] = node
            stack.extend(node.get("children") or ())
    base = new if new is not None else old
    assert base is not None
    nodes: dict[str, dict[str, Any]] = {}

    def make(url: str, mark: str) -> dict[str, Any]:
        node: dict[str, Any] = {"url": url, "title": titles.get(url, ""), "depth": 0, "children": []}
        if url in broken:
            node.update(broken=True, status=broken[url].get("status"))
        if mark:
            node["mark"] = mark
        nodes[url] = node
        return node

    root_url = str(base["url"])
    for url in tree_parents(base):  # the new tree, in outline order: parents first
        mark = ""
        if new is not None and old is not None:
            if url not in old_parents:
                mark = "added"
            elif old_parents[url] != new_parents[url]:
                mark = "moved"
        make(url, mark)
        parent = (new_parents if new is not None else old_parents)[url]
        if parent is not None:
            nodes[parent]["children"].append(nodes[url])
    if new is not None and old is not None:
        for url in old_parents:  # old outline order: a removed parent before its children
            if url in nodes:
                continue
            make(url, "removed")
            place = old_parents[url]
            while place is not None and place not in nodes:
                place = old_parents.get(place)
            nodes[place if place is not None else root_url]["children"].append(nodes[url])
    top = nodes[root_url]
    stack = [(top, 0)]
    while stack:
        node, depth = stack.pop()
        node["depth"] = depth
        node["children"].sort(key=lambda child: child["url"])
        stack.extend((child, depth + 1) for child in node["children"])
    return top
