"""The crawl's term entropy in Redis (WISDOM Section 3.1): counted and read.

:class:`EntropyStore` counts pages' terms into the ``:entropy`` buckets (term ->
sufficient statistics, :func:`skeleton.store.keys.entropy_bucket`) and
``:entropy_pages`` (the pages counted) with :data:`UPDATE_SCRIPT`, one atomic
script call per batch of pages, idempotent per URL; it is the one place the
statistics of two page sets are joined (the formula is explained in
:mod:`skeleton.entropy.statistics`, which computes a batch's statistics and EN).
The entropy middleware (:mod:`skeleton.middlewares.entropy`) and the commands use it.

Any component also reads the weights here, given only the Redis client and the
crawl's keys: :func:`term_weights` gives W = 1 - EN of each term over the pages
counted so far (1 for a term not seen), :func:`term_entropies` EN (0 for a term
not seen). Both read n and the terms' statistics in one transaction
(:func:`snapshot`).
"""
from __future__ import annotations

import json
import struct
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import redis

from skeleton.entropy.statistics import EMPTY, TermStats, batch_statistics, decode, entropy, weight
from skeleton.entropy.statistics import weights as weights_of
from skeleton.entropy.terms import pack_counts, unpack_counts
from skeleton.store.keys import CrawlKeys, entropy_bucket, url_id

__all__ = ["EntropyStore", "UPDATE_SCRIPT", "SCRIPT_CHUNK", "SCAN_BUCKETS", "snapshot", "term_weights",
           "term_entropies", "kept_terms", "every_kept_terms"]

#: Buckets read per round trip by :meth:`EntropyStore.scan`.
SCAN_BUCKETS = 128
#: Terms per HMGET/HSET of one bucket inside the update script.
SCRIPT_CHUNK = 1000

#: KEYS: entropy_pages (set), page_terms (hash), then the ``:entropy`` buckets
#: (skeleton.store.keys.entropy_bucket) of the batch's terms. ARGV: '1' to return the
#: statistics of the batch's terms ('0': nothing), the chunk size (one HMGET and one HSET per bucket
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
#: and G = 0). Returns {1 or 0 per page (counted before or not), the statistics
#: (S, df, G) of the batch's terms in their order, the batch's pages included, as
#: little-endian doubles in one string (or ''), n = SCARD entropy_pages}: EN is
#: computed from them in Python (skeleton.entropy.statistics.weights).
#: Joining (S1, G1) and (S2, G2): G = G1 + G2 + S1 log1p(S2/S1) + S2 log1p(S1/S2),
#: the only place the join is written (skeleton.entropy.statistics explains it).
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
local stats = {}
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
        local at = 3 * i
        stats[at - 2], stats[at - 1], stats[at] = s, df, g
      end
    end
    if o > 0 then redis.call('HSET', KEYS[k], unpack(out)) end
  end
end
if not want then return {before, ''} end
local packed = {}
for first = 1, #terms, chunk do
  local last = min(first + chunk - 1, #terms)
  packed[#packed + 1] = packd('<' .. string.rep('ddd', last - first + 1), unpack(stats, 3 * first - 2, 3 * last))
end
return {before, table.concat(packed), n}
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

    def load_script(self) -> None:
        """Load the update script into Redis (batches call it by sha)."""
        self.server.script_load(UPDATE_SCRIPT)

    def close(self) -> None:
        """Close the Redis client."""
        self.server.close()

    def _run(self, keys: list[str], args: list[Any]) -> Any:
        try:
            return self.server.evalsha(self.script.sha, len(keys), *keys, *args)
        except redis.exceptions.NoScriptError:  # a restarted Redis: load the script again
            self.server.script_load(UPDATE_SCRIPT)
            return self.server.evalsha(self.script.sha, len(keys), *keys, *args)

    def _count(self, pages: list[tuple[str, Mapping[str, int]]], weights: bool
               ) -> tuple[list[bool], list[str], list[Any]]:
        """Count ``pages``: the pages counted now (a URL counted before, or twice in
        ``pages``, is not), the terms of the last script call and what it returned
        after the flags (the packed statistics and n, or just '').
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
            before, *rest = self._run(keys, args)
            if not any(before):
                for page in todo:
                    counted[page[3]] = True
                return counted, terms, rest
            todo = [page for page, flag in zip(todo, before) if not flag]
        return counted, [], []

    def count_pages(self, pages: list[tuple[str, Mapping[str, int]]]) -> list[bool]:
        """:meth:`add_page` for many pages, usually in one round trip (one script call,
        atomic); exact, idempotent per URL and order-free. True for each page counted
        now (a URL twice in ``pages`` counts once)."""
        if not pages:
            return []
        return self._count(pages, weights=False)[0]

    def count_page(self, url: str, counts: Mapping[str, int]) -> tuple[bool, dict[str, float]]:
        """:meth:`add_page`, and W of the page's terms with the pages counted so
        far, this one included, from the statistics the same script call returns
        (one round trip)."""
        terms = list(_positive(counts))
        done, sent, reply = self._count([(url, counts)], weights=True)
        packed, n = reply if len(reply) == 2 else (None, 0)
        if not done[0] or sent != terms or not isinstance(packed, bytes) \
                or len(packed) != 24 * len(terms):
            return done[0], self.weights(terms)  # counted before: its weights now
        values = struct.unpack(f"<{3 * len(terms)}d", packed)
        return True, dict(zip(terms, weights_of(zip(values[0::3], values[1::3], values[2::3]), int(n))))

    def page_count(self) -> int:
        """n: the number of pages counted so far."""
        return int(self.server.scard(self.keys.entropy_pages))

    def snapshot(self, terms: Iterable[str]) -> tuple[int, dict[str, TermStats]]:
        """n and the statistics of ``terms`` (:func:`snapshot`)."""
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


def kept_terms(server: redis.Redis, keys: CrawlKeys, urls: list[str]) -> list[dict[str, int] | None]:
    """The kept term counts (``:page_terms``) of each of ``urls``, one round trip:
    None for a page whose terms are not kept (unreadable ones: ``{}``)."""
    return [None if not blob else unpack_counts(blob) for blob in server.hmget(keys.page_terms, urls)]


def every_kept_terms(server: redis.Redis, keys: CrawlKeys) -> Iterator[tuple[str, dict[str, int]]]:
    """``(page URL, kept term counts)`` of every page whose terms the crawl kept."""
    for url, blob in server.hscan_iter(keys.page_terms, count=1000):
        yield _text(url), unpack_counts(blob)
