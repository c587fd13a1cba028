"""Term entropy from sufficient statistics (WISDOM Section 3.1 and Appendix A).

The paper's entropy of a term over the n pages seen so far is

    EN = -sum_j w_j log_n w_j,   w_j = tf_j / S,   S = sum_j tf_j,

(tf_j: the term's frequency in page j; pages without the term add nothing), and
its weight is W = 1 - EN. With Q = sum_j tf_j ln tf_j this is
EN = (ln S - Q / S) / ln n. Appendix A updates EN page by page, but its branch
``E_k / log_k(k+1)`` for pages *without* the term touches every term of the
vocabulary on every page. Here each term keeps three numbers that do not depend
on n, so a page updates only its own terms and EN is exact at read time:

* ``total`` = S, the term's total frequency;
* ``pages`` = df, the number of pages containing it;
* ``spread`` = G = S ln S - Q = S * H, where H = -sum_j w_j ln w_j (nats).

Then EN = G / (S ln n). G is kept instead of Q because ``ln S - Q/S`` cancels
catastrophically for concentrated terms; G is updated with non-negative terms
only (no cancellation): joining a set of pages with total t and spread G_t to
(S, G) gives

    G' = G + G_t + S log1p(t / S) + t log1p(S / t),

so the statistics form a commutative monoid: any arrival order or split across
workers yields the same value (up to float rounding, ~1e-15 relative). The join
is done where the statistics are stored, atomically, and is written there only
(:data:`skeleton.store.entropy.UPDATE_SCRIPT`, tested against :func:`batch_entropy`);
this module computes a batch's statistics (:func:`batch_statistics`) and EN from
statistics (:func:`entropy`, :func:`weights`, the one place EN is written).
The paper's worked example (Figure 5, n = 4) gives W(Term_A) =
0.207519 and W(Term_B) = 0.374185.

Edge cases: a term never seen (S = 0), seen on one page (df = 1) or a crawl of at
most one page (n <= 1) has EN = 0 and W = 1; EN is clamped to [0, 1] and is
never NaN.
"""
from __future__ import annotations

import math
import struct
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["TermStats", "EMPTY", "batch_statistics", "entropy", "weight", "weights", "batch_entropy",
           "encode", "decode"]


@dataclass(frozen=True, slots=True)
class TermStats:
    """Sufficient statistics of one term: total frequency S, page count df and
    spread G = S ln S - sum_j tf_j ln tf_j (nats, >= 0)."""

    total: int = 0
    pages: int = 0
    spread: float = 0.0


EMPTY = TermStats()
_SHORT = struct.Struct("<IId")
_LONG = struct.Struct("<ddd")
_SMALL = 2**32
#: tf ln tf for the small frequencies most terms have (batch_statistics)
_TABLE_SIZE = 1024
_TF_LOG_TF = [0.0] + [tf * math.log(tf) for tf in range(1, _TABLE_SIZE)]


def batch_statistics(pages: Iterable[Mapping[str, int]]
                     ) -> tuple[list[str], list[int], list[int], list[float]]:
    """The statistics of a batch of pages, per term, as four parallel lists: the
    terms (in order of first appearance), S, df and G. ``pages`` are term counts,
    one mapping per page, positive ints, each page counted once.

    G = S ln S - sum_j tf_j ln tf_j, computed directly (0 for a term of one page;
    terms with tf = 1 add nothing to the sum): within a batch S is small, so the
    subtraction loses at most ~1e-13 relative, and joining the batch with the stored
    statistics (the store's join) is as order-free as page-by-page updates. Costs one
    C-level count per page and Python work only for the terms a page repeats."""
    df: Counter[str] = Counter()
    repeats: dict[str, int] = {}  # sum of (tf - 1)
    q: dict[str, float] = {}  # sum of tf ln tf
    log, table = math.log, _TF_LOG_TF
    for counts in pages:
        df.update(counts.keys())  # an iterable, not a mapping: counted in C
        for term, tf in counts.items():
            if tf > 1:
                repeats[term] = repeats.get(term, 0) + tf - 1
                q[term] = q.get(term, 0.0) + (table[tf] if tf < _TABLE_SIZE else tf * log(tf))
    terms = list(df)
    pages_of = [df[term] for term in terms]
    totals = [d + repeats.get(term, 0) for term, d in zip(terms, pages_of)]
    spreads = [0.0 if d == 1 else max(0.0, total * log(total) - q.get(term, 0.0))
               for term, d, total in zip(terms, pages_of, totals)]
    return terms, totals, pages_of, spreads


def _entropy(total: float, pages: float, spread: float, log_n: float) -> float:
    """EN = G / (S ln n), clamped to [0, 1]; 0 for a term of at most one page
    (the one place the formula is written: :func:`entropy`, :func:`weights`)."""
    if total <= 0 or pages <= 1 or not spread > 0:
        return 0.0
    value = spread / (total * log_n)
    if not math.isfinite(value):
        return 0.0
    return min(1.0, max(0.0, value))


def entropy(stats: TermStats, n: int) -> float:
    """EN of a term over ``n`` pages, in [0, 1]."""
    if n <= 1:
        return 0.0
    return _entropy(float(stats.total), stats.pages, stats.spread, math.log(n))


def weight(stats: TermStats, n: int) -> float:
    """W = 1 - EN of a term over ``n`` pages, in [0, 1]."""
    return 1.0 - entropy(stats, n)


def weights(rows: Iterable[tuple[float, float, float]], n: int) -> list[float]:
    """W of each ``(S, df, G)`` row over ``n`` pages: :func:`weight` of each, without
    building a :class:`TermStats` per term (the statistics a store returns)."""
    if n <= 1:
        return [1.0 for _ in rows]
    log_n = math.log(n)
    return [1.0 - _entropy(total, pages, spread, log_n) for total, pages, spread in rows]


def batch_entropy(counts: Iterable[int], n: int) -> float:
    """EN straight from the definition, -sum_j w_j log_n w_j (a reference for
    tests; the same edge cases as :func:`entropy`)."""
    positive = [tf for tf in counts if tf > 0]
    total = sum(positive)
    if n <= 1 or len(positive) <= 1:
        return 0.0
    value = -sum((tf / total) * math.log(tf / total) for tf in positive) / math.log(n)
    return min(1.0, max(0.0, value))


def encode(stats: TermStats) -> bytes:
    """Storage form (the Redis script writes the same, :data:`skeleton.store.entropy.UPDATE_SCRIPT`),
    as small as a term's statistics allow, since a crawl keeps one per term:

    * a term seen on one page (df = 1, G = 0; about half the vocabulary): S in decimal
      digits (Redis keeps such a field value as an integer, 1 to 5 bytes);
    * S and df below 2**32: S and df as little-endian unsigned 32-bit integers and G
      as a little-endian IEEE double (16 bytes);
    * else S, df and G as three little-endian doubles (24 bytes; exact counts up to
      2**53, as in Lua).

    Told apart by their length; no number formatting in Lua but for a new term."""
    total, pages = stats.total, stats.pages
    if total < _SMALL and pages < _SMALL:
        if pages == 1 and stats.spread == 0:
            return str(total).encode("ascii")
        return _SHORT.pack(total, pages, float(stats.spread))
    return _LONG.pack(float(total), float(pages), float(stats.spread))


def decode(value: Any) -> TermStats | None:
    """Inverse of :func:`encode` (bytes or str). ``None`` if unreadable."""
    if isinstance(value, str):
        value = value.encode("latin-1", "replace")
    if not isinstance(value, (bytes, bytearray)):
        return None
    value = bytes(value)
    if len(value) == _SHORT.size:
        total, pages, spread = _SHORT.unpack(value)
    elif len(value) == _LONG.size:
        total_f, pages_f, spread = _LONG.unpack(value)
        if not (math.isfinite(total_f) and math.isfinite(pages_f)):
            return None
        total, pages = int(total_f), int(pages_f)
    elif value.isdigit():
        total, pages, spread = int(value), 1, 0.0
    else:
        return None
    if total < 0 or pages < 0 or not (math.isfinite(spread) and spread >= 0):
        return None
    return TermStats(total, pages, spread)
