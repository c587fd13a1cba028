"""The URL variants learned from duplicate content, in Redis.

The URL-variants middleware (:mod:`skeleton.middlewares.variants`) compares each
page with the simpler URLs it could be a variant of
(:mod:`skeleton.urlrules.duplicates`); :class:`VariantStore` keeps what that needs:
``:fingerprints`` (the :func:`~skeleton.store.keys.url_id` of a page URL -> its
content fingerprint, 8 raw bytes), ``:variants`` (a simpler URL not fetched yet ->
JSON list of ``[variant URL, kind, names, fingerprint]`` waiting for it, at most
:data:`MAX_WAITING`, appended by :data:`WAIT_SCRIPT`), ``:votes`` (rule -> count),
``:forms`` (URL paths that answered with a form only) and the aliases found
(``:aliases``). The trailing-slash middleware (:mod:`skeleton.middlewares.slash`)
counts its votes in ``:votes`` too (:meth:`VariantStore.slash_votes`). A batch is two round trips: :meth:`VariantStore.exchange` (store
the pages' fingerprints, read their variants'), then :meth:`VariantStore.record`.
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import redis

from skeleton.store.keys import CrawlKeys, url_id

__all__ = ["MAX_WAITING", "WAIT_SCRIPT", "VariantStore"]

#: variants kept waiting for one simpler URL to be fetched
MAX_WAITING = 8
#: KEYS: variants. ARGV: simpler URL, JSON entry, MAX_WAITING. Appends atomically.
WAIT_SCRIPT = """
local old = redis.call('HGET', KEYS[1], ARGV[1])
local list = {}
if old then list = cjson.decode(old) end
if #list < tonumber(ARGV[3]) then
  table.insert(list, cjson.decode(ARGV[2]))
  redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(list))
end
return #list
"""


def _text(value: Any) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


class VariantStore:
    """One crawl's fingerprints, waiting variants, votes and form pages."""

    def __init__(self, server: redis.Redis, keys: CrawlKeys) -> None:
        self.server = server
        self.keys = keys

    def exchange(self, pages: Sequence[tuple[str, str]], candidates: Sequence[Sequence[str]]
                 ) -> list[tuple[dict[str, str], list[Any] | None]]:
        """Store the fingerprints of ``pages`` ((URL, hex fingerprint)) and read, per
        page, the stored fingerprints of its ``candidates`` (URL -> hex; the page's
        own when it has none) and the variants waiting for it (None: none; a list
        of entries, [] when unreadable), one round trip."""
        if not pages:
            return []
        pipe = self.server.pipeline(transaction=False)
        pipe.hset(self.keys.fingerprints, mapping={url_id(url): bytes.fromhex(fp) for url, fp in pages})
        for (url, _), urls in zip(pages, candidates):
            pipe.hmget(self.keys.fingerprints, [url_id(u) for u in urls or [url]])
            pipe.hget(self.keys.variants, url)
        replies = pipe.execute()[1:]
        found = []
        for n, urls in enumerate(candidates):
            known, waiting = replies[2 * n], replies[2 * n + 1]
            entries: list[Any] | None = None
            if waiting is not None:
                try:
                    entries = json.loads(waiting)
                except ValueError:
                    entries = []
                if not isinstance(entries, list):
                    entries = []
            found.append(({c: fp.hex() for c, fp in zip(urls, known) if fp is not None}, entries))
        return found

    def record(self, read: Sequence[str], pending: Sequence[tuple[str, list[Any]]], votes: Mapping[str, int],
               aliases: Mapping[str, str]) -> None:
        """One round trip: forget the variants waiting for the pages ``read`` (their
        entries were read by :meth:`exchange`), add the ``pending`` entries
        ((simpler URL, ``[variant URL, kind, names, fingerprint]``)), count the
        ``votes`` and record the ``aliases``."""
        pipe = self.server.pipeline(transaction=False)
        for url in read:
            pipe.hdel(self.keys.variants, url)
        for simpler, entry in pending:
            pipe.eval(WAIT_SCRIPT, 1, self.keys.variants, simpler, json.dumps(entry), MAX_WAITING)
        for name, count in votes.items():
            pipe.hincrby(self.keys.votes, name, count)
        if aliases:
            pipe.hset(self.keys.aliases, mapping=dict(aliases))
        if len(pipe):
            pipe.execute()

    def rules(self) -> tuple[dict[str, int], set[str]]:
        """The votes cast so far (rule -> count; unreadable counts left out) and
        the form pages' paths, one round trip."""
        pipe = self.server.pipeline(transaction=False)
        pipe.hgetall(self.keys.votes)
        pipe.smembers(self.keys.forms)
        votes, forms = pipe.execute()
        counts = {}
        for field, value in votes.items():
            try:
                counts[_text(field)] = int(value)
            except ValueError:
                continue
        return counts, {_text(path) for path in forms}

    def slash_votes(self, add: Mapping[str, int], fields: Sequence[str]) -> list[int]:
        """Count the votes ``add`` and read the counts of ``fields`` (0 when absent or
        unreadable), one round trip."""
        pipe = self.server.pipeline(transaction=False)
        for name, count in add.items():
            pipe.hincrby(self.keys.votes, name, count)
        pipe.hmget(self.keys.votes, list(fields))
        counts = []
        for value in pipe.execute()[-1]:
            try:
                counts.append(int(value) if value is not None else 0)
            except ValueError:
                counts.append(0)
        return counts

    def withdraw_alias(self, alias: str, vote: str) -> None:
        """Forget the alias ``alias`` (a guess the site did not serve) and count one
        ``vote`` against the guess, one round trip."""
        pipe = self.server.pipeline(transaction=False)
        pipe.hdel(self.keys.aliases, alias)
        pipe.hincrby(self.keys.votes, vote, 1)
        pipe.execute()

    def add_form(self, path: str) -> None:
        """Record a URL path that answered with a form only."""
        self.server.sadd(self.keys.forms, path)
