"""The site schema as GraphML (for Gephi, yEd) and as JSON.

GraphML is written with lxml: the GraphML namespace, every attribute declared
as a ``<key>`` (``for``, ``attr.name``, ``attr.type``) before the graph, one
directed graph (edge ``kind`` physical or logical; a logical link is
symmetric and written once, from the smaller section id; mixed directedness
is left out because several readers, networkx among them, reject it).
"""
from __future__ import annotations

import json

from lxml import etree

from .site import SiteSchema

__all__ = ["GRAPHML_NS", "to_graphml", "to_json"]

GRAPHML_NS = "http://graphml.graphdrawing.org/xmlns"
_XSI = "http://www.w3.org/2001/XMLSchema-instance"
_SCHEMA_LOCATION = f"{GRAPHML_NS} http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd"
#: (id, for, attr.name, attr.type)
_KEYS = (("d0", "node", "label", "string"), ("d1", "node", "page", "string"),
         ("d2", "node", "type", "string"), ("d3", "node", "xpath", "string"),
         ("d4", "node", "keywords", "string"), ("d5", "edge", "kind", "string"),
         ("d6", "edge", "weight", "double"))


def _q(tag: str) -> str:
    return f"{{{GRAPHML_NS}}}{tag}"


def _data(parent: etree._Element, key: str, value: str) -> None:
    el = etree.SubElement(parent, _q("data"), key=key)
    el.text = value


def _clean(text: str) -> str:
    """Drop characters XML 1.0 cannot hold."""
    return "".join(c for c in text if c in "\t\n\r" or (" " <= c <= "\ud7ff") or ("\ue000" <= c <= "\ufffd")
                   or c >= "\U00010000")


def to_graphml(schema: SiteSchema) -> bytes:
    root = etree.Element(_q("graphml"), nsmap={None: GRAPHML_NS, "xsi": _XSI})
    root.set(f"{{{_XSI}}}schemaLocation", _SCHEMA_LOCATION)
    for key, kind, name, typ in _KEYS:
        etree.SubElement(root, _q("key"), {"id": key, "for": kind, "attr.name": name,
                                           "attr.type": typ})
    graph = etree.SubElement(root, _q("graph"), id="schema", edgedefault="directed")
    for node in schema.nodes:
        el = etree.SubElement(graph, _q("node"), id=_clean(node.id))
        _data(el, "d0", _clean(f"{node.type} {node.xpath}"))
        _data(el, "d1", _clean(node.page))
        _data(el, "d2", node.type)
        _data(el, "d3", _clean(node.xpath))
        _data(el, "d4", _clean(" ".join(node.keywords)))
    for i, edge in enumerate(schema.edges):
        attrs = {"id": f"e{i}", "source": _clean(edge.source), "target": _clean(edge.target)}
        el = etree.SubElement(graph, _q("edge"), attrs)
        _data(el, "d5", edge.kind)
        _data(el, "d6", repr(float(edge.weight)))
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)


def to_json(schema: SiteSchema, crawl: str = "") -> str:
    return json.dumps({"crawl": crawl, **schema.as_dict()}, indent=1, ensure_ascii=False) + "\n"
