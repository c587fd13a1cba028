"""Benchmark: is the per-page analysis linear in the page, whatever the page? (issue 29)

Times, for one synthetic page, every pass the crawl runs on a page, in the spider's
order (``SkeletonSpider._analyse``) and the default middlewares' (SEW detector
without blocks, entropy and WISDOM text pass, near-duplicate fingerprint):

* ``parse``: ``parse_html``; ``attributes``: ``attribute_text`` (shared by the passes);
* ``checks``: ``page_language``, ``page_title``, ``leaf_reason``, ``canonical_link``;
* ``evidence``: ``page_evidence``;
* ``detect``: the default SEW detector (``make_detector("sew", ...)``) and ``nav_links``;
* ``reasons``: ``link_skip_reasons``; ``followed``: ``followed_links`` with the
  spider's own URL checks;
* ``fingerprint``: ``content_fingerprint``; ``terms``: ``page_terms`` (entropy);
  ``scan``: ``scan_page`` (WISDOM's text pass).

The pages: N sibling ``<a>`` in one ``<div>`` (``flat``), the same links each in
an ``<li>`` of one ``<ul>`` (``list``), and lists nested ``--depth`` deep, ten items
a level, each item a link (``nested``, about 100k links at depth 5). Each case runs
in its own process (so its peak RSS, ``ru_maxrss``, is its own), best of
``--repeat``; ``rss_mb`` is the process's peak, ``rss_delta_mb`` its growth over
the process after imports. Bar (issue 29): at most 1 s a page at 10k links, 10 s
at 100k.

    python benchmarks/linear.py [--sizes 1000,10000,100000] [--repeat 3] [--write]

With ``--write`` the result goes to ``benchmarks/results/linear.json``.
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.corpus import commit  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "linear.json"
BASE = "http://127.0.0.1:8000/site/"
PAGE = BASE + "index.html"
BAR = {10_000: 1.0, 100_000: 10.0}
PASSES = ("parse", "attributes", "checks", "evidence", "detect", "reasons", "followed",
          "fingerprint", "terms", "scan")


def _link(i: int) -> str:
    return f'<a href="/site/{i}">P {i}</a>'  # short: 100k links under parse_html's 5 MB cut


def page(kind: str, n: int, depth: int = 5) -> bytes:
    """The synthetic page: ``flat``, ``list`` or ``nested`` (``n`` ignored: 10**depth leaves)."""
    if kind == "flat":
        body = "<div>" + "".join(_link(i) for i in range(n)) + "</div>"
    elif kind == "list":
        body = "<ul>" + "".join(f"<li>{_link(i)}</li>" for i in range(n)) + "</ul>"
    else:
        count = iter(range(10 ** (depth + 1)))

        def level(d: int) -> str:
            if d == depth:
                return ""
            return "<ul>" + "".join(f"<li>{_link(next(count))}{level(d + 1)}</li>" for _ in range(10)) + "</ul>"
        body = level(0)
    return (f"<html><head><title>{kind} {n}</title></head><body><h1>Links</h1>"
            f"<p>A page of many links, to time the analysis.</p>{body}</body></html>").encode()


def analyse(body: bytes, detector, timings: dict[str, float]) -> int:  # type: ignore[no-untyped-def]
    """One page's analysis, pass by pass, as the crawl runs it; the links followed."""
    from skeleton.entropy.terms import page_terms, stop_words
    from skeleton.hierarchy.evidence import page_evidence
    from skeleton.web.dom import attribute_text, page_title, parse_html
    from skeleton.sew.edges import followed_links
    from skeleton.analysis.page import scope_filter
    from skeleton.urlrules.canonical_link import canonical_link
    from skeleton.urlrules.duplicates import content_fingerprint
    from skeleton.urlrules.language import page_language
    from skeleton.urlrules.links import leaf_reason, link_skip_reasons
    from skeleton.wisdom.page import scan_page

    in_scope = scope_filter(PAGE, True)  # the spider's filter of the URLs it may request
    stop = stop_words()
    clock = time.perf_counter

    def timed(name: str, fn, *args):  # type: ignore[no-untyped-def]
        start = clock()
        out = fn(*args)
        timings[name] = timings.get(name, 0.0) + clock() - start
        return out

    root = timed("parse", parse_html, body)
    attributes = timed("attributes", attribute_text, root)

    def checks() -> None:
        lang = page_language(root, attributes)
        page_title(root)
        leaf_reason(root, PAGE, lang, None, True)
        canonical_link(root, PAGE, PAGE, attributes)
    timed("checks", checks)
    timed("evidence", page_evidence, root, PAGE, attributes)

    def detect():  # type: ignore[no-untyped-def]
        return detector(root, PAGE, PAGE, [], []).nav_links(PAGE)
    raw = timed("detect", detect)
    reasons = timed("reasons", link_skip_reasons, ((link.url, link.text) for link in raw),
                    root, PAGE, None, True, attributes)

    def skip(url: str) -> str | None:
        return reasons.get(url) or in_scope(url)
    links, _ = timed("followed", followed_links, raw, PAGE, skip, ())
    timed("fingerprint", content_fingerprint, root, attributes)
    timed("terms", page_terms, root, stop)
    timed("scan", scan_page, root)
    return len(links)


def run_case(kind: str, n: int, depth: int, repeat: int) -> dict:  # type: ignore[type-arg]
    """One case, in this process: best total of ``repeat`` runs, with its passes."""
    from skeleton.navobjects.detector import make_detector
    from skeleton.web.dom import parse_html
    from skeleton.sew.model import load_model

    detector = make_detector("sew", load_model(), None, with_blocks=False)
    body = page(kind, n, depth)
    analyse(page("flat", 10), detector, {})  # the imports, before the baseline
    base_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    best: dict[str, float] = {}
    followed = 0
    for _ in range(repeat):
        timings: dict[str, float] = {}
        followed = analyse(body, detector, timings)
        if not best or sum(timings.values()) < sum(best.values()):
            best = timings
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    links = len(parse_html(body).xpath("//a"))  # as parsed (parse_html cuts past 5 MB)
    return {"case": kind, "links": links, "bytes": len(body), "followed": followed,
            "seconds": round(sum(best.values()), 3),
            "passes": {name: round(best.get(name, 0.0), 4) for name in PASSES},
            "rss_mb": round(rss / 1024, 1), "rss_delta_mb": round((rss - base_rss) / 1024, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--depth", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--case", help=argparse.SUPPRESS)  # kind:n, run in this process
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    if args.case:
        kind, n = args.case.split(":")
        print(json.dumps(run_case(kind, int(n), args.depth, args.repeat)))
        return
    cases = [(kind, int(n)) for kind in ("flat", "list") for n in args.sizes.split(",")]
    cases.append(("nested", 10 ** args.depth))
    rows = []
    for kind, n in cases:
        out = subprocess.run([sys.executable, __file__, "--case", f"{kind}:{n}", "--depth", str(args.depth),
                              "--repeat", str(args.repeat)], check=True, capture_output=True, text=True)
        row = json.loads(out.stdout)
        bar = next((s for size, s in sorted(BAR.items()) if row["links"] <= size * 1.2), None)
        row["bar_s"] = bar
        row["within_bar"] = None if bar is None else row["seconds"] <= bar
        rows.append(row)
        print(f"{kind:7} {row['links']:>7} links  {row['seconds']:8.3f} s  {row['rss_mb']:7.1f} MB  "
              + " ".join(f"{k}={v}" for k, v in row["passes"].items() if v >= 0.01), file=sys.stderr)
    out = {"commit": commit(), "command": "python benchmarks/linear.py --write", "repeat": args.repeat,
           "bar": {str(k): v for k, v in BAR.items()}, "cases": rows,
           "all_within_bar": all(r["within_bar"] is not False for r in rows)}
    print(json.dumps(out, indent=1))
    if args.write:
        RESULTS.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
