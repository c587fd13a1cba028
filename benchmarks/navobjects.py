"""Benchmark: navigation objects (CHD-HD + SVM) on the dev corpus and the fixtures.

Measures, writing ``benchmarks/results/navobjects.json``:

1. **Clustering** (paper Section 5.2.1): ARI and AMI (scikit-learn) of the
   CHD-HD blocks against the labelled blocks, averaged over pages (pages with at
   least 2 hyperlinks), for CHD-HD (gamma = 1), CHD (gamma = 0), and CHD-HD with
   DL of equation (4) taken as a set of distinct distances.
2. **Classification** (Section 5.2.2): per-hyperlink precision, recall and F1
   per class, and for navigation (menu or list) against the rest. Leave one
   corpus site out: the SVM is trained on the fixture pages plus the other five
   sites, tested on the held-out site; the fixture pages are scored with a model
   trained on the six corpus sites only.
3. **Skeleton edge F1** of each detector (``sew``, ``blocks``, ``hybrid``,
   ``hybrid_candidates``) with FINDSKELETON over the site's files (like
   ``benchmarks/offline_loo.py``), scored like it. Every detector uses the
   *shipped* SEW model (trained on these six sites too, so SEW's figure is
   optimistic) and the held-out site's leave-one-out block SVM.

With ``--write-model`` it also trains the shipped block model
(``skeleton/models/blocks.json``) on the fixtures plus all six corpus sites.

Block labels come from each generator's own markup, used here only, never in
``skeleton/navobjects`` (which reads no attribute but ``href``). A hyperlink
takes the class of the first rule (in this order) whose region contains it;
its true block is that region, except in ``content`` regions, where it is the
nearest paragraph-level ancestor (p, li, dt, dd, td, th, h1-h6, pre,
blockquote, caption). Hyperlinks in no region are ``other``.

* postgresql15 (DocBook XSL): nav_menu = ``div.navheader``, ``div.navfooter``;
  nav_list = ``div.toc``, ``div.index``; content = the rest of ``body``.
* debian-handbook (Publican): nav_menu = ``ul.docnav``; other = ``div#banner``,
  ``p#title``; nav_list = ``div.toc``; content = the rest of ``body``.
* python311 (Sphinx): other = ``ul.this-page-menu``; nav_list =
  ``div.toctree-wrapper``, the sidebar's "Table of Contents" ``div``,
  ``table.indextable``, ``nav.contents``; nav_menu = ``div.related``,
  ``div.sphinxsidebar``, ``div.mobile-nav``; other = ``div.footer``; content =
  ``div.body``.
* apache24-en: other = ``div.toplang``, ``div.bottomlang``,
  ``div#footer/p.apache``; nav_menu = ``div#page-header``, ``div#path``,
  ``div#footer``, ``div.up``; nav_list = ``div#quickview``; other = ``div.top``;
  content = ``div#page-content``.
* tomcat10: other = ``div#header``; nav_menu = ``div#mainLeft``; nav_list = the
  ``div`` after ``h3#Table_of_Contents``; content = ``div#content``.
* mkdocs: nav_menu = ``div.navbar``; nav_list = ``div#toc-collapse``; content =
  ``div[@role='main']``; other = ``footer``.

    python benchmarks/navobjects.py [--sites NAME ...] [--max-pages N] [--write-model]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from statistics import fmean

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sklearn.metrics import adjusted_mutual_info_score, adjusted_rand_score  # noqa: E402
from sklearn.metrics import precision_recall_fscore_support  # noqa: E402

from benchmarks.corpus import corpus_sites  # noqa: E402
from skeleton.navobjects import clustering  # noqa: E402
from skeleton.navobjects.clustering import cluster_hyperlinks, density_threshold  # noqa: E402
from skeleton.navobjects.detector import classify_blocks, make_detector  # noqa: E402
from skeleton.navobjects.domtree import index_tree  # noqa: E402
from skeleton.navobjects.labels import (CLASSES, NAVIGATION, LinkLabel, link_labels,  # noqa: E402
                                        load_labelled_pages)
from skeleton.navobjects.svm import save_svm  # noqa: E402
from skeleton.navobjects.training import train_block_svm  # noqa: E402
from skeleton.web.dom import parse_html  # noqa: E402
from skeleton.sew.evaluation import score_tree  # noqa: E402
from skeleton.analysis.offline import fetch_count, find_skeleton, skeleton_edges  # noqa: E402
from skeleton.sew.model import load_model  # noqa: E402
from skeleton.analysis.training import ignored_pages, load_labelled_site, load_truth, page_id  # noqa: E402

OUT = ROOT / "benchmarks" / "results" / "navobjects.json"
FIXTURE_PAGES = ROOT / "tests" / "fixtures" / "navobjects"
MODEL_OUT = ROOT / "skeleton" / "models" / "blocks.json"
_C = "contains(concat(' ', normalize-space(@class), ' '), ' {} ')"


def _cls(tag: str, name: str) -> str:
    return f"//{tag}[" + _C.format(name) + "]"


#: site -> ordered (class, region XPath) rules; see the module docstring
RULES: dict[str, list[tuple[str, str]]] = {
    "postgresql15": [("nav_menu", _cls("div", "navheader") + " | " + _cls("div", "navfooter")),
                     ("nav_list", _cls("div", "toc") + " | " + _cls("div", "index")),
                     ("content", "//body")],
    "debian-handbook": [("nav_menu", _cls("ul", "docnav")), ("other", "//div[@id='banner'] | //p[@id='title']"),
                        ("nav_list", _cls("div", "toc")), ("content", "//body")],
    "python311": [("other", _cls("ul", "this-page-menu")),
                  ("nav_list", _cls("div", "toctree-wrapper") + " | " + _cls("div", "sphinxsidebarwrapper")
                   + "/div[h3[normalize-space()='Table of Contents']] | " + _cls("table", "indextable")
                   + " | " + _cls("nav", "contents")),
                  ("nav_menu", _cls("div", "related") + " | " + _cls("div", "sphinxsidebar") + " | "
                   + _cls("div", "mobile-nav")),
                  ("other", _cls("div", "footer")), ("content", _cls("div", "body"))],
    "apache24-en": [("other", _cls("div", "toplang") + " | " + _cls("div", "bottomlang")
                     + " | //div[@id='footer']/p[" + _C.format("apache") + "]"),
                    ("nav_menu", "//div[@id='page-header'] | //div[@id='path'] | //div[@id='footer'] | "
                     + _cls("div", "up")),
                    ("nav_list", "//div[@id='quickview']"), ("other", _cls("div", "top")),
                    ("content", "//div[@id='page-content']")],
    "tomcat10": [("other", "//div[@id='header']"), ("nav_menu", "//div[@id='mainLeft']"),
                 ("nav_list", "//h3[@id='Table_of_Contents']/following-sibling::div[1]"),
                 ("content", "//div[@id='content']")],
    "mkdocs": [("nav_menu", _cls("div", "navbar")), ("nav_list", "//div[@id='toc-collapse']"),
               ("content", "//div[@role='main']"), ("other", "//footer")],
}
PARAGRAPHS = frozenset("p li dt dd td th h1 h2 h3 h4 h5 h6 pre blockquote caption".split())


def corpus_labels(root, rules: list[tuple[str, str]]) -> dict:
    """``a[@href]`` element -> LinkLabel from a site's rules (first match wins)."""
    out: dict = {}
    regions: dict = {}
    for cls, xpath in rules:
        for region in root.xpath(xpath):
            for a in region.iter("a"):
                if a.get("href") is None or a in out:
                    continue
                block = region
                if cls == "content":
                    node = a.getparent()
                    while node is not None and node is not region:
                        if isinstance(node.tag, str) and node.tag in PARAGRAPHS:
                            block = node
                            break
                        node = node.getparent()
                out[a] = LinkLabel(regions.setdefault(block, len(regions)), cls)
    return out


def corpus_pages(site, max_pages: int) -> list[tuple[str, object, dict]]:
    """(url, root, labels) of up to ``max_pages`` tree pages, evenly spread."""
    labelled = load_labelled_site(site.truth, site.serve_dir, site.name)
    urls = sorted(labelled.depths())
    step = max(1, len(urls) // max_pages) if max_pages else 1
    out = []
    for url in urls[::step][:max_pages or None]:
        body = labelled.fetch(url)
        root = parse_html(body) if body else None
        if root is not None:
            out.append((url, root, corpus_labels(root, RULES[site.name])))
    return out


def _partition(n: int, blocks) -> list[int]:
    pred = [0] * n
    for i, b in enumerate(blocks):
        for k in b.links:
            pred[k] = i
    return pred


def clustering_scores(pages) -> dict:
    """Mean ARI/AMI over pages for CHD-HD, CHD and the distinct-DL variant."""
    rows: dict[str, list[tuple[float, float]]] = {"chd_hd": [], "chd": [], "chd_hd_distinct_dl": []}
    for _, root, labels in pages:
        tree = index_tree(root)
        if len(tree.links) < 2:
            continue
        truth = [label.block for label in link_labels(tree.link_elements, labels)]
        distances = clustering.neighbour_distances(tree)
        gt = clustering.gap_threshold(distances)
        gt_set = clustering.gap_threshold(sorted(set(distances)))
        variants = {"chd_hd": cluster_hyperlinks(tree, gt, density_threshold(tree)),
                    "chd": cluster_hyperlinks(tree, gt, density_threshold(tree, gamma=0.0)),
                    "chd_hd_distinct_dl": cluster_hyperlinks(tree, gt_set, density_threshold(tree))}
        for name, blocks in variants.items():
            pred = _partition(len(tree.links), blocks)
            rows[name].append((adjusted_rand_score(truth, pred), adjusted_mutual_info_score(truth, pred)))
    return {name: {"ari": round(fmean(r[0] for r in v), 4) if v else None,
                   "ami": round(fmean(r[1] for r in v), 4) if v else None, "pages": len(v)}
            for name, v in rows.items()}


def classification(pages, model) -> tuple[list[str], list[str]]:
    """(true, predicted) class of every hyperlink of the pages."""
    truth_all, pred_all = [], []
    for _, root, labels in pages:
        page = classify_blocks(root, model)
        truth = link_labels(page.tree.link_elements, labels)
        pred = ["other"] * len(truth)
        for block, cls in zip(page.blocks, page.classes):
            for k in block.links:
                pred[k] = cls
        truth_all += [t.cls for t in truth]
        pred_all += pred
    return truth_all, pred_all


def prf(truth: list[str], pred: list[str]) -> dict:
    p, r, f, s = precision_recall_fscore_support(truth, pred, labels=list(CLASSES), zero_division=0)
    out = {c: {"precision": round(float(p[i]), 4), "recall": round(float(r[i]), 4), "f1": round(float(f[i]), 4), "links": int(s[i])}
           for i, c in enumerate(CLASSES)}
    nav_t = [t in NAVIGATION for t in truth]
    nav_p = [x in NAVIGATION for x in pred]
    p, r, f, s = precision_recall_fscore_support(nav_t, nav_p, labels=[True], zero_division=0)
    out["navigation"] = {"precision": round(float(p[0]), 4), "recall": round(float(r[0]), 4), "f1": round(float(f[0]), 4),
                         "links": int(s[0])}
    return out


def skeleton_f1(site, detector, sew_model) -> dict:
    labelled = load_labelled_site(site.truth, site.serve_dir, site.name)
    pages = list(find_skeleton(site.start_url, labelled.fetch, sew_model, scope=site.scope, detector=detector))
    root, truth, meta = load_truth(site.truth)
    ignore = ignored_pages(meta, site.start_url)
    edges = [(page_id(parent), page_id(child)) for parent, child in skeleton_edges(pages, sew_model.edges or None)]
    score = score_tree(page_id(pages[0].url), edges, root, truth, ignore)  # page ids, as scrapy evaluate
    e = score.edges
    return {"edge_f1": round(e["all"].f1, 4), "edge_precision": round(e["all"].precision, 4),
            "edge_recall": round(e["all"].recall, 4), "l1_edge_f1": round(e["1"].f1, 4),
            "fetched": fetch_count(pages), "true_pages": len(truth) + 1}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sites", nargs="*", help="corpus sites to test (default: all)")
    ap.add_argument("--max-pages", type=int, default=40, help="labelled pages per corpus site")
    ap.add_argument("--detectors", nargs="*", default=["sew", "blocks", "hybrid", "hybrid_candidates"])
    ap.add_argument("--no-skeleton", action="store_true", help="skip the skeleton edge F1 runs")
    ap.add_argument("--write-model", action="store_true", help=f"also write {MODEL_OUT.relative_to(ROOT)}")
    ap.add_argument("--out", default=str(OUT))
    args = ap.parse_args()
    sites = corpus_sites()
    fixtures = [(p.name, p.root, p.labels) for p in load_labelled_pages(FIXTURE_PAGES)]
    pages = {s.name: corpus_pages(s, args.max_pages) for s in sites}
    tested = [s for s in sites if not args.sites or s.name in args.sites]
    result: dict = {"max_pages_per_site": args.max_pages, "fixture_pages": len(fixtures),
                    "clustering": {}, "classification": {}, "skeleton": {}}
    result["clustering"]["fixtures"] = clustering_scores(fixtures)
    for s in tested:
        result["clustering"][s.name] = clustering_scores(pages[s.name])
        print(f"{s.name:16} clustering {result['clustering'][s.name]}", flush=True)
    print(f"{'fixtures':16} clustering {result['clustering']['fixtures']}", flush=True)
    sew_model = load_model(None)
    truth_all: list[str] = []
    pred_all: list[str] = []
    for s in tested:
        train = fixtures + [p for name, v in pages.items() if name != s.name for p in v]
        model = train_block_svm((root, labels) for _, root, labels in train)
        truth, pred = classification(pages[s.name], model)
        truth_all += truth
        pred_all += pred
        result["classification"][s.name] = prf(truth, pred)
        print(f"{s.name:16} navigation {result['classification'][s.name]['navigation']}", flush=True)
        if args.no_skeleton:
            continue
        result["skeleton"][s.name] = {}
        for name in args.detectors:
            started = time.perf_counter()
            detector = make_detector(name, sew_model, model, with_blocks=False)
            result["skeleton"][s.name][name] = skeleton_f1(s, detector, sew_model)
            result["skeleton"][s.name][name]["seconds"] = round(time.perf_counter() - started, 1)
            print(f"{s.name:16} {name:18} {result['skeleton'][s.name][name]}", flush=True)
    result["classification"]["corpus_loo"] = prf(truth_all, pred_all)
    corpus_model = train_block_svm((root, labels) for v in pages.values() for _, root, labels in v)
    result["classification"]["fixtures"] = prf(*classification(fixtures, corpus_model))
    if result["skeleton"]:
        result["skeleton"]["mean"] = {name: round(fmean(r[name]["edge_f1"] for k, r in result["skeleton"].items()
                                                        if k != "mean"), 4) for name in args.detectors}
    if args.write_model:
        model = train_block_svm(((root, labels) for _, root, labels in
                                 fixtures + [p for v in pages.values() for p in v]),
                                meta={"trained_on": ["tests/fixtures/navobjects"] + sorted(pages),
                                      "max_pages_per_site": args.max_pages})
        save_svm(model, MODEL_OUT)
        print(f"wrote {MODEL_OUT}")
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps({k: result[k] for k in ("classification",)}["classification"]["corpus_loo"], indent=None))
    print(json.dumps(result["skeleton"].get("mean", {})))


if __name__ == "__main__":
    main()
