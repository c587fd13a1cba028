"""Language copies: pages that repeat the site in another language are no nodes.

A crawl maps one language of a site: the one the crawl option names, by default
the language of its home page. A page's language is its ``<html lang>`` (or
``xml:lang``, or ``<meta http-equiv="content-language">``), compared by primary
subtag (``en-GB`` is ``en``); a page without one is in no particular language and
never a copy. A page links its copies with ``hreflang`` (``<link rel="alternate"
hreflang="de">`` in its head, ``<a hreflang="de">`` in a language switcher):
those in another language are never followed (:func:`language_copies`), and a
fetched page in another language (:func:`page_language`) is a leaf outside the tree.
"""
from __future__ import annotations

import re

from lxml import etree

from skeleton.web.urls import resolve

__all__ = ["ANY_LANGUAGE", "primary_language", "page_language", "hreflang_links", "language_copies"]

#: the crawl option value that keeps every language
ANY_LANGUAGE = "any"

_HTML_LANG = etree.XPath("(/html/@lang | /html/@xml:lang | //@lang[local-name(..) = 'html'])[1]",
                         namespaces={"xml": "http://www.w3.org/XML/1998/namespace"}, smart_strings=False)
_META_LANG = etree.XPath("//meta[translate(@http-equiv, 'CONTENTLAGU', 'contentlagu')"
                         " = 'content-language']/@content", smart_strings=False)
_HREFLANG = etree.XPath("//link[@hreflang][@href] | //a[@hreflang][@href]")
_SUBTAG = re.compile(r"^[a-z]{2,3}$")


def primary_language(value: str | None) -> str:
    """The primary subtag of a language tag, lower case (``"en-GB"`` -> ``"en"``),
    or ``""`` when it is none (``x-default``, ``*``, garbage)."""
    tag = (value or "").strip().lower().replace("_", "-").split("-", 1)[0].split(",", 1)[0].strip()
    return tag if _SUBTAG.match(tag) else ""


def page_language(root: etree._Element | None, attributes: str | None = None) -> str:
    """The page's declared language (primary subtag), ``""`` when it declares none.
    ``attributes``: the page's :func:`skeleton.web.dom.attribute_text`, if the caller
    has it (no "content-language" in it: no ``<meta>`` to look for)."""
    if root is None:
        return ""
    values = _HTML_LANG(root) or (
        _META_LANG(root) if attributes is None or "content-language" in attributes else [])
    return primary_language(values[0]) if values else ""


def hreflang_links(root: etree._Element | None, page_url: str) -> dict[str, str]:
    """URL -> language of the page's ``hreflang`` links (first mention wins)."""
    if root is None:
        return {}
    out: dict[str, str] = {}
    for element in _HREFLANG(root):
        if element.tag == "link" and "alternate" not in (element.get("rel") or "").lower().split():
            continue
        lang = primary_language(element.get("hreflang"))
        url = resolve(element.get("href") or "", page_url)
        if lang and url:
            out.setdefault(url, lang)
    return out


def language_copies(root: etree._Element | None, page_url: str, language: str) -> frozenset[str]:
    """The URLs the page names as its copies in a language other than ``language``
    (none when ``language`` is empty or ``ANY_LANGUAGE``)."""
    if not language or language == ANY_LANGUAGE:
        return frozenset()
    return frozenset(url for url, lang in hreflang_links(root, page_url).items() if lang != language)
