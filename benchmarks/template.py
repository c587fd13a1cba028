"""Benchmark: template detection by complete subdigraphs on the dev corpus and the
fixture sites of ``tests/sites`` (offline, over files).

For each site (``corpus_sites()``, then ``fixture_sites()``) and a few key pages (the home page, then the first page of
each truth depth, then the truth's last leaf): Algorithm 2 with n = 3 over the
site's files; pages loaded; whether each page found shares the key page's
template (``skeleton.template.similarity``: Jaccard of the chromes, the frame around
the content slot, >= 0.5), against a baseline, the key page's first 30
same-domain links in document order, and a control that the check can say no:
each key page against the other sites' home pages of its group, corpus or
fixtures (``control``: pairs judged the same template, pairs). Page loads per
key page, the key page included: mean and max per site, against the bar
``LOADS_BAR`` (at most 12 loads on every key page of every site; the paper
reports 10.13 on average for n = 3, Table 1). Then the template menu from the home page as a LinkSetDup signal
(``skeleton.template.skeleton_step``): skeleton edge F1 with the shipped default
model, without and with it.

    python benchmarks/template.py [--sites NAME ...] [--no-f1] [--out benchmarks/results/template.json]

The output is stamped with the checkout's commit (``benchmarks.corpus.commit``):
``{"commit", "command", "bar", "pass", "sites": {name: {...}}}``; each site has
``group`` (corpus or fixture), ``mean_loaded``, ``max_loaded`` and ``loads_bar``
("pass" or "NO"); ``every_page`` repeats the load count with every page of the
truth as the key page (a stress check, the bar is stated on the key pages):
pages, mean and max loads, the worst page, how many found a 3-CS.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.corpus import commit, corpus_sites, fixture_sites  # noqa: E402
from skeleton.web.dom import parse_html  # noqa: E402
from skeleton.sew.evaluation import score_tree  # noqa: E402
from skeleton.analysis.offline import fetch_count, find_skeleton, skeleton_edges  # noqa: E402
from skeleton.sew.model import load_model  # noqa: E402
from skeleton.analysis.training import ignored_pages, load_labelled_site, load_truth, page_id  # noqa: E402
from skeleton.template.links import page_links  # noqa: E402
from skeleton.template.menu import links_fetcher, menu_urls  # noqa: E402
from skeleton.template.similarity import chrome, chrome_similarity, same_template  # noqa: E402
from skeleton.template.skeleton_step import find_skeleton_with_menu  # noqa: E402
from skeleton.template.subdigraph import find_complete_subdigraph  # noqa: E402

BASELINE_LINKS = 30
#: The bar: at most this many page loads (key page included) for any key page of any site.
LOADS_BAR = 12
COMMAND = "python benchmarks/template.py"


def key_pages(root: str, edges: list[tuple[str, str]]) -> list[str]:
    depth = {root: 0}
    for parent, child in edges:  # truth edges are listed parents first
        if parent in depth and child not in depth:
            depth[child] = depth[parent] + 1
    keys = [root]
    for level in range(1, max(depth.values()) + 1):
        keys += [u for u, d in depth.items() if d == level][:1]
    parents = {p for p, _ in edges}
    leaves = [c for _, c in edges if c not in parents]
    if leaves and leaves[-1] not in keys:
        keys.append(leaves[-1])
    return keys


def template_rows(site, fetch, keys: list[str],
                  others: Sequence[frozenset[str]] = ()) -> list[dict]:
    fetch_links = links_fetcher(fetch)
    chromes: dict[str, frozenset[str]] = {}

    def chrome_of(url: str) -> frozenset[str]:
        if url not in chromes:
            body = fetch(url)
            chromes[url] = chrome(parse_html(body) if body else None)
        return chromes[url]

    rows = []
    for key in keys:
        result = find_complete_subdigraph(key, fetch_links, 3)
        sims = [chrome_similarity(chrome_of(key), chrome_of(u)) for u in result.pages]
        body = fetch(key)
        base = [link.url for link in page_links(parse_html(body) if body else None, key)][:BASELINE_LINKS]
        base_same = [same_template(chrome_of(key), chrome_of(u)) for u in base]
        rows.append({"key": key, "found": result.pages, "size": len(result.pages),
                     "loaded": result.loaded, "key_links": len(result.order),
                     "same_template": sum(same_template(chrome_of(key), chrome_of(u))
                                          for u in result.pages),
                     "mean_similarity": round(statistics.fmean(sims), 4) if sims else None,
                     "baseline_links": len(base),
                     "baseline_same_template": sum(base_same),
                     "control_same_template": sum(same_template(chrome_of(key), o) for o in others),
                     "control_pages": len(others)})
    return rows


def edge_f1(site, fetch, model, menu: set[str] | None) -> dict:
    if menu is None:
        pages = list(find_skeleton(site.start_url, fetch, model, scope=site.scope))
    else:
        pages = list(find_skeleton_with_menu(site.start_url, fetch, model, menu, scope=site.scope))
    root, truth, meta = load_truth(site.truth)
    ignore = ignored_pages(meta, site.start_url)
    found = [(page_id(parent), page_id(child)) for parent, child in skeleton_edges(pages, model.edges or None)]
    score = score_tree(page_id(pages[0].url), found, root, truth, ignore)
    e = score.edges["all"]
    return {"f1": round(e.f1, 4), "precision": round(e.precision, 4), "recall": round(e.recall, 4),
            "fetched": fetch_count(pages)}


def _yes(ok: bool) -> str:
    return "pass" if ok else "NO"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sites", nargs="*")
    ap.add_argument("--no-f1", action="store_true")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "template.json"))
    args = ap.parse_args()
    model = load_model()
    sites: dict[str, dict] = {}
    for group, members in (("corpus", corpus_sites()), ("fixture", fixture_sites())):
        homes = {}
        for cs in members:
            body = load_labelled_site(cs.truth, cs.serve_dir, cs.name).fetch(cs.start_url)
            homes[cs.name] = chrome(parse_html(body) if body else None)
        for cs in members:
            if args.sites and cs.name not in args.sites:
                continue
            sites[cs.name] = site_entry(cs, group, model, homes, not args.no_f1)
    ok = all(entry["max_loaded"] <= LOADS_BAR for entry in sites.values())
    out = {"commit": commit(), "command": COMMAND + (" --no-f1" if args.no_f1 else ""),
           "bar": f"at most {LOADS_BAR} page loads (key page included) per key page, every site",
           "pass": _yes(ok), "sites": sites}
    print(f"bar: max loads <= {LOADS_BAR} on every site: {_yes(ok)}", flush=True)
    Path(args.out).write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")


def every_page(cs, fetch, root: str, edges: list[tuple[str, str]]) -> dict:
    """Algorithm 2 (n = 3) from every page of the truth: loads and 3-CS found."""
    plain = links_fetcher(fetch)
    cache: dict[str, list | None] = {}

    def fetch_links(url: str):  # type: ignore[no-untyped-def]
        if url not in cache:
            cache[url] = plain(url)
        return cache[url]

    pages = sorted({root} | {child for _, child in edges})
    results = [(find_complete_subdigraph(page, fetch_links, 3), page) for page in pages]
    loads = [result.loaded for result, _ in results]
    worst = max(results, key=lambda r: r[0].loaded)
    return {"pages": len(pages), "mean_loaded": round(statistics.fmean(loads), 2),
            "max_loaded": max(loads), "over_bar": sum(n > LOADS_BAR for n in loads),
            "worst": [worst[1], worst[0].loaded],
            "complete": sum(result.complete for result, _ in results)}


def site_entry(cs, group: str, model, homes: dict[str, frozenset[str]], f1: bool) -> dict:
    site = load_labelled_site(cs.truth, cs.serve_dir, cs.name)
    root, edges, _ = load_truth(cs.truth)
    others = [c for name, c in homes.items() if name != cs.name]
    rows = template_rows(cs, site.fetch, key_pages(root, edges), others)
    loads = [r["loaded"] for r in rows]
    entry: dict = {"group": group, "keys": rows,
                   "mean_loaded": round(statistics.fmean(loads), 2),
                   "max_loaded": max(loads),
                   "loads_bar": _yes(max(loads) <= LOADS_BAR),
                   "complete": sum(r["size"] == 3 for r in rows),
                   "found": sum(r["size"] for r in rows),
                   "same_template": sum(r["same_template"] for r in rows),
                   "baseline": [sum(r["baseline_same_template"] for r in rows),
                                sum(r["baseline_links"] for r in rows)],
                   "control": [sum(r["control_same_template"] for r in rows),
                               sum(r["control_pages"] for r in rows)]}
    entry["every_page"] = every_page(cs, site.fetch, root, edges)
    menu: set[str] = set()
    if f1:
        result = find_complete_subdigraph(cs.start_url, links_fetcher(site.fetch), 3)
        menu = menu_urls(result)
        entry["menu"] = sorted(menu)
        entry["edge_f1_default"] = edge_f1(cs, site.fetch, model, None)
        entry["edge_f1_with_menu"] = edge_f1(cs, site.fetch, model, menu)
    print(f"{cs.name:18} keys {len(rows)} loaded mean {entry['mean_loaded']} max {entry['max_loaded']}"
          f" ({entry['loads_bar']}; every page: mean {entry['every_page']['mean_loaded']}"
          f" max {entry['every_page']['max_loaded']}) complete {entry['complete']}/{len(rows)}"
          f" same-template {entry['same_template']}/{entry['found']}"
          f" baseline {entry['baseline'][0]}/{entry['baseline'][1]}"
          f" control {entry['control'][0]}/{entry['control'][1]} menu {len(menu)} "
          f"F1 {entry.get('edge_f1_default', {}).get('f1')} -> "
          f"{entry.get('edge_f1_with_menu', {}).get('f1')}", flush=True)
    return entry


if __name__ == "__main__":
    main()
