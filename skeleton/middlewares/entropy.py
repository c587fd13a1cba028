"""Term entropy of the crawl as pages arrive (WISDOM Section 3.1), kept in Redis.

``EntropyMiddleware`` is a spider middleware: before the spider sees an HTML
response (2xx, HTML or no content type, parsable), it extracts the page's terms
(:mod:`skeleton.entropy.terms`) and counts the page in the crawl's
:class:`skeleton.store.entropy.EntropyStore` (:data:`skeleton.store.entropy.UPDATE_SCRIPT`),
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
The update script also returns the statistics of the page's own terms, from which
the store computes their W (:func:`skeleton.entropy.statistics.weights`): the middleware leaves
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

import logging
from collections.abc import Iterable, Mapping
from functools import partial
from typing import TYPE_CHECKING, Any, Self

from scrapy import signals

from skeleton.store import outage
from skeleton.analyses import enabled as analysis_enabled
from skeleton.entropy.terms import DEFAULT_LANGUAGE, MAX_PAGE_TERMS, page_terms, stop_words
from skeleton.middlewares.shared import (analysis_failed, crawl_keys, inc_stat, page_text, page_to_analyse,
                                        shared_page)
from skeleton.store.entropy import EntropyStore
from skeleton.store.scheduler import MAX_BATCH_WAITING, flush_requested
from skeleton.store.writes import Write, submit
from skeleton.store.server import StoreError, connect
from skeleton.web.urls import canonical

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response

__all__ = ["EntropyMiddleware", "STATS_PREFIX", "configured_stop_words"]

logger = logging.getLogger(__name__)

STATS_PREFIX = "skeleton/entropy"
#: Pages counted in one batch at most (they are counted when the scheduler writes
#: its acknowledgements, see :data:`skeleton.store.scheduler.flush_requested`).
MAX_WAITING = MAX_BATCH_WAITING
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
        store.load_script()  # batches call it by sha

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        settings = crawler.settings
        keys = crawl_keys(crawler, "EntropyMiddleware", "SKELETON_ENTROPY_ENABLED")
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
        inc_stat(self.crawler, f"{STATS_PREFIX}/{name}", count)

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
        except StoreError as exc:
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
        if not isinstance(exc, StoreError):
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
        except StoreError as exc:
            logger.warning("could not read the entropy vocabulary size: %s", exc)
        finally:
            self.store.close()
