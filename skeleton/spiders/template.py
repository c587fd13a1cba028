"""The ``template`` spider: the pages that share a key page's template
(Alarte et al., Algorithm 2: an n-complete subdigraph among the key page's links).

    scrapy crawl template -a key=URL [-a n=3] [-a max_pages=N] -O cs.json

Loads the key page, sorts its same-domain links by Algorithm 1, then loads them
one at a time, the links the loaded pages point to first (see
:mod:`skeleton.template.subdigraph`), and stops as soon as n of them are pairwise
mutually linked (or when every link, or ``max_pages`` pages, are loaded; by
default ``max_pages`` is ``LOADS_PER_MEMBER * n``, 12 for n = 3: then the
biggest smaller set is the answer). It emits one item: ``key``, ``pages``
(the set), ``size``, ``complete``, ``loaded`` (pages loaded, the key page
included) and ``menu`` (the links the set and the key page share).

It keeps nothing in Redis: it uses Scrapy's default in-memory scheduler and
dupefilter and no item pipeline or entropy middleware (``custom_settings``), and
loads pages sequentially, so the number loaded is exactly Algorithm 2's.
"""
from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator
from typing import Any

import scrapy
from scrapy.exceptions import UsageError
from scrapy.http import Response
from twisted.python.failure import Failure

from skeleton.spiders.arguments import base_url, positive_int, refuse_unknown_arguments
from skeleton.spiders.template_menu import response_links
from skeleton.template.menu import menu_urls
from skeleton.template.subdigraph import DEFAULT_SIZE, CSSearch

__all__ = ["TemplateSpider"]

logger = logging.getLogger(__name__)


class TemplateSpider(scrapy.Spider):
    name = "template"
    custom_settings = {
        "SCHEDULER": "scrapy.core.scheduler.Scheduler",
        "DUPEFILTER_CLASS": "scrapy.dupefilters.RFPDupeFilter",
        "ITEM_PIPELINES": {},
        "SPIDER_MIDDLEWARES": {"skeleton.middlewares.entropy.EntropyMiddleware": None},
        "CONCURRENT_REQUESTS": 1,
    }

    def __init__(self, key: str | None = None, n: str | int | None = None,
                 max_pages: str | int | None = None, **kwargs: Any) -> None:
        args = self.check_arguments(key=key, n=n, max_pages=max_pages, **kwargs)
        super().__init__(**kwargs)
        self.key: str = args["key"]
        self.n: int = args["n"]
        self.max_pages: int | None = args["max_pages"]
        self.search: CSSearch | None = None

    @staticmethod
    def check_arguments(key: str | None = None, n: str | int | None = None,
                        max_pages: str | int | None = None, **kwargs: Any) -> dict[str, Any]:
        """Validated spider arguments; raises ``UsageError`` with a one-line message
        (``scrapy crawl`` checks them before the crawl starts)."""
        refuse_unknown_arguments("template", kwargs, ("key", "n", "max_pages"))
        if not key:
            raise UsageError("the template spider needs a key page: -a key=http://host/page.html")
        try:
            url = base_url(key)
        except UsageError as exc:
            raise UsageError(str(exc).replace("base", "key", 1)) from None
        return {"key": url, "n": positive_int("n", n, 1) or DEFAULT_SIZE,
                "max_pages": positive_int("max_pages", max_pages, 1)}

    async def start(self) -> AsyncIterator[scrapy.Request]:
        yield scrapy.Request(self.key, callback=self.parse_key, errback=self.key_failed,
                             dont_filter=True)

    def key_failed(self, failure: Failure) -> Iterator[dict]:
        logger.warning("could not fetch the key page %s: %s", self.key, failure.value)
        self.crawler.stats.inc_value("template/fetch_failed")
        self.search = CSSearch(self.key, None, self.n, self.max_pages)
        yield self._item()

    def parse_key(self, response: Response) -> Iterator[dict | scrapy.Request]:
        self.search = CSSearch(self.key, response_links(response), self.n, self.max_pages)
        self.crawler.stats.set_value("template/key_links", len(self.search.sorted))
        yield from self._next()

    def parse_page(self, response: Response) -> Iterator[dict | scrapy.Request]:
        assert self.search is not None
        self.search.add(response_links(response))
        yield from self._next()

    def page_failed(self, failure: Failure) -> Iterator[dict | scrapy.Request]:
        assert self.search is not None
        self.crawler.stats.inc_value("template/fetch_failed")
        self.search.add(None)  # a page that cannot be loaded links to nothing
        yield from self._next()

    def _next(self) -> Iterator[dict | scrapy.Request]:
        assert self.search is not None
        url = self.search.next_url()
        if url is None:
            yield self._item()
            return
        yield scrapy.Request(url, callback=self.parse_page, errback=self.page_failed,
                             dont_filter=True)

    def _item(self) -> dict:
        assert self.search is not None
        result = self.search.result
        self.crawler.stats.set_value("template/loaded", result.loaded)
        self.crawler.stats.set_value("template/size", len(result.pages))
        return {"key": result.key, "n": result.size, "pages": result.pages,
                "size": len(result.pages), "complete": result.complete,
                "loaded": result.loaded, "menu": sorted(menu_urls(result))}
