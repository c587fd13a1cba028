"""Frames: a page's ``<frame>`` and ``<iframe>`` documents read as part of the page.

SEW reads navigation from the page's DOM tree (Section 3.2.1). A page built from
frames shows its navigation in another document: the navigation frame of a
frameset (``<frame src="nav.html">``, common on table-and-font era sites and older
Javadoc), or the table of contents a JavaScript generator loads into an iframe
and offers to crawlers as a ``<noscript><iframe src="toc.html">`` fallback
(mdBook). As a browser shows them, the skeleton reads them: each same-site frame
element is replaced by the frame document's body, its links made absolute against
the frame's URL, so that detection (link nodes, depths, paths, nesting) sees one
tree. This goes beyond the paper, whose pages have no frames.

Only one level is inlined (a frame inside a frame stays a frame), at most
``MAX_FRAMES`` per page, and only frames on the page's own host.
"""
from __future__ import annotations

import copy
import re
from functools import lru_cache
from collections.abc import Callable, Mapping
from urllib.parse import urljoin, urlsplit

from lxml import etree

from .dom import MAX_PARSE_BYTES, parse_html
from .urls import canonical

__all__ = ["MAX_FRAMES", "FRAME_TREES", "FRAME_SRC_BYTES", "frame_sources", "frame_sources_in_bytes",
           "parse_frame", "inline_frames", "parse_with_frames"]

#: At most this many frame documents are read per page.
MAX_FRAMES = 4
#: Parsed frame documents kept (:func:`parse_frame`): every page of a book or a
#: frameset shows the same navigation frame, parsed once.
FRAME_TREES = 8
_FRAMES = "//frame[@src] | //iframe[@src]"
#: ``src`` of frame elements in raw bytes: lets a downloader middleware decide what
#: to fetch without parsing the page (the page is parsed once, later).
FRAME_SRC_BYTES = re.compile(rb"""<i?frame\b[^>]*?\bsrc\s*=\s*["']?([^"'\s>]+)""", re.I)
_FRAME_ATTRIBUTE = "data-skeleton-frame"
#: Characters libxml2's HTML parser keeps in text but lxml refuses to assign.
_NOT_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _xml_text(text: str | None) -> str | None:
    return _NOT_XML.sub("", text) if text else text


def _frame_url(src: str, page_url: str) -> str | None:
    src = src.strip()
    if not src or src.lower().startswith(("javascript:", "data:", "about:", "#")):
        return None
    try:
        url = canonical(urljoin(page_url, src))
        parts, page = urlsplit(url), urlsplit(page_url)
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or parts.netloc.lower() != page.netloc.lower():
        return None
    if url == (canonical(page_url) or page_url):
        return None
    return url


def _unique(urls, limit: int = MAX_FRAMES) -> list[str]:
    out: list[str] = []
    for url in urls:
        if url and url not in out:
            out.append(url)
            if len(out) >= limit:
                break
    return out


def frame_sources(root: etree._Element | None, page_url: str) -> list[str]:
    """The canonical URLs of the page's same-site frames, in document order."""
    if root is None:
        return []
    return _unique(_frame_url(el.get("src", ""), page_url) for el in root.xpath(_FRAMES))


def frame_sources_in_bytes(body: bytes, page_url: str) -> list[str]:
    """:func:`frame_sources` read from the raw bytes (no parse; may over-report
    a frame inside a comment, which :func:`inline_frames` then ignores)."""
    return _unique(_frame_url(m.group(1).decode("latin-1"), page_url)
                   for m in FRAME_SRC_BYTES.finditer(body))


def _frame_content(frame: etree._Element, frame_url: str) -> etree._Element:
    body = frame.find("body")
    source = body if body is not None else frame
    box = etree.Element("div", {_FRAME_ATTRIBUTE: frame_url})
    box.text = _xml_text(source.text)
    for child in source:
        if child.tag in ("frameset", "frame", "iframe"):
            continue  # one level only
        box.append(copy.deepcopy(child))
    for a in box.iter("a"):
        href = a.get("href")
        if href is not None:
            try:
                a.set("href", urljoin(frame_url, href.strip()))
            except ValueError:
                a.attrib.pop("href")
    return box


@lru_cache(maxsize=FRAME_TREES)
def parse_frame(body: bytes, declared: str | None = None) -> etree._Element | None:
    """A frame document's tree, parsed once per distinct body. The tree is shared:
    :func:`inline_frames` copies what it takes from it and changes nothing."""
    return parse_html(body, declared)


def inline_frames(root: etree._Element | None, page_url: str,
                  frames: Mapping[str, etree._Element | None]) -> int:
    """Replace each frame element whose document is in ``frames`` (canonical URL ->
    parsed tree, or None when it could not be read) by that document's body.
    Returns how many were inlined; ``root`` is changed in place."""
    if root is None or not frames:
        return 0
    done = 0
    for el in root.xpath(_FRAMES):
        url = _frame_url(el.get("src", ""), page_url)
        tree = frames.get(url) if url else None
        parent = el.getparent()
        if tree is None or parent is None:
            continue
        box = _frame_content(tree, url)
        box.tail = _xml_text(el.tail)
        parent.replace(el, box)
        done += 1
    return done


def parse_with_frames(body: bytes, page_url: str, fetch: Callable[[str], bytes | None],
                      declared: str | None = None) -> etree._Element | None:
    """Parse ``body`` and inline its frames, read with ``fetch(url)`` (offline
    FINDSKELETON and training read files this way, as the crawl does over HTTP)."""
    root = parse_html(body, declared)
    urls = frame_sources(root, page_url) if FRAME_SRC_BYTES.search(body, 0, MAX_PARSE_BYTES) else []
    if urls:
        trees = {}
        for url in urls:
            frame_body = fetch(url)
            trees[url] = parse_frame(frame_body) if isinstance(frame_body, bytes) and frame_body else None
        inline_frames(root, page_url, trees)
    return root
