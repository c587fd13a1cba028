"""Redirects that leave the crawl's scope are not followed.

The crawl's scope is the base URL's scheme, host name and port and the
directory of its path (:func:`skeleton.web.urls.in_scope`). A link out of it is
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

A redirect chain that is given up is never dropped in silence
(:func:`redirect_given_up`): a redirect (or meta refresh) back to a URL of its own
chain (``/a`` -> ``/b`` -> ``/a``: Scrapy would request ``/a`` again, which the
dupefilter drops) raises :class:`RedirectGivenUp` with ``status``
:data:`REDIRECT_LOOP` at once, and a chain still redirecting after
``REDIRECT_MAX_TIMES`` redirects one with :data:`TOO_MANY_REDIRECTS` (Scrapy's
``IgnoreRequest("max redirections reached")``). Both are ``IgnoreRequest``: the
request's errback gets it, and the skeleton spider records the page that failed
(:func:`skeleton.spiders.failures.failure_status`). A meta refresh to the page
itself (a page reloading itself) is no redirect: the page goes on.
"""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from scrapy.downloadermiddlewares.redirect import RedirectMiddleware
from scrapy.exceptions import IgnoreRequest
from scrapy.http import Request, Response
from scrapy.utils.httpobj import urlparse_cached
from w3lib.url import canonicalize_url

from skeleton.crawl_settings import crawl_settings
from skeleton.web.urls import in_scope

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

__all__ = ["META_REDIRECT_OFFSITE", "REDIRECT_LOOP", "REDIRECT_OFFSITE_REASON", "REDIRECT_OFFSITE_STAT",
           "RedirectGivenUp", "ScopedRedirect", "ScopedRedirectMiddleware", "TOO_MANY_REDIRECTS", "crawl_scope",
           "redirect_given_up", "redirect_offsite_status"]

logger = logging.getLogger(__name__)

#: Set on a request whose response redirects out of the crawl's scope: the target URL.
META_REDIRECT_OFFSITE = "skeleton_redirect_offsite"
#: The ``reason`` of the page record of a page that redirects out of the scope.
REDIRECT_OFFSITE_REASON = "redirect_offsite"
#: Crawl stat: redirects and meta refreshes out of the scope, not followed.
REDIRECT_OFFSITE_STAT = "skeleton/redirect_offsite"
#: the ``status`` of a page whose meta refresh leaves the scope
REFRESH_STATUS = "refresh"
#: the ``status`` of a page whose redirects lead back to a URL of their own chain
REDIRECT_LOOP = "redirect_loop"
#: the ``status`` of a page still redirecting after ``REDIRECT_MAX_TIMES`` redirects
TOO_MANY_REDIRECTS = "too_many_redirects"


class RedirectGivenUp(IgnoreRequest):
    """A redirect chain not followed to its end; ``status`` says why
    (:data:`REDIRECT_LOOP`, :data:`TOO_MANY_REDIRECTS`)."""

    def __init__(self, message: str, status: str) -> None:
        super().__init__(message)
        self.status = status


class _RefreshesItself(Exception):
    """A meta refresh to the page's own URL: the page goes on, unredirected."""


def _resource(url: str) -> str:
    """``url`` as Scrapy's request fingerprints read it (query sorted, no fragment)."""
    try:
        return canonicalize_url(url)
    except ValueError:
        return url


def redirect_given_up(request: Request, target: str, max_times: int) -> str | None:
    """Why the redirect of ``request`` to ``target`` is not followed, else None:
    :data:`REDIRECT_LOOP` when ``target`` is a URL of the request's own chain
    (``redirect_urls``, or the request itself), :data:`TOO_MANY_REDIRECTS` when it
    would be redirect number ``max_times + 1`` (``REDIRECT_MAX_TIMES``; or the
    request's ``redirect_ttl`` is spent), as Scrapy's ``BaseRedirectMiddleware``
    counts them."""
    chain = {_resource(url) for url in (*request.meta.get("redirect_urls", ()), request.url)}
    if _resource(target) in chain:
        return REDIRECT_LOOP
    ttl = request.meta.get("redirect_ttl", max_times)
    if not ttl or request.meta.get("redirect_times", 0) + 1 > max_times:
        return TOO_MANY_REDIRECTS
    return None


def crawl_scope(crawler: Crawler | None) -> str | None:
    """The base URL whose scope the crawl keeps to (the skeleton spider's
    ``base``, :mod:`skeleton.crawl_settings`), None for a spider without one."""
    crawl = crawl_settings(getattr(crawler, "settings", None))
    return crawl.base if crawl is not None else None


def redirect_offsite_status(response: Response) -> str:
    """The ``status`` recorded for a page that redirects out of the scope: its HTTP
    status for a 3xx, ``"refresh"`` for a meta refresh."""
    return str(response.status) if 300 <= response.status < 400 else REFRESH_STATUS


def _robots_txt(request: Request) -> bool:
    """Is ``request`` Scrapy's download of a site's robots.txt?"""
    return bool(request.meta.get("dont_obey_robotstxt")) and urlparse_cached(request).path == "/robots.txt"


class ScopedRedirect:
    """A mixin for Scrapy's redirect middlewares: a redirect out of the crawl's
    scope is not followed, a loop or a redirect past ``REDIRECT_MAX_TIMES``
    raises :class:`RedirectGivenUp` (see the module)."""

    crawler: Crawler
    max_redirect_times: int

    def process_response(self, request: Request, response: Response) -> Request | Response:
        try:
            result = super().process_response(request, response)  # type: ignore[misc]
        except _RefreshesItself:
            return response
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

    def _redirect(self, redirected: Request, request: Request, reason: object) -> Request:
        """Scrapy's redirect, refusing a loop and the redirect past the limit with
        :class:`RedirectGivenUp` (see the module)."""
        why = redirect_given_up(request, redirected.url, self.max_redirect_times)
        if why == REDIRECT_LOOP and reason == "meta refresh" \
                and _resource(redirected.url) == _resource(request.url):
            raise _RefreshesItself
        cause = None
        if why is None:
            try:
                return super()._redirect(redirected, request, reason)  # type: ignore[misc]
            except IgnoreRequest as exc:  # Scrapy's "max redirections reached"
                why, cause = TOO_MANY_REDIRECTS, exc
        chain = " -> ".join([*request.meta.get("redirect_urls", ()), request.url, redirected.url])
        message = f"{why.replace('_', ' ')}: {chain}"
        logger.debug("not following the redirect of %s: %s", request.url, message)
        raise RedirectGivenUp(message, why) from cause


class ScopedRedirectMiddleware(ScopedRedirect, RedirectMiddleware):
    """Scrapy's ``RedirectMiddleware``, not following a redirect out of the
    crawl's scope. Replaces Scrapy's at the same order (600,
    ``skeleton.settings.DOWNLOADER_MIDDLEWARES``)."""
