"""A page's item (:class:`skeleton.items.PageItem`) from its analysis
(:class:`skeleton.analysis.page.PageAnalysis`), and the stats the spider keeps of it.

Stats: ``skeleton/canonical_links`` (pages recorded under the URL their canonical
link names), ``skeleton/links/unparsable`` (hrefs that cannot be read as URLs:
skipped links, never a failed page), ``skeleton/REASON`` for every skipped link
(``filtered/offsite``, ``trap/KIND``, ``skipped/action/KIND``, ...),
``skeleton/nav_pages`` and ``skeleton/content_pages``.
"""
from __future__ import annotations

import logging
from typing import Any

from skeleton.analysis.page import UNPARSABLE_REASON, PageAnalysis
from skeleton.items import PageItem

__all__ = ["new_item", "record_analysis"]

logger = logging.getLogger(__name__)


def new_item(url: str, found_from: str | None, found_depth: int) -> PageItem:
    """The item of a page not analysed yet: no node (``parent`` and ``depth`` are
    chosen once the crawl is done), no links."""
    return PageItem(url=url, parent=None, depth=None, found_from=found_from, found_depth=found_depth, title="",
                    is_navigation=False, nav_links=[], confidence=0.0, candidates=0, reason=None, nav_blocks=[],
                    evidence={}, offers={}, lang="", aliases=[])


def record_analysis(item: PageItem, found: PageAnalysis, stats: Any) -> None:
    """Fill the item of a page that is no leaf from its analysis ``found``: a page
    whose canonical link names another is recorded under that URL, its own URL an
    alias; its evidence, detection scores, followed links and offers. Counts it in
    ``stats`` (Scrapy's stats collector)."""
    if found.declared:  # the site names the page by another URL: that is the node, this URL its alias
        stats.inc_value("skeleton/canonical_links")
        item.update(aliases=[item["url"]], url=found.declared)
    item["evidence"] = found.evidence
    if found.detection is not None:
        item.update(confidence=found.detection.confidence, candidates=found.detection.candidates,
                    nav_blocks=getattr(found.detection, "nav_blocks", []))
    if found.unparsable:
        stats.inc_value(f"skeleton/{UNPARSABLE_REASON}", len(found.unparsable))
        logger.debug("%s: %d unparsable links skipped, e.g. %r", found.url, len(found.unparsable),
                     found.unparsable[0])
    for reason in found.skipped:
        stats.inc_value(f"skeleton/{reason}")
    item.update(nav_links=[{"url": u, "text": t, "parent": p} for u, t, p, _ in found.followed],
                offers=found.offers, is_navigation=found.is_navigation)
    stats.inc_value("skeleton/nav_pages" if found.is_navigation else "skeleton/content_pages")
