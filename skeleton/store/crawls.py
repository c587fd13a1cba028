"""The crawls recorded in one Redis: what each is, how big, and deleting one.

Used by ``scrapy crawls``. A crawl's keys are found by ``SCAN`` with its key pattern
(:attr:`skeleton.store.keys.CrawlKeys.pattern`), so every key of the crawl counts
and goes, whatever component wrote it.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from skeleton.store.keys import (CRAWLS, META_BASE, META_FINISH_REASON, META_FINISHED, META_RESUMED, META_STARTED,
                                 CrawlKeys)
from skeleton.store.meta import FINISHED, crawl_ids, read_meta
from skeleton.store.liveness import workers_alive

__all__ = ["CrawlInfo", "crawl_info", "crawl_counts", "queue_counts", "recorded_crawls", "crawl_keys_of",
           "delete_crawl", "SCAN_COUNT"]

SCAN_COUNT = 1000


def _text(value: Any) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value or "")


@dataclass(frozen=True)
class CrawlInfo:
    """One recorded crawl: ``state`` is ``running`` (a worker is alive),
    ``finished`` (with its reason when not ``finished``) or ``interrupted``."""

    crawl: str
    base: str
    state: str
    pages: int
    started: str
    finished: str
    #: when a run last resumed the crawl ("" if none did since it started)
    resumed: str
    workers: int
    bytes: int

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def crawl_keys_of(server: Any, crawl: str) -> list[str]:
    """Every key of ``crawl`` in Redis."""
    return sorted(_text(key) for key in server.scan_iter(match=CrawlKeys(crawl).pattern, count=SCAN_COUNT))


def crawl_info(server: Any, crawl: str, lease_seconds: float) -> CrawlInfo:
    """What ``crawl`` is, read from its ``:meta``, ``:pages`` and ``:workers``; its size
    is the sum of ``MEMORY USAGE`` of its keys."""
    keys = CrawlKeys(crawl)
    meta = read_meta(server, keys)
    alive = workers_alive(server, keys, lease_seconds)
    reason = meta.get(META_FINISH_REASON, "")
    state = ("running" if alive else "finished" if reason == FINISHED
             else f"stopped ({reason})" if reason else "interrupted")
    size = sum(int(server.memory_usage(key) or 0) for key in crawl_keys_of(server, crawl))
    return CrawlInfo(crawl=crawl, base=meta.get(META_BASE, ""), state=state, pages=int(server.hlen(keys.pages)),
                     started=meta.get(META_STARTED, ""), finished=meta.get(META_FINISHED, ""),
                     resumed=meta.get(META_RESUMED, ""), workers=alive, bytes=size)


def queue_counts(server: Any, keys: CrawlKeys) -> tuple[int, int]:
    """The requests queued and those leased (in flight), one round trip."""
    pipe = server.pipeline(transaction=False)
    pipe.llen(keys.requests)
    pipe.hlen(keys.inflight)
    queued, in_flight = pipe.execute()
    return int(queued), int(in_flight)


def crawl_counts(server: Any, keys: CrawlKeys) -> dict[str, Any]:
    """What the crawl holds, read at once: ``pages`` (recorded), ``queued``,
    ``in_flight`` (leased), ``offered`` (children with offers), ``dupefilter``
    (``set``, ``bloom`` or ``empty``) and its ``dupefilter_size`` (fingerprints, or
    bytes of the Bloom filter), ``dead_kept`` (dead letters kept), ``failed`` (the
    status of each failed page, as text) and ``offsite`` (pages redirecting offsite)."""
    pipe = server.pipeline(transaction=False)
    pipe.hlen(keys.pages).llen(keys.requests).zcard(keys.leases).hlen(keys.offers)
    pipe.type(keys.dupefilter).llen(keys.dead).hvals(keys.failed).hlen(keys.offsite)
    pages, queued, in_flight, offered, df_type, dead_kept, failed, offsite = pipe.execute()
    kind = {"set": "set", "string": "bloom"}.get(_text(df_type), "empty")
    size = (int(server.scard(keys.dupefilter)) if kind == "set"
            else int(server.strlen(keys.dupefilter)) if kind == "bloom" else 0)
    return {"pages": int(pages), "queued": int(queued), "in_flight": int(in_flight), "offered": int(offered),
            "dupefilter": kind, "dupefilter_size": size, "dead_kept": int(dead_kept),
            "failed": [_text(status) for status in failed], "offsite": int(offsite)}


def recorded_crawls(server: Any, lease_seconds: float) -> list[CrawlInfo]:
    """Every recorded crawl, most recently started or resumed first."""
    infos = [crawl_info(server, crawl, lease_seconds) for crawl in crawl_ids(server)]
    return sorted(infos, key=lambda info: (max(info.started, info.resumed), info.crawl), reverse=True)


def delete_crawl(server: Any, crawl: str) -> int:
    """Delete every key of ``crawl`` and forget its id; returns the keys deleted."""
    keys = crawl_keys_of(server, crawl)
    deleted = 0
    for start in range(0, len(keys), SCAN_COUNT):
        deleted += int(server.delete(*keys[start:start + SCAN_COUNT]))
    server.srem(CRAWLS, crawl)
    return deleted
