"""Benchmark: unseen generators whose pages declare their parent (``<link rel="up">``).

Texinfo (makeinfo), DocBook XSL and gtk-doc write into every page the node above
it: ``<link rel="up" href=...>``. That declared tree is the truth here: each HTML
file's parent is its ``rel="up"`` target (a page that names itself or nothing is
the root or outside the tree). None of these generators is in the training data,
and the detector never reads ``rel`` (it reads ``<a href>`` only). Each site is
read from files by the offline FINDSKELETON with the shipped model.

The defaults are the documentation packages of this machine's Debian image
(libffi, Valgrind, libxslt's gtk-doc); give others as ``--site DIR`` (start page
``index.html``).

    python benchmarks/declared_up.py [--site DIR ...] [--out FILE]
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from urllib.parse import urljoin

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from skeleton.web.dom import parse_html  # noqa: E402
from skeleton.sew.evaluation import score_tree  # noqa: E402
from skeleton.analysis.offline import fetch_count, find_skeleton, skeleton_edges  # noqa: E402
from skeleton.sew.model import load_model  # noqa: E402
from skeleton.analysis.training import file_fetcher, page_id  # noqa: E402

HOST = "http://127.0.0.1:8000/"
DEFAULT_SITES = ["/usr/share/doc/libffi8/html", "/usr/share/doc/valgrind/html",
                 "/usr/share/doc/libxslt1-dev/gtk-doc/html/libxslt"]


def declared_edges(site: Path) -> list[tuple[str, str]]:
    """(parent, child) page ids from each page's ``<link rel="up">`` (or ``<a rel="up">``)."""
    edges = []
    for path in sorted(site.rglob("*.html")):
        url = HOST + path.relative_to(site).as_posix()
        root = parse_html(path.read_bytes())
        if root is None:
            continue
        ups = root.xpath("//link[@rel='up']/@href | //a[@rel='up']/@href")
        if ups:
            parent = page_id(urljoin(url, ups[0].split("#")[0]))
            if parent != page_id(url):
                edges.append((parent, page_id(url)))
    return edges


def score(site: Path, model) -> dict:
    truth = declared_edges(site)
    start = HOST + "index.html"
    pages = list(find_skeleton(start, file_fetcher(site), model, scope=HOST))
    edges = [(page_id(p), page_id(c)) for p, c in skeleton_edges(pages, model.edges or None)]
    result = score_tree(page_id(start), edges, page_id(start), truth)
    e = result.edges
    return {"true_pages": len(truth) + 1, "fetched": fetch_count(pages), "edge_f1": round(e["all"].f1, 4),
            "edge_p": round(e["all"].precision, 4), "edge_r": round(e["all"].recall, 4),
            "l1_edge_f1": round(e["1"].f1, 4)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--site", action="append", help="a documentation folder (repeatable)")
    ap.add_argument("--out", help="write the figures as JSON")
    args = ap.parse_args()
    sites = [Path(s) for s in (args.site or DEFAULT_SITES) if Path(s, "index.html").is_file()]
    if not sites:
        sys.exit("declared_up.py: none of the documentation folders is installed (--site DIR)")
    model = load_model(None)
    results = {}
    print(f"{'site':50} {'true':>5} {'fetched':>7} {'edge F1':>7} {'P':>6} {'R':>6} {'L1':>6}")
    for site in sites:
        r = results[str(site)] = score(site, model)
        print(f"{str(site):50} {r['true_pages']:5d} {r['fetched']:7d} {r['edge_f1']:7.3f} "
              f"{r['edge_p']:6.3f} {r['edge_r']:6.3f} {r['l1_edge_f1']:6.3f}", flush=True)
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
