"""Leave-two-generators-out: how much each site's tree owes to one other generator family.

``farm_loo.py`` scores every site with an edge model trained without the site's whole
family. A site that scores well only because one *other* family in the training set
shares its convention is fragile: a site of a generator that nobody trained on, with the
same convention, would not find it. This benchmark measures that dependence. For every
family F and every other family G, the edge model is trained without F and G, and each
site of F is scored with it; the site's row gives its edge F1 with F alone held out (the
``farm_loo.py`` figure) and with each G held out too.

The SEW models are read from an earlier ``farm_loo.py --save-models DIR`` run: each site
is crawled once with the SEW model held out by its family only (retraining SEW for every
pair of families would take days on two cores), so the figures measure the edge model's
dependence on each other family, with the crawl as in ``farm_loo.py``.

    python benchmarks/leave_two_out.py --sew-from DIR [--jobs 2] [--write]

With ``--write`` the results go to ``benchmarks/results/leave_two_out.json``
(``python benchmarks/docs_tables.py --write`` puts its table in
``docs/benchmarks/accuracy.md``). About 10 minutes on two cores for 79 sites (17
families, 289 edge models).
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from pathlib import Path
from statistics import fmean
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.corpus import CorpusSite, commit, family_of, labelled_sites  # noqa: E402
from benchmarks.farm_loo import score  # noqa: E402
from skeleton.analysis.offline import find_skeleton, skeleton_edges  # noqa: E402
from skeleton.analysis.training import labelled_edges, load_labelled_site, load_truth  # noqa: E402
from skeleton.hierarchy.scoring import train_edge_model  # noqa: E402
from skeleton.sew.model import SEWModel  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results" / "leave_two_out.json"
#: a second family whose absence lowers a site's edge F1 by more than this is one it depends on
DROP = 0.02
#: the issue's bar for every site
SITE_BAR = 0.85

# (site -> crawled pages, site -> (rows, labels), site -> family, sites by name), shared
# with the forked workers
_STATE: tuple[dict[str, list], dict[str, tuple[list, list]], dict[str, str], dict[str, CorpusSite]] | None = None


def _score_family(job: tuple[str, str | None]) -> tuple[str, str | None, dict[str, float]]:
    """The edge F1 of each site of family ``held`` with an edge model trained without
    ``held`` and ``extra`` (None: ``held`` alone)."""
    assert _STATE is not None
    crawls, rows, family, sites = _STATE
    held, extra = job
    out = {held, extra}
    x = [r for k, (xs, _) in rows.items() if family[k] not in out for r in xs]
    y = [v for k, (_, ys) in rows.items() if family[k] not in out for v in ys]
    of_site = [k for k, (_, ys) in rows.items() if family[k] not in out for _ in ys]
    model = train_edge_model(x, y, sites=of_site)
    scores = {}
    for name, pages in crawls.items():
        if family[name] == held:
            ours = {child: parent for parent, child in skeleton_edges(pages, model)}
            scores[name] = score(sites[name], pages[0].url, ours)["edge_f1"]
    return held, extra, scores


def depends_on(loo: float, without: dict[str, float]) -> list[str]:
    """The second families whose absence costs the site more than ``DROP`` of its edge F1."""
    return sorted(g for g, f1 in without.items() if f1 < loo - DROP)


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Mean edge F1 held out by family and over every (site, second family) pair, the
    pairs under the site bar, and each second family's mean when it is also held out."""
    pairs = [f1 for r in rows for f1 in r["without"].values()]
    extras = sorted({g for r in rows for g in r["without"]})
    by_extra = {g: round(fmean(r["without"].get(g, r["loo"]) for r in rows), 4) for g in extras}
    return {"sites": len(rows), "loo_mean": round(fmean(r["loo"] for r in rows), 4),
            "pair_mean": round(fmean(pairs), 4), "pairs": len(pairs),
            "pairs_under_bar": sum(f1 < SITE_BAR for f1 in pairs),
            "sites_under_bar": sorted({r["site"] for r in rows if min(r["without"].values(), default=1) < SITE_BAR}),
            "mean_by_extra": by_extra}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sew-from", type=Path, metavar="DIR", required=True,
                    help="the held-out SEW models an earlier `farm_loo.py --save-models DIR` saved (DIR/FAMILY.json)")
    ap.add_argument("--jobs", type=int, default=2, help="edge models trained in this many processes")
    ap.add_argument("--write", action="store_true", help="write benchmarks/results/leave_two_out.json")
    args = ap.parse_args()
    sites = {cs.name: cs for cs in labelled_sites()}
    family = {name: family_of(cs) for name, cs in sites.items()}
    families = sorted(set(family.values()))
    t0 = time.perf_counter()
    crawls, rows = {}, {}
    for name, cs in sites.items():
        fields = json.loads((args.sew_from / f"{family[name]}.json").read_text())
        fields.pop("edges", None)
        labelled = load_labelled_site(cs.truth, cs.serve_dir, cs.name, redirects=True)
        crawls[name] = list(find_skeleton(cs.start_url, labelled.fetch, SEWModel(**fields), scope=cs.scope))
        truth = {child: parent for parent, child in load_truth(cs.truth)[1]}
        rows[name] = labelled_edges(crawls[name], truth, labelled.same)
    print(f"crawled {len(crawls)} sites ({time.perf_counter() - t0:.0f} s)", flush=True)
    global _STATE
    _STATE = (crawls, rows, family, sites)
    jobs = [(held, extra) for held in families for extra in (None, *(g for g in families if g != held))]
    found: dict[str, dict[str, Any]] = {name: {"site": name, "family": family[name], "loo": None, "without": {}}
                                        for name in sites}
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        for held, extra, scores in pool.imap_unordered(_score_family, jobs):
            for name, f1 in scores.items():
                if extra is None:
                    found[name]["loo"] = f1
                else:
                    found[name]["without"][extra] = f1
            print(f"without {held}{' and ' + extra if extra else '':24} "
                  + " ".join(f"{n} {f:.3f}" for n, f in scores.items()), flush=True)
    table = sorted(found.values(), key=lambda r: (r["family"], r["site"]))
    for r in table:
        r["without"] = dict(sorted(r["without"].items()))
        r["depends_on"] = depends_on(r["loo"], r["without"])
    result = {"commit": commit(), "sew_from": str(args.sew_from),
              "protocol": "Edge model trained without the site's family and one other family (every pair); "
                          "SEW held out by the site's family only (read from an earlier farm_loo.py --save-models "
                          "run). Held out for every row.",
              "command": "python benchmarks/leave_two_out.py --sew-from DIR --write",
              "drop": DROP, "site_bar": SITE_BAR, "summary": summary(table), "rows": table}
    s = result["summary"]
    print(f"held out by family: mean {s['loo_mean']:.4f}; with a second family out: mean {s['pair_mean']:.4f} over "
          f"{s['pairs']} pairs, {s['pairs_under_bar']} under {SITE_BAR} ({' '.join(s['sites_under_bar'])})")
    if args.write:
        RESULTS.write_text(json.dumps(result, indent=1) + "\n")
        print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()
