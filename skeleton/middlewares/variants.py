"""URL variants: tracking parameters stripped, duplicates learned, form pages skipped.

A spider middleware between the spider and the scheduler:

* on the way in, it fingerprints each HTML page's main content
  (:func:`skeleton.urlrules.duplicates.content_fingerprint`) and, in batches (two
  round trips per batch, when the scheduler is about to acknowledge leases, see
  :data:`skeleton.store.scheduler.flush_requested`), compares it with the
  page's simpler variants already fetched (and the variants waiting for this page):
  every comparison is a vote on the parameter or trailing segment that differs, and
  a variant with the same content is recorded as an alias of the simpler URL, so
  the page is one node whichever URL was fetched first;
* on the way out, every request's URL loses its tracking parameters
  (:func:`skeleton.urlrules.tracking.strip_tracking`) and the parameters and trailing
  segments the site's votes show irrelevant
  (:func:`skeleton.urlrules.duplicates.learned_rules`); a changed URL is recorded as
  an alias of the cleaned one (written with the next batch), and the request goes
  out under the cleaned URL, which
  the dupefilter then drops when it was fetched already. A request to a path that
  answered with a form only before (an item with reason ``form``) is dropped.

Everything learned lives in Redis (``:fingerprints``: each page's content fingerprint, 8
bytes, under the :func:`skeleton.store.keys.url_id` of its URL, ``:variants``, ``:votes``,
``:forms``, ``:aliases``), so every worker of a crawl learns from every page; each
worker rereads the votes after its own and at most every
``SKELETON_VARIANTS_REFRESH`` seconds. Settings: ``SKELETON_VARIANTS_ENABLED``
(the middleware), ``SKELETON_STRIP_TRACKING``, ``SKELETON_LEARN_VARIANTS``,
``SKELETON_VARIANTS_MIN_SUPPORT`` and ``SKELETON_SKIP_ACTIONS`` (form paths). A
Redis error is logged and counted (``skeleton/variants/errors``); the request goes
out as the spider made it. So does a request or page whose analysis raises any
other error (counted there and per type, logged once per type:
:func:`skeleton.middlewares.shared.analysis_failed`). Stats: ``skeleton/variants/tracking_stripped``,
``learned_stripped``, ``duplicates`` (aliases from same content), ``votes``,
``form_skipped``.
"""
from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import AsyncIterator
from functools import partial
from typing import TYPE_CHECKING, Any, Self

from scrapy import Request, signals
from scrapy.http import Response

from skeleton.store import outage
from skeleton.items import PageItem
from skeleton.middlewares.shared import analysis_failed, crawl_keys, store_failed, page_to_analyse, shared_page
from skeleton.store.keys import CrawlKeys
from skeleton.store.scheduler import MAX_BATCH_WAITING, flush_requested
from skeleton.store.server import StoreError, connect
from skeleton.store.variants import VariantStore
from skeleton.store.writes import Write, submit
from skeleton.web.urls import canonical
from skeleton.urlrules.actions import action_path
from skeleton.urlrules.duplicates import (MIN_SUPPORT, LearnedRules, compare_variants, content_fingerprint,
                                          learned_rules, variant_candidates)
from skeleton.urlrules.tracking import strip_tracking

if TYPE_CHECKING:
    from skeleton.store.server import Client
    from scrapy.crawler import Crawler

__all__ = ["MAX_PAGES_WAITING", "STATS_PREFIX", "UrlVariantsMiddleware"]

logger = logging.getLogger(__name__)

STATS_PREFIX = "skeleton/variants"
#: pages fingerprinted and not compared yet, at most (one batch: see ``flush``)
MAX_PAGES_WAITING = MAX_BATCH_WAITING


class UrlVariantsMiddleware:
    def __init__(self, crawler: Crawler, server: Client, keys: CrawlKeys, *, strip: bool = True,
                 learn: bool = True, skip_forms: bool = True, min_support: int = MIN_SUPPORT,
                 refresh: float = 2.0) -> None:
        self.crawler = crawler
        self.store = VariantStore(server, keys)
        self.keys = keys
        self.strip = strip
        self.learn = learn
        self.skip_forms = skip_forms
        self.min_support = min_support
        self.refresh = refresh
        self.rules = LearnedRules()
        self.forms: set[str] = set()
        self.read_at = float("-inf")
        self.waiting: list[tuple[str, str]] = []  # (URL, fingerprint) of the pages to compare
        self.aliases: dict[str, str] = {}  # request URL -> the cleaned URL it went out as
        crawler.signals.connect(self.flush, signal=flush_requested)
        crawler.signals.connect(self.flush, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        settings = crawler.settings
        keys = crawl_keys(crawler, "UrlVariantsMiddleware", "SKELETON_VARIANTS_ENABLED")
        return cls(crawler, connect(settings), keys,
                   strip=settings.getbool("SKELETON_STRIP_TRACKING", True),
                   learn=settings.getbool("SKELETON_LEARN_VARIANTS", True),
                   skip_forms=settings.getbool("SKELETON_SKIP_ACTIONS", True),
                   min_support=max(1, settings.getint("SKELETON_VARIANTS_MIN_SUPPORT", MIN_SUPPORT)),
                   refresh=settings.getfloat("SKELETON_VARIANTS_REFRESH", 2.0))

    def _inc(self, name: str, count: int = 1) -> None:
        self.crawler.stats.inc_value(f"{STATS_PREFIX}/{name}", count)

    def _error(self, what: str, exc: Exception) -> None:
        store_failed(logger, self.crawler, "URL variants", STATS_PREFIX, what, exc)

    def _failed(self, url: str, exc: Exception) -> None:
        analysis_failed(logger, self.crawler.stats, "variants", url, exc)

    # -- learning ---------------------------------------------------------------

    def process_spider_input(self, response: Response) -> None:
        if not self.learn or not page_to_analyse(response, self.crawler):
            return
        try:
            url = canonical(response.url)
            page = shared_page(response, self.crawler.stats) if url else None
            fingerprint = content_fingerprint(page.root, page.attributes) if page is not None else None
        except Exception as exc:  # optional analysis never costs a page
            self._failed(response.url, exc)
            return
        if url and fingerprint is not None:
            self.waiting.append((url, fingerprint))
            if len(self.waiting) >= MAX_PAGES_WAITING:
                self.flush()

    def flush(self, writes: list[Write] | None = None) -> None:
        """Compare the pages waiting with their variants, in two round trips: their
        fingerprints are stored and their variants' read (one pipeline), then the
        votes, aliases and waiting entries written (another). Run on the
        scheduler's ``flush_requested`` (handed to its exchange in ``writes``,
        before it acknowledges the pages' leases), and at once every
        ``MAX_PAGES_WAITING`` pages and at close. The pages of one batch see each
        other's fingerprints, as if fetched one after the other."""
        waiting, self.waiting = self.waiting, []
        aliases, self.aliases = self.aliases, {}
        if not (waiting or aliases) or outage.is_down(self.crawler):
            return
        submit(Write(partial(self._compare, waiting, aliases), self._compared,
                     partial(self._not_compared, waiting, aliases)), writes)

    def _compared(self, found: tuple[int, int]) -> None:
        votes, duplicates = found
        if votes:
            self._inc("votes", votes)
            self.read_at = float("-inf")  # reread the rules before the next links go out
        if duplicates:
            self._inc("duplicates", duplicates)

    def _not_compared(self, pages: list[tuple[str, str]], stripped: dict[str, str], exc: Exception) -> None:
        if outage.is_down(self.crawler):
            return  # declared by another write of the same exchange: nothing more to say
        if isinstance(exc, StoreError):
            self._error(f"compare {len(pages)} pages with their variants", exc)
        else:  # optional analysis never costs a page
            self._failed(pages[0][0] if pages else next(iter(stripped)), exc)

    def _compare(self, pages: list[tuple[str, str]], stripped: dict[str, str]) -> tuple[int, int]:
        """Compare ``pages`` ((URL, fingerprint)) with their variants and record the
        aliases of the requests ``stripped`` (URL -> cleaned URL) with the findings.
        Redis and pure functions only (it runs on the scheduler's I/O thread): returns
        the votes cast and the duplicates found."""
        candidates = [[c.url for c in variant_candidates(url)] for url, _ in pages]
        votes: Counter[str] = Counter()
        duplicates: dict[str, str] = {}
        read: list[str] = []
        pending: list[tuple[str, list[Any]]] = []
        for (url, fingerprint), (known, entries) in zip(pages, self.store.exchange(pages, candidates)):
            found = compare_variants(url, fingerprint, known, entries or [])
            votes.update(found.votes)
            duplicates.update(found.aliases)
            if entries is not None:
                read.append(url)
            pending += [(c.url, [url, c.kind, list(c.names), fingerprint]) for c in found.pending]
        self.store.record(read, pending, votes, {**stripped, **duplicates})
        return sum(votes.values()), len(duplicates)

    def _read_rules(self) -> None:
        now = time.monotonic()
        if now - self.read_at < self.refresh or outage.is_down(self.crawler):
            return
        self.read_at = now
        try:
            counts, forms = self.store.rules()
        except StoreError as exc:
            self._error("read the learned URL rules", exc)
            return
        self.rules = learned_rules(counts, self.min_support) if self.learn else LearnedRules()
        self.forms = forms

    # -- requests ---------------------------------------------------------------

    def _form_page(self, url: str) -> None:
        path = action_path(url)
        self.forms.add(path)
        if outage.is_down(self.crawler):
            return
        try:
            self.store.add_form(path)
        except StoreError as exc:
            self._error(f"record the form page {url}", exc)

    def _rewrite(self, request: Request) -> Request | None:
        url = request.url
        stripped = strip_tracking(url) if self.strip else url
        cleaned = self.rules.clean(stripped)
        if cleaned != url:
            cleaned = canonical(cleaned) or cleaned
        if self.skip_forms and action_path(cleaned) in self.forms:
            self._inc("form_skipped")
            return None
        if cleaned == url:
            return request
        self._inc("tracking_stripped" if stripped != url else "learned_stripped")
        self.aliases[url] = cleaned  # written with the next batch (``flush``)
        return request.replace(url=cleaned)

    async def process_spider_output(self, response: Response,
                                    result: AsyncIterator[Any]) -> AsyncIterator[Any]:
        try:
            self._read_rules()
        except Exception as exc:  # the rules known so far stay
            self._failed(response.url, exc)
        async for entry in result:
            try:
                if isinstance(entry, Request):
                    entry = self._rewrite(entry)
                elif isinstance(entry, PageItem) and entry.get("reason") == "form" and self.skip_forms:
                    self._form_page(str(entry.get("url") or ""))
            except Exception as exc:  # the entry goes out as the spider made it
                self._failed(getattr(entry, "url", None) or response.url, exc)
            if entry is not None:
                yield entry
