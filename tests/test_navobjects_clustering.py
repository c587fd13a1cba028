"""CHD-HD (skeleton.navobjects.domtree, .clustering): indexing, equations (1)-(5),
Algorithm 1 on hand-built DOM trees, and bad input."""
from __future__ import annotations

import lxml.html
import pytest
from lxml import etree

from skeleton.navobjects.clustering import (Block, chd_hd, cluster_hyperlinks, density_threshold,
                                            gap_threshold, neighbour_distances)
from skeleton.navobjects.domtree import EPSILON, dom_distance, gap, hyperlink_density, index_tree
from skeleton.web.dom import parse_html

TEXT20 = " ".join(["word"] * 20)
TWO_MENUS = (f"<html><head><title>t</title></head><body><div><a href=1>A</a><a href=2>B</a><a href=3>C</a></div>"
             f"<p>{TEXT20}</p><div><a href=4>D</a><a href=5>E</a></div></body></html>")


def texts(tree, blocks):
    return [[tree.anchor_texts[k] for k in b.links] for b in blocks]


def test_dfs_index_counts_elements_text_nodes_and_link_leaves() -> None:
    tree = index_tree(lxml.html.document_fromstring(TWO_MENUS))
    # body=1 div=2 a=3,4,5 p=6 text=7 div=8 a=9,10 (head and title are not under body)
    assert len(tree) == 10
    assert [tree.link_index(k) for k in range(5)] == [3, 4, 5, 9, 10]
    assert tree.text_words[0] == 25 and tree.anchor_words[0] == 5
    assert neighbour_distances(tree) == [1, 1, 4, 1]
    assert dom_distance(tree, 0, 4) == 7
    assert gap(tree, [0, 1, 2], [3, 4]) == 4  # equation (2): the closest pair, 9 - 5


def test_two_menus_split_by_the_gap() -> None:
    tree, blocks = chd_hd(lxml.html.document_fromstring(TWO_MENUS))
    assert gap_threshold(neighbour_distances(tree)) == 1
    assert density_threshold(tree) == pytest.approx(5 / 25)
    assert texts(tree, blocks) == [["A", "B", "C"], ["D", "E"]]
    assert [tree.element[b.container].tag for b in blocks] == ["div", "div"]


def test_hyperlink_density_splits_links_separated_by_text() -> None:
    html = f"<body><div><a href=1>A</a> {' '.join(['w'] * 10)} <a href=2>B</a><a href=3>C</a></div></body>"
    tree = index_tree(parse_html(html))
    # the text between A and B makes HD({A, text, B}) = 2/12 < 0.5: split there
    assert texts(tree, cluster_hyperlinks(tree, gt=5, hdt=0.5)) == [["A"], ["B", "C"]]
    # with a low density threshold the whole page is one block (Algorithm 1, lines 36-37)
    assert cluster_hyperlinks(tree, gt=5, hdt=0.1) == [Block(0, 3, 0)]
    # and with gt = 1 the distance 2 between A and B splits it as well
    assert texts(tree, cluster_hyperlinks(tree, gt=1, hdt=0.0)) == [["A"], ["B", "C"]]


def test_a_split_child_closes_the_cluster_before_it_and_starts_a_new_one() -> None:
    html = ("<body><a href=0>Z</a><div><a href=1>A</a><a href=2>B</a><p>x</p><p>y</p><a href=3>C</a></div>"
            "<a href=4>D</a><a href=5>E</a></body>")
    tree = index_tree(parse_html(html))
    blocks = cluster_hyperlinks(tree, gt=2, hdt=0.0)
    # the div splits (A B | C: gap 5), so Z stands alone and D E start afresh (lines 15-18)
    assert texts(tree, blocks) == [["Z"], ["A", "B"], ["C"], ["D", "E"]]
    assert sorted(k for b in blocks for k in b.links) == list(range(6))  # a partition


def test_gap_threshold_equation_4() -> None:
    assert gap_threshold([]) == 0
    assert gap_threshold([0, 0]) == 0
    assert gap_threshold([5]) == 0  # DL = [5, 0]: 1 + 1/2 against 0 + 2/2
    # DL = [100, 2 x 7, 0]: i = 2 gives 0.02 + 2/9, the minimum
    assert gap_threshold([2, 2, 100, 2, 2, 2, 2, 2]) == 2
    assert gap_threshold([2, 2, 100, 2, 2, 2, 2, 2], beta=0.0) == 0
    assert gap_threshold([40, 30, 1, 1, 1, 1, 1, 1, 1, 1, 1]) == 1


def test_hyperlink_density_equation_3() -> None:
    assert EPSILON == 1e-10
    assert hyperlink_density(0, 0) == 1.0
    assert hyperlink_density(3, 12) == pytest.approx(0.25)
    assert hyperlink_density(0, 5) == pytest.approx(1e-10 / 5)


def test_chd_is_gamma_zero() -> None:
    html = f"<body><div><a href=1>A</a> {' '.join(['w'] * 30)} <a href=2>B</a></div></body>"
    tree = index_tree(parse_html(html))
    assert density_threshold(tree, gamma=0.0) == 0.0
    assert density_threshold(tree) == pytest.approx(2 / 32)


def test_scripts_and_comments_carry_no_words_but_their_tails_do() -> None:
    html = "<body><script>var a = 1 + 2;</script>tail words <!-- c --> after<a href=x>Link text</a></body>"
    tree = index_tree(parse_html(html))
    assert tree.text_words[0] == 5 and tree.anchor_words[0] == 2


@pytest.mark.parametrize("html", ["", "<html></html>", "<p>no links at all</p>", "<a>no href</a>"])
def test_no_links_gives_no_blocks(html: str) -> None:
    tree, blocks = chd_hd(parse_html(html))
    assert blocks == [] and tree.links == []


def test_none_and_a_comment_root() -> None:
    assert chd_hd(None)[1] == []
    assert chd_hd(etree.Comment("x"))[1] == []


def test_one_link_is_one_block() -> None:
    tree, blocks = chd_hd(parse_html("<body><p>Hello <a href=x>world</a></p></body>"))
    assert blocks == [Block(0, 1, 0)]


def test_deep_nesting_5000_levels() -> None:
    root = etree.Element("html")
    node = etree.SubElement(root, "body")
    for _ in range(5000):
        node = etree.SubElement(node, "div")
    for i in range(3):
        a = etree.SubElement(node, "a", href=f"/{i}")
        a.text = f"deep {i}"
    tree, blocks = chd_hd(root)
    assert len(tree) == 5004 and sum(len(b) for b in blocks) == 3
    # libxml2 stops nesting at depth 2048 and drops what is deeper: an empty answer
    parsed = parse_html("<div>" * 5000 + "<a href=x>x</a><a href=y>y</a>" + "</div>" * 5000)
    assert sum(len(b) for b in chd_hd(parsed)[1]) <= 2


def test_ten_thousand_links() -> None:
    html = "<body><ul>" + "".join(f"<li><a href=/{i}>Item {i}</a></li>" for i in range(10_000)) + "</ul></body>"
    tree, blocks = chd_hd(parse_html(html))
    assert len(tree.links) == 10_000
    assert sorted(k for b in blocks for k in b.links) == list(range(10_000))
