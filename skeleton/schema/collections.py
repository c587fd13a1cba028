"""Collections: runs of similar brother subtrees (Carchiolo et al., Section 2.2).

Brothers are primary nodes with the same primary parent. Two brothers are
similar when they have the same tag and the weighted distance of their
property vectors is at most ``SIMILARITY_THRESHOLD``: a weighted Euclidean
distance over (relative depth, absolute depth, number of levels, number of
leaves), where levels and leaves are compared relatively (|a - b| / max(a, b, 1))
and a different set of attribute names or another ``class`` adds
``ATTRIBUTE_PENALTY`` (the paper asks for the same attributes). The paper's
example (the same tag, absolute depth 4 vs 3, levels 2 vs 1, leaves 0 vs 1) is
similar. Consecutive similar brothers grow one collection; a dissimilar brother
(an ``<hr>`` between two runs of cells) ends it.

The page is then cut into collections top-down, iteratively: a run of two or
more similar brothers is a collection; a single node is one when it has
no primary child, or one and text of its own besides (a wrapper without text
of its own is looked through), is a terminal container (``TERMINAL_TAGS``: the head, a form,
a paragraph...) or when its primary children repeat one structure (a list, a
table of similar rows, a ``dl`` of alternating ``dt``/``dd``: one run, or a
periodic sequence of at most ``MAX_PATTERN`` kinds of child); otherwise its children are
examined in turn. Repeated members larger than ``MAX_MEMBER_SIZE`` primary
nodes (layout blocks that happen to look alike) are examined one by one.

Readings of Section 2.2 where it is not explicit: the weights and threshold of
the vector distance come from a report the paper cites ([20]) and are ours;
a run grows while each brother is similar to the previous one (the paper: "the
collection grows until other similar brother subtrees are found"); the paper
builds collections from the deepest primary nodes upwards; this cut goes
top-down (iterative, bounded) and, like the paper, makes a run of similar
brothers one collection rooted at their primary parent (the paper's collection
"rows 2 to 7, with the <tr> in row 2 as root").
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from lxml import etree

from .primary import PrimaryNode

__all__ = ["WEIGHTS", "SIMILARITY_THRESHOLD", "ATTRIBUTE_PENALTY", "TERMINAL_TAGS", "Collection",
           "MAX_PATTERN", "MAX_MEMBER_SIZE", "distance", "similar", "runs", "page_collections"]

#: Weights of (relative depth, absolute depth, levels, leaves).
WEIGHTS = (1.0, 0.5, 0.5, 0.25)
SIMILARITY_THRESHOLD = 1.5
ATTRIBUTE_PENALTY = 1.0
#: Primary nodes whose subtree is always one collection.
TERMINAL_TAGS = frozenset({"head", "form", "p", "a", "select", "input", "textarea", "button",
                           "iframe", "frame", "map", "hr", "pre", "area", "option"})

#: Kinds of child (tag and class) a repeated structure alternates at most.
MAX_PATTERN = 2
#: Members of a repeated structure have at most this many primary nodes.
MAX_MEMBER_SIZE = 60


@dataclass(eq=False)
class Collection:
    """A collection: either one primary node's subtree (``members == [root]``)
    or a run of similar brothers under the primary node ``root``."""

    root: etree._Element
    members: list[etree._Element]

    @property
    def single(self) -> bool:
        return len(self.members) == 1 and self.members[0] is self.root


def _relative(a: float, b: float) -> float:
    return abs(a - b) / max(a, b, 1.0)


def distance(a: PrimaryNode, b: PrimaryNode) -> float:
    """Weighted vector distance of two primary nodes (infinite for other tags)."""
    if a.tag != b.tag:
        return math.inf
    va, vb = a.vector(), b.vector()
    diffs = (va[0] - vb[0], va[1] - vb[1], _relative(va[2], vb[2]), _relative(va[3], vb[3]))
    total = sum(w * d * d for w, d in zip(WEIGHTS, diffs))
    if set(a.element.attrib) != set(b.element.attrib) or \
            a.element.get("class") != b.element.get("class"):
        total += ATTRIBUTE_PENALTY
    return math.sqrt(total)


def similar(a: PrimaryNode, b: PrimaryNode) -> bool:
    return distance(a, b) <= SIMILARITY_THRESHOLD


def runs(brothers: Sequence[PrimaryNode]) -> list[list[PrimaryNode]]:
    """Maximal runs of consecutive brothers, each similar to the previous one."""
    out: list[list[PrimaryNode]] = []
    for node in brothers:
        if out and similar(out[-1][-1], node):
            out[-1].append(node)
        else:
            out.append([node])
    return out


def _signature(node: PrimaryNode) -> tuple[str, str]:
    return node.tag, " ".join(sorted((node.element.get("class") or "").split()))


def _repeated(kids: Sequence[PrimaryNode]) -> bool:
    """Do the children repeat one structure (small members, one run or a short
    alternating pattern)?"""
    if len(kids) < 2 or any(k.size > MAX_MEMBER_SIZE for k in kids):
        return False
    if len(runs(kids)) == 1:
        return True
    kinds = [_signature(k) for k in kids]
    period = len(set(kinds))
    return (period <= MAX_PATTERN and len(kids) >= 2 * period
            and all(kind == kinds[i % period] for i, kind in enumerate(kinds)))


def _own_text(node: PrimaryNode, kid: PrimaryNode) -> bool:
    """Has ``node`` text outside its only primary child?"""
    whole = len("".join(str(node.element.xpath("string()")).split()))
    return whole > len("".join(str(kid.element.xpath("string()")).split()))


def page_collections(nodes: Sequence[PrimaryNode]) -> list[Collection]:
    """The page cut into collections, in document order."""
    out: list[tuple[int, Collection]] = []
    work: list[list[PrimaryNode]] = [[n for n in nodes if n.parent is None]]
    while work:
        for run in runs(work.pop()):
            first = run[0]
            if len(run) >= 2 and all(n.size <= MAX_MEMBER_SIZE for n in run):
                parent = first.parent.element if first.parent is not None else None
                root = parent if parent is not None else first.element.getparent()
                out.append((first.number, Collection(root if root is not None else first.element,
                                                     [n.element for n in run])))
                continue
            for node in run:
                kids = node.children
                if (not kids or node.tag in TERMINAL_TAGS or _repeated(kids)
                        or (len(kids) == 1 and _own_text(node, kids[0]))):
                    out.append((node.number, Collection(node.element, [node.element])))
                else:
                    work.append(kids)
    out.sort(key=lambda pair: pair[0])
    return [c for _, c in out]
