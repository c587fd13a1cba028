"""Where the fetches go: every page a crawl fetched that is no node of the truth, by kind,
and the fetch budget's floor, per labelled site.

Issue 28's budget is at most 1.3 pages fetched per true page on every site. A crawl
that reaches a listing's items must fetch the listing's later pages, which are no
nodes (``../shared/corpus/README.md``), so the floor is not 1.0. Each page fetched that
is no node is counted as one of:

* ``needed``: a later page of a listing (``page/2/``; its first page found as the tree
  finds it, :func:`skeleton.hierarchy.pagination.pager_heads`) whose first page is a node and
  which offers at least one of that node's true children that the first page does not
  offer (a site menu repeated on every page of the listing makes no later page needed):
  the budget has to pay it;
* ``later``: any other later page (of a tag, author or archive listing, of a blog
  home whose posts hang from their categories);
* ``broken``: a page the site answered with Not Found (a broken link);
* ``first``: any other page: a view's first page (tag, author, archive, category no
  menu declares), an index of views.

``floor`` is (true pages + ``needed`` + ``broken``) / true pages: the fetched per true
page of a crawl that fetched the nodes and nothing it did not need (a broken link is
known to be one only once fetched). ``fetched`` is the crawl's
count as ``farm_loo.py`` reports it (:func:`skeleton.analysis.offline.fetch_count`).

    python benchmarks/fetch_budget.py [--models DIR] [--sites NAME ...] [--write]

Crawls offline with the shipped models (in-sample for the sites they were trained
on), or with ``--models DIR`` the held-out models ``farm_loo.py --save-models DIR``
saved, one per family: the figures ``farm_loo.py`` reports. With ``--write`` the
results go to ``benchmarks/results/fetch_budget.json``
(``python benchmarks/docs_tables.py --write`` puts its table in the docs).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.corpus import MODELS_HELP, CorpusSite, commit, family_of, labelled_sites  # noqa: E402
from skeleton.analysis.offline import fetch_count, find_skeleton  # noqa: E402
from skeleton.analysis.training import load_labelled_site, load_truth, page_id, served_page  # noqa: E402
from skeleton.hierarchy.pagination import pager_heads  # noqa: E402
from skeleton.sew.model import load_model  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results" / "fetch_budget.json"
#: the budget issue 28 sets: pages fetched per true page
BUDGET = 1.3
KINDS = ("needed", "later", "broken", "first")


def page_kinds(cs: CorpusSite, pages: list) -> tuple[set[str], dict[str, str]]:
    """The true nodes of ``cs`` (page ids) and the kind of every page the crawl
    ``pages`` fetched: ``node`` or one of :data:`KINDS`, by URL."""
    same = served_page(cs.serve_dir)

    def ident(url: str) -> str:
        return same(page_id(url))

    root, truth, _ = load_truth(cs.truth)
    children: dict[str, set[str]] = {}
    for parent, child in truth:
        children.setdefault(same(parent), set()).add(same(child))
    nodes = {same(child) for _, child in truth} | {same(root)}
    fetched_urls = {page.url for page in pages if page.fetched}
    # the later pages of a listing and its first page, as the tree folds them (:mod:`skeleton.hierarchy.pagination`)
    heads = pager_heads(pages[0].url, ((page.url, page.evidence.get("pager") or ()) for page in pages),
                        fetched_urls)
    offered = {page.url: {ident(child) for child in page.offers} for page in pages if page.fetched}
    kinds: dict[str, str] = {}
    for page in pages:
        if not page.fetched:
            continue
        head = heads.get(page.url)
        if ident(page.url) in nodes:
            kinds[page.url] = "node"
        elif page.status == "404":
            kinds[page.url] = "broken"
        elif head is not None and head != page.url:
            first = ident(head)
            own = children.get(first, set()) - offered.get(head, set()) if first in nodes else set()
            kinds[page.url] = "needed" if any(ident(child) in own for child in page.offers) else "later"
        else:
            kinds[page.url] = "first"
    return nodes, kinds


def site_budget(cs: CorpusSite, model_path: Path | None) -> dict[str, Any]:
    """One site's crawl: its true pages, pages fetched and the kinds of those that are no node."""
    model = load_model(model_path)
    labelled = load_labelled_site(cs.truth, cs.serve_dir, cs.name, redirects=True)
    pages = list(find_skeleton(cs.start_url, labelled.fetch, model, scope=cs.scope))
    nodes, page_kind = page_kinds(cs, pages)
    kinds = dict.fromkeys(KINDS, 0)
    for kind in page_kind.values():
        if kind != "node":
            kinds[kind] += 1
    fetched = fetch_count(pages)
    return {"site": cs.name, "family": family_of(cs), "true_nodes": len(nodes), "fetched": fetched,
            "fetched_per_true": round(fetched / len(nodes), 3), **kinds,
            "floor": round((len(nodes) + kinds["needed"] + kinds["broken"]) / len(nodes), 3)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", type=Path, help=MODELS_HELP)
    ap.add_argument("--sites", nargs="*", help="only these sites")
    ap.add_argument("--write", action="store_true", help="write benchmarks/results/fetch_budget.json")
    args = ap.parse_args()
    sites = [cs for cs in labelled_sites() if not args.sites or cs.name in args.sites]
    rows = []
    for cs in sites:
        path = args.models / f"{family_of(cs)}.json" if args.models is not None else None
        found = site_budget(cs, path)
        rows.append(found)
        print(f"{found['site']:28} fetched/true {found['fetched_per_true']:.2f}  floor {found['floor']:.2f}  "
              + "  ".join(f"{kind} {found[kind]}" for kind in KINDS), flush=True)
    over = [r["site"] for r in rows if r["fetched_per_true"] > BUDGET]
    floor_over = [r["site"] for r in rows if r["floor"] > BUDGET]
    print(f"over {BUDGET}: {len(over)} ({' '.join(over)}); floor over {BUDGET}: {len(floor_over)}")
    if args.write:
        models = "held out by family (farm_loo.py --save-models)" if args.models else "shipped (in-sample)"
        result = {"commit": commit(), "models": models, "budget": BUDGET,
                  "command": "python benchmarks/fetch_budget.py" + (" --models DIR" if args.models else "")
                  + (f" --sites {' '.join(args.sites)}" if args.sites else "") + " --write",
                  "rows": rows}
        RESULTS.write_text(json.dumps(result, indent=1) + "\n")
        print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()
