"""Records every redirect of the crawl in Redis, so a URL that redirects is an alias.

A downloader middleware placed after Scrapy's ``RedirectMiddleware`` (600) and
``MetaRefreshMiddleware`` (580) in the download direction, so it sees each
response before they turn it into a new request: for a 301/302/303/307/308 with a
``Location`` on the crawl's own host, and for an HTML page whose meta refresh
leads to another page of the host (within ``METAREFRESH_MAXDELAY``, read with
``METAREFRESH_IGNORE_TAGS`` as Scrapy does), when the target is in the crawl's
scope (a redirect out of it is not followed: :mod:`skeleton.middlewares.scope`) and the
redirect is followed (not a loop, not past ``REDIRECT_MAX_TIMES``: the redirect
middleware gives such a chain up, :func:`skeleton.middlewares.scope.redirect_given_up`,
and the page is recorded under the last URL requested), it records
``alias -> target`` (both canonical) in ``skeleton:{crawl}:aliases``. The record
is made whether or not the redirected request is fetched again: when its target
was already fetched from another link, the dupefilter drops it, and the alias is
what keeps the offer made to it (:mod:`skeleton.hierarchy.aliases`).

A redirect that closes a loop of aliases is given up: when the target's aliases
lead back to the source (``/a`` and ``/b`` both linked, ``/a`` redirects to
``/b`` and ``/b`` to ``/a``: each redirect lands on a URL the dupefilter has seen,
so neither would ever be a page), :data:`skeleton.store.aliases.ALIAS_SCRIPT` records nothing and the
middleware raises :class:`skeleton.middlewares.scope.RedirectGivenUp` with
``status`` ``redirect_loop``: the request's errback records its page as failed,
under the URL last requested, and the other end stays its alias (the first of
the two redirects, followed). The check and the record are one script, so two
workers cannot both record their end of a loop.

A Redis error is logged once per response and counted
(``skeleton/aliases/errors``); the crawl goes on (the pipeline stops it if Redis
is gone for good). Any other error is counted there and per type, and logged once
per type (:func:`skeleton.middlewares.shared.analysis_failed`): the response goes
on. Stats: ``skeleton/aliases/recorded``. Switch it off with
``SKELETON_ALIASES_ENABLED = False``.
"""
from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Self
from urllib.parse import urljoin

from scrapy.http import HtmlResponse, Request, Response
from scrapy.utils.response import get_meta_refresh

from skeleton.store import outage
from skeleton.middlewares.shared import analysis_failed, crawl_keys
from skeleton.store.keys import CrawlKeys
from skeleton.store.aliases import AliasStore
from skeleton.store.server import StoreError, connect
from skeleton.middlewares.scope import REDIRECT_LOOP, RedirectGivenUp, crawl_scope, redirect_given_up
from skeleton.web.urls import canonical, in_scope, split_url

if TYPE_CHECKING:
    from skeleton.store.server import Client
    from scrapy.crawler import Crawler

__all__ = ["REDIRECT_STATUSES", "RedirectAliasMiddleware", "redirect_target"]

logger = logging.getLogger(__name__)

#: HTTP statuses that move a page (Scrapy's RedirectMiddleware follows the same)
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
#: aliases followed from a redirect's target looking for its source, at most
MAX_ALIAS_HOPS = 64


def redirect_target(request_url: str, response: Response, meta_refresh_max_delay: float,
                    ignore_tags: Sequence[str] = ("noscript",), scope: str | None = None) -> str | None:
    """The canonical URL ``response`` redirects to on the same host (and, given the
    crawl's base URL ``scope``, in its scope: :func:`skeleton.web.urls.in_scope`),
    else None. A meta refresh is read as Scrapy's ``MetaRefreshMiddleware`` reads
    it (same ``ignore_tags``: Scrapy caches the first reading of a response). None
    for an unparsable target (``Location: http://[::1``)."""
    target = None
    if response.status in REDIRECT_STATUSES and b"Location" in response.headers:
        location = response.headers[b"Location"].decode("latin-1", "replace")
        try:
            target = urljoin(request_url, location)
        except ValueError:
            return None
    elif meta_refresh_max_delay > 0 and isinstance(response, HtmlResponse) and 200 <= response.status < 300:
        try:
            interval, url = get_meta_refresh(response, ignore_tags=ignore_tags)
        except (ValueError, TypeError):
            return None
        if url and interval is not None and interval < meta_refresh_max_delay:
            target = url
    if not target:
        return None
    parts, request = split_url(target), split_url(request_url)
    if parts is None or request is None:
        return None
    same_host = parts.netloc.lower() == request.netloc.lower()
    final = canonical(target) if same_host else None
    if final and scope is not None and not in_scope(final, scope):
        return None  # not followed: the page is recorded with reason redirect_offsite
    return final if final and final != canonical(request_url) else None


class RedirectAliasMiddleware:
    def __init__(self, crawler: Crawler, server: Client, keys: CrawlKeys,
                 meta_refresh_max_delay: float, ignore_tags: Sequence[str] = ("noscript",),
                 max_redirect_times: int = 20) -> None:
        self.crawler = crawler
        self.aliases = AliasStore(server, keys)
        self.keys = keys
        self.meta_refresh_max_delay = meta_refresh_max_delay
        self.ignore_tags = list(ignore_tags)
        self.max_redirect_times = max_redirect_times

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        settings = crawler.settings
        keys = crawl_keys(crawler, "RedirectAliasMiddleware", "SKELETON_ALIASES_ENABLED")
        max_delay = (settings.getfloat("METAREFRESH_MAXDELAY", 100)
                     if settings.getbool("METAREFRESH_ENABLED", True) else -1.0)
        return cls(crawler, connect(settings), keys, max_delay,
                   settings.getlist("METAREFRESH_IGNORE_TAGS", ["noscript"]),
                   settings.getint("REDIRECT_MAX_TIMES", 20))

    def process_response(self, request: Request, response: Response) -> Response:
        loop = None
        try:
            loop = self._record(request, response)
        except Exception as exc:  # optional analysis never costs a page
            analysis_failed(logger, self.crawler.stats, "aliases", request.url, exc)
        if loop:
            chain = " -> ".join([*request.meta.get("redirect_urls", ()), request.url, loop])
            logger.debug("not following the redirect of %s: it closes a loop of aliases (%s)", request.url, chain)
            raise RedirectGivenUp(f"redirect loop: {chain} (which redirects back)", REDIRECT_LOOP)
        return response

    def _record(self, request: Request, response: Response) -> str | None:
        """Record the response's redirect as an alias; the target when the
        redirect closes a loop of aliases (nothing recorded), else None."""
        source = canonical(request.url)
        target = (redirect_target(request.url, response, self.meta_refresh_max_delay, self.ignore_tags,
                                  crawl_scope(self.crawler)) if source else None)
        if target and redirect_given_up(request, target, self.max_redirect_times):
            return None  # a loop, or past the limit: not followed, so no alias
        if target and not outage.is_down(self.crawler):
            stats = self.crawler.stats
            try:
                if self.aliases.record_redirect(source, target, MAX_ALIAS_HOPS):
                    stats.inc_value("skeleton/aliases/loops")
                    return target
                stats.inc_value("skeleton/aliases/recorded")
            except StoreError as exc:
                logger.warning("could not record the redirect of %s: %s", source, exc)
                stats.inc_value("skeleton/aliases/errors")
                outage.redis_failed(self.crawler, exc, "recording a redirect")
