"""The paper's block measures (Section 4.1, Table 3): SNC and IC.

* **SNC** (significant node coverage, for TOC blocks) counts the anchor nodes
  covered by both the answer blocks and the output blocks.
* **IC** (information coverage, for article blocks) counts the context length
  (non-anchor text, CLEN) covered by both.

With AW the amount in both, AO in the answer only and WO in the output only,
P = AW / (AW + WO) and R = AW / (AW + AO) (``None`` when undefined).
A set of blocks covers the sub-trees of its roots minus the sub-trees of its
excluded (condensed) nodes.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from skeleton.wisdom.features import NodeFeatures

__all__ = ["Overlap", "coverage_mask", "overlap", "node_amounts"]


@dataclass
class Overlap:
    """AW, AO and WO of one comparison (additive over pages)."""

    aw: float = 0.0
    ao: float = 0.0
    wo: float = 0.0

    def __add__(self, other: "Overlap") -> "Overlap":
        return Overlap(self.aw + other.aw, self.ao + other.ao, self.wo + other.wo)

    @property
    def precision(self) -> float | None:
        return self.aw / (self.aw + self.wo) if self.aw + self.wo > 0 else None

    @property
    def recall(self) -> float | None:
        return self.aw / (self.aw + self.ao) if self.aw + self.ao > 0 else None

    @property
    def f1(self) -> float | None:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p is not None and r is not None and p + r > 0 else None


def coverage_mask(nodes: NodeFeatures, roots: Iterable[int], excluded: Iterable[int] = ()) -> list[bool]:
    """For every node: is it inside a root's sub-tree and outside every excluded one?"""
    roots, excluded = set(roots), set(excluded)
    parent = nodes.parent
    mask = [False] * len(parent)
    for i, p in enumerate(parent):  # document order: parents first
        if i in excluded:
            continue
        mask[i] = i in roots or (p >= 0 and mask[p])
    return mask


def node_amounts(nodes: NodeFeatures, measure: str) -> list[float]:
    """Per-node amount counted by ``measure``: 'ic' (own CLEN) or 'snc' (1 per anchor)."""
    if measure == "ic":
        return [float(v) for v in nodes.clen]
    if measure == "snc":
        return [1.0 if a else 0.0 for a in nodes.anchor]
    raise ValueError("measure must be 'ic' or 'snc'")


def overlap(amounts: Sequence[float], answer: Sequence[bool], output: Sequence[bool]) -> Overlap:
    """AW, AO, WO of two coverage masks weighted by ``amounts``."""
    result = Overlap()
    for amount, a, w in zip(amounts, answer, output):
        if not amount:
            continue
        if a and w:
            result.aw += amount
        elif a:
            result.ao += amount
        elif w:
            result.wo += amount
    return result
