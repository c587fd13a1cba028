"""Logical schema, page model: primary nodes, collections and logical sections."""
from __future__ import annotations

from lxml import etree

from skeleton.schema.collections import distance, page_collections, similar
from skeleton.schema.primary import primary_nodes
from skeleton.schema.sections import page_sections, section_records
from skeleton.web.dom import parse_html

URL = "http://gizmo.example/products.html"
PAGE = """<html><head><title>Gizmo Works - Products</title><meta name="author" content="G"></head>
<body><div class="top"><a href="/"><img src="logo.png" alt="Gizmo Works"></a><span>Gizmo Works Ltd</span></div>
<ul class="menu"><li><a href="/a">Home</a></li><li><a href="/b">Products</a></li><li><a href="/c">About</a></li></ul>
<form action="/s"><input name="q"><button>Search</button></form>
<div class="content"><h1>Products</h1><p>Our sprockets are the finest sprockets made anywhere.</p>
<p>They come in many colours and sizes and last a lifetime.</p></div>
<hr>
<div class="foot">Copyright 2024 Gizmo. <a href="mailto:w@gizmo.example">Webmaster</a></div></body></html>"""


def test_primary_node_properties() -> None:
    root = parse_html("<html><body><table><tr><td><strong><em>a</em></strong></td>"
                      "<td>b</td></tr></table></body></html>")
    nodes = {(n.tag, n.number): n for n in primary_nodes(root)}
    body, table, tr = nodes[("body", 0)], nodes[("table", 1)], nodes[("tr", 2)]
    td1, td2 = nodes[("td", 3)], nodes[("td", 4)]
    assert (body.relative_depth, table.relative_depth, tr.relative_depth, td1.relative_depth) == (0, 1, 2, 3)
    assert (td1.absolute_depth, td2.absolute_depth) == (4, 4)
    assert (td1.levels, td1.leaves) == (2.0, 0)  # td > strong > em: not a direct leaf
    assert (td2.levels, td2.leaves) == (0.0, 1)  # its text
    assert td1.parent is tr and tr.children == [td1, td2] and body.size == 5
    assert similar(td1, td2) and distance(td1, table) == float("inf")
    assert primary_nodes(None) == []


def test_similar_brothers_form_one_collection_and_hr_separates() -> None:
    root = parse_html("<html><body><p>one two</p><p>three four</p><hr><p>five</p><p>six</p></body></html>")
    collections = page_collections(primary_nodes(root))
    assert [[m.tag for m in c.members] for c in collections] == [["p", "p"], ["hr"], ["p", "p"]]


def test_sections_of_a_small_page() -> None:
    sections = page_sections(parse_html(PAGE), URL)
    assert [(s.type, s.xpath) for s in sections] == [
        ("document_information", "/html/head"), ("header", "/html/body/div[1]"),
        ("index", "/html/body/ul"), ("interactive", "/html/body/form"),
        ("logical_data", "/html/body/div[2]"), ("footer", "/html/body/div[3]")]
    assert sections[2].links == ["http://gizmo.example/a", "http://gizmo.example/b",
                                 "http://gizmo.example/c"]
    assert "sprockets" in sections[4].terms
    records = section_records(parse_html(PAGE), URL)
    assert set(records[0]) == {"type", "xpath", "terms", "links"}
    root = parse_html(PAGE)
    for record in records:  # every XPath selects its section
        assert root.getroottree().xpath(record["xpath"])


def test_runs_of_paragraphs_get_a_position_xpath() -> None:
    root = parse_html("<html><body><div><a href='/x'>x</a><span>y</span></div>"
                      "<p>alpha beta gamma</p><p>delta epsilon</p></body></html>")
    sections = page_sections(root, URL)
    data = [s for s in sections if s.type == "logical_data"]
    assert data[0].xpath == "/html/body/p[position() >= 1 and position() <= 2]"
    assert len(root.getroottree().xpath(data[0].xpath)) == 2


def test_bad_inputs_give_partial_or_empty_answers() -> None:
    assert page_sections(None, URL) == []
    assert page_sections(parse_html("<p>no links at all</p>"), URL)[0].type in ("header", "logical_data")
    links = "".join(f'<li><a href="/p{i}">page {i}</a></li>' for i in range(10_000))
    [index] = page_sections(parse_html(f"<html><body><ul>{links}</ul></body></html>"), URL)
    assert index.type == "index" and len(index.links) == 1000
    node = root = etree.Element("html")
    body = etree.SubElement(root, "body")
    node = body
    for _ in range(5000):
        node = etree.SubElement(node, "div")
    etree.SubElement(node, "a", href="/deep").text = "deep link"
    sections = page_sections(root, URL)
    assert [s.links for s in sections] == [["http://gizmo.example/deep"]]
    deep = parse_html("<div>" * 5000 + "text" + "</div>" * 5000)  # libxml2 stops near 2 000 levels
    assert isinstance(page_sections(deep, URL), list)
    dl = "".join(f"<dt><a href='/t{i}'>term {i}</a></dt><dd>meaning</dd>" for i in range(5))
    [toc] = page_sections(parse_html(f"<html><body><dl>{dl}</dl></body></html>"), URL)
    assert toc.xpath == "/html/body/dl" and toc.type == "index"


def test_a_page_with_one_link_is_one_index_section() -> None:
    [only] = page_sections(parse_html("<html><body><a href='/only'>only</a></body></html>"), URL)
    assert (only.type, only.links) == ("index", ["http://gizmo.example/only"])
