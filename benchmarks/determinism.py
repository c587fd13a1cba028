"""Determinism: the skeleton tree does not depend on the crawl order.

Each corpus site (default: apache24-en and pelican-notmyidea; skipped if its
serve_dir is not installed) is served by ``python -m http.server`` on
127.0.0.1:8011 and crawled with the shipped model four times against one
separately started redis-server: one worker with ``CONCURRENT_REQUESTS`` 1, 8
and 32, then 3 workers sharing the Redis queue (8 concurrent requests each).
After each crawl ``scrapy tree --crawl ID --format json`` prints the tree; every
run must give byte-identical output to the c=1 run. Recorded per run: pages in
the tree, sha256 of the tree JSON, whether it is identical to c=1, else the
number of pages whose parent differs (a page missing from one tree counts), and
the crawl seconds (informative only). A fingerprint of the project's code and
shipped models is taken before and after: if it changed meanwhile (someone
editing the checkout), the runs are not comparable and the output says so.

    python benchmarks/determinism.py [--sites NAME ...] [--write]

With ``--write`` the results go to benchmarks/results/determinism.json and the
table to docs/determinism-results.md; the table is always printed.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from benchmarks.corpus import CorpusSite, commit, corpus_sites, serve  # noqa: E402
from skeleton.sew.model import load_model  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "determinism.json"
DOC_TABLE = ROOT / "docs" / "determinism-results.md"
SITES = ["apache24-en", "pelican-notmyidea"]
PORT = 8011
#: (run label, workers, CONCURRENT_REQUESTS per worker); the first is the reference.
RUNS = [("c=1", 1, 1), ("c=8", 1, 8), ("c=32", 1, 32), ("3 workers, c=8", 3, 8)]
TIMEOUT = 1800.0
#: At most this many differing pages are listed per run in the results.
LISTED = 50


def code_fingerprint() -> str:
    """sha256 over the project's Python files and shipped models (paths and contents)."""
    digest = hashlib.sha256()
    for path in sorted((ROOT / "skeleton").rglob("*")):
        if path.is_file() and path.suffix in (".py", ".json"):
            digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def worker_env(redis_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "SCRAPY_PROJECT"}
    env.update(REDIS_URL=redis_url, SCRAPY_SETTINGS_MODULE="skeleton.settings",
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")])))
    return env


def crawl(base: str, crawl_id: str, workers: int, concurrency: int, env: dict[str, str],
          logs: Path) -> float:
    """Run ``workers`` ``scrapy crawl skeleton`` processes on one crawl id until all
    exit by themselves; the seconds taken."""
    args = [sys.executable, "-m", "scrapy", "crawl", "skeleton", "-a", f"base={base}",
            "-a", f"crawl={crawl_id}", "-s", "AUTOTHROTTLE_ENABLED=False", "-s", "DOWNLOAD_DELAY=0",
            "-s", "LOG_LEVEL=WARNING", "-s", f"CONCURRENT_REQUESTS={concurrency}",
            "-s", f"CONCURRENT_REQUESTS_PER_DOMAIN={concurrency}"]
    started = time.perf_counter()
    procs, paths = [], [logs / f"{crawl_id}-{i}.log" for i in range(workers)]
    for path in paths:
        with open(path, "wb") as out:
            procs.append(subprocess.Popen(args, cwd=ROOT, env=env, stdout=out,
                                          stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL))
    try:
        for proc in procs:
            proc.wait(timeout=max(1.0, TIMEOUT - (time.perf_counter() - started)))
    except subprocess.TimeoutExpired:
        for proc in procs:
            proc.kill()
            proc.wait()
        raise SystemExit(f"crawl {crawl_id} did not finish in {TIMEOUT:.0f} s; logs in {logs}")
    seconds = time.perf_counter() - started
    failed = [(path, proc.returncode) for path, proc in zip(paths, procs) if proc.returncode]
    if failed:
        raise SystemExit(f"crawl {crawl_id}: workers failed {failed}:\n"
                         + failed[0][0].read_text(errors="replace")[-2000:])
    return seconds


def tree_json(crawl_id: str, env: dict[str, str]) -> str:
    done = subprocess.run([sys.executable, "-m", "scrapy", "tree", "--crawl", crawl_id,
                           "--format", "json"], cwd=ROOT, env=env, capture_output=True, text=True,
                          check=False)
    if done.returncode:
        raise SystemExit(f"scrapy tree --crawl {crawl_id} failed:\n{done.stderr[-2000:]}")
    return done.stdout


def parents(tree: dict[str, Any]) -> dict[str, str | None]:
    """Every page of a nested tree and its parent's URL (None for the root)."""
    out: dict[str, str | None] = {tree["url"]: None}
    stack = [tree]
    while stack:
        node = stack.pop()
        for child in node["children"]:
            out[child["url"]] = node["url"]
            stack.append(child)
    return out


def differences(reference: dict[str, str | None],
                other: dict[str, str | None]) -> list[dict[str, str | None]]:
    """Pages whose parent differs (``"absent"`` where a tree lacks the page)."""
    return [{"url": url, "parent_c1": reference.get(url, "absent"),
             "parent_run": other.get(url, "absent")}
            for url in sorted(reference.keys() | other.keys())
            if reference.get(url, "absent") != other.get(url, "absent")]


def run_site(site: CorpusSite, env: dict[str, str], logs: Path) -> list[dict[str, Any]]:
    base = site.start_url.replace(":8000", f":{PORT}")
    server = serve(site.serve_dir, PORT)
    runs: list[dict[str, Any]] = []
    reference: tuple[str, dict[str, str | None]] | None = None
    try:
        for label, workers, concurrency in RUNS:
            crawl_id = f"det-{site.name}-w{workers}c{concurrency}-{time.time_ns()}"
            seconds = crawl(base, crawl_id, workers, concurrency, env, logs)
            text = tree_json(crawl_id, env)
            tree = parents(json.loads(text))
            row: dict[str, Any] = {"run": label, "workers": workers, "concurrency": concurrency,
                                   "crawl": crawl_id, "pages": len(tree),
                                   "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(),
                                   "crawl_seconds": round(seconds, 1)}
            if reference is None:
                reference = (text, tree)
            row["identical_to_c1"] = text == reference[0]
            diff = [] if row["identical_to_c1"] else differences(reference[1], tree)
            row["differing_parents"] = len(diff)
            if diff:
                row["differences"] = diff[:LISTED]
            runs.append(row)
            print(f"{site.name:18} {label:15} {row['pages']:5} pages  identical: "
                  f"{row['identical_to_c1']}  differing parents: {len(diff)}  "
                  f"({seconds:.1f} s)", flush=True)
    finally:
        server.terminate()
        server.wait()
    return runs


def markdown(result: dict[str, Any]) -> str:
    """The docs table, generated from a results file."""
    lines = ["<!-- generated by benchmarks/determinism.py from benchmarks/results/determinism.json: "
             "do not edit -->",
             f"Commit `{result['commit']}`, command `{result['command']}`. Shipped model; one "
             f"redis-server; `scrapy tree --format json` compared byte for byte with the "
             f"CONCURRENT_REQUESTS=1 run."
             + (" **The code or model changed during the run: not comparable.**"
                if result.get("code_changed_during_run") else ""), "",
             "| site | run | pages | identical to c=1 | differing parents |",
             "|---|---|---|---|---|"]
    for site in result["rows"]:
        for r in site["runs"]:
            lines.append(f"| {site['site']} | {r['run']} | {r['pages']} | "
                         f"{'yes' if r['identical_to_c1'] else '**no**'} | {r['differing_parents']} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sites", nargs="+", default=SITES, help="corpus site names")
    ap.add_argument("--write", action="store_true", help=f"write {RESULTS.relative_to(ROOT)} "
                                                         f"and {DOC_TABLE.relative_to(ROOT)}")
    args = ap.parse_args()
    from services import redis_server

    known = {s.name: s for s in corpus_sites()}
    unknown = [name for name in args.sites if name not in known]
    if unknown:
        raise SystemExit(f"unknown corpus sites: {unknown}")
    rows = []
    before, shipped = code_fingerprint(), load_model(None)
    with tempfile.TemporaryDirectory(prefix="skeleton-determinism-") as tmp, \
            redis_server(Path(tmp) / "redis") as redis_url:
        env = worker_env(redis_url)
        for name in args.sites:
            site = known[name]
            if not site.serve_dir.exists():
                print(f"{name}: {site.serve_dir} is missing (corpus Debian docs not installed?): "
                      f"skipped", flush=True)
                continue
            rows.append({"site": name, "runs": run_site(site, env, Path(tmp))})
    changed = code_fingerprint() != before
    if changed:
        print("WARNING: the project's code or shipped model changed during the run: the runs "
              "are not comparable; run again", flush=True)
    command = "python benchmarks/determinism.py" + (
        f" --sites {' '.join(args.sites)}" if args.sites != SITES else "") + " --write"
    result = {"commit": commit(),
              "model": {"sew": shipped.meta, "edges": (shipped.edges or {}).get("meta", {})},
              "code_fingerprint": before[:16], "command": command,
              "code_changed_during_run": changed, "rows": rows}
    print(markdown(result))
    if args.write:
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text(json.dumps(result, indent=1) + "\n")
        DOC_TABLE.write_text(markdown(result))
        print(f"wrote {RESULTS} and {DOC_TABLE}")


if __name__ == "__main__":
    main()
