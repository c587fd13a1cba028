"""The skeleton tree as sitemaps (the sitemaps.org protocol, schema 0.9).

Every page of the tree that was fetched (broken pages are left out) is one
``<url><loc>`` in outline order. A sitemap holds at most :data:`MAX_URLS` URLs and
:data:`MAX_BYTES` bytes; a larger tree is split into several sitemaps and a
sitemap index that lists them (:func:`sitemap_files`). The protocol wants the
index to name its sitemaps by absolute URL, and a sitemap to list only URLs at or
below its own folder: the parts are named as files next to the index, at the
crawl's base folder (where every page of the tree is). A URL holding a control
character, a line break or a character XML 1.0 forbids (one that
:func:`~skeleton.exports.safe.text_line` would change) is left out: no URL has one
(Scrapy percent-encodes them), and dropping it would list another URL.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import urljoin
from xml.sax.saxutils import escape

from skeleton.exports.safe import text_line, xml_text
from skeleton.exports.table import tree_rows

__all__ = ["NAMESPACE", "MAX_URLS", "MAX_BYTES", "sitemap_urls", "render_sitemaps", "render_index",
           "sitemap_files"]

NAMESPACE = "http://www.sitemaps.org/schemas/sitemap/0.9"
#: URLs per sitemap, at most (the protocol's limit)
MAX_URLS = 50_000
#: bytes per sitemap, at most (the protocol's 50 MB, uncompressed)
MAX_BYTES = 50 * 1024 * 1024
#: the schema's bounds of a ``loc``
MIN_LOC, MAX_LOC = 12, 2048
_HEAD = f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{NAMESPACE}">\n'
_TAIL = "</urlset>\n"


def _loc(url: str) -> str:
    """``url`` as the text of a ``<loc>``: escaped, without what XML cannot hold, a
    carriage return as a reference (a parser would read it as a line feed)."""
    return escape(xml_text(url), {"\r": "&#13;"})


def sitemap_urls(tree: Mapping[str, Any] | None, pages: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The URLs of the tree's fetched pages, in outline order (broken pages, URLs
    the schema refuses by length and URLs with a control character are left out)."""
    return [row["url"] for row in tree_rows(tree, pages)
            if not row["status"] and MIN_LOC <= len(row["url"]) <= MAX_LOC and text_line(row["url"]) == row["url"]]


def render_sitemaps(urls: Iterable[str], max_urls: int = MAX_URLS, max_bytes: int = MAX_BYTES) -> list[str]:
    """The ``urls`` as sitemap documents of at most ``max_urls`` URLs and
    ``max_bytes`` bytes each (one document, maybe empty, for no URL)."""
    documents: list[str] = []
    entries: list[str] = []
    size = len(_HEAD) + len(_TAIL)
    for url in urls:
        entry = f"  <url><loc>{_loc(url)}</loc></url>\n"
        grown = size + len(entry.encode("utf-8"))
        if entries and (len(entries) >= max_urls or grown > max_bytes):
            documents.append(_HEAD + "".join(entries) + _TAIL)
            entries, grown = [], len(_HEAD) + len(_TAIL) + len(entry.encode("utf-8"))
        entries.append(entry)
        size = grown
    documents.append(_HEAD + "".join(entries) + _TAIL)
    return documents


def render_index(locations: Iterable[str]) -> str:
    """A sitemap index listing the sitemaps at ``locations`` (absolute URLs)."""
    body = "".join(f"  <sitemap><loc>{_loc(loc)}</loc></sitemap>\n" for loc in locations)
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="{NAMESPACE}">\n'
            f"{body}</sitemapindex>\n")


def sitemap_files(name: str, root: str, urls: Iterable[str], max_urls: int = MAX_URLS,
                  max_bytes: int = MAX_BYTES) -> dict[str, str]:
    """File name -> document: ``{name: sitemap}`` when one sitemap holds every URL,
    else the parts ``STEM-1.xml``, ``STEM-2.xml``... and ``name`` as their index,
    which names each part at ``root``'s folder (the crawl's base page URL)."""
    documents = render_sitemaps(urls, max_urls, max_bytes)
    if len(documents) == 1:
        return {name: documents[0]}
    stem = name[:-4] if name.lower().endswith(".xml") else name
    parts = {f"{stem}-{n}.xml": document for n, document in enumerate(documents, 1)}
    base_name = stem.rsplit("/", 1)[-1]
    index = render_index(urljoin(root, f"{base_name}-{n}.xml") for n in range(1, len(documents) + 1))
    return {**parts, name: index}
