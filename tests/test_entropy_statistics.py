"""Sufficient statistics of term entropy: a batch's statistics give the batch
entropy; the paper's worked example; edge cases. (Joining statistics, any order or
split across workers, is the store's: ``tests/test_entropy_middleware.py``.)"""
from __future__ import annotations

import math
import struct

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import entropy as scipy_entropy

from skeleton.entropy.statistics import (EMPTY, TermStats, batch_entropy, batch_statistics, decode,
                                         encode, entropy, weight, weights)

REL = 1e-9
#: EN values this small are compared absolutely (both sides are ~0).
ABS = 1e-12

pages_st = st.lists(st.integers(min_value=0, max_value=1000), min_size=1, max_size=60)


def scipy_en(counts: list[int], n: int) -> float:
    positive = [c for c in counts if c > 0]
    if n <= 1 or len(positive) <= 1:
        return 0.0
    return float(scipy_entropy(np.array(positive, dtype=float), base=n))


def from_counts(counts: list[int]) -> TermStats:
    """The statistics of one term from its per-page frequencies (zeros: pages
    without it), as :func:`batch_statistics` computes them."""
    terms, totals, pages, spreads = batch_statistics({"t": tf} for tf in counts if tf > 0)
    return TermStats(totals[0], pages[0], spreads[0]) if terms else EMPTY


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=REL, abs_tol=ABS)


def test_paper_worked_example() -> None:
    # Figure 5: Term_A is 2, 2, 2 on pages 1-3; Term_B is 1, 1, 4; n = 4 pages.
    term_a, term_b = from_counts([2, 2, 2, 0]), from_counts([1, 1, 4, 0])
    assert round(weight(term_a, 4), 6) == 0.207519
    assert round(weight(term_b, 4), 6) == 0.374185
    # Appendix A, relationship (1): uniform distribution -> W = IDF = log_n(n / df)
    assert math.isclose(weight(term_a, 4), math.log(4 / 3, 4), rel_tol=1e-12)
    # relationship (2): skewed over the same pages -> W > IDF
    assert weight(term_b, 4) > math.log(4 / 3, 4)


@settings(max_examples=200, deadline=None)
@given(pages_st, st.integers(min_value=0, max_value=50))
def test_incremental_equals_scipy_batch(counts: list[int], extra_pages: int) -> None:
    n = len(counts) + extra_pages  # pages without the term count in n too
    stats = from_counts(counts)
    assert stats.total == sum(counts)
    assert stats.pages == sum(1 for c in counts if c > 0)
    assert close(entropy(stats, n), scipy_en(counts, n))
    assert close(entropy(stats, n), batch_entropy(counts, n))


def test_zero_counts_single_page_single_term() -> None:
    assert from_counts([]) == EMPTY and from_counts([0, 0]) == EMPTY
    assert entropy(EMPTY, 10) == 0.0 and weight(EMPTY, 10) == 1.0
    one_page = from_counts([7])
    assert entropy(one_page, 1) == 0.0 and entropy(one_page, 100) == 0.0
    # a crawl of one page, or none: log_n is undefined, EN = 0
    assert entropy(from_counts([1, 1]), 1) == 0.0 and entropy(from_counts([1, 1]), 0) == 0.0
    # a term on every page, uniformly: EN = 1 exactly (up to rounding), W = 0
    assert math.isclose(entropy(from_counts([3] * 9), 9), 1.0, rel_tol=1e-12)
    assert 0.0 <= weight(from_counts([3] * 9), 9) < 1e-12
    # df larger than n (inconsistent reads) is clamped, never above 1
    assert entropy(from_counts([1, 1, 1]), 2) == 1.0


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(min_value=0, max_value=10**6), st.integers(min_value=0, max_value=5),
                          st.floats(min_value=0, max_value=1e12)), max_size=20),
       st.integers(min_value=0, max_value=10**6))
def test_weights_of_rows_equal_weight_of_each(rows: list[tuple[int, int, float]], n: int) -> None:
    assert weights([(float(s), float(df), g) for s, df, g in rows], n) == \
        [weight(TermStats(s, df, g), n) for s, df, g in rows]


def test_encode_decode_round_trip_and_bad_values() -> None:
    for stats in (EMPTY, from_counts([1, 2, 3]), from_counts([2**40, 5]), TermStats(1, 1, 0.0),
                  TermStats(2**32 - 1, 1, 0.0), TermStats(2**32, 1, 0.0), TermStats(7, 2**32, 1.5)):
        assert decode(encode(stats)) == stats
    # a term of one page: its count in digits (an integer in a Redis hash)
    assert encode(TermStats(1, 1, 0.0)) == b"1" and encode(TermStats(123, 1, 0.0)) == b"123"
    assert decode("42") == TermStats(42, 1, 0.0)
    # counts below 2**32: two 32-bit integers and a double; above, three doubles
    assert len(encode(from_counts([1, 2, 3]))) == 16 and len(encode(TermStats(2**32, 1, 0.0))) == 24
    assert len(encode(TermStats(2**32 - 1, 2, 0.5))) == 16
    for bad in (None, 3, b"", "1 2", "a b c", b"-1", b"1.5", b"\x00" * 25, b"\xff" * 16,
                struct.pack("<ddd", float("inf"), 1, 1), struct.pack("<ddd", 1, 1, float("nan")),
                struct.pack("<IId", 1, 2, -1.0)):
        assert decode(bad) is None
