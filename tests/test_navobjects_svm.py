"""Block features (CETR smoothing, sigma = 2) and the JSON RBF SVM against scikit-learn."""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from skeleton.navobjects.clustering import Block
from skeleton.navobjects.features import SIGMA, block_features, gaussian_kernel, gaussian_smooth
from skeleton.navobjects.svm import C, RBF_GAMMA, BlockSVM, ModelFormatError, fit_svm, load_svm, save_svm


def test_cetr_kernel_sigma_2() -> None:
    assert SIGMA == 2.0
    kernel = gaussian_kernel()
    raw = [math.exp(-j * j / 8) for j in range(-2, 3)]
    assert kernel == pytest.approx([w / sum(raw) for w in raw])
    assert kernel == pytest.approx([0.15246, 0.22184, 0.25138, 0.22184, 0.15246], abs=1e-5)


def test_smoothing_numbers() -> None:
    smoothed = gaussian_smooth([0, 0, 10, 0, 0])
    assert smoothed[2] == pytest.approx(2.5138, abs=1e-4)
    assert smoothed[1] == pytest.approx(10 * 0.22184 / (1 - 0.15246), abs=1e-4)  # truncated at the start
    assert smoothed[0] == pytest.approx(10 * 0.15246 / (0.25138 + 0.22184 + 0.15246), abs=1e-3)
    assert gaussian_smooth([]) == []
    assert gaussian_smooth([7.0]) == [7.0]
    assert gaussian_smooth([4.0] * 9) == pytest.approx([4.0] * 9)


def test_block_features_mean_and_variance_of_smoothed_lengths() -> None:
    smoothed = [1.0, 2.0, 3.0, 10.0]
    assert block_features(smoothed, Block(0, 3, 0)) == (3.0, 2.0, pytest.approx(2 / 3))
    assert block_features(smoothed, Block(3, 4, 0)) == (1.0, 10.0, 0.0)


def _data(seed: int = 0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(240, 3)) * [8, 5, 40] + [6, 12, 30]
    y = np.array(["nav_menu", "nav_list", "content", "other"])[rng.integers(0, 4, len(x))]
    x[y == "content", 1] += 15
    x[y == "nav_menu", 0] += 10
    return x, y, rng.normal(size=(60, 3)) * [8, 5, 40] + [6, 12, 30]


def test_json_svm_equals_sklearn(tmp_path: Path) -> None:
    x, y, test = _data()
    path = tmp_path / "blocks.json"
    save_svm(fit_svm(x, y), path)
    model = load_svm(path)
    scaler = StandardScaler().fit(x)
    svc = SVC(kernel="rbf", C=C, gamma=RBF_GAMMA).fit(scaler.transform(x), y)
    ovo = SVC(kernel="rbf", C=C, gamma=RBF_GAMMA, decision_function_shape="ovo").fit(scaler.transform(x), y)
    assert (C, RBF_GAMMA) == (1.0, 0.1)
    np.testing.assert_allclose(model.decision_function(test), svc.decision_function(scaler.transform(test)),
                               atol=1e-9)
    np.testing.assert_allclose(model.ovo_decision(test), ovo.decision_function(scaler.transform(test)), atol=1e-9)
    assert model.predict(test) == list(svc.predict(scaler.transform(test)))
    assert model.predict(x) == list(svc.predict(scaler.transform(x)))


def test_two_class_svm_equals_sklearn() -> None:
    x, y, test = _data(1)
    y = np.where(np.isin(y, ["nav_menu", "nav_list"]), "nav", "rest")
    model = BlockSVM.from_json(json.loads(json.dumps(fit_svm(x, y).to_json())))
    scaler = StandardScaler().fit(x)
    svc = SVC(kernel="rbf", C=1.0, gamma=0.1).fit(scaler.transform(x), y)
    np.testing.assert_allclose(model.decision_function(test), svc.decision_function(scaler.transform(test)),
                               atol=1e-9)
    assert model.predict(test) == list(svc.predict(scaler.transform(test)))


def test_the_model_file_is_plain_json_data(tmp_path: Path) -> None:
    x, y, _ = _data()
    data = fit_svm(x, y, meta={"note": "x"}).to_json()
    assert set(data) == {"format", "kernel", "classes", "gamma", "n_support", "support_vectors", "dual_coef",
                         "intercept", "scaler_mean", "scaler_scale", "meta"}
    assert data["gamma"] == 0.1 and data["meta"] == {"note": "x"}
    assert fit_svm(x, y).predict([]) == []


@pytest.mark.parametrize("content", ["", "{", "[]", '{"format": "pickle"}',
                                     '{"format": "skeleton-block-svm/1", "kernel": "rbf"}'])
def test_bad_model_files(tmp_path: Path, content: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(ModelFormatError):
        load_svm(path)
    with pytest.raises(ModelFormatError):
        load_svm(tmp_path / "missing.json")


def test_inconsistent_arrays_are_refused() -> None:
    x, y, _ = _data()
    data = fit_svm(x, y).to_json()
    data["intercept"] = data["intercept"][:-1]
    with pytest.raises(ModelFormatError):
        BlockSVM.from_json(data)


def test_one_class_cannot_be_trained() -> None:
    with pytest.raises(ValueError):
        fit_svm([[1, 2, 3], [2, 3, 4]], ["content", "content"])
