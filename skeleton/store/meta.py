"""The crawl's ``:meta`` hash and the set of crawl ids: every read and write of them.

``:meta`` holds what a crawl is and how far it went (its field names are
:mod:`skeleton.store.keys`' ``META_*``): the crawl lifecycle
(:mod:`skeleton.extensions.lifecycle`) opens a crawl with :func:`open_crawl` (one
script, :data:`OPEN_SCRIPT`), keeps a run's page budget (:func:`budget_until`,
:func:`set_budget_until`) and marks it finished (:func:`finish_crawl`); the commands
and the progress extension read it (:func:`read_meta`, :func:`meta_fields`).
``skeleton:crawls`` (:data:`skeleton.store.keys.CRAWLS`) lists the crawl ids
(:func:`add_crawl`, :func:`crawl_ids`, :func:`is_recorded`).

Values are read back as text (``""`` for a field not set).
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import redis

from skeleton.store.keys import (CRAWLS, META_BASE, META_BUDGET_UNTIL, META_DEPTHS, META_FETCHED,
                                 META_FINISH_REASON, META_FINISHED, META_MODE, META_RESUMED, META_STARTED,
                                 META_TEMPLATE_MENU, CrawlKeys, valid_crawl_id)

__all__ = ["OPEN_SCRIPT", "FINISHED", "read_meta", "meta_fields", "open_crawl", "other_base",
           "unfinished_crawls_of", "budget_until", "set_budget_until", "fetched_count", "record_depths",
           "finish_crawl", "stored_template_menu", "store_template_menu", "add_crawl", "crawl_ids", "is_recorded",
           "is_opened"]

#: the finish reason of a crawl that is complete (it starts afresh when opened again)
FINISHED = "finished"

#: KEYS: meta, then the crawl's keys to delete if it finished. ARGV: the crawl's
#: base URL, the time now, ``1`` if no other worker of the crawl is alive (this one
#: starts a run) else ``0``, then field/value pairs to set. ``started`` is set when
#: the crawl starts (new, or afresh after a finished run) and kept when it resumes;
#: ``resumed`` is set when a run starts on a crawl started before (stopped, or
#: interrupted with no worker alive), not when a worker joins a running crawl.
#: Returns ``{1, ''}`` if the crawl was reset, ``{0, ''}`` if it goes on, or
#: ``{-1, stored base}`` (nothing written) if it would resume a crawl started with
#: another base URL.
OPEN_SCRIPT = f"""
local reset = 0
local stopped = redis.call('HGET', KEYS[1], '{META_FINISH_REASON}')
if stopped == '{FINISHED}' then
  redis.call('DEL', unpack(KEYS))
  reset = 1
  stopped = false
else
  local stored = redis.call('HGET', KEYS[1], '{META_BASE}')
  if stored and stored ~= ARGV[1] then return {{-1, stored}} end
end
redis.call('HDEL', KEYS[1], '{META_FINISHED}', '{META_FINISH_REASON}')
if redis.call('HSETNX', KEYS[1], '{META_STARTED}', ARGV[2]) == 0 and (stopped or ARGV[3] == '1') then
  redis.call('HSET', KEYS[1], '{META_RESUMED}', ARGV[2])
end
redis.call('HSET', KEYS[1], unpack(ARGV, 4))
return {{reset, ''}}
"""


def _text(value: Any) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value or "")


def read_meta(server: redis.Redis, keys: CrawlKeys) -> dict[str, str]:
    """The crawl's ``:meta``, every field as text."""
    return {_text(k): _text(v) for k, v in server.hgetall(keys.meta).items()}


def meta_fields(server: redis.Redis, keys: CrawlKeys, *fields: str) -> list[str]:
    """The values of ``fields`` in the crawl's ``:meta`` (``""`` for a field not set)."""
    return [_text(value) for value in server.hmget(keys.meta, list(fields))]


def is_opened(server: redis.Redis, keys: CrawlKeys) -> bool:
    """Has the crawl a ``:meta`` (it was opened once, and not deleted)?"""
    return bool(server.exists(keys.meta))


def open_crawl(server: redis.Redis, keys: CrawlKeys, base: str, now: str, run_starts: bool,
               fields: Mapping[str, str]) -> tuple[int, str]:
    """Open the crawl (:data:`OPEN_SCRIPT`), setting ``fields`` in ``:meta``: ``(1, "")``
    if a finished crawl was reset, ``(0, "")`` if it goes on, ``(-1, stored base)``
    (nothing written) if the crawl id holds a crawl of another base."""
    names = [keys.meta, *(k for k in keys.all() if k != keys.meta)]
    reset, stored = server.eval(OPEN_SCRIPT, len(names), *names, base, now, "1" if run_starts else "0",
                                *[x for pair in fields.items() for x in pair])
    return int(reset), _text(stored)


def other_base(server: redis.Redis, keys: CrawlKeys, base: str) -> str | None:
    """The base URL of the crawl under ``keys`` when it is not ``base`` and the crawl
    did not finish (opening it would resume a crawl of another site), else None."""
    stored, reason = meta_fields(server, keys, META_BASE, META_FINISH_REASON)
    return stored if stored and stored != base and reason != FINISHED else None


def unfinished_crawls_of(server: redis.Redis, base: str, mode: str) -> list[str]:
    """The recorded crawl ids holding an unfinished crawl of ``base`` in ``mode``
    (e.g. under a default id computed the former way, before the hash)."""
    crawls = [c for c in crawl_ids(server) if valid_crawl_id(c)]
    pipe = server.pipeline(transaction=False)
    for crawl in crawls:
        pipe.hmget(CrawlKeys(crawl).meta, META_BASE, META_MODE, META_FINISH_REASON)
    found = []
    for crawl, fields in zip(crawls, pipe.execute()):
        stored, stored_mode, reason = map(_text, fields)
        if stored == base and stored_mode == mode and reason != FINISHED:
            found.append(crawl)
    return found


def budget_until(server: redis.Redis, keys: CrawlKeys) -> int | None:
    """The crawl's ``fetched`` count at which the run's page budget is spent, if set."""
    stored = server.hget(keys.meta, META_BUDGET_UNTIL)
    return None if stored is None else int(stored)


def set_budget_until(server: redis.Redis, keys: CrawlKeys, until: int) -> None:
    server.hset(keys.meta, META_BUDGET_UNTIL, str(until))


def fetched_count(server: redis.Redis, keys: CrawlKeys) -> int:
    """The pages the crawl analysed, over every worker and run (``fetched``)."""
    return int(server.hget(keys.meta, META_FETCHED) or 0)


def record_depths(server: redis.Redis, keys: CrawlKeys, depths: Mapping[int, int]) -> None:
    """Keep the stored tree's pages per depth (``depths``: JSON, depth -> pages)."""
    server.hset(keys.meta, META_DEPTHS, json.dumps(dict(sorted(depths.items()))))


def finish_crawl(server: redis.Redis, keys: CrawlKeys, now: str, reason: str) -> None:
    """Mark the crawl finished (``finished``: when, ``finish_reason``: why)."""
    server.hset(keys.meta, mapping={META_FINISHED: now, META_FINISH_REASON: reason})


def stored_template_menu(server: redis.Redis, keys: CrawlKeys) -> bytes | None:
    """The crawl's stored template menu (JSON, ``skeleton.spiders.template_menu``), if any."""
    return server.hget(keys.meta, META_TEMPLATE_MENU)


def store_template_menu(server: redis.Redis, keys: CrawlKeys, menu: str) -> bytes | None:
    """Store the crawl's template menu unless a worker stored one first; the one stored."""
    server.hsetnx(keys.meta, META_TEMPLATE_MENU, menu)
    return stored_template_menu(server, keys)


def add_crawl(server: redis.Redis, crawl: str) -> None:
    """Record ``crawl`` in the set of crawl ids."""
    server.sadd(CRAWLS, crawl)


def crawl_ids(server: redis.Redis) -> list[str]:
    """The recorded crawl ids, sorted."""
    return sorted(_text(crawl) for crawl in server.smembers(CRAWLS))


def is_recorded(server: redis.Redis, crawl: str) -> bool:
    """Is ``crawl`` in the set of crawl ids?"""
    return bool(server.sismember(CRAWLS, crawl))
