"""The skeleton tree from page records and edges (pure: no Redis, no Scrapy).

``build_tree`` nests the fetched pages under the root following each page's kept
edge; ``render_text`` prints the tree as an indented outline.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["build_tree", "render_text"]


def build_tree(root: str, pages: Mapping[str, Mapping[str, Any]],
               edges: Mapping[str, Mapping[str, Any]]) -> dict[str, Any] | None:
    """The tree ``{"url", "title", "children"}`` of the fetched pages reachable
    from ``root`` through kept edges, children sorted by URL; ``None`` if the
    root page was not fetched. Pages whose parent was not fetched are dropped
    with their subtrees; every page appears at most once, so this never loops."""
    if root not in pages:
        return None
    children: dict[str, list[str]] = {}
    for child, edge in edges.items():
        parent = edge.get("parent") if isinstance(edge, Mapping) else None
        if child != root and child in pages and parent in pages and parent != child:
            children.setdefault(parent, []).append(child)

    def node(url: str) -> dict[str, Any]:
        return {"url": url, "title": str(pages[url].get("title") or ""), "children": []}

    top = node(root)
    placed = {root}
    stack = [top]
    while stack:
        current = stack.pop()
        for child in sorted(children.get(current["url"], ())):
            if child not in placed:
                placed.add(child)
                entry = node(child)
                current["children"].append(entry)
                stack.append(entry)
    return top


def render_text(tree: Mapping[str, Any] | None, indent: str = "  ") -> str:
    """An outline, one page a line: ``title <url>``, indented by depth."""
    if tree is None:
        return ""
    lines = []
    stack = [(tree, 0)]
    while stack:
        entry, level = stack.pop()
        title = entry.get("title") or "(untitled)"
        lines.append(f"{indent * level}{title} <{entry['url']}>")
        stack.extend((child, level + 1) for child in reversed(entry.get("children", [])))
    return "\n".join(lines) + "\n"
