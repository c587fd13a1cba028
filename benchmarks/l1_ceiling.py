"""Benchmark: the best level-1 edge F1 any crawler can reach from the home page.

A crawler that hangs the home page's children from the home page can only find
level-1 edges to pages the home page links. This script reads, for each corpus
site (and, with ``--fixtures``, each labelled site of ``tests/sites``), the true
level-1 children and the links of the start page, and prints how many of the
true children the start page links, the ceiling of level-1 edge recall (linked /
true) and of level-1 edge F1 (with a perfect precision, 2r / (1 + r)), and the
true children it does not link. No crawl and no model: it measures the truth
against the page, not the detector.

    python benchmarks/l1_ceiling.py [--fixtures] [--out FILE]
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.corpus import corpus_sites, fixture_sites  # noqa: E402
from skeleton.web.dom import parse_html  # noqa: E402
from skeleton.sew.links import extract_links  # noqa: E402
from skeleton.analysis.training import load_labelled_site, load_truth, page_id  # noqa: E402


def ceiling(site) -> dict:
    """Level-1 truth against the start page's links, for one ``CorpusSite``."""
    labelled = load_labelled_site(site.truth, site.serve_dir, site.name)
    root, edges, _ = load_truth(site.truth)
    true_children = {child for parent, child in edges if parent == root}
    body = labelled.fetch(site.start_url)
    links = extract_links(parse_html(body), site.start_url) if body else []
    linked = {page_id(link.url) for link in links if link.url}
    found = true_children & linked
    recall = len(found) / len(true_children) if true_children else 1.0
    return {"true": len(true_children), "linked": len(found), "recall_ceiling": round(recall, 4),
            "f1_ceiling": round(2 * recall / (1 + recall), 4),
            "not_linked": sorted(u.removeprefix("http://127.0.0.1:8000/") for u in true_children - linked)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fixtures", action="store_true", help="also the labelled sites of tests/sites")
    ap.add_argument("--out", help="write the figures as JSON")
    args = ap.parse_args()
    sites = corpus_sites() + (fixture_sites() if args.fixtures else [])
    results = {}
    print(f"{'site':18} {'true L1':>8} {'linked':>7} {'R max':>6} {'F1 max':>7}  true level-1 pages the home does not link")
    for site in sites:
        r = results[site.name] = ceiling(site)
        print(f"{site.name:18} {r['true']:8d} {r['linked']:7d} {r['recall_ceiling']:6.3f} {r['f1_ceiling']:7.3f}  "
              f"{', '.join(r['not_linked']) or '-'}")
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
