"""Defensive HTML decoding and parsing (SEW Section 3.2.1: clean, repair, parse).

Never raises on bad bytes: undecodable input is decoded with replacement
characters, markup is repaired by libxml2's HTML parser, and input that is not
HTML at all yields ``None``.

Decoding uses ``w3lib.encoding``, as Scrapy's ``response.text`` does (BOM, label
resolution with the WHATWG mappings such as latin-1 to cp1252, the ``<meta>`` and
``<?xml?>`` prescan), so both read a page alike; this module adds what w3lib does
not do: UTF-16/32 recognised by its NUL pattern without a BOM, a UTF-16/32 label on
ASCII-compatible bytes not believed, a declaration the bytes contradict skipped,
and UTF-8 then cp1252 as the fallback.
"""
from __future__ import annotations

import codecs
import re
from typing import TypeVar

from lxml import etree
from w3lib.encoding import html_body_declared_encoding, read_bom, resolve_encoding, to_unicode

__all__ = ["MAX_PARSE_BYTES", "decode_html", "looks_binary", "parse_html", "page_title", "attribute_text"]

#: Pages larger than this are cut before parsing (huge pages stay bounded): the
#: first ``MAX_PARSE_BYTES - TAIL_PARSE_BYTES`` bytes and the last ``TAIL_PARSE_BYTES``
#: are kept, so a footer or a local menu after megabytes of content is still read.
MAX_PARSE_BYTES = 5_000_000
TAIL_PARSE_BYTES = 500_000
#: Bytes read to decide whether a body is text (and in which UTF-16/32 form).
SNIFF_BYTES = 4096
#: Binary when more than this share of the sniffed bytes (or, for UTF-16/32, of the
#: decoded characters) are control bytes other than tab, LF, FF, CR and ESC. Uniformly
#: random bytes (compressed or image data) have ~10 % of them, so the bar stays below
#: that, while a few stray NULs in an HTML page (browsers render it) stay far under it.
BINARY_CONTROL_RATIO = 0.05
#: Control bytes allowed on top of the ratio: a tiny page with one stray NUL is text.
BINARY_STRAY_CONTROLS = 2
#: UTF-16 without a BOM is recognised by its NUL pattern (ASCII markup: every other
#: byte zero): at least this share of zeros at the high-byte positions ...
UTF16_NUL_SHARE = 0.3
#: ... and at most this share at the low-byte positions (0 for ASCII text).
UTF16_LOW_NUL_SHARE = 0.05
#: Signatures of formats that are never HTML (gzip, zip, PNG, JPEG, GIF, PDF, WebP/RIFF).
BINARY_MAGIC = (b"\x1f\x8b", b"PK\x03\x04", b"\x89PNG", b"\xff\xd8\xff", b"GIF8", b"%PDF-", b"RIFF",
                b"\x7fELF", b"MZ\x90\x00")

_BINARY_CONTROL = re.compile(rb"[\x00-\x08\x0e-\x1a\x1c-\x1f]")
_TEXT_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1a\x1c-\x1f]")
#: ``</body>`` and ``</html>`` are dropped before parsing: libxml2 ignores everything
#: after a stray one mid-page, browsers keep reading (the parser closes both at the end).
_DOCUMENT_END_TAGS = re.compile(r"</(?:body|html)\b[^>]*>", re.I)
#: libxml2's HTML parser drops everything below ~2,045 levels of nesting (and, past
#: them, the rest of the page): ``div`` and ``span`` tags nested deeper than this are
#: dropped before parsing (their content stays, one level up), leaving room for the
#: other elements around them.
MAX_NESTING = 1500
_NESTING_TAGS = re.compile(r"<(/?)(?:div|span)\b[^>]*>", re.I)
#: Tags before which an ``<a>`` left open is closed (``<a>`` cannot nest, and a new
#: list item, table cell or row ends the link in browsers); libxml2 instead nests
#: the rest of the list inside the open link, hiding the list from SEW.
_ANCHOR_ENDERS = re.compile(r"<(/?)(a|li|dt|dd|tr|td|th|ul|ol|dl|table)\b[^>]*>", re.I)
_ANCHOR_STARTS = re.compile(r"<a[\s>]", re.I)
_ANCHOR_ENDS = re.compile(r"</a\s*>", re.I)
_TITLE_XPATH = "string(//title)"
_Text = TypeVar("_Text", bytes, str)
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*>", re.I)


def _bom(body: bytes) -> tuple[str, int] | None:
    """The codec a byte order mark names and the BOM's length (w3lib's ``read_bom``)."""
    name, bom = read_bom(body)
    return (name, len(bom)) if name and bom else None


def _nul_pattern_codec(head: bytes) -> str | None:
    """``utf-32-le/be`` or ``utf-16-le/be`` when the zero bytes of ``head`` fall at the
    positions of the high bytes of mostly-ASCII text in that encoding, else None."""
    size = len(head) - len(head) % 4
    if size < 8:
        return None
    quarter = size / 4
    zeros = [head[i:size:4].count(0) / quarter for i in range(4)]
    high, low = UTF16_NUL_SHARE, UTF16_LOW_NUL_SHARE
    # UTF-32: bytes 2 and 3 (LE) or 0 and 1 (BE) are zero for every BMP character
    if zeros[2] >= 0.9 and zeros[3] >= 0.9 and zeros[0] <= low:
        return "utf-32-le"
    if zeros[0] >= 0.9 and zeros[1] >= 0.9 and zeros[3] <= low:
        return "utf-32-be"
    if zeros[1] >= high and zeros[3] >= high and zeros[0] <= low and zeros[2] <= low:
        return "utf-16-le"
    if zeros[0] >= high and zeros[2] >= high and zeros[1] <= low and zeros[3] <= low:
        return "utf-16-be"
    return None


def _wide_codec(body: bytes) -> tuple[str, int] | None:
    """The UTF-16/32 codec of ``body`` and the BOM length to skip, from a BOM or the
    NUL pattern (a header or ``<meta>`` naming UTF-16 is believed only with one of
    them: an ASCII page mislabelled UTF-16 would otherwise decode to CJK noise)."""
    bom = _bom(body)
    if bom is not None:
        return bom if bom[0] != "utf-8" else None
    codec = _nul_pattern_codec(body[:SNIFF_BYTES])
    return (codec, 0) if codec else None


def _too_many_controls(count: int, size: int) -> bool:
    return count > size * BINARY_CONTROL_RATIO + BINARY_STRAY_CONTROLS


def looks_binary(body: bytes) -> bool:
    """True when the bytes are unlikely to be text: more than ``BINARY_CONTROL_RATIO``
    of the first ``SNIFF_BYTES`` are control bytes. UTF-16/32 (a BOM, or the NUL
    pattern of UTF-16/32 text) is judged on its decoded characters; a few stray
    NULs in a text page do not make it binary (:func:`parse_html` drops them)."""
    head = body[:SNIFF_BYTES]
    if head.startswith(BINARY_MAGIC):
        return True
    wide = _wide_codec(head)
    if wide is not None:
        codec, skip = wide
        text = head[skip:].decode(codec, "replace")
        return _too_many_controls(len(_TEXT_CONTROL.findall(text)), len(text))
    if head.startswith(codecs.BOM_UTF8):
        return False
    return _too_many_controls(len(_BINARY_CONTROL.findall(head)), len(head))


_WIDE = ("utf-16", "utf-32")


def _python_codec(label: str) -> str | None:
    try:
        return codecs.lookup(label.strip()).name
    except (LookupError, ValueError, TypeError):
        return None


def _declared_codec(label: str | None) -> str | None:
    """The codec of a declared (HTTP) charset label, resolved as w3lib resolves a
    ``Content-Type`` charset (latin-1 is cp1252, gb2312 is gb18030 ...); None when
    w3lib knows no such encoding, or when it names UTF-16/32: a real UTF-16/32 body
    was recognised by its BOM or NUL pattern before, so the label mislabels
    ASCII-compatible bytes. An ASCII label stays ASCII: w3lib (as browsers) reads it
    as cp1252, which gives the same text for ASCII bytes, and a byte above 0x7F
    proves it wrong."""
    if not label:
        return None
    codec = resolve_encoding(label.strip())
    if codec is None or codec.startswith(_WIDE):
        return None
    return "ascii" if _python_codec(label) == "ascii" else codec


def _meta_codec(body: bytes) -> str | None:
    """The encoding a ``<meta>`` charset (or an ``<?xml encoding?>``) declares, found
    and resolved by w3lib's prescan; one naming UTF-16/32 reads as UTF-8 (HTML
    Standard: a ``<meta>`` can only be read in an ASCII-compatible page)."""
    codec = html_body_declared_encoding(body)
    if codec is not None and codec.startswith(_WIDE):
        return "utf-8"
    return codec


def _strict(body: bytes, codec: str) -> str | None:
    try:
        return body.decode(codec)
    except (UnicodeError, LookupError):  # bad bytes, or not a text encoding (base64)
        return None


def decode_html(body: bytes, declared: str | None = None) -> str:
    """Decode page bytes: BOM, then the NUL pattern of UTF-16/32, then the declared
    (HTTP) charset, then a ``<meta>`` charset, then UTF-8, then cp1252; a
    declaration is believed only if the bytes decode under it; the last resort
    replaces bad bytes. ``declared`` is a charset label (what
    ``w3lib.encoding.http_content_type_encoding`` gives for the ``Content-Type``)."""
    wide = _wide_codec(body) or _bom(body)
    if wide is not None:
        codec, skip = wide
        return to_unicode(body[skip:], codec)
    for codec in (_declared_codec(declared), _meta_codec(body), "utf-8"):
        if codec and (text := _strict(body, codec)) is not None:
            return text
    return to_unicode(body, "cp1252")


def _flatten_nesting(text: str) -> str:
    """``text`` without the ``div``/``span`` start and end tags nested deeper than
    ``MAX_NESTING`` (one linear scan; pages with fewer such tags are returned as is)."""
    if text.count("<") <= MAX_NESTING:
        return text  # too few tags to nest that deep
    parts: list[str] = []
    depth = kept = 0
    for match in _NESTING_TAGS.finditer(text):
        if match.group(1):  # an end tag
            deep = depth > MAX_NESTING
            depth = max(depth - 1, 0)
        else:
            depth += 1
            deep = depth > MAX_NESTING
        if deep:
            parts.append(text[kept:match.start()])
            kept = match.end()
    if not parts:
        return text
    parts.append(text[kept:])
    return "".join(parts)


def _close_open_anchors(text: str) -> str:
    """``text`` with ``</a>`` inserted where a link left open meets another link, a
    list item, a table cell or the end of a list or table (HTML Standard, the
    adoption agency algorithm and the implied end of ``<li>``). Pages whose ``<a>``
    start and end tags are as many are returned as is."""
    if len(_ANCHOR_STARTS.findall(text)) <= len(_ANCHOR_ENDS.findall(text)):
        return text
    parts: list[str] = []
    kept = 0
    open_anchor = False
    for match in _ANCHOR_ENDERS.finditer(text):
        is_end, tag = match.group(1), match.group(2).lower()
        if tag == "a" and is_end:
            open_anchor = False
            continue
        if open_anchor:
            parts.append(text[kept:match.start()])
            parts.append("</a>")
            kept = match.start()
        open_anchor = tag == "a"
    if not parts:
        return text
    parts.append(text[kept:])
    return "".join(parts)


def _cut(body: _Text) -> _Text:
    """The head and the last ``TAIL_PARSE_BYTES`` of a page longer than
    ``MAX_PARSE_BYTES`` (bytes, or characters of decoded text); the tail starts at a
    multiple of 4, so UTF-16/32 bytes stay aligned."""
    if len(body) <= MAX_PARSE_BYTES:
        return body
    tail = len(body) - TAIL_PARSE_BYTES
    return body[:MAX_PARSE_BYTES - TAIL_PARSE_BYTES] + body[tail - tail % 4:]


def parse_html(body: bytes | str, declared: str | None = None) -> etree._Element | None:
    """Parse a page into an lxml tree (plain ``etree`` elements), or ``None`` for
    empty or non-HTML input."""
    if isinstance(body, bytes):
        if not body.strip() or looks_binary(body):
            return None
        text = decode_html(_cut(body), declared)
    else:
        text = _cut(body)
    text = _XML_DECLARATION.sub("", text.replace("\x00", ""), count=1)  # NUL ends libxml2's input
    text = _close_open_anchors(_flatten_nesting(_DOCUMENT_END_TAGS.sub("", text)))
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


_ATTRIBUTE_VALUES = etree.XPath("//@*", smart_strings=False)


def attribute_text(root: etree._Element | None) -> str:
    """The values of all the attributes of the page, lower-cased, one per line: the
    text of cheap pre-checks. An XPath test on attribute values costs libxml2 a copy
    of every value it tests (about 0.4 us each); a word absent from this text spares
    the page the XPaths looking for it. Computed once per page by the spider and
    handed to the analyses that take it (``attributes=``). ``None``: ''."""
    if root is None:
        return ""
    return "\n".join(_ATTRIBUTE_VALUES(root)).lower()


def page_title(root: etree._Element | None) -> str:
    """The page's ``<title>`` text, whitespace-collapsed ('' when absent): the first
    ``title`` element's in document order (looked for in the ``<head>`` first when it
    is the page's first element)."""
    if root is None:
        return ""
    head = root[0] if root.tag == "html" and len(root) else None
    title = next(head.iter("title"), None) if head is not None and head.tag == "head" else None
    if title is not None:
        return " ".join("".join(title.itertext()).split())
    return " ".join(str(root.xpath(_TITLE_XPATH)).split())
