"""The ``skeleton`` spider: crawls a site breadth-first along its navigation links.

Arguments (``-a NAME=VALUE``): ``base`` (required, the http(s) start URL; the
crawl stays on its host, under its directory), ``depth`` (pages at this depth are
fetched but their links are not followed), ``max_pages`` (the run's page budget
over all its workers, counted in Redis by ``skeleton.extensions.lifecycle``; a worker
also never analyses more on its own), ``crawl`` (crawl id, default derived from ``base`` and ``mode``:
a readable prefix and a hash, ``skeleton.store.keys.crawl_id_for``; a crawl id
holding an unfinished crawl of another base is refused, ``skeleton.extensions.lifecycle``), ``model``
(a SEW model file, default the shipped model), ``mode`` (``sew``, or ``bfs``:
the baseline that follows every in-scope link), ``detector`` (``sew``,
``blocks`` or ``hybrid``: see ``skeleton.navobjects.detector``) and
``block_model`` (a block SVM file, default the shipped one) and ``template_menu``
(off by default; N: before the crawl, find the site's template menu as the links
shared by an N-complete subdigraph from ``base``, and pass it to LinkSetDup on
pages at depth 2 and deeper, see ``skeleton.spiders.template_menu``) and ``lang``
(the language mapped: a primary language subtag such as ``en``, or ``any``; default
the home page's language; pages in another language are leaves outside the tree,
see ``skeleton.urlrules.language``); ``render`` (``off``, ``js``: each HTML page
read as headless Chromium renders it, for pages whose links a script writes, or
``auto``: only the pages that run a script and show no navigation as served;
default the setting ``SKELETON_RENDER``, off; see ``skeleton.middlewares.render``).

One page, one node (``skeleton.urlrules``): a page whose ``<link rel="canonical">``
names another page of the site is recorded under that URL (its own URL becomes an
alias); with ``SKELETON_SKIP_ACTIONS`` (default on) action links (cart, login,
wishlist, compare, report, share), ``rel="nofollow"`` links, links marked as views
(``rel="tag"``, ``"author"``, ``"archives"``, ``"search"``) and pages that answer
with a form only are not followed; links to a page's copies in another language
are never followed.

A link whose href cannot be read as a URL (``http://[::1``, ``http://host:99999/``,
``http://exa mple.com/``, ``http://xn--/``: :func:`skeleton.web.urls.unparsable`) is
skipped and counted in the stat ``skeleton/links/unparsable``; the page is analysed
as usual, with that link read as a link to no page (SEW's type *other*, as a
``javascript:`` link).

A page that fails for good (an HTTP error after Scrapy's retries, a timeout, a DNS
or connection error, a body over ``DOWNLOAD_MAXSIZE`` downloaded or decompressed, a
redirect loop or too many redirects, any request dropped with ``IgnoreRequest``
after it was answered) is recorded as a page with ``reason`` ``failed`` and its
``status`` (:func:`failure_status`): a broken leaf of the tree under the page that
linked it. Counted in ``skeleton/failed_pages`` and ``skeleton/failed_pages/STATUS``
(``skeleton/fetch_failed`` counts every errback, the requests filtered on purpose
too: robots.txt, offsite, which were never requested and are no page).

A page whose analysis takes longer than ``SKELETON_ANALYSIS_BUDGET`` seconds (30;
0: no budget) is cut (:mod:`skeleton.budget`: checked between the steps and in
their loops) and recorded as a failed page with ``status`` ``analysis_budget``, its
links not followed. A shutdown signal (SIGTERM, Ctrl-C) stops the analysis the
same way, but the page is neither recorded nor acknowledged: its lease goes back to
the queue when the scheduler closes, for the next run (so does a response or a
failed download that comes during the shutdown).

The crawl keeps to the base URL's scope: its scheme, host name, port and
directory (:func:`skeleton.web.urls.in_scope`). A page that redirects out of it
(an HTTP redirect or a meta refresh to another port, host, scheme or path:
:mod:`skeleton.middlewares.scope`) is recorded as a leaf with ``reason``
``redirect_offsite`` and ``status`` the redirect's HTTP status (``"302"``) or
``"refresh"``; the target is never requested. When the base page itself redirects
out, ``scrapy crawl`` ends with an error line naming the target (stat
``skeleton/base_redirect_offsite``) and exit code 1.
"""
from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Iterable, Iterator
from difflib import get_close_matches
from typing import Any, Self
from weakref import WeakSet

import redis
import scrapy
from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import (CannotResolveHostError, DownloadCancelledError,
                               DownloadConnectionRefusedError, DownloadFailedError,
                               DownloadTimeoutError, IgnoreRequest, ResponseDataLossError,
                               UsageError)
from scrapy.http import Response
from scrapy.spidermiddlewares.httperror import HttpError
from twisted.internet import error
from scrapy.utils.defer import deferred_from_coro
from twisted.python.failure import Failure

from skeleton.budget import (BUDGET_SETTING, BUDGET_STATUS, DEFAULT_BUDGET, BudgetSpent, Deadline,
                             ShutdownPending, ShutdownWatch, checkpoint, within)
from skeleton.redact import redact_url
from skeleton.store import outage
from skeleton.analyses import SETTINGS as ANALYSIS_SETTINGS
from skeleton.analyses import AnalysesError, parse_analyses
from skeleton.analyses import enabled as analysis_enabled
from skeleton.browser import MISSING, chromium_paths
from skeleton.middlewares.render import RENDER_SETTING, render_mode
from skeleton.hierarchy.evidence import declared_places, page_evidence
from skeleton.hierarchy.offers import page_offers
from skeleton.hierarchy.resolve import FAILED_REASON
from skeleton.items import PageItem
from skeleton.middlewares.scope import (META_REDIRECT_OFFSITE, REDIRECT_OFFSITE_REASON, RedirectGivenUp,
                                        redirect_offsite_status)
from skeleton.middlewares.shared import (META_PAGE, SharedPage, analysis_failed, html_response, release_page,
                                         shared_page)
from skeleton.navobjects.detector import CRAWL_DETECTORS, load_block_model, make_detector
from skeleton.navobjects.svm import ModelFormatError
from skeleton.store.queue import LEASE_META, request_finished
from skeleton.store.keys import CrawlKeys, crawl_id_error, crawl_id_for
from skeleton.store.server import connect, redis_url
from skeleton.schema.hook import item_sections
from skeleton.sew.context import Context, decode_context, encode_context
from skeleton.sew.detect import NavLink
from skeleton.sew.edges import followed_links
from skeleton.web.dom import looks_binary, page_title
from skeleton.sew.links import extract_links, unparsable_links
from skeleton.sew.model import ModelError, load_model
from skeleton.web.urls import canonical, in_scope, same_host, split_url, trap_reason
from skeleton.spiders.sitemaps import SitemapReader
from skeleton.spiders.template_menu import load_template_menu
from skeleton.template.crawl import templates_with_menu
from skeleton.urlrules.actions import action_reason
from skeleton.urlrules.canonical_link import canonical_link
from skeleton.urlrules.language import ANY_LANGUAGE, page_language, primary_language
from skeleton.urlrules.links import leaf_reason, link_skip_reasons

try:  # what HttpCompressionMiddleware's IgnoreRequest comes from when a body inflates past the limit
    from scrapy.utils._compression import _DecompressionMaxSizeExceeded as _DECOMPRESSION_TOO_LARGE
except ImportError:  # pragma: no cover - another Scrapy: such a drop is recorded as IGNORED
    _DECOMPRESSION_TOO_LARGE = None

__all__ = ["BASE_FAILED_STAT", "BASE_REDIRECT_STAT", "IGNORED", "SkeletonSpider", "TOO_LARGE",
           "UNPARSABLE_REASON", "failure_status"]

logger = logging.getLogger(__name__)

MODES = ("sew", "bfs")
META_DEPTH, META_PARENT = "skeleton_depth", "skeleton_parent"
#: the id of the LinkSetDup context carried with each request (the ancestors'
#: navigation link sets and the parent's rejected candidates, stored once in the
#: crawl's ``:contexts``, :mod:`skeleton.sew.context`); "" for none
META_CONTEXT = "skeleton_context"
#: the language the crawl maps, decided on the home page and carried with every request
META_LANG = "skeleton_lang"
#: why a link whose href cannot be read as a URL is skipped; counted as ``skeleton/REASON``
UNPARSABLE_REASON = "links/unparsable"
#: the fields of the feed items (``-o``/``FEEDS``) by default: what the tree needs;
#: ``FEED_EXPORT_FIELDS`` chooses others (the pipeline always gets the whole item)
FEED_FIELDS = ("url", "parent", "depth", "found_from", "found_depth", "title", "is_navigation", "nav_links",
               "confidence", "reason", "status")
#: analysis -> the item field holding its data, exported when the analysis runs
ANALYSIS_FIELDS = {"wisdom": "blocks", "blocks": "nav_blocks", "schema": "sections"}


def feed_fields(analyses: Iterable[str], block_detector: bool = False) -> list[str]:
    """The feed fields of a crawl running ``analyses`` (names of
    :data:`ANALYSIS_FIELDS`); a block detector (``detector`` other than ``sew``)
    fills ``nav_blocks`` too."""
    names = set(analyses) | ({"blocks"} if block_detector else set())
    return [*FEED_FIELDS, *(field for name, field in ANALYSIS_FIELDS.items() if name in names)]


#: stat holding why the base page could not be fetched (a status, an error kind, or
#: "filtered": robots.txt, offsite); read by ``scrapy crawl`` for its exit code
BASE_FAILED_STAT = "skeleton/base_failed"
#: stat holding the URL out of the crawl's scope the base page redirects to; read
#: by ``scrapy crawl`` for its exit code
BASE_REDIRECT_STAT = "skeleton/base_redirect_offsite"
#: the skeleton spider's ``-a`` arguments
SPIDER_ARGUMENTS = ("base", "depth", "max_pages", "crawl", "model", "mode", "detector", "block_model",
                    "template_menu", "lang", "analyses", "render")
#: detection contexts a worker keeps in memory (the others are read again from Redis)
MAX_CACHED_CONTEXTS = 256


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


def refuse_unknown_arguments(spider: str, given: dict[str, Any], known: Iterable[str]) -> None:
    """Raise ``UsageError`` naming the closest known argument for any ``-a`` argument
    that is not one of ``known`` (a typo such as ``depht=1`` would otherwise be
    ignored). Arguments starting with ``_`` pass: Scrapyd adds ``_job``."""
    names = sorted(known)
    for name in given:
        if name.startswith("_") or name in names:
            continue
        close = get_close_matches(name, names, n=1, cutoff=0.5)
        hint = f"did you mean {close[0]!r}? " if close else ""
        raise UsageError(f"unknown argument {name!r} for the {spider} spider: {hint}"
                         f"its arguments are {', '.join(names)}")


def _base_url(base: str | None) -> str:
    """The canonical start URL. A base with a user name or password
    (``http://user:pw@host/``) is refused: the crawl would store it in Redis
    (``:meta``, every page URL) and print it in logs, ``scrapy status``,
    ``scrapy crawls``, ``scrapy tree`` and the feeds; Scrapy does not send such
    credentials anyway. Every message shows ``base`` with its secrets masked
    (:func:`skeleton.redact.redact_url`)."""
    if not base:
        raise UsageError("the skeleton spider needs a start URL: -a base=http://host/path/")
    shown = repr(redact_url(base))
    parts = split_url(base.strip())
    if parts is not None and (parts.scheme.lower() not in ("http", "https") or not parts.hostname):
        raise UsageError(f"base must be an absolute http(s) URL, got {shown}")
    if parts is not None and "@" in parts.netloc:
        raise UsageError(f"base must not contain a user name or password, got {shown}: "
                         "credentials in the start URL are never stored nor sent")
    url = canonical(base.strip()) if parts is not None else ""
    if not url:
        raise UsageError(f"base is not a valid URL: {shown}")
    return url


def _positive_int(name: str, value: Any, minimum: int) -> int | None:
    if value is None or value == "":
        return None
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise UsageError(f"{name} must be an integer, got {value!r}") from None
    if number < minimum:
        raise UsageError(f"{name} must be at least {minimum}, got {number}")
    return number


def _language(value: str | None) -> str | None:
    if value is None or not str(value).strip():
        return None
    if str(value).strip().lower() == ANY_LANGUAGE:
        return ANY_LANGUAGE
    lang = primary_language(str(value))
    if not lang:
        raise UsageError(f"lang must be a language code such as 'en' or 'any', got {value!r}")
    return lang


class SkeletonSpider(SitemapReader, scrapy.Spider):
    name = "skeleton"

    def __init__(self, base: str | None = None, depth: str | int | None = None,
                 max_pages: str | int | None = None, crawl: str | None = None,
                 model: str | None = None, mode: str = "sew", detector: str = "sew",
                 block_model: str | None = None, template_menu: str | int | None = None,
                 lang: str | None = None, analyses: str | None = None, render: str | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        args = self.check_arguments(base=base, depth=depth, max_pages=max_pages, crawl=crawl,
                                    model=model, mode=mode, detector=detector,
                                    block_model=block_model, template_menu=template_menu, lang=lang,
                                    analyses=analyses, render=render, **kwargs)
        self.base: str = args["base"]
        self.max_depth: int | None = args["depth"]
        self.max_pages: int | None = args["max_pages"]
        self.mode: str = args["mode"]
        self.crawl_id: str = args["crawl"]
        self.model = args["model"]
        self.detector = args["detector"]
        self._detector_args = (args["detector_name"], args["model"], block_model)
        self.analyses: frozenset[str] = args["analyses"]
        #: ``-a render=``: off or js (skeleton.middlewares.render); None: the setting decides
        self.render: str | None = args["render"]
        self.template_n: int | None = args["template_menu"]
        self.menu: frozenset[str] = frozenset()
        self.language: str | None = args["lang"]
        self.skip_actions = True
        self.keys = CrawlKeys(self.crawl_id)
        self.pages_seen = 0
        self._contexts: dict[str, Context] = {"": ([], [])}
        self._server: Any = None
        #: the requests a response came for (Scrapy's ``response_downloaded``): an
        #: ``IgnoreRequest`` in the errback of one of them dropped a page requested
        self._answered: WeakSet[scrapy.Request] = WeakSet()
        #: seconds a page's analysis may take (``SKELETON_ANALYSIS_BUDGET``; 0: no budget)
        self.analysis_budget = DEFAULT_BUDGET
        #: whether a shutdown signal came (the analysis stops at once, its page stays queued)
        self.shutdown = ShutdownWatch()

    @staticmethod
    def check_arguments(base: str | None = None, depth: str | int | None = None,
                        max_pages: str | int | None = None, crawl: str | None = None,
                        model: str | None = None, mode: str = "sew", detector: str = "sew",
                        block_model: str | None = None, template_menu: str | int | None = None,
                        lang: str | None = None, analyses: str | None = None,
                        render: str | None = None, **kwargs: Any) -> dict[str, Any]:
        """Validated spider arguments; raises ``UsageError`` with a one-line message."""
        refuse_unknown_arguments("skeleton", kwargs, SPIDER_ARGUMENTS)
        url = _base_url(base)
        try:
            chosen = parse_analyses(analyses)
        except AnalysesError as exc:
            raise UsageError(str(exc)) from None
        max_depth = _positive_int("depth", depth, 0)
        budget = _positive_int("max_pages", max_pages, 1)
        try:
            rendering = None if render is None else render_mode(render)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        if rendering in ("js", "auto") and chromium_paths() is None:
            raise UsageError(f"render={rendering}: {MISSING}")
        if mode not in MODES:
            raise UsageError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
        menu_n = _positive_int("template_menu", template_menu, 1)
        language = _language(lang)
        if menu_n is not None and mode != "sew":
            raise UsageError("template_menu works with mode=sew only")
        crawl = crawl or crawl_id_for(url, mode)
        problem = crawl_id_error(crawl)
        if problem:
            raise UsageError(problem)
        if detector not in CRAWL_DETECTORS:
            raise UsageError(f"detector must be one of {', '.join(CRAWL_DETECTORS)}, got {detector!r}")
        # the block model is loaded only when something uses it: the CHD-HD
        # detectors, or the navigation blocks analysis
        with_blocks = detector != "sew" or "blocks" in chosen
        try:
            sew_model = load_model(model) if mode == "sew" else None
            blocks = load_block_model(block_model) if mode == "sew" and with_blocks else None
        except (ModelError, ModelFormatError) as exc:
            raise UsageError(str(exc)) from None
        detect = make_detector(detector, sew_model, blocks, with_blocks=with_blocks) \
            if sew_model is not None else None
        return {"base": url, "depth": max_depth, "max_pages": budget, "mode": mode,
                "crawl": crawl, "model": sew_model, "detector": detect, "template_menu": menu_n,
                "detector_name": detector, "blocks": blocks, "lang": language, "analyses": chosen,
                "render": rendering}

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> Self:
        spider = super().from_crawler(crawler, *args, **kwargs)
        # Scrapy applies and freezes settings after creating the spider: every
        # Redis user (scheduler, dupefilter, pipeline) reads the same URL and keys.
        crawler.settings.set("REDIS_URL", redis_url(crawler.settings), priority="cmdline")
        crawler.settings.set("SCHEDULER_QUEUE_KEY", spider.keys.requests, priority="cmdline")
        crawler.settings.set("SCHEDULER_DUPEFILTER_KEY", spider.keys.dupefilter, priority="cmdline")
        spider.skip_actions = crawler.settings.getbool("SKELETON_SKIP_ACTIONS", True)
        spider.analysis_budget = crawler.settings.getfloat(BUDGET_SETTING, DEFAULT_BUDGET)
        crawler.signals.connect(spider._response_downloaded, signal=signals.response_downloaded)
        if spider.max_pages is not None:
            # a budgeted run stores each page at once: its workers count the pages stored
            crawler.settings.set("SKELETON_ACK_BATCH", 1, priority="spider")
        # -a analyses=... switches the analyses' settings on for the whole crawl (the
        # middlewares are built after the spider, from these settings)
        for name in spider.analyses:
            crawler.settings.set(ANALYSIS_SETTINGS[name], True, priority="spider")
        if spider.render is not None:  # -a render=js: the rendering middleware is on
            crawler.settings.set(RENDER_SETTING, spider.render, priority="spider")
        if spider.mode == "sew" and spider._detector_args[0] == "sew" \
                and analysis_enabled(crawler.settings, "blocks") and "blocks" not in spider.analyses:
            spider.detector = spider.sew_detector(with_blocks=True)  # the setting asked for them
        if crawler.settings.get("FEED_EXPORT_FIELDS") is None:
            crawler.settings.set("FEED_EXPORT_FIELDS", feed_fields(
                [name for name in ANALYSIS_FIELDS if analysis_enabled(crawler.settings, name)],
                spider._detector_args[0] != "sew"), priority="spider")
        return spider

    def sew_detector(self, with_blocks: bool) -> Any:
        """The page detector; with ``detector=sew`` and ``with_blocks`` false, CHD-HD is
        skipped and items carry no ``nav_blocks``."""
        name, model, block_model = self._detector_args
        blocks = load_block_model(block_model) if with_blocks or name != "sew" else None
        return make_detector(name, model, blocks, with_blocks=with_blocks or name != "sew")

    async def start(self) -> AsyncIterator[scrapy.Request]:
        if self.template_n is not None:
            self.menu = frozenset(await load_template_menu(self.crawler, self.base,
                                                           self.template_n, self.keys))
        yield scrapy.Request(self.base, callback=self.parse, errback=self.failed,
                             meta={META_DEPTH: 0, META_PARENT: None, META_CONTEXT: "",
                                   META_LANG: self.language})
        for request in self.sitemap_requests():  # SKELETON_SITEMAP: a report, never a parent
            yield request

    def _response_downloaded(self, response: Response, request: scrapy.Request, **kwargs: Any) -> None:
        """Scrapy's ``response_downloaded`` (sent by the downloader for every
        response, before the downloader middlewares see it): ``request`` was made."""
        self._answered.add(request)

    def failed(self, failure: Failure) -> Iterator[PageItem]:
        """Errback. A request filtered on purpose before it was made (robots.txt,
        offsite) is done without a page: its queue lease is acknowledged. A page
        that failed for good (an HTTP error after retries, a timeout, a DNS or
        connection error, a body too large, a redirect loop, any drop after a
        response came) is an item with ``reason`` ``failed`` and its ``status``
        (:func:`failure_status`), no links: stored as a broken leaf, then its lease
        acknowledged as a page's. It is recorded under the URL last requested (the
        URLs that redirected to it are its aliases)."""
        request = failure.request  # type: ignore[attr-defined]
        stats = self.crawler.stats
        if self.shutdown.requested:
            # a download cut by the shutdown fails no page: it stays queued
            self._left_for_shutdown(request.url)
            return
        stats.inc_value("skeleton/fetch_failed")
        status = failure_status(failure, answered=request in self._answered)
        if request.meta.get(META_DEPTH, 0) == 0 and request.meta.get(META_PARENT) is None:
            # the base page itself: `scrapy crawl` ends with an error line and exit code 1
            stats.set_value(BASE_FAILED_STAT, status or "filtered")
        if status is None:
            self.crawler.signals.send_catch_log(request_finished, request=request)
            return
        logger.warning("could not fetch %s: %s (recorded as failed: %s)",
                       request.url, str(failure.value) or type(failure.value).__name__, status)
        stats.inc_value("skeleton/failed_pages")
        stats.inc_value(f"skeleton/failed_pages/{status}")
        yield PageItem(url=canonical(request.url) or request.url, parent=None, depth=None,
                       found_from=request.meta.get(META_PARENT),
                       found_depth=int(request.meta.get(META_DEPTH) or 0), title="",
                       is_navigation=False, nav_links=[], confidence=0.0, candidates=0,
                       reason=FAILED_REASON, status=status, nav_blocks=[], evidence={},
                       offers={}, lang="", aliases=[])

    # -- callback ---------------------------------------------------------------

    def parse(self, response: Response, **kwargs: Any) -> Iterator[PageItem | scrapy.Request]:
        """The page's child requests, then its item (:meth:`_parse_page`).

        Not a generator function itself: for a generator callback Scrapy reads and
        parses the method's source on every response to warn about ``return value``
        (``scrapy.utils.misc.warn_on_generator_with_return_value``), and its cache
        misses, since each queued request holds its own bound method."""
        return self._parse_page(response)

    def _parse_page(self, response: Response) -> Iterator[PageItem | scrapy.Request]:
        stats = self.crawler.stats
        first_url = response.meta.get("redirect_urls", [response.url])[0]
        self.shutdown.watch()
        if self.shutdown.requested:
            # stopping: the page is not analysed, its lease not acknowledged; the
            # scheduler puts it back in the queue as it closes, for the next run
            self._left_for_shutdown(response.url)
            release_page(response)
            return
        if self.max_pages is not None and (self.pages_seen >= self.max_pages or stats.get_value(
                "skeleton/max_pages/reached") is not None):
            # Over budget (a request in flight when the budget ran out, this worker's or
            # the crawl's, which the lifecycle extension counts over every worker): put
            # it back in the persistent queue so that resuming the crawl fetches it.
            meta = {key: response.meta.get(key)
                    for key in (META_DEPTH, META_PARENT, META_CONTEXT, META_LANG)}
            if LEASE_META in response.meta:  # pushing it ends the lease (skeleton.store.queue)
                meta[LEASE_META] = response.meta[LEASE_META]
            stats.inc_value("skeleton/max_pages/requeued")
            yield scrapy.Request(first_url, callback=self.parse, errback=self.failed,
                                 dont_filter=True, meta=meta)
            return
        self.pages_seen += 1
        stats.inc_value("skeleton/pages")
        # one page, one node: the page is recorded under its final URL; the URLs that
        # redirected to it are its aliases (skeleton.middlewares.aliases)
        url = canonical(response.url) or canonical(first_url) or response.url
        depth = int(response.meta.get(META_DEPTH, 0))
        item = PageItem(url=url, parent=None, depth=None, found_from=response.meta.get(META_PARENT),
                        found_depth=depth, title="", is_navigation=False, nav_links=[], confidence=0.0, candidates=0,
                        reason=None, nav_blocks=[], evidence={}, offers={}, lang="", aliases=[])
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
            requests = self._cut(item, url, cut)
        except redis.RedisError as exc:
            # no context, no detection: the page's lease stays unacknowledged and a
            # later run crawls it again (a lost connection closes the crawl)
            outage.redis_failed(self.crawler, exc, "reading a detection context")
            return
        except Exception:
            logger.exception("error analysing %s", response.url)
            stats.inc_value("skeleton/errors")
            item.update(is_navigation=False, nav_links=[], confidence=0.0, candidates=0,
                        reason="error")
            requests = []
        if self.max_pages is not None and self.pages_seen >= self.max_pages:
            self._budget_spent()
        # Child requests first: Scrapy schedules each request output as it takes it,
        # in order, so when the item (stored, then the page's lease acknowledged)
        # comes last, the children are already in the queue.
        yield from requests
        yield item
        release_page(response)  # the tree is not needed any more: freed now, not at a later collection

    def _deadline(self, response: Response) -> Deadline:
        """The page's deadline: ``SKELETON_ANALYSIS_BUDGET`` seconds from its parse
        (by the first component that read it; now when none did yet), and the
        shutdown signal."""
        page = response.meta.get(META_PAGE)
        started = page.started if isinstance(page, SharedPage) and page.started else time.monotonic()
        return Deadline(self.analysis_budget, started, self.shutdown)

    def _left_for_shutdown(self, url: str) -> None:
        """A page not analysed (or not recorded as failed) because the crawl is
        stopping: no item, no acknowledgement, so its lease goes back to the queue
        when the scheduler closes and the next run crawls it
        (``skeleton/analysis_cut/shutdown``)."""
        self.crawler.stats.inc_value("skeleton/analysis_cut/shutdown")
        logger.info("stopping: %s left in the queue for the next run, not analysed", url)

    def _cut(self, item: PageItem, url: str, cut: BudgetSpent) -> list[scrapy.Request]:
        """A page whose analysis took longer than ``SKELETON_ANALYSIS_BUDGET``: a
        broken leaf, ``reason`` ``failed`` and ``status`` ``analysis_budget``, under
        its own URL (what the analysis found is dropped, its title kept), no links
        followed; counted as a failed page."""
        stats = self.crawler.stats
        logger.warning("analysis of %s stopped after %.2f s, over SKELETON_ANALYSIS_BUDGET (%g s): "
                       "recorded as failed: %s", item["url"], cut.seconds, cut.budget, BUDGET_STATUS)
        stats.inc_value("skeleton/failed_pages")
        stats.inc_value(f"skeleton/failed_pages/{BUDGET_STATUS}")
        item.update(url=url, aliases=[], is_navigation=False, nav_links=[], confidence=0.0, candidates=0,
                    reason=FAILED_REASON, status=BUDGET_STATUS, nav_blocks=[], evidence={}, offers={})
        item.pop("sections", None)
        item.pop("redirect_to", None)
        return []

    def _budget_spent(self) -> None:
        """Close the crawl once ``max_pages`` pages are analysed. The engine takes no
        new request from the queue while closing, so this page's links stay queued
        in Redis and a later run with the same crawl id resumes from them."""
        self.crawler.stats.set_value("skeleton/max_pages/reached", self.max_pages)
        if self.crawler.crawling:
            deferred_from_coro(self.crawler.engine.close_spider_async(reason="max_pages"))

    def _leaf(self, item: PageItem, reason: str) -> list[scrapy.Request]:
        item["reason"] = reason
        self.crawler.stats.inc_value(f"skeleton/leaf_reason/{reason}")
        return []

    def _analyse(self, response: Response, item: PageItem) -> list[scrapy.Request]:
        target = response.meta.get(META_REDIRECT_OFFSITE)
        if target:  # a redirect out of the crawl's scope, not followed
            item["status"] = redirect_offsite_status(response)
            item["redirect_to"] = str(target)
            if item["found_depth"] == 0 and item["found_from"] is None:
                self.crawler.stats.set_value(BASE_REDIRECT_STAT, str(target))
            return self._leaf(item, REDIRECT_OFFSITE_REASON)
        if not html_response(response):
            return self._leaf(item, "non_html")
        body = response.body
        if not body.strip():
            return self._leaf(item, "empty")
        if looks_binary(body):
            return self._leaf(item, "binary")
        shared = shared_page(response, self.crawler.stats)  # parsed once per response
        root = shared.root
        checkpoint()  # skeleton.budget: between the steps, and in their loops
        if root is None:
            return self._leaf(item, "unparsable")
        final = canonical(response.url) or item["url"]
        attributes = shared.attributes  # the pre-checks' text, one pass per page
        own_lang = page_language(root, attributes)
        language = response.meta.get(META_LANG) or (own_lang if item["found_depth"] == 0 else None)
        item["lang"] = own_lang
        item["title"] = page_title(root)
        leaf = leaf_reason(root, final, own_lang, language, self.skip_actions)
        if leaf:
            return self._leaf(item, leaf)
        checkpoint()
        declared = canonical_link(root, final, self.base, attributes)
        if declared:
            # the site names the page by another URL: that is the node, this URL its alias
            self.crawler.stats.inc_value("skeleton/canonical_links")
            item["aliases"] = [item["url"]]
            item["url"] = declared
        page = item["url"]
        item["evidence"] = page_evidence(root, final, attributes)
        checkpoint()
        try:
            sections = item_sections(self.settings, root, final)  # SKELETON_SCHEMA_ENABLED
        except Exception as exc:  # optional analysis never costs a page: no sections
            analysis_failed(logger, self.crawler.stats, "schema", response.url, exc)
            sections = None
        if sections is not None:
            item["sections"] = sections
        checkpoint()
        context = str(response.meta.get(META_CONTEXT) or "")
        child_context = ""
        if self.mode == "sew":
            known, template = self.context(context)
            template = templates_with_menu(template, self.menu, item["found_depth"])
            detection = self.detector(root, final, self.base, known, template)
            raw = detection.nav_links(final)
            item.update(confidence=detection.confidence, candidates=detection.candidates,
                        nav_blocks=getattr(detection, "nav_blocks", []))
            if item["found_depth"] == 0:
                # Every page below the root gets the root's context, whichever parent
                # found it first, so detection never depends on arrival order.
                child_context = self.store_context(*detection.context_for_children(known))
            else:
                child_context = context
            nav_sets = detection.nav_sets
            self._unparsable_links(detection.unparsable, final)
        else:
            every = extract_links(root, final)
            unparsable = set(self._unparsable_links(unparsable_links(every, final), final))
            raw = [NavLink(link.url, link.sec_name, final) for link in every
                   if link.url or link.href not in unparsable]  # counted once, as unparsable
            nav_sets = []
        checkpoint()
        chain = [canonical(u) for u in response.meta.get("redirect_urls", [])]
        links = self._followable(raw, page, self._link_reasons(raw, root, final, language, attributes),
                                 final, *item["aliases"], *filter(None, chain))
        checkpoint()
        item["nav_links"] = [{"url": u, "text": t, "parent": p} for u, t, p, _ in links]
        item["offers"] = page_offers(page, nav_sets, links)
        checkpoint()
        item["is_navigation"] = bool(links) if self.mode == "bfs" else bool(detection.nav_sets)
        self.crawler.stats.inc_value("skeleton/nav_pages" if item["is_navigation"]
                                     else "skeleton/content_pages")
        requests = []
        for url, _, parent, level in links:
            child_depth = item["found_depth"] + level
            if self.max_depth is not None and child_depth > self.max_depth:
                self.crawler.stats.inc_value("skeleton/depth_limited")
                continue
            requests.append(scrapy.Request(url, callback=self.parse, errback=self.failed, meta={
                META_DEPTH: child_depth, META_PARENT: parent, META_CONTEXT: child_context,
                META_LANG: language}))
        # the ancestors the page declares (breadcrumb, up, filed) are fetched even when
        # no navigation set links them: a section index only the breadcrumb names
        linked = {url for url, _, _, _ in links} | {page, final, *chain, *item["aliases"]}
        for url in declared_places(item["evidence"]):
            if url in linked or self._skip_reason(url):
                continue
            if self.max_depth is not None and item["found_depth"] + 1 > self.max_depth:
                break
            self.crawler.stats.inc_value("skeleton/declared_followed")
            requests.append(scrapy.Request(url, callback=self.parse, errback=self.failed, meta={
                META_DEPTH: item["found_depth"] + 1, META_PARENT: page,
                META_CONTEXT: child_context, META_LANG: language}))
        return requests

    # -- detection contexts (skeleton.sew.context) ------------------------------

    def _redis(self) -> Any:
        if outage.is_down(self.crawler):  # declared gone: no component waits for it
            raise redis.ConnectionError("Redis was declared unavailable")
        if self._server is None:
            self._server = connect(self.settings)
        return self._server

    def context(self, context_id: str) -> Context:
        """The detection context ``context_id`` names: from this worker's cache, else
        read once from the crawl's ``:contexts``. An id that names nothing stored
        (an entry queued by an older release) is the empty context."""
        found = self._contexts.get(context_id)
        if found is None:
            found = decode_context(self._redis().hget(self.keys.contexts, context_id))
            if found is None:
                self.crawler.stats.inc_value("skeleton/context/missing")
                found = ([], [])
            self._remember(context_id, found)
        return found

    def _remember(self, context_id: str, context: Context) -> None:
        """Cache a context, forgetting the oldest past ``MAX_CACHED_CONTEXTS`` (the
        empty context stays): worker memory does not grow with the site."""
        self._contexts[context_id] = context
        if len(self._contexts) > MAX_CACHED_CONTEXTS:
            oldest = next(key for key in self._contexts if key)
            del self._contexts[oldest]

    def closed(self, reason: str) -> None:
        """Scrapy calls this when the spider closes: the context client is closed,
        the shutdown signals' handlers are Scrapy's again."""
        self.shutdown.unwatch()
        if self._server is not None:
            self._server.close()
            self._server = None

    def store_context(self, known: Any, template: Any) -> str:
        """Store a context the pages below this one get (once per distinct context and
        worker: ``HSETNX``), and return its id."""
        context_id, blob = encode_context(known, template)
        if context_id not in self._contexts:
            self._redis().hsetnx(self.keys.contexts, context_id, blob)
            self._remember(context_id, ([set(u) for u in known], [set(u) for u in template]))
        return context_id

    def _unparsable_links(self, hrefs: list[str], page: str) -> list[str]:
        """``hrefs``, the page's hrefs that cannot be read as URLs, one per link,
        counted as skipped (``skeleton/links/unparsable``): each is one skipped link,
        never a failed page."""
        if hrefs:
            self.crawler.stats.inc_value(f"skeleton/{UNPARSABLE_REASON}", len(hrefs))
            logger.debug("%s: %d unparsable links skipped, e.g. %r", page, len(hrefs), hrefs[0])
        return hrefs

    def _skip_reason(self, url: str) -> str | None:
        parts = split_url(url)
        if parts is None:
            return UNPARSABLE_REASON
        if not url or parts.scheme not in ("http", "https"):
            return "filtered/not_http"
        if not same_host(url, self.base):
            return "filtered/offsite"
        if not in_scope(url, self.base):
            return "filtered/out_of_scope"
        reason = trap_reason(url)
        if reason:
            return f"trap/{reason}"
        action = action_reason(url) if self.skip_actions else None
        return f"skipped/{action}" if action else None

    def _link_reasons(self, raw: list[NavLink], root: Any, page: str,
                      language: str | None, attributes: str) -> dict[str, str]:
        """URL -> why the page's link to it is not followed, from the page itself
        (``skeleton.urlrules.links.link_skip_reasons``)."""
        return link_skip_reasons(((link.url, link.text) for link in raw), root, page, language,
                                 self.skip_actions, attributes)

    def _followable(self, raw: list[NavLink], page: str, reasons: dict[str, str],
                    *aliases: str) -> list[tuple[str, str, str, int]]:
        """Links worth following (``edges.followed_links``; ``reasons``: links the
        page itself says not to follow, ``aliases``: the page's other URLs),
        counting what is skipped."""
        def skip(url: str) -> str | None:
            return reasons.get(url) or self._skip_reason(url)

        links, reasons_seen = followed_links(raw, page, skip, aliases)
        for reason in reasons_seen:
            self.crawler.stats.inc_value(f"skeleton/{reason}")
        return links
