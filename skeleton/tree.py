"""The skeleton tree from page records and edges (pure: no Redis, no Scrapy).

``build_tree`` nests the fetched pages under the root following each page's
resolved parent (:mod:`skeleton.hierarchy.resolve`); ``render_text`` prints the
tree as an indented outline and ``render_csv`` as one row per page.

A page that failed for good (record ``reason`` ``failed``, its ``status`` an HTTP
status code or an error kind) is a broken node: ``"broken": true`` and its
``"status"`` in JSON, ``[failed STATUS]`` after its URL in the outline, its status
in the CSV column ``status`` (empty for the pages fetched).

Both renderings are safe for their readers (:mod:`skeleton.exports.safe`): the
outline has no control character and one line per page; the CSV's text cells
(``TEXT_COLUMNS``) have no control character but tab and line breaks and never
start as a formula (a leading ``'``); its numbers are written as they are.
"""
from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from typing import Any

from skeleton.exports.safe import csv_cell, text_line
from skeleton.hierarchy.resolve import FAILED_REASON

__all__ = ["CSV_COLUMNS", "TEXT_COLUMNS", "build_tree", "failed_status", "render_csv", "render_text", "tree_rows"]

#: the columns of the CSV export, one row per page of the tree
CSV_COLUMNS = ("url", "title", "parent", "depth", "children", "is_navigation", "status")
#: the columns holding text (neutralised by ``csv_cell``); the others are numbers and flags
TEXT_COLUMNS = frozenset({"url", "title", "parent", "status"})


def failed_status(record: Any) -> str | None:
    """The status of a failed page's record (``"500"``, ``"timeout"``...; ``"error"``
    when it names none), None for a page fetched."""
    if not isinstance(record, Mapping) or record.get("reason") != FAILED_REASON:
        return None
    return str(record.get("status") or "error")


def build_tree(root: str, pages: Mapping[str, Mapping[str, Any]],
               edges: Mapping[str, Mapping[str, Any]]) -> dict[str, Any] | None:
    """The tree ``{"url", "title", "depth", "children"}`` (and ``"broken": true``,
    ``"status"`` for a failed page) of the recorded pages reachable
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

    def node(url: str, depth: int) -> dict[str, Any]:
        entry = {"url": url, "title": str(pages[url].get("title") or ""), "depth": depth,
                 "children": []}
        status = failed_status(pages[url])
        if status is not None:
            entry.update(broken=True, status=status)
        return entry

    top = node(root, 0)
    placed = {root}
    stack = [top]
    while stack:
        current = stack.pop()
        for child in sorted(children.get(current["url"], ())):
            if child not in placed:
                placed.add(child)
                entry = node(child, current["depth"] + 1)
                current["children"].append(entry)
                stack.append(entry)
    return top


def render_text(tree: Mapping[str, Any] | None, indent: str = "  ") -> str:
    """An outline, one page a line: ``title <url>``, indented by depth, and
    `` [failed STATUS]`` for a broken page (every text through ``text_line``)."""
    if tree is None:
        return ""
    lines = []
    stack = [(tree, 0)]
    while stack:
        entry, level = stack.pop()
        title = text_line(str(entry.get("title") or "")) or "(untitled)"
        mark = f" [failed {text_line(str(entry.get('status') or 'error'))}]" if entry.get("broken") else ""
        lines.append(f"{indent * level}{title} <{text_line(entry['url'])}>{mark}")
        stack.extend((child, level + 1) for child in reversed(entry.get("children", [])))
    return "\n".join(lines) + "\n"


def tree_rows(tree: Mapping[str, Any] | None,
              pages: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One row per page of ``tree`` in outline order: ``CSV_COLUMNS``."""
    rows: list[dict[str, Any]] = []
    stack = [(tree, "")] if tree is not None else []
    while stack:
        entry, parent = stack.pop()
        record = pages.get(entry["url"], {})
        rows.append({"url": entry["url"], "title": entry.get("title", ""), "parent": parent,
                     "depth": entry.get("depth", 0), "children": len(entry.get("children", [])),
                     "is_navigation": bool(record.get("is_navigation")),
                     "status": failed_status(record) or ""})
        stack.extend((child, entry["url"]) for child in reversed(entry.get("children", [])))
    return rows


def render_csv(tree: Mapping[str, Any] | None, pages: Mapping[str, Mapping[str, Any]]) -> str:
    """The tree as CSV with a header line (``CSV_COLUMNS``), the ``TEXT_COLUMNS``
    through ``csv_cell``."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows({key: csv_cell(str(value)) if key in TEXT_COLUMNS else value for key, value in row.items()}
                     for row in tree_rows(tree, pages))
    return out.getvalue()
