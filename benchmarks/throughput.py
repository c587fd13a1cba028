"""Benchmark: crawl throughput with 1, 2 and 4 workers sharing one Redis.

A generated site (:mod:`benchmarks.bench_site`) is served on 127.0.0.1 (a free
port) by a threaded server adding ``--delay`` ms to every response. For each
worker count, N ``scrapy crawl skeleton`` subprocesses crawl a fresh crawl id
against one separately started redis-server, and exit by themselves when the
crawl is complete (nothing queued or leased). The site answers nothing until
every worker has opened its spider (idle workers stay open meanwhile: the
first worker's start request is leased), so start-up is not measured.

Figures per run: pages per second from the site's opening to the last new page
record; the time from the opening to the last worker's exit (adds completion
detection and shutdown), and each worker's decision to close ('Closing spider'
in its log) after the last page; Redis commands per page from INFO commandstats (before
the opening, after the last exit, minus the benchmark's own polling; commands
run inside Lua scripts count); worker CPU per page after start-up; the load
average. ``--repeat`` runs every worker count that many times, interleaved, and
reports medians.

    python benchmarks/throughput.py [--workers 1 2 4] [--delay 50] [--concurrency 4]
        [--repeat 3] [--articles 7] [-s NAME=VALUE] [--out FILE]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from benchmarks.bench_site import Shape, build_site, serve  # noqa: E402
from benchmarks.corpus import median_of  # noqa: E402

#: Worker log lines carry milliseconds, to time each worker's decision to close.
LOG_DATEFORMAT = "%Y-%m-%d %H:%M:%S"
LOG_FORMAT = "%(asctime)s.%(msecs)03d [%(name)s] %(levelname)s: %(message)s"


class Monitor:
    """Polls the crawl's keys; counts its own commands so they can be subtracted."""

    def __init__(self, client: Any, crawl: str) -> None:
        self.client = client
        self.pages = f"skeleton:{crawl}:pages"
        self.own: Counter[str] = Counter()

    def page_count(self) -> int:
        self.own["hlen"] += 1
        return int(self.client.hlen(self.pages))

    def commandstats(self) -> Counter[str]:
        self.own["info"] += 1
        stats = self.client.info("commandstats")
        return Counter({name.removeprefix("cmdstat_"): int(v["calls"])
                        for name, v in stats.items()})


def _wait_opened(logs: list[Path], procs: list[subprocess.Popen], limit: float) -> None:
    """Wait until every worker has logged 'Spider opened' (or exited)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if all(p.poll() is not None or "Spider opened" in log.read_text(errors="replace")
               for log, p in zip(logs, procs)):
            return
        time.sleep(0.1)
    raise SystemExit("workers did not start in time")


def _cpu(procs: list[subprocess.Popen]) -> float:
    """CPU seconds (user + system) the running workers have used so far."""
    import psutil

    total = 0.0
    for proc in procs:
        try:
            times = psutil.Process(proc.pid).cpu_times()
        except psutil.Error:  # exited already (a failed start): nothing to subtract
            continue
        total += times.user + times.system
    return total


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _closing(log: Path) -> float | None:
    """Wall-clock time at which the worker decided to close ('Closing spider')."""
    match = re.search(r"^(\S+ \S+) \[scrapy\.core\.engine\] INFO: Closing spider",
                      log.read_text(errors="replace"), re.M)
    if match is None:
        return None
    stamp, millis = match.group(1).rsplit(".", 1)
    return time.mktime(time.strptime(stamp, LOG_DATEFORMAT)) + int(millis) / 1000


def _scraped(log: Path) -> int | None:
    match = re.search(r"'item_scraped_count': (\d+)", log.read_text(errors="replace"))
    return int(match.group(1)) if match else None


def run(workers: int, base: str, redis_url: str, work: Path, gate: threading.Event,
        opts: argparse.Namespace) -> dict[str, Any]:
    import redis

    crawl = f"bench-throughput-{workers}w-{time.time_ns()}"
    client = redis.Redis.from_url(redis_url, socket_timeout=30)
    monitor = Monitor(client, crawl)
    env = {k: v for k, v in os.environ.items() if k != "SCRAPY_PROJECT"}
    env.update(REDIS_URL=redis_url, SCRAPY_SETTINGS_MODULE="skeleton.settings",
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")])))
    args = [sys.executable, "-m", "scrapy", "crawl", "skeleton", "-a", f"base={base}index.html",
            "-a", f"crawl={crawl}", "-s", "AUTOTHROTTLE_ENABLED=False", "-s", "DOWNLOAD_DELAY=0",
            "-s", f"CONCURRENT_REQUESTS={opts.concurrency}",
            "-s", f"CONCURRENT_REQUESTS_PER_DOMAIN={opts.concurrency}", "-s", "LOG_LEVEL=INFO",
            "-s", f"LOG_FORMAT={LOG_FORMAT}", "-s", f"LOG_DATEFORMAT={LOG_DATEFORMAT}",
            *[arg for setting in opts.set for arg in ("-s", setting)]]
    gate.clear()
    load_before = os.getloadavg()
    logs = [work / f"{crawl}-{i}.log" for i in range(workers)]
    procs = []
    for log in logs:
        with open(log, "wb") as out:
            procs.append(subprocess.Popen(args, cwd=work, env=env, stdout=out,
                                          stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL))
    _wait_opened(logs, procs, 120)
    children_before = _children_cpu()
    startup_cpu = _cpu(procs)
    before = monitor.commandstats()
    started, started_wall = time.monotonic(), time.time()
    gate.set()
    last = started
    count = previous = 0
    exits: dict[int, float] = {}
    while len(exits) < workers and time.monotonic() - started < opts.timeout:
        time.sleep(0.05)
        now = time.monotonic()
        count = monitor.page_count()
        if count != previous:
            last, previous = now, count
        for i, proc in enumerate(procs):
            if i not in exits and proc.poll() is not None:
                exits[i] = now - started
    timed_out = len(exits) < workers
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
    cpu = _children_cpu() - children_before - startup_cpu
    count = monitor.page_count()
    used = monitor.commandstats() - before - monitor.own
    total = sum(used.values())
    window = last - started
    result = {
        "workers": workers, "crawl": crawl, "pages": count,
        "all_exited_by_themselves": not timed_out,
        "window_s": round(window, 2),
        "pages_per_s": round(count / window, 1) if window > 0 else None,
        "last_exit_s": round(max(exits.values()), 2) if exits else None,
        "closing_after_last_page_s": sorted(round(t - started_wall - window, 2) for t in
                                            filter(None, map(_closing, logs))),
        "exit_after_last_page_s": sorted(round(t - window, 2) for t in exits.values()),
        "pages_per_worker": [_scraped(log) for log in logs],
        "redis_commands_per_page": round(total / count, 2) if count else None,
        "worker_cpu_ms_per_page": round(1000 * cpu / count, 1) if count else None,
        "commands_per_page": {k: round(v / count, 2) for k, v in used.most_common()
                              if v / count >= 0.01} if count else {},
        "exit_codes": [p.returncode for p in procs],
        "load_avg_1min": [round(load_before[0], 2), round(os.getloadavg()[0], 2)],
        "tree": _tree(client, crawl, base),
    }
    client.close()
    return result


def _tree(client: Any, crawl: str, base: str) -> Any:
    from skeleton.store.keys import CrawlKeys
    from skeleton.web.urls import canonical
    from skeleton.tree import build_tree

    def load(key: str) -> dict[str, Any]:
        return {k.decode(): json.loads(v) for k, v in client.hgetall(key).items()}
    keys = CrawlKeys(crawl)
    tree = build_tree(canonical(f"{base}index.html"), load(keys.pages), load(keys.edges))
    if tree is None:
        raise SystemExit(f"no tree for crawl {crawl}: the comparison of trees would be empty")
    return tree


def summarize(results: list[dict[str, Any]], opts: argparse.Namespace,
              site_pages: int) -> dict[str, Any]:
    reference = results[0].pop("tree")
    for result in results[1:]:
        result["same_tree_as_first_run"] = result.pop("tree") == reference
    keys = ("pages_per_s", "last_exit_s", "redis_commands_per_page", "worker_cpu_ms_per_page")
    medians = {w: {k: median_of([r for r in results if r["workers"] == w], k) for k in keys}
               for w in opts.workers}
    one = medians[opts.workers[0]]["pages_per_s"]
    for row in medians.values():
        row["speedup"] = round(row["pages_per_s"] / one, 2) if one and row["pages_per_s"] else None
    return {"site_pages": site_pages, "shape": vars(Shape(opts.sections, opts.categories,
                                                          opts.articles)),
            "delay_ms": opts.delay, "concurrency": opts.concurrency, "repeat": opts.repeat,
            "settings": opts.set,
            "cpus": os.cpu_count(), "median": medians, "runs": results}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--delay", type=float, default=50.0, help="response delay in ms")
    parser.add_argument("--concurrency", type=int, default=4, help="CONCURRENT_REQUESTS per worker")
    parser.add_argument("--repeat", type=int, default=1, help="runs per worker count")
    parser.add_argument("--sections", type=int, default=6)
    parser.add_argument("--categories", type=int, default=7)
    parser.add_argument("--articles", type=int, default=7)
    parser.add_argument("--timeout", type=float, default=600.0, help="limit per run, seconds")
    parser.add_argument("-s", "--set", action="append", default=[], metavar="NAME=VALUE",
                        help="another Scrapy setting for the workers")
    parser.add_argument("--out", help="write the results as JSON to this file")
    opts = parser.parse_args()
    from services import redis_server

    pages = build_site(Shape(opts.sections, opts.categories, opts.articles))
    gate = threading.Event()
    httpd = serve(pages, opts.delay / 1000.0, gate)
    base = f"http://127.0.0.1:{httpd.server_port}/"
    results = []
    with tempfile.TemporaryDirectory(prefix="skeleton-throughput-") as tmp, \
            redis_server(Path(tmp) / "redis") as redis_url:
        for _ in range(opts.repeat):
            for workers in opts.workers:
                r = run(workers, base, redis_url, Path(tmp), gate, opts)
                results.append(r)
                print(f"{workers} worker(s): {r['pages']} pages, {r['pages_per_s']} pages/s over "
                      f"{r['window_s']} s, all exited at {r['last_exit_s']} s, per worker "
                      f"{r['pages_per_worker']}, {r['redis_commands_per_page']} Redis "
                      f"commands/page, {r['worker_cpu_ms_per_page']} ms worker CPU/page, "
                      f"load {r['load_avg_1min']}", flush=True)
    httpd.shutdown()
    summary = summarize(results, opts, len(pages))
    print(json.dumps(summary["median"], indent=1))
    if opts.out:
        Path(opts.out).write_text(json.dumps(summary, indent=1) + "\n", "utf-8")


if __name__ == "__main__":
    main()
