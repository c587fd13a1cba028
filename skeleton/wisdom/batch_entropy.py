"""Term entropy over a batch of pages (paper Section 3.1), for benchmarks and tests.

EN(t) = -sum_j w_j log_n w_j, w_j = tf_j / sum_j tf_j, over the n = |D| pages
(pages without the term add nothing; pages without any term still count in n),
and the weight W(t) = 1 - EN(t). It is computed from two sums per term,
TF = sum tf_j and S = sum tf_j ln tf_j: EN = (ln TF - S / TF) / ln n.
A term found in a single page has EN = 0 (W = 1); with n = 1 every term does.

The paper's worked example (Figure 5, 4 pages): Term_A with counts (2, 2, 2, 0)
has W = 0.207519, Term_B with (1, 1, 4, 0) has W = 0.374185.

The crawl's incremental, shared version lives in the entropy middleware; this
module is the plain batch computation it must agree with.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

__all__ = ["batch_entropy", "batch_weights"]


def batch_entropy(pages: Iterable[Mapping[str, int]]) -> dict[str, float]:
    """EN of every term in ``pages`` (one term-frequency mapping per page), in [0, 1]."""
    totals: dict[str, int] = {}
    sums: dict[str, float] = {}
    n = 0
    for counts in pages:
        n += 1
        for term, tf in counts.items():
            if tf > 0:
                totals[term] = totals.get(term, 0) + tf
                sums[term] = sums.get(term, 0.0) + tf * math.log(tf)
    if n < 2:
        return {term: 0.0 for term in totals}
    log_n = math.log(n)
    out = {}
    for term, total in totals.items():
        en = (math.log(total) - sums[term] / total) / log_n
        out[term] = 0.0 if en < 1e-12 else 1.0 if en > 1.0 else en
    return out


def batch_weights(pages: Iterable[Mapping[str, int]]) -> dict[str, float]:
    """W = 1 - EN of every term in ``pages``."""
    return {term: 1.0 - en for term, en in batch_entropy(pages).items()}
