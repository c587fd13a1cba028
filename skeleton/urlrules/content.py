"""A page's main content and its text, for comparing pages (duplicates) and telling
form pages (actions) apart.

The main content is the page's single ``<article>``, else its ``<main>`` (or
``role="main"``, ``#content``, ``#main``), else ``<body>``. Its text leaves out
scripts, styles, navigation, sidebars and forms. Iterative: a page nested ten
thousand levels deep is read like any other.
"""
from __future__ import annotations

import re

from lxml import etree

__all__ = ["MAIN_XPATH", "ARTICLE_XPATH", "DROPPED_TAGS", "main_element", "main_text"]

MAIN_XPATH = '(//main | //*[@role="main"] | //*[@id="content"] | //*[@id="main"])[1]'
ARTICLE_XPATH = "//article"
#: elements whose text is not the page's content
DROPPED_TAGS = frozenset({"script", "style", "noscript", "template", "nav", "aside", "form", "select",
                          "button", "textarea"})
_MAIN = etree.XPath(MAIN_XPATH)
_ARTICLES = etree.XPath(ARTICLE_XPATH)
_BODY = etree.XPath("//body")
_SPACES = re.compile(r"\s+")


def main_element(root: etree._Element) -> etree._Element:
    """The element holding the page's main content."""
    articles = _ARTICLES(root)
    if len(articles) == 1:
        return articles[0]
    main = _MAIN(root)
    if main:
        return main[0]
    body = _BODY(root)
    return body[0] if body else root


def main_text(element: etree._Element, dropped: frozenset[str] = DROPPED_TAGS) -> str:
    """The whitespace-normalized text of ``element`` without the ``dropped`` elements."""
    parts: list[str] = []
    stack: list[etree._Element | str] = [element]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            parts.append(node)
            continue
        if not isinstance(node.tag, str) or node.tag.lower() in dropped:
            continue  # comments, processing instructions, dropped elements: their tails stay
        if node.text:
            parts.append(node.text)
        for child in reversed(node):
            if child.tail:
                stack.append(child.tail)  # popped after the child's whole subtree
            stack.append(child)
    return _SPACES.sub(" ", " ".join(parts)).strip()
