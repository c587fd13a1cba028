"""The skeleton tree from page records and edges (pure: no Redis, no Scrapy).

``build_tree`` nests the fetched pages under the root following each page's
resolved parent (:mod:`skeleton.hierarchy.resolve`); its renderings are in
:mod:`skeleton.exports`.

A page that failed for good (record ``reason`` ``failed``, its ``status`` an HTTP
status code or an error kind) is a broken node: ``"broken": true`` and its
``"status"`` in JSON (:func:`failed_status`). A URL the site answered with Not Found
or Gone (404, 410) is a broken link, no page and no node: :func:`not_found_report`
lists them, with the page whose link found each.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from skeleton.hierarchy.facts import not_found
from skeleton.hierarchy.resolve import FAILED_REASON

__all__ = ["build_tree", "failed_status", "not_found_report"]


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


def not_found_report(pages: Mapping[str, Any]) -> list[dict[str, str]]:
    """``[{"url", "status", "linked_from"}]``, sorted by URL: the recorded URLs the site
    answered with Not Found or Gone (:func:`skeleton.hierarchy.facts.not_found`), each
    with the page whose link found it (its record's ``found_from``; "" if none)."""
    out = []
    for url, record in pages.items():
        if not_found(record):
            found = record.get("found_from")
            out.append({"url": str(url), "status": str(record.get("status")),
                        "linked_from": found if isinstance(found, str) else ""})
    return sorted(out, key=lambda entry: entry["url"])
