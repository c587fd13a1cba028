"""The item the spider yields: one per fetched page."""
from __future__ import annotations

import scrapy

__all__ = ["PageItem"]


class PageItem(scrapy.Item):
    """One fetched page of the crawl.

    ``url`` is the page's canonical final URL (after redirects; the URLs that
    redirected to it are its aliases in Redis, :mod:`skeleton.hierarchy.aliases`),
    ``found_from`` the page whose navigation link led to it first (None for the
    base URL) and ``found_depth`` its crawl depth (0 for the base URL): how the
    crawl reached the page, not its place in the tree. The page's parent and depth
    in the skeleton are decided from every page's evidence once the crawl is done:
    ``scrapy tree`` (JSON, text, CSV) gives them. ``evidence`` holds what the page
    says of its own place (``crumbs``, ``up``, ``trail``, ``filed``, ``pager``:
    :mod:`skeleton.hierarchy.evidence`) and the fingerprints of the home page's
    (and ancestors') navigation sets it repeats (``menus``:
    :func:`skeleton.hierarchy.offers.repeated_sets`). ``nav_links`` lists the page's
    followable navigation links as ``{"url", "text", "parent"}`` dicts, where
    ``parent`` is the page itself or, in a nested table of contents, the URL of
    the enclosing entry. ``reason`` says why a page is a leaf without analysis
    ('non_html', 'empty', 'binary', 'unparsable', 'error'), or why it is no node
    ('form': it answers with a form only; 'language': a copy in another
    language), or 'failed' for a page that could not be fetched for good, or
    'redirect_offsite' for a page that redirects out of the crawl's scope (a leaf:
    the target is never requested, :mod:`skeleton.middlewares.scope`), else it is
    None. ``status`` (failed pages only) says why a page failed: its HTTP
    status code as a string (``"500"``, ``"404"``) or the error kind
    (``"timeout"``, ``"dns"``, ``"connection_refused"``, ...: see
    ``skeleton.spiders.failures.failure_status``); for a 'redirect_offsite' page
    it is the redirect's HTTP status (``"302"``) or ``"refresh"``.
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
    #: the page's parent and depth in the tree: null as the page is crawled (the tree is
    #: resolved at the end); ``scrapy crawl`` writes them into its local feed files once
    #: the crawl is finished (:mod:`skeleton.exports.feed`); null for a page that is no node
    parent = scrapy.Field()
    depth = scrapy.Field()
    found_from = scrapy.Field()
    found_depth = scrapy.Field()
    title = scrapy.Field()
    is_navigation = scrapy.Field()
    nav_links = scrapy.Field()
    confidence = scrapy.Field()
    candidates = scrapy.Field()
    reason = scrapy.Field()
    status = scrapy.Field()
    #: the URL out of the crawl's scope a ``redirect_offsite`` page redirects to
    #: (never requested); absent on other pages
    redirect_to = scrapy.Field()
    nav_blocks = scrapy.Field()
    sections = scrapy.Field()
    blocks = scrapy.Field()
    evidence = scrapy.Field()
    #: the page's declared language (``<html lang>``, primary subtag; "" when none)
    lang = scrapy.Field()
    #: other URLs of this page the spider learnt from the page itself (the URL a
    #: ``<link rel="canonical">`` replaced): stored as aliases by the tree pipeline
    aliases = scrapy.Field()
    #: child URL -> offer (:mod:`skeleton.hierarchy.offers`): stored in Redis by the
    #: tree pipeline, not exported to feeds
    offers = scrapy.Field()
