"""CHD-HD: clustering hyperlinks on the DOM tree (paper Section 3.4, Algorithm 1),
with the thresholds of Section 3.5 (equations (4) and (5)).

Algorithm 1 is written recursively in the paper; here the nodes are visited in
decreasing DFS index, which visits every child before its parent (children have
larger indices), so the results of CLUSTER(child) are ready when the parent is
processed and no recursion is needed.

Two points the pseudo-code leaves open, read as follows:

* ``s`` (the previous hyperlink block the gap is measured from, line 21) is the
  last child whose hyperlinks were added to ``cluster``. The pseudo-code sets it
  only on line 22, which leaves it on a child *without* hyperlinks when the first
  linked child is not the first child (or after line 17), where equation (2) is
  undefined; where the pseudo-code is defined, both readings agree.
* Line 32 adds ``cluster`` to C only when the node was split (``isOne`` false).
  A node that returns TRUE hands all its hyperlinks to its parent as one unit
  (lines 13-29 of the parent, and lines 36-37 at the root), so adding them here
  too would put every hyperlink in several clusters; the blocks form a partition,
  which ARI and AMI (Section 5.2.1) require.

``tcList`` is the list of children from the current cluster's start up to the
child examined (line 13 adds every child, linked or not, so the text between two
hyperlink blocks counts in their hyperlink density; line 29 restarts it with the
child that opens a new cluster). It is read as a set: when no split happens,
lines 13 and 29 both add ``cList[i]``, and counting its words twice would make
HD (equation (3)) depend on how often a child was appended.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lxml import etree

from .domtree import EPSILON, IndexedTree, hyperlink_density, index_tree

__all__ = ["BETA", "GAMMA", "Block", "neighbour_distances", "gap_threshold", "density_threshold",
           "cluster_hyperlinks", "chd_hd"]

#: the tradeoff parameter of equation (4) (Section 3.5.1: beta = 1)
BETA = 1.0
#: the tuning parameter of equation (5) (Section 3.5.2: gamma = 1 is CHD-HD, 0 is CHD)
GAMMA = 1.0


@dataclass(frozen=True, slots=True)
class Block:
    """A hyperlink block: hyperlinks ``lo .. hi-1`` of ``tree.links`` (a block is
    always a run of consecutive hyperlinks in DFS order), and ``container``, the
    node id of the smallest subtree holding it as whole children (the one child
    it comes from, or the node whose children it spans)."""

    lo: int
    hi: int
    container: int

    def __len__(self) -> int:
        return self.hi - self.lo

    @property
    def links(self) -> range:
        return range(self.lo, self.hi)


def neighbour_distances(tree: IndexedTree) -> list[int]:
    """S_h of Section 3.5.1: the DOM-tree distances between neighbouring hyperlinks."""
    idx = [tree.link_index(k) for k in range(len(tree.links))]
    return [b - a for a, b in zip(idx, idx[1:])]


def gap_threshold(distances: Sequence[int], beta: float = BETA) -> int:
    """Equation (4): sort DL = S_h + [0] decreasingly and take DL_i for the i that
    minimises DL_i / DL_1 + beta * i / length(DL) (the first such i on ties).

    DL keeps one value per pair of neighbouring hyperlinks (``length(DL)`` is
    "the number of values in DL", and i stands for the number of potential
    blocks: a threshold DL_i leaves fewer than i gaps above it). Section 3.5.1
    also calls S_h "the set" of distances, which could mean distinct values:
    ambiguous, the multiset is kept and ``benchmarks/navobjects.py`` measures
    the set reading too. With no distance, or all distances 0, the threshold is
    0; with beta = 1 and all distances equal it is 0 as well (DL_len = 0 scores
    exactly 1, DL_1 scores 1 + 1/len), so a page of evenly spaced links is split
    link by link, as equation (4) says."""
    dl = sorted([*distances, 0], reverse=True)
    if dl[0] <= 0:
        return 0
    n = len(dl)
    best_i = min(range(1, n + 1), key=lambda i: (dl[i - 1] / dl[0] + beta * i / n, i))
    return dl[best_i - 1]


def density_threshold(tree: IndexedTree, gamma: float = GAMMA, epsilon: float = EPSILON) -> float:
    """Equation (5): hdt = gamma * HD_B, HD_B the hyperlink density of ``<body>``."""
    if not len(tree):
        return 0.0
    return gamma * hyperlink_density(tree.anchor_words[0], tree.text_words[0], epsilon)


def cluster_hyperlinks(tree: IndexedTree, gt: float, hdt: float,
                       epsilon: float = EPSILON) -> list[Block]:
    """Algorithm 1: the cluster set C, in document order."""
    if not tree.links:
        return []
    one = [True] * len(tree)  # CLUSTER(node) of every node (TRUE for link-free ones)
    found: list[Block] = []
    for node in range(len(tree) - 1, -1, -1):
        kids = tree.children[node]
        if not kids or not tree.has_links(node):
            continue  # lines 2-3 (and a hyperlink leaf: no children, returns TRUE)
        is_one = True
        cluster: tuple[int, int, int, int] | None = None  # (lo, hi, first child, last child)
        tc_anchor = tc_words = 0
        for child in kids:
            tc_anchor += tree.anchor_words[child]  # line 13
            tc_words += tree.text_words[child]
            if not tree.has_links(child):
                continue
            if not one[child]:  # lines 15-18
                if cluster:
                    found.append(Block(cluster[0], cluster[1], _container(node, cluster)))
                is_one, cluster, tc_anchor, tc_words = False, None, 0, 0
                continue
            if cluster:  # lines 20-27
                g = tree.link_index(tree.link_lo[child]) - tree.link_index(cluster[1] - 1)
                hd = hyperlink_density(tc_anchor, tc_words, epsilon)
                if g > gt or hd < hdt:
                    found.append(Block(cluster[0], cluster[1], _container(node, cluster)))
                    is_one, cluster = False, None
                    tc_anchor, tc_words = tree.anchor_words[child], tree.text_words[child]  # line 29
            if cluster:  # line 28
                cluster = (cluster[0], tree.link_hi[child], cluster[2], child)
            else:
                cluster = (tree.link_lo[child], tree.link_hi[child], child, child)
        if not is_one and cluster:  # line 32
            found.append(Block(cluster[0], cluster[1], _container(node, cluster)))
        one[node] = is_one
    if one[0]:  # lines 36-38
        found.append(Block(0, len(tree.links), 0))
    found.sort(key=lambda b: b.lo)
    return found


def _container(node: int, cluster: tuple[int, int, int, int]) -> int:
    return cluster[2] if cluster[2] == cluster[3] else node


def chd_hd(root: etree._Element | IndexedTree | None, beta: float = BETA,
           gamma: float = GAMMA) -> tuple[IndexedTree, list[Block]]:
    """CHD-HD on a page: index it, learn gt (equation (4)) and hdt (equation (5))
    for this page, and run Algorithm 1. Returns the indexed tree and its blocks."""
    tree = root if isinstance(root, IndexedTree) else index_tree(root)
    gt = gap_threshold(neighbour_distances(tree), beta)
    return tree, cluster_hyperlinks(tree, gt, density_threshold(tree, gamma))
