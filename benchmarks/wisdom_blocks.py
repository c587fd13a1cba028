"""Benchmark: WISDOM TOC and article blocks on the dev corpus, the paper's way.

For each corpus site (``benchmarks/corpus.py``; files are read from the installed
Debian package folders, no HTTP server), over the pages of the site's true tree:

1. **Term weights.** Every page is parsed and its terms counted as the crawl's
   entropy middleware counts them (:func:`skeleton.wisdom.page.scan_page`, the
   shared pass: the page text without script/style, the same term function as
   WISDOM's); EN and W = 1 - EN are computed in one batch over the site's pages
   (:mod:`skeleton.wisdom.batch_entropy`, paper Section 3.1), i.e. the final
   weights of a crawl of the site. The linked page's terms for API come from the
   same pass; links outside the site fall back to the ``missing_page`` policy.
2. **Blocks.** :func:`skeleton.wisdom.informative_blocks` with the paper's
   default setting (k = 1, ST = 0.8, TC = (0.8, 1.25), DSTM + 1-CSTM).
3. **Scores** (paper Section 4.1): article blocks by IC (context length covered
   by both the label and the output), TOC blocks by SNC (anchors covered by both).
   Sums are micro-averaged over pages: P = AW / (AW + WO), R = AW / (AW + AO).
   TOC is scored on the pages that have a labelled TOC (as the paper scores its
   marked TOC pages); ``toc_on_unlabelled`` counts pages without a labelled TOC
   where WISDOM still output a TOC block.
4. **Cost**: time of ``informative_blocks`` from the parsed tree (the text pass
   included) over time of ``parse_html`` on the same bytes, summed over the pages
   (CPU time of the process, ``time.process_time``, so that other processes on a
   shared machine weigh less).

Labels come from each generator's own markup. They are used here only, never in
``skeleton/wisdom`` (which reads no class or id at all):

* postgresql15 (DocBook XSL, chunked): article = the body's ``div`` that is not
  ``div.navheader``/``div.navfooter``; TOC = ``div.toc``.
* debian-handbook (Publican DocBook): article = the body's ``div`` that is not
  ``div#banner``; TOC = ``div.toc``.
* python311 (Sphinx): article = ``div[@role='main']``; TOC =
  ``div.toctree-wrapper`` and the sidebar's "Table of Contents" ``div``.
* apache24-en: article = ``div#page-content``; TOC = ``div#quickview`` and
  ``table#indextable``.
* tomcat10: article = ``div#content``; TOC = the ``div`` after its
  ``h3#Table_of_Contents``.
* mkdocs: article = ``div[@role='main']``; TOC = ``div#toc-collapse``.

The article label always excludes the TOC label inside it.

    python benchmarks/wisdom_blocks.py [--sites NAME ...] [--max-pages N] [--out FILE]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.corpus import corpus_sites  # noqa: E402
from skeleton.web.dom import parse_html  # noqa: E402
from skeleton.wisdom import WisdomParams, informative_blocks  # noqa: E402
from skeleton.wisdom.batch_entropy import batch_weights  # noqa: E402
from skeleton.wisdom.evaluation import Overlap, coverage_mask, node_amounts, overlap  # noqa: E402
from skeleton.wisdom.features import extract_features  # noqa: E402
from skeleton.wisdom.page import scan_page  # noqa: E402

OUT = ROOT / "benchmarks" / "results" / "wisdom.json"
BASE = "http://127.0.0.1:8000/"
_CLASS = "contains(concat(' ', normalize-space(@class), ' '), ' {} ')"
DOCBOOK_TOC = "//div[" + _CLASS.format("toc") + "]"
#: site -> (article label XPath, TOC label XPath); see the module docstring.
LABELS = {
    "postgresql15": ("/html/body/div[not(" + _CLASS.format("navheader") + ") and not("
                     + _CLASS.format("navfooter") + ")]", DOCBOOK_TOC),
    "debian-handbook": ("/html/body/div[not(@id='banner')]", DOCBOOK_TOC),
    "python311": ("//div[@role='main']",
                  "//div[" + _CLASS.format("toctree-wrapper") + "] | //div[" + _CLASS.format("sphinxsidebarwrapper")
                  + "]/div[h3[normalize-space()='Table of Contents']]"),
    "apache24-en": ("//div[@id='page-content']", "//div[@id='quickview'] | //table[@id='indextable']"),
    "tomcat10": ("//div[@id='content']", "//div[@id='content']/h3[@id='Table_of_Contents']/following-sibling::div[1]"),
    "mkdocs": ("//div[@role='main']", "//div[@id='toc-collapse']"),
}
VARIANTS = {
    "default": WisdomParams(),
    "no-cstm": WisdomParams(cstm_levels=0),
    "api-zero-missing": WisdomParams(missing_page="zero"),
}


def page_files(site) -> list[tuple[str, Path]]:
    truth = json.loads(site.truth.read_text())
    urls = {truth["root"]} | {u for edge in truth["edges"] for u in edge}
    out = []
    for url in sorted(urls):
        rel = url[len(BASE):].split("#", 1)[0]
        if not rel or rel.endswith("/"):
            rel += "index.html"
        path = site.serve_dir / rel
        if path.is_file():
            out.append((url, path))
    return out


def term_counts(root, url: str) -> dict[str, int]:
    """The page's term counts as the crawl counts them (``url`` is unused)."""
    return scan_page(root).counts()


def label_masks(nodes, root, site: str):
    article_xpath, toc_xpath = LABELS[site]
    index = {el: i for i, el in enumerate(nodes.elements)}
    toc = [index[el] for el in root.xpath(toc_xpath) if el in index]
    article = [index[el] for el in root.xpath(article_xpath) if el in index]
    return coverage_mask(nodes, article, toc), coverage_mask(nodes, toc), bool(toc)


def output_mask(nodes, root, blocks):
    index = {el: i for i, el in enumerate(nodes.elements)}
    tree = root.getroottree()

    def find(path):
        found = tree.xpath(path)
        return index.get(found[0], -1) if found else -1
    roots = [find(b.xpath) for b in blocks]
    removed = [find(p) for b in blocks for p in b.removed]
    return coverage_mask(nodes, [r for r in roots if r >= 0], [r for r in removed if r >= 0])


def run_site(site, max_pages: int | None, variants: dict) -> dict:
    pages = page_files(site)
    parsed = {}
    counts = {}
    for url, path in pages:
        root = parse_html(path.read_bytes())
        if root is not None:
            parsed[url] = root
            counts[url] = term_counts(root, url)
    weights = batch_weights(counts.values())
    urls = sorted(parsed)
    if max_pages and len(urls) > max_pages:
        step = len(urls) / max_pages
        urls = [urls[int(i * step)] for i in range(max_pages)]
    result = {"pages": len(urls), "site_pages": len(parsed), "terms": len(weights), "variants": {}}
    parse_s = 0.0
    for url in urls:
        data = dict(pages)[url].read_bytes()
        t0 = time.process_time()
        parse_html(data)
        parse_s += time.process_time() - t0
    result["parse_s"] = parse_s
    for name, params in variants.items():
        ic, snc, toc_fp, wisdom_s, toc_pages = Overlap(), Overlap(), 0, 0.0, 0
        for url in urls:
            root = parsed[url]
            t0 = time.process_time()
            structure = informative_blocks(root, url, weights, counts.get, params)
            wisdom_s += time.process_time() - t0
            nodes = extract_features(root, url, None)
            article_label, toc_label, has_toc = label_masks(nodes, root, site.name)
            ic += overlap(node_amounts(nodes, "ic"), article_label, output_mask(nodes, root, structure.article))
            if has_toc:
                toc_pages += 1
                snc += overlap(node_amounts(nodes, "snc"), toc_label, output_mask(nodes, root, structure.toc))
            elif structure.toc:
                toc_fp += 1
        result["variants"][name] = {
            "article_ic": {"precision": ic.precision, "recall": ic.recall, "f1": ic.f1,
                           "aw": ic.aw, "ao": ic.ao, "wo": ic.wo},
            "toc_snc": {"precision": snc.precision, "recall": snc.recall, "f1": snc.f1,
                        "aw": snc.aw, "ao": snc.ao, "wo": snc.wo, "pages": toc_pages},
            "toc_on_unlabelled": toc_fp, "wisdom_s": wisdom_s,
            "cost_ratio": wisdom_s / parse_s if parse_s else None}
    return result


def fmt(value) -> str:
    return "-" if value is None else f"{value:.3f}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sites", nargs="*")
    parser.add_argument("--max-pages", type=int, default=None, help="pages per site (an even sample)")
    parser.add_argument("--variants", nargs="*", default=list(VARIANTS), choices=list(VARIANTS))
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    variants = {name: VARIANTS[name] for name in args.variants}
    results = {}
    for site in corpus_sites():
        if args.sites and site.name not in args.sites:
            continue
        if not site.serve_dir.is_dir():
            print(f"{site.name}: {site.serve_dir} missing; run sh ../shared/corpus/install.sh", file=sys.stderr)
            continue
        results[site.name] = run_site(site, args.max_pages, variants)
    for name in variants:
        print(f"\n{name}")
        print("| site | pages | article P (IC) | article R (IC) | TOC pages | TOC P (SNC) | TOC R (SNC) "
              "| TOC on unlabelled | WISDOM/parse |")
        print("|---|---|---|---|---|---|---|---|---|")
        total_ic, total_snc, parse_s, wisdom_s, pages, toc_pages, fp = Overlap(), Overlap(), 0.0, 0.0, 0, 0, 0
        for site, res in results.items():
            v = res["variants"][name]
            a, t = v["article_ic"], v["toc_snc"]
            print(f"| {site} | {res['pages']} | {fmt(a['precision'])} | {fmt(a['recall'])} | {t['pages']} "
                  f"| {fmt(t['precision'])} | {fmt(t['recall'])} | {v['toc_on_unlabelled']} | {fmt(v['cost_ratio'])} |")
            total_ic += Overlap(a["aw"], a["ao"], a["wo"])
            total_snc += Overlap(t["aw"], t["ao"], t["wo"])
            parse_s += res["parse_s"]
            wisdom_s += v["wisdom_s"]
            pages += res["pages"]
            toc_pages += t["pages"]
            fp += v["toc_on_unlabelled"]
        print(f"| all | {pages} | {fmt(total_ic.precision)} | {fmt(total_ic.recall)} | {toc_pages} "
              f"| {fmt(total_snc.precision)} | {fmt(total_snc.recall)} | {fp} "
              f"| {fmt(wisdom_s / parse_s if parse_s else None)} |")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"max_pages": args.max_pages, "sites": results}, indent=1))
    print(f"\nwritten {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
