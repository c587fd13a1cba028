"""WISDOM blocks on every item of the crawl (issue 3), from the shared parse.

``InformativeMiddleware`` is a spider middleware placed after the entropy
middleware. Before the spider sees a 2xx HTML response it computes the page's
informative structure (:func:`skeleton.wisdom.informative_blocks`) and, on the way
out, sets ``item["blocks"]`` on the page's item: TOC blocks then article blocks,
each ``{"kind", "xpath", "anchors" (TOC) or "text_length" (article), "score"}``
(:meth:`~skeleton.wisdom.structure.InformativeStructure.rows`); other pages get ``[]``.

* **One parse, one tokenization**: the tree and text pass come from
  ``response.meta["skeleton_page"]`` (:mod:`skeleton.middlewares.shared`).
* **Weights**: W = 1 - EN of the page's terms as the entropy middleware's update
  returned them (the pages counted so far, this one included). Without that update
  (a Redis error) they are read from Redis (:func:`skeleton.store.entropy.term_weights`);
  with the entropy middleware off (``SKELETON_ENTROPY_ENABLED``, or not in
  ``SPIDER_MIDDLEWARES``) every term gets ``SKELETON_WISDOM_DEFAULT_WEIGHT``.
* **Linked pages' terms** (API): pages this worker processed are remembered
  (up to ``SKELETON_WISDOM_PAGE_CACHE`` pages); other URLs are read from the
  crawl's ``:page_terms`` (another worker, an earlier run) in the same pipelined
  round trip that keeps the page. A page not crawled yet falls back to
  ``SKELETON_WISDOM_MISSING_PAGE``: ``anchor`` (default, its anchor terms are
  assumed to occur in it) or ``zero`` (API 0).
* **Kept pages** for ``scrapy informative`` are kept by
  :mod:`skeleton.middlewares.kept_pages` (``SKELETON_KEEP_PAGES``: on with WISDOM
  unless set to False).

The middleware runs only when asked (``-a analyses=wisdom`` or
``SKELETON_WISDOM_ENABLED``, :mod:`skeleton.analyses`); otherwise items have no
``blocks``. Stats: ``skeleton/wisdom/pages``, ``/toc_blocks``, ``/article_blocks``,
``/linked_known``, ``/linked_unknown``, ``/errors`` (a Redis error, or any other error of the analysis, then also counted
per type in ``/errors/<ExceptionType>`` and logged once per type: the page's item
gets ``blocks: []``).
"""
from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterable
from typing import TYPE_CHECKING, Any, Self

from scrapy import signals
from scrapy.exceptions import NotConfigured

from skeleton.store import outage
from skeleton.analyses import enabled as analysis_enabled
from skeleton.items import PageItem
from skeleton.middlewares.entropy import configured_stop_words
from skeleton.middlewares.shared import (analysis_failed, crawl_keys, inc_stat, page_text, page_to_analyse,
                                        shared_page)
from skeleton.store.entropy import kept_terms, term_weights
from skeleton.store.keys import CrawlKeys
from skeleton.store.server import StoreError, connect
from skeleton.web.urls import canonical
from skeleton.wisdom import WisdomParams, informative_blocks
from skeleton.wisdom.features import MISSING_PAGE_POLICIES
from skeleton.wisdom.page import PageText, link_targets

if TYPE_CHECKING:
    from skeleton.store.server import Client
    from scrapy.crawler import Crawler
    from scrapy.http import Response

__all__ = ["InformativeMiddleware", "META_BLOCKS", "STATS_PREFIX", "DEFAULT_WEIGHT"]

logger = logging.getLogger(__name__)

STATS_PREFIX = "skeleton/wisdom"
META_BLOCKS = "skeleton_blocks"
#: W of every term when no entropy is known: CII = 0.5 passes the article constraint
#: (>= 0.2) and one matched anchor term gives API 2 >= TC_TOC = 1.25.
DEFAULT_WEIGHT = 0.5
DEFAULT_PAGE_CACHE = 5000
_ENTROPY_MIDDLEWARE = "skeleton.middlewares.entropy.EntropyMiddleware"


def _entropy_counted(settings: Any) -> bool:
    """Whether the entropy middleware counts the crawl's pages (its setting is on
    and it is listed in ``SPIDER_MIDDLEWARES``)."""
    return (settings.getbool("SKELETON_ENTROPY_ENABLED", True)
            and settings.getwithbase("SPIDER_MIDDLEWARES").get(_ENTROPY_MIDDLEWARE) is not None)


class InformativeMiddleware:
    """Computes every HTML page's informative blocks and puts them on its item."""

    def __init__(self, crawler: Crawler, server: Client, keys: CrawlKeys,
                 stop: frozenset[str]) -> None:
        settings = crawler.settings
        self.crawler = crawler
        self.server = server
        self.keys = keys
        self.stop = stop
        missing = settings.get("SKELETON_WISDOM_MISSING_PAGE") or "anchor"
        if missing not in MISSING_PAGE_POLICIES:
            raise ValueError(f"SKELETON_WISDOM_MISSING_PAGE must be one of {MISSING_PAGE_POLICIES}")
        self.params = WisdomParams(missing_page=missing)
        self.default_weight = min(1.0, max(0.0, settings.getfloat(
            "SKELETON_WISDOM_DEFAULT_WEIGHT", DEFAULT_WEIGHT)))
        self.cache_size = max(0, settings.getint("SKELETON_WISDOM_PAGE_CACHE", DEFAULT_PAGE_CACHE))
        self.read_terms = (settings.getbool("SKELETON_ENTROPY_ENABLED", True)
                           and settings.getbool("SKELETON_KEEP_PAGE_TERMS", True))
        self.read_weights = _entropy_counted(settings)
        self.known: dict[str, frozenset[str]] = {}

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        if not analysis_enabled(crawler.settings, "wisdom"):
            raise NotConfigured  # off by default: no warning (-a analyses=wisdom)
        keys = crawl_keys(crawler, "InformativeMiddleware")
        stop = configured_stop_words(crawler.settings)
        middleware = cls(crawler, connect(crawler.settings), keys, stop)
        crawler.signals.connect(middleware.spider_closed, signal=signals.spider_closed)
        return middleware

    def _inc(self, name: str, count: int = 1) -> None:
        inc_stat(self.crawler, f"{STATS_PREFIX}/{name}", count)

    # -- linked pages' terms ------------------------------------------------------

    def _remember(self, urls: Iterable[str], terms: frozenset[str]) -> None:
        if not self.cache_size:
            return
        for url in dict.fromkeys(urls):
            self.known.pop(url, None)
            self.known[url] = terms
        while len(self.known) > self.cache_size:
            del self.known[next(iter(self.known))]

    def _linked(self, targets: list[str]) -> dict[str, frozenset[str]]:
        """The known terms of ``targets`` (cache, then one round trip for the others)."""
        linked = {t: self.known[t] for t in targets if t and t in self.known}
        unknown = list(dict.fromkeys(t for t in targets if t and t not in linked)) \
            if self.read_terms else []
        if not unknown:
            return linked
        for target, counts in zip(unknown, kept_terms(self.server, self.keys, unknown)):
            if counts is not None:
                terms = frozenset(counts)
                linked[target] = terms
                self._remember([target], terms)
        return linked

    # -- Scrapy hooks ---------------------------------------------------------------

    def process_spider_input(self, response: Response) -> None:
        if not page_to_analyse(response, self.crawler):
            return
        try:
            page = shared_page(response, self.crawler.stats)
            if page.root is None:
                return
            response.meta[META_BLOCKS] = self._blocks(response, page.root, page_text(page, self.stop),
                                                      page.weights)
        except StoreError as exc:
            logger.warning("could not compute the blocks of %s: %s", response.url, exc)
            self._inc("errors")
            outage.redis_failed(self.crawler, exc, "computing a page's blocks")
        except Exception as exc:  # optional analysis never costs a page: no blocks
            analysis_failed(logger, self.crawler.stats, "wisdom", response.url, exc)

    def _blocks(self, response: Response, root: Any, text: PageText,
                weights: dict[str, float] | None) -> list[dict]:
        final = canonical(response.url) or response.url
        first = canonical(response.meta.get("redirect_urls", [response.url])[0]) or final
        if weights is None:
            terms = text.terms()
            weights = (term_weights(self.server, self.keys, terms) if self.read_weights
                       else dict.fromkeys(terms, self.default_weight))
        targets = link_targets(text, final)
        linked = self._linked(targets)
        known = sum(1 for t in targets if t in linked)
        self._inc("linked_known", known)
        self._inc("linked_unknown", sum(1 for t in targets if t) - known)
        structure = informative_blocks(root, final, weights, linked.get, self.params, text=text)
        self._remember([first, final], frozenset(text.counts()))
        self._inc("pages")
        self._inc("toc_blocks", len(structure.toc))
        self._inc("article_blocks", len(structure.article))
        return structure.rows()

    async def process_spider_output(self, response: Response,
                                    result: AsyncIterator[Any]) -> AsyncIterator[Any]:
        blocks = response.meta.get(META_BLOCKS, [])
        async for entry in result:
            if isinstance(entry, PageItem):
                entry["blocks"] = blocks
            yield entry

    def spider_closed(self) -> None:
        self.known.clear()
        self.server.close()
