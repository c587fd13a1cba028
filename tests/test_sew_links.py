"""Link nodes of the XHTML DOM tree model (SEW Section 3.2.1): skeleton.sew.links."""
from __future__ import annotations

import lxml.html
import pytest
from lxml import etree

from skeleton.web.dom import parse_html
from skeleton.sew.links import MAX_LINKS, STYLE_ATTRIBUTES, extract_links, sec_name
from skeleton.web.urls import URLType

PAGE = "http://example.org/docs/guide/page.html"


def links_of(html: str, url: str = PAGE):
    return extract_links(parse_html(html.encode("utf-8")), url)


def test_only_a_elements_with_href_are_link_nodes() -> None:
    links = links_of("""<html><body>
        <a name="top">named anchor, no href</a>
        <a href="one.html">One</a>
        <area href="map.html">
        <link href="style.css">
        <a href="">empty href</a>
        </body></html>""")
    assert [link.href for link in links] == ["one.html", ""]


def test_link_nodes_are_numbered_in_document_order() -> None:
    # pre-order, depth-first, left-to-right: the order of the <a> tags in the source
    links = links_of("""<html><body>
        <div><p><a href="a.html">A</a></p><a href="b.html">B</a></div>
        <a href="c.html">C</a>
        <table><tr><td><div><span><a href="d.html">D</a></span></div></td>
                   <td><a href="e.html">E</a></td></tr></table>
        </body></html>""")
    assert [link.sec_name for link in links] == ["A", "B", "C", "D", "E"]
    assert [link.number for link in links] == [0, 1, 2, 3, 4]


def test_sec_name_concatenates_all_anchor_texts_whitespace_collapsed() -> None:
    (link,) = links_of('<html><body><a href="x.html">  World\n <b>News</b>\t<i> Today</i> </a></body></html>')
    assert link.sec_name == "World News Today"
    assert link.anchor == "text"
    assert link.words == 3


def test_sec_name_of_an_image_anchor_is_its_alt() -> None:
    links = links_of("""<html><body><p>
        <a href="home.html"><img src="h.png" alt="  Home   page "></a>
        <a href="logo.html"><img src="logo.png"></a>
        <a href="both.html"><img src="i.png" alt="not used">Text wins</a>
        <a href="empty.html"></a>
        </p></body></html>""")
    assert [(link.sec_name, link.anchor) for link in links] == [
        ("Home page", "image"),   # ALT of the IMG
        ("", "image"),            # ALT not set: SecName is the empty string
        ("Text wins", "text"),    # an anchor with text is a text anchor
        ("", "text"),             # neither text nor image
    ]


def test_a_bare_number_is_its_own_anchor_type() -> None:
    links = links_of("""<html><body><p>
        <a href="t.html">Slow SSD after firmware update</a> <a href="t-2.html">2</a>
        <a href="t-3.html"> 3 </a> <a href="#fn1">[1]</a> <a href="c12.html">Chapter 12</a>
        <a href="y.html">2024</a> <a href="big.html">12345</a></p></body></html>""")
    assert [(link.sec_name, link.anchor) for link in links] == [
        ("Slow SSD after firmware update", "text"),
        ("2", "number"),          # a page of a listing
        ("3", "number"),
        ("[1]", "number"),        # a footnote
        ("Chapter 12", "text"),
        ("2024", "number"),
        ("12345", "text"),        # more than four digits: not a page number
    ]


def test_sec_name_function_on_a_bare_element() -> None:
    a = lxml.html.fragment_fromstring('<a href="x"><span><img alt="Deep alt"></span></a>')
    assert sec_name(a) == ("Deep alt", "image")


def test_depth_is_the_number_of_nodes_on_the_path_to_the_root() -> None:
    links = links_of("""<html><body>
        <a href="top.html">Top</a>
        <ul><li><a href="item.html">Item</a></li></ul>
        </body></html>""")
    top, item = links
    assert top.path == ("html", "body", "a") and top.depth == 3
    assert item.path == ("html", "body", "ul", "li", "a") and item.depth == 5


def test_href_url_and_type() -> None:
    links = links_of("""<html><body>
        <a href="sub/a.html">rel</a><a href="/root.html">abs</a>
        <a href="http://other.org/x">cross</a><a href="#frag">anchor</a>
        <a href="javascript:void(0)">js</a></body></html>""")
    assert [(link.href, link.url, link.url_type) for link in links] == [
        ("sub/a.html", "http://example.org/docs/guide/sub/a.html", URLType.RELATIVE),
        ("/root.html", "http://example.org/root.html", URLType.ABSOLUTE),
        ("http://other.org/x", "http://other.org/x", URLType.CROSS_SITE),
        ("#frag", "", URLType.ANCHOR),
        ("javascript:void(0)", "", URLType.OTHER),
    ]


def test_style_holds_presentation_attributes_along_the_path() -> None:
    (link,) = links_of("""<html><body bgcolor="#fff"><table border="0" class="layout">
        <tr bgcolor="red"><td width="20" id="cell"><font size="2" color="blue" face="Arial">
        <a href="x.html" style="color: red" class="nav">X</a></font></td></tr></table></body></html>""")
    # libxml2 does not insert a <tbody>
    assert link.path == ("html", "body", "table", "tr", "td", "font", "a")
    assert link.style == (
        ("html",),
        ("body", "bgcolor=#fff"),
        ("table", "border=0"),          # class is not a style attribute
        ("tr", "bgcolor=red"),
        ("td", "width=20"),             # id is not a style attribute
        ("font", "size=2", "color=blue", "face=Arial"),
        ("a", "style=color: red"),
    )
    assert "class" not in STYLE_ATTRIBUTES and "id" not in STYLE_ATTRIBUTES


def test_style_attributes_are_listed_in_a_fixed_order() -> None:
    # attribute order in the source does not matter
    a, b = links_of("""<html><body>
        <font color="red" size="3"><a href="a.html">A</a></font>
        <font size="3" color="red"><a href="b.html">B</a></font></body></html>""")
    assert a.style == b.style


def test_chain_identifies_the_ancestor_elements() -> None:
    a, b, c = links_of("""<html><body>
        <ul><li><a href="a.html">A</a></li><li><a href="b.html">B</a></li></ul>
        <ul><li><a href="c.html">C</a></li></ul></body></html>""")
    assert len(a.chain) == len(a.path) - 1
    # same html, body and ul; different li
    assert a.chain[:3] == b.chain[:3] and a.chain[3] != b.chain[3]
    # same html and body; another ul
    assert a.chain[:2] == c.chain[:2] and a.chain[2] != c.chain[2]
    assert len(set(a.chain)) == len(a.chain)


def test_no_root_gives_no_links() -> None:
    assert extract_links(None, PAGE) == []


def _deep_tree(levels: int) -> etree._Element:
    # built element by element: the HTML parser itself gives up far earlier
    html = lxml.html.HTMLParser().makeelement("html")
    body = etree.SubElement(html, "body")
    node = body
    for _ in range(levels):
        node = etree.SubElement(node, "div")
    for name in ("deep1", "deep2"):
        a = etree.SubElement(node, "a", href=f"{name}.html")
        a.text = name
    top = etree.SubElement(body, "a", href="top.html")
    top.text = "top"
    return html


def test_deep_nesting_of_5000_levels_does_not_recurse() -> None:
    links = extract_links(_deep_tree(5000), PAGE)
    assert [link.sec_name for link in links] == ["deep1", "deep2", "top"]
    deep1, deep2, top = links
    assert deep1.depth == deep2.depth == 5000 + 3
    assert len(deep1.path) == len(deep1.style) == 5003
    assert deep1.chain == deep2.chain and len(deep1.chain) == 5002
    assert top.depth == 3 and top.chain == deep1.chain[:2]


def test_deeply_nested_html_source_parses_and_extracts_without_error() -> None:
    # deeper than Python's recursion limit, within what libxml2's HTML parser keeps
    html = ("<html><body>" + "<div>" * 1500 + '<a href="deep.html">Deep</a>'
            + "</div>" * 1500 + '<a href="top.html">Top</a></body></html>')
    deep, top = extract_links(parse_html(html.encode()), PAGE)
    assert (deep.sec_name, deep.depth) == ("Deep", 1503)
    assert (top.sec_name, top.depth) == ("Top", 3)


def test_5000_levels_of_html_source_do_not_raise() -> None:
    html = ("<html><body>" + "<div>" * 5000 + '<a href="deep.html">Deep</a>'
            + "</div>" * 5000 + "</body></html>")
    root = parse_html(html.encode())
    assert root is not None
    links = extract_links(root, PAGE)  # no RecursionError
    assert all(link.depth == len(link.path) for link in links)


def test_max_links_bounds_the_number_of_link_nodes() -> None:
    items = "".join(f'<li><a href="p{i}.html">Page {i}</a></li>' for i in range(MAX_LINKS + 25))
    links = links_of(f"<html><body><ul>{items}</ul></body></html>")
    assert len(links) == MAX_LINKS
    assert [link.number for link in links] == list(range(MAX_LINKS))
    # the first MAX_LINKS in document order are kept
    assert links[-1].sec_name == f"Page {MAX_LINKS - 1}"


def test_anchors_without_href_do_not_count_towards_max_links() -> None:
    # anchors without href do not use up the budget
    items = '<a name="x">x</a>' * 10 + "".join(f'<a href="p{i}.html">P{i}</a>' for i in range(MAX_LINKS))
    links = links_of(f"<html><body>{items}</body></html>")
    assert len(links) == MAX_LINKS and links[0].href == "p0.html"


@pytest.mark.parametrize("html", ["<html></html>", "<html><body><p>no links</p></body></html>"])
def test_pages_without_links(html: str) -> None:
    assert links_of(html) == []


def test_repeated_links_beyond_max_links_do_not_hide_later_new_links() -> None:
    menu = "".join(f'<a href="m{i}.html#s{j}">M{i}</a>' for j in range(MAX_LINKS // 4 + 10) for i in range(4))
    tail = '<nav><a href="s1.html">S1</a><a href="m0.html">again</a><a href="s2.html">S2</a></nav>'
    links = links_of(f"<html><body><div>{menu}</div>{tail}</body></html>")
    assert len(links) == MAX_LINKS + 2
    assert [link.number for link in links] == list(range(MAX_LINKS + 2))
    s1, s2 = links[-2:]
    assert (s1.sec_name, s2.sec_name) == ("S1", "S2")
    assert s1.url == "http://example.org/docs/guide/s1.html" and s1.path == ("html", "body", "nav", "a")
    assert s2.number == s1.number + 1 and s2.depth == 4


def test_max_links_bounds_the_distinct_targets_of_a_huge_page() -> None:
    repeats = '<a href="r.html">R</a>' * (MAX_LINKS + 10)
    distinct = "".join(f'<a href="p{i}.html">P{i}</a>' for i in range(MAX_LINKS + 10))
    links = links_of(f"<html><body>{repeats}{distinct}</body></html>")
    assert len({link.url for link in links}) == MAX_LINKS
    assert len(links) == 2 * MAX_LINKS - 1
    assert links[-1].sec_name == f"P{MAX_LINKS - 2}"
