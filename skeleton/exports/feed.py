"""A crawl's feed files: the CSV exporter, and the tree's parent and depth written into them.

:class:`CsvItemExporter` (``FEED_EXPORTERS["csv"]``) writes list and dict fields
(``nav_links``) as JSON and every text cell through
:func:`~skeleton.exports.safe.csv_cell` (no control character, never the start of a
formula); numbers and flags are written as they are.

A page's parent is chosen once the crawl is done, so the items a crawl exports carry
``parent`` and ``depth`` as null; when the crawl is finished and its tree resolved,
``scrapy crawl`` fills them into its local feed files (JSON lines, JSON, CSV) from the
tree, so the feed, ``scrapy tree`` and every export give every page the same parent.
A page that is no node of the tree (a later page of a listing, a view, an alias of
another page) keeps null. Pure: files in, files out (written atomically).

A CSV feed is rewritten safe for spreadsheets: a cell that is a plain number
(``depth``, ``found_depth``, ``confidence``) is kept, every other cell goes through
:func:`~skeleton.exports.safe.csv_cell` (which leaves the cells the feed exporter
already neutralised as they are).

The fields a crawl's feed exports by default (:func:`feed_fields`) are chosen here
too: the spider's arguments set ``FEED_EXPORT_FIELDS`` from them
(:func:`skeleton.spiders.arguments.configure`).
"""
from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from scrapy import exporters

from skeleton.exports.safe import csv_cell
from skeleton.files import write_atomic

__all__ = ["ANALYSIS_FIELDS", "FEED_FIELDS", "FEED_FORMATS", "CsvItemExporter", "feed_fields", "tree_positions", "fill_feed"]

#: the fields of the feed items (``-o``/``FEEDS``) by default: what the tree needs;
#: ``FEED_EXPORT_FIELDS`` chooses others (the pipeline always gets the whole item)
FEED_FIELDS = ("url", "parent", "depth", "found_from", "found_depth", "title", "is_navigation", "nav_links",
               "confidence", "reason", "status")
#: analysis -> the item field holding its data, exported when the analysis runs
ANALYSIS_FIELDS = {"wisdom": "blocks", "blocks": "nav_blocks", "schema": "sections"}


def feed_fields(analyses: Iterable[str], block_detector: bool = False) -> list[str]:
    """The feed fields of a crawl running ``analyses`` (names of
    :data:`ANALYSIS_FIELDS`); a block detector (``detector`` other than ``sew``)
    fills ``nav_blocks`` too."""
    names = set(analyses) | ({"blocks"} if block_detector else set())
    return [*FEED_FIELDS, *(field for name, field in ANALYSIS_FIELDS.items() if name in names)]

#: Scrapy feed formats this fills (others are left as written)
FEED_FORMATS = frozenset({"jsonlines", "jsonl", "jl", "json", "csv"})
#: a CSV cell kept as it is when rewriting a feed: a plain decimal number
_NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")


class CsvItemExporter(exporters.CsvItemExporter):
    """Scrapy's CSV exporter joins lists of strings only; nested values become JSON."""

    def serialize_field(self, field: Any, name: str, value: Any) -> Any:
        if isinstance(value, (list, dict)):
            value = json.dumps(value, ensure_ascii=False, sort_keys=True)
        value = super().serialize_field(field, name, value)
        return csv_cell(value) if isinstance(value, str) else value


def tree_positions(root: str, edges: Mapping[str, Mapping[str, Any]]) -> dict[str, tuple[str | None, int]]:
    """URL -> (parent, depth) of every node of the tree (``edges``: child -> ``{"parent",
    "depth"}`` as stored in ``:tree``; the root has no parent and depth 0)."""
    positions: dict[str, tuple[str | None, int]] = {root: (None, 0)}
    for child, edge in edges.items():
        if isinstance(edge, Mapping) and child != root:
            positions[child] = (edge.get("parent"), int(edge.get("depth") or 0))
    return positions


def _filled(item: dict[str, Any], positions: Mapping[str, tuple[str | None, int]]) -> dict[str, Any]:
    if "parent" in item or "depth" in item:
        parent, depth = positions.get(str(item.get("url")), (None, None))
        if "parent" in item:
            item["parent"] = parent
        if "depth" in item:
            item["depth"] = depth
    return item


def _csv_value(value: Any) -> Any:
    """A cell of a rewritten CSV feed: numbers as they are, any other text through ``csv_cell``."""
    if value is None:
        return ""
    if not isinstance(value, str) or _NUMBER.fullmatch(value):
        return value
    return csv_cell(value)


def _json_lines(path: Path, positions: Mapping[str, tuple[str | None, int]]) -> Iterator[str]:
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                yield json.dumps(_filled(json.loads(line), positions), ensure_ascii=False) + "\n"


def fill_feed(path: str | Path, fmt: str, positions: Mapping[str, tuple[str | None, int]]) -> int:
    """Write the tree's parent and depth into the feed file ``path`` of format ``fmt``
    (its items keep their fields and order); returns the items that are nodes."""
    path = Path(path)
    nodes = 0
    if fmt in ("jsonlines", "jsonl", "jl"):
        def write(out: IO[str]) -> None:
            nonlocal nodes
            for line in _json_lines(path, positions):
                nodes += json.loads(line).get("depth") is not None
                out.write(line)
        write_atomic(path, write)
    elif fmt == "json":
        items = [_filled(item, positions) for item in json.loads(path.read_text("utf-8") or "[]")]
        nodes = sum(item.get("depth") is not None for item in items)
        write_atomic(path, "[\n" + ",\n".join(json.dumps(i, ensure_ascii=False) for i in items) + "\n]")
    elif fmt == "csv":
        with path.open(encoding="utf-8", newline="") as handle:
            reader = csv.DictReader(handle)
            fields = list(reader.fieldnames or [])
            # a URL as the feed exporter wrote it (through csv_cell) or as it is
            written = {key: (parent or "", depth) for url, (parent, depth) in positions.items()
                       for key in (csv_cell(url), url)}
            rows = [_filled(dict(row), written) for row in reader]
        nodes = sum(row.get("depth") not in (None, "") for row in rows)
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=fields, lineterminator="\r\n")
        writer.writeheader()
        writer.writerows({k: _csv_value(v) for k, v in row.items()} for row in rows)
        write_atomic(path, out.getvalue())
    return nodes
