"""SELECTNAVLINKSET (SEW Section 3.3.2, Figure 3): NORMDIST, COMBINECONF, PROB.

The product of six densities underflows easily, so confidences are handled as
logarithms: ``log c_i = sum_j log NORMDIST(f_j(s_i))``. The logarithm is monotone,
so ranking is unchanged; ``mu_c`` and ``sigma_c`` are trained on ``log c``.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

from .features import FEATURES
from .model import SEWModel

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
    return sum(log_normdist(v, *model.features[name]) for name, v in zip(FEATURES, values))


def select(scores: Sequence[float], model: SEWModel) -> list[int]:
    """Indices of accepted candidates given their ``log c``: the best one if its PROB
    reaches tau (SEW), or with ``model.multi`` every candidate whose PROB does."""
    if not scores:
        return []
    probs = [prob(s, model.mu_c, model.sigma_c) for s in scores]
    if model.multi:
        return [i for i, p in enumerate(probs) if p >= model.tau]
    best = max(range(len(scores)), key=scores.__getitem__)
    return [best] if probs[best] >= model.tau else []
