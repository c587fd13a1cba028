"""Records the crawl in Redis: page records, every offer of a parent, crawl metadata.

For each item one Lua script stores the page record in ``:pages`` (the URLs the item
names as its ``aliases``, the URL a canonical link replaced, go to ``:aliases``
first) and merges the
page's offers (:mod:`skeleton.hierarchy.offers`: for each navigation link, the
candidate parent and the features of the list it came from) into ``:offers``,
child URL -> list of offers. An offer is replaced by a new one from the same page
for the same parent, so storing a page twice changes nothing; a child keeps at
most ``MAX_OFFERS`` offers, those with the smallest ``offer_key`` (nested entries
and short lists first; a site-wide menu or an A-Z index of thousands is dropped
first), so the kept offers never depend on the order pages arrive in. Offers to
the crawl's root are never kept.

A page that failed for good (the spider's errback: an HTTP error after retries, a
timeout, a DNS or connection error) comes as an item with ``reason`` ``failed``
and its ``status`` and is stored the same way, its URL and status also in
``:failed``; it never replaces the record of a page fetched (by another worker,
under another URL), and the page's record replaces it when a later fetch works.

The tree is not decided here: when the crawl finishes, the worker that records
its end resolves the tree from every page and offer
(:func:`skeleton.hierarchy.resolve.resolve_tree`) and stores it in ``:tree``;
``scrapy tree`` resolves it on demand for an unfinished crawl.

At open, a crawl id whose previous run finished (reason ``finished``) is reset
and crawled afresh; an interrupted one resumes from its queue and dupefilter
(one script, so workers starting together reset it once), unless it was started
with another base URL: then nothing is written, one error line names both bases
and the crawl stops before fetching anything (reason ``base_mismatch``;
``scrapy crawl`` refuses it before starting, :func:`refuse_other_base`). At close, a worker
records ``finished``/``finish_reason`` when the crawl is complete (reason
``finished``) or when it is the last worker alive: one worker of many stopping
early does not mark the shared crawl as stopped. A Redis error left after the
client's retries stops the crawl (:mod:`skeleton.store.outage`); the item is then not
stored and its page's lease not acknowledged, so a later worker crawls it again.
"""
from __future__ import annotations

import json
import logging
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Self

from itemadapter import ItemAdapter
from scrapy import signals
from scrapy.exceptions import CloseSpider, DropItem, NotConfigured
from scrapy.utils.defer import deferred_from_coro

from skeleton.store import outage
from skeleton.store.queue import workers_alive
from skeleton.store.keys import CRAWLS, CrawlKeys, valid_crawl_id
from skeleton.store.server import connect
from skeleton.hierarchy.offers import MAX_OFFERS, offer_key
from skeleton.hierarchy.resolve import FAILED_REASON
from skeleton.store.tree import resolve_recorded_tree, store_tree

if TYPE_CHECKING:
    import redis
    from scrapy import Spider
    from scrapy.crawler import Crawler

__all__ = ["TreePipeline", "OFFER_SCRIPT", "BASE_MISMATCH", "page_record", "refuse_other_base",
           "unfinished_crawls_of", "any_refused"]

logger = logging.getLogger(__name__)

#: KEYS: pages, offers, and optionally meta (its ``fetched`` field counts the pages
#: analysed) and failed (URL -> status of the pages whose record is a failed one).
#: ARGV: root, page URL, page record, the bound, the kind of record ("0": a page
#: analysed; "1": a record named by a canonical link, kept only when the page has
#: no record of its own yet; "2": a page that failed for good, ``FAILED_REASON``,
#: kept only when the page has no record or a failed one: a page fetched once is
#: never replaced by a failure, a failed one always by the page), then (child,
#: offer JSON, offer key, offer identity) quadruples. Returns the number of
#: children whose offers changed and the crawl's ``fetched`` count after this page
#: (0 without meta or for a failed page).
OFFER_SCRIPT = """
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
if KEYS[3] and kind ~= '2' then fetched = redis.call('HINCRBY', KEYS[3], 'fetched', 1) end
if kind ~= '0' then
  local old = redis.call('HGET', KEYS[1], ARGV[2])
  if old then
    local ok, record = pcall(cjson.decode, old)
    local failed = ok and type(record) == 'table' and record.reason == 'failed'
    if not failed then return {0, fetched} end
  end
end
redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
if KEYS[4] then
  if kind == '2' then
    local record = cjson.decode(ARGV[3])
    redis.call('HSET', KEYS[4], ARGV[2], tostring(record.status or ''))
  else
    redis.call('HDEL', KEYS[4], ARGV[2])
  end
end
local bound = tonumber(ARGV[4])
local changed = 0
for i = 6, #ARGV - 3, 4 do
  local child, offer, key, id = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3]
  if child ~= ARGV[1] then
    local old = redis.call('HGET', KEYS[2], child)
    local list = {}
    if old then list = cjson.decode(old) end
    local kept, same = {}, false
    for _, entry in ipairs(list) do
      if entry.id == id then
        same = (entry.k == key and entry.o == offer)
      else
        table.insert(kept, entry)
      end
    end
    if not same then
      table.insert(kept, {id = id, k = key, o = offer})
      table.sort(kept, function(a, b) return less(a.k, b.k) end)
      while #kept > bound do table.remove(kept) end
      redis.call('HSET', KEYS[2], child, cjson.encode(kept))
      changed = changed + 1
    end
  end
end
return {changed, fetched}
"""


#: KEYS: meta, then the crawl's keys to delete if it finished. ARGV: the crawl's
#: base URL, then field/value pairs to set. Returns ``{1, ''}`` if the crawl was
#: reset, ``{0, ''}`` if it goes on, or ``{-1, stored base}`` (nothing written) if
#: it would resume a crawl started with another base URL.
OPEN_SCRIPT = """
local reset = 0
if redis.call('HGET', KEYS[1], 'finish_reason') == 'finished' then
  redis.call('DEL', unpack(KEYS))
  reset = 1
else
  local stored = redis.call('HGET', KEYS[1], 'base')
  if stored and stored ~= ARGV[1] then return {-1, stored} end
end
redis.call('HDEL', KEYS[1], 'finished', 'finish_reason')
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
return {reset, ''}
"""
#: finish reason of a crawl the pipeline refused: its crawl id holds an
#: unfinished crawl of another base URL
BASE_MISMATCH = "base_mismatch"
_REFUSED: list[bool] = [False]


def _text(value: bytes | str | None) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else (value or "")


def base_mismatch(crawl: str, stored: str, base: str) -> str:
    """The one-line error for a crawl id that holds a crawl of another base URL."""
    return (f"crawl {crawl!r} holds an unfinished crawl of {stored}, not of {base}: "
            "refusing to mix two sites in one crawl (give another crawl id: -a crawl=ID)")


def refuse_other_base(server: redis.Redis, keys: CrawlKeys, base: str) -> None:
    """Raise ``ValueError`` if the crawl would resume a crawl of another base URL
    (its ``:meta`` base differs and it did not finish; a finished crawl starts
    afresh). :class:`TreePipeline` checks the same when it opens, atomically."""
    stored, reason = map(_text, server.hmget(keys.meta, "base", "finish_reason"))
    if stored and stored != base and reason != "finished":
        raise ValueError(base_mismatch(keys.crawl, stored, base))


def unfinished_crawls_of(server: redis.Redis, base: str, mode: str) -> list[str]:
    """The recorded crawl ids holding an unfinished crawl of ``base`` in ``mode``
    (e.g. under a default id computed the former way, before the hash)."""
    crawls = sorted(map(_text, server.smembers(CRAWLS)))
    crawls = [c for c in crawls if valid_crawl_id(c)]
    pipe = server.pipeline(transaction=False)
    for crawl in crawls:
        pipe.hmget(CrawlKeys(crawl).meta, "base", "mode", "finish_reason")
    found = []
    for crawl, fields in zip(crawls, pipe.execute()):
        stored, stored_mode, reason = map(_text, fields)
        if stored == base and stored_mode == mode and reason != "finished":
            found.append(crawl)
    return found


def any_refused() -> bool:
    """Whether a crawl of this process was refused for another base URL."""
    return _REFUSED[0]


def page_record(item: Any) -> dict[str, Any]:
    """The JSON-safe page record of an item (its offers are stored apart)."""
    record = dict(ItemAdapter(item).asdict())
    record.pop("offers", None)
    return record


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class TreePipeline:
    """Stores pages and tree edges of the skeleton spider's items in Redis."""

    def __init__(self, crawler: Crawler, server: redis.Redis) -> None:
        self.crawler = crawler
        self.server = server
        self.script = server.register_script(OFFER_SCRIPT)
        spider = crawler.spider
        self.keys = CrawlKeys(spider.crawl_id)
        self.root = spider.base
        self.refused = False
        self.max_pages: int | None = getattr(spider, "max_pages", None)
        self.budget_until: int | None = None
        model = getattr(spider, "model", None)
        self.edge_model: dict[str, Any] = dict(getattr(model, "edges", None) or {})

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        spider = crawler.spider
        if not (hasattr(spider, "crawl_id") and hasattr(spider, "base")):
            raise NotConfigured("TreePipeline works with the skeleton spider only")
        pipeline = cls(crawler, connect(crawler.settings))
        crawler.signals.connect(pipeline.spider_closed, signal=signals.spider_closed)
        return pipeline

    def open_spider(self) -> None:
        spider = self.crawler.spider
        previous = self.server.hget(self.keys.meta, "finish_reason")
        fields = {"base": self.root, "mode": spider.mode, "started": _now(),
                  "depth": "" if spider.max_depth is None else str(spider.max_depth),
                  "max_pages": "" if spider.max_pages is None else str(spider.max_pages),
                  "edge_model": json.dumps(self.edge_model, sort_keys=True)}
        keys = [self.keys.meta, *(k for k in self.keys.all() if k != self.keys.meta)]
        reset, stored = self.server.eval(OPEN_SCRIPT, len(keys), *keys, self.root,
                                         *[x for pair in fields.items() for x in pair])
        if reset == -1:
            self.refused = _REFUSED[0] = True
            stored = _text(stored)
            self.crawler.stats.set_value("skeleton/base_mismatch", stored)
            logger.error(base_mismatch(self.keys.crawl, stored, self.root))
            raise CloseSpider(BASE_MISMATCH)
        if reset:
            logger.info("crawl %s finished before: starting it afresh", self.keys.crawl)
        elif previous is not None or self.server.hlen(self.keys.pages):
            logger.info("resuming crawl %s (last stopped: %s)", self.keys.crawl,
                        previous.decode() if previous else "unknown")
        self.server.sadd(CRAWLS, self.keys.crawl)
        if self.max_pages is not None:
            self.budget_until = self.run_budget(self.max_pages)

    def process_item(self, item: Any) -> Any:
        if outage.is_down(self.crawler):
            # not stored: the page keeps its lease and is crawled again later
            self.crawler.stats.inc_value("skeleton/redis_unavailable/items_not_stored")
            raise DropItem("not stored: Redis is unavailable")
        adapter = ItemAdapter(item)
        offers = adapter.get("offers") or {}
        if "offers" in adapter:
            del adapter["offers"]  # stored here, not exported to feeds
        record = page_record(item)
        aliases = {alias: record["url"] for alias in record.get("aliases") or ()
                   if isinstance(alias, str) and alias and alias != record["url"]}
        # a page stored under the URL its canonical link names (an AMP or print copy)
        # never replaces that page's own record
        kind = "2" if record.get("reason") == FAILED_REASON else "1" if aliases else "0"
        args = [self.root, record["url"], json.dumps(record, ensure_ascii=False, sort_keys=True),
                MAX_OFFERS, kind]
        for child, offer in sorted(offers.items()):
            args += [child, json.dumps(offer, ensure_ascii=False, sort_keys=True), offer_key(offer),
                     f"{offer['from']}\x00{offer['parent']}"]
        try:
            if aliases:  # the page's canonical link renamed it: its URL is an alias
                self.server.hset(self.keys.aliases, mapping=aliases)
            _, fetched = self.script(keys=[self.keys.pages, self.keys.offers, self.keys.meta,
                                           self.keys.failed], args=args)
        except outage.REDIS_ERRORS as exc:
            # declared once (one error line); the item is dropped unstored, like the
            # items still in flight, and its page's lease stays unacknowledged
            outage.redis_down(self.crawler, exc, "storing a page")
            self.crawler.stats.inc_value("skeleton/redis_unavailable/items_not_stored")
            raise DropItem("not stored: Redis is unavailable") from None
        if self.budget_until is not None and int(fetched or 0) >= self.budget_until:
            self.budget_spent(int(fetched))
        return item

    def run_budget(self, max_pages: int) -> int:
        """The crawl's ``fetched`` count at which this run's ``max_pages`` budget is
        spent, kept in ``:meta`` ``budget_until``: set by the first worker of a run
        (the pages of earlier runs plus ``max_pages``), shared by the workers that
        join it while it runs."""
        lease = self.crawler.settings.getfloat("SKELETON_LEASE_TIMEOUT", 60.0)
        stored = self.server.hget(self.keys.meta, "budget_until")
        if stored is not None and workers_alive(self.server, self.keys, lease) > 1:
            return int(stored)
        until = int(self.server.hget(self.keys.meta, "fetched") or 0) + max_pages
        self.server.hset(self.keys.meta, "budget_until", str(until))
        return until

    def budget_spent(self, fetched: int) -> None:
        """The run's page budget is spent, counted over every worker (the crawl's
        ``fetched``): close this worker; the requests still queued stay in Redis."""
        stats = self.crawler.stats
        if stats.get_value("skeleton/max_pages/reached") is None:
            logger.info("crawl %s: %d pages analysed, max_pages=%d reached",
                        self.keys.crawl, fetched, self.max_pages)
        stats.set_value("skeleton/max_pages/reached", self.max_pages)
        if self.crawler.crawling and self.crawler.engine is not None:
            deferred_from_coro(self.crawler.engine.close_spider_async(reason="max_pages"))

    def store_resolved_tree(self) -> None:
        """Resolve the crawl's tree from every page and offer and store it in ``:tree``."""
        tree = resolve_recorded_tree(self.server, self.keys, self.root, self.edge_model)
        store_tree(self.server, self.keys, tree)
        logger.info("tree of crawl %s: %d pages below its root; see `scrapy tree --crawl %s`",
                    self.keys.crawl, len(tree), self.keys.crawl)

    def spider_closed(self, spider: Spider, reason: str) -> None:
        try:
            if outage.is_down(self.crawler) or self.refused:
                return  # nothing of a refused crawl is written: the stored one is not ours
            lease = self.crawler.settings.getfloat("SKELETON_LEASE_TIMEOUT", 60.0)
            alive = workers_alive(self.server, self.keys, lease)
            if reason != "finished" and alive:
                logger.info("%d other worker(s) still on crawl %s: not marking it %s",
                            alive, self.keys.crawl, reason)
                return
            self.store_resolved_tree()
            self.server.hset(self.keys.meta, mapping={"finished": _now(), "finish_reason": reason})
        except outage.REDIS_ERRORS as exc:
            logger.error("could not record the end of crawl %s: %s", self.keys.crawl, exc)
        finally:
            self.server.close()
