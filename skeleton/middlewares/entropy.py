"""Term entropy of the crawl as pages arrive (WISDOM Section 3.1), kept in Redis.

``EntropyMiddleware`` is a spider middleware: before the spider sees an HTML
response (2xx, HTML or no content type, parsable), it extracts the page's terms
(:mod:`skeleton.entropy.terms`) and counts the page with :data:`UPDATE_SCRIPT`,
one Lua script per batch of pages, hence atomic. Without WISDOM (which reads the
page's weights at once) the pages wait and are counted together, one script call,
when the scheduler is about to acknowledge their leases (``flush_requested``, every
``SKELETON_FLUSH_INTERVAL`` or ``ACK_BATCH`` pages) and at close: a page is counted
before its lease ends, so a worker that dies loses no count (the page is fetched
again and counted then). With WISDOM each page is its own batch. The update is:

* idempotent: the :func:`skeleton.store.keys.url_id` of the page's canonical URL
  (the final URL of a redirect chain, as the spider records it) goes into
  ``:entropy_pages``; a page already there changes nothing (a retry, a second
  worker, a resumed crawl, the same URL twice in a batch): the script then writes
  nothing and the batch is sent again without it;
* cost proportional to the batch's distinct terms: the pages counted now are merged
  per term in Python (:func:`skeleton.entropy.statistics.batch_statistics`, off the
  reactor on the scheduler's I/O thread), and each term's sufficient statistics (S, df, G)
  (:mod:`skeleton.entropy.statistics`) in its ``:entropy`` bucket
  (:func:`skeleton.store.keys.entropy_bucket`, one of 1,024 small hashes that Redis
  keeps compact) are updated in place, one HMGET and one HSET per bucket touched;
  terms absent from the batch are not touched, and n (the number of pages) is
  ``SCARD :entropy_pages``, read when entropies are read;
* order independent: the statistics of a set of pages do not depend on the order
  or the batches in which workers add them (up to float rounding), so EN read at
  any time equals the batch computation over the pages counted so far.

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
from functools import partial
from typing import TYPE_CHECKING, Any, Self

import redis
from scrapy import signals
from scrapy.exceptions import NotConfigured

from skeleton.store import outage
from skeleton.analyses import enabled as analysis_enabled
from skeleton.entropy.statistics import TermStats, batch_statistics, decode
from skeleton.entropy.terms import (DEFAULT_LANGUAGE, MAX_PAGE_TERMS, pack_counts, page_terms,
                                    stop_words, unpack_counts)
from skeleton.middlewares.shared import (analysis_failed, crawl_keys, page_text, page_to_analyse,
                                        shared_page)
from skeleton.store.entropy import snapshot, term_entropies, term_weights
from skeleton.store.keys import CrawlKeys, entropy_bucket, url_id
from skeleton.store.scheduler import MAX_BATCH_WAITING, flush_requested
from skeleton.store.writes import Write, submit
from skeleton.store.server import connect
from skeleton.web.urls import canonical

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response

__all__ = ["EntropyMiddleware", "EntropyStore", "UPDATE_SCRIPT", "STATS_PREFIX",
           "configured_stop_words"]

logger = logging.getLogger(__name__)

STATS_PREFIX = "skeleton/entropy"
#: Buckets read per round trip by :meth:`EntropyStore.scan`.
SCAN_BUCKETS = 128
#: Pages counted in one batch at most (they are counted when the scheduler writes
#: its acknowledgements, see :data:`skeleton.store.scheduler.flush_requested`).
MAX_WAITING = MAX_BATCH_WAITING
#: Terms per HMGET/HSET of one bucket inside the update script.
SCRIPT_CHUNK = 1000

#: KEYS: entropy_pages (set), page_terms (hash), then the ``:entropy`` buckets
#: (skeleton.store.keys.entropy_bucket) of the batch's terms. ARGV: '1' to return W of
#: the batch's terms ('0': nothing), the chunk size (one HMGET and one HSET per bucket
#: and chunk: Lua's unpack() takes a few thousand values at most), the batch's distinct
#: terms as a JSON array, the KEYS index of each term's bucket, the batch's S, df and G
#: of each term (skeleton.entropy.statistics.batch_statistics; JSON arrays, empty when
#: no page is counted), then per page three values: its url_id, and its URL and packed
#: term counts (both '': do not keep them). If a page's url_id is in entropy_pages
#: already (counted before: a retry, another worker) nothing is written and the script
#: returns at once: the caller drops those pages, merges the batch again and calls
#: again (each call is atomic, so no page is counted twice whatever the workers do).
#: Else the pages are added to entropy_pages and each term's batch statistics joined
#: with the stored ones: one HMGET and one HSET per bucket for the whole batch.
#: Statistics are written in the form of skeleton.entropy.statistics.encode (decided
#: by length: 16 bytes '<I4I4d', 24 bytes '<ddd', else the digits of S with df = 1
#: and G = 0). Returns {1 or 0 per page (counted before or not), W = 1 - EN of the
#: batch's terms in their order, the batch's pages included, as little-endian doubles
#: in one string (or '')}.
#: Joining (S1, G1) and (S2, G2): G = G1 + G2 + S1 log1p(S2/S1) + S2 log1p(S1/S2);
#: EN = G / (S ln n), n = SCARD entropy_pages.
UPDATE_SCRIPT = """
local log, min, tonumber, tostring = math.log, math.min, tonumber, tostring
local unpackd, packd = struct.unpack, struct.pack
local function join(s1, g1, s2, g2)
  -- log1p(x) = x if 1 + x == 1, else log(1 + x) * x / ((1 + x) - 1); inlined
  local x, y = s2 / s1, s1 / s2
  local u, v = 1 + x, 1 + y
  if u ~= 1 then x = log(u) * x / (u - 1) end
  if v ~= 1 then y = log(v) * y / (v - 1) end
  return g1 + g2 + s1 * x + s2 * y
end
local want, chunk = ARGV[1] == '1', tonumber(ARGV[2])
local before, seen = {}, false
for p = 8, #ARGV, 3 do
  local flag = redis.call('SISMEMBER', KEYS[1], ARGV[p])
  before[#before + 1] = flag
  if flag == 1 then seen = true end
end
if seen then return {before, ''} end
local counting = #before > 0
for p = 8, #ARGV, 3 do
  redis.call('SADD', KEYS[1], ARGV[p])
  if ARGV[p + 1] ~= '' then redis.call('HSET', KEYS[2], ARGV[p + 1], ARGV[p + 2]) end
end
if not (counting or want) then return {before, ''} end
local terms, tkeys = cjson.decode(ARGV[3]), cjson.decode(ARGV[4])
local ds, ddf, dg = cjson.decode(ARGV[5]), cjson.decode(ARGV[6]), cjson.decode(ARGV[7])
local n = redis.call('SCARD', KEYS[1])
local logn = log(n)
local groups = {}
for i = 1, #terms do
  if want or counting then
    local k = tkeys[i]
    local group = groups[k]
    if not group then
      group = {}
      groups[k] = group
    end
    group[#group + 1] = i
  end
end
local weights = {}
for k, ids in pairs(groups) do
  for first = 1, #ids, chunk do
    local last = min(first + chunk - 1, #ids)
    local names = {}
    for j = first, last do names[j - first + 1] = terms[ids[j]] end
    local olds = redis.call('HMGET', KEYS[k], unpack(names))
    local out, o = {}, 0
    for j = first, last do
      local i = ids[j]
      local old = olds[j - first + 1]
      local s, df, g = 0, 0, 0
      if old then
        local l = #old
        if l == 16 then s, df, g = unpackd('<I4I4d', old)
        elseif l == 24 then s, df, g = unpackd('<ddd', old)
        else s, df = tonumber(old) or 0, 1 end
      end
      local t = counting and ds[i]
      if t then
        if s > 0 then g = join(s, g, t, dg[i]) else g = dg[i] end
        s, df = s + t, df + ddf[i]
        local value
        if s >= 4294967296 or df >= 4294967296 then value = packd('<ddd', s, df, g)
        elseif df == 1 then value = tostring(s)
        else value = packd('<I4I4d', s, df, g) end
        out[o + 1] = names[j - first + 1]
        out[o + 2] = value
        o = o + 2
      end
      if want then
        local en = 0
        if n > 1 and s > 0 and df > 1 and g > 0 then
          en = g / (s * logn)
          if en > 1 then en = 1 elseif not (en >= 0) then en = 0 end
        end
        weights[i] = 1 - en
      end
    end
    if o > 0 then redis.call('HSET', KEYS[k], unpack(out)) end
  end
end
if not want then return {before, ''} end
local packed = {}
for first = 1, #terms, chunk do
  local last = min(first + chunk - 1, #terms)
  packed[#packed + 1] = packd('<' .. string.rep('d', last - first + 1), unpack(weights, first, last))
end
return {before, table.concat(packed)}
"""


def _text(value: bytes | str) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else value


def _positive(counts: Mapping[str, int]) -> dict[str, int]:
    """The page's terms with a positive count, as ints."""
    values = counts.values()  # usually positive ints (PageText.counts()): no loop
    if set(map(type, values)) <= {int} and min(values, default=1) > 0:
        return counts if isinstance(counts, dict) else dict(counts)
    return {term: int(tf) for term, tf in counts.items() if tf > 0}


class EntropyStore:
    """One crawl's term statistics in Redis: update pages, read entropies."""

    def __init__(self, server: redis.Redis, keys: CrawlKeys, keep_page_terms: bool = True) -> None:
        self.server = server
        self.keys = keys
        self.keep_page_terms = keep_page_terms
        self.buckets = keys.entropy  # every bucket key, by index
        self.script = server.register_script(UPDATE_SCRIPT)

    def add_page(self, url: str, counts: Mapping[str, int]) -> bool:
        """Count a page's term frequencies once per URL (one script call). True
        if counted now, False if the URL had been counted already."""
        return self.count_page(url, counts)[0]

    def _call(self, pages: list[tuple[bytes, str, dict[str, int]]], weights: bool
              ) -> tuple[list[str], list[Any], list[str]]:
        """KEYS and ARGV of :data:`UPDATE_SCRIPT` for ``pages`` (url_id, URL, positive
        counts; distinct ids), and the batch's terms in the script's order."""
        terms, totals, page_counts, spreads = batch_statistics(counts for _, _, counts in pages)
        args: list[Any] = ["1" if weights else "0", SCRIPT_CHUNK, json.dumps(terms, ensure_ascii=False),
                           "", json.dumps(totals), json.dumps(page_counts), json.dumps(spreads)]
        kept = self.keep_page_terms
        for page_id, url, counts in pages:
            args += [page_id, url if kept else "", pack_counts(counts) if kept else b""]
        buckets = list(map(entropy_bucket, terms))
        used = sorted(set(buckets))
        slot = {bucket: index for index, bucket in enumerate(used, start=3)}  # its KEYS index
        args[3] = json.dumps(list(map(slot.__getitem__, buckets)))
        keys = [self.keys.entropy_pages, self.keys.page_terms, *(self.buckets[b] for b in used)]
        return keys, args, terms

    def _run(self, keys: list[str], args: list[Any]) -> Any:
        try:
            return self.server.evalsha(self.script.sha, len(keys), *keys, *args)
        except redis.exceptions.NoScriptError:  # a restarted Redis: load the script again
            self.server.script_load(UPDATE_SCRIPT)
            return self.server.evalsha(self.script.sha, len(keys), *keys, *args)

    def _count(self, pages: list[tuple[str, Mapping[str, int]]], weights: bool
               ) -> tuple[list[bool], list[str], Any]:
        """Count ``pages``: the pages counted now (a URL counted before, or twice in
        ``pages``, is not), the terms of the last script call and its packed weights.
        A batch with a page counted before is merged again without it and sent again
        (the script writes nothing then): at most one more call per such page."""
        first: dict[bytes, int] = {}
        for index, (url, _) in enumerate(pages):
            first.setdefault(url_id(url), index)
        todo = [(page_id, pages[index][0], _positive(pages[index][1]), index)
                for page_id, index in first.items()]
        counted = [False] * len(pages)
        while todo:
            keys, args, terms = self._call([page[:3] for page in todo], weights)
            before, packed = self._run(keys, args)
            if not any(before):
                for page in todo:
                    counted[page[3]] = True
                return counted, terms, packed
            todo = [page for page, flag in zip(todo, before) if not flag]
        return counted, [], None

    def count_pages(self, pages: list[tuple[str, Mapping[str, int]]]) -> list[bool]:
        """:meth:`add_page` for many pages, usually in one round trip (one script call,
        atomic); exact, idempotent per URL and order-free. True for each page counted
        now (a URL twice in ``pages`` counts once)."""
        if not pages:
            return []
        return self._count(pages, weights=False)[0]

    def count_page(self, url: str, counts: Mapping[str, int]) -> tuple[bool, dict[str, float]]:
        """:meth:`add_page`, and W of the page's terms with the pages counted so
        far, this one included, from the same script call (one round trip)."""
        terms = list(_positive(counts))
        done, sent, packed = self._count([(url, counts)], weights=True)
        if not done[0] or sent != terms or not isinstance(packed, bytes) \
                or len(packed) != 8 * len(terms):
            return done[0], self.weights(terms)  # counted before: its weights now
        return True, dict(zip(terms, struct.unpack(f"<{len(terms)}d", packed)))

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
        """Every term and its statistics (unreadable entries are skipped), bucket
        by bucket (one round trip per :data:`SCAN_BUCKETS` buckets)."""
        for first in range(0, len(self.buckets), SCAN_BUCKETS):
            pipe = self.server.pipeline(transaction=False)
            for key in self.buckets[first:first + SCAN_BUCKETS]:
                pipe.hgetall(key)
            for bucket in pipe.execute():
                for field, value in bucket.items():
                    stats = decode(value)
                    if stats is not None:
                        yield _text(field), stats

    def vocabulary_size(self) -> int:
        pipe = self.server.pipeline(transaction=False)
        for key in self.buckets:
            pipe.hlen(key)
        return sum(int(size) for size in pipe.execute())

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
        if not page_to_analyse(response, self.crawler):
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

    def flush(self, writes: list[Write] | None = None) -> None:
        """Count the pages waiting, in one round trip: on the scheduler's
        ``flush_requested`` (handed to its exchange in ``writes``, counted before it
        acknowledges their leases), when a batch is full and at close (at once)."""
        waiting, self.waiting = self.waiting, []
        if not waiting or outage.is_down(self.crawler):
            return
        submit(Write(partial(self.store.count_pages, waiting), partial(self._flushed, waiting),
                     partial(self._not_counted, len(waiting))), writes)

    def _flushed(self, waiting: list[tuple[str, Mapping[str, int]]], counted: list[bool]) -> None:
        self._inc("batches")
        for done, (_, counts) in zip(counted, waiting):
            self._counted(done, len(counts))

    def _not_counted(self, pages: int, exc: Exception) -> None:
        if outage.is_down(self.crawler):
            return  # declared by another write of the same exchange: nothing more to say
        if not isinstance(exc, redis.RedisError):
            logger.error("could not count the terms of %d pages: %r", pages, exc, exc_info=exc)
            return
        logger.warning("could not count the terms of %d pages: %s", pages, exc)
        self._inc("errors")
        outage.redis_failed(self.crawler, exc, "counting the pages' terms")

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
