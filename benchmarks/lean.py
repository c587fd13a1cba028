"""Benchmark: a lean crawl, ``scrapy crawl skeleton`` against a plain Scrapy crawl (issue 14).

The bar of issue 14: ``scrapy crawl skeleton`` with its defaults, politeness aside,
takes at most :data:`BAR` times the wall time of a plain Scrapy spider following
every link, on the PostgreSQL 15 manual of the corpus (``../shared/corpus``; a site
whose documents are not installed is skipped with the hint to run ``sh
../shared/corpus/install.sh``) and on one portal-kind fixture of ``tests/sites``
(default ``news_portal``). Each site is served by ``tests/sites/server.py`` on
127.0.0.1 (a free port) for all its runs.

Both crawls get the same settings, :data:`SHARED` (16 concurrent requests, 8 per
domain, INFO logging, no AutoThrottle, no robots.txt, no HTTP cache). The *plain*
crawl is ``scrapy runspider benchmarks/plain_spider.py`` run outside the project
(Scrapy's defaults: in-memory scheduler and dupefilter, no pipelines): every
``a::attr(href)`` whose absolute URL starts with the site's scope prefix (the host
and directory the skeleton crawl keeps to) is followed, nothing is yielded. The
*skeleton* crawl is ``scrapy crawl skeleton -a base=START -a crawl=ID`` with the
project's defaults, a fresh private ``-s SKELETON_DATA_DIR`` per run and no
``REDIS_URL`` (so its embedded Redis, started and stopped by the crawl, is in the
time), plus any ``--skeleton-arg``/``--skeleton-setting`` given (variants such as
``--skeleton-setting SKELETON_ENTROPY_ENABLED=False``).

Before the runs, the project's modules and the plain spider are compiled to
bytecode (``compileall``), so that each crawl starts as it does on a user's machine
after its first run: an environment with ``PYTHONDONTWRITEBYTECODE`` (this
benchmark's sandbox sets it) would otherwise compile the project's hundred modules
from source at every skeleton start, and only the plain spider's one file.

Figures per run: wall time from process start to exit; the crawl process's peak
RSS polled with psutil every 0.1 s and its ``ru_maxrss`` from ``wait4`` (the exact
peak, its waited-for children included); the embedded redis-server's peak RSS (the
``redis-server`` whose working directory is the data dir, polled likewise); exit
code; from Scrapy's final stats dump the 200 responses
(``downloader/response_status_count/200``, the pages fetched), requests and, for
the skeleton, ``skeleton/pages``. Runs are interleaved per site, plain and skeleton
alternating which goes first; ``--repeat`` (default 3) runs of each, medians
reported. The ratio is the median skeleton wall time over the median plain wall
time, per site; a site passes when it is at most :data:`BAR` and every run exited 0.
Reported besides: the peak RSS ratio (``ru_maxrss``) and the wall time per page
ratio (each median wall time over its crawl's median 200 responses: the plain crawl
also fetches URL variants, e.g. tracking parameters, that the skeleton skips).

    python benchmarks/lean.py [--sites postgresql15 news_portal] [--repeat 3] [--write [--name NAME]]
        [--skeleton-setting NAME=VALUE ...] [--skeleton-arg NAME=VALUE ...] [--keep]

The table is always printed; with ``--write`` the results go to
``benchmarks/results/lean.json`` (commit, command line, settings, every run's
figures, medians, ratios, load average before and after) and the table generated
from it to ``benchmarks/results/lean.md`` (``NAME.json`` and ``NAME.md`` with ``--name``: the
cost of each optional analysis is measured as ``--skeleton-arg analyses=wisdom --name
lean-wisdom``, and so on). ``--keep`` keeps the work folder (logs).
"""
from __future__ import annotations

import argparse
import compileall
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.corpus import (CorpusSite, commit, corpus_sites, fixture_sites, median_of,  # noqa: E402
                               serve, write_results)

RESULTS = ROOT / "benchmarks" / "results" / "lean.json"
TABLE = ROOT / "benchmarks" / "results" / "lean.md"
PLAIN_SPIDER = ROOT / "benchmarks" / "plain_spider.py"
BAR = 1.3
SITES = ["postgresql15", "news_portal"]
SHARED = ["CONCURRENT_REQUESTS=16", "CONCURRENT_REQUESTS_PER_DOMAIN=8", "LOG_LEVEL=INFO",
          "AUTOTHROTTLE_ENABLED=False", "ROBOTSTXT_OBEY=False", "HTTPCACHE_ENABLED=False"]
#: a crawl not ended by itself after this many seconds is killed (exit code None)
TIMEOUT = 1800.0
POLL = 0.1
STATS = {"pages_200": "downloader/response_status_count/200", "requests": "downloader/request_count",
         "skeleton_pages": "skeleton/pages"}
#: the figures whose medians are reported
FIGURES = ["wall_s", "rss_peak_mb", "maxrss_mb", "redis_rss_peak_mb", "pages_200", "requests",
           "skeleton_pages"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def with_port(url: str, port: int) -> str:
    """``url`` on 127.0.0.1:``port`` (the corpus names port 8000)."""
    return urlunsplit(urlsplit(url)._replace(netloc=f"127.0.0.1:{port}"))


def pick_sites(names: list[str]) -> list[CorpusSite]:
    known = {s.name: s for s in fixture_sites()}
    try:
        known.update({s.name: s for s in corpus_sites()})
    except OSError as exc:
        print(f"no corpus ({exc}): sh ../shared/corpus/install.sh", file=sys.stderr)
    sites = []
    for name in names:
        site = known.get(name)
        if site is None:
            print(f"unknown site {name}: skipped", file=sys.stderr)
        elif not site.serve_dir.is_dir():
            print(f"{name}: {site.serve_dir} is missing, skipped (install it: sh ../shared/corpus/install.sh)",
                  file=sys.stderr)
        else:
            sites.append(site)
    return sites


def final_stats(log: str) -> dict[str, Any]:
    """Numbers of Scrapy's final stats dump, by name; None for one not in it."""
    dump = log.rpartition("Dumping Scrapy stats:")[2]
    found = dict(re.findall(r"'([^']+)': (\d+)[,}]", dump))
    out: dict[str, Any] = {key: int(found[stat]) if stat in found else None for key, stat in STATS.items()}
    reason = re.search(r"'finish_reason': '([^']*)'", dump)
    out["finish_reason"] = reason.group(1) if reason else None
    return out


def _redis_of(data: Path) -> psutil.Process | None:
    """The embedded redis-server serving ``data`` (it runs in its ``dir``, the data dir)."""
    for proc in psutil.process_iter(["name", "cwd"]):
        try:
            if proc.info["name"] and "redis" in proc.info["name"] and proc.info["cwd"] \
                    and Path(proc.info["cwd"]).resolve().is_relative_to(data.resolve()):
                return proc
        except (psutil.Error, OSError):
            continue
    return None


def _rss(proc: psutil.Process | None) -> int:
    try:
        return proc.memory_info().rss if proc is not None else 0
    except psutil.Error:
        return 0


def measure(args: list[str], cwd: Path, env: dict[str, str], log: Path,
            data: Path | None = None) -> dict[str, Any]:
    """Run one crawl; its wall time, peak RSS (polled and ``wait4``), exit code and stats."""
    redis: psutil.Process | None = None
    peak = redis_peak = 0
    next_look = 0.0
    load = os.getloadavg()[0]
    started = time.perf_counter()
    with open(log, "wb") as out:
        proc = subprocess.Popen(args, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    crawl = psutil.Process(proc.pid)
    code: int | None = None
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            wall = time.perf_counter() - started
            code = proc.returncode = os.waitstatus_to_exitcode(status)
            break
        if time.perf_counter() - started > TIMEOUT:
            os.killpg(proc.pid, signal.SIGKILL)
            _, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = -9
            wall = time.perf_counter() - started
            break
        peak = max(peak, _rss(crawl))
        if data is not None and redis is None and time.perf_counter() >= next_look:
            redis, next_look = _redis_of(data), time.perf_counter() + 1.0
        redis_peak = max(redis_peak, _rss(redis))
        time.sleep(POLL)
    leftover = _redis_of(data) if data is not None else None
    if leftover is not None:  # a killed crawl leaves its embedded Redis running
        leftover.terminate()
    mb = 1024 * 1024
    return {"wall_s": round(wall, 2), "exit_code": code, "rss_peak_mb": round(peak / mb, 1),
            "maxrss_mb": round(usage.ru_maxrss / 1024, 1),  # KB on Linux
            "redis_rss_peak_mb": round(redis_peak / mb, 1) if data is not None else None,
            "leftover_redis": leftover is not None, "load_1min": round(load, 2),
            **final_stats(log.read_text("utf-8", "replace"))}


def run_plain(start: str, scope: str, work: Path, tag: str) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("REDIS_URL", "SCRAPY_PROJECT", "SCRAPY_SETTINGS_MODULE")}
    args = [sys.executable, "-m", "scrapy", "runspider", str(PLAIN_SPIDER), "-a", f"start_url={start}",
            "-a", f"prefix={scope}", *[a for s in SHARED for a in ("-s", s)]]
    return {"crawl": "plain", **measure(args, work, env, work / f"{tag}-plain.log")}


def run_skeleton(start: str, work: Path, tag: str, opts: argparse.Namespace) -> dict[str, Any]:
    crawl = f"lean-{tag}-{time.time_ns()}"
    data = work / f"data-{crawl}"
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "SCRAPY_PROJECT")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    args = [sys.executable, "-m", "scrapy", "crawl", "skeleton", "-a", f"base={start}", "-a", f"crawl={crawl}",
            *[a for s in opts.skeleton_arg for a in ("-a", s)], "-s", f"SKELETON_DATA_DIR={data}",
            *[a for s in [*SHARED, *opts.skeleton_setting] for a in ("-s", s)]]
    result = {"crawl": "skeleton", **measure(args, ROOT, env, work / f"{tag}-skeleton.log", data)}
    if not opts.keep:
        shutil.rmtree(data, ignore_errors=True)
    return result


def summarize(runs: list[dict[str, Any]]) -> dict[str, Any]:
    medians = {kind: {k: median_of([r for r in runs if r["crawl"] == kind], k) for k in FIGURES}
               for kind in ("plain", "skeleton")}
    plain, skel = medians["plain"], medians["skeleton"]
    ratio = round(skel["wall_s"] / plain["wall_s"], 2) if plain["wall_s"] and skel["wall_s"] else None
    rss = round(skel["maxrss_mb"] / plain["maxrss_mb"], 2) if plain["maxrss_mb"] and skel["maxrss_mb"] else None
    per_page = (round((skel["wall_s"] / skel["pages_200"]) / (plain["wall_s"] / plain["pages_200"]), 2)
                if ratio is not None and skel["pages_200"] and plain["pages_200"] else None)
    exits_ok = all(r["exit_code"] == 0 for r in runs)
    return {"median": medians, "wall_ratio": ratio, "rss_ratio": rss, "per_page_ratio": per_page,
            "all_exit_0": exits_ok,
            "pass": ratio is not None and ratio <= BAR and exits_ok}


def bench_site(site: CorpusSite, work: Path, opts: argparse.Namespace) -> dict[str, Any]:
    port = free_port()
    start, scope = with_port(site.start_url, port), with_port(site.scope, port)
    server = serve(site.serve_dir, port)
    runs = []
    try:
        for i in range(opts.repeat):
            for kind in ("plain", "skeleton") if i % 2 == 0 else ("skeleton", "plain"):
                tag = f"{site.name}-{i}"
                r = run_plain(start, scope, work, tag) if kind == "plain" else run_skeleton(start, work, tag, opts)
                runs.append({"repeat": i, **r})
                print(f"{site.name} #{i} {kind}: {r['wall_s']} s, exit {r['exit_code']}, RSS peak "
                      f"{r['rss_peak_mb']} MB (maxrss {r['maxrss_mb']} MB, redis {r['redis_rss_peak_mb']} MB), "
                      f"{r['pages_200']} pages 200, {r['requests']} requests, skeleton/pages "
                      f"{r['skeleton_pages']}, {r['finish_reason']}, load {r['load_1min']}", flush=True)
    finally:
        server.terminate()
        server.wait()
    truth = json.loads(site.truth.read_text())
    nodes = {truth["root"], *(child for _, child in truth["edges"])}
    return {"start_url": start, "scope": scope, "truth_nodes": len(nodes),
            "not_in_tree": len(truth["meta"].get("not_in_tree", [])), "runs": runs, **summarize(runs)}


def _cell(value: Any) -> str:
    return "-" if value is None else str(value)


def markdown(out: dict[str, Any]) -> str:
    lines = ["# Lean crawl: the skeleton against a plain Scrapy crawl (issue 14)", "",
             f"Generated by `{out['command']}` (commit {out['commit']}); details in "
             f"`{out.get('results', 'benchmarks/results/lean.json')}`, "
             "method in the docstring of `benchmarks/lean.py`.", "",
             f"Shared settings: `{' '.join(out['settings'])}`; skeleton extras: "
             f"`{' '.join(out['skeleton_extra']) or 'none'}`. {out['repeat']} run(s) of each crawl per site, "
             f"medians; load average (1 min) {out['load_avg_1min'][0]} before, {out['load_avg_1min'][1]} after "
             f"({out['cpus']} CPUs).", "",
             f"| site | plain wall s | skeleton wall s | ratio | bar <= {BAR}x | plain peak RSS MB "
             "| skeleton peak RSS MB | + redis MB | RSS ratio | plain pages 200 | skeleton pages 200 "
             "| skeleton/pages | truth nodes (+ not in tree) | wall per page ratio | all exit 0 |",
             "|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for name, s in out["sites"].items():
        p, k = s["median"]["plain"], s["median"]["skeleton"]
        lines.append(f"| {name} | {_cell(p['wall_s'])} | {_cell(k['wall_s'])} | {_cell(s['wall_ratio'])} | "
                     f"{'pass' if s['pass'] else 'NO'} | {_cell(p['maxrss_mb'])} | {_cell(k['maxrss_mb'])} | "
                     f"{_cell(k['redis_rss_peak_mb'])} | {_cell(s['rss_ratio'])} | {_cell(p['pages_200'])} | "
                     f"{_cell(k['pages_200'])} | {_cell(k['skeleton_pages'])} | "
                     f"{s['truth_nodes']} (+ {s['not_in_tree']}) | {_cell(s['per_page_ratio'])} | "
                     f"{'yes' if s['all_exit_0'] else 'NO'} |")
    lines += ["", "Peak RSS is the crawl process's `ru_maxrss` (from `wait4`); redis is the embedded "
              "redis-server's peak RSS, polled every 0.1 s, not included. The bar is on the wall "
              "ratio; the wall per page ratio divides each median wall time by its crawl's median 200 "
              "responses first (the plain crawl also fetches URL variants and pages off the navigation).",
              "", "## Runs", "",
              "| site | # | crawl | wall s | exit | RSS polled MB | maxrss MB | redis MB | pages 200 | requests "
              "| skeleton/pages | finish reason | load |",
              "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|"]
    for name, s in out["sites"].items():
        for r in s["runs"]:
            lines.append(f"| {name} | {r['repeat']} | {r['crawl']} | " + " | ".join(_cell(r[k]) for k in (
                "wall_s", "exit_code", "rss_peak_mb", "maxrss_mb", "redis_rss_peak_mb", "pages_200", "requests",
                "skeleton_pages", "finish_reason", "load_1min")) + " |")
    return "\n".join(lines) + "\n"


def compile_bytecode() -> None:
    """The project's modules and the plain spider as ``__pycache__`` bytecode (what
    Python writes on a first run unless ``PYTHONDONTWRITEBYTECODE`` is set)."""
    compileall.compile_dir(ROOT / "skeleton", quiet=1)
    compileall.compile_file(PLAIN_SPIDER, quiet=1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sites", nargs="+", default=SITES, help="corpus sites or tests/sites fixtures")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each crawl per site")
    ap.add_argument("--skeleton-setting", action="append", default=[], metavar="NAME=VALUE",
                    help="another -s for the skeleton crawl only")
    ap.add_argument("--skeleton-arg", action="append", default=[], metavar="NAME=VALUE",
                    help="another -a for the skeleton crawl only")
    ap.add_argument("--write", action="store_true", help=f"write {RESULTS.name} and {TABLE.name}")
    ap.add_argument("--name", default=RESULTS.stem, metavar="NAME",
                    help="with --write, write benchmarks/results/NAME.json and NAME.md instead (a "
                         "variant, e.g. lean-wisdom for --skeleton-arg analyses=wisdom)")
    ap.add_argument("--keep", action="store_true", help="keep the work folder (crawl logs, data dirs)")
    opts = ap.parse_args()
    sites = pick_sites(opts.sites)
    if not sites:
        raise SystemExit("no site to crawl")
    work = Path(tempfile.mkdtemp(prefix="skeleton-lean-"))
    compile_bytecode()
    load_before = os.getloadavg()[0]
    results = {site.name: bench_site(site, work, opts) for site in sites}
    out = {"commit": commit(), "command": shlex.join(["python", "benchmarks/lean.py", *sys.argv[1:]]),
           "settings": SHARED, "skeleton_extra": [*(f"-a {a}" for a in opts.skeleton_arg),
                                                  *(f"-s {s}" for s in opts.skeleton_setting)],
           "bar": BAR, "repeat": opts.repeat, "cpus": os.cpu_count(),
           "results": f"benchmarks/results/{opts.name}.json",
           "load_avg_1min": [round(load_before, 2), round(os.getloadavg()[0], 2)], "sites": results}
    print(markdown(out))
    if opts.write:
        write_results(out, RESULTS.with_stem(opts.name), TABLE.with_stem(opts.name), markdown)
    if opts.keep:
        print(f"work folder kept: {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
