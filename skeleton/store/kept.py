"""Kept pages: the compressed bodies a crawl keeps in ``:page_html`` so that the
optional analyses can run after it (``scrapy informative``, ``scrapy schema``).

Whether a crawl keeps its pages is :func:`keep_pages` (``SKELETON_KEEP_PAGES``);
a page larger than ``SKELETON_KEEP_PAGES_MAX_BYTES`` is not kept. A kept page is
zlib (level 1) of one JSON header line and the body (:func:`pack_page`);
:func:`unpack_page` never raises. Settings are read duck-typed (``get``,
``getbool``): this module imports no Scrapy and no Redis (it is handed the client).
"""
from __future__ import annotations

import json
import zlib
from collections.abc import Iterator
from typing import Any

from skeleton.analyses import enabled
from skeleton.web.dom import MAX_PARSE_BYTES

__all__ = ["KEEP_SETTING", "MAX_BYTES_SETTING", "DEFAULT_KEEP_MAX_BYTES", "READ_BATCH", "keep_pages",
           "keep_max_bytes", "pack_page", "unpack_page", "keep", "has_kept_pages", "kept_pages"]

#: True: every crawl keeps its pages; False: none does; unset (None): the crawls
#: that run the ``wisdom`` analysis do (``scrapy informative`` reads them)
KEEP_SETTING = "SKELETON_KEEP_PAGES"
MAX_BYTES_SETTING = "SKELETON_KEEP_PAGES_MAX_BYTES"
DEFAULT_KEEP_MAX_BYTES = 2_000_000
_ZLIB_LEVEL = 1
#: kept pages read per round trip (:func:`kept_pages`)
READ_BATCH = 64


def keep_pages(settings: Any) -> bool:
    """Does the crawl keep its pages? ``SKELETON_KEEP_PAGES`` when set, else only
    when the ``wisdom`` analysis runs."""
    if settings.get(KEEP_SETTING) is None:
        return enabled(settings, "wisdom")
    return bool(settings.getbool(KEEP_SETTING))


def keep_max_bytes(settings: Any) -> int:
    """The largest body kept, in bytes (``SKELETON_KEEP_PAGES_MAX_BYTES``)."""
    return int(settings.getint(MAX_BYTES_SETTING, DEFAULT_KEEP_MAX_BYTES))


def pack_page(body: bytes, url: str, encoding: str | None) -> bytes:
    """A kept page: zlib of one JSON header line ``{"url", "encoding"}`` (the URL
    links resolve against, the HTTP-declared encoding), a newline and the body."""
    header = json.dumps({"url": url, "encoding": encoding}, ensure_ascii=True).encode("ascii")
    return zlib.compress(header + b"\n" + body[:MAX_PARSE_BYTES], _ZLIB_LEVEL)


def unpack_page(blob: Any) -> tuple[bytes, str, str | None] | None:
    """``(body, url, encoding)`` of a kept page, or ``None`` if unreadable."""
    if not isinstance(blob, (bytes, bytearray)) or not blob:
        return None
    try:
        decoder = zlib.decompressobj()
        raw = decoder.decompress(bytes(blob), MAX_PARSE_BYTES + 65_536)
        if not decoder.eof:  # truncated, or larger than a kept page can be
            return None
        header, _, body = raw.partition(b"\n")
        meta = json.loads(header)
    except (zlib.error, ValueError, UnicodeDecodeError):
        return None
    if not isinstance(meta, dict) or not isinstance(meta.get("url"), str):
        return None
    encoding = meta.get("encoding")
    return body, meta["url"], encoding if isinstance(encoding, str) else None


def keep(server: Any, keys: Any, pages: dict[str, bytes]) -> None:
    """Keep ``pages`` (URL -> :func:`pack_page`) in the crawl's ``:page_html``, one round trip."""
    server.hset(keys.page_html, mapping=pages)


def has_kept_pages(server: Any, keys: Any) -> bool:
    """Did the crawl keep any page?"""
    return bool(server.hlen(keys.page_html))


def kept_pages(server: Any, keys: Any) -> Iterator[tuple[str, bytes, str, str | None]]:
    """``(url, body, final URL, encoding)`` of every readable kept page of a crawl
    (``keys``: its :class:`~skeleton.store.keys.CrawlKeys`), in URL order, read
    :data:`READ_BATCH` at a time from the Redis client ``server``."""
    urls = sorted(url.decode() if isinstance(url, bytes) else url for url in server.hkeys(keys.page_html))
    for start in range(0, len(urls), READ_BATCH):
        batch = urls[start:start + READ_BATCH]
        for url, blob in zip(batch, server.hmget(keys.page_html, batch)):
            kept = unpack_page(blob)
            if kept is not None:
                yield (url, *kept)
