"""The site's sitemap in Redis: the files read and the page URLs they list.

``:sitemaps`` (hash: sitemap file URL -> JSON ``{"kind", "urls", "status"}``) and
``:sitemap`` (hash: page URL, canonical and in the crawl's scope -> its
``lastmod`` or "") of :class:`~skeleton.store.keys.CrawlKeys`. Both are bounded
over every worker of the crawl, each by one Lua script (atomic, so two workers
never pass a bound together): :func:`claim_file` takes a file only while fewer
than ``max_files`` are taken, and only once (a file listed twice, or by two
workers, is read once); :func:`add_urls` adds page URLs while the hash holds
fewer than ``max_urls``. :func:`sitemap_report` compares the stored sitemap with
the pages the crawl recorded (:func:`skeleton.sitemaps.coverage.compare`).
"""
from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from skeleton.sitemaps.coverage import SitemapCoverage, compare
from skeleton.store.keys import CrawlKeys
from skeleton.store.tree import stored_aliases

__all__ = ["PENDING", "claim_file", "record_file", "add_urls", "stored_files", "stored_urls",
           "sitemap_report"]

#: ``status`` of a sitemap file claimed and not read yet (or whose reader died)
PENDING = "pending"

#: KEYS: sitemaps; ARGV: file URL, max files, the pending value. 1 claimed, 0 seen, -1 over the bound
_CLAIM = """
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 0 end
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[2]) then return -1 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1
"""
#: KEYS: sitemap; ARGV: max URLs, then URL, lastmod pairs. Returns {added, refused}
_ADD = """
local room = tonumber(ARGV[1]) - redis.call('HLEN', KEYS[1])
local added, refused = 0, 0
for i = 2, #ARGV, 2 do
  if redis.call('HEXISTS', KEYS[1], ARGV[i]) == 1 then
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
  elseif room > 0 then
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
    room = room - 1
    added = added + 1
  else
    refused = refused + 1
  end
end
return {added, refused}
"""
#: URLs sent to Redis per script call
_BATCH = 500


def _text(value: Any) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value or "")


def claim_file(server: Any, keys: CrawlKeys, url: str, max_files: int) -> int:
    """Claim the sitemap file ``url`` for reading: 1 if this caller reads it, 0 if
    it was claimed before (by any worker), -1 if ``max_files`` files are claimed."""
    return int(server.eval(_CLAIM, 1, keys.sitemaps, url, max(0, max_files),
                           json.dumps({"kind": "", "urls": 0, "status": PENDING})))


def record_file(server: Any, keys: CrawlKeys, url: str, kind: str, urls: int, status: str) -> None:
    """What reading the claimed file ``url`` gave: its ``kind`` (``urlset``,
    ``sitemapindex``, "" for no sitemap), the ``urls`` it listed, its ``status``
    (``ok``, an HTTP status, an error kind)."""
    server.hset(keys.sitemaps, url, json.dumps({"kind": kind, "urls": urls, "status": status},
                                               sort_keys=True))


def add_urls(server: Any, keys: CrawlKeys, entries: Iterable[tuple[str, str]],
             max_urls: int) -> tuple[int, int]:
    """Store the page URLs ``entries`` (``(url, lastmod)``) while ``:sitemap``
    holds fewer than ``max_urls``; ``(added, refused)`` (a URL stored before only
    gets its ``lastmod`` updated and counts as neither)."""
    added = refused = 0
    batch: list[str] = []

    def send() -> None:
        nonlocal added, refused
        if batch:
            done = server.eval(_ADD, 1, keys.sitemap, max(0, max_urls), *batch)
            added, refused = added + int(done[0]), refused + int(done[1])
            batch.clear()

    for url, lastmod in entries:
        batch.extend((url, lastmod))
        if len(batch) >= 2 * _BATCH:
            send()
    send()
    return added, refused


def stored_files(server: Any, keys: CrawlKeys) -> dict[str, dict[str, Any]]:
    """Sitemap file URL -> ``{"kind", "urls", "status"}`` of every file claimed."""
    files = {}
    for url, raw in server.hscan_iter(keys.sitemaps, count=1000):
        try:
            value = json.loads(raw)
        except ValueError:
            continue
        if isinstance(value, dict):
            files[_text(url)] = value
    return files


def stored_urls(server: Any, keys: CrawlKeys) -> dict[str, str]:
    """Page URL -> ``lastmod`` ("" when none) of every URL the sitemap listed."""
    return {_text(url): _text(lastmod) for url, lastmod in server.hscan_iter(keys.sitemap, count=1000)}


def sitemap_report(server: Any, keys: CrawlKeys) -> SitemapCoverage | None:
    """The sitemap against the pages the crawl recorded (``:pages``; ``missing``
    leaves out the pages that failed or redirect out of the scope: no page to
    list), aliases applied; None when the crawl read no sitemap file."""
    if not server.exists(keys.sitemaps):
        return None
    reached = [_text(url) for url in server.hkeys(keys.pages)]
    unlisted = {_text(url) for url in server.hkeys(keys.failed)} | \
        {_text(url) for url in server.hkeys(keys.offsite)}
    return compare(stored_urls(server, keys), reached, stored_aliases(server, keys),
                   fetched=[url for url in reached if url not in unlisted])
