"""The fetch budget when the user declares a site's views (``-a skip``).

The sites over issue 28's budget (1.3 pages fetched per true page) fetch their views:
tag, author and archive pages, categories no menu declares, and later pages of
listings that own nothing. A crawl cannot tell them before fetching them
(``benchmarks/view_prediction.py``); a user who knows the site can, with ``-a skip``
(:mod:`skeleton.urlrules.skip`). :data:`DECLARED` holds, per site, what such a user
declares: the URL folders that hold only views, read from the site as built (its
folders of tag, author, contributor and archive pages; its categories where no menu
declares them; the later pages of a listing whose posts hang from their sections).
Each site is crawled offline with the held-out models ``farm_loo.py --save-models
DIR`` saved, without and with its declaration: edge F1 (held-out edge model) and
fetched per true page.

    python benchmarks/declared_skip.py --models DIR [--write]

Under a minute; ``--write`` puts the results in
``benchmarks/results/declared_skip.json`` (``python benchmarks/docs_tables.py
--write`` puts its table in docs/benchmarks/accuracy.md).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.corpus import MODELS_HELP, CorpusSite, commit, family_of, labelled_sites  # noqa: E402
from benchmarks.farm_loo import score  # noqa: E402
from benchmarks.fetch_budget import BUDGET, page_kinds  # noqa: E402
from skeleton.analysis.offline import fetch_count, find_skeleton, skeleton_edges  # noqa: E402
from skeleton.analysis.training import load_labelled_site, page_id, served_page  # noqa: E402
from skeleton.sew.model import load_model  # noqa: E402
from skeleton.urlrules.skip import parse_skip  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results" / "declared_skip.json"
#: site -> its ``-a skip``: the folders that hold only views on that site. Two more
#: declarations show what a listing's later pages do: on hexo-landscape-menu the home
#: listing's later pages re-list posts its menu categories file; on hugo-doks-blog the
#: blog listing's later pages are evidence the tree reads
DECLARED: dict[str, tuple[str, ...]] = {
    "hugo-doks-blog": (r"^/tags/ ^/contributors/ ^/categories/$",
                       r"^/tags/ ^/contributors/ ^/categories/$ ^/blog/page/"),
    "pelican-reflex": (r"^/tag/ ^/category/ ^/tags\.html$ ^/archives\.html$",),
    "hexo-fluid": (r"^/tags/ ^/categories/ ^/archives/",),
    "hexo-next": (r"^/tags/ ^/archives/",),
    "hexo-landscape-menu": (r"^/archives/", r"^/archives/ ^/page/"),
    "hugo-doks-starter": (r"^/tags/ ^/contributors/",),
    "portal-blog": (r"^/authors/",),
    "nikola-base-jinja": (r"^/archive\.html$ ^/categories/",),
    "mkdocs": ("",),
}


def crawl(cs: CorpusSite, model: Any, skip: str) -> dict[str, Any]:
    """Edge F1 and fetched per true page of the site's crawl with ``-a skip`` ``skip``."""
    labelled = load_labelled_site(cs.truth, cs.serve_dir, cs.name, redirects=True)
    patterns = parse_skip(skip, cs.start_url)
    pages = list(find_skeleton(cs.start_url, labelled.fetch, model, scope=cs.scope, skip=patterns))
    nodes, kinds = page_kinds(cs, pages)
    parents = {child: parent for parent, child in skeleton_edges(pages, model.edges)}
    same = served_page(cs.serve_dir)
    lost = len(nodes - {same(page_id(url)) for url, kind in kinds.items() if kind == "node"})
    return {"edge_f1": score(cs, pages[0].url, parents)["edge_f1"],
            "fetched_per_true": round(fetch_count(pages) / len(nodes), 3), "nodes_not_fetched": lost}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", type=Path, required=True, help=MODELS_HELP)
    ap.add_argument("--write", action="store_true", help="write benchmarks/results/declared_skip.json")
    args = ap.parse_args()
    rows = []
    for cs in labelled_sites():
        if cs.name not in DECLARED:
            continue
        model = load_model(args.models / f"{family_of(cs)}.json")
        without = crawl(cs, model, "")
        for skip in DECLARED[cs.name]:
            row = {"site": cs.name, "family": family_of(cs), "skip": skip, "without": without,
                   "with": crawl(cs, model, skip), "first": skip == DECLARED[cs.name][0]}
            rows.append(row)
            print(f"{cs.name:24} edge F1 {without['edge_f1']:.3f} -> {row['with']['edge_f1']:.3f}  fetched/true "
                  f"{without['fetched_per_true']:.2f} -> {row['with']['fetched_per_true']:.2f}  "
                  f"skip {skip or '(none)'}", flush=True)
    over = [r["site"] for r in rows if r["first"] and r["with"]["fetched_per_true"] > BUDGET]
    print(f"over {BUDGET} with the view folders declared: {len(over)} ({' '.join(over)})")
    if args.write:
        RESULTS.write_text(json.dumps({
            "commit": commit(), "models": "held out by family (farm_loo.py --save-models)", "budget": BUDGET,
            "command": "python benchmarks/declared_skip.py --models DIR --write", "rows": rows}, indent=1) + "\n")
        print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()
