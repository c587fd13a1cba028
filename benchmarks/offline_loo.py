"""Leave-one-site-out on the corpus without a crawler (FINDSKELETON over files).

A quick development check of the detector; the real benchmark is
``benchmarks/run_corpus.py``, which crawls served sites with the spider. With
``--shipped`` it scores the shipped model instead (in-sample: it was trained on
these sites), e.g. ``--all --shipped`` for our labelled fixture sites.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.corpus import corpus_sites, fixture_sites  # noqa: E402
from skeleton.sew.evaluation import score_tree  # noqa: E402
from skeleton.analysis.offline import fetch_count, find_skeleton, skeleton_edges  # noqa: E402
from skeleton.sew.model import load_model  # noqa: E402
from skeleton.analysis.training import ignored_pages, load_labelled_site, load_truth, page_id, page_samples, train_samples  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--no-fixtures", action="store_true")
    ap.add_argument("--all", action="store_true", help="also test on the fixture sites")
    ap.add_argument("--accept", nargs="*", default=["best", "nested", "all"])
    ap.add_argument("--shipped", action="store_true",
                    help="score the shipped model (in-sample) instead of training one per held-out site")
    args = ap.parse_args()
    sites = [(cs, load_labelled_site(cs.truth, cs.serve_dir, cs.name)) for cs in corpus_sites()]
    extra = [] if args.no_fixtures else [(cs, load_labelled_site(cs.truth, cs.serve_dir, cs.name))
                                         for cs in fixture_sites()]
    samples = {} if args.shipped else {s.name: (s.root, list(page_samples(s))) for _, s in sites + extra}
    rows = []
    for cs, site in sites + (extra if args.all else []):
        model = load_model(None) if args.shipped else train_samples(
            {k: v for k, v in samples.items() if k != site.name}, rules=args.accept,
            fetchers={s.name: s.fetch for _, s in sites + extra})
        pages = list(find_skeleton(cs.start_url, site.fetch, model, scope=cs.scope))
        edges = [(page_id(p), page_id(c)) for p, c in skeleton_edges(pages, model.edges or None)]
        root, truth, meta = load_truth(cs.truth)
        ignore = ignored_pages(meta, cs.start_url)
        score = score_tree(page_id(pages[0].url), edges, root, truth, ignore)
        e, p = score.edges, score.pages
        rows.append((cs.name, e["all"].f1, e["1"].f1, p["all"].f1, fetch_count(pages) / (len(truth) + 1)))
        print(f"{cs.name:18} edgeF1 {e['all'].f1:.3f} (P {e['all'].precision:.3f} R {e['all'].recall:.3f})"
              f" L1 {e['1'].f1:.3f} pageF1 {p['all'].f1:.3f} fetched/true {rows[-1][4]:.2f}"
              f" tau={model.tau} accept={model.accept} z={model.disdiff_z}", flush=True)


if __name__ == "__main__":
    main()
