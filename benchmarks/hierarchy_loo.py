"""Leave-one-site-out edge F1 of the evidence tree on every labelled site.

For each labelled site (the eight corpus sites and ``tests/sites``), FINDSKELETON
runs over the site's files (no server) with the SEW model and records every page's
offers and evidence, as the crawl's pipeline does. Then, per held-out site, the
edge model is trained on the candidate edges of all the *other* sites and the
held-out site's tree is resolved with it (leave-one-site-out); the shipped model's
figure (trained on every site: in-sample) is printed beside it, with the
shortest-path tree of the previous releases as a baseline.

    python benchmarks/hierarchy_loo.py                 # SEW model: the shipped one
    python benchmarks/hierarchy_loo.py --sew-loo       # SEW model also retrained without the site
    python benchmarks/hierarchy_loo.py --write         # also write benchmarks/results/hierarchy.json

The SEW detection model is the shipped one unless ``--sew-loo`` (slower); the
table says which.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from statistics import fmean

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.corpus import corpus_sites, fixture_sites  # noqa: E402
from skeleton.hierarchy.scoring import train_edge_model  # noqa: E402
from skeleton.sew.evaluation import score_tree  # noqa: E402
from skeleton.sew.findskeleton import find_skeleton, skeleton_edges  # noqa: E402
from skeleton.sew.model import load_model  # noqa: E402
from skeleton.sew.training import (labelled_edges, load_labelled_site, load_truth, page_id,  # noqa: E402
                                   page_samples, train_samples)

RESULTS = Path(__file__).resolve().parent / "results" / "hierarchy.json"


def site_ignore(cs, meta) -> set[str]:
    # the generated sites list kinds of non-node pages (dicts), not URLs: those count
    ignore = {u for u in [*meta.get("not_in_tree_sample", []), *meta.get("not_in_tree", [])]
              if isinstance(u, str)}
    prefix = cs.start_url.rsplit("/", 1)[0] + "/"
    return {page_id(u if "://" in u else prefix + u) for u in ignore}


def score(cs, pages, edge_model) -> dict:
    root, truth, meta = load_truth(cs.truth)
    edges = [(page_id(p), page_id(c)) for p, c in skeleton_edges(pages, edge_model)]
    s = score_tree(page_id(pages[0].url), edges, root, truth, site_ignore(cs, meta))
    return {"edge_f1": round(s.edges["all"].f1, 4), "l1_f1": round(s.edges["1"].f1, 4),
            "fetched_per_true": round(len(pages) / (len(truth) + 1), 3)}


def commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sew-loo", action="store_true", help="retrain SEW without the held-out site too")
    ap.add_argument("--only", nargs="*", help="hold out only these sites (all sites still train)")
    ap.add_argument("--write", action="store_true", help=f"write {RESULTS.relative_to(Path.cwd()) if RESULTS.is_relative_to(Path.cwd()) else RESULTS}")
    args = ap.parse_args()
    sites = [cs for cs in corpus_sites() + fixture_sites() if cs.serve_dir.exists()]
    shipped = load_model(None)
    labelled = {cs.name: load_labelled_site(cs.truth, cs.serve_dir, cs.name) for cs in sites}
    samples = ({name: (s.root, list(page_samples(s))) for name, s in labelled.items()}
               if args.sew_loo else {})
    crawls, rows = {}, {}
    for cs in sites:
        sew = shipped
        if args.sew_loo:
            sew = train_samples({k: v for k, v in samples.items() if k != cs.name},
                                fetchers={k: s.fetch for k, s in labelled.items()})
        t = time.perf_counter()
        pages = list(find_skeleton(cs.start_url, labelled[cs.name].fetch, sew, scope=cs.scope))
        _, truth, _ = load_truth(cs.truth)
        crawls[cs.name] = pages
        rows[cs.name] = labelled_edges(pages, {c: p for p, c in truth})
        print(f"{cs.name:18} crawled {len(pages)} pages, {len(rows[cs.name][0])} labelled candidate "
              f"edges ({time.perf_counter() - t:.1f} s)", flush=True)
    table = []
    for cs in sites:
        if args.only and cs.name not in args.only:
            continue
        train_x = [r for k, (x, _) in rows.items() if k != cs.name for r in x]
        train_y = [y for k, (_, ys) in rows.items() if k != cs.name for y in ys]
        loo_model = train_edge_model(train_x, train_y)
        row = {"site": cs.name,
               "loo": score(cs, crawls[cs.name], loo_model),
               "shipped": score(cs, crawls[cs.name], shipped.edges or None),
               "shortest_path": score(cs, crawls[cs.name], None)}
        table.append(row)
        print(f"{cs.name:18} LOO {row['loo']['edge_f1']:.3f} (L1 {row['loo']['l1_f1']:.3f})  shipped "
              f"{row['shipped']['edge_f1']:.3f}  shortest-path {row['shortest_path']['edge_f1']:.3f}  "
              f"fetched/true {row['loo']['fetched_per_true']:.2f}", flush=True)
    corpus = [r for r in table if r["site"] in {c.name for c in corpus_sites()}]
    for label, group in (("corpus mean", corpus), ("all mean", table)):
        if group:
            print(f"{label:18} LOO {fmean(r['loo']['edge_f1'] for r in group):.3f}  shipped "
                  f"{fmean(r['shipped']['edge_f1'] for r in group):.3f}  shortest-path "
                  f"{fmean(r['shortest_path']['edge_f1'] for r in group):.3f}")
    if args.write:
        RESULTS.write_text(json.dumps({
            "commit": commit(), "model": shipped.meta, "sew_model": "leave-one-site-out" if args.sew_loo
            else "shipped (in-sample for every site it was trained on)",
            "command": "python benchmarks/hierarchy_loo.py" + (" --sew-loo" if args.sew_loo else "") + " --write",
            "rows": table}, indent=1) + "\n")
        print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()
