"""Training SEW's parameters from labelled sites (SEW Section 4.2).

A labelled site is a folder of pages plus its true tree (the ``truth`` format of
the benchmark corpus: ``{"root": URL, "edges": [[parent, child], ...]}``). The
navigation link set of a page is the set of links to its children.

Beyond the paper, the thresholds it fixes by hand are learned here: MaxNumWord
and MaxNL from the largest navigation link sets seen, and ``tau`` (the paper
takes the lowest training confidence) together with the DisDiff deviation factor,
the LinkSetDup similarity and the one-set/many-sets rule, by the edge F1 they give
on the training pages.
"""
from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import fmean, pstdev
from urllib.parse import unquote, urlsplit

from .candidates import CandidateParams, gen_candidate_link_sets
from .dom import parse_html
from .features import FEATURES, link_set_features
from .links import LinkNode, extract_links
from .model import SEWModel
from .selection import log_confidence, prob
from .urls import canonical, normalize_page

__all__ = ["LabelledSite", "PageSample", "load_truth", "load_labelled_site", "page_samples",
           "train", "GRID_DISDIFF_Z", "GRID_JACCARD"]

GRID_DISDIFF_Z = (2.0, 3.0, 5.0)
GRID_JACCARD = (0.5, 0.8)
#: share of a candidate's links that must be true children for it to count as a
#: navigation link set when the feature statistics are computed
POSITIVE_PRECISION = 0.5
_LOOSE = dict(min_nl=1, max_nl=10**9, max_num_word=math.inf)


def page_id(url: str) -> str:
    return normalize_page(canonical(url) or url)


@dataclass
class LabelledSite:
    name: str
    root: str
    children: dict[str, list[str]]
    fetch: Callable[[str], bytes | None]

    def depths(self) -> dict[str, int]:
        depth = {self.root: 0}
        queue = [self.root]
        for page in queue:
            for child in self.children.get(page, []):
                if child not in depth:
                    depth[child] = depth[page] + 1
                    queue.append(child)
        return depth


def load_truth(path: str | Path) -> tuple[str, list[tuple[str, str]], dict]:
    data = json.loads(Path(path).read_text("utf-8"))
    edges = [(page_id(p), page_id(c)) for p, c in data["edges"]]
    return page_id(data["root"]), edges, data.get("meta", {})


def load_labelled_site(truth_path: str | Path, site_dir: str | Path,
                       name: str | None = None) -> LabelledSite:
    """A labelled site whose URLs map to files under ``site_dir`` by their path."""
    root, edges, _ = load_truth(truth_path)
    children: dict[str, list[str]] = {}
    for parent, child in edges:
        children.setdefault(parent, []).append(child)
    base = Path(site_dir)

    def fetch(url: str) -> bytes | None:
        rel = unquote(urlsplit(url).path).lstrip("/")
        target = base / rel
        if target.is_dir():
            target = target / "index.html"
        try:
            return target.read_bytes()
        except OSError:
            return None

    return LabelledSite(name or Path(truth_path).stem.split(".")[0], root, children, fetch)


@dataclass
class PageSample:
    url: str
    depth: int
    links: list[LinkNode]
    known: list[set[str]]
    truth: set[str]
    deeper: set[str]  # pages of the tree deeper than this page (wrong edges if accepted)


def page_samples(site: LabelledSite) -> Iterator[PageSample]:
    """Every page of the true tree with its links, its ancestors' navigation sets
    and its true children."""
    depths = site.depths()
    known_of: dict[str, list[set[str]]] = {site.root: []}
    for url, depth in depths.items():
        body = site.fetch(url)
        links = extract_links(parse_html(body), url) if body else []
        truth = set(site.children.get(url, []))
        known = known_of.get(url, [])
        for child in truth:
            known_of.setdefault(child, known + [truth])
        deeper = {u for u, d in depths.items() if d > depth}
        yield PageSample(url, depth, links, known, truth, deeper)


def _score_pages(samples: Sequence[PageSample], params: CandidateParams, home: dict[str, str]):
    """Per page: (truth, deeper, [(features, urls, size, words)]) of loose candidates."""
    scored = []
    for s in samples:
        rows = []
        for cand in gen_candidate_link_sets(s.links, params, s.known):
            urls = {normalize_page(link.url) for link in cand if link.url} - {s.url}
            rows.append((link_set_features(cand, s.url, home[s.url]), urls, len(cand)))
        scored.append((s, rows))
    return scored


def _fit_features(positives: list[tuple[float, ...]]) -> dict[str, tuple[float, float]]:
    stats = {}
    for j, name in enumerate(FEATURES):
        values = [f[j] for f in positives]
        stats[name] = (fmean(values), max(pstdev(values), 1e-3 * (1 + abs(fmean(values)))))
    return stats


def _edge_f1(scored, model: SEWModel, tau: float, multi: bool) -> float:
    tp = fp = fn = 0
    for s, rows in scored:
        ok = [(prob(lc, model.mu_c, model.sigma_c), urls) for feats, urls, size, lc in rows
              if model.min_nl < size < model.max_nl and feats[0] < model.max_num_word]
        if multi:
            chosen = [urls for p, urls in ok if p >= tau]
        else:
            best = max(ok, key=lambda r: r[0], default=None)
            chosen = [best[1]] if best and best[0] >= tau else []
        accepted = set().union(*chosen) if chosen else set()
        tp += len(accepted & s.truth)
        fp += len((accepted - s.truth) & s.deeper) + len(accepted - s.deeper - s.truth - {s.url})
        fn += len(s.truth - accepted)
    return 2 * tp / (2 * tp + fp + fn) if tp else 0.0


def train(sites: Iterable[LabelledSite], log: Callable[[str], None] = lambda m: None) -> SEWModel:
    """Learn a :class:`SEWModel` from labelled sites."""
    sites = list(sites)
    samples: list[PageSample] = []
    home: dict[str, str] = {}
    for site in sites:
        for s in page_samples(site):
            samples.append(s)
            home[s.url] = site.root
        log(f"{site.name}: {len(site.depths())} pages")
    best: tuple[float, SEWModel] | None = None
    for z, jac in itertools.product(GRID_DISDIFF_Z, GRID_JACCARD):
        params = CandidateParams(disdiff_z=z, linkset_dup_jaccard=jac, **_LOOSE)
        scored = _score_pages(samples, params, home)
        positives = [(feats, size) for s, rows in scored for feats, urls, size in rows
                     if s.truth and urls and len(urls & s.truth) >= POSITIVE_PRECISION * len(urls)]
        if not positives:
            continue
        stats = _fit_features([f for f, _ in positives])
        model = SEWModel(features=stats, mu_c=0.0, sigma_c=1.0, tau=0.0,
                         min_nl=1, max_nl=2 * max(n for _, n in positives) + 1,
                         max_num_word=math.ceil(1.25 * max(f[0] for f, _ in positives) + 1),
                         disdiff_z=z, linkset_dup_jaccard=jac)
        pos_lc = [log_confidence(f, model) for f, _ in positives]
        model.mu_c, model.sigma_c = fmean(pos_lc), max(pstdev(pos_lc), 1e-3)
        rows_lc = [(s, [(f, u, n, log_confidence(f, model)) for f, u, n in rows]) for s, rows in scored]
        for multi in (True, False):
            for tau in [i / 100 for i in range(0, 100, 1)]:
                f1 = _edge_f1(rows_lc, model, tau, multi)
                if best is None or f1 > best[0]:
                    model_t = SEWModel(**{**model.__dict__, "tau": tau, "multi": multi})
                    best = (f1, model_t)
        log(f"disdiff_z={z} jaccard={jac}: best training edge F1 so far {best[0]:.3f}")
    if best is None:
        raise ValueError("no navigation link set found in the training sites")
    f1, model = best
    model.meta = {"trained_on": [s.name for s in sites], "training_edge_f1": round(f1, 4),
                  "pages": len(samples)}
    return model
