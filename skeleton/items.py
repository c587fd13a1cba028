"""The item the spider yields: one per fetched page."""
from __future__ import annotations

import scrapy

__all__ = ["PageItem"]


class PageItem(scrapy.Item):
    """One fetched page of the crawl.

    ``url`` is the canonical URL first requested for the page (before redirects),
    ``parent`` the page whose navigation link led to it (None for the base URL),
    ``depth`` its crawl depth (0 for the base URL). ``nav_links`` lists the page's
    followable navigation links as ``{"url", "text", "parent"}`` dicts, where
    ``parent`` is the page itself or, in a nested table of contents, the URL of
    the enclosing entry. ``reason`` says why a page is a leaf without analysis
    ('non_html', 'empty', 'binary', 'unparsable', 'error'), else it is None.
    ``nav_blocks`` lists the page's CHD-HD hyperlink blocks as ``{"xpath",
    "class", "links"}`` dicts (class: nav_menu, nav_list, content or other).
    ``sections`` (with ``SKELETON_SCHEMA_ENABLED``, parsed pages only) lists the
    page's logical sections as ``{"type", "xpath", "terms", "links"}`` dicts
    (:mod:`skeleton.schema.sections`).
    ``blocks`` (set by ``skeleton.middlewares.informative``, absent when
    ``SKELETON_WISDOM_ENABLED`` is off) lists the page's WISDOM blocks as
    ``{"kind": "toc"|"article", "xpath", "anchors"|"text_length", "score"}``.
    """

    url = scrapy.Field()
    parent = scrapy.Field()
    depth = scrapy.Field()
    title = scrapy.Field()
    is_navigation = scrapy.Field()
    nav_links = scrapy.Field()
    confidence = scrapy.Field()
    candidates = scrapy.Field()
    reason = scrapy.Field()
    nav_blocks = scrapy.Field()
    sections = scrapy.Field()
    blocks = scrapy.Field()
