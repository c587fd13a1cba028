"""The information coverage tree, ICT (paper Section 3.2.1).

f_A(N) = f(N) + sum of f_A(n_j) over the children n_j of N, for f in
{ALEN, CLEN, API}, plus the anchor count and the term-weight sums from which the
content information index CII (Section 3.1.1) of any node is read in O(1). The
aggregation is one reverse pass over the document-order index of
:class:`~skeleton.wisdom.features.NodeFeatures` (every child comes after its
parent), so it is O(|N|) and never recurses. TLEN_A = ALEN_A + CLEN_A.

SII (Section 3.1.3) of the aggregated features is computed on demand, since only
the nodes that k-MIB visits need it. The children of N are its non-dummy element
children plus, when N owns text (for API: when N is an anchor), one *text child*
carrying N's own value: the DOM counts text nodes among a node's children, and
without it a paragraph holding one link would look like a one-child node. Two
choices where the paper is silent:

* when N's own value is at least every child's share, N cannot be split without
  losing that text: its SII is :data:`ATOMIC_SII` (it is a leaf block, as the
  paper's fine-grained article blocks are);
* otherwise a node with a single child has SII 0, so k-MIB passes through it.
"""
from __future__ import annotations

from dataclasses import dataclass

from skeleton.wisdom.features import NodeFeatures
from skeleton.wisdom.sii import structure_information

__all__ = ["FEATURES", "ATOMIC_SII", "CoverageTree", "build_coverage_tree"]

#: The node features of F = (ALEN, CLEN, API) (Table 1).
FEATURES = ("alen", "clen", "api")
#: SII given to a node whose own text holds the largest share of a feature.
ATOMIC_SII = 1.0


@dataclass(slots=True)
class CoverageTree:
    """F_A = (ALEN_A, CLEN_A, API_A) of every node, with anchor counts and CII."""

    nodes: NodeFeatures
    alen_a: list[float]
    clen_a: list[float]
    api_a: list[float]
    anchors_a: list[int]
    weight_sum_a: list[float]
    term_count_a: list[int]

    def __len__(self) -> int:
        return len(self.nodes)

    def own(self, feature: str) -> list:
        """The node feature f ('alen', 'clen' or 'api') of every node."""
        return getattr(self.nodes, _checked(feature))

    def aggregated(self, feature: str) -> list:
        """The aggregated feature f_A of every node."""
        return getattr(self, _checked(feature) + "_a")

    def tlen_a(self, i: int) -> float:
        """TLEN_A: length of the innerText of node ``i``."""
        return self.alen_a[i] + self.clen_a[i]

    def cii(self, i: int) -> float:
        """CII (Section 3.1.1): mean weight W of the terms in the innerText (0 if none)."""
        count = self.term_count_a[i]
        return self.weight_sum_a[i] / count if count else 0.0

    def mean_api(self, i: int) -> float:
        """API_A / number of anchors in T(N): the TOC type-constraint value (0 if none)."""
        count = self.anchors_a[i]
        return self.api_a[i] / count if count else 0.0

    def sii(self, i: int, feature: str) -> float:
        """SII(N, f_A) over the children of ``i`` (and its own text child)."""
        own = self.own(feature)[i]
        agg = self.aggregated(feature)
        values = [agg[c] for c in self.nodes.children[i]]
        largest = max(values, default=0.0)
        if own > 0.0:
            if own >= largest:
                return ATOMIC_SII
            values.append(own)
        return structure_information(values)


def build_coverage_tree(nodes: NodeFeatures) -> CoverageTree:
    """Aggregate the node features bottom-up (one reverse pass, O(|N|))."""
    alen = [float(v) for v in nodes.alen]
    clen = [float(v) for v in nodes.clen]
    api = list(nodes.api)
    anchors = [1 if a else 0 for a in nodes.anchor]
    wsum = list(nodes.weight_sum)
    terms = list(nodes.term_count)
    parent = nodes.parent
    for i in range(len(parent) - 1, 0, -1):
        p = parent[i]
        alen[p] += alen[i]
        clen[p] += clen[i]
        api[p] += api[i]
        anchors[p] += anchors[i]
        wsum[p] += wsum[i]
        terms[p] += terms[i]
    return CoverageTree(nodes, alen, clen, api, anchors, wsum, terms)


def _checked(feature: str) -> str:
    if feature not in FEATURES:
        raise ValueError(f"feature must be one of {FEATURES}, not {feature!r}")
    return feature
