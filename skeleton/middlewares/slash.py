"""Sites that add the trailing slash: the redirect answered without a request.

A downloader middleware between the redirect middleware (600) and the redirect
alias middleware (650). It learns, from the answers the crawl gets, whether the
site redirects its bare URLs (``/sport``) to their folders (``/sport/``)
(:mod:`skeleton.urlrules.slash`): a redirect that adds the slash is a ``same``
vote, a bare URL answered without a redirect a ``diff`` vote. The votes of every
worker are counted in the crawl's ``:votes`` (:mod:`skeleton.store.variants`),
written and read back every ``SKELETON_SLASH_REFRESH`` seconds.

Once the site adds the slash (``SLASH_SUPPORT`` ``same`` votes, no ``diff``), a
request for a bare URL is answered here with the redirect the site would send (a
301 to the slashed URL, built without a download): the redirect middleware follows
it and the alias middleware records it, as for a redirect from the site, so the
page is one node under its final URL and its links keep their offers. A guess
the site answers with 404 or 410 is requested again as linked (never guessed
again, its alias withdrawn) and the rule is dropped for the crawl: a wrong guess
costs one request, no page.

Not for requests that do not follow redirects (``dont_redirect``, or a 301 in
their ``handle_httpstatus_list``). A Redis error is logged and counted
(``skeleton/slash/errors``); the crawl goes on with what it knew. Stats:
``skeleton/slash/votes/same``, ``skeleton/slash/votes/diff``,
``skeleton/slash/guessed``, ``skeleton/slash/missed``. Switch it off with
``SKELETON_LEARN_SLASH = False``.
"""
from __future__ import annotations

import logging
import time
from collections import Counter
from typing import TYPE_CHECKING, Self
from urllib.parse import urljoin

from scrapy import Request, signals
from scrapy.http import Response

from skeleton.middlewares.aliases import REDIRECT_STATUSES
from skeleton.middlewares.shared import analysis_failed, crawl_keys, store_failed
from skeleton.store import outage
from skeleton.store.server import StoreError, connect
from skeleton.store.variants import VariantStore
from skeleton.urlrules.slash import (MISSING_STATUSES, SLASH_DIFF, SLASH_SAME, adds_slash, bare_url,
                                     slash_vote, with_slash)
from skeleton.web.urls import canonical

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

    from skeleton.store.keys import CrawlKeys
    from skeleton.store.server import Client

__all__ = ["META_GUESS", "META_AS_LINKED", "STATS_PREFIX", "TrailingSlashMiddleware"]

logger = logging.getLogger(__name__)

STATS_PREFIX = "skeleton/slash"
#: on a request redirected by a guess: the bare URL the guess stands for
META_GUESS = "skeleton_slash_guess"
#: on a request sent again as linked after its guess was not served: never guessed
META_AS_LINKED = "skeleton_slash_as_linked"
#: the redirect meta Scrapy keeps on a followed request, dropped from a request sent again
_REDIRECT_META = ("redirect_urls", "redirect_times", "redirect_ttl", "redirect_reasons")


class TrailingSlashMiddleware:
    def __init__(self, crawler: Crawler, server: Client, keys: CrawlKeys, refresh: float = 2.0) -> None:
        self.crawler = crawler
        self.store = VariantStore(server, keys)
        self.refresh = refresh
        self.guessing = False
        self.dropped = False  # a guess was not served: no more guesses in this crawl
        self.votes: Counter[str] = Counter()  # cast here, not written yet
        self.synced_at = float("-inf")
        crawler.signals.connect(self._closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        keys = crawl_keys(crawler, "TrailingSlashMiddleware", "SKELETON_LEARN_SLASH")
        return cls(crawler, connect(crawler.settings), keys,
                   refresh=crawler.settings.getfloat("SKELETON_SLASH_REFRESH", 2.0))

    def _inc(self, name: str, count: int = 1) -> None:
        self.crawler.stats.inc_value(f"{STATS_PREFIX}/{name}", count)

    def _error(self, what: str, exc: Exception) -> None:
        store_failed(logger, self.crawler, "trailing slash", STATS_PREFIX, what, exc)

    def _sync(self, force: bool = False) -> None:
        """Write the votes cast here and read every worker's, at most every
        ``refresh`` seconds (or now, with ``force``)."""
        now = time.monotonic()
        if (not force and now - self.synced_at < self.refresh) or outage.is_down(self.crawler):
            return
        self.synced_at = now
        votes, self.votes = self.votes, Counter()
        try:
            same, diff = self.store.slash_votes(votes, (SLASH_SAME, SLASH_DIFF))
        except StoreError as exc:
            self.votes.update(votes)  # kept for the next try
            self._error("count the trailing-slash votes", exc)
            return
        self.guessing = not self.dropped and adds_slash(same, diff)

    def _closed(self) -> None:
        if self.votes:
            self._sync(force=True)

    # -- guessing ---------------------------------------------------------------

    def process_request(self, request: Request) -> Response | None:
        try:
            self._sync()
            if not self._may_guess(request):
                return None
            target = with_slash(request.url)
        except Exception as exc:  # optional analysis never costs a page
            analysis_failed(logger, self.crawler.stats, "slash", request.url, exc)
            return None
        request.meta[META_GUESS] = request.url
        self._inc("guessed")
        return Response(request.url, status=301, headers={"Location": target}, request=request)

    def _may_guess(self, request: Request) -> bool:
        meta = request.meta
        return (self.guessing and request.method in ("GET", "HEAD") and not meta.get(META_AS_LINKED)
                and not meta.get("dont_redirect") and not meta.get("handle_httpstatus_all")
                and 301 not in (meta.get("handle_httpstatus_list") or ()) and bare_url(request.url))

    # -- learning ---------------------------------------------------------------

    def process_response(self, request: Request, response: Response) -> Request | Response:
        try:
            guess = request.meta.get(META_GUESS)
            if guess is None:
                self._vote(request, response)
            elif response.status in MISSING_STATUSES and canonical(request.url) == canonical(with_slash(guess)):
                return self._as_linked(request, str(guess))
        except Exception as exc:  # optional analysis never costs a page
            analysis_failed(logger, self.crawler.stats, "slash", request.url, exc)
        return response

    def _vote(self, request: Request, response: Response) -> None:
        if response.status in REDIRECT_STATUSES and b"Location" in response.headers:
            location = response.headers[b"Location"].decode("latin-1", "replace")
            vote = slash_vote(request.url, urljoin(request.url, location), True)
        elif 200 <= response.status < 300 and not request.meta.get("redirect_urls"):
            vote = slash_vote(request.url, request.url, False)
        else:
            return
        if vote:
            self.votes[vote] += 1
            self._inc(f"votes/{vote.rsplit(':', 1)[-1]}")
            if vote == SLASH_DIFF:
                self.guessing = False

    def _as_linked(self, request: Request, linked: str) -> Request:
        """The request of ``linked`` as the page linked it: the guess for it was not
        served. Its alias is withdrawn and the rule dropped for this crawl."""
        self._inc("missed")
        self.dropped, self.guessing = True, False
        logger.info("%s answered %s: requesting %s as linked; no more trailing-slash guesses",
                    request.url, "not found", linked)
        if not outage.is_down(self.crawler):
            try:
                self.store.withdraw_alias(canonical(linked) or linked, SLASH_DIFF)
            except StoreError as exc:
                self._error(f"withdraw the alias of {linked}", exc)
        meta = {key: value for key, value in request.meta.items()
                if key not in (META_GUESS, *_REDIRECT_META)}
        meta[META_AS_LINKED] = True
        return request.replace(url=linked, meta=meta, dont_filter=True)
