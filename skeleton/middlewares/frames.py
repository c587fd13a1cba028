"""Downloads a page's same-site frames so that the page is read with them.

A downloader middleware: for each HTML response whose bytes hold ``<frame src>``
or ``<iframe src>`` on the page's own host (at most
:data:`skeleton.web.frames.MAX_FRAMES`) and in the crawl's scope (the base URL's
scheme, host, port and directory: :func:`skeleton.web.urls.in_scope`; a frame out
of it is never downloaded), it downloads those documents through the
engine (the other downloader middlewares apply: robots.txt, retries, redirects,
never followed out of the scope: :mod:`skeleton.middlewares.scope`)
and leaves their bodies on ``request.meta["skeleton_frames"]``
(URL -> ``(body, encoding)``, or None when one could not be read).
:func:`skeleton.middlewares.shared.shared_page` then inlines them into the page's
one parsed tree (:func:`skeleton.web.frames.inline_frames`), so detection, WISDOM
and the logical sections see the frames as part of the page, as a browser shows
them (a frameset's navigation frame, mdBook's ``<noscript>`` table of contents).

Frame documents are cached per worker (:setting:`SKELETON_FRAMES_CACHE` of them):
a table of contents that every page of a book frames is downloaded once. A frame
larger than :setting:`SKELETON_FRAMES_MAX_BYTES` or not HTML is skipped. Switch
the component off with ``SKELETON_FRAMES_ENABLED = False``.

Stats: ``skeleton/frames/pages`` (pages with frames), ``skeleton/frames/fetched``,
``skeleton/frames/cached``, ``skeleton/frames/failed``, ``skeleton/frames/out_of_scope``
(frames not downloaded), ``skeleton/frames/errors``
(reading the frames raised: the page is read without them; counted per type too
and logged once per type, :func:`skeleton.middlewares.shared.analysis_failed`).
"""
from __future__ import annotations

import logging
from collections import OrderedDict
from typing import TYPE_CHECKING, Self

from scrapy import Request
from scrapy.exceptions import NotConfigured
from scrapy.http import Response

from skeleton.middlewares.scope import crawl_scope
from skeleton.middlewares.shared import META_FRAMES, analysis_failed, declared_encoding, html_response
from skeleton.web.dom import looks_binary
from skeleton.web.frames import frame_sources_in_bytes
from skeleton.web.urls import in_scope

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

__all__ = ["FramesMiddleware", "META_FRAME_REQUEST"]

logger = logging.getLogger(__name__)

#: Marks the download of a frame document (not itself a page of the crawl).
META_FRAME_REQUEST = "skeleton_frame_of"

Frame = tuple[bytes, str | None] | None


class FramesMiddleware:
    def __init__(self, crawler: Crawler, max_bytes: int, cache_size: int) -> None:
        self.crawler = crawler
        self.max_bytes = max_bytes
        self.cache_size = cache_size
        self.cache: OrderedDict[str, Frame] = OrderedDict()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        settings = crawler.settings
        if not settings.getbool("SKELETON_FRAMES_ENABLED", True):
            raise NotConfigured("SKELETON_FRAMES_ENABLED is off")
        return cls(crawler, settings.getint("SKELETON_FRAMES_MAX_BYTES", 2_000_000),
                   settings.getint("SKELETON_FRAMES_CACHE", 64))

    async def process_response(self, request: Request, response: Response) -> Response:
        if META_FRAME_REQUEST in request.meta or not html_response(response):
            return response
        try:
            await self._frames(request, response)
        except Exception as exc:  # the page is read without its frames
            analysis_failed(logger, self.crawler.stats, "frames", response.url, exc)
        return response

    async def _frames(self, request: Request, response: Response) -> None:
        body = response.body
        if looks_binary(body):
            return
        urls = frame_sources_in_bytes(body, response.url)  # one case-insensitive regex scan
        if not urls:
            return
        stats = self.crawler.stats
        scope = crawl_scope(self.crawler)
        if scope is not None:
            kept = [url for url in urls if in_scope(url, scope)]
            if len(kept) < len(urls):
                stats.inc_value("skeleton/frames/out_of_scope", len(urls) - len(kept))
            urls = kept
            if not urls:
                return
        stats.inc_value("skeleton/frames/pages")
        frames = {}
        for url in urls:
            frames[url] = await self._frame(url, response.url)
        request.meta[META_FRAMES] = frames

    async def _frame(self, url: str, page: str) -> Frame:
        stats = self.crawler.stats
        if url in self.cache:
            self.cache.move_to_end(url)
            stats.inc_value("skeleton/frames/cached")
            return self.cache[url]
        frame: Frame = None
        try:
            response = await self.crawler.engine.download_async(
                Request(url, meta={META_FRAME_REQUEST: page}, dont_filter=True))
        except Exception as exc:  # a frame that cannot be read leaves the page as it is
            logger.debug("could not fetch frame %s of %s: %s", url, page, exc)
            response = None
        if (response is not None and response.status == 200 and html_response(response)
                and len(response.body) <= self.max_bytes and not looks_binary(response.body)):
            frame = (response.body, declared_encoding(response))
            stats.inc_value("skeleton/frames/fetched")
        else:
            stats.inc_value("skeleton/frames/failed")
        self.cache[url] = frame
        if len(self.cache) > self.cache_size:
            self.cache.popitem(last=False)
        return frame
