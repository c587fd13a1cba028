"""CSV feed exporter that writes list and dict fields (``nav_links``) as JSON and
every text cell through :func:`skeleton.exports.safe.csv_cell` (no control
character, never the start of a formula); numbers and flags are written as they are."""
from __future__ import annotations

import json
from typing import Any

from scrapy import exporters

from skeleton.exports.safe import csv_cell

__all__ = ["CsvItemExporter"]


class CsvItemExporter(exporters.CsvItemExporter):
    """Scrapy's CSV exporter joins lists of strings only; nested values become JSON."""

    def serialize_field(self, field: Any, name: str, value: Any) -> Any:
        if isinstance(value, (list, dict)):
            value = json.dumps(value, ensure_ascii=False, sort_keys=True)
        value = super().serialize_field(field, name, value)
        return csv_cell(value) if isinstance(value, str) else value
