"""The ``skeleton`` spider: crawls a site breadth-first along its navigation links.

Its arguments (``-a NAME=VALUE``) and the settings they imply are
:mod:`skeleton.spiders.arguments`. Each response is analysed by
:func:`skeleton.analysis.page.analyse_page` (the same analysis the offline
FINDSKELETON runs); the spider turns the result into child requests
(:mod:`skeleton.spiders.requests`), one item and stats. One page, one node
(``skeleton.urlrules``): a page whose ``<link rel="canonical">`` names another page
of the site is recorded under that URL (its own URL becomes an alias); with
``SKELETON_SKIP_ACTIONS`` (default on) action links, ``rel="nofollow"`` links, links
marked as views and form pages are not followed; links to a page's copies in another
language never are. A link whose href cannot be read as a URL is skipped and counted
in ``skeleton/links/unparsable``.

A page that fails for good is recorded as a broken leaf (:mod:`skeleton.spiders.failures`).
A page whose analysis takes longer than ``SKELETON_ANALYSIS_BUDGET`` seconds (30; 0:
no budget) is cut (:mod:`skeleton.budget`) and recorded as failed with ``status``
``analysis_budget``, its links not followed. A shutdown signal (SIGTERM, Ctrl-C)
stops the analysis the same way, but the page is neither recorded nor
acknowledged: its lease goes back to the queue when the scheduler closes, for the
next run (so does a response or a failed download that comes during the shutdown).

The crawl keeps to the base URL's scope (:func:`skeleton.web.urls.in_scope`). A page
that redirects out of it (:mod:`skeleton.middlewares.scope`) is recorded as a leaf
with ``reason`` ``redirect_offsite`` and ``status`` the redirect's HTTP status
(``"302"``) or ``"refresh"``; the target is never requested. When the base page
itself redirects out (stat ``skeleton/base_redirect_offsite``) or cannot be fetched
(``skeleton/base_failed``), ``scrapy crawl`` ends with an error line and exit code 1.
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

from skeleton.analysis.page import UNPARSABLE_REASON, PageAnalysis, analyse_page, scope_filter
from skeleton.budget import (BUDGET_SETTING, BUDGET_STATUS, DEFAULT_BUDGET, BudgetSpent, Deadline,
                             ShutdownPending, ShutdownWatch, checkpoint, within)
from skeleton.items import PageItem
from skeleton.middlewares.scope import META_REDIRECT_OFFSITE, REDIRECT_OFFSITE_REASON, redirect_offsite_status
from skeleton.middlewares.shared import META_PAGE, SharedPage, analysis_failed, html_response, release_page, \
    shared_page
from skeleton.schema.hook import item_sections
from skeleton.spiders.arguments import SPIDER_ARGUMENTS, configure, parse_arguments
from skeleton.spiders.failures import failed_item, failure_status
from skeleton.spiders.requests import META_CONTEXT, META_DEPTH, META_LANG, META_PARENT, page_request, requeued
from skeleton.spiders.sitemaps import SitemapReader
from skeleton.spiders.template_menu import load_template_menu
from skeleton.store import outage
from skeleton.store.contexts import CONTEXT_ERRORS, ContextStore
from skeleton.store.queue import request_finished
from skeleton.template.crawl import templates_with_menu
from skeleton.web.dom import looks_binary
from skeleton.web.urls import canonical

__all__ = ["BASE_FAILED_STAT", "BASE_REDIRECT_STAT", "SkeletonSpider"]

logger = logging.getLogger(__name__)

#: stat holding why the base page could not be fetched (a status, an error kind, or
#: "filtered": robots.txt, offsite); read by ``scrapy crawl`` for its exit code
BASE_FAILED_STAT = "skeleton/base_failed"
#: stat holding the URL out of the crawl's scope the base page redirects to
BASE_REDIRECT_STAT = "skeleton/base_redirect_offsite"


class SkeletonSpider(SitemapReader, scrapy.Spider):
    name = "skeleton"
    #: validates ``-a`` arguments before the crawl starts (``scrapy crawl``)
    check_arguments = staticmethod(parse_arguments)

    def __init__(self, **kwargs: Any) -> None:
        self.args = parse_arguments(**kwargs)
        super().__init__(**{name: value for name, value in kwargs.items() if name not in SPIDER_ARGUMENTS})
        self.base, self.crawl_id, self.mode = self.args.base, self.args.crawl, self.args.mode
        self.max_depth, self.max_pages = self.args.depth, self.args.max_pages
        self.model, self.detector, self.keys = self.args.model, self.args.detector, self.args.keys
        self.menu: frozenset[str] = frozenset()
        self.skip_actions = True
        self.pages_seen = 0
        self._contexts: ContextStore | None = None
        #: the requests a response came for (``response_downloaded``): an
        #: ``IgnoreRequest`` in the errback of one of them dropped a page requested
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
        """Errback. A request filtered on purpose before it was made (robots.txt,
        offsite) is done without a page: its queue lease is acknowledged. A page
        that failed for good is an item with ``reason`` ``failed`` and its
        ``status`` (:func:`skeleton.spiders.failures.failure_status`), recorded under
        the URL last requested (the URLs that redirected to it are its aliases)."""
        request = failure.request  # type: ignore[attr-defined]
        stats = self.crawler.stats
        if self.shutdown.requested:  # a download cut by the shutdown fails no page: it stays queued
            self._left_for_shutdown(request.url)
            return
        stats.inc_value("skeleton/fetch_failed")
        status = failure_status(failure, answered=request in self._answered)
        if request.meta.get(META_DEPTH, 0) == 0 and request.meta.get(META_PARENT) is None:
            stats.set_value(BASE_FAILED_STAT, status or "filtered")  # the base page itself
        if status is None:
            self.crawler.signals.send_catch_log(request_finished, request=request)
            return
        logger.warning("could not fetch %s: %s (recorded as failed: %s)",
                       request.url, str(failure.value) or type(failure.value).__name__, status)
        stats.inc_value("skeleton/failed_pages")
        stats.inc_value(f"skeleton/failed_pages/{status}")
        yield failed_item(canonical(request.url) or request.url, request.meta.get(META_PARENT),
                          int(request.meta.get(META_DEPTH) or 0), status)

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
        first_url = response.meta.get("redirect_urls", [response.url])[0]
        # recorded under its final URL; the URLs that redirected to it are its aliases
        url = canonical(response.url) or canonical(first_url) or response.url
        item = PageItem(url=url, parent=None, depth=None, found_from=response.meta.get(META_PARENT),
                        found_depth=int(response.meta.get(META_DEPTH, 0)), title="", is_navigation=False,
                        nav_links=[], confidence=0.0, candidates=0, reason=None, nav_blocks=[], evidence={},
                        offers={}, lang="", aliases=[])
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
        except CONTEXT_ERRORS as exc:  # no context, no detection: the lease stays for a later run
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
        """``SKELETON_ANALYSIS_BUDGET`` seconds from the page's parse (by the first
        component that read it), and the shutdown signal."""
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
        stats, depth = self.crawler.stats, item["found_depth"]
        target = response.meta.get(META_REDIRECT_OFFSITE)
        if target:  # a redirect out of the crawl's scope, not followed
            item.update(status=redirect_offsite_status(response), redirect_to=str(target))
            if depth == 0 and item["found_from"] is None:
                stats.set_value(BASE_REDIRECT_STAT, str(target))
            return self._leaf(item, REDIRECT_OFFSITE_REASON)
        body = response.body if html_response(response) else b""
        unreadable = "non_html" if not html_response(response) else "empty" if not body.strip() else \
            "binary" if looks_binary(body) else None
        if unreadable:
            return self._leaf(item, unreadable)
        shared = shared_page(response, stats)  # parsed once per response
        checkpoint()  # skeleton.budget: between the steps, and in their loops
        if shared.root is None:
            return self._leaf(item, "unparsable")
        final, context = canonical(response.url) or item["url"], str(response.meta.get(META_CONTEXT) or "")
        chain = [url for url in map(canonical, response.meta.get("redirect_urls", [])) if url]
        found = analyse_page(shared.root, final, self.base, scope_filter(self.base, self.skip_actions),
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
        self._record(item, found)
        child_context = context
        if depth == 0 and found.detection is not None:
            # every page below the root gets the root's context, whichever parent found
            # it first, so detection never depends on arrival order
            child_context = self.contexts.put(*found.detection.context_for_children(self.contexts.get(context)[0]))
        return self._requests(item, found, child_context)

    def _detect(self, context: str, depth: int) -> Any:
        """The page detector with the LinkSetDup context ``context`` (read when the
        detection runs) and the template menu from depth 2 (``-a template_menu``)."""
        def detect(root: Any, url: str, base: str, _known: Any, _template: Any) -> Any:
            known, template = self.contexts.get(context)
            return self.detector(root, url, base, known, templates_with_menu(template, self.menu, depth))

        return detect

    def _record(self, item: PageItem, found: PageAnalysis) -> None:
        """Fill the page's item from its analysis, and count it."""
        stats = self.crawler.stats
        if found.declared:  # the site names the page by another URL: that is the node, this URL its alias
            stats.inc_value("skeleton/canonical_links")
            item.update(aliases=[item["url"]], url=found.declared)
        item["evidence"] = found.evidence
        if found.detection is not None:
            item.update(confidence=found.detection.confidence, candidates=found.detection.candidates,
                        nav_blocks=getattr(found.detection, "nav_blocks", []))
        if found.unparsable:
            stats.inc_value(f"skeleton/{UNPARSABLE_REASON}", len(found.unparsable))
            logger.debug("%s: %d unparsable links skipped, e.g. %r", found.url, len(found.unparsable),
                         found.unparsable[0])
        for reason in found.skipped:
            stats.inc_value(f"skeleton/{reason}")
        item.update(nav_links=[{"url": u, "text": t, "parent": p} for u, t, p, _ in found.followed],
                    offers=found.offers, is_navigation=found.is_navigation)
        stats.inc_value("skeleton/nav_pages" if found.is_navigation else "skeleton/content_pages")

    def _requests(self, item: PageItem, found: PageAnalysis, context: str) -> list[scrapy.Request]:
        """The page's child requests, then the places it declares (breadcrumb, up,
        filed: fetched even when no navigation set links them), within ``depth``."""
        stats, depth, requests = self.crawler.stats, item["found_depth"], []
        for url, _, parent, level in found.followed:
            if self.max_depth is not None and depth + level > self.max_depth:
                stats.inc_value("skeleton/depth_limited")
                continue
            requests.append(page_request(url, depth + level, parent, context, found.language, self.parse,
                                         self.failed))
        if self.max_depth is None or depth + 1 <= self.max_depth:
            for url in found.places:
                stats.inc_value("skeleton/declared_followed")
                requests.append(page_request(url, depth + 1, found.url, context, found.language, self.parse,
                                             self.failed))
        return requests

    def closed(self, reason: str) -> None:
        """Scrapy calls this when the spider closes: the context client is closed,
        the shutdown signals' handlers are Scrapy's again."""
        self.shutdown.unwatch()
        if self._contexts is not None:
            self._contexts.close()
