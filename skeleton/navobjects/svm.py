"""The block classifier (paper Section 4.2): an SVM with an RBF kernel, C = 1,
gamma = 0.1 (Section 5.3.2), on standardised features.

It is fitted with scikit-learn's ``SVC`` but stored as plain JSON (support
vectors, dual coefficients, intercepts, gamma, classes, the scaler's mean and
scale), never pickled: loading a model file runs no code. Prediction evaluates
the RBF decision function with numpy, exactly as libsvm does for ``SVC``:

    K(x, v) = exp(-gamma * ||x - v||^2)
    f_ij(x) = sum_{v in SV_i} a_v K(x, v) + sum_{v in SV_j} a_v K(x, v) + b_ij

for every pair of classes i < j (one-vs-one), a vote for i when f_ij > 0,
else for j; the class with most votes wins (the first on ties). With two
classes scikit-learn stores the coefficients negated, so f > 0 votes for the
second class.
"""
from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from skeleton.files import write_atomic

__all__ = ["C", "RBF_GAMMA", "FORMAT", "ModelFormatError", "BlockSVM", "fit_svm", "load_svm",
           "save_svm"]

#: the SVM's penalty parameter and RBF kernel coefficient (Section 5.3.2)
C = 1.0
RBF_GAMMA = 0.1
#: the ``format`` field of a block model file
FORMAT = "skeleton-block-svm/1"


class ModelFormatError(ValueError):
    """A block model file that cannot be read."""


@dataclass
class BlockSVM:
    """A fitted RBF SVM as arrays (see the module docstring)."""

    classes: list[str]
    support_vectors: np.ndarray      # (n_SV, n_features), grouped by class
    n_support: list[int]             # support vectors per class, in ``classes`` order
    dual_coef: np.ndarray            # (n_classes - 1, n_SV), libsvm's layout
    intercept: np.ndarray            # (n_classes * (n_classes - 1) / 2,)
    gamma: float
    mean: np.ndarray                 # scaler: x' = (x - mean) / scale
    scale: np.ndarray
    meta: dict[str, Any] = field(default_factory=dict)

    def _scaled(self, x: np.ndarray | Sequence[Sequence[float]]) -> np.ndarray:
        x = np.asarray(x, dtype=float).reshape(-1, len(self.mean))
        return (x - self.mean) / self.scale

    def ovo_decision(self, x: np.ndarray | Sequence[Sequence[float]]) -> np.ndarray:
        """One-vs-one decision values f_ij, pairs (0,1), (0,2), ..., (1,2), ...
        (scikit-learn's ``decision_function_shape='ovo'``)."""
        z = self._scaled(x)
        if not len(z):
            return np.zeros((0, len(self.intercept)))
        sq = ((z[:, None, :] - self.support_vectors[None, :, :]) ** 2).sum(axis=2)
        kernel = np.exp(-self.gamma * sq)
        starts = np.concatenate([[0], np.cumsum(self.n_support)])
        out = np.empty((len(z), len(self.intercept)))
        p = 0
        for i in range(len(self.classes)):
            for j in range(i + 1, len(self.classes)):
                si, sj = slice(starts[i], starts[i + 1]), slice(starts[j], starts[j + 1])
                out[:, p] = (kernel[:, si] @ self.dual_coef[j - 1, si]
                             + kernel[:, sj] @ self.dual_coef[i, sj] + self.intercept[p])
                p += 1
        return out

    def votes(self, x: np.ndarray | Sequence[Sequence[float]]) -> np.ndarray:
        dec = self.ovo_decision(x)
        votes = np.zeros((len(dec), len(self.classes)))
        if len(self.classes) == 2:  # scikit-learn stores a binary SVM negated: positive is classes[1]
            votes[dec[:, 0] > 0, 1] = 1
            votes[dec[:, 0] <= 0, 0] = 1
            return votes
        p = 0
        for i in range(len(self.classes)):
            for j in range(i + 1, len(self.classes)):
                votes[dec[:, p] > 0, i] += 1
                votes[dec[:, p] <= 0, j] += 1
                p += 1
        return votes

    def decision_function(self, x: np.ndarray | Sequence[Sequence[float]]) -> np.ndarray:
        """scikit-learn's default (``'ovr'``) decision function: votes plus the
        summed one-vs-one confidences squashed into (-1/3, 1/3); with two classes,
        the one decision value (positive: the second class)."""
        dec = self.ovo_decision(x)
        if len(self.classes) == 2:
            return dec[:, 0]
        conf = np.zeros((len(dec), len(self.classes)))
        p = 0
        for i in range(len(self.classes)):
            for j in range(i + 1, len(self.classes)):
                conf[:, i] += dec[:, p]
                conf[:, j] -= dec[:, p]
                p += 1
        return self.votes(x) + conf / (3 * (np.abs(conf) + 1))

    def predict(self, x: np.ndarray | Sequence[Sequence[float]]) -> list[str]:
        votes = self.votes(x)
        return [self.classes[int(k)] for k in np.argmax(votes, axis=1)] if len(votes) else []

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "kernel": "rbf", "classes": self.classes,
                "gamma": self.gamma, "n_support": self.n_support,
                "support_vectors": self.support_vectors.tolist(),
                "dual_coef": self.dual_coef.tolist(), "intercept": self.intercept.tolist(),
                "scaler_mean": self.mean.tolist(), "scaler_scale": self.scale.tolist(),
                "meta": self.meta}

    @classmethod
    def from_json(cls, data: Any) -> BlockSVM:
        try:
            if data.get("format") != FORMAT or data.get("kernel") != "rbf":
                raise ModelFormatError(f"not a block SVM model (format {data.get('format')!r})")
            model = cls(classes=[str(c) for c in data["classes"]],
                        support_vectors=np.asarray(data["support_vectors"], dtype=float),
                        n_support=[int(n) for n in data["n_support"]],
                        dual_coef=np.asarray(data["dual_coef"], dtype=float),
                        intercept=np.asarray(data["intercept"], dtype=float),
                        gamma=float(data["gamma"]),
                        mean=np.asarray(data["scaler_mean"], dtype=float),
                        scale=np.asarray(data["scaler_scale"], dtype=float),
                        meta=dict(data.get("meta", {})))
        except (AttributeError, KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, ModelFormatError):
                raise
            raise ModelFormatError(f"bad block SVM model: {exc}") from None
        k, n_sv = len(model.classes), sum(model.n_support)
        if (k < 2 or len(model.n_support) != k or model.support_vectors.ndim != 2
                or model.support_vectors.shape != (n_sv, len(model.mean))
                or model.dual_coef.shape != (k - 1, n_sv) or model.intercept.shape != (k * (k - 1) // 2,)
                or model.scale.shape != model.mean.shape or not np.all(model.scale > 0)
                or not math.isfinite(model.gamma)):
            raise ModelFormatError("bad block SVM model: inconsistent array shapes")
        return model


def fit_svm(x: Sequence[Sequence[float]], y: Sequence[str], c: float = C,
            gamma: float = RBF_GAMMA, meta: dict[str, Any] | None = None) -> BlockSVM:
    """Standardise the features and fit ``SVC(kernel='rbf', C=c, gamma=gamma)``."""
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import SVC

    if len(set(y)) < 2:
        raise ValueError("training blocks need at least two classes")
    scaler = StandardScaler().fit(np.asarray(x, dtype=float))
    svc = SVC(kernel="rbf", C=c, gamma=gamma).fit(scaler.transform(np.asarray(x, dtype=float)), list(y))
    return BlockSVM(classes=[str(k) for k in svc.classes_], support_vectors=svc.support_vectors_.copy(),
                    n_support=[int(n) for n in svc.n_support_], dual_coef=svc.dual_coef_.copy(),
                    intercept=svc.intercept_.copy(), gamma=float(gamma),
                    mean=scaler.mean_.copy(), scale=scaler.scale_.copy(), meta=dict(meta or {}))


def save_svm(model: BlockSVM, path: str | Path) -> None:
    """Write the model as JSON, atomically (:class:`skeleton.files.OutputError`)."""
    write_atomic(path, json.dumps(model.to_json(), indent=1) + "\n")


def load_svm(path: str | Path) -> BlockSVM:
    try:
        data = json.loads(Path(path).read_text("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ModelFormatError(f"cannot read block model {path}: {exc}") from None
    return BlockSVM.from_json(data)
