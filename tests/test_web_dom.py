"""Defensive HTML decoding and parsing: skeleton.web.dom."""
from __future__ import annotations

import codecs
import random

import pytest
from scrapy.http import HtmlResponse

from skeleton.middlewares.shared import declared_encoding
from skeleton.web.dom import MAX_NESTING, MAX_PARSE_BYTES, decode_html, looks_binary, page_title, parse_html
from skeleton.sew.links import extract_links

CAFE = "Café Zürich – €5"


def anchors(root) -> list[tuple[str, str]]:
    return [(a.get("href"), a.xpath("string()")) for a in root.iter("a")]


# --- decode_html -------------------------------------------------------------

def test_utf8_bom_wins_over_declarations() -> None:
    body = codecs.BOM_UTF8 + f'<meta charset="iso-8859-1"><p>{CAFE}</p>'.encode("utf-8")
    assert decode_html(body, "windows-1251") == f'<meta charset="iso-8859-1"><p>{CAFE}</p>'


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_bom(codec: str) -> None:
    bom = codecs.BOM_UTF16_LE if codec.endswith("le") else codecs.BOM_UTF16_BE
    body = bom + f"<p>{CAFE}</p>".encode(codec)
    assert decode_html(body) == f"<p>{CAFE}</p>"


def test_declared_encoding_is_used() -> None:
    body = f"<p>{CAFE}</p>".encode("utf-8")
    # valid in both: the declared (HTTP) encoding decides
    assert decode_html("<p>Привет</p>".encode("koi8-r"), "koi8-r") == "<p>Привет</p>"
    assert decode_html(body, "utf-8") == f"<p>{CAFE}</p>"


def test_declared_encoding_wins_over_meta() -> None:
    body = '<meta charset="utf-8"><p>Привет</p>'.encode("koi8-r")
    assert decode_html(body, "koi8-r") == '<meta charset="utf-8"><p>Привет</p>'


@pytest.mark.parametrize("meta", ['<meta charset="windows-1251">',
                                  "<meta charset=windows-1251>",
                                  '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=windows-1251">'])
def test_meta_charset_is_used(meta: str) -> None:
    text = f"<html><head>{meta}</head><body>Привет мир</body></html>"
    assert decode_html(text.encode("cp1251")) == text


def test_unknown_declared_and_meta_charsets_fall_back_to_utf8() -> None:
    body = f'<meta charset="no-such-charset"><p>{CAFE}</p>'.encode("utf-8")
    assert decode_html(body, "also-bogus") == f'<meta charset="no-such-charset"><p>{CAFE}</p>'


def test_utf8_without_any_declaration() -> None:
    assert decode_html(f"<p>{CAFE}</p>".encode("utf-8")) == f"<p>{CAFE}</p>"


def test_wrong_declaration_falls_back() -> None:
    # declared ascii, but the bytes are UTF-8
    assert decode_html(f"<p>{CAFE}</p>".encode("utf-8"), "ascii") == f"<p>{CAFE}</p>"


def test_latin1_bytes_without_declaration_decode_as_cp1252() -> None:
    assert decode_html("<p>Café – “quoted”</p>".encode("cp1252")) == "<p>Café – “quoted”</p>"


def test_bad_bytes_are_replaced_not_raised() -> None:
    # 0x81 and 0x8d are undefined in cp1252 and invalid UTF-8 here
    text = decode_html(b"<p>bad \x81\x8d bytes</p>")
    assert text.startswith("<p>bad ") and text.endswith(" bytes</p>")
    assert "\ufffd" in text


@pytest.mark.parametrize("declared", [None, "utf-8", "ascii", "utf-16", "utf-32", "shift_jis", "base64",
                                      "rot13", "hex", "utf-7", "idna", "nonsense", ""])
def test_random_bytes_never_raise(declared: str | None) -> None:
    rng = random.Random(f"seed-{declared}")
    for _ in range(50):
        body = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300)))
        assert isinstance(decode_html(body, declared), str)
        parse_html(body, declared)  # None or a tree, never an exception


@pytest.mark.parametrize("charset", ["undefined", "punycode"])
@pytest.mark.parametrize("where", ["declared", "meta"])
def test_exotic_charset_declarations_never_raise(charset: str, where: str) -> None:
    page = '<html><body><a href="a.html">A</a></body></html>'
    if where == "meta":
        body, declared = f'<meta charset="{charset}">{page}'.encode(), None
    else:
        body, declared = page.encode(), charset
    root = parse_html(body, declared)
    assert root is not None and anchors(root) == [("a.html", "A")]


@pytest.mark.parametrize("charset", ["utf-16", "utf-16le", "utf-16be"])
def test_meta_charset_utf16_on_an_ascii_page(charset: str) -> None:
    page = f'<html><head><meta charset="{charset}"></head><body><a href="a.html">A</a></body></html>'
    if len(page) % 2:
        page += " "
    root = parse_html(page.encode("ascii"))
    assert root is not None and anchors(root) == [("a.html", "A")]


# --- decode_html and Scrapy's response.text ------------------------------------

QUOTED = "<p>Caf\u00e9 \u2013 \u201cquoted\u201d \u20ac5</p>"
RUSSIAN = "<p>\u041f\u0440\u0438\u0432\u0435\u0442</p>"
CHINESE = "<p>\u4e2d\u6587 \u9555</p>"  # U+9555 is in GBK (gb18030), not in gb2312

#: (Content-Type header or None, body): pages both read alike
AGREE = {
    "cp1252 bytes, header latin-1": ("text/html; charset=iso-8859-1", QUOTED.encode("cp1252")),
    "cp1252 bytes, meta latin-1": (None, ('<meta charset="latin-1">' + QUOTED).encode("cp1252")),
    "cp1252 bytes, header ascii": ("text/html; charset=us-ascii", QUOTED.encode("cp1252")),
    "UTF-8 BOM over a koi8-r header": ("text/html; charset=koi8-r",
                                       codecs.BOM_UTF8 + ('<meta charset="koi8-r">' + QUOTED).encode()),
    "UTF-16 BOM over a latin-1 header": ("text/html; charset=iso-8859-1",
                                         codecs.BOM_UTF16_LE + QUOTED.encode("utf-16-le")),
    "meta charset": (None, ('<meta charset="windows-1251">' + RUSSIAN).encode("cp1251")),
    "meta http-equiv": (None, ('<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">'
                               + RUSSIAN).encode("koi8-r")),
    "header over meta": ("text/html; charset=koi8-r", ('<meta charset="utf-8">' + RUSSIAN).encode("koi8-r")),
    "XML declaration": ("application/xhtml+xml", ('<?xml version="1.0" encoding="iso-8859-2"?>'
                                                  "<p>\u0141\u00f3d\u017a</p>").encode("iso-8859-2")),
    "meta in a comment is not read": (None, ('<!-- <meta charset="koi8-r"> -->' + RUSSIAN).encode()),
    "meta gb2312 is read as gb18030": (None, ('<meta charset="gb2312">' + CHINESE).encode("gb18030")),
    "header shift_jis is read as cp932": ("text/html; charset=shift_jis",
                                          "<p>\u2460 \u65e5\u672c</p>".encode("cp932")),
    "UTF-8 without a declaration": ("text/html", QUOTED.encode()),
    "ASCII without a declaration": (None, b"<p>plain</p>"),
}


@pytest.mark.parametrize("case", sorted(AGREE))
def test_decode_html_agrees_with_scrapy_response_text(case: str) -> None:
    content_type, body = AGREE[case]
    headers = {"Content-Type": content_type} if content_type else {}
    response = HtmlResponse("http://s.test/", headers=headers, body=body)
    # what the crawl does (skeleton.middlewares.shared): the header's charset, then decode_html
    assert decode_html(body, declared_encoding(response)) == response.text


def test_latin1_is_read_as_cp1252_wherever_declared() -> None:
    body = QUOTED.encode("cp1252")  # \x93 and \x94 are quotes in cp1252, C1 controls in latin-1
    assert decode_html(body, "iso-8859-1") == QUOTED
    assert decode_html(b'<meta charset="latin-1">' + body) == '<meta charset="latin-1">' + QUOTED


@pytest.mark.parametrize("meta", ['<!-- <meta charset="koi8-r"> -->', '<meta content="charset=koi8-r">',
                                  '<body><meta charset="koi8-r">'])
def test_meta_charsets_the_html_prescan_does_not_read(meta: str) -> None:
    # in a comment, without http-equiv, or after <body>: not a declaration (WHATWG prescan, w3lib)
    assert decode_html((meta + RUSSIAN).encode()) == meta + RUSSIAN


def test_declared_utf8_for_cp1252_bytes_falls_back_to_cp1252() -> None:
    # the bytes contradict the declaration (the hostile benchmark's mislabeled page):
    # decode_html reads cp1252, where Scrapy's response.text shows replacement characters
    body = ('<meta charset="utf-8">' + QUOTED).encode("cp1252")
    assert decode_html(body, "utf-8") == '<meta charset="utf-8">' + QUOTED


# --- parse_html --------------------------------------------------------------

def test_parse_a_page() -> None:
    root = parse_html(f'<html><head><title> My  page </title></head><body><a href="x.html">{CAFE}</a>'.encode())
    assert anchors(root) == [("x.html", CAFE)]
    assert page_title(root) == "My page"


def test_parse_repairs_broken_markup() -> None:
    root = parse_html(b"<TABLE><TR><TD><A HREF=a.html>A<TD><a href=b.html>B</TABLE><p>unclosed")
    assert anchors(root) == [("a.html", "A"), ("b.html", "B")]


def test_parse_uses_meta_charset() -> None:
    body = '<html><head><meta charset="iso-8859-7"></head><body><a href="a">Ελλάδα</a></body></html>'
    assert anchors(parse_html(body.encode("iso-8859-7"))) == [("a", "Ελλάδα")]


def test_parse_uses_the_declared_encoding() -> None:
    body = '<html><body><a href="a">Привет</a></body></html>'.encode("koi8-r")
    assert anchors(parse_html(body, "koi8-r")) == [("a", "Привет")]


def test_parse_utf8_bom() -> None:
    body = codecs.BOM_UTF8 + f'<html><body><a href="a">{CAFE}</a></body></html>'.encode()
    assert anchors(parse_html(body)) == [("a", CAFE)]


@pytest.mark.parametrize("codec,bom", [("utf-16-le", codecs.BOM_UTF16_LE), ("utf-16-be", codecs.BOM_UTF16_BE)])
def test_parse_utf16_page_with_bom(codec: str, bom: bytes) -> None:
    body = bom + f'<html><body><a href="a.html">{CAFE}</a></body></html>'.encode(codec)
    root = parse_html(body)
    assert root is not None and anchors(root) == [("a.html", CAFE)]


@pytest.mark.parametrize("body", [b"", b"   \n\t  ", b"\r\n"])
def test_empty_input_gives_none(body: bytes) -> None:
    assert parse_html(body) is None


@pytest.mark.parametrize("text", ["", "   ", "\x00\x00"])
def test_empty_text_gives_none(text: str) -> None:
    assert parse_html(text) is None


def test_binary_input_gives_none() -> None:
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10" + bytes(range(256)) * 4
    assert looks_binary(png)
    assert parse_html(png) is None
    gzip = b"\x1f\x8b\x08\x00" + bytes(random.Random(3).randrange(256) for _ in range(2000))
    assert parse_html(gzip) is None


def test_looks_binary() -> None:
    assert not looks_binary(b"<html>\x00</html>")  # one stray NUL: text (parse_html drops it)
    assert looks_binary(b"\x00\x01\x02binary") and looks_binary(b"\x00\x01\x02\x03")
    assert looks_binary(b"\x01\x02\x03\x04" * 10)
    assert not looks_binary(b"<html><body>plain\ttext\r\n</body></html>")
    assert not looks_binary("<p>Café</p>".encode("utf-8"))
    # a few control bytes in a long page are tolerated (fewer than 5 %)
    assert not looks_binary(b"<p>" + b"x" * 200 + b"\x01\x02" + b"</p>")


def test_stray_nul_bytes_in_bytes_are_dropped() -> None:
    page = (b'<!DOCTYPE html><html><head><meta charset="utf-8"><title>Nul\x00page</title></head>'
            b'<body><p>text\x00\x00 more</p><a href="a.html">A</a>\x00<a hr\x00ef="b.html">B</a>'
            + b"<p>filler</p>" * 40 + b'<a href="c.html">C</a></body></html>')
    assert not looks_binary(page)
    root = parse_html(page)
    assert page_title(root) == "Nulpage"
    assert anchors(root) == [("a.html", "A"), ("b.html", "B"), ("c.html", "C")]


def test_many_nul_bytes_mark_binary_input() -> None:
    page = b'<html><body><a href="a.html">A</a>' + b"\x00\x01" * 200 + b"</body></html>"
    assert looks_binary(page)
    assert parse_html(page) is None


def test_random_bytes_are_binary() -> None:
    rng = random.Random(7)
    noise = bytes(rng.randrange(256) for _ in range(8192))
    assert looks_binary(noise)
    assert looks_binary(b"<html>" + noise)


UTF16_PAGE = ('<!DOCTYPE html><html lang="ru"><head><title>Привет</title></head><body>'
              '<nav><a href="a.html">Café</a><a href="b.html">Б</a></nav>'
              + "<p>текст text</p>" * 30 + '<a href="c.html">C</a></body></html>')


@pytest.mark.parametrize("codec,bom", [
    ("utf-16-le", codecs.BOM_UTF16_LE), ("utf-16-be", codecs.BOM_UTF16_BE),
    ("utf-16-le", b""), ("utf-16-be", b""),
    ("utf-32-le", codecs.BOM_UTF32_LE), ("utf-32-be", b""), ("utf-32-le", b"")])
@pytest.mark.parametrize("declared", [None, "utf-16", "utf-8"])
def test_utf16_and_utf32_are_text(codec: str, bom: bytes, declared: str | None) -> None:
    body = bom + UTF16_PAGE.encode(codec)
    assert not looks_binary(body)
    assert decode_html(body, declared) == UTF16_PAGE
    root = parse_html(body, declared)
    assert page_title(root) == "Привет"
    assert anchors(root) == [("a.html", "Café"), ("b.html", "Б"), ("c.html", "C")]


def test_header_naming_utf16_for_ascii_bytes_is_not_believed() -> None:
    body = b'<html><body><a href="a.html">A</a></body></html>'
    assert decode_html(body, "utf-16") == body.decode("ascii")
    assert anchors(parse_html(body, "utf-16le")) == [("a.html", "A")]


def test_utf16_with_many_control_characters_is_binary() -> None:
    body = codecs.BOM_UTF16_LE + ("\x01\x02<p>" * 300).encode("utf-16-le")
    assert looks_binary(body)


def test_nul_characters_in_text_are_removed() -> None:
    root = parse_html('<html><body><a href="a.html">A\x00B</a><a hr\x00ef="b.html">C</a></body></html>')
    assert anchors(root) == [("a.html", "AB"), ("b.html", "C")]


@pytest.mark.parametrize("encoding", ["utf-8", "UTF-8", "iso-8859-1"])
def test_xml_declaration_with_encoding(encoding: str) -> None:
    page = (f'<?xml version="1.0" encoding="{encoding}"?>\n'
            '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" '
            '"http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">\n'
            '<html xmlns="http://www.w3.org/1999/xhtml"><head><title>X</title></head>'
            '<body><a href="a.html">Caf\u00e9</a></body></html>')
    # as text (lxml refuses unicode strings with an encoding declaration) ...
    assert anchors(parse_html(page)) == [("a.html", "Café")]
    # ... and as bytes
    root = parse_html(page.encode(encoding))
    assert anchors(root) == [("a.html", "Café")]
    assert page_title(root) == "X"
    links = extract_links(root, "http://e.org/")
    assert [link.path for link in links] == [("html", "body", "a")]


def test_xml_declaration_after_a_bom() -> None:
    body = codecs.BOM_UTF8 + b'<?xml version="1.0" encoding="utf-8"?><html><body><a href="a">A</a></body></html>'
    assert anchors(parse_html(body)) == [("a", "A")]


def test_huge_pages_keep_their_head_and_tail() -> None:
    head = b'<html><body><a href="first.html">First</a>'
    middle = b'<a href="middle.html">Middle</a>'
    filler = b"<p>" + b"x" * MAX_PARSE_BYTES + b"</p>"
    body = head + filler + middle + filler + b'<nav><a href="late.html">Late</a></nav></body></html>'
    root = parse_html(body)
    assert [href for href, _ in anchors(root)] == ["first.html", "late.html"]
    root = parse_html(body.decode("ascii"))  # decoded text is cut the same way
    assert [href for href, _ in anchors(root)] == ["first.html", "late.html"]


def test_a_huge_utf16_page_keeps_its_tail_aligned() -> None:
    page = ('<html><body><a href="first.html">First</a><p>' + "x" * MAX_PARSE_BYTES
            + '</p><nav><a href="late.html">Lat\u00e9</a></nav></body></html>')
    for odd in ("", "y"):  # the tail starts at an even and at an odd character
        root = parse_html(codecs.BOM_UTF16_LE + (page + odd).encode("utf-16-le"))
        assert anchors(root)[-1] == ("late.html", "Lat\u00e9")


def test_links_left_open_in_a_list_end_at_the_next_item() -> None:
    page = ("<html><body><ul><li><a href=a.html>A<li><a href=b.html>B<li><a href=c.html>C</ul>"
            "<table><tr><td><a href=d.html>D<td><a href=e.html>E</table>"
            "<p><a href=f.html>F<a href=g.html>G</a></p></body></html>")
    root = parse_html(page.encode("utf-8"))
    assert anchors(root) == [(h, h[0].upper()) for h in
                             ["a.html", "b.html", "c.html", "d.html", "e.html", "f.html", "g.html"]]
    assert [len(list(a.iterancestors("a"))) for a in root.iter("a")] == [0] * 7
    items = root.xpath("//ul/li")
    assert len(items) == 3 and all(len(li.findall("a")) == 1 for li in items)


def test_balanced_links_around_blocks_are_kept() -> None:
    page = '<html><body><a href="card.html"><div><h2>Card</h2><ul><li>x</li></ul></div></a></body></html>'
    root = parse_html(page.encode("utf-8"))
    assert root.xpath("//a/div/ul/li")


@pytest.mark.parametrize("stray", ["</html>", "</body>", "</body></html>", "</BODY >", "</html\n>"])
def test_links_after_a_stray_document_end_tag_are_read(stray: str) -> None:
    page = (f'<html><head><title>T</title></head><body><a href="a.html">A</a>{stray}'
            f'<p>after <a href="b.html">B</a></p></body></html>\n<a href="c.html">C</a>')
    root = parse_html(page.encode("utf-8"))
    assert anchors(root) == [("a.html", "A"), ("b.html", "B"), ("c.html", "C")]
    assert page_title(root) == "T" and len(root.findall("body")) == 1


@pytest.mark.parametrize("tag", ["div", "span", "DIV"])
def test_nesting_deeper_than_libxml2_keeps_is_flattened(tag: str) -> None:
    levels = 6000
    page = (f'<html><body><a href="top.html">Top</a>' + f"<{tag} class=x>" * levels
            + '<a href="deep.html">Deep</a>' + f"</{tag}>" * levels
            + '<nav><a href="s1.html">S1</a><a href="s2.html">S2</a></nav></body></html>')
    root = parse_html(page.encode("utf-8"))
    assert [href for href, _ in anchors(root)] == ["top.html", "deep.html", "s1.html", "s2.html"]
    deep = root.xpath("//a[@href='deep.html']")[0]
    assert len(list(deep.iterancestors())) == MAX_NESTING + 2  # html, body, MAX_NESTING divs
    nav = root.xpath("//nav")[0]
    assert nav.getparent().tag == "body"


def test_nesting_within_the_limit_is_kept() -> None:
    levels = MAX_NESTING
    page = ("<html><body>" + "<div>" * levels + '<a href="deep.html">Deep</a>' + "</div>" * levels
            + "</body></html>")
    deep = parse_html(page.encode("utf-8")).xpath("//a")[0]
    assert len(list(deep.iterancestors())) == levels + 2


def test_page_title() -> None:
    assert page_title(None) == ""
    assert page_title(parse_html(b"<html><body>no title</body></html>")) == ""
    assert page_title(parse_html(b"<title>\n  A\n  B </title>")) == "A B"
    # the head's title; else the first title anywhere (an SVG's)
    assert page_title(parse_html(b"<html><head><meta charset=utf-8><title>T\n 1</title></head>"
                                 b"<body><svg><title>S</title></svg></body></html>")) == "T 1"
    assert page_title(parse_html(b"<html><head></head><body><svg><title>S</title></svg></body></html>")) == "S"
