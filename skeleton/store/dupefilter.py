"""The crawl's dupefilters: a set of raw fingerprints (the default), or a
bounded-memory Bloom filter in one Redis string (``SETBIT``).

:class:`SetDupeFilter` (``DUPEFILTER_CLASS = "skeleton.store.dupefilter.SetDupeFilter"``,
the default) keeps every request fingerprint in the crawl's ``:dupefilter`` set, as the
20 bytes of its SHA-1 rather than scrapy-redis' 40 hex characters (about 70 bytes of
Redis memory per URL instead of about 100, ``benchmarks/redis_cost.py``). scrapy-redis'
own ``RFPDupeFilter`` (hex members) still works, for crawls started with it.

With ``DUPEFILTER_CLASS = "skeleton.store.dupefilter.BloomDupeFilter"`` the crawl's
``:dupefilter`` key is a bit array of fixed size instead, chosen from
``SKELETON_BLOOM_CAPACITY`` (URLs, default 10 million) and
``SKELETON_BLOOM_ERROR_RATE`` (default 0.001): m = -n ln p / (ln 2)^2 bits and k =
(m / n) ln 2 bit positions per URL, derived by double hashing from the fingerprint's
SHA-1. Defaults: 18.1 MiB (measured, ``benchmarks/dupefilter_memory.py``) and k = 10,
whatever the number of URLs. Up to the capacity, a new URL is taken for a seen
one (and not crawled) with probability at most the error rate; beyond it the
rate grows. A Bloom filter never forgets a URL it saw. The test-and-set of the
bits (or the set's SADD) and the push of the request are one script
(:data:`skeleton.store.lease_scripts.PUSH_MANY`).

The choice is made per crawl id: a crawl started with one dupefilter must be
resumed with the same one (a set and a Bloom filter refuse each other at start;
the set's members of :class:`SetDupeFilter` and scrapy-redis' ``RFPDupeFilter`` are
told apart by nobody: do not switch between those two mid-crawl).
"""
from __future__ import annotations

import hashlib
import math
from typing import TYPE_CHECKING, Any, Self

from scrapy_redis.dupefilter import RFPDupeFilter

if TYPE_CHECKING:
    import redis
    from scrapy import Request

__all__ = ["SetDupeFilter", "BloomDupeFilter", "bloom_size"]

#: Redis strings hold at most 512 MiB.
MAX_BITS = 2**32


def bloom_size(capacity: int, error_rate: float) -> tuple[int, int]:
    """Bits ``m`` and hash count ``k`` for ``capacity`` items at ``error_rate``."""
    if capacity < 1 or not 0 < error_rate < 1:
        raise ValueError("SKELETON_BLOOM_CAPACITY must be >= 1 and "
                         "SKELETON_BLOOM_ERROR_RATE between 0 and 1")
    bits = math.ceil(-capacity * math.log(error_rate) / math.log(2) ** 2)
    if bits > MAX_BITS:
        raise ValueError(f"a Bloom filter for {capacity} URLs at {error_rate} needs {bits} bits,"
                         f" more than a Redis string holds ({MAX_BITS})")
    return bits, max(1, round(bits / capacity * math.log(2)))


def _refuse_other_kind(server: redis.Redis, key: str, kinds: tuple[str, ...]) -> None:
    kind = server.type(key)
    kind = kind.decode() if isinstance(kind, bytes) else kind
    if kind not in ("none", *kinds):
        raise ValueError(f"{key} holds a {kind!r}: this crawl was started with another "
                         "dupefilter; resume it with that one or use a new crawl id")


class SetDupeFilter(RFPDupeFilter):
    """scrapy-redis' fingerprints (SHA-1), remembered in a set as 20 raw bytes each."""

    def __init__(self, server: redis.Redis, key: str, debug: bool = False) -> None:
        super().__init__(server, key, debug)
        _refuse_other_kind(server, key, ("set",))

    @classmethod
    def with_server(cls, server: redis.Redis, key: str, settings: Any) -> Self:
        return cls(server, key, debug=settings.getbool("DUPEFILTER_DEBUG"))

    def member(self, request: Request) -> bytes:
        """The set member of ``request``: the bytes of its hex fingerprint."""
        return bytes.fromhex(self.request_fingerprint(request))

    def dupe_args(self, request: Request) -> list[str | bytes]:
        """Arguments of :data:`skeleton.store.lease_scripts.PUSH_MANY` for this request."""
        return ["set", self.member(request)]

    def request_seen(self, request: Request) -> bool:
        """For use outside the scheduler (not atomic with a push)."""
        return self.server.sadd(self.key, self.member(request)) == 0


class BloomDupeFilter(RFPDupeFilter):
    """scrapy-redis' fingerprints, remembered in a Bloom filter."""

    def __init__(self, server: redis.Redis, key: str, debug: bool = False,
                 capacity: int = 10_000_000, error_rate: float = 0.001) -> None:
        super().__init__(server, key, debug)
        self.bits, self.hashes = bloom_size(capacity, error_rate)
        _refuse_other_kind(server, key, ("string",))

    @classmethod
    def with_server(cls, server: redis.Redis, key: str, settings: Any) -> Self:
        return cls(server, key, debug=settings.getbool("DUPEFILTER_DEBUG"),
                   capacity=settings.getint("SKELETON_BLOOM_CAPACITY", 10_000_000),
                   error_rate=settings.getfloat("SKELETON_BLOOM_ERROR_RATE", 0.001))

    def offsets(self, fingerprint: str) -> list[int]:
        digest = hashlib.sha1(fingerprint.encode("ascii")).digest()
        first = int.from_bytes(digest[:8], "big")
        step = int.from_bytes(digest[8:16], "big") | 1
        return [(first + i * step) % self.bits for i in range(self.hashes)]

    def dupe_args(self, request: Request) -> list[str | int]:
        """Arguments of :data:`skeleton.store.lease_scripts.PUSH_MANY` for this request."""
        return ["bits", *self.offsets(self.request_fingerprint(request))]

    def request_seen(self, request: Request) -> bool:
        """For use outside the scheduler (not atomic with a push)."""
        pipe = self.server.pipeline()
        for offset in self.offsets(self.request_fingerprint(request)):
            pipe.setbit(self.key, offset, 1)
        return all(pipe.execute())
