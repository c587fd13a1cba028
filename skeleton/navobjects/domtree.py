"""The indexed DOM tree of CHD-HD (navigation objects paper, Sections 3.1 to 3.3).

The page is traversed depth-first from ``<body>`` (the paper's root, Section
3.5.2) and every node met is numbered from 1 (Section 3.2). Nodes are elements,
non-blank text nodes (an element's ``text`` and each child's ``tail``) and
hyperlinks. A hyperlink is an ``a`` element with an ``href`` (Section 5.3 takes
every ``a``; an ``a`` without ``href`` is no link for the crawler, so it stays an
ordinary element here) and it is a *leaf*: what it contains is its anchor text,
not further nodes (Figure 4 draws hyperlinks as leaves).

The traversal is iterative (an explicit stack): a page nested 5 000 levels deep
costs no recursion. Only tag names, text and the presence of ``href`` are read,
never a ``class``, ``id`` or any other attribute.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from lxml import etree

__all__ = ["EPSILON", "SKIPPED_TAGS", "IndexedTree", "index_tree", "dom_distance", "gap",
           "hyperlink_density", "words"]

#: the smoothing parameter of equation (3)
EPSILON = 1e-10
#: elements whose text is not displayed text: indexed as nodes, their text not counted
SKIPPED_TAGS = frozenset({"script", "style", "noscript", "template", "head", "title"})
_NO_PARENT = -1


def words(text: str | None) -> int:
    """Number of whitespace-separated words (the unit of equation (3))."""
    return len(text.split()) if text else 0


@dataclass
class IndexedTree:
    """A DOM tree numbered depth-first, as parallel arrays over node ids.

    Node ids are ``index - 1`` (DFS index 1 is id 0). For every node:
    ``parent``, ``children`` (in document order), ``text_words`` (all words in
    its subtree), ``anchor_words`` (words of hyperlink anchors in its subtree),
    and ``link_lo``/``link_hi``: its hyperlinks are ``links[link_lo:link_hi]``
    (a subtree's hyperlinks are contiguous in DFS order). ``links`` holds the
    node ids of the hyperlinks in DFS order, ``link_elements`` their ``a``
    elements and ``anchor_texts`` their whitespace-collapsed anchor text.
    """

    parent: list[int] = field(default_factory=list)
    children: list[list[int]] = field(default_factory=list)
    text_words: list[int] = field(default_factory=list)
    anchor_words: list[int] = field(default_factory=list)
    link_lo: list[int] = field(default_factory=list)
    link_hi: list[int] = field(default_factory=list)
    element: list[etree._Element | None] = field(default_factory=list)
    links: list[int] = field(default_factory=list)
    link_elements: list[etree._Element] = field(default_factory=list)
    anchor_texts: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.parent)

    def index(self, node: int) -> int:
        """The DFS index of a node id (1-based, Section 3.2)."""
        return node + 1

    def link_index(self, k: int) -> int:
        """DFS index of the k-th hyperlink (0-based, in document order)."""
        return self.links[k] + 1

    def has_links(self, node: int) -> bool:
        return self.link_hi[node] > self.link_lo[node]

    def _add(self, parent: int, el: etree._Element | None, text_words: int = 0,
             anchor_words: int = 0) -> int:
        node = len(self.parent)
        self.parent.append(parent)
        self.children.append([])
        self.text_words.append(text_words)
        self.anchor_words.append(anchor_words)
        self.link_lo.append(len(self.links))
        self.link_hi.append(len(self.links))
        self.element.append(el)
        if parent != _NO_PARENT:
            self.children[parent].append(node)
        return node


def _is_link(el: etree._Element) -> bool:
    return el.tag == "a" and el.get("href") is not None


def _tag(el: etree._Element) -> str | None:
    tag = el.tag
    return tag.lower() if isinstance(tag, str) else None


def _text_leaf(tree: IndexedTree, parent: int, text: str | None) -> None:
    n = words(text)
    if n:
        tree._add(parent, None, n)
        tree.text_words[parent] += n  # the parent is still open: it propagates it on closing


def _body(root: etree._Element) -> etree._Element:
    if _tag(root) == "body":
        return root
    for el in root.iter("body"):
        return el
    return root


def index_tree(root: etree._Element | None) -> IndexedTree:
    """Number the page's nodes depth-first from ``<body>`` (Sections 3.1, 3.2)."""
    tree = IndexedTree()
    if root is None or _tag(root) is None:
        return tree
    start = _body(root)
    top = tree._add(_NO_PARENT, start)
    # stack of (node id, element, iterator over the element's children)
    stack: list[tuple[int, etree._Element, object]] = []
    if _is_link(start):
        _finish_link(tree, top, start)
    else:
        if _tag(start) not in SKIPPED_TAGS:
            _text_leaf(tree, top, start.text)
            stack.append((top, start, iter(start)))
    while stack:
        node, el, it = stack[-1]
        child = next(it, None)  # type: ignore[call-overload]
        if child is None:
            stack.pop()
            _close(tree, node)
            if stack:
                _text_leaf(tree, stack[-1][0], el.tail)
            continue
        tag = _tag(child)
        if tag is None:  # comment or processing instruction: only its tail is text
            _text_leaf(tree, node, child.tail)
            continue
        cid = tree._add(node, child)
        if _is_link(child):
            _finish_link(tree, cid, child)
            _text_leaf(tree, node, child.tail)
        elif tag in SKIPPED_TAGS:
            _text_leaf(tree, node, child.tail)
        else:
            _text_leaf(tree, cid, child.text)
            stack.append((cid, child, iter(child)))
    return tree


def _finish_link(tree: IndexedTree, node: int, el: etree._Element) -> None:
    text = " ".join("".join(el.itertext()).split())
    n = words(text)
    tree.text_words[node] = tree.anchor_words[node] = n
    tree.links.append(node)
    tree.link_elements.append(el)
    tree.anchor_texts.append(text)
    tree.link_hi[node] = len(tree.links)
    _propagate(tree, node)


def _close(tree: IndexedTree, node: int) -> None:
    """An element's subtree is complete: its counts flow into its parent."""
    tree.link_hi[node] = len(tree.links)
    _propagate(tree, node)


def _propagate(tree: IndexedTree, node: int) -> None:
    parent = tree.parent[node]
    if parent != _NO_PARENT:
        tree.text_words[parent] += tree.text_words[node]
        tree.anchor_words[parent] += tree.anchor_words[node]


def dom_distance(tree: IndexedTree, l1: int, l2: int) -> int:
    """Equation (1): DD(l1, l2) = |index(l1) - index(l2)| for hyperlinks given by
    their position in ``tree.links``."""
    return abs(tree.link_index(l1) - tree.link_index(l2))


def gap(tree: IndexedTree, b1: Sequence[int], b2: Sequence[int]) -> int:
    """Equation (2): the smallest DOM-tree distance between a hyperlink of ``b1``
    and one of ``b2`` (blocks as positions in ``tree.links``)."""
    if not b1 or not b2:
        raise ValueError("gap of an empty block")
    first, second = sorted(tree.link_index(k) for k in b1), sorted(tree.link_index(k) for k in b2)
    # the closest pair is found by merging the two sorted index lists
    best, i, j = abs(first[0] - second[0]), 0, 0
    while i < len(first) and j < len(second):
        best = min(best, abs(first[i] - second[j]))
        if first[i] < second[j]:
            i += 1
        else:
            j += 1
    return best


def hyperlink_density(anchor_words: int, all_words: int, epsilon: float = EPSILON) -> float:
    """Equation (3): HD(S) = (#anchor words + eps) / (#all words + eps)."""
    return (anchor_words + epsilon) / (all_words + epsilon)
