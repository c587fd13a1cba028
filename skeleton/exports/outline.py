"""The tree as an indented outline, one page a line (``scrapy tree --format text``):
``title <url>``, indented by depth, and `` [failed STATUS]`` after a page that
failed for good; then one line per URL the site answered Not Found (the tree's
``not_found``: ``not found STATUS <url> linked from <page>``, no node). Safe for a terminal: every text goes through
:func:`~skeleton.exports.safe.text_line` (no control character, one line per page).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from skeleton.exports.safe import text_line

__all__ = ["render_text"]


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
    for missing in tree.get("not_found") or ():
        if isinstance(missing, Mapping):
            lines.append(f"not found {text_line(str(missing.get('status') or ''))} <{text_line(str(missing.get('url')))}>"
                         f" linked from <{text_line(str(missing.get('linked_from') or ''))}>")
    return "\n".join(lines) + "\n"
