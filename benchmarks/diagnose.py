"""One labelled site's tree against its truth: the pages fetched that are no
nodes, the nodes never fetched and every wrong parent (ours, the truth's).

    python benchmarks/diagnose.py SITE [--limit N]

Crawls offline with the shipped models (in-sample for the sites they were trained
on), or with ``--model DIR`` the held-out models ``farm_loo.py --save-models DIR``
saved for the site's family: a diagnosis aid, not a figure to report.
"""
from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.corpus import corpus_sites, family_of, farm_sites, fixture_sites  # noqa: E402
from skeleton.hierarchy.features import FEATURES, candidate_edges  # noqa: E402
from skeleton.hierarchy.scoring import edge_weights  # noqa: E402
from skeleton.analysis.offline import fetch_count, find_skeleton, page_records, skeleton_edges  # noqa: E402
from skeleton.sew.model import load_model  # noqa: E402
from skeleton.analysis.training import load_labelled_site, load_truth, page_id, served_page  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("site")
    ap.add_argument("--model", type=Path, help="a model file, or a folder of held-out models by family")
    ap.add_argument("--child", nargs="*", default=[], help="print these pages' candidate parents and rows "
                                                             "(paths from the site's root)")
    ap.add_argument("--page", nargs="*", default=[], help="print what these pages offered (paths)")
    ap.add_argument("--limit", type=int, default=40, help="print at most this many lines per part")
    args = ap.parse_args()
    sites = {cs.name: cs for cs in (*farm_sites(), *corpus_sites(), *fixture_sites())}
    cs = sites[args.site]
    path = args.model
    if path is not None and path.is_dir():
        path = path / f"{family_of(cs)}.json"
    model = load_model(path)
    labelled = load_labelled_site(cs.truth, cs.serve_dir, cs.name, redirects=True)
    pages = list(find_skeleton(cs.start_url, labelled.fetch, model, scope=cs.scope))
    same = served_page(cs.serve_dir)
    ident = lambda u: same(page_id(u))  # noqa: E731
    root, truth, _ = load_truth(cs.truth)
    true_parent = {same(c): same(p) for p, c in truth}
    ours = {ident(c): ident(p) for p, c in skeleton_edges(pages, model.edges)}
    fetched = [ident(p.url) for p in pages if p.fetched]
    nodes = set(true_parent) | {same(root)}
    extra = [u for u in fetched if u not in nodes]
    missing = sorted(nodes - set(fetched))
    print(f"{cs.name}: {fetch_count(pages)} fetched, {len(nodes)} nodes, {len(extra)} fetched no node, "
          f"{len(missing)} nodes never fetched")
    base = cs.start_url.split("://", 1)[0] + "://" + cs.start_url.split("://", 1)[1].split("/", 1)[0] + "/"
    short = lambda u: u.split("://", 1)[-1].split("/", 1)[-1] or "/"  # noqa: E731
    for label, items in (("fetched, no node", extra), ("never fetched", missing)):
        print(f"-- {label}:")
        for u in items[:args.limit]:
            print("  ", short(u), "  (true parent", short(true_parent.get(u, "-")) + ")" if u in true_parent else "")
    wrong = [(c, p, true_parent[c]) for c, p in ours.items() if c in true_parent and true_parent[c] != p]
    print(f"-- wrong parents: {len(wrong)} of {sum(1 for c in ours if c in true_parent)} nodes placed")
    print("   most common wrong parents:",
          ", ".join(f"{short(p)} x{n}" for p, n in Counter(p for _, p, _ in wrong).most_common(5)))
    for c, p, t in wrong[:args.limit]:
        print(f"   {short(c):50} ours {short(p):40} truth {short(t)}")
    for want in args.page:
        for page in pages:
            if short(page.url) == want:
                print(f"-- {want}: depth {page.depth}, navigation {page.is_navigation}, evidence "
                      f"{ {k: v for k, v in page.evidence.items() if v} }")
                for child, offer in page.offers.items():
                    print(f"   {short(child):50} {offer}")
    if args.child:
        records, offers = page_records(pages)
        cands = candidate_edges(pages[0].url, records, offers)
        weights = edge_weights(cands.rows, model.edges)
        for want in args.child:
            print(f"-- candidates of {want} (truth {short(true_parent.get(ident(base + want), '-'))}):")
            for (parent, child), row, w in zip(cands.edges, cands.rows, weights):
                if short(ident(child)) == want:
                    print(f"   {short(parent):40} weight {w:.3f}  " + " ".join(
                        f"{f}={v:g}" for f, v in zip(FEATURES, row) if v))


if __name__ == "__main__":
    main()
