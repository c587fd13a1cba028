"""Why a page failed for good, as the skeleton spider records it.

A page that fails for good (an HTTP error after Scrapy's retries, a timeout, a DNS
or connection error, a body over ``DOWNLOAD_MAXSIZE`` downloaded or decompressed, a
redirect loop or too many redirects, any request dropped with ``IgnoreRequest``
after it was answered) is recorded as a page with ``reason`` ``failed`` and its
``status`` (:func:`failure_status`): a broken leaf of the tree under the page that
linked it (:func:`failed_item`), or, answered 404 or 410, a broken link that is no node
(:func:`skeleton.hierarchy.facts.not_found`; ``scrapy tree`` lists those apart). Counted in ``skeleton/failed_pages`` and
``skeleton/failed_pages/STATUS`` (``skeleton/fetch_failed`` counts every errback, the
requests filtered on purpose too: robots.txt, offsite, which were never requested
and are no page).
"""
from __future__ import annotations

import logging
from typing import Any

from scrapy.exceptions import (CannotResolveHostError, DownloadCancelledError,
                               DownloadConnectionRefusedError, DownloadFailedError,
                               DownloadTimeoutError, IgnoreRequest, ResponseDataLossError)
from scrapy.spidermiddlewares.httperror import HttpError
from twisted.internet import error
from twisted.python.failure import Failure

from skeleton.hierarchy.resolve import FAILED_REASON
from skeleton.items import PageItem
from skeleton.middlewares.scope import RedirectGivenUp
from skeleton.spiders.requests import META_DEPTH, META_PARENT
from skeleton.web.urls import canonical

try:  # what HttpCompressionMiddleware's IgnoreRequest comes from when a body inflates past the limit
    from scrapy.utils._compression import _DecompressionMaxSizeExceeded as _DECOMPRESSION_TOO_LARGE
except ImportError:  # pragma: no cover - another Scrapy: such a drop is recorded as IGNORED
    _DECOMPRESSION_TOO_LARGE = None

__all__ = ["BASE_FAILED_STAT", "IGNORED", "TOO_LARGE", "failed_item", "failed_request", "failure_status"]

logger = logging.getLogger(__name__)

#: stat holding why the base page could not be fetched (a status, an error kind, or
#: "filtered": robots.txt, offsite); read by ``scrapy crawl`` for its exit code
BASE_FAILED_STAT = "skeleton/base_failed"

#: ``status`` of a page whose body is over ``DOWNLOAD_MAXSIZE``: the download
#: cancelled (Scrapy raises ``DownloadCancelledError`` for that only), or the body
#: decompressed past it (a gzip bomb: ``HttpCompressionMiddleware``'s ``IgnoreRequest``)
TOO_LARGE = "too_large"
#: ``status`` of a page answered, then dropped by any other ``IgnoreRequest``
IGNORED = "ignored"

#: error kinds of :func:`failure_status`, most specific first (Scrapy's download
#: errors and the Twisted errors they wrap)
_ERROR_KINDS: tuple[tuple[tuple[type[BaseException], ...], str], ...] = (
    ((DownloadTimeoutError, error.TimeoutError, error.TCPTimedOutError), "timeout"),
    ((CannotResolveHostError, error.DNSLookupError), "dns"),
    ((DownloadConnectionRefusedError, error.ConnectionRefusedError), "connection_refused"),
    ((ResponseDataLossError,), "data_loss"),
    ((DownloadCancelledError,), TOO_LARGE),
    ((DownloadFailedError, error.ConnectError, error.ConnectionLost, error.ConnectionDone),
     "connection_error"),
)


def failure_status(failure: Failure, answered: bool = False) -> str | None:
    """Why a request failed for good, as recorded with its page: the HTTP status
    code of an HTTP error (after retries; ``"500"``, ``"404"``), else the error
    kind (``"timeout"``, ``"dns"``, ``"connection_refused"``, ``"data_loss"``,
    ``"too_large"``: over ``DOWNLOAD_MAXSIZE``, downloaded or decompressed,
    ``"redirect_loop"``, ``"too_many_redirects"``
    (:class:`skeleton.middlewares.scope.RedirectGivenUp`), ``"connection_error"``,
    or ``"error"``). Any other ``IgnoreRequest`` is ``"ignored"`` when the request
    was ``answered`` (a response came: a middleware dropped it afterwards), else
    None: a request filtered on purpose before it was made (robots.txt, offsite),
    which is no page."""
    if failure.check(HttpError):
        response = getattr(failure.value, "response", None)
        return str(getattr(response, "status", "") or "error")
    if failure.check(RedirectGivenUp):
        return str(failure.value.status)
    if failure.check(IgnoreRequest):
        cause = failure.value.__cause__
        if _DECOMPRESSION_TOO_LARGE is not None and isinstance(cause, _DECOMPRESSION_TOO_LARGE):
            return TOO_LARGE
        return IGNORED if answered else None
    for kinds, name in _ERROR_KINDS:
        if failure.check(*kinds):
            return name
    return "error"


def failed_item(url: str, found_from: str | None, found_depth: int, status: str, title: str = "",
                lang: str = "") -> PageItem:
    """A failed page: a broken leaf with ``reason`` ``failed`` and ``status``, no
    links, evidence nor offers (``title`` and ``lang``: what was read of it)."""
    return PageItem(url=url, parent=None, depth=None, found_from=found_from, found_depth=found_depth,
                    title=title, is_navigation=False, nav_links=[], confidence=0.0, candidates=0,
                    reason=FAILED_REASON, status=status, nav_blocks=[], evidence={}, offers={}, lang=lang,
                    aliases=[])


def failed_request(failure: Failure, answered: bool, stats: Any) -> PageItem | None:
    """The item of a request that failed for good (``answered``: a response came for
    it), counted in ``stats``; None for a request filtered on purpose before it was
    made, which is no page. The base page's failure is kept in :data:`BASE_FAILED_STAT`.
    The page is recorded under the URL last requested (the URLs that redirected to it
    are its aliases)."""
    request = failure.request  # type: ignore[attr-defined]
    stats.inc_value("skeleton/fetch_failed")
    status = failure_status(failure, answered=answered)
    parent = request.meta.get(META_PARENT)
    if request.meta.get(META_DEPTH, 0) == 0 and parent is None:  # the base page: `scrapy crawl` exits with an error
        stats.set_value(BASE_FAILED_STAT, status or "filtered")
    if status is None:
        return None
    logger.warning("could not fetch %s: %s (recorded as failed: %s)",
                   request.url, str(failure.value) or type(failure.value).__name__, status)
    stats.inc_value("skeleton/failed_pages")
    stats.inc_value(f"skeleton/failed_pages/{status}")
    return failed_item(canonical(request.url) or request.url, parent, int(request.meta.get(META_DEPTH) or 0), status)
