"""Text made safe for the readers of an export: spreadsheets, XML parsers, terminals.

A page's title (and, in principle, any text a crawled site chose) goes into files
that other programs open. Three pure functions, one per kind of reader:

* :func:`xml_text` removes every character XML 1.0 cannot hold (C0 controls other
  than tab, line feed and carriage return; lone surrogates; U+FFFE and U+FFFF), so
  GraphML, sitemaps and the HTML viewer always parse (lxml refuses the document
  otherwise, and a lone surrogate cannot even be written as UTF-8).
* :func:`csv_cell` also removes the other control characters (DEL and the C1
  controls U+0080-U+009F; tab and line breaks stay, the csv module quotes them) and
  writes every line break as a line feed (a lone carriage return ends a row for csv
  readers, and Python's writer leaves it unquoted when rows end with ``\n``), then
  prefixes a single quote to a cell that starts with a character
  a spreadsheet reads as the start of a formula (``=``, ``+``, ``-``, ``@``, tab,
  carriage return: OWASP's CSV injection advice, and line feed), so
  ``=cmd|' /C calc'!A0`` is shown as text, never run. A negative number given as
  text (a title ``-3``) is prefixed too. Only text cells go through it: numeric
  fields (depth, child counts) are written as they are. Idempotent: a neutralised
  cell starts with the quote.
* :func:`markup_text` is :func:`xml_text` escaped for markup (``&``, ``<``, ``>``
  and both quotes as character references), for the text and attribute values
  of the SVG diagrams and HTML pages written as markup.
* :func:`text_line` removes what :func:`csv_cell` removes and turns every line or
  tab break (tab, LF, CR, U+2028, U+2029) into a space, so a title is one line of
  the outline and no byte of it reaches a terminal as a control.

Removed characters are dropped (:data:`REPLACEMENT` is empty), as the schema's
GraphML already did: a title made only of controls becomes empty ("(untitled)").
"""
from __future__ import annotations

import html
import re

__all__ = ["FORMULA_PREFIXES", "FORMULA_ESCAPE", "REPLACEMENT", "xml_text", "markup_text", "csv_cell", "text_line"]

#: the first characters that make a spreadsheet read a cell as a formula (OWASP's six,
#: and line feed, which some readers skip like carriage return)
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r", "\n")
#: prefixed to such a cell: spreadsheets read a cell starting with it as text
FORMULA_ESCAPE = "'"
#: what a removed character becomes (dropped)
REPLACEMENT = ""

#: characters outside XML 1.0's ``Char`` production: C0 controls but tab, LF and CR;
#: surrogates (in a Python string, only lone ones); U+FFFE and U+FFFF
_NOT_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
#: what XML allows but no reader wants in a cell or a line: DEL and the C1 controls
_CONTROLS = re.compile(r"[\x7f-\x9f]")
#: line and tab breaks a one-line rendering turns into a space
_BREAKS = re.compile(r"[\t\n\r\u2028\u2029]")


def xml_text(value: str) -> str:
    """``value`` without the characters XML 1.0 forbids (everything else is kept)."""
    return _NOT_XML.sub(REPLACEMENT, value)


def markup_text(value: str) -> str:
    """``value`` as XML/HTML text or attribute content: :func:`xml_text`, then
    ``&``, ``<``, ``>``, ``"`` and ``'`` escaped."""
    return html.escape(xml_text(value), quote=True)


def _plain(value: str) -> str:
    return _CONTROLS.sub(REPLACEMENT, xml_text(value))


def csv_cell(value: str) -> str:
    """``value`` as a CSV text cell: no control character but tab and LF (CR LF and CR
    become LF), and a leading :data:`FORMULA_ESCAPE` if it would start with one of
    :data:`FORMULA_PREFIXES`."""
    cell = _plain(value).replace("\r\n", "\n").replace("\r", "\n")
    return FORMULA_ESCAPE + cell if cell.startswith(FORMULA_PREFIXES) else cell


def text_line(value: str) -> str:
    """``value`` as part of one line of text: no control character, breaks as spaces."""
    return _BREAKS.sub(" ", _plain(value))
