"""The learned edge score: how likely a candidate edge is the page's true parent.

Gradient-boosted regression trees (scikit-learn's ``GradientBoostingClassifier``
with its default size: ``N_TREES`` trees of depth ``TREE_DEPTH``) over the
features of :mod:`skeleton.hierarchy.features`, trained by ``scrapy train`` on
labelled sites (an edge is positive when its parent is the child's parent in the
truth) and shipped in the default model under ``edges``. Trees capture what one
linear score cannot: a feature that means "parent" on a manual and "shortcut" on
a blog. Stored as plain JSON (feature names, the prior log-odds, the learning
rate and each tree's node arrays): no pickle; scoring needs numpy only.

The tree maximizes the sum of ``log p`` over its edges
(:mod:`skeleton.hierarchy.arborescence`). A model without ``edges`` (trained
before edges were scored) scores by the shortest-path rule the crawl used
before: the edge that keeps the child at its smallest distance from the root.
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from .features import CAP, FEATURES

__all__ = ["EdgeModel", "EdgeModelError", "FOLDER_CONFIRMED", "N_TREES", "TIE_BREAK", "TREE_DEPTH", "UNLISTED",
           "edge_weights", "folder_confirmed", "model_weights", "site_weights", "train_edge_model", "unlisted"]

#: boosting rounds, tree depth and learning rate: scikit-learn's defaults, not tuned
N_TREES = 100
TREE_DEPTH = 3
LEARNING_RATE = 0.1
#: weight of the shortest-path rule that breaks the model's ties (the rule's weights
#: span about ``3 * CAP``: at most a few millionths per edge, it decides only
#: between candidates the model scores alike)
TIE_BREAK = 1e-7
#: log-odds added to a candidate the URL folders confirm (:func:`folder_confirmed`):
#: 1.5, 3 and 6 were compared held out by generator family; 3 and 6 give the same trees
FOLDER_CONFIRMED = 3.0
#: log-odds taken from a candidate that neither lists the child nor is named by it
#: (:func:`unlisted`): 3 and 6 were compared held out by generator family; 6 also frees
#: tomcat10's Tribes pages from the home page
UNLISTED = 6.0
#: the model kind stored in ``edges["kind"]``
KIND = "gradient-boosted-trees"


class EdgeModelError(ValueError):
    """An edge model whose kind or features do not match this version's."""


@dataclass
class Tree:
    """One regression tree in scikit-learn's array layout (a leaf has ``left == -1``)."""
    feature: list[int]
    threshold: list[float]
    left: list[int]
    right: list[int]
    value: list[float]

    def predict(self, x: np.ndarray) -> np.ndarray:
        feature, threshold = np.asarray(self.feature), np.asarray(self.threshold)
        left, right, value = np.asarray(self.left), np.asarray(self.right), np.asarray(self.value)
        node = np.zeros(len(x), dtype=int)
        for _ in range(len(self.feature)):
            inner = left[node] >= 0
            if not inner.any():
                break
            go_left = x[np.arange(len(x)), np.where(inner, feature[node], 0)] <= threshold[node]
            node = np.where(inner, np.where(go_left, left[node], right[node]), node)
        return value[node]

    def valid(self, n_features: int) -> bool:
        n = len(self.feature)
        return (n > 0 and len(self.threshold) == len(self.left) == len(self.right) == len(self.value) == n
                and all(-1 <= c < n for c in self.left + self.right)
                and all(f < n_features for f in self.feature)
                and all((lt < 0) == (rt < 0) and (lt < 0 or f >= 0)
                        for f, lt, rt in zip(self.feature, self.left, self.right)))


@dataclass
class EdgeModel:
    kind: str
    features: list[str]
    init: float
    learning_rate: float
    trees: list[Tree]
    meta: dict[str, Any]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EdgeModel:
        try:
            model = cls(kind=str(data.get("kind")), features=list(data["features"]),
                        init=float(data["init"]), learning_rate=float(data["learning_rate"]),
                        trees=[Tree(feature=[int(v) for v in t["feature"]],
                                    threshold=[float(v) for v in t["threshold"]],
                                    left=[int(v) for v in t["left"]], right=[int(v) for v in t["right"]],
                                    value=[float(v) for v in t["value"]]) for t in data["trees"]],
                        meta=dict(data.get("meta") or {}))
        except (KeyError, TypeError, ValueError) as exc:
            raise EdgeModelError("the model's edge score is not one this version reads: retrain it "
                                 "with `scrapy train`") from exc
        if model.kind != KIND or tuple(model.features) != FEATURES or not all(
                t.valid(len(FEATURES)) for t in model.trees):
            raise EdgeModelError("the model's edge features differ from this version's: retrain it "
                                 "with `scrapy train`")
        return model

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def log_odds(self, rows: Sequence[Sequence[float]]) -> np.ndarray:
        if not rows:
            return np.zeros(0)
        x = np.asarray(rows, dtype=float)
        return self.init + self.learning_rate * sum((t.predict(x) for t in self.trees), np.zeros(len(x)))


_GAP, _DIST, _OFFERED, _COARSER = (FEATURES.index(f) for f in ("gap", "dist", "offered", "coarser"))
_DIRECT, _FOLDER, _FROM_ROOT, _CONTRADICTED, _NAMED = (FEATURES.index(f) for f in (
    "direct", "folder", "from_root", "contradicted", "named"))


def folder_confirmed(row: Sequence[float]) -> bool:
    """Is the candidate a listing the site's URL folders confirm? It lists the child
    on its own page (``direct``), it is the child's parent in the URL-folder tree
    (``folder``), it is not the root, its listing holds no other candidate's
    (``coarser``: a blog index listing every post beside a category listing some), and
    the child's own evidence names no other candidate (``contradicted``). The truth
    rule's innermost listing, where the menus and the folders agree (issue 28:
    "URL folders that agree with the menus are strong evidence")."""
    return bool(row[_DIRECT] and row[_FOLDER] and not row[_FROM_ROOT] and not row[_COARSER]
                and not row[_CONTRADICTED])


def unlisted(row: Sequence[float]) -> bool:
    """Is the candidate one that no page offers as the child's parent and that the
    child's own evidence does not name: a candidate only because its URL folder holds
    the child (:meth:`.features.EdgeRows`)? The truth rule's parent is the section
    whose own listing files the page; such a candidate files nothing, and the root,
    whose folder holds every page, is one for every page of a flat site. It stays a
    candidate, for a page no listing reaches."""
    return not row[_OFFERED] and not row[_NAMED]


def _shortest_path(row: Sequence[float]) -> float:
    # last, between parents at one distance: the innermost listing (the truth rule's
    # "innermost section that lists the page"), not the one holding another's listing
    return (-row[_GAP] - 0.01 * row[_DIST] - 0.001 * row[_COARSER]
            - (0.0 if row[_OFFERED] else 2.0 * CAP))


def edge_weights(rows: Sequence[Sequence[float]], model: Mapping[str, Any] | None) -> list[float]:
    """The arborescence weight of each row: ``log p`` of the learned score, or, with
    no edge model, minus the edge's shortcut length (``gap``) and a small preference
    for shallower parents, then for the innermost listing (``coarser``), the
    shortest-path rule (a parent the child names without offering it a link comes last). With a model, ``TIE_BREAK`` times the
    shortest-path weight is added: candidates the model scores alike (pages of one
    site-wide sidebar, none of them named by the child) are told apart by that
    rule, never by their URLs' order; scores that differ by more than a few
    millionths keep their order. A candidate the URL folders confirm
    (:func:`folder_confirmed`) gets ``FOLDER_CONFIRMED`` more than the model says, one
    that neither lists the child nor is named by it (:func:`unlisted`) ``UNLISTED`` less."""
    return model_weights(rows, EdgeModel.from_dict(model) if model else None)


def model_weights(rows: Sequence[Sequence[float]], model: EdgeModel | None) -> list[float]:
    """:func:`edge_weights` with the edge model already read (None: the
    shortest-path rule). Each row's weight depends on that row alone, so rows may
    be scored in batches of any size."""
    if model is None:
        return [_shortest_path(row) for row in rows]
    z = model.log_odds(rows)
    # log(sigmoid(z)), stable for large |z|
    return [(-math.log1p(math.exp(-v)) if v > -30 else v) + TIE_BREAK * _shortest_path(row)
            + (FOLDER_CONFIRMED if folder_confirmed(row) else 0.0) - (UNLISTED if unlisted(row) else 0.0)
            for v, row in zip(z.tolist(), rows)]


def site_weights(sites: Sequence[str]) -> np.ndarray:
    """The weight of each row of a training set whose rows come from ``sites`` (the
    site of each row): the mean number of rows per site over the number of its own
    site's rows, so that every site weighs the same in the fit and a manual of a
    thousand pages teaches no more than a blog of fifty (the brief: learn from many
    sites, not from the largest)."""
    counts = Counter(sites)
    mean = len(sites) / len(counts) if counts else 1.0
    return np.asarray([mean / counts[site] for site in sites], dtype=float)


def train_edge_model(rows: Sequence[Sequence[float]], labels: Sequence[int],
                     meta: Mapping[str, Any] | None = None,
                     sites: Sequence[str] | None = None) -> dict[str, Any]:
    """Fit the gradient-boosted trees on candidate edge rows (label 1: the true
    parent); returns the JSON-safe model stored under ``edges`` in a SEW model file.
    With ``sites`` (the site each row comes from), every site weighs the same
    (:func:`site_weights`); without, every row does. Deterministic (fixed
    ``random_state``)."""
    from sklearn.ensemble import GradientBoostingClassifier

    x = np.asarray(rows, dtype=float)
    y = np.asarray(labels, dtype=int)
    if x.ndim != 2 or x.shape[1] != len(FEATURES) or len(set(y.tolist())) < 2:
        raise EdgeModelError("training an edge model needs rows of every feature and both labels")
    if sites is not None and len(sites) != len(y):
        raise EdgeModelError("training an edge model needs the site of every row")
    clf = GradientBoostingClassifier(n_estimators=N_TREES, max_depth=TREE_DEPTH,
                                     learning_rate=LEARNING_RATE, random_state=0)
    weights = site_weights(sites) if sites is not None else np.ones(len(y))
    clf.fit(x, y, sample_weight=weights)
    # the trees fit the residuals of the weighted prior (scikit-learn's default init)
    prior = min(max(float(np.average(y, weights=weights)), 1e-9), 1 - 1e-9)
    trees = []
    for (estimator,) in clf.estimators_:
        t = estimator.tree_
        trees.append(Tree(feature=t.feature.tolist(), threshold=t.threshold.round(9).tolist(),
                          left=t.children_left.tolist(), right=t.children_right.tolist(),
                          value=t.value[:, 0, 0].round(9).tolist()))
    return EdgeModel(kind=KIND, features=list(FEATURES), init=round(math.log(prior / (1 - prior)), 9),
                     learning_rate=LEARNING_RATE, trees=trees,
                     meta={"edges": int(len(y)), "positives": int(y.sum()), **(meta or {})}).to_dict()
