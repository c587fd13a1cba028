"""Benchmark: the entropy middleware's and WISDOM's cost per page against lxml parse time.

For every HTML page of the labelled sites in ``tests/sites`` (and, with
``--corpus``, up to ``--per-site`` pages of each installed corpus site), sums the
time of each phase of the crawl's per-page work, as the middlewares run it:

* ``parse``: ``parse_html``, once per page (shared by the middlewares and the spider);
* entropy alone (``SKELETON_WISDOM_ENABLED = False``): ``terms``, the plain-text
  term counts (``page_terms``), and ``update``, the Redis script (one per page, on a
  fresh embedded Redis) that counts the page and returns its terms' statistics, and
  their weights computed from them (``EntropyStore.count_page``);
* the default crawl's entropy (no WISDOM): the same ``terms``, on the reactor's
  thread, then ``batched``, the pages counted together in batches of ``--batch``
  pages (``EntropyStore.count_pages``: the batch merged in Python and one script
  call), as the scheduler's I/O thread counts them before acknowledging their
  leases (``SKELETON_ACK_BATCH`` pages at most);
* entropy with WISDOM (the default): ``scan``, the shared text pass (``scan_page``,
  whose counts feed the update), the same ``update``, ``wisdom``, the blocks from
  the pass and the returned weights (``informative_blocks(text=...)``), and ``keep``,
  compressing the page for ``scrapy informative`` (``pack_page``).

Each figure is the best of ``--repeat`` runs (a fresh crawl id each run, so every
update really counts its page). Every page is counted with its own script call, as
the crawl does with WISDOM (without it, the crawl counts its waiting pages in one
call per batch). Also checks that one page's update is one round trip (one EVALSHA)
whatever the vocabulary size. Linked pages' terms (one pipelined HMGET per page in
the crawl) are not measured.

The results are printed as JSON; with ``--write`` they also go, with the commit and
the command line, to ``benchmarks/results/entropy_cost.json`` (the guide's table is
generated from it by ``benchmarks/docs_tables.py``).

    python benchmarks/entropy_cost.py [--corpus] [--per-site N] [--repeat R] [--batch B] [--write]
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.corpus import FIXTURES, commit, corpus_sites  # noqa: E402
from skeleton.entropy.terms import page_terms, stop_words  # noqa: E402
from skeleton.store.entropy import EntropyStore  # noqa: E402
from skeleton.store.kept import pack_page  # noqa: E402
from skeleton.store.keys import CrawlKeys  # noqa: E402
from skeleton.store.scheduler_state import DEFAULT_ACK_BATCH  # noqa: E402
from skeleton.store.server import connect  # noqa: E402
from skeleton.web.dom import parse_html  # noqa: E402
from skeleton.wisdom import informative_blocks  # noqa: E402
from skeleton.wisdom.page import scan_page  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "entropy_cost.json"
PHASES = ("parse", "terms", "update_alone", "scan", "update", "wisdom", "keep", "batched")
URL = "http://127.0.0.1:8000/site/page.html"


def collect_pages(corpus: bool, per_site: int) -> dict[str, list[bytes]]:
    sets = {"tests/sites": [p.read_bytes() for p in sorted(FIXTURES.glob("*/**/*.html"))]}
    if corpus:
        for site in corpus_sites():
            if site.serve_dir.is_dir():
                files = sorted(site.serve_dir.glob("**/*.html"))[:per_site]
                sets[site.name] = [p.read_bytes() for p in files]
    return {name: pages for name, pages in sets.items() if pages}


def measure(pages: list[bytes], alone: EntropyStore, store: EntropyStore, batched: EntropyStore,
            batch: int) -> dict[str, float]:
    stop = stop_words()
    spent = dict.fromkeys(PHASES, 0.0)
    clock = time.perf_counter
    terms = 0
    waiting: list[tuple[str, dict[str, int]]] = []
    for i, body in enumerate(pages):
        url = f"{URL}?p={i}"
        t0 = clock()
        root = parse_html(body)
        t1 = clock()
        counts = page_terms(root, stop)
        t2 = clock()
        alone.count_page(url, counts)
        t3 = clock()
        text = scan_page(root, stop=stop)
        t4 = clock()
        _, weights = store.count_page(url, text.counts())
        t5 = clock()
        informative_blocks(root, URL, weights, None, text=text)
        t6 = clock()
        pack_page(body, URL, None)
        t7 = clock()
        marks = (t0, t1, t2, t3, t4, t5, t6, t7)
        for phase, start, end in zip(PHASES, marks, marks[1:]):
            spent[phase] += end - start
        terms += len(counts)
        waiting.append((url, counts))
    for first in range(0, len(waiting), batch):
        t0 = clock()
        batched.count_pages(waiting[first:first + batch])
        spent["batched"] += clock() - t0
    return {**spent, "distinct_terms_per_page": terms / max(1, len(pages))}


def crawl_ratios(spent: dict[str, float]) -> dict[str, float]:
    """The default crawl's entropy over the parse: the terms (reactor thread), the
    batched update (I/O thread and Redis), both."""
    parse = spent["parse"]
    return {"terms_over_parse": round(spent["terms"] / parse, 2),
            "batched_over_parse": round(spent["batched"] / parse, 2),
            "entropy_crawl_over_parse": round((spent["terms"] + spent["batched"]) / parse, 2)}


def round_trips_per_update(store: EntropyStore) -> int:
    """EVALSHA calls for one page update after a 20,000-term vocabulary exists."""
    store.add_page("vocabulary", {f"v{i}": 1 for i in range(20_000)})
    store.add_page("warm", {"w": 1})
    store.server.config_resetstat()
    store.add_page("probe", {"v1": 2, "fresh": 1})
    stats = store.server.info("commandstats")
    return sum(info["calls"] for name, info in stats.items()
               if name in ("cmdstat_evalsha", "cmdstat_eval", "cmdstat_script|load"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", action="store_true", help="add the installed corpus sites")
    ap.add_argument("--per-site", type=int, default=300, help="corpus pages per site")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--batch", type=int, default=DEFAULT_ACK_BATCH,
                    help="pages per batched update (the crawl's SKELETON_ACK_BATCH)")
    ap.add_argument("--write", action="store_true", help=f"also write {RESULTS.relative_to(ROOT)}")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="skeleton-entropy-bench-"))
    server = connect({"SKELETON_DATA_DIR": str(work)})
    results = {}
    try:
        for name, pages in collect_pages(args.corpus, args.per_site).items():
            runs = []
            for run in range(args.repeat):
                slug = f"bench-{name.replace('/', '-')}-{run}"
                keys = CrawlKeys(slug), CrawlKeys(slug + "-wisdom"), CrawlKeys(slug + "-batched")
                runs.append(measure(pages, EntropyStore(server, keys[0]), EntropyStore(server, keys[1]),
                                    EntropyStore(server, keys[2], keep_page_terms=False), args.batch))
                server.delete(*keys[0].all(), *keys[1].all(), *keys[2].all())
            best = {phase: min(r[phase] for r in runs) for phase in PHASES}
            parse = best["parse"]
            results[name] = {
                "pages": len(pages), **{f"{p}_s": round(best[p], 4) for p in PHASES},
                "distinct_terms_per_page": round(runs[0]["distinct_terms_per_page"], 1),
                "entropy_alone_over_parse": round((best["terms"] + best["update_alone"]) / parse, 2),
                "entropy_wisdom_over_parse": round(
                    (best["scan"] + best["update"] + best["wisdom"] + best["keep"]) / parse, 2),
                **crawl_ratios(best),
            }
        totals = {p: sum(r[f"{p}_s"] for r in results.values()) for p in PHASES}
        results["all"] = {
            "pages": sum(r["pages"] for r in results.values()),
            **{f"{p}_s": round(totals[p], 4) for p in PHASES},
            "entropy_alone_over_parse": round(
                (totals["terms"] + totals["update_alone"]) / totals["parse"], 2),
            "entropy_wisdom_over_parse": round(
                (totals["scan"] + totals["update"] + totals["wisdom"] + totals["keep"])
                / totals["parse"], 2),
            **crawl_ratios(totals),
        }
        probe = CrawlKeys("bench-round-trips")
        results["round_trips_per_page"] = round_trips_per_update(EntropyStore(server, probe))
        server.delete(*probe.all())
    finally:
        server.close()
    json.dump(results, sys.stdout, indent=1)
    sys.stdout.write("\n")
    if args.write:
        command = " ".join(["python benchmarks/entropy_cost.py", *sys.argv[1:]])
        sites = {k: v for k, v in results.items() if k not in ("all", "round_trips_per_page")}
        out = {"commit": commit(), "command": command, "sites": sites, "all": results["all"],
               "round_trips_per_page": results["round_trips_per_page"]}
        RESULTS.write_text(json.dumps(out, indent=1) + "\n")
        print(f"wrote {RESULTS}", file=sys.stderr)


if __name__ == "__main__":
    main()
