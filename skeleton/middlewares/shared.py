"""One parse and one text pass per response, shared by the middlewares and the spider.

The first component that needs the page's tree calls :func:`shared_page`: it parses
the body once (:func:`skeleton.web.dom.parse_html`, counted in the crawl stat
``skeleton/parse/pages``) and keeps the result on ``response.meta[META_PAGE]`` (key
``"skeleton_page"``), a :class:`SharedPage`; later callers for the same response get
the same object. :func:`page_text` adds the page's one text pass
(:func:`skeleton.wisdom.page.scan_page`) for a stop-word list, so the entropy
middleware's term counts and WISDOM's per-node terms come from one tokenization.
The entropy middleware also leaves there the weights W of the page's terms that
its Redis update returned (``SharedPage.weights``), which WISDOM uses.

When the frames downloader middleware (:mod:`skeleton.middlewares.frames`) left
the page's frame documents on ``response.meta["skeleton_frames"]``, they are
inlined into the tree right after the parse (:func:`skeleton.web.frames.inline_frames`;
stat ``skeleton/frames/inlined``).

The object lives until the spider is done with the page (:func:`release_page`):
requests built from the response do not copy it (the spider writes each request's
meta explicitly). :func:`html_response`
tells the components which responses are HTML pages at all.

Optional analysis never costs a page: the entropy, WISDOM, URL-variant, redirect
alias and frame components and the spider's logical sections catch whatever their
analysis raises and let the response through untouched, so the page still gets
its item and its node. :func:`analysis_failed` counts the failure
(``skeleton/<component>/errors`` and ``skeleton/<component>/errors/<ExceptionType>``)
and logs one warning line the first time each exception type fails in a
component during a crawl (its traceback at DEBUG); later ones are only counted.
"""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Any

from lxml import etree
from scrapy.exceptions import NotConfigured
from w3lib.encoding import http_content_type_encoding

from skeleton.crawl_settings import crawl_settings
from skeleton.store import outage
from skeleton.store.keys import CrawlKeys
from skeleton.web.dom import attribute_text, parse_html
from skeleton.web.frames import inline_frames, parse_frame
from skeleton.wisdom.page import PageText, scan_page

__all__ = ["analysis_failed", "crawl_keys", "inc_stat", "store_failed", "META_PAGE", "META_FRAMES", "PARSE_STAT", "HTML_TYPES", "SharedPage", "shared_page",
           "release_page", "page_text",
           "declared_encoding", "html_response", "page_to_analyse"]

META_PAGE = "skeleton_page"
META_FRAMES = "skeleton_frames"
FRAMES_STAT = "skeleton/frames/inlined"
PARSE_STAT = "skeleton/parse/pages"
HTML_TYPES = ("text/html", "application/xhtml+xml")

logger = logging.getLogger(__name__)


def analysis_failed(log: logging.Logger, stats: Any, component: str, url: str,
                    exc: BaseException) -> None:
    """Count an optional analysis that raised ``exc`` on ``url``; warn in one line
    the first time ``component`` fails with this exception type in the crawl (the
    traceback at DEBUG), later ones are only counted."""
    kind = type(exc).__name__
    first = True
    if stats is not None:
        stats.inc_value(f"skeleton/{component}/errors")
        key = f"skeleton/{component}/errors/{kind}"
        stats.inc_value(key)
        first = stats.get_value(key) == 1
    if not first:
        return
    message = " ".join(str(exc).split())
    log.warning("%s analysis failed on %s (%s: %.200s): the page goes on without it; "
                "further %s errors are counted in skeleton/%s/errors/%s, not logged",
                component, url, kind, message, kind, component, kind)
    log.debug("traceback of the %s error on %s", component, url, exc_info=exc)


@dataclass(slots=True)
class SharedPage:
    """A response's parsed tree, its text pass, the weights of its terms, the text
    of its attribute values (:attr:`attributes`) and when its parse began
    (``time.monotonic``: the start of the page's analysis budget, :mod:`skeleton.budget`)."""

    root: etree._Element | None
    encoding: str | None = None
    started: float = 0.0
    text: PageText | None = None
    stop: frozenset[str] | None = None
    weights: dict[str, float] | None = None
    _attributes: str | None = field(default=None, repr=False)

    @property
    def attributes(self) -> str:
        """:func:`skeleton.web.dom.attribute_text` of the tree, computed on first use:
        the pre-checks' text shared by the page's analyses."""
        if self._attributes is None:
            self._attributes = attribute_text(self.root)
        return self._attributes


def _content_type(response: Any) -> str:
    return response.headers.get(b"Content-Type", b"").decode("latin-1")


def declared_encoding(response: Any) -> str | None:
    """The encoding the HTTP ``Content-Type`` header declares, if any."""
    return http_content_type_encoding(_content_type(response))


def html_response(response: Any) -> bool:
    """Whether the ``Content-Type`` is an HTML type, or missing (then the body decides)."""
    mime = _content_type(response).split(";")[0].strip().lower()
    return not mime or mime in HTML_TYPES


def page_to_analyse(response: Any, crawler: Any) -> bool:
    """Whether a middleware analyses ``response``: a 2xx HTML page, while Redis is
    not declared gone for the crawl (:func:`skeleton.store.outage.is_down`)."""
    return 200 <= response.status < 300 and html_response(response) and not outage.is_down(crawler)


def release_page(response: Any) -> None:
    """Drop the response's :class:`SharedPage`, once the spider is done with the page
    (every component reads it before the spider does): a response can outlive its
    page in a reference cycle until the collector's next pass over older objects,
    and the parsed tree (libxml2's memory, a few hundred kB) would wait with it."""
    meta = getattr(response, "meta", None)  # None: a response tied to no request
    if isinstance(meta, dict):
        meta.pop(META_PAGE, None)


def shared_page(response: Any, stats: Any = None) -> SharedPage:
    """The response's :class:`SharedPage`, parsing the body on the first call only."""
    try:
        meta = response.meta
    except AttributeError:  # a response tied to no request: nothing to share
        meta = None
    page = meta.get(META_PAGE) if meta is not None else None
    if isinstance(page, SharedPage):
        return page
    encoding = declared_encoding(response)
    started = time.monotonic()
    page = SharedPage(parse_html(response.body, encoding), encoding, started)
    frames = meta.get(META_FRAMES) if meta is not None else None
    if frames and page.root is not None:
        try:
            trees = {url: parse_frame(*frame) if frame else None for url, frame in frames.items()}
            inlined = inline_frames(page.root, response.url, trees)
        except Exception as exc:  # the page is read without its frames
            analysis_failed(logger, stats, "frames", response.url, exc)
            page.root, inlined = parse_html(response.body, encoding), 0
        if stats is not None and inlined:
            stats.inc_value(FRAMES_STAT, inlined)
    if stats is not None:
        stats.inc_value(PARSE_STAT)
    if meta is not None:
        meta[META_PAGE] = page
    return page


def page_text(page: SharedPage, stop: frozenset[str]) -> PageText:
    """The page's text pass with the ``stop`` words (made once per stop-word list)."""
    if page.text is None or page.stop != stop:
        page.text = scan_page(page.root, stop=stop)
        page.stop = stop
        page.weights = None
    return page.text


def inc_stat(crawler: Any, key: str, count: float = 1) -> None:
    """Add ``count`` to the crawl stat ``key`` (nothing without a stats collector)."""
    if crawler.stats is not None:
        crawler.stats.inc_value(key, count)


def store_failed(log: logging.Logger, crawler: Any, label: str, prefix: str, what: str,
                 exc: BaseException) -> None:
    """A component's Redis work failed: one warning line (``label: could not
    what: exc``), the stat ``prefix/errors``, and the outage check that stops the
    crawl once Redis is gone for good (:func:`skeleton.store.outage.redis_failed`)."""
    log.warning("%s: could not %s: %s", label, what, exc)
    inc_stat(crawler, f"{prefix}/errors")
    outage.redis_failed(crawler, exc, f"{label}: trying to {what}")


def crawl_keys(crawler: Any, component: str, switch: str | None = None) -> CrawlKeys:
    """The Redis keys of the crawl ``crawler`` runs, from the skeleton spider's crawl
    id (its ``-a crawl`` argument, or the default id, :mod:`skeleton.crawl_settings`),
    or ``NotConfigured`` naming ``component`` for any other spider; also
    ``NotConfigured`` when the boolean setting ``switch`` (on by default) is off."""
    if switch is not None and not crawler.settings.getbool(switch, True):
        raise NotConfigured(f"{switch} is off")
    crawl = crawl_settings(crawler.settings)
    if crawl is None:
        raise NotConfigured(f"{component} works with the skeleton spider only")
    return CrawlKeys(crawl.crawl)
