"""Benchmark: an unseen generator, mdBook (the Rust books), scored against each book's own TOC.

None of the training sites is an mdBook book. mdBook writes the book's table of
contents (its ``SUMMARY.md``) into ``toc.html`` and shows it in every page through
JavaScript, with a ``<noscript><iframe src="toc.html">`` fallback: a crawler that
does not read frames sees only the "next chapter" links. The truth of each book
is the nesting of that TOC (``ol.chapter``: an entry's sub-list, ``ol.section``,
holds its children; part titles and unlinked drafts are not pages), rooted at the
book's ``index.html``. Never used by the detector.

The books come with rustup's ``rust-docs`` component (``rustup component add
rust-docs``; ``--docs`` points at its ``share/doc/rust/html``). Each book is read
from files by the offline FINDSKELETON (``skeleton.analysis.offline``: the same
detection and parent rule as the spider; the spider's frames middleware does
over HTTP what ``parse_with_frames`` does here), with the shipped model, with and
without frames.

    python benchmarks/mdbook.py [--docs DIR] [--books NAME ...] [--model FILE] [--out FILE]
"""
from __future__ import annotations

import argparse
import glob
import json
import sys
from pathlib import Path
from urllib.parse import urljoin

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from lxml import etree  # noqa: E402

from skeleton.web.dom import parse_html  # noqa: E402
from skeleton.sew.evaluation import score_tree  # noqa: E402
from skeleton.analysis.offline import fetch_count, find_skeleton, skeleton_edges  # noqa: E402
from skeleton.sew.model import load_model  # noqa: E402
from skeleton.analysis.training import file_fetcher, page_id  # noqa: E402

HOST = "http://127.0.0.1:8000/"
DEFAULT_DOCS = next(iter(sorted(glob.glob(str(Path.home() / ".rustup/toolchains/*/share/doc/rust/html")))), "")


def _entry(li: etree._Element) -> etree._Element | None:
    """The link of a TOC entry (not one of its sub-list's)."""
    found = li.xpath("(./a[@href] | ./*[not(self::ol)]//a[@href])[1]")
    return found[0] if found else None


def toc_edges(toc: etree._Element, base: str) -> list[tuple[str, str]]:
    """(parent, child) URLs of an mdBook ``toc.html``: the truth of the book."""
    root_url = base + "index.html"
    edges: list[tuple[str, str]] = []

    def walk(ol: etree._Element, parent: str) -> None:
        last = None
        for child in ol:
            if child.tag == "li":
                a = _entry(child)
                if a is not None:
                    last = urljoin(base, a.get("href").split("#")[0])
                    if last != root_url:
                        edges.append((parent, last))
                for nested in child.findall("ol"):
                    walk(nested, last or parent)
            elif child.tag == "ol":
                walk(child, last or parent)

    for ol in toc.xpath("//ol[contains(concat(' ', @class, ' '), ' chapter ')]"):
        walk(ol, root_url)
    seen, tree = set(), []
    for parent, child in edges:  # a page listed twice keeps its first place
        if child not in seen:
            seen.add(child)
            tree.append((parent, child))
    return tree


def book(docs: Path, name: str, model, frames: bool) -> dict:
    base = f"{HOST}{name}/"
    toc = parse_html((docs / name / "toc.html").read_bytes())
    truth = [(page_id(p), page_id(c)) for p, c in toc_edges(toc, base)]
    pages = list(find_skeleton(base + "index.html", file_fetcher(docs), model, scope=base, frames=frames))
    edges = [(page_id(p), page_id(c)) for p, c in skeleton_edges(pages, model.edges or None)]
    score = score_tree(page_id(pages[0].url), edges, page_id(base + "index.html"), truth)
    e = score.edges
    return {"edge_f1": round(e["all"].f1, 4), "edge_p": round(e["all"].precision, 4),
            "edge_r": round(e["all"].recall, 4), "l1_edge_f1": round(e["1"].f1, 4),
            "page_f1": round(score.pages["all"].f1, 4), "fetched": fetch_count(pages),
            "true_pages": len(truth) + 1, "fetched_per_true_page": round(fetch_count(pages) / (len(truth) + 1), 3)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--docs", default=DEFAULT_DOCS, help="rustup's share/doc/rust/html")
    ap.add_argument("--books", nargs="*")
    ap.add_argument("--out", help="write the figures as JSON")
    ap.add_argument("--model", help="a model file (default: the shipped model)")
    args = ap.parse_args()
    docs = Path(args.docs)
    if not args.docs or not docs.is_dir():
        sys.exit("mdbook.py: no Rust documentation found (rustup component add rust-docs; --docs DIR)")
    names = args.books or sorted(p.parent.name for p in docs.glob("*/toc.html"))
    model = load_model(args.model)
    results = {}
    print(f"{'book':16} {'true':>5} | frames: {'edge F1':>7} {'L1':>5} {'fetched/true':>12} | "
          f"no frames: {'edge F1':>7} {'fetched/true':>12}")
    for name in names:
        with_frames, without = book(docs, name, model, True), book(docs, name, model, False)
        results[name] = {"frames": with_frames, "no_frames": without}
        print(f"{name:16} {with_frames['true_pages']:5d} | {with_frames['edge_f1']:15.3f} "
              f"{with_frames['l1_edge_f1']:5.3f} {with_frames['fetched_per_true_page']:12.2f} | "
              f"{without['edge_f1']:18.3f} {without['fetched_per_true_page']:12.2f}", flush=True)
    mean = {k: round(sum(r[k]["edge_f1"] for r in results.values()) / len(results), 4)
            for k in ("frames", "no_frames")}
    print(f"{'mean':16} {'':5} | {mean['frames']:15.3f} {'':18} | {mean['no_frames']:18.3f}")
    if args.out:
        from benchmarks.corpus import commit
        Path(args.out).write_text(json.dumps({"commit": commit(), "model": args.model or "shipped",
                                              "command": "python benchmarks/mdbook.py --out " + args.out,
                                              "books": results, "mean_edge_f1": mean},
                                             indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
