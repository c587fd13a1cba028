"""SELECTNAVLINKSET (SEW Section 3.3.2, Figure 3): NORMDIST, COMBINECONF, PROB.

The product of six densities underflows easily, so confidences are handled as
logarithms: ``log c_i = sum_j log NORMDIST(f_j(s_i))``. The logarithm is monotone,
so ranking is unchanged; ``mu_c`` and ``sigma_c`` are trained on ``log c``.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

from .features import FEATURES
from .links import LinkNode
from .model import SEWModel
from .nesting import is_nested

__all__ = ["normdist", "log_normdist", "prob", "combine_conf", "log_confidence", "select"]

_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)


def normdist(f: float, mu: float, sigma: float) -> float:
    """Standardized normal density of ``f`` (Figure 3, lines 17-20)."""
    z = (f - mu) / sigma
    return math.exp(-0.5 * z * z) / math.sqrt(2 * math.pi)


def log_normdist(f: float, mu: float, sigma: float) -> float:
    z = (f - mu) / sigma
    return -0.5 * z * z - _LOG_SQRT_2PI


def prob(f: float, mu: float, sigma: float) -> float:
    """Cumulative normal probability of ``f`` (Figure 3, lines 21-23)."""
    return 0.5 * math.erfc(-(f - mu) / (sigma * math.sqrt(2)))


def combine_conf(confidences: Sequence[float]) -> float:
    """COMBINECONF: the product of per-feature confidences (independence assumption)."""
    return math.prod(confidences)


def log_confidence(values: Sequence[float], model: SEWModel) -> float:
    """``log c_i`` of one candidate's feature vector."""
    return sum(log_normdist(v, *model.features[name]) for name, v in zip(FEATURES, values)
               if name in model.features)


def select(scores: Sequence[float], model: SEWModel,
           candidates: Sequence[Sequence[LinkNode]] = ()) -> list[int]:
    """Indices of the accepted candidates, given their ``log c``.

    SEW accepts the best candidate when its PROB reaches tau (Figure 3). The
    model's ``accept`` rule may add the passing candidates nested inside accepted
    ones ("nested"), or every passing candidate ("all"). With every rule, the
    levels that enclose an accepted set are accepted too: when the sections of a
    table of contents are navigation, so are its chapters."""
    if not scores:
        return []
    probs = [prob(s, model.mu_c, model.sigma_c) for s in scores]
    passing = [i for i, p in enumerate(probs) if p >= model.tau]
    if not passing:
        return []
    best = max(passing, key=scores.__getitem__)
    chosen = set(passing) if model.accept == "all" else {best}
    by_depth = sorted(range(len(candidates)), key=lambda i: candidates[i][0].depth)
    grown = True
    while grown:
        grown = False
        for i in by_depth:
            if i in chosen:
                continue
            encloses = any(is_nested(candidates[j], candidates[i]) for j in chosen)
            nested = (model.accept != "best" and i in passing
                      and any(is_nested(candidates[i], candidates[j]) for j in chosen))
            if encloses or nested:
                chosen.add(i)
                grown = True
    return sorted(chosen)
