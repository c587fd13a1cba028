"""Could a crawl tell a view from a section before fetching it? The fetch budget's open question.

``fetch_budget.py`` shows that what a crawl fetches over issue 28's budget (1.3 pages
per true page) is views: tag, author, contributor and archive pages, categories no
menu declares, indexes of those, and their later pages. The tree removes them once
the crawl is over (``skeleton/hierarchy/views.py``), from what they list. To fetch
less, the crawl would have to know a page is a view *before* fetching it, from the
links to it. Per labelled site, crawled offline with the held-out models
``farm_loo.py --save-models DIR`` saved (``--models DIR``, as ``fetch_budget.py``):

1. **Without the views (an oracle).** The crawl again, told which pages are views:
   every page ``fetch_budget.py`` sorts as ``first`` (a view's first page, an index of
   views) is never requested, so neither is what only it leads to. Reported: the
   tree's edge F1 (held-out edge model) and fetched per true page. This is what a
   perfect prediction would give.
2. **Predicted from the links to it.** Every link the crawl followed to a page that is
   a node or a view's first page, with its offer's fields (:data:`OFFER_FEATURES`),
   whether the home page offers it, how many pages and sets the offering page offers,
   and how the two URL folders relate, is summed up per linked page over *all* the
   links the crawl found to it (more than a crawl deciding as links arrive could
   know). A gradient-boosted classifier learns "view" from the other families
   (leave one generator out) and, as an upper bound, from every site (in sample). A
   page called a view at threshold ``t`` is not fetched, nor what only it leads to
   (reachability over the crawl's followed links, pagination and declared places).
   Reported per threshold: sites over the budget and true nodes no longer reached.
   The same again with the view words the page's URL names (:data:`VIEW_FOLDER_WORDS`),
   and those words as a rule alone. Reachability only: what the tree makes of the
   pages left is measured by the oracle, and by the rules in docs/benchmarks/accuracy.md.

    python benchmarks/view_prediction.py --models DIR [--write]

About 8 minutes on two cores; ``--write`` puts the results in
``benchmarks/results/view_prediction.json`` (``python benchmarks/docs_tables.py
--write`` puts its tables in docs/benchmarks/accuracy.md).
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from statistics import fmean
from typing import Any
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.corpus import MODELS_HELP, CorpusSite, commit, family_of, labelled_sites  # noqa: E402
from benchmarks.farm_loo import score  # noqa: E402
from benchmarks.fetch_budget import BUDGET, page_kinds  # noqa: E402
from skeleton.analysis.offline import PageResult, fetch_count, find_skeleton, skeleton_edges  # noqa: E402
from skeleton.analysis.training import load_labelled_site  # noqa: E402
from skeleton.hierarchy.evidence import declared_places  # noqa: E402
from skeleton.sew.model import load_model  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results" / "view_prediction.json"
#: the offer fields (:mod:`skeleton.hierarchy.offers`) a link brings
OFFER_FEATURES = ("level", "size", "pos", "toc", "alpha", "dirs", "inside")
#: the URL folder names of views in the farm's generators, by kind: with ``words``, a
#: page's features say which its URL's folders name (the issue keeps words for where the
#: structure cannot decide; categories are nodes on some sites and views on others)
VIEW_FOLDER_WORDS = {"tag": "tag", "tags": "tag", "author": "author", "authors": "author",
                     "contributor": "author", "contributors": "author", "archive": "archive",
                     "archives": "archive", "category": "category", "categories": "category"}
WORD_KINDS = ("tag", "author", "archive", "category")
#: the classifier's thresholds: a page is called a view when its probability is above
THRESHOLDS = (0.5, 0.7, 0.9)
#: the classifier (scikit-learn's GradientBoostingClassifier)
TREES, DEPTH, SEED = 150, 3, 0

Link = tuple[str, str, "dict[str, Any] | None"]  # (from page, to page, its offer or None)


def folder(url: str) -> str:
    """The URL's path up to its last ``/``."""
    path = urlsplit(url).path
    return path.rsplit("/", 1)[0] + "/"


def crawl_links(pages: Sequence[PageResult]) -> list[Link]:
    """Every link the crawl ``pages`` followed or could follow: navigation links (with
    their offer), later pages of a listing, the places a page declares (breadcrumb,
    up link) and redirects (without)."""
    links: list[Link] = []
    for page in pages:
        for child in page.aliases.values():
            links.append((page.url, child, None))
        for child in page.evidence.get("pager") or ():
            links.append((page.url, child, None))
        for child in declared_places(page.evidence):
            links.append((page.url, child, None))
        for _, child, _ in page.nav_links:
            links.append((page.url, child, page.offers.get(child)))
    return links


def link_features(link: Link, root: str, offered: Mapping[str, int], sets: Mapping[str, int]) -> list[float]:
    """One offered link's features: its offer's fields, whether the home page offers it,
    how many links and sets its page offers, the folders' depth difference and whether
    one folder holds the other."""
    origin, child, offer = link
    assert offer is not None
    here, there = folder(origin), folder(child)
    return [*(float(offer.get(name) or 0) for name in OFFER_FEATURES), float(origin == root),
            float(offered.get(origin, 0)), float(sets.get(origin, 0)),
            float(there.count("/") - here.count("/")), float(there.startswith(here)), float(here.startswith(there))]


def page_features(rows: Sequence[Sequence[float]]) -> list[float]:
    """A linked page's features from its links' (:func:`link_features`): how many,
    how many from home, and the mean, least and most of each."""
    columns = list(zip(*rows))
    out = [float(len(rows)), sum(columns[len(OFFER_FEATURES)])]
    for column in columns:
        out += [fmean(column), min(column), max(column)]
    return out


def url_words(url: str) -> list[float]:
    """Which of :data:`WORD_KINDS` the URL's path names (``/tags/x/``, ``/tags.html``)."""
    named = {VIEW_FOLDER_WORDS.get(segment.rsplit(".", 1)[0] if segment.endswith((".html", ".htm")) else segment)
             for segment in urlsplit(url).path.lower().split("/")}
    return [float(kind in named) for kind in WORD_KINDS]


def linked_pages(pages: Sequence[PageResult], links: Sequence[Link]) -> dict[str, list[float]]:
    """Page -> :func:`page_features` over every offered link to it."""
    root = pages[0].url
    offered: dict[str, int] = defaultdict(int)
    sets: dict[str, set[str]] = defaultdict(set)
    for origin, _, offer in links:
        if offer is not None:
            offered[origin] += 1
            sets[origin].add(str(offer.get("sig", "")))
    set_count = {origin: len(sigs) for origin, sigs in sets.items()}
    rows: dict[str, list[list[float]]] = defaultdict(list)
    for link in links:
        if link[2] is not None and link[1] != link[0]:
            rows[link[1]].append(link_features(link, root, offered, set_count))
    return {page: page_features(found) for page, found in rows.items()}


def reached(root: str, links: Iterable[Link], cut: set[str]) -> set[str]:
    """The pages reached from ``root`` over ``links`` without entering ``cut``."""
    out: dict[str, list[str]] = defaultdict(list)
    for origin, child, _ in links:
        out[origin].append(child)
    seen, todo = {root}, [root]
    while todo:
        for child in out.get(todo.pop(), ()):
            if child not in seen and child not in cut:
                seen.add(child)
                todo.append(child)
    return seen


def budget_after(kinds: Mapping[str, str], nodes: int, seen: set[str]) -> tuple[float, int]:
    """Fetched per true page and true nodes lost when only ``seen`` is fetched."""
    fetched = sum(1 for url in kinds if url in seen)
    lost = sum(1 for url, kind in kinds.items() if kind == "node" and url not in seen)
    return round(fetched / nodes, 3), lost


def oracle_row(cs: CorpusSite, model: Any, labelled: Any, pages: list[PageResult], kinds: Mapping[str, str],
               nodes: int) -> dict[str, Any]:
    """The site's tree and fetches with and without its views' first pages."""
    parents = {child: parent for parent, child in skeleton_edges(pages, model.edges)}
    row = {"site": cs.name, "family": family_of(cs), "true_nodes": nodes,
           "edge_f1": score(cs, pages[0].url, parents)["edge_f1"],
           "fetched_per_true": round(fetch_count(pages) / nodes, 3)}
    views = {url for url, kind in kinds.items() if kind == "first"}
    row["views"] = len(views)
    if not views:
        row["oracle_edge_f1"], row["oracle_fetched_per_true"] = row["edge_f1"], row["fetched_per_true"]
        return row
    asked: set[str] = set()

    def fetch(url: str) -> bytes | str | None:
        if url in views:
            asked.add(url)
            return None
        return labelled.fetch(url)

    without = list(find_skeleton(cs.start_url, fetch, model, scope=cs.scope))
    # the views answer Not Found here: no node, no offers (``resolve_tree``), as if never asked
    parents = {child: parent for parent, child in skeleton_edges(without, model.edges)}
    row["oracle_edge_f1"] = score(cs, without[0].url, parents)["edge_f1"]
    row["oracle_fetched_per_true"] = round((fetch_count(without) - len(asked)) / nodes, 3)
    return row


def predictions(sites: Mapping[str, dict[str, Any]], words: bool = False) -> list[dict[str, Any]]:
    """Per training (held out by family, in sample) and threshold: the sites over the
    budget and the true nodes lost when the pages the classifier calls views are not
    fetched. ``sites``: name -> family, root, links, kinds, nodes, features; with
    ``words``, the features also say which view words the page's URL names (:func:`url_words`)."""
    import numpy as np
    from sklearn.ensemble import GradientBoostingClassifier

    keys = [(name, page) for name, site in sorted(sites.items()) for page, kind in sorted(site["kinds"].items())
            if kind in ("node", "first") and page in site["features"] and page != site["root"]]
    X = np.array([sites[name]["features"][page] + (url_words(page) if words else []) for name, page in keys])
    y = np.array([sites[name]["kinds"][page] == "first" for name, page in keys])
    families = np.array([sites[name]["family"] for name, _ in keys])

    def model() -> Any:
        return GradientBoostingClassifier(n_estimators=TREES, max_depth=DEPTH, random_state=SEED)

    held = np.zeros(len(keys))
    for family in sorted(set(families)):
        test = families == family
        if y[~test].any() and not y[~test].all():
            held[test] = model().fit(X[~test], y[~test]).predict_proba(X[test])[:, 1]
    inside = model().fit(X, y).predict_proba(X)[:, 1]
    out = []
    for training, probability in (("held out by family", held), ("in sample", inside)):
        for threshold in THRESHOLDS:
            called = probability > threshold
            out.append({"features": "links and URL words" if words else "links", "training": training,
                        "threshold": threshold, "called": int(called.sum()),
                        "views_called": int((called & y).sum()), "views": int(y.sum()),
                        **cut_pages(sites, [key for key, c in zip(keys, called) if c])})
    return out


def cut_pages(sites: Mapping[str, dict[str, Any]], cut: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """The sites over the budget and the true nodes lost, by site, when the ``(site,
    page)`` pairs ``cut`` are not fetched (:func:`reached`)."""
    by_site: dict[str, set[str]] = defaultdict(set)
    for name, page in cut:
        by_site[name].add(page)
    over, lost = [], {}
    for name, site in sorted(sites.items()):
        ratio, missing = budget_after(site["kinds"], site["nodes"], reached(site["root"], site["links"], by_site[name]))
        if ratio > BUDGET:
            over.append(name)
        if missing:
            lost[name] = missing
    return {"sites_over": over, "nodes_lost": sum(lost.values()), "sites_losing": lost}


def word_rules(sites: Mapping[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """The URL words as a rule: the linked pages (nodes and views' first pages, as the
    classifier's) whose URL names a view kind are not fetched; first tag, author and
    archive, then categories too."""
    out = []
    for kinds in (WORD_KINDS[:3], WORD_KINDS):
        keys = [(name, page) for name, site in sorted(sites.items()) for page in site["features"]
                if page != site["root"] and site["kinds"].get(page) in ("node", "first")
                and any(w and k in kinds for w, k in zip(url_words(page), WORD_KINDS))]
        out.append({"features": "URL words: " + ", ".join(kinds), "training": "rule", "threshold": None,
                    "called": len(keys), "views_called": sum(sites[n]["kinds"].get(p) == "first" for n, p in keys),
                    "views": sum(1 for site in sites.values() for page, kind in site["kinds"].items()
                                 if kind == "first" and page in site["features"]),
                    **cut_pages(sites, keys)})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", type=Path, required=True, help=MODELS_HELP)
    ap.add_argument("--write", action="store_true", help="write benchmarks/results/view_prediction.json")
    args = ap.parse_args()
    oracle, sites = [], {}
    for cs in labelled_sites():
        model = load_model(args.models / f"{family_of(cs)}.json")
        labelled = load_labelled_site(cs.truth, cs.serve_dir, cs.name, redirects=True)
        pages = list(find_skeleton(cs.start_url, labelled.fetch, model, scope=cs.scope))
        nodes, kinds = page_kinds(cs, pages)
        links = crawl_links(pages)
        # the reachability model gives back the crawl's own fetches when nothing is cut
        assert budget_after(kinds, len(nodes), reached(pages[0].url, links, set()))[0] == \
            round(fetch_count(pages) / len(nodes), 3), cs.name
        sites[cs.name] = {"family": family_of(cs), "root": pages[0].url, "links": links, "kinds": kinds,
                          "nodes": len(nodes), "features": linked_pages(pages, links)}
        row = oracle_row(cs, model, labelled, pages, kinds, len(nodes))
        oracle.append(row)
        print(f"{cs.name:28} views {row['views']:3}  edge F1 {row['edge_f1']:.3f} -> {row['oracle_edge_f1']:.3f}  "
              f"fetched/true {row['fetched_per_true']:.2f} -> {row['oracle_fetched_per_true']:.2f}", flush=True)
    predicted = predictions(sites) + predictions(sites, words=True) + word_rules(sites)
    for p in predicted:
        print(f"{p['features']:20} {p['training']:20} p > {p['threshold']}: {len(p['sites_over'])} sites over {BUDGET}, "
              f"{p['nodes_lost']} true nodes lost on {len(p['sites_losing'])} sites", flush=True)
    if args.write:
        RESULTS.write_text(json.dumps({
            "commit": commit(), "models": "held out by family (farm_loo.py --save-models)", "budget": BUDGET,
            "command": "python benchmarks/view_prediction.py --models DIR --write",
            "classifier": f"GradientBoostingClassifier(n_estimators={TREES}, max_depth={DEPTH})",
            "oracle": oracle, "prediction": predicted}, indent=1) + "\n")
        print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()
