"""Training SEW on labelled fixture sites: skeleton.analysis.training, with
skeleton.analysis.offline and skeleton.sew.evaluation on the trained model.

One model is trained per site, once per module, on two small labelled sites
(``docs_sidebar`` and ``university``: a few seconds in all); its FINDSKELETON tree
on its training site must beat a breadth-first crawl of that site on level-1 edges.
"""
from __future__ import annotations

import dataclasses

import math
from pathlib import Path

import pytest

from skeleton.web.dom import parse_html
from skeleton.sew.evaluation import score_tree
from skeleton.sew.features import FEATURES
from skeleton.analysis.offline import find_skeleton, skeleton_edges
from skeleton.sew.links import extract_links
from skeleton.sew.model import ACCEPT_RULES, SEWModel, load_model, save_model
from skeleton.analysis.training import (GRID_DISDIFF_Z, GRID_JACCARD, LabelledSite, file_fetcher, load_labelled_site, load_truth,
                                   page_id, page_samples, train)
from skeleton.web.urls import canonical, in_scope, trap_reason

SITES = Path(__file__).resolve().parent / "sites"
NAMES = ("docs_sidebar", "university")


def site(name: str) -> LabelledSite:
    return load_labelled_site(SITES / f"{name}.truth.json", SITES / name)


@pytest.fixture(scope="module")
def sites() -> dict[str, LabelledSite]:
    return {name: site(name) for name in NAMES}


@pytest.fixture(scope="module")
def models(sites: dict[str, LabelledSite]) -> dict[str, SEWModel]:
    return {name: train([s]) for name, s in sites.items()}


def breadth_first_edges(s: LabelledSite) -> list[tuple[str, str]]:
    """The baseline: follow every in-scope link breadth-first; a page hangs from the
    first page that links to it."""
    seen, queue, edges = {s.root}, [s.root], []
    for url in queue:
        body = s.fetch(url)
        for link in extract_links(parse_html(body) if body else None, url):
            if link.url and in_scope(link.url, s.root) and not trap_reason(link.url) and link.url not in seen:
                seen.add(link.url)
                queue.append(link.url)
                edges.append((url, link.url))
    return edges


def score(name: str, s: LabelledSite, edges: list[tuple[str, str]]):
    root, true_edges, meta = load_truth(SITES / f"{name}.truth.json")
    return score_tree(page_id(s.root), [(page_id(p), page_id(c)) for p, c in edges], root, true_edges,
                      ignore=[page_id(u) for u in meta.get("not_in_tree", [])])


def test_file_fetcher_redirects_as_the_server_does(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text('<ul><li><a href="/a">A</a></li><li><a href="/b">B</a></li>'
                                         '<li><a href="/b.html">B again</a></li></ul>', "utf-8")
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "index.html").write_text("<p>a</p>", "utf-8")
    (tmp_path / "b.html").write_text("<p>b</p>", "utf-8")
    base = "http://127.0.0.1:8000/"
    plain, redirecting = file_fetcher(tmp_path), file_fetcher(tmp_path, redirects=True)
    assert plain(base + "a") == b"<p>a</p>" and plain(base + "b") is None
    # /a is redirected to /a/; the clean URL /b is served from b.html, and is its page
    assert redirecting(base + "a") == base + "a/" and redirecting(base + "b") == b"<p>b</p>"
    assert redirecting(base + "a/") == b"<p>a</p>" and redirecting(base + "c") is None
    # a folder URL never serves the file of its clean name: /b/ is no page (the server's 404)
    assert redirecting(base + "b/") is None and plain(base + "b/") is None
    assert redirecting.same(base + "b") == base + "b.html" and redirecting.same(base + "a/") == base + "a/"
    # FINDSKELETON records a redirected page under its target, as the crawl does
    pages = list(find_skeleton(base, redirecting, load_model(None)))
    assert {p.url: p.aliases for p in pages if p.aliases} == {base + "a": {base + "a": base + "a/"}}
    assert {c for _, c in skeleton_edges(pages)} == {base + "a/", base + "b", base + "b.html"}


def test_labelled_site_loading(sites: dict[str, LabelledSite]) -> None:
    s = sites["docs_sidebar"]
    root, edges, _ = load_truth(SITES / "docs_sidebar.truth.json")
    assert s.root == root == "http://127.0.0.1:8000/index.html"
    assert sum(len(c) for c in s.children.values()) == len(edges)
    assert s.fetch(s.root).lstrip().lower().startswith(b"<!doctype html")
    assert s.fetch("http://127.0.0.1:8000/no/such/page.html") is None
    depths = s.depths()
    assert depths[s.root] == 0 and max(depths.values()) == 3 and len(depths) == len(edges) + 1


def test_page_samples_follow_the_true_tree(sites: dict[str, LabelledSite]) -> None:
    s = sites["docs_sidebar"]
    samples = list(page_samples(s))
    assert len(samples) == len(s.depths())
    first = samples[0]
    assert first.url == s.root and first.depth == 0 and first.known == []
    assert first.truth == set(s.children[s.root]) and first.links
    # a child of the root knows the root's navigation link set (LinkSetDup)
    child = next(x for x in samples if x.depth == 1)
    assert first.truth in child.known


@pytest.mark.parametrize("name", NAMES)
def test_trained_parameters_are_sane(models: dict[str, SEWModel], name: str) -> None:
    model = models[name]
    assert set(model.features) == set(FEATURES)
    for feature, (mu, sigma) in model.features.items():
        assert math.isfinite(mu), feature
        assert math.isfinite(sigma) and sigma > 0, feature
    assert math.isfinite(model.mu_c) and math.isfinite(model.sigma_c) and model.sigma_c > 0
    assert 0.0 <= model.tau <= 1.0
    assert isinstance(model.min_nl, int) and isinstance(model.max_nl, int) and model.min_nl < model.max_nl
    assert math.isfinite(model.max_num_word) and model.max_num_word > 0
    assert model.linkset_dup_jaccard in GRID_JACCARD
    # DisDiff's deviation factor is picked from a grid that includes infinity ("never split")
    assert model.disdiff_z in GRID_DISDIFF_Z and model.disdiff_z > 0
    assert model.accept in ACCEPT_RULES
    assert model.meta["trained_on"] == [name]
    assert model.meta["pages"] == len(site(name).depths())
    assert 0.0 < model.meta["training_edge_f1"] <= 1.0


def test_trained_model_round_trips_through_json(models: dict[str, SEWModel], tmp_path: Path) -> None:
    for name, model in models.items():
        path = tmp_path / f"{name}.json"
        save_model(model, path)
        assert load_model(path) == model


@pytest.mark.parametrize("name", NAMES)
def test_findskeleton_beats_breadth_first_on_level_1_edges(
        models: dict[str, SEWModel], sites: dict[str, LabelledSite], name: str) -> None:
    s = sites[name]
    pages = list(find_skeleton(s.root, s.fetch, models[name]))
    assert pages[0].url == canonical(s.root) and pages[0].is_navigation
    sew = score(name, s, skeleton_edges(pages))
    bfs = score(name, s, breadth_first_edges(s))
    assert bfs.edges["1"].f1 > 0
    assert sew.edges["1"].f1 > bfs.edges["1"].f1, (sew.edges["1"], bfs.edges["1"])


def test_training_without_navigation_fails(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<html><body><p>No links at all.</p></body></html>")
    truth = tmp_path / "empty.truth.json"
    truth.write_text('{"root": "http://127.0.0.1:8000/index.html", "edges": []}')
    with pytest.raises(ValueError):
        train([load_labelled_site(truth, tmp_path)])


def test_every_training_site_weighs_the_same() -> None:
    from skeleton.analysis.training import _site_weights, _weighted_stats

    sites = ["big"] * 9 + ["small"]
    weights = _site_weights(sites)
    assert weights == [1 / 9] * 9 + [1.0]
    # nine sets of the big site at 0, one of the small site at 10: the mean is halfway
    mean, std = _weighted_stats([0.0] * 9 + [10.0], weights)
    assert mean == pytest.approx(5.0) and std == pytest.approx(5.0)


def test_findskeleton_starts_from_the_canonical_base(tmp_path: Path) -> None:
    # the spider canonicalizes -a base (dir/index.html -> dir/); so does FINDSKELETON,
    # and a "Home" link to index.html is the root, not a second page
    (tmp_path / "index.html").write_text(
        '<ul><li><a href="a.html">Alpha</a></li><li><a href="b.html">Beta</a></li></ul>')
    for name in ("a", "b"):
        (tmp_path / f"{name}.html").write_text(
            '<ul><li><a href="index.html">Home</a></li><li><a href="c.html">Gamma</a></li></ul>')
    (tmp_path / "c.html").write_text("<p>content</p>")
    truth = tmp_path / "t.truth.json"
    truth.write_text('{"root": "http://127.0.0.1:8000/index.html", "edges": []}')
    s = load_labelled_site(truth, tmp_path)
    model = dataclasses.replace(load_model(None), tau=0.0, accept="all")  # every candidate is navigation
    pages = list(find_skeleton("http://127.0.0.1:8000/index.html", s.fetch, model))
    urls = [p.url for p in pages]
    assert urls[0] == "http://127.0.0.1:8000/"
    assert len({page_id(u) for u in urls}) == len(urls)
    assert ("http://127.0.0.1:8000/", "http://127.0.0.1:8000/a.html") in skeleton_edges(pages)
