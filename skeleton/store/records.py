"""The crawl's page records and offers written to Redis (the tree pipeline's store).

:class:`RecordStore` writes a batch of pages in one round trip: for each page one
script call (:data:`RECORD_SCRIPT`) stores its record in ``:pages`` (and ``:failed``,
``:offsite``), merges its offers into ``:offers`` and counts it in ``:meta``
``fetched``; the URLs a page names as its aliases go to ``:aliases`` first. What a
stored record and offer hold is :mod:`skeleton.store.tree` (records) and
:mod:`skeleton.hierarchy.offers` (offers); which record replaces which is the
script's (see its comment). The tree pipeline (:mod:`skeleton.pipelines.tree`)
decides the kind of each record and sends the batches.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import redis

from skeleton.store.keys import META_FETCHED, CrawlKeys
from skeleton.store.server import run_pipeline
from skeleton.store.tree import pack_record

__all__ = ["RECORD_SCRIPT", "PAGE", "NAMED", "FAILED", "OFFSITE", "PageWrite", "RecordStore", "page_count"]

#: kinds of record (:data:`RECORD_SCRIPT`): a page analysed; a record named by a
#: canonical link (kept only when the page has no record of its own yet); a page that
#: failed for good; a page analysed that redirects out of the crawl's scope
PAGE, NAMED, FAILED, OFFSITE = "0", "1", "2", "3"

#: KEYS: pages, offers, and optionally meta (its ``fetched`` field counts the pages
#: analysed), failed (URL -> status of the pages whose record is a failed one) and
#: offsite (URL -> target of the pages whose record is a ``redirect_offsite`` one).
#: ARGV: root, page URL, page record (:func:`skeleton.store.tree.pack_record`), the
#: bound, the kind of record ("0": a page analysed; "1": a record named by a
#: canonical link, kept only when the page has no record of its own yet; "2": a page
#: that failed for good, ``FAILED_REASON``, kept only when the page has no record or
#: a failed one: a page fetched once is never replaced by a failure, a failed one
#: always by the page; "3": a page analysed that redirects out of the crawl's scope,
#: ``REDIRECT_OFFSITE_REASON``), the failed page's status or the redirect's target
#: (kind "3"), then (child, offer key, offer
#: features) triples (:func:`skeleton.hierarchy.offers.pack_offer`). A child's
#: offers are stored as lines ``key TAB features``, sorted by key; an offer's
#: identity is its key without the 8-character (place, level, size) prefix (7
#: characters, level and size, for a key stored before the place letter: a digit first). Returns the
#: number of children whose offers changed and the crawl's ``fetched`` count after
#: this page (0 without meta or for a failed page).
RECORD_SCRIPT = """
local function id(k)
  if string.find(string.sub(k, 1, 1), '%d') then return string.sub(k, 8) end
  return string.sub(k, 9)
end
local function less(a, b)
  local n = math.min(#a, #b)
  for i = 1, n do
    local x, y = string.byte(a, i), string.byte(b, i)
    if x ~= y then return x < y end
  end
  return #a < #b
end
local kind = ARGV[5]
local fetched = 0
if KEYS[3] and kind ~= '2' then fetched = redis.call('HINCRBY', KEYS[3], '""" + META_FETCHED + """', 1) end
if (kind == '1' or kind == '2') and redis.call('HEXISTS', KEYS[1], ARGV[2]) == 1 then
  local failed = KEYS[4] and redis.call('HEXISTS', KEYS[4], ARGV[2]) == 1
  if not failed then return {0, fetched} end
end
redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
local function mark(key, on)
  if not key then return end
  if on then redis.call('HSET', key, ARGV[2], ARGV[6]) else redis.call('HDEL', key, ARGV[2]) end
end
mark(KEYS[4], kind == '2')
mark(KEYS[5], kind == '3')
local bound = tonumber(ARGV[4])
local changed = 0
for i = 7, #ARGV - 2, 3 do
  local child, key, features = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  if child ~= ARGV[1] then
    local this = id(key)
    local old = redis.call('HGET', KEYS[2], child)
    local kept, same = {}, false
    if old then
      for line in string.gmatch(old, '[^\\n]+') do
        local tab = string.find(line, '\\t', 1, true)
        if tab then
          local k = string.sub(line, 1, tab - 1)
          if id(k) == this then
            same = (k == key and string.sub(line, tab + 1) == features)
          else
            table.insert(kept, line)
          end
        end
      end
    end
    if not same then
      table.insert(kept, key .. '\\t' .. features)
      table.sort(kept, less)
      while #kept > bound do table.remove(kept) end
      redis.call('HSET', KEYS[2], child, table.concat(kept, '\\n'))
      changed = changed + 1
    end
  end
end
return {changed, fetched}
"""


@dataclass(frozen=True, slots=True)
class PageWrite:
    """One page to store: its record (JSON-safe, ``url`` in it), its kind
    (:data:`PAGE`, :data:`NAMED`, :data:`FAILED`, :data:`OFFSITE`), the failed page's
    status or the redirect's target (``detail``) and its offers as ``(child, offer
    key, offer features)`` (:func:`skeleton.hierarchy.offers.pack_offer`)."""

    record: Mapping[str, Any]
    kind: str = PAGE
    detail: str = ""
    offers: Sequence[tuple[str, str, str]] = ()


class RecordStore:
    """One crawl's page records and offers: written in batches (:meth:`write`)."""

    def __init__(self, server: redis.Redis, keys: CrawlKeys, root: str, max_offers: int) -> None:
        self.server = server
        self.keys = keys
        self.root = root
        self.max_offers = max_offers
        self.script = server.register_script(RECORD_SCRIPT)

    def load_script(self) -> None:
        """Load the script into Redis (batches call it by sha)."""
        self.server.script_load(RECORD_SCRIPT)

    def arguments(self, page: PageWrite) -> list[Any]:
        """The ARGV of :data:`RECORD_SCRIPT` for ``page`` (prepared on the caller's
        thread: the record is packed here)."""
        args = [self.root, page.record["url"], pack_record(dict(page.record)), self.max_offers, page.kind,
                page.detail]
        for offer in page.offers:
            args += offer
        return args

    def write(self, batch: Sequence[tuple[Mapping[str, str], list[Any]]]) -> list[tuple[int, int]]:
        """Store ``batch`` (each page's aliases and :meth:`arguments`), one round trip:
        per page, the children whose offers changed and the crawl's ``fetched`` count
        after it (0 for a failed page)."""
        keys = [self.keys.pages, self.keys.offers, self.keys.meta, self.keys.failed, self.keys.offsite]

        def fill(pipe: Any) -> None:
            for aliases, args in batch:
                if aliases:  # the page's canonical link renamed it: its URL is an alias
                    pipe.hset(self.keys.aliases, mapping=dict(aliases))
                pipe.evalsha(self.script.sha, len(keys), *keys, *args)

        return [(int(result[0]), int(result[1])) for result in run_pipeline(self.server, fill, [RECORD_SCRIPT])
                if isinstance(result, list) and len(result) == 2]

    def close(self) -> None:
        """Close the Redis client."""
        self.server.close()


def page_count(server: redis.Redis, keys: CrawlKeys) -> int:
    """The pages recorded in ``:pages`` (failed ones included)."""
    return int(server.hlen(keys.pages))
