"""Block expanding and condensing, WISDOM Phase 3 (paper Section 3.3, Figure 9).

* **DSTM** (direct sibling tree merging) adds, for a skeleton node S, every sibling
  S' that matches the type constraint with 0 < f_A(S') < f_A(S). Larger siblings
  were already visited by k-MIB.
* **k-CSTM** (collateral sibling tree merging) applies DSTM to P_k, the k-th
  *non-singleton ancestor* of S: walking up from S's parent, an ancestor counts
  when it has at least one non-dummy sibling, a dummy node being one with
  f_A = 0 (Section 3.3). P_k itself is not added; its qualified siblings are.
  The default expansion is DSTM then 1-CSTM.
* Blocks found twice, or inside another block of the same kind, are dropped, so
  the blocks of one kind never overlap.
* **Condensing** removes, top-down inside every block, the sub-trees that do not
  match the type constraint or whose f_A is 0 (layout tags). Sub-trees holding no
  content of the block's kind (no anchors for TOC, no context for article) are not
  listed: removing them changes nothing. For articles, CII is only judged on
  sub-trees with at least ``CONDENSE_MIN_TERMS`` terms, since the CII of a few
  terms is not reliable (Section 4.2).
"""
from __future__ import annotations

from skeleton.wisdom.constraints import (
    ARTICLE, CONDENSE_MIN_TERMS, WisdomParams, satisfies, search_feature,
)
from skeleton.wisdom.coverage import CoverageTree

__all__ = ["SKELETON", "DSTM", "CSTM", "dstm", "non_singleton_ancestors", "cstm", "expand",
           "condense"]

#: Origin labels of a block: found by k-MIB, merged by DSTM, merged by k-CSTM.
SKELETON = "mib"
DSTM = "dstm"
CSTM = "cstm"


def dstm(tree: CoverageTree, s: int, kind: str, params: WisdomParams) -> list[int]:
    """Qualified siblings of node ``s`` (document order)."""
    p = tree.nodes.parent[s] if 0 <= s < len(tree) else -1
    if p < 0:
        return []
    agg = tree.aggregated(search_feature(kind, params))
    return [c for c in tree.nodes.children[p]
            if c != s and 0.0 < agg[c] < agg[s] and satisfies(tree, c, kind, params)]


def non_singleton_ancestors(tree: CoverageTree, s: int, feature: str) -> list[int]:
    """P_1, P_2, ...: the ancestors of ``s`` with at least one non-dummy sibling."""
    parent, children = tree.nodes.parent, tree.nodes.children
    agg = tree.aggregated(feature)
    out = []
    a = parent[s] if 0 <= s < len(tree) else -1
    while a > 0:
        p = parent[a]
        if any(agg[c] > 0.0 for c in children[p] if c != a):
            out.append(a)
        a = p
    return out


def cstm(tree: CoverageTree, s: int, kind: str, params: WisdomParams, level: int = 1) -> list[int]:
    """k-CSTM with k = ``level``: DSTM applied to the level-th non-singleton ancestor."""
    ancestors = non_singleton_ancestors(tree, s, search_feature(kind, params))
    if level < 1 or len(ancestors) < level:
        return []
    return dstm(tree, ancestors[level - 1], kind, params)


def expand(tree: CoverageTree, skeleton: list[int], kind: str,
           params: WisdomParams) -> list[tuple[int, str]]:
    """The skeleton set expanded by DSTM and 1..``cstm_levels``-CSTM, without overlaps.

    Returns ``(node, origin)`` pairs in document order; the first origin found wins
    (skeleton before DSTM before CSTM).
    """
    origin: dict[int, str] = {}
    for s in skeleton:
        origin.setdefault(s, SKELETON)
    for s in skeleton:
        if params.dstm:
            for c in dstm(tree, s, kind, params):
                origin.setdefault(c, DSTM)
        for level in range(1, params.cstm_levels + 1):
            for c in cstm(tree, s, kind, params, level):
                origin.setdefault(c, CSTM)
    parent = tree.nodes.parent
    kept = []
    for node in sorted(origin):
        a = parent[node]
        while a >= 0 and a not in origin:
            a = parent[a]
        if a < 0:
            kept.append((node, origin[node]))
    return kept


def condense(tree: CoverageTree, block: int, kind: str, params: WisdomParams) -> list[int]:
    """Roots of the sub-trees removed from ``block`` (document order)."""
    agg = tree.aggregated(search_feature(kind, params))
    children = tree.nodes.children
    article = kind == ARTICLE
    # content() of the kind, inlined: this loop visits most nodes of every block
    held = tree.clen_a if article else tree.anchors_a
    terms = tree.term_count_a
    removed = []
    stack = children[block][::-1]
    while stack:
        c = stack.pop()
        if not held[c] > 0:
            continue
        judged = not article or terms[c] >= CONDENSE_MIN_TERMS
        if agg[c] <= 0.0 or (judged and not satisfies(tree, c, kind, params)):
            removed.append(c)
        else:
            stack.extend(children[c][::-1])
    return removed
