"""Term entropy of the crawl as pages arrive (WISDOM Section 3.1), kept in Redis.

``EntropyMiddleware`` is a spider middleware: before the spider sees an HTML
response (2xx, HTML or no content type, parsable), it extracts the page's terms
(:mod:`skeleton.entropy.terms`) and counts the page with :data:`UPDATE_SCRIPT`,
one Lua script per page, hence atomic. Without WISDOM (which reads the page's
weights at once) the pages wait and are counted in one round trip, a pipeline of
their scripts, when the scheduler is about to acknowledge their leases
(``flush_requested``, every ``SKELETON_FLUSH_INTERVAL`` or batch of pages) and at
close: a page is counted before its lease ends, so a worker that dies loses no
count (the page is fetched again and counted then). The update is:

* idempotent: the page's canonical URL (the final URL of a redirect chain, as
  the spider records it) goes into ``:entropy_pages``; a URL already there changes
  nothing (a retry, a second worker, a resumed crawl);
* cost proportional to the page's distinct terms: each term's sufficient
  statistics (S, df, G) (:mod:`skeleton.entropy.statistics`) in ``:entropy``
  are updated in place (one HMGET and one HSET per ``SCRIPT_CHUNK`` terms);
  terms absent from the page are not touched, and n (the number of pages) is
  ``SCARD :entropy_pages``, read when entropies are read;
* order independent: the statistics of a set of pages do not depend on the
  order in which workers add them, so EN read at any time equals the batch
  computation over the pages counted so far.

With ``SKELETON_KEEP_PAGE_TERMS`` (default: on when the crawl runs the ``wisdom``
analysis, :mod:`skeleton.analyses`) the page's term counts are also kept in
``:page_terms`` (zlib-compressed JSON) for WISDOM's second pass.

Reading: any component reads W = 1 - EN of terms from Redis with the pages counted
so far (:func:`skeleton.store.entropy.term_weights`, given the crawl's keys).
The update script also returns W of the page's own terms: the middleware leaves
them on the response's shared page (:mod:`skeleton.middlewares.shared`,
``SharedPage.weights``), where WISDOM reads them without another round trip.

One parse per page: the tree and the page's text pass (terms per text piece, from
which the page's counts are summed) are shared with WISDOM and the spider through
``response.meta["skeleton_page"]`` (:func:`skeleton.middlewares.shared.shared_page`).
With ``SKELETON_WISDOM_ENABLED = False`` the middleware counts the page's plain
text instead (:func:`skeleton.entropy.terms.page_terms`, the same counts, cheaper
than WISDOM's per-node pass).

Settings: ``SKELETON_ENTROPY_ENABLED`` (default True), ``SKELETON_ENTROPY_LANGUAGE``
(stop words, default ``en``), ``SKELETON_ENTROPY_STOP_WORDS`` (a list that replaces
the language's), ``SKELETON_ENTROPY_MAX_TERMS`` (distinct terms kept per page),
``SKELETON_KEEP_PAGE_TERMS``.

A Redis error is logged and counted (``skeleton/entropy/errors``); any other error
of the analysis is counted there and per type, logged once per type
(:func:`skeleton.middlewares.shared.analysis_failed`): the page goes on uncounted.
"""
from __future__ import annotations

import json
import logging
import struct
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Self

import redis
from scrapy import signals
from scrapy.exceptions import NotConfigured

from skeleton.store import outage
from skeleton.analyses import enabled as analysis_enabled
from skeleton.entropy.statistics import TermStats, decode
from skeleton.entropy.terms import (DEFAULT_LANGUAGE, MAX_PAGE_TERMS, pack_counts, page_terms,
                                    stop_words, unpack_counts)
from skeleton.middlewares.shared import (analysis_failed, crawl_keys, html_response, page_text,
                                        shared_page)
from skeleton.store.entropy import snapshot, term_entropies, term_weights
from skeleton.store.keys import CrawlKeys
from skeleton.store.scheduler import flush_requested
from skeleton.store.server import connect
from skeleton.sew.urls import canonical

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response

__all__ = ["EntropyMiddleware", "EntropyStore", "UPDATE_SCRIPT", "STATS_PREFIX",
           "configured_stop_words"]

logger = logging.getLogger(__name__)

STATS_PREFIX = "skeleton/entropy"
SCAN_COUNT = 1000
#: Pages counted in one batch at most (they are counted when the scheduler writes
#: its acknowledgements, see :data:`skeleton.store.scheduler.flush_requested`).
MAX_WAITING = 64
#: Terms per HMGET/HSET inside the update script.
SCRIPT_CHUNK = 1000

#: KEYS: entropy (hash term -> statistics), entropy_pages (set), page_terms (hash).
#: ARGV: page URL, packed term counts ('' = do not keep), the page's terms and their
#: counts as two JSON arrays, and the chunk size (one HMGET and one HSET per chunk:
#: Lua's unpack() takes a few thousand values at most). Statistics are stored in the
#: binary form of skeleton.entropy.statistics.encode (no number formatting in Lua);
#: the text form "S df G" is still read. Returns {1 if counted now (0: counted
#: before), W = 1 - EN of the page's terms, this page included, as little-endian
#: doubles in one string}: no second round trip, nothing formatted or truncated.
#: G' = G + S log1p(t/S) + t log1p(S/t); EN = G / (S ln n) (skeleton.entropy.statistics).
UPDATE_SCRIPT = """
local counted = redis.call('SADD', KEYS[2], ARGV[1])
if counted == 1 and ARGV[2] ~= '' then redis.call('HSET', KEYS[3], ARGV[1], ARGV[2]) end
local n = redis.call('SCARD', KEYS[2])
local log, byte, unpackd, packd = math.log, string.byte, struct.unpack, struct.pack
local logn = log(n)
local terms, tfs = cjson.decode(ARGV[3]), cjson.decode(ARGV[4])
local packed = {}
local chunk = tonumber(ARGV[5])
for first = 1, #terms, chunk do
  local last = math.min(first + chunk - 1, #terms)
  local olds = redis.call('HMGET', KEYS[1], unpack(terms, first, last))
  local out, weights, o, w = {}, {}, 0, 0
  for i = first, last do
    local tf, s, df, g = tfs[i], 0, 0, 0
    local old = olds[i - first + 1]
    if old then
      if byte(old, 1) == 0 and #old == 25 then
        s, df, g = unpackd('<ddd', old, 2)
      else
        local a, b, c = string.match(old, '^(%S+) (%S+) (%S+)$')
        s, df, g = tonumber(a) or 0, tonumber(b) or 0, tonumber(c) or 0
      end
    end
    if counted == 1 then
      if s > 0 then
        -- log1p(x) = x if 1 + x == 1, else log(1 + x) * x / ((1 + x) - 1); inlined
        local x, y = tf / s, s / tf
        local u, v = 1 + x, 1 + y
        if u ~= 1 then x = log(u) * x / (u - 1) end
        if v ~= 1 then y = log(v) * y / (v - 1) end
        g = g + s * x + tf * y
      else g = 0 end
      s, df = s + tf, df + 1
      out[o + 1] = terms[i]
      out[o + 2] = packd('<Bddd', 0, s, df, g)
      o = o + 2
    end
    local en = 0
    if n > 1 and s > 0 and df > 1 and g > 0 then
      en = g / (s * logn)
      if en > 1 then en = 1 elseif not (en >= 0) then en = 0 end
    end
    w = w + 1
    weights[w] = 1 - en
  end
  if o > 0 then redis.call('HSET', KEYS[1], unpack(out)) end
  packed[#packed + 1] = struct.pack('<' .. string.rep('d', w), unpack(weights))
end
return {counted, table.concat(packed)}
"""


def _text(value: bytes | str) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else value


class EntropyStore:
    """One crawl's term statistics in Redis: update a page, read entropies."""

    def __init__(self, server: redis.Redis, keys: CrawlKeys, keep_page_terms: bool = True) -> None:
        self.server = server
        self.keys = keys
        self.keep_page_terms = keep_page_terms
        self.script = server.register_script(UPDATE_SCRIPT)

    def add_page(self, url: str, counts: Mapping[str, int]) -> bool:
        """Count a page's term frequencies once per URL (one script call). True
        if counted now, False if the URL had been counted already."""
        return self.count_page(url, counts)[0]

    def _args(self, url: str, counts: Mapping[str, int]) -> tuple[list[str], list[Any]]:
        values = counts.values()  # usually positive ints (PageText.counts()): no loop
        positive = (dict(counts) if set(map(type, values)) <= {int} and min(values, default=1) > 0
                    else {term: int(tf) for term, tf in counts.items() if tf > 0})
        terms = list(positive)
        return terms, [url, pack_counts(positive) if self.keep_page_terms else b"",
                       json.dumps(terms, ensure_ascii=False), json.dumps(list(positive.values())),
                       SCRIPT_CHUNK]

    def count_pages(self, pages: list[tuple[str, Mapping[str, int]]]) -> list[bool]:
        """:meth:`add_page` for many pages in one round trip (a pipeline of the
        update script, which is exact, idempotent and order-free per page). True
        for each page counted now."""
        if not pages:
            return []
        keys = [self.keys.entropy, self.keys.entropy_pages, self.keys.page_terms]
        pipe = self.server.pipeline(transaction=False)
        for url, counts in pages:
            pipe.evalsha(self.script.sha, len(keys), *keys, *self._args(url, counts)[1])
        try:
            results = pipe.execute()
        except redis.exceptions.NoScriptError:  # a restarted Redis: load the script again
            self.server.script_load(UPDATE_SCRIPT)
            results = pipe.execute()
        return [bool(counted) for counted, _ in results]

    def count_page(self, url: str, counts: Mapping[str, int]) -> tuple[bool, dict[str, float]]:
        """:meth:`add_page`, and W of the page's terms with the pages counted so
        far, this one included, from the same script call (one round trip)."""
        terms, args = self._args(url, counts)
        keys = [self.keys.entropy, self.keys.entropy_pages, self.keys.page_terms]
        counted, packed = self.script(keys=keys, args=args)
        if not isinstance(packed, bytes) or len(packed) != 8 * len(terms):
            return bool(counted), self.weights(terms)
        return bool(counted), dict(zip(terms, struct.unpack(f"<{len(terms)}d", packed)))

    def page_count(self) -> int:
        """n: the number of pages counted so far."""
        return int(self.server.scard(self.keys.entropy_pages))

    def snapshot(self, terms: Iterable[str]) -> tuple[int, dict[str, TermStats]]:
        """n and the statistics of ``terms`` (:func:`skeleton.store.entropy.snapshot`)."""
        return snapshot(self.server, self.keys, terms)

    def entropies(self, terms: Iterable[str]) -> dict[str, float]:
        """EN of each term over the pages counted so far (0 for unseen terms)."""
        return term_entropies(self.server, self.keys, terms)

    def weights(self, terms: Iterable[str]) -> dict[str, float]:
        """W = 1 - EN of each term over the pages counted so far (1 for unseen terms)."""
        return term_weights(self.server, self.keys, terms)

    def scan(self) -> Iterator[tuple[str, TermStats]]:
        """Every term and its statistics (unreadable entries are skipped)."""
        for field, value in self.server.hscan_iter(self.keys.entropy, count=SCAN_COUNT):
            stats = decode(value)
            if stats is not None:
                yield _text(field), stats

    def vocabulary_size(self) -> int:
        return int(self.server.hlen(self.keys.entropy))

    def page_terms(self, url: str) -> dict[str, int]:
        """The kept term counts of a counted page ({} if not kept)."""
        return unpack_counts(self.server.hget(self.keys.page_terms, url))


def configured_stop_words(settings: Any) -> frozenset[str]:
    """``SKELETON_ENTROPY_STOP_WORDS`` if set, else the language's list."""
    if settings.get("SKELETON_ENTROPY_STOP_WORDS") is not None:
        custom = settings.getlist("SKELETON_ENTROPY_STOP_WORDS")
        return frozenset(str(w).strip().lower() for w in custom if str(w).strip())
    return stop_words(settings.get("SKELETON_ENTROPY_LANGUAGE") or DEFAULT_LANGUAGE)


class EntropyMiddleware:
    """Counts every HTML page's terms in the crawl's entropy statistics."""

    def __init__(self, crawler: Crawler, store: EntropyStore, stop: frozenset[str],
                 max_terms: int = MAX_PAGE_TERMS) -> None:
        self.crawler = crawler
        self.store = store
        self.stop = stop
        self.max_terms = max_terms
        # WISDOM needs the page's full text pass; alone, the plain text is cheaper
        self.shared_pass = analysis_enabled(crawler.settings, "wisdom")
        self.waiting: list[tuple[str, Mapping[str, int]]] = []
        store.server.script_load(UPDATE_SCRIPT)  # batches call it by sha

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        settings = crawler.settings
        if not settings.getbool("SKELETON_ENTROPY_ENABLED", True):
            raise NotConfigured("term entropy is off (SKELETON_ENTROPY_ENABLED)")
        keys = crawl_keys(crawler, "EntropyMiddleware")
        stop = configured_stop_words(settings)  # ValueError: unknown language
        max_terms = settings.getint("SKELETON_ENTROPY_MAX_TERMS", MAX_PAGE_TERMS)
        # the pages' terms are kept for WISDOM's second pass (`scrapy informative`)
        store = EntropyStore(connect(settings), keys,
                             settings.getbool("SKELETON_KEEP_PAGE_TERMS",
                                              analysis_enabled(settings, "wisdom")))
        middleware = cls(crawler, store, stop, max_terms)
        crawler.signals.connect(middleware.spider_closed, signal=signals.spider_closed)
        crawler.signals.connect(middleware.flush, signal=flush_requested)
        return middleware

    # -- read API -------------------------------------------------------------------

    def weights(self, terms: Iterable[str]) -> dict[str, float]:
        """W = 1 - EN of each term with the pages counted so far (see EntropyStore)."""
        return self.store.weights(terms)

    def entropies(self, terms: Iterable[str]) -> dict[str, float]:
        return self.store.entropies(terms)

    def page_count(self) -> int:
        return self.store.page_count()

    # -- Scrapy hooks ---------------------------------------------------------------

    def _inc(self, name: str, count: int = 1) -> None:
        assert self.crawler.stats is not None
        self.crawler.stats.inc_value(f"{STATS_PREFIX}/{name}", count)

    def process_spider_input(self, response: Response) -> None:
        if not 200 <= response.status < 300 or not html_response(response) \
                or outage.is_down(self.crawler):
            return
        try:
            self._count(response)
        except Exception as exc:  # optional analysis never costs a page
            analysis_failed(logger, self.crawler.stats, "entropy", response.url, exc)

    def _count(self, response: Response) -> None:
        page = shared_page(response, self.crawler.stats)
        if page.root is None:
            self._inc("unparsable")
            return
        if self.shared_pass:
            counts = page_text(page, self.stop).counts(self.max_terms)
        else:
            counts = page_terms(page.root, self.stop, self.max_terms)
        url = canonical(response.url) or response.url  # the final URL, as the spider records it
        if not self.shared_pass:  # nobody reads the page's weights now: counted in a batch
            self.waiting.append((url, counts))
            if len(self.waiting) >= MAX_WAITING:
                self.flush()
            return
        try:
            counted, page.weights = self.store.count_page(url, counts)
        except redis.RedisError as exc:
            logger.warning("could not count the terms of %s: %s", url, exc)
            self._inc("errors")
            outage.redis_failed(self.crawler, exc, "counting a page's terms")
            return
        self._counted(counted, len(counts))

    def _counted(self, counted: bool, terms: int) -> None:
        if counted:
            self._inc("pages")
            self._inc("terms", terms)
        else:
            self._inc("duplicates")

    def flush(self) -> None:
        """Count the pages waiting, in one round trip (on the scheduler's
        ``flush_requested``, before it acknowledges their leases, and at close)."""
        waiting, self.waiting = self.waiting, []
        if not waiting or outage.is_down(self.crawler):
            return
        try:
            counted = self.store.count_pages(waiting)
        except redis.RedisError as exc:
            logger.warning("could not count the terms of %d pages: %s", len(waiting), exc)
            self._inc("errors")
            outage.redis_failed(self.crawler, exc, "counting the pages' terms")
            return
        for done, (_, counts) in zip(counted, waiting):
            self._counted(done, len(counts))

    def spider_closed(self, spider: Spider, reason: str) -> None:
        assert self.crawler.stats is not None
        self.flush()
        try:
            if not outage.is_down(self.crawler):
                self.crawler.stats.set_value(f"{STATS_PREFIX}/vocabulary", self.store.vocabulary_size())
        except redis.RedisError as exc:
            logger.warning("could not read the entropy vocabulary size: %s", exc)
        finally:
            self.store.server.close()
