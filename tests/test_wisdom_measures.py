"""Batch entropy (Section 3.1, Figure 5) and the IC / SNC measures (Section 4.1)."""
from __future__ import annotations

import math

import lxml.html
import pytest

from skeleton.wisdom.batch_entropy import batch_entropy, batch_weights
from skeleton.wisdom.evaluation import Overlap, coverage_mask, node_amounts, overlap
from skeleton.wisdom.features import extract_features


def test_paper_worked_example():
    pages = [{"a": 2, "b": 1}, {"a": 2, "b": 1}, {"a": 2, "b": 4}, {"c": 1}]
    w = batch_weights(pages)
    assert w["a"] == pytest.approx(0.207519, abs=1e-6)
    assert w["b"] == pytest.approx(0.374185, abs=1e-6)
    assert w["a"] == pytest.approx(math.log(4 / 3, 4))  # uniform: W = IDF (Appendix A)
    assert w["c"] == 1.0


def test_entropy_edge_cases():
    assert batch_entropy([]) == {}
    assert batch_entropy([{"x": 5}]) == {"x": 0.0}
    assert batch_entropy([{"x": 0}, {"x": 3}]) == {"x": 0.0}
    assert batch_entropy([{"x": 1}, {"x": 1}]) == {"x": pytest.approx(1.0)}
    big = batch_entropy([{"x": 10**15}, {"x": 10**15}, {}])
    assert big["x"] == pytest.approx(math.log(2) / math.log(3))
    assert all(0.0 <= v <= 1.0 for v in batch_entropy([{"t": i + 1} for i in range(50)]).values())


def test_ic_and_snc_counts():
    root = lxml.html.fromstring(
        '<div><p id="a">abcde<a href="x">l1</a></p><p id="b">fgh<a href="y">l2</a><a href="z">l3</a></p>'
        '<p id="c">ij</p></div>')
    nodes = extract_features(root, "http://t/", {})
    idx = {el.get("id"): i for i, el in enumerate(nodes.elements) if el.get("id")}
    answer = coverage_mask(nodes, [0], [idx["c"]])  # everything but c
    output = coverage_mask(nodes, [idx["b"], idx["c"]])
    ic = overlap(node_amounts(nodes, "ic"), answer, output)
    assert (ic.aw, ic.ao, ic.wo) == (3, 5, 2)
    assert ic.precision == pytest.approx(3 / 5) and ic.recall == pytest.approx(3 / 8)
    snc = overlap(node_amounts(nodes, "snc"), answer, output)
    assert (snc.aw, snc.ao, snc.wo) == (2, 1, 0)
    assert snc.precision == 1.0 and snc.f1 == pytest.approx(0.8)
    total = ic + snc
    assert (total.aw, total.ao, total.wo) == (5, 6, 2)
    assert Overlap().precision is None and Overlap().recall is None and Overlap().f1 is None
    with pytest.raises(ValueError):
        node_amounts(nodes, "tlen")
