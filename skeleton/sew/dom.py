"""Defensive HTML decoding and parsing (SEW Section 3.2.1: clean, repair, parse).

Never raises on bad bytes: undecodable input is decoded with replacement
characters, markup is repaired by libxml2's HTML parser, and input that is not
HTML at all yields ``None``.
"""
from __future__ import annotations

import codecs
import re

from lxml import etree

__all__ = ["MAX_PARSE_BYTES", "decode_html", "looks_binary", "parse_html", "page_title"]

#: Pages larger than this are truncated before parsing (huge pages stay bounded).
MAX_PARSE_BYTES = 5_000_000
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_\-:.]+)""", re.I)
_BINARY_CONTROL = re.compile(rb"[\x00-\x08\x0e-\x1a\x1c-\x1f]")
_TITLE_XPATH = "string(//title)"
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*>", re.I)


def looks_binary(body: bytes) -> bool:
    """True when the bytes are unlikely to be text (NUL or many control bytes)."""
    head = body[:4096]
    if b"\x00" in head:
        return True
    return len(_BINARY_CONTROL.findall(head)) > len(head) * 0.05


def _known_codec(name: str | bytes | None, from_meta: bool = False) -> str | None:
    if not name:
        return None
    if isinstance(name, bytes):
        name = name.decode("ascii", "ignore")
    try:
        codec = codecs.lookup(name.strip()).name
    except (LookupError, ValueError):
        return None
    if from_meta and codec.startswith("utf-16"):
        return "utf-8"  # HTML Standard: a <meta> can only be read if the page is ASCII-compatible
    return codec


def decode_html(body: bytes, declared: str | None = None) -> str:
    """Decode page bytes: BOM, then the declared (HTTP) encoding, then a ``<meta>``
    charset, then UTF-8, then cp1252; the last resort replaces bad bytes."""
    for bom, name in ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"),
                      (codecs.BOM_UTF16_BE, "utf-16-be")):
        if body.startswith(bom):
            return body[len(bom):].decode(name, "replace")
    meta = _META_CHARSET.search(body[:4096])
    candidates = [_known_codec(declared), _known_codec(meta.group(1) if meta else None, from_meta=True), "utf-8"]
    for name in candidates:
        if name:
            try:
                return body.decode(name)
            except (UnicodeError, LookupError):
                continue
    return body.decode("cp1252", "replace")


def parse_html(body: bytes | str, declared: str | None = None) -> etree._Element | None:
    """Parse a page into an lxml tree (plain ``etree`` elements), or ``None`` for
    empty or non-HTML input."""
    if isinstance(body, bytes):
        has_bom = body.startswith((codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
        if not body.strip() or (not has_bom and looks_binary(body)):
            return None
        text = decode_html(body[:MAX_PARSE_BYTES], declared)
    else:
        text = body[:MAX_PARSE_BYTES]
    text = _XML_DECLARATION.sub("", text.replace("\x00", ""), count=1)
    if not text.strip():
        return None
    try:
        root = etree.fromstring(text, parser=_PARSER)
    except (etree.ParserError, ValueError, etree.XMLSyntaxError):
        return None
    return root


#: Plain ``etree`` elements, not ``lxml.html``'s: its element classes are chosen by a
#: Python lookup for every element proxy, which doubles the cost of walking a tree.
_PARSER = etree.HTMLParser(remove_comments=True, remove_pis=True, huge_tree=True, recover=True)


def page_title(root: etree._Element | None) -> str:
    """The page's ``<title>`` text, whitespace-collapsed ('' when absent)."""
    if root is None:
        return ""
    return " ".join(str(root.xpath(_TITLE_XPATH)).split())
