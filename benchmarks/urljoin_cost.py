"""Benchmark: does ``skeleton.web.urls.resolve``'s fast path for plain hrefs pay?

Issue 14 asks to keep the hand-made ``urljoin`` fast path of :func:`resolve` only
if a benchmark shows it pays. Over every ``<a href>`` of a corpus site's pages (in
page order, as a crawl meets them), this times :func:`resolve` as shipped and the
same function with the fast path off (every href through ``urljoin``, the
``_resolve_other`` branch), each in a fresh process state (caches cleared), best of
``--repeat``; and checks that both give the same URL for every href.

    python benchmarks/urljoin_cost.py [--site postgresql15] [--repeat 5] [--write]

With ``--write`` the result goes to ``benchmarks/results/urljoin_cost.json``.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.corpus import commit, corpus_sites  # noqa: E402
from skeleton.web import urls  # noqa: E402
from skeleton.web.dom import parse_html  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "urljoin_cost.json"


def site_hrefs(name: str) -> list[tuple[str, str]]:
    """(href, page URL) of every link of the site's HTML files, page by page."""
    site = next(s for s in corpus_sites() if s.name == name)
    base = site.start_url.rsplit("/", 1)[0] + "/"
    pairs = []
    for path in sorted(site.serve_dir.rglob("*.html")):
        root = parse_html(path.read_bytes())
        if root is None:
            continue
        page = base + path.relative_to(site.serve_dir).as_posix()
        pairs += [(str(h), page) for h in root.xpath("//a/@href")]
    return pairs


def _clear() -> None:
    for fn in (urls._resolve_plain, urls._resolve_other, urls._prefixes):
        fn.cache_clear()


def _without_fast_path(href: str, page_url: str) -> str:
    href = href.strip()
    if not href or href.startswith("#"):
        return ""
    return urls._resolve_other(href, page_url)


def timed(fn, pairs: list[tuple[str, str]], repeat: int) -> tuple[float, list[str]]:  # type: ignore[no-untyped-def]
    best, out = float("inf"), []
    for _ in range(repeat):
        _clear()
        start = time.perf_counter()
        out = [fn(h, p) for h, p in pairs]
        best = min(best, time.perf_counter() - start)
    return best, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--site", default="postgresql15")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    pairs = site_hrefs(args.site)
    fast, a = timed(urls.resolve, pairs, args.repeat)
    slow, b = timed(_without_fast_path, pairs, args.repeat)
    differ = [(h, p, x, y) for (h, p), x, y in zip(pairs, a, b) if x != y]
    out = {"commit": commit(), "command": "python benchmarks/urljoin_cost.py --write", "site": args.site,
           "hrefs": len(pairs), "repeat": args.repeat, "fast_path_s": round(fast, 4),
           "urljoin_only_s": round(slow, 4), "speedup": round(slow / fast, 2) if fast else None,
           "per_page_saved_ms": round(1000 * (slow - fast) / max(1, len({p for _, p in pairs})), 3),
           "results_differ": len(differ), "examples_differ": [list(d) for d in differ[:10]]}
    print(json.dumps(out, indent=1))
    if args.write:
        RESULTS.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
