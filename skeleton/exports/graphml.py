"""The skeleton tree as GraphML, written by networkx (``networkx.write_graphml``).

One node per page of the tree (its id is the page URL; attributes ``url``,
``title``, ``depth``, ``children``, ``is_navigation``, ``status``: empty for a page
fetched, the HTTP status or error kind of a broken one) and one directed edge per
tree edge, parent to child: what networkx, Gephi and yEd read. Every text (ids,
URLs, titles, statuses) goes through :func:`~skeleton.exports.safe.xml_text`, so a
title with control characters cannot make the document unwritable.
"""
from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

import networkx as nx

from skeleton.exports.safe import xml_text
from skeleton.exports.table import tree_rows

__all__ = ["tree_graph", "to_graphml"]


def tree_graph(tree: Mapping[str, Any] | None, pages: Mapping[str, Mapping[str, Any]]) -> nx.DiGraph:
    """The tree as a directed graph, edges from parent to child (``tree_rows``'
    columns as node attributes)."""
    graph = nx.DiGraph()
    for row in tree_rows(tree, pages):
        row = {key: xml_text(value) if isinstance(value, str) else value for key, value in row.items()}
        graph.add_node(row["url"], **{key: value for key, value in row.items() if key != "parent"})
        if row["parent"]:
            graph.add_edge(row["parent"], row["url"])
    return graph


def to_graphml(tree: Mapping[str, Any] | None, pages: Mapping[str, Mapping[str, Any]]) -> str:
    """The GraphML document of :func:`tree_graph` (UTF-8 text)."""
    out = io.BytesIO()
    nx.write_graphml(tree_graph(tree, pages), out, encoding="utf-8", prettyprint=True)
    return out.getvalue().decode("utf-8")
