"""The site's sitemap against the pages its navigation reached (pure).

Both sides are compared by the crawl's URL identity: a sitemap URL is read as the
crawl reads a link (:func:`skeleton.web.urls.canonical`: no fragment, no session
id, sorted query, ``dir/index.html`` is ``dir/``), then followed through the
crawl's aliases (redirects, ``rel="canonical"``, duplicate content, stripped
parameters: :func:`skeleton.hierarchy.aliases.final_urls`), so ``/a/index.html``
listed for a page reached as ``/a/`` is the same page, and so is an old URL that
redirects to it.

* **orphans**: sitemap URLs (in the crawl's scope) that are no page the crawl
  reached: listed by the site, never linked by its navigation;
* **missing**: pages the navigation reached (fetched, not failed) that the
  sitemap does not list.

The sitemap never decides a parent and never adds a node: this is a report.
:func:`loose_key` is the looser identity the benchmark measures
(``benchmarks/sitemap_identity.py``): scheme, a trailing slash, an index file
name and an ``.html`` suffix ignored; the report does not use it.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from skeleton.hierarchy.aliases import final_urls
from skeleton.web.urls import canonical, split_url

__all__ = ["SitemapCoverage", "identity", "compare", "loose_key"]

_INDEX_FILE = re.compile(r"/(?:index|default)\.(?:html?|php|aspx?)$", re.IGNORECASE)
_HTML_SUFFIX = re.compile(r"\.html?$", re.IGNORECASE)


@dataclass(frozen=True)
class SitemapCoverage:
    """The comparison: ``listed`` sitemap URLs (by identity, in scope), how many of
    them are pages reached (``matched``), the ``orphans`` and the ``missing``
    pages, each list sorted."""

    listed: int = 0
    matched: int = 0
    orphans: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"urls": self.listed, "matched": self.matched,
                "orphans": list(self.orphans), "missing": list(self.missing)}


def identity(url: str, final: Callable[[Any], Any]) -> str:
    """``url`` as the crawl names the page it is: canonical, then aliases followed
    (``final``: :func:`skeleton.hierarchy.aliases.final_urls`); "" when unparsable."""
    own = canonical(url)
    return final(own) if own else ""


def compare(sitemap: Iterable[str], reached: Iterable[str], aliases: Mapping[str, str],
            fetched: Iterable[str] | None = None) -> SitemapCoverage:
    """Orphans and missing pages of a crawl: ``sitemap`` the sitemap URLs kept
    (in the crawl's scope), ``reached`` every page URL the crawl recorded (failed
    ones too: the navigation reached them), ``fetched`` the pages that count as
    missing when the sitemap leaves them out (default: ``reached``), ``aliases``
    the crawl's alias -> target map. An empty sitemap gives an empty report (no
    page is "missing" from a sitemap the site does not have)."""
    final = final_urls(dict(aliases))
    listed = {key for key in (identity(url, final) for url in sitemap) if key}
    if not listed:
        return SitemapCoverage()
    pages = {final(url) for url in reached}
    shown = pages if fetched is None else {final(url) for url in fetched}
    orphans = sorted(listed - pages)
    return SitemapCoverage(listed=len(listed), matched=len(listed) - len(orphans), orphans=orphans,
                           missing=sorted(shown - listed))


def loose_key(url: str) -> str:
    """A looser identity than the crawl's, for measuring only: the canonical URL
    without its scheme, a trailing index file name (``index.html``,
    ``default.aspx``...), a trailing slash and an ``.html`` suffix (the clean URLs
    of generators that serve ``/a/b`` from ``a/b.html``): ``https://h/a/``,
    ``http://h/a`` and ``http://h/a.html`` share a key; "" when unparsable."""
    own = canonical(url)
    parts = split_url(own) if own else None
    if parts is None:
        return ""
    path = _HTML_SUFFIX.sub("", _INDEX_FILE.sub("/", parts.path or "/").rstrip("/"))
    query = f"?{parts.query}" if parts.query else ""
    return f"{(parts.hostname or '').lower()}:{parts.port or ''}{path}{query}"
