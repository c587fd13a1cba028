"""The tree as a table, one row per page in outline order: the CSV export (``scrapy
tree --format csv``) and the rows the GraphML and the sitemaps read.

A page that failed for good has its status (an HTTP status code or an error kind) in
the column ``status``, empty for the pages fetched. The CSV's text cells
(:data:`TEXT_COLUMNS`) go through :func:`~skeleton.exports.safe.csv_cell`: no control
character but tab and line breaks, never the start of a formula (a leading ``'``);
its numbers are written as they are.
"""
from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from typing import Any

from skeleton.exports.safe import csv_cell
from skeleton.tree import failed_status

__all__ = ["CSV_COLUMNS", "TEXT_COLUMNS", "tree_rows", "render_csv"]

#: the columns of the CSV export, one row per page of the tree
CSV_COLUMNS = ("url", "title", "parent", "depth", "children", "is_navigation", "status")
#: the columns holding text (neutralised by ``csv_cell``); the others are numbers and flags
TEXT_COLUMNS = frozenset({"url", "title", "parent", "status"})


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
