"""Link nodes of the XHTML DOM tree model (SEW Section 3.2.1).

Each ``<a href>`` becomes a :class:`LinkNode` numbered in document order, with its
SecName (anchor text, or the ``alt`` of an image anchor), its DOM depth, its tag
path to the root, and the presentational attributes along that path (for the
Style heuristic).
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from lxml import etree

from skeleton.budget import checkpoint

from ..web.urls import URLType, resolve, unparsable, url_type

__all__ = ["STYLE_ATTRIBUTES", "MAX_LINKS", "LinkNode", "extract_links", "sec_name", "unparsable_hrefs",
           "unparsable_links"]

#: Presentation-related attributes compared by the Style heuristic (Section 3.2.2:
#: CSS style, SIZE and COLOR of FONT, BGCOLOR of TR and TD, ...). ``class`` is not
#: among them: on modern sites it names structure (``part``, ``chapter``) as often
#: as presentation, and splitting a table of contents by it loses real navigation.
STYLE_ATTRIBUTES = ("style", "size", "color", "face", "bgcolor", "background", "align",
                    "valign", "width", "height", "border")
#: Link nodes per page: the first ``MAX_LINKS`` links in document order are kept;
#: beyond them only links to a URL not yet kept, until ``MAX_LINKS`` distinct URLs
#: (a page repeating a few URLs thousands of times still yields the links at its
#: end; a page has at most ``2 * MAX_LINKS`` link nodes).
MAX_LINKS = 5000
_IMG_ALT = "string(.//img/@alt)"
#: a SecName that is only a number (a page of a listing, a footnote): its own anchor type
_NUMBER = re.compile(r"[\[(]?\d{1,4}[\])]?")
#: the nodes whose text makes a SecName (elements only: no comments or PIs)
_TEXT_NODES = etree.Element


@dataclass(slots=True, unsafe_hash=True)
class LinkNode:
    """One link node: number, href, resolved URL, SecName, depth, path and style.

    Treated as immutable (hashable by value); not ``frozen`` only because frozen
    dataclasses are several times slower to build, and pages have thousands."""

    number: int
    href: str
    url: str
    url_type: URLType
    sec_name: str
    depth: int
    path: tuple[str, ...]
    style: tuple[tuple[str, ...], ...]
    anchor: str  # "text", "image" or "number": the anchor's presentation type
    #: ids of the ancestor elements, root first (equal ids: the same element)
    chain: tuple[int, ...] = ()
    #: the ``a`` element itself (for the text around a link set), when parsed
    element: etree._Element | None = field(default=None, compare=False, repr=False)

    @property
    def words(self) -> int:
        return len(self.sec_name.split())


def sec_name(a: etree._Element) -> tuple[str, str]:
    """SecName and anchor type of a link element."""
    raw = a.text if len(a) == 0 else "".join(a.itertext(_TEXT_NODES))
    text = " ".join(raw.split()) if raw else ""
    if text:
        number = (text[0] in "[(" or text[0].isdigit()) and _NUMBER.fullmatch(text) is not None
        return text, "number" if number else "text"
    if a.find(".//img") is not None:
        return " ".join(str(a.xpath(_IMG_ALT)).split()), "image"
    return "", "text"


_STYLE_ORDER = {name: i for i, name in enumerate(STYLE_ATTRIBUTES)}
_STYLE_KEYS = frozenset(STYLE_ATTRIBUTES)


def _style_of(el: etree._Element) -> tuple[str, ...]:
    tag = el.tag if isinstance(el.tag, str) else "#"
    if _STYLE_KEYS.isdisjoint(el.keys()):
        return (tag,)
    items = [(_STYLE_ORDER[k], f"{k}={v}") for k, v in el.items() if k in _STYLE_ORDER]
    return (tag, *(text for _, text in sorted(items))) if items else (tag,)


def extract_links(root: etree._Element | None, page_url: str) -> list[LinkNode]:
    """All link nodes of the page in document order (pre-order, depth-first), at
    most ``MAX_LINKS``. A link whose href is unparsable
    (:func:`skeleton.web.urls.unparsable`) is kept as a link to no page: ``url``
    '', ``url_type`` ``OTHER``."""
    if root is None:
        return []
    cache: dict[etree._Element, tuple[tuple[str, ...], tuple[tuple[str, ...], ...], tuple[int, ...]]] = {}

    def ancestry(el: etree._Element):
        pending = []
        node = el
        while node is not None and node not in cache:
            pending.append(node)
            node = node.getparent()
        path, style, ids = cache[node] if node is not None else ((), (), ())
        for n in reversed(pending):
            tag = n.tag if isinstance(n.tag, str) else "#"
            path, style, ids = path + (tag,), style + (_style_of(n),), ids + (len(cache),)
            cache[n] = (path, style, ids)
        return path, style, ids

    links: list[LinkNode] = []
    for a, href, url, kind in _kept_anchors(root, page_url):
        checkpoint()
        parent = a.getparent()
        path, style, ids = ancestry(parent) if parent is not None else ((), (), ())
        name, anchor = sec_name(a)
        links.append(LinkNode(
            number=len(links), href=href, url=url, url_type=kind, sec_name=name, depth=len(path) + 1,
            path=path + ("a",), style=style + (_style_of(a),), anchor=anchor,
            chain=ids, element=a))
    return links


def _kept_anchors(root: etree._Element, page_url: str):
    """``(a, href, url, url_type)`` of the links kept under ``MAX_LINKS``, in
    document order."""
    resolved: dict[str, tuple[str, URLType]] = {}
    targets: set[str] = set()
    kept = 0
    for a in root.iter("a"):
        href = a.get("href")
        if href is None:
            continue
        if href not in resolved:
            resolved[href] = (resolve(href, page_url), url_type(href, page_url))
        url, kind = resolved[href]
        target = url or href  # an unparsable href is its own target
        if kept >= MAX_LINKS and target in targets:
            continue  # a repeat beyond the first MAX_LINKS links
        targets.add(target)
        kept += 1
        yield a, href, url, kind
        if len(targets) >= MAX_LINKS:
            return


def unparsable_links(links: Iterable[LinkNode], page_url: str) -> list[str]:
    """:func:`unparsable_hrefs` from the page's :func:`extract_links` (no second walk)."""
    return [link.href for link in links if not link.url and unparsable(link.href, page_url)]


def unparsable_hrefs(root: etree._Element | None, page_url: str) -> list[str]:
    """The hrefs of the page's links (the ``a`` elements :func:`extract_links`
    reads) that are unparsable (:func:`skeleton.web.urls.unparsable`), one per
    link, in document order: the links a crawl skips as malformed."""
    if root is None:
        return []
    return [href for _, href, url, _ in _kept_anchors(root, page_url) if not url and unparsable(href, page_url)]
