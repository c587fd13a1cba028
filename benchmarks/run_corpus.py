"""Benchmark: crawl every corpus site with the real spider and score its skeleton.

For each site of ``../shared/corpus`` (installed with its ``install.sh``):
train a leave-one-site-out model (the other corpus sites, the labelled sites in
``tests/sites`` and the training farm's sites where built, ``python farm/build.py``):
the SEW detection model and the edge score both, as
``scrapy train`` does; serve the site on 127.0.0.1:8000, run
``scrapy crawl skeleton`` with that model, then ``scrapy evaluate``; then the same
crawl in ``bfs`` mode (every in-scope link followed, each page hung from its
shallowest linking page: the tree SEO crawlers show). Finally the detection cost:
time of detection per page over time of lxml parsing that page (the smallest sums of
three passes, the heap built before them frozen out of the collector).

    python benchmarks/run_corpus.py [--sites NAME ...] [--out results.json]
    python benchmarks/run_corpus.py --timing-only

The results file is stamped with the commit; ``docs/corpus-results.md`` is
generated from it when it is the project's (``benchmarks/results/corpus.json``, the
default): a check run with ``--out`` elsewhere leaves the docs as they are.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.corpus import commit, corpus_sites, farm_sites, fixture_sites, serve  # noqa: E402
from skeleton.sew.detect import detect_in_links  # noqa: E402
from skeleton.web.dom import parse_html  # noqa: E402
from skeleton.sew.links import extract_links  # noqa: E402
from skeleton.sew.model import load_model, save_model  # noqa: E402
from skeleton.analysis.training import load_labelled_site, page_samples, train_edges, train_samples  # noqa: E402

PORT = 8000
DOC_TABLE = ROOT / "docs" / "corpus-results.md"
RESULTS = ROOT / "benchmarks" / "results" / "corpus.json"


def scrapy(*args: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scrapy", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=False)


def crawl_and_score(site, model_path: Path | None, mode: str, env: dict) -> dict:
    crawl = f"bench-{site.name}-{mode}"
    args = ["crawl", "skeleton", "-a", f"base={site.start_url}", "-a", f"crawl={crawl}",
            "-a", f"mode={mode}", "-s", "AUTOTHROTTLE_ENABLED=False", "-s", "CONCURRENT_REQUESTS=8",
            "-s", "LOG_LEVEL=WARNING"]
    if model_path:
        args += ["-a", f"model={model_path}"]
    started = time.perf_counter()
    done = scrapy(*args, env=env)
    seconds = time.perf_counter() - started
    if done.returncode:
        raise SystemExit(f"crawl of {site.name} failed:\n{done.stderr[-2000:]}")
    scored = scrapy("evaluate", "--crawl", crawl, "--truth", str(site.truth), "--json", env=env)
    if scored.returncode:
        raise SystemExit(f"evaluate of {site.name} failed:\n{scored.stderr[-2000:]}")
    result = json.loads(scored.stdout)
    result["crawl_seconds"] = round(seconds, 1)
    return result


#: passes over a site's pages for the detection cost; each sum is the smallest of them
TIMING_PASSES = 3


def detection_cost(site, model) -> tuple[float, float, int]:
    """Seconds parsing and seconds detecting, summed over the site's tree pages:
    the smallest sums of :data:`TIMING_PASSES` passes, with the heap built before
    them frozen out of the collector (``gc.freeze``), as the crawl freezes its
    startup heap (``skeleton.extensions.heap``): this process holds every site's
    training samples, and one full collection in a timed step made a site's ratio
    twice what it is. The collections of what the passes allocate still count."""
    labelled = load_labelled_site(site.truth, site.serve_dir, site.name)
    bodies = [(url, body) for url in labelled.depths() if (body := labelled.fetch(url))]
    best_parse = best_detect = float("inf")
    gc.collect()
    gc.freeze()
    try:
        for _ in range(TIMING_PASSES):
            parse_s = detect_s = 0.0
            for url, body in bodies:
                t0 = time.perf_counter()
                root = parse_html(body)
                t1 = time.perf_counter()
                detect_in_links(extract_links(root, url), url, site.start_url, model, ())
                t2 = time.perf_counter()
                parse_s, detect_s = parse_s + t1 - t0, detect_s + t2 - t1
            best_parse, best_detect = min(best_parse, parse_s), min(best_detect, detect_s)
    finally:
        gc.unfreeze()
    return best_parse, best_detect, len(bodies)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sites", nargs="*", help="corpus site names (default: all)")
    ap.add_argument("--out", default=str(RESULTS))
    ap.add_argument("--timing-only", action="store_true",
                    help="only measure detection time against parse time (default model)")
    args = ap.parse_args()
    if args.timing_only:
        timing(args.sites)
        return
    sites = [s for s in corpus_sites() if not args.sites or s.name in args.sites]
    labelled = {s.name: load_labelled_site(s.truth, s.serve_dir, s.name, redirects=True)
                for s in corpus_sites() + fixture_sites() + farm_sites() if s.serve_dir.exists()}
    samples = {name: (site.root, list(page_samples(site))) for name, site in labelled.items()}
    work = Path(tempfile.mkdtemp(prefix="skeleton-bench-"))
    env = {**os.environ, "SKELETON_DATA_DIR": str(work / "data")}
    env.pop("REDIS_URL", None)
    results = {}
    for site in sites:
        t0 = time.perf_counter()
        model = train_samples({k: v for k, v in samples.items() if k != site.name},
                              fetchers={k: v.fetch for k, v in labelled.items()})
        model.edges = train_edges([v for k, v in labelled.items() if k != site.name], model)
        print(f"{site.name:16} leave-one-site-out model trained ({time.perf_counter() - t0:.0f} s)",
              flush=True)
        model_path = work / f"loo-{site.name}.json"
        save_model(model, model_path)
        server = serve(site.serve_dir, PORT)
        try:
            sew = crawl_and_score(site, model_path, "sew", env)
            bfs = crawl_and_score(site, None, "bfs", env)
        finally:
            server.terminate()
            server.wait()
        parse_s, detect_s, pages = detection_cost(site, load_model(model_path))
        results[site.name] = {"sew": sew, "bfs": bfs, "parse_seconds": parse_s,
                              "detect_seconds": detect_s, "pages_timed": pages,
                              "model": {"tau": model.tau, "accept": model.accept,
                                        "edges": model.edges.get("meta", {})}}
        e, b = sew["edges"], bfs["edges"]
        print(f"{site.name:16} edge F1 {e['all']['f1']:.3f} L1 {e['1']['f1']:.3f} "
              f"page F1 {sew['pages']['all']['f1']:.3f} fetched/true {sew['fetched_per_true_page']:.2f}"
              f" | bfs edge F1 {b['all']['f1']:.3f} fetched/true {bfs['fetched_per_true_page']:.2f}"
              f" | detect/parse {detect_s / parse_s:.2f}", flush=True)
    out = {"commit": commit(), "command": "python benchmarks/run_corpus.py"
           + (" --sites " + " ".join(args.sites) if args.sites else ""),
           "model": "leave-one-site-out per site (SEW detection and edge score), trained on the other corpus sites, the fixtures and the farm", "sites": results}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(out, indent=1) + "\n")
    print(table(results))
    if Path(args.out).resolve() == RESULTS.resolve():
        DOC_TABLE.write_text(markdown(out))
        print(f"wrote {args.out} and {DOC_TABLE}")
    else:
        print(f"wrote {args.out}")


def markdown(out: dict) -> str:
    """The docs table, generated from a results file."""
    return (f"<!-- generated by benchmarks/run_corpus.py from benchmarks/results/corpus.json: "
            f"do not edit -->\nCommit `{out['commit']}`, command `{out['command']}`. Model: "
            f"{out['model']}: every figure is out of sample. Real crawls (`scrapy crawl` through "
            f"Redis, then `scrapy evaluate`); BFS = every in-scope link followed, each page hung "
            f"from its shallowest linking page.\n\n" + table(out["sites"]) + "\n")


def timing(names: list[str] | None) -> None:
    """Detection time over parse time per site and overall, with the default model."""
    model = load_model(None)
    total_parse = total_detect = 0.0
    print("| site | pages | parse s | detect s | detect/parse |\n|---|---|---|---|---|")
    for site in corpus_sites():
        if names and site.name not in names:
            continue
        parse_s, detect_s, pages = detection_cost(site, model)
        total_parse, total_detect = total_parse + parse_s, total_detect + detect_s
        print(f"| {site.name} | {pages} | {parse_s:.2f} | {detect_s:.2f} | {detect_s / parse_s:.2f} |")
    print(f"| all | | {total_parse:.2f} | {total_detect:.2f} | {total_detect / total_parse:.2f} |")


def table(results: dict) -> str:
    head = ("| site | edge F1 | edge P | edge R | L1 edge F1 | L2 edge F1 | page F1 | fetched per true page "
            "| BFS edge F1 | BFS fetched per true page | detect/parse time |\n|" + "---|" * 11)
    rows = []
    for name, r in results.items():
        e, p, b = r["sew"]["edges"], r["sew"]["pages"], r["bfs"]["edges"]
        rows.append(f"| {name} | {e['all']['f1']:.3f} | {e['all']['precision']:.3f} | "
                    f"{e['all']['recall']:.3f} | {e['1']['f1']:.3f} | {e['2']['f1']:.3f} | "
                    f"{p['all']['f1']:.3f} | {r['sew']['fetched_per_true_page']:.2f} | "
                    f"{b['all']['f1']:.3f} | {r['bfs']['fetched_per_true_page']:.2f} | "
                    f"{r['detect_seconds'] / r['parse_seconds']:.2f} |")
    if results:
        def mean(key: str) -> float:
            return sum(r[key]["edges"]["all"]["f1"] for r in results.values()) / len(results)
        rows.append(f"| **mean** | **{mean('sew'):.3f}** | | | | | | | {mean('bfs'):.3f} | | |")
    return head + "\n" + "\n".join(rows)


if __name__ == "__main__":
    main()
