"""Sitemap files read: what a ``robots.txt`` declares, what a sitemap lists (pure).

The sitemaps.org formats, through Scrapy's own parser
(:class:`scrapy.utils.sitemap.Sitemap`: lxml, entities never resolved, recovers
from broken markup) and :func:`scrapy.utils.sitemap.sitemap_urls_from_robots`:

* :func:`robots_sitemaps`: the ``Sitemap:`` lines of a ``robots.txt`` body;
* :func:`sitemap_body`: a response body as sitemap XML, gunzipped when it is a
  gzip file (``sitemap.xml.gz``; a body sent with ``Content-Encoding: gzip`` is
  already inflated by Scrapy), at most ``max_size`` bytes once inflated (a gzip
  bomb is no sitemap);
* :func:`read_sitemap`: a ``urlset`` (page URLs with their ``lastmod``) or a
  ``sitemapindex`` (sitemap URLs), anything else no sitemap;
* :func:`default_sitemaps` and :func:`sitemap_allowed`: where a crawl looks for
  sitemaps (``robots.txt`` at the host's root, ``sitemap.xml`` in the base URL's
  folder) and which sitemap files it reads (the base URL's scheme, host and
  port: the origin of the crawl, any folder; the sitemaps protocol lets a
  sitemap list only URLs below its own folder, and the pages listed are kept
  only in the crawl's scope by the caller).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urljoin

from lxml import etree
from scrapy.utils.gz import gunzip
from scrapy.utils.sitemap import Sitemap, sitemap_urls_from_robots

from skeleton.web.urls import canonical, directory, origin

__all__ = ["URLSET", "INDEX", "SitemapFile", "robots_sitemaps", "sitemap_body", "read_sitemap",
           "default_sitemaps", "sitemap_allowed"]

#: the root element of a sitemap listing pages
URLSET = "urlset"
#: the root element of a sitemap listing sitemaps
INDEX = "sitemapindex"
_GZIP_MAGIC = b"\x1f\x8b"


@dataclass(frozen=True)
class SitemapFile:
    """One sitemap read: its ``kind`` (:data:`URLSET`, :data:`INDEX`, or "" for a
    body that is no sitemap) and its entries, ``(loc, lastmod)`` in document order
    (``lastmod`` "" when not given; ``loc`` resolved against the file's URL)."""

    kind: str
    entries: list[tuple[str, str]] = field(default_factory=list)


def robots_sitemaps(body: bytes, robots_url: str) -> list[str]:
    """The sitemap URLs a ``robots.txt`` body declares (``Sitemap:`` lines, any
    case, relative ones resolved against ``robots_url``), each once, in order."""
    seen: dict[str, None] = {}
    for url in sitemap_urls_from_robots(body, base_url=robots_url):
        if url:
            seen.setdefault(url, None)
    return list(seen)


def sitemap_body(body: bytes, max_size: int = 0) -> bytes | None:
    """``body`` as sitemap XML: gunzipped when it is gzip data (at most ``max_size``
    bytes inflated, 0: no bound), else as it is; None for gzip data that does not
    inflate or inflates past ``max_size``."""
    if body[:2] != _GZIP_MAGIC:
        return body
    try:
        return gunzip(body, max_size=max_size)
    except Exception:  # corrupt data, or past the bound (Scrapy's own exception type)
        return None


def read_sitemap(body: bytes, url: str) -> SitemapFile:
    """The sitemap in ``body`` (XML, see :func:`sitemap_body`) served at ``url``.
    A body that is not XML, or whose root is neither ``urlset`` nor
    ``sitemapindex``, is ``SitemapFile("")``. Never raises on bad input."""
    if not body or not body.strip():
        return SitemapFile("")
    try:
        parsed = Sitemap(body)
        kind = parsed.type
        if kind not in (URLSET, INDEX):
            return SitemapFile("")
        entries = []
        for entry in parsed:
            loc = str(entry.get("loc") or "").strip()
            if loc:
                entries.append((urljoin(url, loc), str(entry.get("lastmod") or "").strip()))
    except (etree.LxmlError, StopIteration, ValueError, TypeError):
        return SitemapFile("")
    return SitemapFile(kind, entries)


def default_sitemaps(base: str) -> list[str]:
    """Where a crawl of ``base`` looks for sitemaps first: the host's
    ``/robots.txt`` (its ``Sitemap:`` lines), then ``sitemap.xml`` in the base
    URL's folder (the sitemaps.org default place)."""
    robots = urljoin(base, "/robots.txt")
    sitemap = urljoin(base, directory(base) + "sitemap.xml")
    return [robots, sitemap]


def sitemap_allowed(url: str, base: str) -> bool:
    """May a crawl of ``base`` read the sitemap file at ``url``? Same scheme, host
    and port (:func:`skeleton.web.urls.origin`), any folder: a sitemap on another
    site (a CDN, another host) is not read."""
    own = origin(canonical(url) or url)
    return own is not None and own == origin(base)

