"""CSV feed exporter that writes list and dict fields (``nav_links``) as JSON."""
from __future__ import annotations

import json
from typing import Any

from scrapy import exporters

__all__ = ["CsvItemExporter"]


class CsvItemExporter(exporters.CsvItemExporter):
    """Scrapy's CSV exporter joins lists of strings only; nested values become JSON."""

    def serialize_field(self, field: Any, name: str, value: Any) -> Any:
        if isinstance(value, (list, dict)):
            value = json.dumps(value, ensure_ascii=False, sort_keys=True)
        return super().serialize_field(field, name, value)
