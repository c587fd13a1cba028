"""The ``skeleton`` spider: crawls a site breadth-first along its navigation links.

Arguments (``-a NAME=VALUE``) and the settings they imply: :mod:`.arguments`. Each
response is analysed by :func:`skeleton.analysis.page.analyse_page`, the analysis
the offline FINDSKELETON runs too; the spider turns the result into an item and
stats (:mod:`.pages`) and child requests (:mod:`.requests`). A page that fails for
good is a broken leaf (:mod:`.failures`), so is a page whose analysis takes longer
than ``SKELETON_ANALYSIS_BUDGET`` seconds (``status`` ``analysis_budget``,
:mod:`skeleton.budget`). A shutdown signal (SIGTERM, Ctrl-C) stops the analysis, but
the page is neither recorded nor acknowledged: its lease goes back to the queue for
the next run. A page that redirects out of the crawl's scope
(:mod:`skeleton.middlewares.scope`) is a leaf with ``reason`` ``redirect_offsite``.
When the base page redirects out (stat ``skeleton/base_redirect_offsite``) or
cannot be fetched (``skeleton/base_failed``), ``scrapy crawl`` exits with code 1.
"""
from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any, Self
from weakref import WeakSet

import scrapy
from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.http import Response
from scrapy.utils.defer import deferred_from_coro
from twisted.python.failure import Failure

from skeleton.analysis.page import analyse_page, scope_filter
from skeleton.budget import (BUDGET_SETTING, BUDGET_STATUS, DEFAULT_BUDGET, BudgetSpent, Deadline,
                             ShutdownPending, ShutdownWatch, checkpoint, within)
from skeleton.items import PageItem
from skeleton.middlewares.scope import META_REDIRECT_OFFSITE, REDIRECT_OFFSITE_REASON, redirect_offsite_status
from skeleton.middlewares.shared import META_PAGE, SharedPage, analysis_failed, html_response, release_page, \
    shared_page
from skeleton.navobjects.detector import PageDetector
from skeleton.schema.hook import item_sections
from skeleton.spiders.arguments import SPIDER_ARGUMENTS, configure, parse_arguments
from skeleton.spiders.failures import failed_item, failed_request
from skeleton.spiders.pages import new_item, record_analysis
from skeleton.spiders.requests import (META_CONTEXT, META_DEPTH, META_LANG, META_PARENT, child_requests,
                                       page_request, requeued)
from skeleton.spiders.sitemaps import SitemapReader
from skeleton.spiders.template_menu import load_template_menu
from skeleton.store import outage
from skeleton.store.contexts import ContextStore
from skeleton.store.queue import request_finished
from skeleton.store.server import StoreError
from skeleton.template.crawl import templates_with_menu
from skeleton.web.dom import looks_binary
from skeleton.web.urls import canonical

__all__ = ["BASE_REDIRECT_STAT", "SkeletonSpider"]

logger = logging.getLogger(__name__)

#: stat holding the URL out of the crawl's scope the base page redirects to
BASE_REDIRECT_STAT = "skeleton/base_redirect_offsite"


class SkeletonSpider(SitemapReader, scrapy.Spider):
    name = "skeleton"
    check_arguments = staticmethod(parse_arguments)  # -a checked before the crawl starts (scrapy crawl)

    def __init__(self, **kwargs: Any) -> None:
        self.args = parse_arguments(**kwargs)
        super().__init__(**{name: value for name, value in kwargs.items() if name not in SPIDER_ARGUMENTS})
        crawl = self.args.published
        self.base, self.crawl_id, self.mode, self.max_depth, self.max_pages = \
            crawl.base, crawl.crawl, crawl.mode, crawl.depth, crawl.max_pages
        self.model, self.detector, self.keys = self.args.model, self.args.detector, self.args.keys
        self.menu: frozenset[str] = frozenset()
        self.skip_actions = True
        self.pages_seen = 0
        self._contexts: ContextStore | None = None
        #: requests a response came for: an IgnoreRequest in their errback dropped a page requested
        self._answered: WeakSet[scrapy.Request] = WeakSet()
        self.analysis_budget = DEFAULT_BUDGET  # seconds per page (SKELETON_ANALYSIS_BUDGET; 0: none)
        self.shutdown = ShutdownWatch()  # a shutdown signal stops the analysis, its page stays queued

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> Self:
        spider = super().from_crawler(crawler, *args, **kwargs)
        spider.args = configure(crawler.settings, spider.args)  # before Scrapy freezes the settings
        spider.detector = spider.args.detector
        spider.skip_actions = crawler.settings.getbool("SKELETON_SKIP_ACTIONS", True)
        spider.analysis_budget = crawler.settings.getfloat(BUDGET_SETTING, DEFAULT_BUDGET)
        crawler.signals.connect(spider._response_downloaded, signal=signals.response_downloaded)
        return spider

    @property
    def contexts(self) -> ContextStore:
        """The crawl's detection contexts (:mod:`skeleton.store.contexts`)."""
        if self._contexts is None:
            self._contexts = ContextStore(self.crawler, self.keys.contexts)
        return self._contexts

    async def start(self) -> AsyncIterator[scrapy.Request]:
        if self.args.template_menu is not None:
            self.menu = frozenset(await load_template_menu(self.crawler, self.base, self.args.template_menu,
                                                           self.keys))
        yield page_request(self.base, 0, None, "", self.args.lang, self.parse, self.failed)
        for request in self.sitemap_requests():  # SKELETON_SITEMAP: a report, never a parent
            yield request

    def _response_downloaded(self, response: Response, request: scrapy.Request, **kwargs: Any) -> None:
        self._answered.add(request)

    def failed(self, failure: Failure) -> Iterator[PageItem]:
        """Errback: a page that failed for good is a broken leaf
        (:func:`skeleton.spiders.failures.failed_request`); a request filtered on
        purpose before it was made is done without a page (its lease acknowledged)."""
        request = failure.request  # type: ignore[attr-defined]
        if self.shutdown.requested:  # a download cut by the shutdown fails no page: it stays queued
            self._left_for_shutdown(request.url)
            return
        item = failed_request(failure, request in self._answered, self.crawler.stats)
        if item is None:
            self.crawler.signals.send_catch_log(request_finished, request=request)
            return
        yield item

    def parse(self, response: Response, **kwargs: Any) -> Iterator[PageItem | scrapy.Request]:
        """The page's child requests, then its item. Not a generator function itself:
        Scrapy would read and parse its source on every response to warn about
        ``return value`` in a generator callback."""
        return self._parse_page(response)

    def _parse_page(self, response: Response) -> Iterator[PageItem | scrapy.Request]:
        stats = self.crawler.stats
        self.shutdown.watch()
        if self.shutdown.requested:  # not analysed nor acknowledged: queued again for the next run
            self._left_for_shutdown(response.url)
            release_page(response)
            return
        if self.max_pages is not None and (self.pages_seen >= self.max_pages or stats.get_value(
                "skeleton/max_pages/reached") is not None):
            # over budget (this worker's, or the crawl's over every worker: skeleton.extensions.lifecycle)
            stats.inc_value("skeleton/max_pages/requeued")
            yield requeued(response, self.parse, self.failed)
            return
        self.pages_seen += 1
        stats.inc_value("skeleton/pages")
        # recorded under its final URL; the URLs that redirected to it are its aliases
        url = canonical(response.url) or canonical(response.meta.get("redirect_urls", [""])[0]) or response.url
        item = new_item(url, response.meta.get(META_PARENT), int(response.meta.get(META_DEPTH, 0)))
        try:
            with within(self._deadline(response)):
                requests = self._analyse(response, item)
        except ShutdownPending:
            self.pages_seen -= 1
            stats.inc_value("skeleton/pages", -1)
            self._left_for_shutdown(response.url)
            release_page(response)
            return
        except BudgetSpent as cut:
            logger.warning("analysis of %s stopped after %.2f s, over SKELETON_ANALYSIS_BUDGET (%g s): "
                           "recorded as failed: %s", item["url"], cut.seconds, cut.budget, BUDGET_STATUS)
            stats.inc_value("skeleton/failed_pages")
            stats.inc_value(f"skeleton/failed_pages/{BUDGET_STATUS}")
            item, requests = failed_item(url, item["found_from"], item["found_depth"], BUDGET_STATUS,
                                         title=item["title"], lang=item["lang"]), []
        except StoreError as exc:  # no context, no detection: the lease stays for a later run
            outage.redis_failed(self.crawler, exc, "reading a detection context")
            return
        except Exception:
            logger.exception("error analysing %s", response.url)
            stats.inc_value("skeleton/errors")
            item.update(is_navigation=False, nav_links=[], confidence=0.0, candidates=0, reason="error")
            requests = []
        if self.max_pages is not None and self.pages_seen >= self.max_pages:
            self.crawler.stats.set_value("skeleton/max_pages/reached", self.max_pages)
            if self.crawler.crawling:  # this page's links stay queued in Redis for a later run
                deferred_from_coro(self.crawler.engine.close_spider_async(reason="max_pages"))
        yield from requests  # queued before the item (stored, then its lease acknowledged)
        yield item
        release_page(response)  # the tree is not needed any more: freed now, not at a later collection

    def _deadline(self, response: Response) -> Deadline:
        """``SKELETON_ANALYSIS_BUDGET`` seconds from the page's parse, and the shutdown signal."""
        page = response.meta.get(META_PAGE)
        started = page.started if isinstance(page, SharedPage) and page.started else time.monotonic()
        return Deadline(self.analysis_budget, started, self.shutdown)

    def _left_for_shutdown(self, url: str) -> None:
        self.crawler.stats.inc_value("skeleton/analysis_cut/shutdown")
        logger.info("stopping: %s left in the queue for the next run, not analysed", url)

    def _leaf(self, item: PageItem, reason: str) -> list[scrapy.Request]:
        item["reason"] = reason
        self.crawler.stats.inc_value(f"skeleton/leaf_reason/{reason}")
        return []

    def _analyse(self, response: Response, item: PageItem) -> list[scrapy.Request]:
        stats, depth, target = self.crawler.stats, item["found_depth"], response.meta.get(META_REDIRECT_OFFSITE)
        if target:  # a redirect out of the crawl's scope, not followed
            item.update(status=redirect_offsite_status(response), redirect_to=str(target))
            if depth == 0 and item["found_from"] is None:
                stats.set_value(BASE_REDIRECT_STAT, str(target))
            return self._leaf(item, REDIRECT_OFFSITE_REASON)
        body = response.body if html_response(response) else None
        if body is None or not body.strip() or looks_binary(body):
            return self._leaf(item, "non_html" if body is None else "binary" if body.strip() else "empty")
        shared = shared_page(response, stats)  # parsed once per response
        checkpoint()  # skeleton.budget: between the steps, and in their loops
        if shared.root is None:
            return self._leaf(item, "unparsable")
        final, context = canonical(response.url) or item["url"], str(response.meta.get(META_CONTEXT) or "")
        chain = [url for url in map(canonical, response.meta.get("redirect_urls", [])) if url]
        found = analyse_page(shared.root, final, self.base, scope_filter(self.base, self.skip_actions, self.args.skip),
                             detector=self._detect(context, depth) if self.mode == "sew" else None,
                             language=response.meta.get(META_LANG), home=depth == 0, aliases=chain,
                             skip_actions=self.skip_actions, attributes=shared.attributes)
        item.update(lang=found.lang, title=found.title)
        if found.leaf:
            return self._leaf(item, found.leaf)
        try:
            sections = item_sections(self.settings, shared.root, final)  # SKELETON_SCHEMA_ENABLED
        except Exception as exc:  # optional analysis never costs a page: no sections
            analysis_failed(logger, stats, "schema", response.url, exc)
            sections = None
        if sections is not None:
            item["sections"] = sections
        record_analysis(item, found, stats)
        child_context = context
        if depth == 0 and found.detection is not None:
            # every page below the root gets the root's context, whichever parent found
            # it first, so detection never depends on arrival order
            child_context = self.contexts.put(*found.detection.context_for_children(self.contexts.get(context)[0]))
        return child_requests(found, depth, self.max_depth, child_context, stats, self.parse, self.failed)

    def _detect(self, context: str, depth: int) -> PageDetector:
        """The page detector with the LinkSetDup context ``context`` (read when the
        detection runs) and the template menu from depth 2 (``-a template_menu``)."""
        def detect(root: Any, url: str, base: str, _known: Any, _template: Any) -> Any:
            known, template = self.contexts.get(context)
            return self.detector(root, url, base, known, templates_with_menu(template, self.menu, depth))

        return detect

    def closed(self, reason: str) -> None:
        """When the spider closes: the Redis client closed, the signal handlers Scrapy's again."""
        self.shutdown.unwatch()
        if self._contexts is not None:
            self._contexts.close()
