"""Primary nodes and their properties (Carchiolo, Longheu, Malgeri, "Extracting
Logical Schema from the Web", Section 2.2).

The page is a tree of HTML elements. Primary nodes are the elements with a
structuring role: the paper's list (``PAPER_PRIMARY_TAGS``) plus, as an
extension for pages written after 2000, the block containers that modern
layouts use in place of tables (``LAYOUT_PRIMARY_TAGS``). Each primary node
has:

* relative depth: the number of primary ancestors (from 0);
* absolute depth: the number of ancestors from ``<html>`` (from 0);
* number of levels: the average depth of its leaf elements below it;
* number of leaves: the leaf children it directly contains (elements without
  element children, and runs of text), counted only when every child is a
  leaf, else 0.

Its primary parent is its nearest primary ancestor (other nodes may lie in
between). The tree is built with one iterative walk: 5 000 levels of nesting
never reach Python's recursion limit.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree

__all__ = ["PAPER_PRIMARY_TAGS", "LAYOUT_PRIMARY_TAGS", "PRIMARY_TAGS", "MAX_PRIMARY_NODES",
           "PrimaryNode", "primary_nodes"]

#: Section 2.2: "table, p, map, hr, a, frame, iframe, head, form, select, input,
#: td, tr, option, area".
PAPER_PRIMARY_TAGS = frozenset({"table", "p", "map", "hr", "a", "frame", "iframe", "head", "form",
                                "select", "input", "td", "tr", "option", "area"})
#: Extension: the containers of table-less layouts (lists and HTML5 sections).
LAYOUT_PRIMARY_TAGS = frozenset({"body", "div", "ul", "ol", "li", "dl", "dt", "dd", "nav",
                                 "header", "footer", "main", "section", "article", "aside",
                                 "textarea", "button", "th", "pre", "blockquote"})
PRIMARY_TAGS = PAPER_PRIMARY_TAGS | LAYOUT_PRIMARY_TAGS
#: Primary nodes beyond this many are not modelled (a partial page model).
MAX_PRIMARY_NODES = 50_000


@dataclass(eq=False)
class PrimaryNode:
    """A primary node: its element, properties and primary children."""

    element: etree._Element
    tag: str
    number: int
    relative_depth: int
    absolute_depth: int
    parent: PrimaryNode | None
    levels: float = 0.0
    leaves: int = 0
    #: primary nodes in its subtree, itself included
    size: int = 1
    children: list[PrimaryNode] = field(default_factory=list)

    def vector(self) -> tuple[float, float, float, float]:
        """(relative depth, absolute depth, number of levels, number of leaves)."""
        return (float(self.relative_depth), float(self.absolute_depth), self.levels,
                float(self.leaves))


def _tag(el: etree._Element) -> str:
    return el.tag.lower() if isinstance(el.tag, str) else ""


def _has_text(text: str | None) -> bool:
    return bool(text and text.strip())


class _Frame:
    __slots__ = ("node", "leaf_count", "leaf_depths", "children", "leaf_children", "depth")

    def __init__(self, node: PrimaryNode | None, depth: int) -> None:
        self.node = node
        self.depth = depth
        self.leaf_count = 0
        self.leaf_depths = 0
        self.children = 0
        self.leaf_children = 0


def primary_nodes(root: etree._Element | None,
                  limit: int = MAX_PRIMARY_NODES) -> list[PrimaryNode]:
    """The primary nodes of a page in document order, with their properties
    and primary children (top-level ones have ``parent`` None)."""
    if root is None:
        return []
    nodes: list[PrimaryNode] = []
    frames: list[_Frame] = []
    primaries: list[PrimaryNode] = []
    for event, el in etree.iterwalk(root, events=("start", "end")):
        tag = _tag(el)
        if event == "start":
            node = None
            if tag in PRIMARY_TAGS and len(nodes) < limit:
                parent = primaries[-1] if primaries else None
                node = PrimaryNode(el, tag, len(nodes), len(primaries), len(frames), parent)
                nodes.append(node)
                if parent is not None:
                    parent.children.append(node)
                primaries.append(node)
            if frames:
                frames[-1].children += 1
            frames.append(_Frame(node, len(frames)))
            continue
        frame = frames.pop()
        if frame.children == 0:  # a leaf element
            frame.leaf_count, frame.leaf_depths = 1, frame.depth
        node = frame.node
        if node is not None:
            primaries.pop()
            below = frame.leaf_depths / frame.leaf_count - frame.depth if frame.leaf_count else 0.0
            node.levels = round(below, 4)
            if frame.children == frame.leaf_children:
                texts = _has_text(el.text) + sum(_has_text(c.tail) for c in el)
                node.leaves = frame.children + texts
        if frames:
            parent_frame = frames[-1]
            parent_frame.leaf_count += frame.leaf_count
            parent_frame.leaf_depths += frame.leaf_depths
            if frame.children == 0:
                parent_frame.leaf_children += 1
    for node in reversed(nodes):  # children come after their parent in document order
        if node.parent is not None:
            node.parent.size += node.size
    return nodes
