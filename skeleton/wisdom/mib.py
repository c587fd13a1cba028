"""k-maximum informative block mining, k-MIB (paper Section 3.2.2, Figure 8).

MIB(k, f_A, ST) is a greedy top-down search of the information coverage tree.
A max-heap holds the frontier, ordered by f_A (ties: document order). The node N
with the largest f_A is taken out:

* if SII(N, f_A) >= ST, its children share f_A evenly, so N is the root of a
  candidate block; if N also matches the type constraint it joins the skeleton
  set (and the search does not enter it);
* otherwise (the information is concentrated in a few children, or N failed the
  type constraint) its children with f_A > 0 join the frontier.

The search stops with k skeleton nodes or an empty frontier. Skeleton nodes are
never ancestors of one another. Choice where the paper is terse: a uniform node
that fails the type constraint is split rather than dropped with its sub-tree, so
that a uniform mix of a block and noise (two columns of similar size, say) does
not hide the block. Every node enters the heap at most once: O(|N| log |N|),
no recursion.
"""
from __future__ import annotations

import heapq

from skeleton.wisdom.constraints import WisdomParams, satisfies, search_feature
from skeleton.wisdom.coverage import CoverageTree

__all__ = ["k_mib"]


def k_mib(tree: CoverageTree, kind: str, params: WisdomParams = WisdomParams()) -> list[int]:
    """Indices of at most ``params.k`` skeleton nodes of ``kind``, best first."""
    feature = search_feature(kind, params)
    if not len(tree) or params.k == 0:
        return []
    agg = tree.aggregated(feature)
    children = tree.nodes.children
    if not agg[0] > 0.0:
        return []
    heap: list[tuple[float, int]] = [(-agg[0], 0)]
    skeleton: list[int] = []
    while heap and len(skeleton) < params.k:
        _, i = heapq.heappop(heap)
        if tree.sii(i, feature) >= params.st and satisfies(tree, i, kind, params):
            skeleton.append(i)
            continue
        for c in children[i]:
            if agg[c] > 0.0:
                heapq.heappush(heap, (-agg[c], c))
    return skeleton
