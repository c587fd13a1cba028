"""benchmarks/leave_two_out.py: which second families a site depends on, and the summary."""
from __future__ import annotations

from benchmarks.leave_two_out import DROP, SITE_BAR, depends_on, summary


def test_a_site_depends_on_the_families_whose_absence_costs_more_than_the_drop() -> None:
    without = {"a": 0.95, "b": 1.0 - DROP, "c": 0.2}
    assert depends_on(1.0, without) == ["a", "c"]
    assert depends_on(0.9, {"a": 0.95}) == []


def test_summary_counts_pairs_under_the_bar_and_means_by_second_family() -> None:
    rows = [{"site": "s1", "loo": 1.0, "without": {"b": 1.0, "c": 0.1}},
            {"site": "s2", "loo": 0.9, "without": {"a": 0.9, "c": 0.9}},
            {"site": "s3", "loo": 1.0, "without": {"a": 1.0, "b": 1.0}}]
    s = summary(rows)
    assert s["sites"] == 3 and s["pairs"] == 6
    assert s["loo_mean"] == round((1.0 + 0.9 + 1.0) / 3, 4)
    assert s["pairs_under_bar"] == 1 and 0.1 < SITE_BAR
    assert s["sites_under_bar"] == ["s1"]
    # a site that never lost family "a" counts with its held-out figure in a's mean
    assert s["mean_by_extra"]["a"] == round((1.0 + 0.9 + 1.0) / 3, 4)
    assert s["mean_by_extra"]["c"] == round((0.1 + 0.9 + 1.0) / 3, 4)
