"""Information coverage tree (Section 3.2.1), CII (3.1.1) and SII (3.1.3)."""
from __future__ import annotations

import math

import lxml.html
import pytest

from skeleton.wisdom.coverage import ATOMIC_SII, build_coverage_tree
from skeleton.wisdom.features import extract_features
from skeleton.wisdom.sii import structure_information

URL = "http://site.test/index.html"


def tree_of(html, weights=None):
    root = lxml.html.fromstring(html)
    return build_coverage_tree(extract_features(root, URL, weights or {}))


def index(tree, id_):
    return [i for i, el in enumerate(tree.nodes.elements) if el.get("id") == id_][0]


def test_aggregation_like_figure_7():
    # Figure 7: a node labelled 6 = 3 + (3 + 0), its parent 8 = 1 + (1 + 6)
    tree = tree_of('<div id="top">x<p id="one">y</p><div id="six">abc<p>def</p><p></p></div></div>')
    assert tree.clen_a[index(tree, "six")] == 6
    assert tree.clen_a[index(tree, "top")] == 8
    assert tree.clen_a[index(tree, "one")] == 1
    assert tree.alen_a[0] == 0


def test_aggregated_anchors_api_and_tlen():
    tree = tree_of('<ul><li><a href="a.html">alpha</a> zeta</li><li><a href="b.html">beta gamma</a></li></ul>',
                   {"alpha": 0.5, "beta": 0.5, "gamma": 0.0})
    assert tree.anchors_a[0] == 2
    assert tree.alen_a[0] == len("alpha") + len("beta gamma")
    assert tree.clen_a[0] == len("zeta")
    assert tree.tlen_a(0) == tree.alen_a[0] + tree.clen_a[0]
    assert tree.api_a[0] == pytest.approx(2.0 + 2.0 + 1.0)
    assert tree.mean_api(0) == pytest.approx(2.5)
    # CII of the list: (0.5 + 0 [zeta] + 0.5 + 0) / 4 terms
    assert tree.cii(0) == pytest.approx(0.25)


def test_cii_of_a_node_without_terms_is_zero():
    tree = tree_of("<div><p>2024</p></div>")
    assert tree.cii(0) == 0.0 and tree.mean_api(0) == 0.0


def test_structure_information_values():
    assert structure_information([2, 2]) == pytest.approx(1.0)
    three_one = -(0.75 * math.log(0.75) + 0.25 * math.log(0.25)) / math.log(2)
    assert structure_information([3, 1]) == pytest.approx(three_one)  # 0.811278
    assert structure_information([2, 2, 0]) == pytest.approx(math.log(2) / math.log(3))
    assert structure_information([5]) == 0.0
    assert structure_information([]) == 0.0
    assert structure_information([0, 0]) == 0.0
    assert structure_information([float("nan"), 1, 1]) == pytest.approx(math.log(2) / math.log(3))


def test_sii_of_tree_nodes():
    tree = tree_of('<div id="even"><p>abcd</p><p>efgh</p></div>')
    assert tree.sii(index(tree, "even"), "clen") == pytest.approx(1.0)
    tree = tree_of('<div id="skew"><p>abc</p><p>d</p></div>')
    assert tree.sii(index(tree, "skew"), "clen") == pytest.approx(0.811278, abs=1e-6)
    tree = tree_of('<div id="one"><p>abcd</p></div>')
    assert tree.sii(index(tree, "one"), "clen") == 0.0  # a single child: pass through
    # own text is a text child: (own 2, child 2) -> atomic; (own 1, children 2, 2) -> entropy
    tree = tree_of('<p id="own">ab<b>cd</b></p>')
    assert tree.sii(index(tree, "own"), "clen") == ATOMIC_SII
    tree = tree_of('<p id="mix">a<b>cd</b><i>ef</i></p>')
    expected = structure_information([2, 2, 1])
    assert tree.sii(index(tree, "mix"), "clen") == pytest.approx(expected)
    assert tree.sii(index(tree, "mix"), "alen") == 0.0


def test_unknown_feature_is_rejected():
    tree = tree_of("<p>x</p>")
    with pytest.raises(ValueError):
        tree.aggregated("tlen")
