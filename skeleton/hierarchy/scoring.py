"""The learned edge score: how likely a candidate edge is the page's true parent.

A logistic regression over the standardized features of
:mod:`skeleton.hierarchy.features`, trained by ``scrapy train`` on labelled
sites (an edge is positive when its parent is the child's parent in the truth)
and shipped in the default model under ``edges``. Stored as plain JSON (feature
names, means, scales, coefficients, intercept): no pickle.

The tree maximizes the sum of ``log p`` over its edges
(:mod:`skeleton.hierarchy.arborescence`). A model without ``edges`` (trained
before edges were scored) scores by the shortest-path rule the crawl used
before: the edge that keeps the child at its smallest distance from the root.
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from .features import CAP, FEATURES

__all__ = ["EdgeModel", "EdgeModelError", "edge_weights", "train_edge_model"]

#: L2 regularization strength of the logistic regression (scikit-learn's ``C``)
REGULARIZATION_C = 1.0


class EdgeModelError(ValueError):
    """An edge model whose features do not match this version's."""


@dataclass
class EdgeModel:
    features: list[str]
    mean: list[float]
    scale: list[float]
    coef: list[float]
    intercept: float
    meta: dict[str, Any]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EdgeModel:
        model = cls(features=list(data["features"]), mean=[float(x) for x in data["mean"]],
                    scale=[float(x) or 1.0 for x in data["scale"]],
                    coef=[float(x) for x in data["coef"]], intercept=float(data["intercept"]),
                    meta=dict(data.get("meta") or {}))
        if tuple(model.features) != FEATURES or not (
                len(model.mean) == len(model.scale) == len(model.coef) == len(FEATURES)):
            raise EdgeModelError("the model's edge features differ from this version's: retrain it "
                                 "with `scrapy train`")
        return model

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def log_odds(self, rows: Sequence[Sequence[float]]) -> np.ndarray:
        if not rows:
            return np.zeros(0)
        x = (np.asarray(rows, dtype=float) - np.asarray(self.mean)) / np.asarray(self.scale)
        return x @ np.asarray(self.coef) + self.intercept


def edge_weights(rows: Sequence[Sequence[float]], model: Mapping[str, Any] | None) -> list[float]:
    """The arborescence weight of each row: ``log p`` of the learned score, or, with
    no edge model, minus the edge's shortcut length (``gap``) and a small preference
    for shallower parents, the shortest-path rule (a parent the child names without
    offering it a link comes last)."""
    if not model:
        gap, dist, offered = FEATURES.index("gap"), FEATURES.index("dist"), FEATURES.index("offered")
        return [-row[gap] - 0.01 * row[dist] - (0.0 if row[offered] else 2.0 * CAP) for row in rows]
    z = EdgeModel.from_dict(model).log_odds(rows)
    # log(sigmoid(z)), stable for large |z|
    return [(-math.log1p(math.exp(-v)) if v > -30 else v) for v in z.tolist()]


def train_edge_model(rows: Sequence[Sequence[float]], labels: Sequence[int],
                     meta: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Fit the logistic regression on candidate edge rows (label 1: the true parent);
    returns the JSON-safe model stored under ``edges`` in a SEW model file."""
    from sklearn.linear_model import LogisticRegression

    x = np.asarray(rows, dtype=float)
    y = np.asarray(labels, dtype=int)
    if x.ndim != 2 or x.shape[1] != len(FEATURES) or len(set(y.tolist())) < 2:
        raise EdgeModelError("training an edge model needs rows of every feature and both labels")
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    clf = LogisticRegression(C=REGULARIZATION_C, max_iter=2000)
    clf.fit((x - mean) / scale, y)
    return EdgeModel(features=list(FEATURES), mean=mean.round(6).tolist(),
                     scale=scale.round(6).tolist(), coef=clf.coef_[0].round(6).tolist(),
                     intercept=round(float(clf.intercept_[0]), 6),
                     meta={"edges": int(len(y)), "positives": int(y.sum()), **(meta or {})}).to_dict()
