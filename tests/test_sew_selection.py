"""SELECTNAVLINKSET (SEW Section 3.3.2, Figure 3): skeleton.sew.selection."""
from __future__ import annotations

import math
import random
import statistics

import pytest

from skeleton.web.dom import parse_html
from skeleton.sew.features import FEATURES
from skeleton.sew.links import extract_links
from skeleton.sew.model import SEWModel
from skeleton.sew.selection import combine_conf, log_confidence, log_normdist, normdist, prob, select

try:
    from scipy.stats import norm as _norm

    def std_pdf(z: float) -> float:
        return float(_norm.pdf(z))

    def cdf(x: float, mu: float, sigma: float) -> float:
        return float(_norm.cdf(x, loc=mu, scale=sigma))
except ImportError:  # pragma: no cover - scipy is optional
    def std_pdf(z: float) -> float:
        return statistics.NormalDist().pdf(z)

    def cdf(x: float, mu: float, sigma: float) -> float:
        return statistics.NormalDist(mu, sigma).cdf(x)


CASES = [(0.0, 0.0, 1.0), (1.0, 0.0, 1.0), (-2.5, 0.0, 1.0), (3.0, 1.0, 2.0), (12.0, 10.0, 0.5),
         (-7.0, -8.5, 1.4), (100.0, 0.0, 10.0), (0.3, 0.25, 1e-3)]


@pytest.mark.parametrize("f,mu,sigma", CASES)
def test_normdist_is_the_standardized_normal_density(f: float, mu: float, sigma: float) -> None:
    # Figure 3, lines 17-20: the density of the standardized value, not divided by sigma
    z = (f - mu) / sigma
    assert normdist(f, mu, sigma) == pytest.approx(std_pdf(z), rel=1e-12, abs=1e-300)
    assert normdist(f, mu, sigma) == pytest.approx(math.exp(-z * z / 2) / math.sqrt(2 * math.pi), rel=1e-12)


def test_normdist_does_not_depend_on_the_scale_of_sigma() -> None:
    assert normdist(3.0, 1.0, 2.0) == pytest.approx(std_pdf(1.0))
    assert normdist(3.0, 1.0, 2.0) == pytest.approx(normdist(11.0, 1.0, 10.0))
    assert normdist(0.0, 0.0, 1.0) == pytest.approx(1 / math.sqrt(2 * math.pi))


@pytest.mark.parametrize("f,mu,sigma", CASES)
def test_log_normdist_is_the_log_of_normdist(f: float, mu: float, sigma: float) -> None:
    z = (f - mu) / sigma
    assert log_normdist(f, mu, sigma) == pytest.approx(-z * z / 2 - 0.5 * math.log(2 * math.pi), rel=1e-12)
    if normdist(f, mu, sigma) > 0:
        assert log_normdist(f, mu, sigma) == pytest.approx(math.log(normdist(f, mu, sigma)), rel=1e-12)


@pytest.mark.parametrize("f,mu,sigma", CASES + [(-40.0, 0.0, 1.0), (40.0, 0.0, 1.0)])
def test_prob_is_the_normal_cdf(f: float, mu: float, sigma: float) -> None:
    assert prob(f, mu, sigma) == pytest.approx(cdf(f, mu, sigma), rel=1e-9, abs=1e-300)


def test_prob_known_values() -> None:
    assert prob(0.0, 0.0, 1.0) == 0.5
    assert prob(1.0, 0.0, 1.0) == pytest.approx(0.8413447460685429)
    assert prob(-1.96, 0.0, 1.0) == pytest.approx(0.024997895148220435)
    assert prob(5.0, 3.0, 2.0) == pytest.approx(0.8413447460685429)


def test_combine_conf_is_the_product() -> None:
    assert combine_conf([0.5, 0.2, 0.1]) == pytest.approx(0.01)
    assert combine_conf([0.3]) == pytest.approx(0.3)
    assert combine_conf([0.9, 0.0, 0.8]) == 0.0
    assert combine_conf([]) == 1.0


def _model(**kw) -> SEWModel:
    rng = random.Random(7)
    feats = {name: (rng.uniform(-3, 10), rng.uniform(0.2, 4)) for name in FEATURES}
    return SEWModel(features=kw.pop("features", feats), mu_c=kw.pop("mu_c", 0.0),
                    sigma_c=kw.pop("sigma_c", 1.0), tau=kw.pop("tau", 0.5), **kw)


def test_log_confidence_is_the_log_of_the_combined_confidence() -> None:
    model = _model()
    rng = random.Random(1)
    for _ in range(50):
        values = [rng.uniform(-5, 12) for _ in FEATURES]
        product = combine_conf([normdist(v, *model.features[name]) for name, v in zip(FEATURES, values)])
        assert product > 0
        assert log_confidence(values, model) == pytest.approx(math.log(product), rel=1e-9)


def test_log_space_ranking_equals_product_ranking() -> None:
    model = _model()
    rng = random.Random(2)
    vectors = [[rng.uniform(-5, 12) for _ in FEATURES] for _ in range(200)]
    products = [combine_conf([normdist(v, *model.features[n]) for n, v in zip(FEATURES, vec)])
                for vec in vectors]
    logs = [log_confidence(vec, model) for vec in vectors]
    by_product = sorted(range(len(vectors)), key=products.__getitem__)
    by_log = sorted(range(len(vectors)), key=logs.__getitem__)
    assert len(set(products)) == len(products)
    assert by_product == by_log


def test_log_confidence_works_where_the_product_underflows() -> None:
    model = _model(features={name: (0.0, 1.0) for name in FEATURES})
    far, farther = [40.0] * 6, [41.0] * 6
    assert combine_conf([normdist(v, 0.0, 1.0) for v in far]) == 0.0  # underflow
    assert log_confidence(far, model) == pytest.approx(6 * (-800 - 0.5 * math.log(2 * math.pi)))
    assert log_confidence(far, model) > log_confidence(farther, model)


def test_log_confidence_is_highest_at_the_means() -> None:
    model = _model()
    means = [model.features[name][0] for name in FEATURES]
    assert log_confidence(means, model) == pytest.approx(-len(FEATURES) / 2 * math.log(2 * math.pi))
    shifted = list(means)
    shifted[2] += 0.1
    assert log_confidence(shifted, model) < log_confidence(means, model)


# --- accept rules ------------------------------------------------------------

TOC = """<html><body>
<ul id="toc">
  <li><a href="a/">A</a><ul><li><a href="a/1.html">A1</a></li><li><a href="a/2.html">A2</a></li></ul></li>
  <li><a href="b/">B</a><ul><li><a href="b/1.html">B1</a></li><li><a href="b/2.html">B2</a></li></ul></li>
  <li><a href="c/">C</a></li>
</ul>
<div id="footer"><div><div><p><a href="x.html">X</a></p><p><a href="y.html">Y</a></p></div></div></div>
</body></html>"""


def _toc_candidates():
    links = {link.sec_name: link for link in extract_links(parse_html(TOC.encode()), "http://e.org/")}
    outer = [links[n] for n in ("A", "B", "C")]
    inner_a = [links["A1"], links["A2"]]
    inner_b = [links["B1"], links["B2"]]
    footer = [links["X"], links["Y"]]
    assert outer[0].depth < inner_a[0].depth
    return [outer, inner_a, inner_b, footer]


# with mu_c = 0, sigma_c = 1 and tau = 0.5 a candidate passes when its log c >= 0
SCORES = [-1.0, 2.0, 0.5, 1.0]  # outer fails; inner_a is the best; inner_b, footer pass


def test_accept_best_returns_the_best_candidate_and_its_enclosing_level() -> None:
    # (A1, A2) is the best; the TOC's top level (A, B, C) encloses it; nothing else
    assert select(SCORES, _model(accept="best"), _toc_candidates()) == [0, 1]
    cands = _toc_candidates()
    assert select([2.0, 1.0], _model(accept="best"), [cands[1], cands[3]]) == [0]


def test_accept_all_returns_every_passing_candidate_and_enclosing_levels() -> None:
    # 1, 2, 3 pass; 0 (the TOC's top level) encloses the accepted nested set 1
    assert select(SCORES, _model(accept="all"), _toc_candidates()) == [0, 1, 2, 3]


def test_accept_nested_adds_enclosing_and_nested_levels_not_unrelated_menus() -> None:
    # the best set (A1, A2) lies in the TOC (A, B, C), which is added as its enclosing
    # level; (B1, B2) passes and is nested in an accepted set; the footer passes but is
    # not nested in anything accepted
    assert select(SCORES, _model(accept="nested"), _toc_candidates()) == [0, 1, 2]


def test_accept_nested_without_nesting_is_best() -> None:
    cands = _toc_candidates()
    assert select([2.0, 3.0], _model(accept="nested"), [cands[1], cands[3]]) == [1]


@pytest.mark.parametrize("accept", ["best", "nested", "all"])
def test_nothing_is_accepted_below_tau(accept: str) -> None:
    assert select([-0.1, -2.0, -0.5, -3.0], _model(accept=accept), _toc_candidates()) == []
    assert select([], _model(accept=accept)) == []


@pytest.mark.parametrize("accept", ["best", "nested", "all"])
def test_prob_equal_to_tau_is_accepted(accept: str) -> None:
    # PROB(0; 0, 1) = 0.5 = tau
    cands = _toc_candidates()
    assert select([0.0], _model(accept=accept), [cands[3]]) == [0]


def test_tau_is_compared_with_prob_of_the_score() -> None:
    model = _model(mu_c=-8.0, sigma_c=2.0, tau=0.8, accept="best")
    cands = _toc_candidates()[:2]
    threshold = -8.0 + 2.0 * statistics.NormalDist().inv_cdf(0.8)  # about -6.317
    assert select([threshold + 0.01, -20.0], model, cands) == [0]
    assert select([threshold - 0.01, -20.0], model, cands) == []


def test_best_is_the_highest_score_regardless_of_position() -> None:
    cands = _toc_candidates()
    assert select([0.5, 0.7, 3.0, 0.1], _model(accept="best"), cands) == [0, 2]
    assert select([0.5, 0.7, 0.1, 3.0], _model(accept="best"), cands) == [3]
