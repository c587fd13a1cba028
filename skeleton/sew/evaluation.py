"""Scoring a skeleton against a true tree (SEW Section 4.2, plus edge measures).

The paper's measures: precision, recall and F1 of the pages found, for depth
limits 1, 2, 3 and unlimited. Because the structure is what matters, the same for
parent-child edges. Pages the truth deliberately leaves out of its tree (indexes,
search pages, stubs) are not counted as false positives.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

__all__ = ["DEPTH_LIMITS", "PRF", "Score", "prf", "tree_depths", "score_tree"]

DEPTH_LIMITS: tuple[int | None, ...] = (1, 2, 3, None)


@dataclass(frozen=True)
class PRF:
    precision: float
    recall: float
    f1: float
    found: int
    true: int

    def as_dict(self) -> dict:
        return {"precision": round(self.precision, 4), "recall": round(self.recall, 4),
                "f1": round(self.f1, 4), "found": self.found, "true": self.true}


def prf(found: set, true: set, ignore: set = frozenset()) -> PRF:
    counted = found - (ignore - true)
    tp = len(counted & true)
    p = tp / len(counted) if counted else (1.0 if not true else 0.0)
    r = tp / len(true) if true else 1.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return PRF(p, r, f, len(counted), len(true))


def tree_depths(root: str, edges: Iterable[tuple[str, str]]) -> dict[str, int]:
    """Depth of every node reachable from ``root`` (breadth-first, loop-safe)."""
    children: dict[str, list[str]] = {}
    for parent, child in edges:
        children.setdefault(parent, []).append(child)
    depth = {root: 0}
    queue = [root]
    for node in queue:
        for child in children.get(node, ()):
            if child not in depth:
                depth[child] = depth[node] + 1
                queue.append(child)
    return depth


@dataclass
class Score:
    pages: dict[str, PRF]
    edges: dict[str, PRF]

    def as_dict(self) -> dict:
        return {"pages": {k: v.as_dict() for k, v in self.pages.items()},
                "edges": {k: v.as_dict() for k, v in self.edges.items()}}


def _label(limit: int | None) -> str:
    return "all" if limit is None else str(limit)


def score_tree(found_root: str, found_edges: Iterable[tuple[str, str]], true_root: str,
               true_edges: Iterable[tuple[str, str]], ignore: Iterable[str] = (),
               same: Mapping[str, str] | None = None) -> Score:
    """Page and edge precision/recall/F1 at each depth limit.

    ``same`` maps found URLs to truth URLs where they differ (e.g. normalization);
    ``ignore`` lists pages deliberately outside the true tree.
    """
    norm = (lambda u: same.get(u, u)) if same else (lambda u: u)
    f_edges = {(norm(p), norm(c)) for p, c in found_edges}
    t_edges = set(true_edges)
    f_depth = tree_depths(norm(found_root), f_edges)
    t_depth = tree_depths(true_root, t_edges)
    ignored = set(ignore)
    pages, edges = {}, {}
    for limit in DEPTH_LIMITS:
        ok = (lambda d: True) if limit is None else (lambda d, lim=limit: d <= lim)
        fp = {u for u, d in f_depth.items() if ok(d)}
        tp = {u for u, d in t_depth.items() if ok(d)}
        pages[_label(limit)] = prf(fp, tp, ignored)
        fe = {(p, c) for p, c in f_edges if c in f_depth and ok(f_depth[c])}
        te = {(p, c) for p, c in t_edges if c in t_depth and ok(t_depth[c])}
        ignored_edges = {e for e in fe if e[1] in ignored and e[1] not in t_depth}
        edges[_label(limit)] = prf(fe, te, ignored_edges)
    return Score(pages, edges)
