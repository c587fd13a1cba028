"""A page's main content and its text, for comparing pages (duplicates) and telling
form pages (actions) apart.

The main content is the page's single ``<article>``, else its ``<main>`` (or
``role="main"``, ``#content``, ``#main``), else ``<body>``. Its text leaves out
scripts, styles, navigation, sidebars and forms. Iterative (lxml's ``iterwalk``): a
page nested ten thousand levels deep is read like any other.
"""
from __future__ import annotations

from itertools import islice

from lxml import etree

__all__ = ["MAIN_XPATH", "DROPPED_TAGS", "main_element", "main_text"]

#: the first ``<main>``, ``role="main"``, ``#content`` or ``#main``: name and attribute
#: tests (``//@id[...]/..``), three times cheaper in libxml2 than a predicate on ``//*``
MAIN_XPATH = '(//main | //@role[. = "main"]/.. | //@id[. = "content" or . = "main"]/..)[1]'
#: elements whose text is not the page's content
DROPPED_TAGS = frozenset({"script", "style", "noscript", "template", "nav", "aside", "form", "select",
                          "button", "textarea"})
_MAIN = etree.XPath(MAIN_XPATH)


def main_element(root: etree._Element) -> etree._Element:
    """The element holding the page's main content."""
    articles = list(islice(root.iter("article"), 2))
    if len(articles) == 1:
        return articles[0]
    main = _MAIN(root)
    if main:
        return main[0]
    return next(root.iter("body"), root)


def main_text(element: etree._Element, dropped: frozenset[str] = DROPPED_TAGS) -> str:
    """The whitespace-normalized text of ``element`` without the ``dropped`` elements."""
    parts: list[str] = []
    add = parts.append
    walker = etree.iterwalk(element, events=("start", "end", "comment", "pi"))
    for event, node in walker:
        if event == "start":
            tag = node.tag
            if not isinstance(tag, str) or tag.lower() in dropped:
                walker.skip_subtree()  # a dropped element (or an entity): its tail stays
            elif node.text:
                add(node.text)
        elif node is not element and node.tail:
            add(node.tail)  # after the node's whole subtree; a comment's or PI's right away
    return " ".join(" ".join(parts).split())  # str.split cuts at what regex \s matches
