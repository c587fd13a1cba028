"""The output formats of the commands, and the tree and the skeleton diff in each.

A :class:`Formats` names a command's formats (the choices of its ``--format``, in
help order), the one it writes by default and the format an output file's suffix
names (``-o tree.svg``): an explicit ``--format`` wins, then the suffix of the file
(:attr:`pathlib.PurePath.suffix`, any case), then the default.

:func:`tree_export` renders the nested tree of a crawl in one of :data:`TREE`'s
formats but ``sitemap`` (several files past 50,000 URLs:
:func:`skeleton.exports.sitemap.sitemap_files`); :func:`diff_export` renders the
changes between two crawls' skeletons in one of :data:`DIFF`'s. Pure: text out.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skeleton.diff import SkeletonDiff, marked_tree
from skeleton.exports.diagram import to_svg
from skeleton.exports.graphml import to_graphml
from skeleton.exports.html import diff_html, to_html
from skeleton.exports.outline import render_text
from skeleton.exports.table import render_csv

__all__ = ["Formats", "TREE", "DIFF", "SCHEMA", "TERMS", "tree_export", "diff_export"]


@dataclass(frozen=True)
class Formats:
    """A command's output formats: ``names`` in help order, the ``default``, and
    ``suffixes``: output file suffix (lower case, no dot) -> the format it names."""

    names: tuple[str, ...]
    default: str
    suffixes: Mapping[str, str] = field(default_factory=dict)

    def choose(self, given: str | None, output: str | None) -> str:
        """``given`` (a ``--format``), else the one ``output``'s suffix names, else the default."""
        if given:
            return given
        return self.suffixes.get(Path(output or "").suffix.lower().lstrip("."), self.default)


#: ``scrapy tree``
TREE = Formats(("json", "text", "csv", "graphml", "sitemap", "html", "svg"), "json",
               {"txt": "text", "csv": "csv", "graphml": "graphml", "xml": "sitemap", "html": "html",
                "htm": "html", "svg": "svg", "json": "json"})
#: ``scrapy diff`` (``--json`` is ``json``)
DIFF = Formats(("text", "json", "html", "svg"), "text",
               {"json": "json", "html": "html", "htm": "html", "svg": "svg"})
#: ``scrapy schema``
SCHEMA = Formats(("graphml", "json"), "json", {"graphml": "graphml", "xml": "graphml"})
#: ``scrapy entropy`` (standard output only)
TERMS = Formats(("text", "json"), "text")


def tree_export(fmt: str, tree: dict[str, Any], pages: Mapping[str, Any], crawl: str) -> str:
    """The nested ``tree`` of crawl ``crawl`` (its page records ``pages``) in format ``fmt``
    (one of :data:`TREE`'s but ``sitemap``; an unknown one is the outline)."""
    if fmt == "json":
        return json.dumps(tree, indent=1, ensure_ascii=False) + "\n"
    if fmt == "csv":
        return render_csv(tree, pages)
    if fmt == "graphml":
        return to_graphml(tree, pages)
    if fmt == "html":
        return to_html(tree, crawl)
    if fmt == "svg":
        return to_svg(tree, f"Skeleton of {tree['url']} (crawl {crawl})")
    return render_text(tree)


def diff_export(fmt: str, crawls: tuple[str, str], diff: SkeletonDiff,
                trees: tuple[dict[str, Any], dict[str, Any]], report: str) -> str:
    """The changes ``diff`` from crawl ``crawls[0]`` (its nested tree ``trees[0]``) to
    ``crawls[1]`` in format ``fmt`` (one of :data:`DIFF`'s): ``report`` (the text form)
    as it is, JSON, or one diagram of both trees with the changes marked (SVG, or the
    tree viewer with the report above it)."""
    old, new = crawls
    if fmt == "json":
        return json.dumps({"old": old, "new": new, "changed": diff.changed, **diff.as_dict()},
                          indent=1, ensure_ascii=False) + "\n"
    title = f"Skeleton changes from {old} to {new}"
    if fmt == "svg":
        return to_svg(marked_tree(*trees), title)
    if fmt == "html":
        return diff_html(marked_tree(*trees), title, report)
    return report
