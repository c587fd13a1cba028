"""Records the crawl in Redis: page records, best tree edges and crawl metadata.

For each item one Lua script stores the page record in ``:pages`` and offers,
for each of its navigation links, the edge candidate child -> (parent,
child depth, the page's own depth, section directories) to ``:edges``, which
keeps per child the best edge by ``skeleton.sew.edges.edge_rank``: smallest
depth, then offered by the shallowest page, then most leading directories of a
directory index parent, then smallest parent URL (bytewise).
Edges to the crawl's root are never kept.

Why the kept edges form a tree (no cycle): write D(p) for the crawl depth of a
fetched page p (the depth in the request that fetched it) and d(u) for the depth
of the edge kept for u (d(root) = 0). Every edge candidate offered by page p has
depth D(p) + level, and a nested entry's parent entry is offered by the same
item at depth D(p) + level - 1, so a candidate's depth is always one more than
the depth at which its parent was offered or fetched. The request that fetched
p was created from one of those candidates, so d(p) <= D(p): d never exceeds the
crawl depth, and offering more candidates only lowers it. Hence along every
kept edge parent -> child, d(parent) < d(child); a cycle would need d to
decrease somewhere, so there is none (the tie-breaks among equal depths do not
matter to this), and as nothing points to the root, every chain of kept edges
from the root is finite. The rule is a minimum over a total order, so applying candidates in any order, or twice, gives the same edges.

At open, a crawl id whose previous run finished (reason ``finished``) is reset
and crawled afresh; an interrupted one resumes from its queue and dupefilter
(one script, so workers starting together reset it once). At close, a worker
records ``finished``/``finish_reason`` when the crawl is complete (reason
``finished``) or when it is the last worker alive: one worker of many stopping
early does not mark the shared crawl as stopped. A Redis error left after the
client's retries stops the crawl (:mod:`skeleton.outage`); the item is then not
stored and its page's lease not acknowledged, so a later worker crawls it again.
"""
from __future__ import annotations

import json
import logging
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Self

from itemadapter import ItemAdapter
from scrapy import signals
from scrapy.exceptions import NotConfigured

from skeleton import outage
from skeleton.queue import workers_alive
from skeleton.redis_keys import CRAWLS, CrawlKeys
from skeleton.redis_server import connect
from skeleton.sew.edges import nest_links
from skeleton.sew.urls import section_dirs

if TYPE_CHECKING:
    import redis
    from scrapy import Spider
    from scrapy.crawler import Crawler

__all__ = ["TreePipeline", "EDGE_SCRIPT", "page_record"]

logger = logging.getLogger(__name__)

#: KEYS: pages, edges. ARGV: root, page URL, page record, the page's crawl depth
#: (every edge it offers is offered at that depth), then (child, parent, depth,
#: section directories) quadruples. Returns the number of edges changed. An edge
#: stored without ``at`` (before that field existed) counts as offered at depth - 1.
EDGE_SCRIPT = """
local function less(a, b)
  local n = math.min(#a, #b)
  for i = 1, n do
    local x, y = string.byte(a, i), string.byte(b, i)
    if x ~= y then return x < y end
  end
  return #a < #b
end
redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
local at = tonumber(ARGV[4])
local changed = 0
for i = 5, #ARGV - 3, 4 do
  local child, parent, depth, dirs = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2]), tonumber(ARGV[i + 3])
  if child ~= ARGV[1] and child ~= parent then
    local old = redis.call('HGET', KEYS[2], child)
    local better = true
    if old then
      local edge = cjson.decode(old)
      local old_at = edge.at or (edge.depth - 1)
      local old_dirs = edge.dirs or 0
      better = depth < edge.depth or (depth == edge.depth and (at < old_at or (at == old_at
        and (dirs > old_dirs or (dirs == old_dirs and less(parent, edge.parent))))))
    end
    if better then
      redis.call('HSET', KEYS[2], child,
                 cjson.encode({parent = parent, depth = depth, at = at, dirs = dirs}))
      changed = changed + 1
    end
  end
end
return changed
"""


#: KEYS: meta, then the crawl's keys to delete if it finished. ARGV: field/value
#: pairs to set. Returns 1 if the crawl was reset.
OPEN_SCRIPT = """
local reset = 0
if redis.call('HGET', KEYS[1], 'finish_reason') == 'finished' then
  redis.call('DEL', unpack(KEYS))
  reset = 1
end
redis.call('HDEL', KEYS[1], 'finished', 'finish_reason')
redis.call('HSET', KEYS[1], unpack(ARGV))
return reset
"""


def page_record(item: Any) -> dict[str, Any]:
    """The JSON-safe page record of an item."""
    return dict(ItemAdapter(item).asdict())


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class TreePipeline:
    """Stores pages and tree edges of the skeleton spider's items in Redis."""

    def __init__(self, crawler: Crawler, server: redis.Redis) -> None:
        self.crawler = crawler
        self.server = server
        self.script = server.register_script(EDGE_SCRIPT)
        spider = crawler.spider
        self.keys = CrawlKeys(spider.crawl_id)
        self.root = spider.base

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
                  "max_pages": "" if spider.max_pages is None else str(spider.max_pages)}
        keys = [self.keys.meta, *(k for k in self.keys.all() if k != self.keys.meta)]
        reset = self.server.eval(OPEN_SCRIPT, len(keys), *keys,
                                 *[x for pair in fields.items() for x in pair])
        if reset:
            logger.info("crawl %s finished before: starting it afresh", self.keys.crawl)
        elif previous is not None or self.server.hlen(self.keys.pages):
            logger.info("resuming crawl %s (last stopped: %s)", self.keys.crawl,
                        previous.decode() if previous else "unknown")
        self.server.sadd(CRAWLS, self.keys.crawl)

    def process_item(self, item: Any) -> Any:
        record = page_record(item)
        depth = int(record["depth"])
        args = [self.root, record["url"], json.dumps(record, ensure_ascii=False, sort_keys=True), depth]
        links = [(link["url"], link["parent"]) for link in record.get("nav_links") or []]
        for child, parent, level in nest_links(record["url"], links):
            args += [child, parent, depth + level, section_dirs(parent, child)]
        try:
            self.script(keys=[self.keys.pages, self.keys.edges], args=args)
        except outage.REDIS_ERRORS as exc:
            outage.redis_down(self.crawler, exc, "storing a page")
            raise
        return item

    def spider_closed(self, spider: Spider, reason: str) -> None:
        try:
            if outage.is_down(self.crawler):
                return
            lease = self.crawler.settings.getfloat("SKELETON_LEASE_TIMEOUT", 60.0)
            alive = workers_alive(self.server, self.keys, lease)
            if reason != "finished" and alive:
                logger.info("%d other worker(s) still on crawl %s: not marking it %s",
                            alive, self.keys.crawl, reason)
                return
            self.server.hset(self.keys.meta, mapping={"finished": _now(), "finish_reason": reason})
        except outage.REDIS_ERRORS as exc:
            logger.error("could not record the end of crawl %s: %s", self.keys.crawl, exc)
        finally:
            self.server.close()
