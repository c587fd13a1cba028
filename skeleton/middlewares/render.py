"""Pages read as a browser shows them: ``-a render=js`` (``SKELETON_RENDER``).

A page whose links are written by a script (a single-page application, a menu
filled from JSON) is, as served, a page with no navigation: the crawl would give
a tree of one node. With rendering on, each HTML page of the crawl, once Scrapy
has downloaded it (redirects followed, robots.txt obeyed, the body decompressed),
is loaded again in a headless Chromium (Selenium and Debian's ChromeDriver,
:mod:`skeleton.browser`), and the response goes on as an ``HtmlResponse`` whose
body is the rendered DOM (``document.documentElement.outerHTML``), whose URL is
the browser's final URL and whose status is the served one: the rest of the crawl
(detection, tree, exports) is unchanged.

- Only HTML pages answered 200 are rendered: robots.txt, files, error pages and
  redirects are not (they go on as served).
- One long-lived browser per worker, started at the first page to render, quit
  at ``spider_closed``; it renders one page at a time (a WebDriver is not
  thread-safe) in a thread (``deferToThread``): the reactor stays free for the
  other downloads.
- The page load is bounded by ``SKELETON_RENDER_TIMEOUT`` seconds (0: Scrapy's
  ``DOWNLOAD_TIMEOUT``); after the load the page is given up to
  ``SKELETON_RENDER_SETTLE`` seconds for its DOM to stop changing (a quiet spell
  of :data:`QUIET_MS` ms ends the wait).
- With ``SKELETON_RENDER_SAME_HOST`` (default on) the browser resolves no host
  but the base URL's: a script, an image or a tracker of another host is not
  loaded, a navigation away fails. Turn it off for a site whose scripts come
  from another host (a CDN).
- The browser sends the crawl's ``USER_AGENT``; it keeps its own cookies.
- A page the browser fails on goes on as served (``skeleton/render/failed``).

``render=auto`` renders only a page that, as served, runs a script and has no
navigation (the crawl's page detector on the page alone, built here from the
crawl's published settings, :mod:`skeleton.crawl_settings`; ``skeleton/render/served``
counts the pages read as served).

Stats: ``skeleton/render/pages`` (rendered), ``skeleton/render/failed``,
``skeleton/render/skipped`` (not HTML or not 200), ``skeleton/render/browsers``
(browsers started), ``skeleton/render/seconds`` (the browser's time: starts, loads,
settling; not the wait for its turn).
Off (``SKELETON_RENDER`` = ``off``, the default): ``NotConfigured``.
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Any, Self
from urllib.parse import urlsplit

import lxml.html
from lxml import etree
from scrapy import Spider, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse, Request, Response
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet import defer, threads

from skeleton.crawl_settings import crawl_settings
from skeleton.middlewares.scope import crawl_scope
from skeleton.navobjects.detector import PageDetector, load_block_model, make_detector
from skeleton.sew.model import load_model
from skeleton.browser import start_chromium

__all__ = ["MODES", "QUIET_MS", "RENDER_SETTING", "RenderMiddleware", "render_mode"]

logger = logging.getLogger(__name__)

#: the setting (and ``-a render=``) naming when pages are rendered
RENDER_SETTING = "SKELETON_RENDER"
#: its values: never, every HTML page, an HTML page that has scripts and no navigation as served
MODES = ("off", "js", "auto")
#: milliseconds without a DOM mutation after which a loaded page is read
QUIET_MS = 150
STAT = "skeleton/render/"

#: resolves (``arguments[last]``) once the DOM had no mutation for ``quiet`` ms, or after ``bound`` ms
_SETTLE = """
const done = arguments[arguments.length - 1], quiet = arguments[0], bound = arguments[1];
const start = Date.now();
let timer = null;
const finish = () => { observer.disconnect(); clearTimeout(timer); clearTimeout(cap); done(true); };
const observer = new MutationObserver(() => { clearTimeout(timer); timer = setTimeout(finish, quiet); });
const cap = setTimeout(finish, bound);
const ready = () => { observer.observe(document, {subtree: true, childList: true, attributes: true,
                                                  characterData: true});
                      timer = setTimeout(finish, quiet); };
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready); else ready();
"""


def render_mode(value: Any) -> str:
    """``off`` or ``js`` from a setting or a spider argument (empty, None: off);
    raises ``ValueError`` naming the values otherwise."""
    mode = "off" if value in (None, "") else str(value).strip().lower()
    if mode not in MODES:
        raise ValueError(f"render must be one of {', '.join(MODES)}, not {value!r}")
    return mode


class RenderMiddleware:
    """Downloader middleware: an HTML page's response replaced by its rendered DOM."""

    def __init__(self, crawler: Crawler, timeout: float, settle: float, same_host: bool,
                 user_agent: str | None = None, auto: bool = False) -> None:
        self.crawler = crawler
        self.auto = auto
        self.user_agent = user_agent
        self.timeout = timeout
        self.settle = settle
        self.same_host = same_host
        self._driver: Any = None
        self._host: str | None = None
        self._lock = threading.Lock()  # the browser's calls, in the thread
        self._detector: PageDetector | None = None  # render=auto: the crawl's page detector
        self._turn = defer.DeferredLock()  # one page at a time: one thread of the pool

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        settings = crawler.settings
        mode = render_mode(settings.get(RENDER_SETTING))
        if mode == "off":
            raise NotConfigured(f"{RENDER_SETTING} is off")
        timeout = settings.getfloat("SKELETON_RENDER_TIMEOUT") or settings.getfloat("DOWNLOAD_TIMEOUT", 180)
        middleware = cls(crawler, timeout, settings.getfloat("SKELETON_RENDER_SETTLE", 2.0),
                         settings.getbool("SKELETON_RENDER_SAME_HOST", True), settings.get("USER_AGENT"),
                         auto=mode == "auto")
        crawler.signals.connect(middleware.spider_closed, signal=signals.spider_closed)
        return middleware

    def _inc(self, name: str, value: float = 1) -> None:
        if self.crawler.stats is not None:
            self.crawler.stats.inc_value(STAT + name, value)

    async def process_response(self, request: Request, response: Response,
                               spider: Spider | None = None) -> Response:
        if (response.status != 200 or not isinstance(response, HtmlResponse)
                or request.meta.get("dont_obey_robotstxt")):
            self._inc("skipped")
            return response
        if self.auto and not self.needs_rendering(response):
            self._inc("served")
            return response
        if self._host is None:
            base = crawl_scope(self.crawler) or response.url
            self._host = urlsplit(base).hostname or ""
        try:
            url, html, seconds = await maybe_deferred_to_future(
                self._turn.run(threads.deferToThread, self._render, response.url))
        except Exception as exc:  # the browser's failure: the page goes on as served
            logger.warning("rendering %s failed, read as served: %s", response.url,
                           str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
            self._inc("failed")
            return response
        self._inc("seconds", round(seconds, 3))
        self._inc("pages")
        headers = response.headers.copy()
        for name in (b"Content-Encoding", b"Content-Length"):
            headers.pop(name, None)
        headers[b"Content-Type"] = b"text/html; charset=utf-8"
        return HtmlResponse(url=url, status=response.status, headers=headers, body=html.encode("utf-8"),
                            encoding="utf-8", request=request, flags=[*response.flags, "rendered"],
                            ip_address=response.ip_address, protocol=response.protocol)

    def needs_rendering(self, response: HtmlResponse) -> bool:
        """``render=auto``: does the served page run a script (``<script src>`` or an
        inline one; not JSON-LD) and have no navigation? The crawl's page detector
        (``-a detector``, ``-a model``) decides (the page alone, no ancestors'
        context); without one (mode bfs), no link at all."""
        try:
            root = lxml.html.document_fromstring(response.body or b"<html></html>")
        except (etree.ParserError, ValueError):
            return False
        scripts = [el for el in root.iter("script")
                   if "json" not in (el.get("type") or "") and (el.get("src") or (el.text or "").strip())]
        if not scripts:
            return False
        crawl = crawl_settings(self.crawler.settings)
        if crawl is None or crawl.mode != "sew":
            return not root.xpath("//a[@href]")
        if self._detector is None:  # the crawl's page detector, built once
            blocks = load_block_model(crawl.block_model) if crawl.detector != "sew" else None
            self._detector = make_detector(crawl.detector, load_model(crawl.model), blocks,
                                           with_blocks=crawl.detector != "sew")
        return not self._detector(root, response.url, crawl.base, [], []).is_navigation

    # -- in a thread -------------------------------------------------------------
    def _browser(self) -> Any:
        if self._driver is None:
            flags = [f"--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE {self._host}"] \
                if self.same_host and self._host else []
            if self.user_agent:  # the crawl's user agent, not HeadlessChrome's
                flags.append(f"--user-agent={self.user_agent}")
            self._driver = start_chromium(flags)
            self._driver.set_page_load_timeout(self.timeout)
            self._driver.set_script_timeout(self.settle + 5)
            self._inc("browsers")
        return self._driver

    def _render(self, url: str) -> tuple[str, str, float]:
        """The browser's final URL, its DOM and the seconds the page took (the
        browser's start included)."""
        with self._lock:
            started = time.monotonic()
            driver = self._browser()
            driver.get(url)
            if self.settle > 0:
                driver.execute_async_script(_SETTLE, QUIET_MS, int(self.settle * 1000))
            html = driver.execute_script("return document.documentElement.outerHTML")
            return driver.current_url, "<!DOCTYPE html>\n" + html, time.monotonic() - started

    def _quit(self) -> None:
        with self._lock:
            driver, self._driver = self._driver, None
        if driver is not None:
            driver.quit()

    async def spider_closed(self, spider: Spider) -> None:
        if self._driver is not None:
            await maybe_deferred_to_future(self._turn.run(threads.deferToThread, self._quit))
