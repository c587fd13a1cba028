"""Scrapy's ``MetaRefreshMiddleware``, tolerant of unparsable URLs.

Scrapy reads a ``<meta http-equiv="refresh">`` target against the page's
``<base href>``; a malformed one (``<base href="http://[::1">``, a refresh to
``http://[::1``) makes ``urljoin`` raise ``ValueError``, and the page, answered
200, goes to the errback with no item. Here an unparsable base or refresh URL
reads as no refresh: the response goes on unchanged, counted in the crawl stat
``skeleton/links/unparsable_refresh``. It replaces Scrapy's middleware at the
same order (580, ``skeleton.settings.DOWNLOADER_MIDDLEWARES``). A refresh out of
the crawl's scope is not followed (:class:`skeleton.middlewares.scope.ScopedRedirect`).
"""
from __future__ import annotations

import logging

from scrapy.downloadermiddlewares.redirect import MetaRefreshMiddleware
from scrapy.http import Request, Response

from skeleton.middlewares.scope import ScopedRedirect

__all__ = ["TolerantMetaRefreshMiddleware", "UNPARSABLE_REFRESH_STAT"]

logger = logging.getLogger(__name__)

#: Crawl stat: responses whose meta refresh (or the base URL it is read against)
#: was unparsable and so was not followed.
UNPARSABLE_REFRESH_STAT = "skeleton/links/unparsable_refresh"


class TolerantMetaRefreshMiddleware(ScopedRedirect, MetaRefreshMiddleware):
    def process_response(self, request: Request, response: Response) -> Request | Response:  # type: ignore[override]
        try:
            return super().process_response(request, response)
        except ValueError as exc:  # urljoin/urlparse of a malformed base or refresh URL
            logger.debug("unparsable meta refresh or base URL in %s: %s", response.url, exc)
            crawler = getattr(self, "crawler", None)  # set by from_crawler
            if crawler is not None and crawler.stats is not None:
                crawler.stats.inc_value(UNPARSABLE_REFRESH_STAT)
            return response
