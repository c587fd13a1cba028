"""Records the crawl's pages in Redis: page records and every offer of a parent.

For each item one Lua script (:data:`skeleton.store.records.RECORD_SCRIPT`) stores
the page record in ``:pages`` (the URLs the item
names as its ``aliases``, the URL a canonical link replaced, go to ``:aliases``
first) and merges the
page's offers (:mod:`skeleton.hierarchy.offers`: for each navigation link, the
candidate parent and the features of the list it came from) into ``:offers``,
child URL -> list of offers. An offer is replaced by a new one from the same page
for the same parent, so storing a page twice changes nothing; a child keeps at
most ``MAX_OFFERS`` offers, those with the smallest ``offer_key`` (offers from the
pages whose folder holds the child, then nested entries and short lists first; a
site-wide menu or an A-Z index of thousands is dropped
first), so the kept offers never depend on the order pages arrive in. Offers to
the crawl's root are never kept.

A page that failed for good (the spider's errback: an HTTP error after retries, a
timeout, a DNS or connection error, a body too large, a redirect loop...) comes as
an item with ``reason`` ``failed`` and its ``status`` and is stored the same way,
its URL and status also in ``:failed``; it never replaces the record of a page
fetched (by another worker, under another URL), and the page's record replaces it
when a later fetch works.
A page that redirects out of the crawl's scope (``reason`` ``redirect_offsite``,
:mod:`skeleton.middlewares.scope`) is a page fetched, its URL and the URL it
redirects to (``redirect_to``) also in ``:offsite`` until a later record replaces it.

After each page analysed, the pipeline sends :data:`page_stored` with the crawl's
``fetched`` count (every worker's pages), which the crawl lifecycle compares with
the run's page budget. The crawl's opening, budget and end (the tree resolved into
``:tree``, ``finished``) are not done here: :mod:`skeleton.extensions.lifecycle`.
Items are stored in batches, one round trip (a pipeline of the script) when the
scheduler is about to acknowledge leases (``flush_requested``), every
``MAX_WAITING`` items and at close: a page's lease ends only once its record is
stored. A Redis error left after the client's retries stops the crawl
(:mod:`skeleton.store.outage`); the items waiting are then not stored and their
pages' leases not acknowledged, so a later worker crawls them again.
"""
from __future__ import annotations

import logging
from functools import partial
from typing import TYPE_CHECKING, Any, Self

from itemadapter import ItemAdapter
from scrapy import signals
from scrapy.exceptions import DropItem, NotConfigured

from skeleton.crawl_settings import crawl_settings
from skeleton.store import outage
from skeleton.store.keys import CrawlKeys
from skeleton.store.records import FAILED, NAMED, OFFSITE, PAGE, PageWrite, RecordStore
from skeleton.store.scheduler import MAX_BATCH_WAITING, flush_requested
from skeleton.store.server import connect
from skeleton.store.writes import Write, submit
from skeleton.hierarchy.offers import MAX_OFFERS, origin_of, pack_offer
from skeleton.hierarchy.resolve import FAILED_REASON
from skeleton.middlewares.scope import REDIRECT_OFFSITE_REASON

if TYPE_CHECKING:
    from skeleton.store.server import Client
    from scrapy.crawler import Crawler

__all__ = ["TreePipeline", "page_record", "page_stored"]

logger = logging.getLogger(__name__)

#: Signal (``fetched=``) sent after a page analysed is stored: ``fetched`` is the
#: crawl's count of pages analysed, over every worker (``:meta`` ``fetched``).
page_stored = object()
#: Items kept for one batch at most (they are stored when the scheduler is about
#: to acknowledge leases: :data:`skeleton.store.scheduler.flush_requested`).
MAX_WAITING = MAX_BATCH_WAITING




def page_record(item: Any) -> dict[str, Any]:
    """The JSON-safe page record of an item (its offers are stored apart)."""
    # the item's values are JSON-safe built-ins already: a shallow copy, not asdict()'s deep one
    record = dict(ItemAdapter(item).items())
    record.pop("offers", None)
    return record


class TreePipeline:
    """Stores pages and tree edges of the skeleton spider's items in Redis."""

    def __init__(self, crawler: Crawler, server: Client) -> None:
        """``server``: a Redis client (:func:`skeleton.store.server.connect`)."""
        self.crawler = crawler
        crawl = crawl_settings(crawler.settings)
        assert crawl is not None, "built by from_crawler"
        self.store = store = RecordStore(server, CrawlKeys(crawl.crawl), crawl.base, MAX_OFFERS)
        self.keys = store.keys
        self.origin = origin_of(crawl.base)
        self.waiting: list[tuple[dict[str, str], list[Any]]] = []
        store.load_script()  # batches call it by sha
        crawler.signals.connect(self.flush, signal=flush_requested)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        if crawl_settings(crawler.settings) is None:
            raise NotConfigured("TreePipeline works with the skeleton spider only")
        return cls(crawler, connect(crawler.settings))

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
        reason = record.get("reason")
        kind = (FAILED if reason == FAILED_REASON else NAMED if aliases
                else OFFSITE if reason == REDIRECT_OFFSITE_REASON else PAGE)
        detail = record.get("redirect_to") if kind == OFFSITE else record.get("status")
        page = PageWrite(record, kind, str(detail or ""),
                         [(child, *pack_offer(offer, self.origin, child)) for child, offer in sorted(offers.items())])
        self.waiting.append((aliases, self.store.arguments(page)))
        if len(self.waiting) >= MAX_WAITING:
            self.flush()
        return item

    def flush(self, writes: list[Write] | None = None) -> None:
        """Store the items waiting, in one round trip (a pipeline of the script):
        on the scheduler's ``flush_requested`` (handed to its exchange in
        ``writes``, written before it acknowledges their pages' leases) and at close
        (at once). On a Redis failure the outage is declared once; the items are
        not stored and their leases stay unacknowledged, so a later worker crawls
        their pages again."""
        waiting, self.waiting = self.waiting, []
        if not waiting:
            return
        if outage.is_down(self.crawler):
            self.crawler.stats.inc_value("skeleton/redis_unavailable/items_not_stored", len(waiting))
            return
        submit(Write(partial(self._store, waiting), self._stored, partial(self._not_stored, len(waiting))),
               writes)

    def _store(self, waiting: list[tuple[dict[str, str], list[Any]]]) -> list[tuple[int, int]]:
        """Write ``waiting`` (Redis only: runs on the scheduler's I/O thread)."""
        return self.store.write(waiting)

    def _stored(self, results: list[tuple[int, int]]) -> None:
        for _, fetched in results:
            if fetched:  # a page analysed (0 for a failed one)
                self.crawler.signals.send_catch_log(page_stored, fetched=fetched)

    def _not_stored(self, count: int, exc: Exception) -> None:
        self.crawler.stats.inc_value("skeleton/redis_unavailable/items_not_stored", count)
        if isinstance(exc, outage.REDIS_ERRORS):
            # declared once (one error line); the items are not stored, like the
            # items still in flight, and their pages' leases stay unacknowledged
            outage.redis_down(self.crawler, exc, "storing pages")
        else:
            logger.error("could not store %d pages: %r", count, exc, exc_info=exc)

    def close_spider(self) -> None:
        self.flush()

    def spider_closed(self) -> None:
        """Close the Redis client once the scheduler is closed: until then its I/O
        thread may still be writing a batch of this pipeline's (closing the client
        under it broke that write while its pages were acknowledged)."""
        self.store.close()
