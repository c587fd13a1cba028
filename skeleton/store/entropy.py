"""The crawl's term entropy read from Redis (WISDOM Section 3.1).

:mod:`skeleton.middlewares.entropy` counts every page's terms into the ``:entropy``
buckets (term -> sufficient statistics, :func:`skeleton.store.keys.entropy_bucket`)
and ``:entropy_pages`` (the pages counted); any
component reads them here, given only the Redis client and the crawl's keys:
:func:`term_weights` gives W = 1 - EN of each term over the pages counted so far
(1 for a term not seen), :func:`term_entropies` EN (0 for a term not seen). Both
read n and the terms' statistics in one transaction (:func:`snapshot`).
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from skeleton.entropy.statistics import EMPTY, TermStats, decode, entropy, weight
from skeleton.store.keys import entropy_bucket

if TYPE_CHECKING:
    import redis

    from skeleton.store.keys import CrawlKeys

__all__ = ["snapshot", "term_weights", "term_entropies"]


def snapshot(server: redis.Redis, keys: CrawlKeys,
             terms: Iterable[str]) -> tuple[int, dict[str, TermStats]]:
    """n and the statistics of ``terms`` (unseen terms: empty), read atomically."""
    wanted = list(dict.fromkeys(terms))
    if not wanted:
        return int(server.scard(keys.entropy_pages)), {}
    buckets: dict[int, list[str]] = {}
    for term in wanted:
        buckets.setdefault(entropy_bucket(term), []).append(term)
    pipe = server.pipeline(transaction=True)
    pipe.scard(keys.entropy_pages)
    for bucket, names in buckets.items():
        pipe.hmget(keys.entropy_bucket(bucket), names)
    n, *replies = pipe.execute()
    stats = {t: decode(v) or EMPTY for names, values in zip(buckets.values(), replies)
             for t, v in zip(names, values)}
    return int(n), {t: stats[t] for t in wanted}


def term_weights(server: redis.Redis, keys: CrawlKeys, terms: Iterable[str]) -> dict[str, float]:
    """W = 1 - EN of each term over the pages counted so far (1 for unseen terms)."""
    n, stats = snapshot(server, keys, terms)
    return {term: weight(s, n) for term, s in stats.items()}


def term_entropies(server: redis.Redis, keys: CrawlKeys, terms: Iterable[str]) -> dict[str, float]:
    """EN of each term over the pages counted so far (0 for unseen terms)."""
    n, stats = snapshot(server, keys, terms)
    return {term: entropy(s, n) for term, s in stats.items()}
