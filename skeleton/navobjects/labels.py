"""Block classes (paper Section 1) and hand labels of hyperlink blocks.

The four classes of a hyperlink block: navigation menu (site-level, static),
navigation list (page-dependent navigation), content hyperlinks (in the main
content) and other (ads, copyright, utilities).

Labelled pages of our own mark each block with a ``data-block`` attribute
whose value is a class name; a hyperlink belongs to the block of its innermost
marked ancestor (unmarked hyperlinks are "other", each its own block). This
module is the *label reader* only: the algorithm (``domtree``, ``clustering``,
``features``, ``svm``, ``detector``) never imports it and reads no attribute
but ``href``; :func:`strip_labels` removes the marks before a labelled page is
given to the algorithm anyway.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from ..web.dom import parse_html

__all__ = ["NAV_MENU", "NAV_LIST", "CONTENT", "OTHER", "CLASSES", "NAVIGATION", "LABEL_ATTRIBUTE",
           "LinkLabel", "read_labels", "strip_labels", "link_labels", "LabelledPage",
           "load_labelled_pages"]

NAV_MENU, NAV_LIST, CONTENT, OTHER = "nav_menu", "nav_list", "content", "other"
CLASSES = (NAV_MENU, NAV_LIST, CONTENT, OTHER)
#: the classes whose blocks are navigation objects
NAVIGATION = frozenset({NAV_MENU, NAV_LIST})
#: the attribute that marks a labelled block in our fixture pages
LABEL_ATTRIBUTE = "data-block"


@dataclass(frozen=True, slots=True)
class LinkLabel:
    """The true block of a hyperlink (an id unique in its page) and its class."""

    block: int
    cls: str


def read_labels(root: etree._Element | None,
                attribute: str = LABEL_ATTRIBUTE) -> dict[etree._Element, LinkLabel]:
    """``a[@href]`` element -> its label, from ``data-block`` marks (iterative)."""
    out: dict[etree._Element, LinkLabel] = {}
    if root is None:
        return out
    marks: dict[etree._Element, LinkLabel] = {}
    unmarked = 0
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        value = el.get(attribute)
        if value is not None:
            if value not in CLASSES:
                raise ValueError(f"unknown block class {value!r}")
            marks[el] = LinkLabel(len(marks), value)
        if el.tag == "a" and el.get("href") is not None:
            label = _innermost(el, marks)
            if label is None:
                unmarked += 1
                label = LinkLabel(-unmarked, OTHER)
            out[el] = label
    return out


def _innermost(el: etree._Element, marks: dict[etree._Element, LinkLabel]) -> LinkLabel | None:
    node = el
    while node is not None:
        if node in marks:
            return marks[node]
        node = node.getparent()
    return None


def strip_labels(root: etree._Element | None, attribute: str = LABEL_ATTRIBUTE) -> None:
    """Remove every label mark from the tree (in place)."""
    if root is None:
        return
    for el in root.iter():
        if isinstance(el.tag, str) and attribute in el.attrib:
            del el.attrib[attribute]


def link_labels(link_elements: Sequence[etree._Element],
                labels: dict[etree._Element, LinkLabel]) -> list[LinkLabel]:
    """The labels of hyperlinks in order (an unlabelled one: "other", its own block)."""
    out = []
    for k, el in enumerate(link_elements):
        out.append(labels.get(el) or LinkLabel(-1_000_000 - k, OTHER))
    return out


@dataclass
class LabelledPage:
    """A parsed page with its labels removed from the tree and kept aside."""

    name: str
    root: etree._Element
    labels: dict[etree._Element, LinkLabel]


def load_labelled_pages(folder: str | Path) -> Iterator[LabelledPage]:
    """Every ``*.html`` file under ``folder`` (sorted) as a labelled page."""
    for path in sorted(Path(folder).rglob("*.html")):
        root = parse_html(path.read_bytes())
        if root is None:
            continue
        labels = read_labels(root)
        strip_labels(root)
        yield LabelledPage(str(path.relative_to(folder)), root, labels)
