"""Time and memory of tree resolution at 10k and 100k candidate edges.

A synthetic site with the shape crawls show: a tree of sections (fan-out 8)
whose pages are each offered by their section, by a home-page shortcut list
("latest"), by a site-wide menu of the top sections on every page (the home
page's own menu, which every page's evidence says it repeats), and by
sibling cross links (each page offers two siblings, so sections are cycles of
mutual offers), with breadcrumbs naming the true parent on half of the pages.
Every candidate edge is scored with the shipped model's edge score and the
tree resolved (:func:`skeleton.hierarchy.resolve.resolve_tree`): features,
scores and the arborescence. Each size runs in a fresh process; peak RSS is the
process's maximum resident set.

    python benchmarks/tree_scale.py [--write]
"""
from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

RESULTS = Path(__file__).resolve().parent / "results" / "tree_scale.json"
H = "http://127.0.0.1:8000/"


def synthetic_site(target_edges: int, seed: int = 1) -> tuple[str, dict, dict, dict]:
    """(root, pages, offers, true parents) with about ``target_edges`` candidate edges."""
    rnd = random.Random(seed)
    pages_n = max(target_edges // 5, 10)
    parent = {}
    urls = [H]
    for i in range(1, pages_n):
        p = urls[(i - 1) // 8]
        url = f"{p.rstrip('/')}/s{i}/" if p == H or (i % 3) else f"{p.rstrip('/')}/p{i}.html"
        urls.append(url if url.endswith("/") else url)
        parent[url] = p
    children: dict[str, list[str]] = {}
    for c, p in parent.items():
        children.setdefault(p, []).append(c)
    top = children[H]
    offers: dict[str, list[dict]] = {u: [] for u in urls[1:]}

    def offer(frm: str, child: str, size: int, sig: str) -> None:
        offers[child].append({"from": frm, "parent": frm, "level": 1, "size": size,
                              "dirs": 1.0, "inside": 0.0, "pos": 0.0, "toc": 0, "alpha": 0, "sig": sig})

    latest = rnd.sample(urls[1:], min(40, len(urls) - 1))
    for c in latest:
        offer(H, c, len(latest), "latest")
    for p, cs in children.items():
        for c in cs:
            offer(p, c, len(cs), f"list-{p}")
            for s in rnd.sample(cs, min(2, len(cs))):
                if s != c:
                    offer(c, s, 2, f"sib-{c}")
    for u in rnd.sample(urls, min(len(urls), pages_n // 2)):
        for t in top:
            if t != u:
                offer(u, t, len(top), "menu")
    for t in top:  # the home page's own menu, which every page repeats (innermost sections)
        offer(H, t, len(top), "home-menu")
    pages = {u: {"evidence": ({"crumbs": [H, parent[u]]} if u in parent and rnd.random() < 0.5 else {})
                 | {"menus": ["home-menu"]}, "nav_links": []} for u in urls}
    return H, pages, offers, parent


def run_one(edges: int) -> dict:
    from skeleton.hierarchy.features import candidate_edges
    from skeleton.hierarchy.resolve import resolve_tree
    from skeleton.sew.model import load_model

    root, pages, offers, truth = synthetic_site(edges)
    n_edges = len(candidate_edges(root, pages, offers).edges)
    model = load_model(None).edges or None
    start = time.perf_counter()
    tree = resolve_tree(root, pages, offers, model)
    seconds = time.perf_counter() - start
    right = sum(tree.get(c, {}).get("parent") == p for c, p in truth.items())
    return {"candidate_edges": n_edges, "pages": len(pages), "seconds": round(seconds, 2),
            "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
            "right_parents": round(right / max(len(truth), 1), 3)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--one", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--sizes", type=int, nargs="*", default=[10_000, 100_000])
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    if args.one:
        print(json.dumps(run_one(args.one)))
        return
    rows = []
    for size in args.sizes:
        out = subprocess.run([sys.executable, __file__, "--one", str(size)], capture_output=True,
                             text=True, check=True).stdout
        rows.append(json.loads(out.strip().splitlines()[-1]))
        print(rows[-1], flush=True)
    if args.write:
        from benchmarks.corpus import commit
        from skeleton.sew.model import load_model
        RESULTS.write_text(json.dumps({"commit": commit(), "model": load_model(None).edges.get("meta", {}),
                                       "command": "python benchmarks/tree_scale.py --write",
                                       "rows": rows}, indent=1) + "\n")
        print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()
