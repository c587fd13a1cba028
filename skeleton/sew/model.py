"""The trained parameters of SEW (Section 4.2), stored as JSON.

Feature means and deviations, the mean and deviation of the combined confidence
(``mu_c``, ``sigma_c``), the acceptance threshold ``tau``, and the candidate
thresholds learned from the training data (MinNL, MaxNL, MaxNumWord, the DisDiff
deviation factor and the LinkSetDup similarity).
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from importlib import resources
from pathlib import Path

from ..files import write_atomic
from .features import FEATURES

__all__ = ["DEFAULT_MODEL", "ACCEPT_RULES", "SEWModel", "ModelError", "load_model", "save_model"]

DEFAULT_MODEL = "default.json"
ACCEPT_RULES = ("best", "nested", "all")


class ModelError(ValueError):
    """A model file that is missing, unreadable or incomplete."""


@dataclass
class SEWModel:
    #: per feature name: (mean, standard deviation) over navigation link sets
    features: dict[str, tuple[float, float]]
    #: mean and deviation of log combined confidence of navigation link sets
    mu_c: float
    sigma_c: float
    #: minimum PROB(c) for a candidate to be accepted
    tau: float
    min_nl: int = 1
    max_nl: int = 1000
    max_num_word: float = 4.0
    disdiff_z: float = 3.0
    linkset_dup_jaccard: float = 0.8
    #: which candidates whose PROB reaches tau are accepted: "best" (SEW: only the
    #: best one), "nested" (the best one and the candidates nested inside accepted
    #: ones: the deeper levels of a table of contents) or "all"
    accept: str = "nested"
    meta: dict = field(default_factory=dict)
    #: the learned edge score that chooses each page's parent
    #: (:mod:`skeleton.hierarchy.scoring`, which reads and checks it: the crawl checks
    #: it when it loads the model, :mod:`skeleton.spiders.arguments`); empty: the
    #: shortest-path rule
    edges: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        missing = [name for name in FEATURES[:6] if name not in self.features]
        if missing:
            raise ModelError(f"model lacks features: {', '.join(missing)}")
        unknown = [name for name in self.features if name not in FEATURES]
        if unknown:
            raise ModelError(f"model has unknown features: {', '.join(unknown)}")
        self.features = {k: (float(v[0]), max(float(v[1]), 1e-6)) for k, v in self.features.items()}
        self.sigma_c = max(float(self.sigma_c), 1e-6)
        if self.accept not in ACCEPT_RULES:
            raise ModelError(f"unknown accept rule {self.accept!r}")


def load_model(path: str | Path | None = None) -> SEWModel:
    """Load a model file; ``None`` loads the default model shipped in the package."""
    try:
        if path is None:
            text = resources.files("skeleton.models").joinpath(DEFAULT_MODEL).read_text("utf-8")
        else:
            text = Path(path).read_text("utf-8")
        data = json.loads(text)
        return SEWModel(**data)
    except (OSError, json.JSONDecodeError, TypeError) as exc:
        raise ModelError(f"cannot load SEW model {path or DEFAULT_MODEL!s}: {exc}") from exc


def save_model(model: SEWModel, path: str | Path) -> None:
    """Write the model as JSON, atomically (:class:`skeleton.files.OutputError`)."""
    write_atomic(path, json.dumps(asdict(model), indent=1, sort_keys=True) + "\n")
