"""The logical schema of a site (:mod:`skeleton.schema`) as GraphML (for Gephi, yEd) and as JSON
(``scrapy schema``).

GraphML is written by networkx (``networkx.write_graphml``): the schema becomes a
``MultiDiGraph`` (a physical and a logical link can join the same two sections),
and networkx declares every attribute as a ``<key>`` (``attr.type`` from the
Python type: ``string`` for the node attributes ``label``, ``page``, ``type``,
``xpath`` and ``keywords`` and the edge attribute ``kind``, ``double`` for the
edge ``weight``) before the one directed graph. networkx writes neither ``None``
nor lists, so a missing value is written as ``""`` and the keywords are joined by
spaces; characters XML 1.0 cannot hold are dropped (lxml refuses them). A logical
link is symmetric and written once, from the smaller section id; mixed
directedness is left out because several readers, networkx among them, reject it.
"""
from __future__ import annotations

import io
import json

import networkx as nx

from skeleton.exports.safe import xml_text
from skeleton.schema.site import SiteSchema

__all__ = ["GRAPHML_NS", "schema_graph", "to_graphml", "to_json"]

GRAPHML_NS = "http://graphml.graphdrawing.org/xmlns"


def _clean(text: object) -> str:
    """``text`` as a string without the characters XML 1.0 cannot hold (``None`` is '')."""
    return "" if text is None else xml_text(str(text))


def schema_graph(schema: SiteSchema) -> nx.MultiDiGraph:
    """The schema as a networkx graph, every attribute a string or a float (what GraphML holds)."""
    graph = nx.MultiDiGraph(id="schema")
    for node in schema.nodes:
        graph.add_node(_clean(node.id), label=_clean(f"{node.type} {node.xpath}"), page=_clean(node.page),
                       type=_clean(node.type), xpath=_clean(node.xpath), keywords=_clean(" ".join(node.keywords)))
    for i, edge in enumerate(schema.edges):
        graph.add_edge(_clean(edge.source), _clean(edge.target), key=f"e{i}", kind=_clean(edge.kind),
                       weight=float(edge.weight))
    return graph


def to_graphml(schema: SiteSchema) -> bytes:
    out = io.BytesIO()
    nx.write_graphml(schema_graph(schema), out, encoding="utf-8", prettyprint=True)
    return out.getvalue()


def to_json(schema: SiteSchema, crawl: str = "") -> str:
    return json.dumps({"crawl": crawl, **schema.as_dict()}, indent=1, ensure_ascii=False) + "\n"
