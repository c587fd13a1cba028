"""Scoring a skeleton against a true tree: skeleton.sew.evaluation.

All expected values are computed by hand.
"""
from __future__ import annotations

from fractions import Fraction as Q

import pytest

from skeleton.sew.evaluation import DEPTH_LIMITS, prf, score_tree, tree_depths

# truth:  R -> A -> A1 -> A1x
#              A -> A2
#         R -> B -> B1
TRUE_EDGES = [("R", "A"), ("R", "B"), ("A", "A1"), ("A", "A2"), ("B", "B1"), ("A1", "A1x")]
# found:  R -> A -> A1 -> A1x
#              A -> B1          (wrong parent, right depth)
#         R -> I -> Z           (I is a page outside the true tree, listed as ignored)
FOUND_EDGES = [("R", "A"), ("R", "I"), ("A", "A1"), ("A", "B1"), ("I", "Z"), ("A1", "A1x")]


def check(result, precision, recall, found, true) -> None:
    precision, recall = Q(precision), Q(recall)
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0
    assert (result.found, result.true) == (found, true)
    assert result.precision == pytest.approx(float(precision))
    assert result.recall == pytest.approx(float(recall))
    assert result.f1 == pytest.approx(float(f1))


def test_depth_limits() -> None:
    assert DEPTH_LIMITS == (1, 2, 3, None)


def test_tree_depths() -> None:
    assert tree_depths("R", TRUE_EDGES) == {"R": 0, "A": 1, "B": 1, "A1": 2, "A2": 2, "B1": 2, "A1x": 3}


def test_tree_depths_is_loop_safe_and_keeps_the_shallowest_depth() -> None:
    edges = [("R", "A"), ("A", "B"), ("B", "R"), ("B", "A"), ("R", "B"), ("X", "Y")]
    assert tree_depths("R", edges) == {"R": 0, "A": 1, "B": 1}


def test_page_scores_at_depth_limits() -> None:
    score = score_tree("R", FOUND_EDGES, "R", TRUE_EDGES, ignore=["I"])
    # depth <= 1: found R, A (I ignored); true R, A, B
    check(score.pages["1"], 1, Q(2, 3), found=2, true=3)
    # depth <= 2: found R, A, A1, B1, Z; true R, A, B, A1, A2, B1; common R, A, A1, B1
    check(score.pages["2"], Q(4, 5), Q(4, 6), found=5, true=6)
    assert score.pages["2"].f1 == pytest.approx(8 / 11)
    # all: + A1x on both sides
    check(score.pages["3"], Q(5, 6), Q(5, 7), found=6, true=7)
    check(score.pages["all"], Q(5, 6), Q(5, 7), found=6, true=7)
    assert score.pages["all"].f1 == pytest.approx(10 / 13)


def test_edge_scores_at_depth_limits() -> None:
    score = score_tree("R", FOUND_EDGES, "R", TRUE_EDGES, ignore=["I"])
    # level 1: found (R,A) [(R,I) ignored]; true (R,A), (R,B)
    check(score.edges["1"], 1, Q(1, 2), found=1, true=2)
    assert score.edges["1"].f1 == pytest.approx(2 / 3)
    # level 2: found (R,A), (A,A1), (A,B1), (I,Z); true (R,A), (R,B), (A,A1), (A,A2), (B,B1)
    check(score.edges["2"], Q(2, 4), Q(2, 5), found=4, true=5)
    assert score.edges["2"].f1 == pytest.approx(4 / 9)
    # all: + (A1,A1x) on both sides
    check(score.edges["all"], Q(3, 5), Q(3, 6), found=5, true=6)
    assert score.edges["all"].f1 == pytest.approx(6 / 11)


def test_ignored_pages_are_not_false_positives() -> None:
    without = score_tree("R", FOUND_EDGES, "R", TRUE_EDGES)
    ignoring = score_tree("R", FOUND_EDGES, "R", TRUE_EDGES, ignore=["I"])
    # without the ignore list, I is one more false page and (R,I) one more false edge
    check(without.pages["1"], Q(2, 3), Q(2, 3), found=3, true=3)
    check(without.edges["1"], Q(1, 2), Q(1, 2), found=2, true=2)
    assert ignoring.pages["1"].precision > without.pages["1"].precision
    assert ignoring.edges["1"].precision > without.edges["1"].precision


def test_an_ignored_page_in_the_true_tree_still_counts_as_a_page() -> None:
    # ignoring a page the truth does contain changes nothing for pages
    a = score_tree("R", FOUND_EDGES, "R", TRUE_EDGES, ignore=["I"])
    b = score_tree("R", FOUND_EDGES, "R", TRUE_EDGES, ignore=["I", "A", "B1"])
    assert a.as_dict()["pages"] == b.as_dict()["pages"]


def test_an_ignored_page_in_the_true_tree_still_counts_for_edges() -> None:
    a = score_tree("R", FOUND_EDGES, "R", TRUE_EDGES, ignore=["I"])
    b = score_tree("R", FOUND_EDGES, "R", TRUE_EDGES, ignore=["I", "B1"])
    assert a.as_dict()["edges"] == b.as_dict()["edges"]


def test_perfect_tree() -> None:
    score = score_tree("R", TRUE_EDGES, "R", TRUE_EDGES)
    for label in ("1", "2", "3", "all"):
        assert score.pages[label].f1 == 1.0 and score.edges[label].f1 == 1.0


def test_wrong_parent_counts_against_edges_not_pages() -> None:
    found = [("R", "A"), ("R", "B"), ("A", "A1"), ("A", "A2"), ("A", "B1"), ("A1", "A1x")]
    score = score_tree("R", found, "R", TRUE_EDGES)
    assert score.pages["all"].f1 == 1.0
    check(score.edges["all"], Q(5, 6), Q(5, 6), found=6, true=6)
    assert score.edges["1"].f1 == 1.0


def test_only_the_root_found() -> None:
    score = score_tree("R", [], "R", TRUE_EDGES)
    check(score.pages["1"], 1, Q(1, 3), found=1, true=3)
    # no edge found: precision 0 against a non-empty truth
    check(score.edges["all"], 0, 0, found=0, true=6)


def test_same_maps_found_urls_to_truth_urls() -> None:
    found = [("R/", "A/"), ("R/", "B")]
    score = score_tree("R/", found, "R", [("R", "A"), ("R", "B")], same={"R/": "R", "A/": "A"})
    assert score.edges["1"].f1 == 1.0 and score.pages["1"].f1 == 1.0


def test_found_pages_unreachable_from_the_root_are_not_counted() -> None:
    score = score_tree("R", [("R", "A"), ("X", "Y")], "R", [("R", "A")])
    assert score.pages["all"].f1 == 1.0 and score.edges["all"].f1 == 1.0


def test_prf() -> None:
    assert prf({1, 2, 3}, {2, 3, 4, 5}) == prf({3, 2, 1}, {5, 4, 3, 2})
    r = prf({1, 2, 3}, {2, 3, 4, 5})
    assert (r.precision, r.recall, r.f1) == (pytest.approx(2 / 3), 0.5, pytest.approx(4 / 7))
    assert prf(set(), set()).f1 == 1.0
    assert prf({1}, set()).precision == 0.0 and prf({1}, set()).recall == 1.0
    assert prf(set(), {1}).f1 == 0.0
    # ignored items outside the truth are dropped from the found set
    r = prf({1, 2, 9}, {1, 2}, ignore={9})
    assert (r.precision, r.recall, r.found) == (1.0, 1.0, 2)


def test_as_dict_rounds() -> None:
    d = score_tree("R", FOUND_EDGES, "R", TRUE_EDGES, ignore=["I"]).as_dict()
    assert d["edges"]["2"] == {"precision": 0.5, "recall": 0.4, "f1": 0.4444, "found": 4, "true": 5}
    assert set(d["pages"]) == {"1", "2", "3", "all"}
