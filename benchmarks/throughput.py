"""Benchmark: crawl throughput with 1, 2 and 4 workers sharing one Redis.

A generated site (home -> sections -> categories -> articles, every page with a
top menu) is served on 127.0.0.1 (a free port) by a threaded server adding
``--delay`` ms to every response. For each worker count, N ``scrapy crawl
skeleton`` subprocesses crawl a fresh crawl id against one separately started
redis-server. The site stays closed until every worker has opened its spider
(``benchmarks/keepalive.py`` keeps idle workers open meanwhile), so
pages per second are measured from the opening to the last new page record,
without process start-up; by default idle workers stay open until the
benchmark stops them (``--grace 0`` lets them close when idle). Redis commands per page come from INFO commandstats
(minus the benchmark's own polling). Workers are stopped with SIGINT once no
page has been added for ``--settle`` seconds and the queue is empty, unless they
have all exited by themselves.

    python benchmarks/throughput.py [--workers 1 2 4] [--delay 50] [--concurrency 2]
"""
from __future__ import annotations

import argparse
import http.server
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SECTIONS, CATEGORIES, ARTICLES = 6, 7, 7
WORDS = ("river garden market bicycle library harbour festival museum school bakery "
         "theatre orchard bridge station meadow workshop").split()


def _title(*numbers: int) -> str:
    words = [WORDS[(sum(numbers) * 7 + i * 3 + n) % len(WORDS)] for i, n in enumerate(numbers * 3)]
    return " ".join(["The", *words[:7], "story", "-".join(map(str, numbers))]).capitalize()


def _page(title: str, prefix: str, items: list[tuple[str, str]]) -> str:
    menu = "".join(f'<li><a href="{prefix}s{s}/index.html">Section {s}</a></li>'
                   for s in range(SECTIONS))
    listing = "".join(f'<li><a href="{href}">{text}</a><br><span class="date">2024</span></li>'
                      for href, text in items)
    body = ("Our town's neighbours write about everyday life, small events and practical "
            "matters, every week. ") * 4
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>'
            f'</head><body><nav><ul class="menu"><li><a href="{prefix}index.html">Home</a></li>'
            f'{menu}</ul></nav><div id="content"><h1>{title}</h1><p>{body}</p>'
            f'<ul class="articles">{listing}</ul></div><footer><p><a href="{prefix}about.html">'
            f"About</a></p></footer></body></html>")


def build_site() -> dict[str, bytes]:
    """Path -> HTML of the generated site (1 + 6 + 42 + 294 pages + about)."""
    pages = {"/about.html": _page("About", "", [])}
    pages["/index.html"] = _page("Home", "", [])
    for s in range(SECTIONS):
        cats = [(f"c{c}/index.html", _title(s, c)) for c in range(CATEGORIES)]
        pages[f"/s{s}/index.html"] = _page(f"Section {s}", "../", cats)
        for c in range(CATEGORIES):
            arts = [(f"a{a}.html", _title(s, c, a)) for a in range(ARTICLES)]
            pages[f"/s{s}/c{c}/index.html"] = _page(_title(s, c), "../../", arts)
            for a in range(ARTICLES):
                pages[f"/s{s}/c{c}/a{a}.html"] = _page(_title(s, c, a), "../../", [])
    return {path: html.encode() for path, html in pages.items()}


def serve(pages: dict[str, bytes], delay: float,
          gate: threading.Event) -> http.server.ThreadingHTTPServer:
    """The site on 127.0.0.1 (a free port); requests wait for ``gate``, then ``delay`` s."""
    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            gate.wait(timeout=300)
            time.sleep(delay)
            body = pages.get(self.path.split("?")[0])
            if body is None:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    httpd.request_queue_size = 128
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


class Monitor:
    """Polls the crawl's keys; counts its own commands so they can be subtracted."""

    def __init__(self, client: Any, crawl: str) -> None:
        self.client = client
        self.pages, self.queue = f"skeleton:{crawl}:pages", f"skeleton:{crawl}:requests"
        self.own: Counter[str] = Counter()

    def queued(self) -> int:
        kind = self.client.type(self.queue)
        self.own["type"] += 1
        kind = kind.decode() if isinstance(kind, bytes) else kind
        command = {"list": "llen", "zset": "zcard", "set": "scard", "hash": "hlen"}.get(kind)
        if command is None:
            return 0
        self.own[command] += 1
        return int(getattr(self.client, command)(self.queue))

    def page_count(self) -> int:
        self.own["hlen"] += 1
        return int(self.client.hlen(self.pages))

    def commandstats(self) -> Counter[str]:
        self.own["info"] += 1
        stats = self.client.info("commandstats")
        return Counter({name.removeprefix("cmdstat_"): int(v["calls"]) for name, v in stats.items()})


def _wait_opened(logs: list[Path], procs: list[subprocess.Popen], limit: float) -> None:
    """Wait until every worker has logged 'Spider opened' (or exited)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        opened = [p.poll() is not None or "Spider opened" in log.read_text(errors="replace")
                  for log, p in zip(logs, procs)]
        if all(opened):
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
            total += times.user + times.system
        except psutil.NoSuchProcess:
            pass
    return total


def _scraped(log: Path) -> int | None:
    match = re.search(r"'item_scraped_count': (\d+)", log.read_text(errors="replace"))
    return int(match.group(1)) if match else None


def run(workers: int, base: str, redis_url: str, work: Path, gate: threading.Event,
        opts: argparse.Namespace) -> dict[str, Any]:
    import redis

    crawl = f"bench-throughput-{workers}w-{int(time.time())}"
    client = redis.Redis.from_url(redis_url, socket_timeout=30)
    monitor = Monitor(client, crawl)
    gate_file = work / f"{crawl}.gate"
    env = {k: v for k, v in os.environ.items() if k not in ("SCRAPY_PROJECT",)}
    env.update(REDIS_URL=redis_url, SCRAPY_SETTINGS_MODULE="skeleton.settings",
               BENCH_GATE=str(gate_file),
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")])))
    args = [sys.executable, "-m", "scrapy", "crawl", "skeleton", "-a", f"base={base}index.html",
            "-a", f"crawl={crawl}", "-s", "AUTOTHROTTLE_ENABLED=False", "-s", "DOWNLOAD_DELAY=0",
            "-s", f"CONCURRENT_REQUESTS={opts.concurrency}",
            "-s", f"CONCURRENT_REQUESTS_PER_DOMAIN={opts.concurrency}", "-s", "LOG_LEVEL=INFO",
            "-s", "EXTENSIONS=" + json.dumps({"benchmarks.keepalive.StartupGrace": 500}),
            "-s", f"STARTUP_GRACE={opts.grace}", "-s", f"ENGINE_HEARTBEAT={opts.heartbeat}"]
    gate.clear()
    logs = [work / f"{crawl}-{i}.log" for i in range(workers)]
    procs = []
    for log in logs:
        with open(log, "wb") as out:
            procs.append(subprocess.Popen(args, cwd=work, env=env, stdout=out,
                                          stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL))
    _wait_opened(logs, procs, 120)
    cpu_before = _cpu(procs)
    before = monitor.commandstats()
    started = time.monotonic()
    gate_file.touch()
    gate.set()
    last = started
    count = previous = 0
    stopped_by = "exited by themselves"
    while any(p.poll() is None for p in procs):
        time.sleep(0.05)
        now = time.monotonic()
        count = monitor.page_count()
        if count != previous:
            last, previous = now, count
        if count and now - last > opts.settle and monitor.queued() == 0:
            stopped_by = "stopped by the benchmark (no new page, empty queue)"
            break
        if now - started > opts.timeout:
            stopped_by = "stopped by the benchmark (timeout)"
            break
    cpu = _cpu(procs) - cpu_before
    for proc in procs:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
    for proc in procs:
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    count = monitor.page_count()
    after = monitor.commandstats()
    used = after - before - monitor.own
    total = sum(used.values())
    window = last - started
    result = {
        "workers": workers, "crawl": crawl, "pages": count, "stopped": stopped_by,
        "window_s": round(window, 2),
        "pages_per_s": round(count / window, 1) if window > 0 else None,
        "pages_per_worker": [_scraped(log) for log in logs],
        "redis_commands_per_page": round(total / count, 1) if count else None,
        "worker_cpu_ms_per_page": round(1000 * cpu / count, 1) if count else None,
        "top_commands_per_page": {k: round(v / count, 2) for k, v in used.most_common(8)}
        if count else {},
        "exit_codes": [p.returncode for p in procs],
        "tree": _tree(client, crawl, base),
    }
    client.close()
    return result


def _tree(client: Any, crawl: str, base: str) -> Any:
    from skeleton.tree import build_tree

    def load(key: str) -> dict[str, Any]:
        return {k.decode(): json.loads(v) for k, v in client.hgetall(key).items()}
    return build_tree(f"{base}index.html", load(f"skeleton:{crawl}:pages"),
                      load(f"skeleton:{crawl}:edges"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--delay", type=float, default=50.0, help="response delay in ms")
    parser.add_argument("--concurrency", type=int, default=8, help="CONCURRENT_REQUESTS per worker")
    parser.add_argument("--settle", type=float, default=3.0,
                        help="seconds without a new page (and an empty queue) before stopping")
    parser.add_argument("--grace", type=float, default=-1.0,
                        help="keep idle workers open this long after the start (-1: until "
                             "stopped by the benchmark; 0: workers close when idle)")
    parser.add_argument("--heartbeat", type=float, default=0.2,
                        help="Scrapy engine heartbeat of the workers, s (0: Scrapy's 5 s)")
    parser.add_argument("--timeout", type=float, default=600.0, help="limit per run, seconds")
    parser.add_argument("--out", help="write the results as JSON to this file")
    opts = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "tests"))
    from services import redis_server

    pages = build_site()
    gate = threading.Event()
    httpd = serve(pages, opts.delay / 1000.0, gate)
    base = f"http://127.0.0.1:{httpd.server_port}/"
    results = []
    with tempfile.TemporaryDirectory(prefix="skeleton-throughput-") as tmp, \
            redis_server(Path(tmp) / "redis") as redis_url:
        for workers in opts.workers:
            result = run(workers, base, redis_url, Path(tmp), gate, opts)
            results.append(result)
            print(f"{workers} worker(s): {result['pages']} pages, {result['pages_per_s']} pages/s "
                  f"over {result['window_s']} s, per worker {result['pages_per_worker']}, "
                  f"{result['redis_commands_per_page']} Redis commands/page, "
                  f"{result['worker_cpu_ms_per_page']} ms worker CPU/page; {result['stopped']}",
                  flush=True)
    httpd.shutdown()
    reference = results[0]["tree"]
    for result in results:
        result["same_tree_as_first_run"] = result.pop("tree") == reference
    one = results[0]["pages_per_s"]
    summary = {"site_pages": len(pages), "delay_ms": opts.delay, "concurrency": opts.concurrency,
               "cpus": os.cpu_count(), "runs": results,
               "speedup": {r["workers"]: round(r["pages_per_s"] / one, 2)
                           for r in results if one and r["pages_per_s"]}}
    print(json.dumps(summary, indent=1))
    if opts.out:
        Path(opts.out).write_text(json.dumps(summary, indent=1) + "\n", "utf-8")


if __name__ == "__main__":
    main()
