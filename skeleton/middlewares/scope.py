"""Redirects that leave the crawl's scope are not followed.

The crawl's scope is the base URL's scheme, host name and port and the
directory of its path (:func:`skeleton.sew.urls.in_scope`). A link out of it is
never requested (the spider's ``filtered/offsite`` and ``filtered/out_of_scope``),
but a page of the site can still send the crawler away: an HTTP redirect
(301, 302, 303, 307, 308 with a ``Location``) or a ``<meta http-equiv="refresh">``
(read against the page's ``<base href>``) to another host, port, scheme or path.
Scrapy's redirect middlewares would follow both, and the pages of the other site
(fetched with its robots.txt) would be stored as pages of the crawl. Scrapy's own
``OffsiteMiddleware`` reads ``allowed_domains``: host names only, no port, no
scheme, no path.

:class:`ScopedRedirect` is mixed into Scrapy's ``RedirectMiddleware``
(:class:`ScopedRedirectMiddleware`, at its place, 600) and ``MetaRefreshMiddleware``
(:class:`skeleton.middlewares.meta_refresh.TolerantMetaRefreshMiddleware`, 580):
Scrapy reads the target as it always does, and when it is out of the crawl's
scope the response goes on instead of the redirect, so the target is never
requested. The request is marked (``request.meta[META_REDIRECT_OFFSITE]``: the
target URL; a 3xx status added to its ``handle_httpstatus_list`` so that
Scrapy's ``HttpErrorMiddleware`` lets it through) and the spider records the
page as a leaf with ``reason`` ``redirect_offsite`` (:data:`REDIRECT_OFFSITE_REASON`)
and ``status`` the redirect's HTTP status (``"302"``) or ``"refresh"``. Every
redirect not followed is counted in ``skeleton/redirect_offsite`` (pages, frames
and the template menu's downloads alike) and logged at INFO.

robots.txt downloads are exempt: RFC 9309 has crawlers follow a robots.txt
redirect to another host, and ``/robots.txt`` is outside a base's directory.
Another spider than the skeleton spider (no ``base``) is not affected.
"""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from scrapy.downloadermiddlewares.redirect import RedirectMiddleware
from scrapy.http import Request, Response
from scrapy.utils.httpobj import urlparse_cached

from skeleton.sew.urls import in_scope

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

__all__ = ["META_REDIRECT_OFFSITE", "REDIRECT_OFFSITE_REASON", "REDIRECT_OFFSITE_STAT", "ScopedRedirect",
           "ScopedRedirectMiddleware", "crawl_scope", "redirect_offsite_status"]

logger = logging.getLogger(__name__)

#: Set on a request whose response redirects out of the crawl's scope: the target URL.
META_REDIRECT_OFFSITE = "skeleton_redirect_offsite"
#: The ``reason`` of the page record of a page that redirects out of the scope.
REDIRECT_OFFSITE_REASON = "redirect_offsite"
#: Crawl stat: redirects and meta refreshes out of the scope, not followed.
REDIRECT_OFFSITE_STAT = "skeleton/redirect_offsite"
#: the ``status`` of a page whose meta refresh leaves the scope
REFRESH_STATUS = "refresh"


def crawl_scope(crawler: Crawler | None) -> str | None:
    """The base URL whose scope the crawl keeps to (the skeleton spider's
    ``base``), None for a spider without one."""
    base = getattr(getattr(crawler, "spider", None), "base", None)
    return base if isinstance(base, str) and base else None


def redirect_offsite_status(response: Response) -> str:
    """The ``status`` recorded for a page that redirects out of the scope: its HTTP
    status for a 3xx, ``"refresh"`` for a meta refresh."""
    return str(response.status) if 300 <= response.status < 400 else REFRESH_STATUS


def _robots_txt(request: Request) -> bool:
    """Is ``request`` Scrapy's download of a site's robots.txt?"""
    return bool(request.meta.get("dont_obey_robotstxt")) and urlparse_cached(request).path == "/robots.txt"


class ScopedRedirect:
    """A mixin for Scrapy's redirect middlewares: a redirect out of the crawl's
    scope is not followed (see the module)."""

    crawler: Crawler

    def process_response(self, request: Request, response: Response) -> Request | Response:
        result = super().process_response(request, response)  # type: ignore[misc]
        if not isinstance(result, Request) or result is request:
            return result
        scope = crawl_scope(getattr(self, "crawler", None))
        if scope is None or in_scope(result.url, scope) or _robots_txt(request):
            return result
        request.meta[META_REDIRECT_OFFSITE] = result.url
        if not 200 <= response.status < 300:
            # the 3xx response goes to the spider: HttpErrorMiddleware passes it
            handled = list(request.meta.get("handle_httpstatus_list") or ())
            request.meta["handle_httpstatus_list"] = [*handled, response.status]
        stats = self.crawler.stats
        if stats is not None:
            stats.inc_value(REDIRECT_OFFSITE_STAT)
        logger.info("not following the %s of %s to %s: out of the crawl's scope (%s)",
                    "meta refresh" if 200 <= response.status < 300 else f"redirect ({response.status})",
                    request.url, result.url, scope)
        return response


class ScopedRedirectMiddleware(ScopedRedirect, RedirectMiddleware):
    """Scrapy's ``RedirectMiddleware``, not following a redirect out of the
    crawl's scope. Replaces Scrapy's at the same order (600,
    ``skeleton.settings.DOWNLOADER_MIDDLEWARES``)."""
