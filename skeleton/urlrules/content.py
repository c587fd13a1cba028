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

__all__ = ["MAIN_XPATH", "DROPPED_TAGS", "main_element", "main_text", "content_text"]

#: the first ``<main>``, ``role="main"``, ``#content`` or ``#main``: name and attribute
#: tests (``//@id[...]/..``), three times cheaper in libxml2 than a predicate on ``//*``
MAIN_XPATH = '(//main | //*[@role = "main" or @id = "content" or @id = "main"])[1]'
#: elements whose text is not the page's content
DROPPED_TAGS = frozenset({"script", "style", "noscript", "template", "nav", "aside", "form", "select",
                          "button", "textarea"})
_MAIN = etree.XPath(MAIN_XPATH)
#: the attribute values MAIN_XPATH looks for (role, id)
_MAIN_VALUES = ("main", "content")
_DROPPED = tuple(sorted(DROPPED_TAGS))


def main_element(root: etree._Element, attributes: str | None = None) -> etree._Element:
    """The element holding the page's main content. ``attributes``: the page's
    :func:`skeleton.web.dom.attribute_text`, if the caller has it (without an
    attribute value "main" or "content", only a ``<main>`` can be one)."""
    articles = list(islice(root.iter("article"), 2))
    if len(articles) == 1:
        return articles[0]
    if attributes is not None and not any(
            value == attributes or attributes.startswith(f"{value}\n")
            or attributes.endswith(f"\n{value}") or f"\n{value}\n" in attributes
            for value in _MAIN_VALUES):  # a whole value, as the XPath compares them
        main = next(root.iter("main"), None)
        return main if main is not None else next(root.iter("body"), root)
    found = _MAIN(root)
    if found:
        return found[0]
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


def content_text(element: etree._Element, dropped: frozenset[str] = DROPPED_TAGS) -> str:
    """The text of ``element`` without the ``dropped`` elements, whitespace-normalized,
    serialized by libxml2 (``method="text"``): the text of :func:`main_text`, except
    that adjacent text pieces are not separated (``a<b>b</b>`` reads ``ab``), at a
    third of its cost, for hashing.

    The dropped elements are swapped for empty comments during the serialization and
    put back, tails included, before it returns (also on error): the tree is left as
    it was, but must not be read by another thread meanwhile."""
    tag = element.tag
    if not isinstance(tag, str) or tag.lower() in dropped:
        return ""
    tags = _DROPPED if dropped is DROPPED_TAGS else tuple(dropped)
    swapped: list[tuple[etree._Element, etree._Element, etree._Element, str | None]] = []
    try:
        for node in list(element.iter(*tags)):  # outer ones first: inner ones go with them
            parent = node.getparent()
            if parent is None or node is element:
                continue
            stand_in, tail = etree.Comment(), node.tail
            parent.replace(node, stand_in)
            stand_in.tail = tail
            swapped.append((parent, node, stand_in, tail))
        text = etree.tostring(element, method="text", encoding=str, with_tail=False)
    finally:
        for parent, node, stand_in, tail in reversed(swapped):
            parent.replace(stand_in, node)
            node.tail = tail
    return " ".join(text.split())
