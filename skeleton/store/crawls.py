"""The crawls recorded in one Redis: what each is, how big, and deleting one.

Used by ``scrapy crawls``. A crawl's keys are found by ``SCAN`` with its key pattern
(:attr:`skeleton.store.keys.CrawlKeys.pattern`), so every key of the crawl counts
and goes, whatever component wrote it.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from skeleton.store.keys import CRAWLS, CrawlKeys
from skeleton.store.liveness import workers_alive

__all__ = ["CrawlInfo", "crawl_info", "recorded_crawls", "crawl_keys_of", "delete_crawl", "SCAN_COUNT"]

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
    meta = {_text(k): _text(v) for k, v in server.hgetall(keys.meta).items()}
    alive = workers_alive(server, keys, lease_seconds)
    reason = meta.get("finish_reason", "")
    state = ("running" if alive else "finished" if reason == "finished"
             else f"stopped ({reason})" if reason else "interrupted")
    size = sum(int(server.memory_usage(key) or 0) for key in crawl_keys_of(server, crawl))
    return CrawlInfo(crawl=crawl, base=meta.get("base", ""), state=state, pages=int(server.hlen(keys.pages)),
                     started=meta.get("started", ""), finished=meta.get("finished", ""),
                     resumed=meta.get("resumed", ""), workers=alive, bytes=size)


def recorded_crawls(server: Any, lease_seconds: float) -> list[CrawlInfo]:
    """Every recorded crawl, most recently started or resumed first."""
    infos = [crawl_info(server, _text(crawl), lease_seconds) for crawl in server.smembers(CRAWLS)]
    return sorted(infos, key=lambda info: (max(info.started, info.resumed), info.crawl), reverse=True)


def delete_crawl(server: Any, crawl: str) -> int:
    """Delete every key of ``crawl`` and forget its id; returns the keys deleted."""
    keys = crawl_keys_of(server, crawl)
    deleted = 0
    for start in range(0, len(keys), SCAN_COUNT):
        deleted += int(server.delete(*keys[start:start + SCAN_COUNT]))
    server.srem(CRAWLS, crawl)
    return deleted
