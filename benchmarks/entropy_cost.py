"""Benchmark: the entropy middleware's cost per page against lxml parse time.

For every HTML page of the labelled sites in ``tests/sites`` (and, with
``--corpus``, up to ``--per-site`` pages of each installed corpus site), sums
the time of parsing (``parse_html``), of term extraction (``page_terms``), of the
Redis update (one Lua script per page, ``EntropyStore.add_page``, on a fresh
embedded Redis) and of a weight look-up of the page's terms (``weights``, what
WISDOM calls). Each figure is the best of ``--repeat`` runs (a fresh crawl id
each run, so every update really counts its page). Also checks that a page's
update is one round trip (one EVALSHA) whatever the vocabulary size.

    python benchmarks/entropy_cost.py [--corpus] [--per-site N] [--repeat R]
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

from benchmarks.corpus import FIXTURES, corpus_sites  # noqa: E402
from skeleton.entropy.terms import page_terms, stop_words  # noqa: E402
from skeleton.middlewares.entropy import EntropyStore  # noqa: E402
from skeleton.redis_keys import CrawlKeys  # noqa: E402
from skeleton.redis_server import connect  # noqa: E402
from skeleton.sew.dom import parse_html  # noqa: E402

PHASES = ("parse", "extract", "update", "lookup")


def collect_pages(corpus: bool, per_site: int) -> dict[str, list[bytes]]:
    sets = {"tests/sites": [p.read_bytes() for p in sorted(FIXTURES.glob("*/**/*.html"))]}
    if corpus:
        for site in corpus_sites():
            if site.serve_dir.is_dir():
                files = sorted(site.serve_dir.glob("**/*.html"))[:per_site]
                sets[site.name] = [p.read_bytes() for p in files]
    return {name: pages for name, pages in sets.items() if pages}


def measure(pages: list[bytes], store: EntropyStore) -> dict[str, float]:
    stop = stop_words()
    spent = dict.fromkeys(PHASES, 0.0)
    terms = 0
    for i, body in enumerate(pages):
        t0 = time.perf_counter()
        root = parse_html(body)
        t1 = time.perf_counter()
        counts = page_terms(root, stop)
        t2 = time.perf_counter()
        store.add_page(f"page-{i}", counts)
        t3 = time.perf_counter()
        store.weights(counts)
        t4 = time.perf_counter()
        for phase, seconds in zip(PHASES, (t1 - t0, t2 - t1, t3 - t2, t4 - t3)):
            spent[phase] += seconds
        terms += len(counts)
    return {**spent, "distinct_terms_per_page": terms / max(1, len(pages))}


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
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="skeleton-entropy-bench-"))
    server = connect({"SKELETON_DATA_DIR": str(work)})
    results = {}
    try:
        for name, pages in collect_pages(args.corpus, args.per_site).items():
            runs = []
            for run in range(args.repeat):
                keys = CrawlKeys(f"bench-{name.replace('/', '-')}-{run}")
                runs.append(measure(pages, EntropyStore(server, keys)))
                server.delete(*keys.all())
            best = {phase: min(r[phase] for r in runs) for phase in PHASES}
            parse = best["parse"]
            results[name] = {
                "pages": len(pages), **{f"{p}_s": round(best[p], 4) for p in PHASES},
                "distinct_terms_per_page": round(runs[0]["distinct_terms_per_page"], 1),
                "extract_update_over_parse": round((best["extract"] + best["update"]) / parse, 2),
                "middleware_over_parse": round(
                    (parse + best["extract"] + best["update"]) / parse, 2),
            }
        probe = CrawlKeys("bench-round-trips")
        results["round_trips_per_page"] = round_trips_per_update(EntropyStore(server, probe))
        server.delete(*probe.all())
    finally:
        server.close()
    json.dump(results, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
