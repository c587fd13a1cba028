"""Structure information index, SII (paper Section 3.1.3).

SII(N, f) = -sum_j w_j log_m w_j with w_j = f(n_j) / sum_k f(n_k) over the m
non-dummy children n_j of N: the entropy of the children's share of a feature,
normalised to [0, 1] by the log base m. 1 means the children share the feature
evenly (the root of a generated list of similar entries); 0 means one child holds
all of it.
"""
from __future__ import annotations

import math
from collections.abc import Iterable

__all__ = ["structure_information"]


def structure_information(values: Iterable[float]) -> float:
    """Normalised entropy of ``values`` (base ``m = len(values)``), in [0, 1].

    Zero values count in ``m`` and add nothing to the sum (0 log 0 = 0). With fewer
    than two values, or a zero total, there is no distribution and the result is 0.
    Negative or non-finite values are treated as 0.
    """
    clean = [v if (v > 0.0 and math.isfinite(v)) else 0.0 for v in values]
    m = len(clean)
    total = sum(clean)
    if m < 2 or total <= 0.0:
        return 0.0
    h = 0.0
    for v in clean:
        if v > 0.0:
            share = v / total
            h -= share * math.log(share)
    h /= math.log(m)
    return 0.0 if h < 0.0 else 1.0 if h > 1.0 else h
