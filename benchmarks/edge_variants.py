"""Does regularising the edge model make held-out trees better or steadier?

Every farm, corpus and fixture site is crawled once, offline, with its generator family's
held-out SEW model (a folder written by ``farm_loo.py --save-models DIR``). Then, for each
training variant, the edge model is retrained without each family and that family's sites
are scored (leave-one-generator-out for the edge model; the SEW models as saved). A variant
is a comma-separated list of ``key=value``:

* ``w=none|child|site|childsite``: row weights (none; each child's wrong candidates share
  one unit; every site the same total; both);
* ``bag=N``: N models fitted on site-bootstrap samples, their log-odds averaged (stored as
  one model of N x 100 trees);
* ``depth=D``, ``trees=T``, ``lr=L``, ``leaf=M``, ``sub=S``: the boosting's tree depth,
  rounds, learning rate, smallest leaf and row subsample.

``base`` is the shipped training (scikit-learn's defaults). The peers' scores come from the
published ``results/farm.json``. Writes ``results/edge_variants.json`` with ``--write``.

    python benchmarks/edge_variants.py --sew-from DIR "base;w=child;bag=5;depth=2"
"""
from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
import time
from pathlib import Path
from statistics import fmean

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.corpus import commit, corpus_sites, family_of, farm_sites, fixture_sites  # noqa: E402
from benchmarks.farm_loo import score  # noqa: E402
from skeleton.analysis.offline import find_skeleton, page_records, skeleton_edges  # noqa: E402
from skeleton.analysis.training import load_labelled_site, load_truth, page_id  # noqa: E402
from skeleton.hierarchy.features import FEATURES, candidate_edges  # noqa: E402
from skeleton.hierarchy.scoring import KIND  # noqa: E402
from skeleton.sew.model import SEWModel  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
#: a site is "low" under this edge F1 (issue 28's bar)
LOW = 0.85

_DATA: dict = {}


def crawl_rows(sew_dir: Path) -> tuple[list, dict, dict, dict]:
    """Every site crawled once with its family's saved SEW model: the sites, their
    families, their crawls and their candidate rows ``(rows, labels, child of each row)``."""
    sites = [cs for cs in (*farm_sites(), *corpus_sites(), *fixture_sites()) if cs.serve_dir.exists()]
    family = {cs.name: family_of(cs) for cs in sites}
    sew = {}
    for unit in set(family.values()):
        fields = json.loads((sew_dir / f"{unit}.json").read_text())
        fields.pop("edges", None)
        sew[unit] = SEWModel(**fields)
    crawls, data = {}, {}
    for cs in sites:
        site = load_labelled_site(cs.truth, cs.serve_dir, cs.name, redirects=True)
        pages = list(find_skeleton(cs.start_url, site.fetch, sew[family[cs.name]], scope=cs.scope))
        crawls[cs.name] = pages
        truth = {c: p for p, c in load_truth(cs.truth)[1]}
        same = site.same or (lambda u: u)
        records, offers = page_records(pages)
        cands = candidate_edges(pages[0].url, records, offers)
        x, y, children = [], [], []
        for (parent, child), row in zip(cands.edges, cands.rows):
            true = truth.get(same(page_id(child)))
            if true is not None:
                x.append(row)
                y.append(int(same(page_id(parent)) == true))
                children.append(child)
        data[cs.name] = (x, y, children)
    return sites, family, crawls, data


def weights(kind: str, y: list[int], children: list[str]) -> list[float]:
    """Row weights of one site's rows."""
    per_child: dict[str, int] = {}
    for c in children:
        per_child[c] = per_child.get(c, 0) + 1
    out = []
    for label, child in zip(y, children):
        w = 1.0
        if kind in ("child", "childsite"):
            w = 1.0 if label else 1.0 / max(1, per_child[child] - 1)
        if kind == "site":
            w = 1000.0 / len(y)
        elif kind == "childsite":
            w *= 300.0 / len(per_child)
        out.append(w)
    return out


def train(variant: str, names: list[str], data: dict) -> dict:
    """The edge model of ``variant`` trained on the sites ``names``."""
    from sklearn.ensemble import GradientBoostingClassifier

    cfg = dict(kv.split("=", 1) for kv in variant.split(",") if "=" in kv)
    lr, bag = float(cfg.get("lr", 0.1)), int(cfg.get("bag", 1))
    rng = np.random.default_rng(0)
    inits, trees = [], []
    for b in range(bag):
        chosen = names if bag == 1 else [names[i] for i in rng.integers(0, len(names), len(names))]
        x, y, w = [], [], []
        for name in chosen:
            rows, labels, children = data[name]
            if labels:
                x += rows
                y += labels
                w += weights(cfg.get("w", "none"), labels, children)
        clf = GradientBoostingClassifier(n_estimators=int(cfg.get("trees", 100)), max_depth=int(cfg.get("depth", 3)),
                                         learning_rate=lr, min_samples_leaf=int(cfg.get("leaf", 1)),
                                         subsample=float(cfg.get("sub", 1.0)), random_state=b)
        clf.fit(np.asarray(x, float), np.asarray(y, int), sample_weight=np.asarray(w, float))
        prior = min(max(float(np.average(y, weights=w)), 1e-9), 1 - 1e-9)
        inits.append(math.log(prior / (1 - prior)))
        for (tree,) in clf.estimators_:
            t = tree.tree_
            trees.append({"feature": t.feature.tolist(), "threshold": t.threshold.tolist(),
                          "left": t.children_left.tolist(), "right": t.children_right.tolist(),
                          "value": t.value[:, 0, 0].tolist()})
    return {"kind": KIND, "features": list(FEATURES), "init": fmean(inits), "learning_rate": lr / bag,
            "trees": trees, "meta": {}}


def _held_out(job: tuple[str, str]) -> tuple[str, dict[str, float]]:
    variant, unit = job
    sites, family, crawls, data = _DATA["all"]
    model = train(variant, [n for n in data if family[n] != unit], data)
    return variant, {cs.name: score(cs, crawls[cs.name][0].url,
                                    {c: p for p, c in skeleton_edges(crawls[cs.name], model)})["edge_f1"]
                     for cs in sites if family[cs.name] == unit}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("variants", help='training variants separated by ";", e.g. "base;w=child;bag=5"')
    ap.add_argument("--sew-from", type=Path, required=True, metavar="DIR",
                    help="the held-out SEW models of farm_loo.py --save-models DIR")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--write", action="store_true", help="write results/edge_variants.json")
    args = ap.parse_args()
    variants = args.variants.split(";")
    t0 = time.perf_counter()
    _DATA["all"] = sites, family, _, _ = crawl_rows(args.sew_from)
    print(f"crawled {len(sites)} sites ({time.perf_counter() - t0:.0f} s)", flush=True)
    peers = {r["site"]: max(r["bfs"]["edge_f1"], r["folder"]["edge_f1"])
             for r in json.loads((RESULTS / "farm.json").read_text())["rows"]}
    jobs = [(v, u) for v in variants for u in sorted(set(family.values()))]
    scores: dict[str, dict[str, float]] = {v: {} for v in variants}
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        for variant, out in pool.imap_unordered(_held_out, jobs):
            scores[variant].update(out)
    summary = {}
    for v in variants:
        s = scores[v]
        summary[v] = {"mean": round(fmean(s.values()), 4), "below_peer": sum(s[n] + 1e-9 < peers.get(n, 0) for n in s),
                      "low": sum(x < LOW for x in s.values())}
        print(f"{v:30} mean {summary[v]['mean']:.4f}  below a peer {summary[v]['below_peer']}  "
              f"under {LOW} {summary[v]['low']}", flush=True)
    if args.write:
        out = RESULTS / "edge_variants.json"
        out.write_text(json.dumps({"commit": commit(), "sew_from": str(args.sew_from),
                                   "command": f"python benchmarks/edge_variants.py --sew-from {args.sew_from} "
                                              f"\"{args.variants}\" --write",
                                   "summary": summary, "sites": scores}, indent=1) + "\n")
        print(f"wrote {out}")


if __name__ == "__main__":
    main()
