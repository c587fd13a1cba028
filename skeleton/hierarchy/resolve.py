"""One tree for a crawl: every fetched page's parent chosen from all the evidence.

``resolve_tree`` scores every candidate edge (:mod:`.features`, :mod:`.scoring`)
and takes the maximum spanning arborescence (:mod:`.arborescence`). ``scrapy
tree``, ``scrapy evaluate``, the exports and the tree stored when a crawl
finishes all come from it, so they agree on every page's parent and depth.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .arborescence import best_tree, tree_depths
from .features import candidate_edges
from .scoring import edge_weights

__all__ = ["resolve_tree"]


def resolve_tree(root: str, pages: Mapping[str, Mapping[str, Any]],
                 offers: Mapping[str, Sequence[Mapping[str, Any]]],
                 edge_model: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
    """child URL -> ``{"parent", "depth"}`` for every fetched page reachable from
    ``root`` through the offers (the root itself is not a key)."""
    if root not in pages:
        return {}
    cands = candidate_edges(root, pages, offers)
    weights = edge_weights(cands.rows, edge_model)
    parents = best_tree(root, ((p, c, w) for (p, c), w in zip(cands.edges, weights)))
    depths = tree_depths(root, parents)
    return {child: {"parent": parent, "depth": depths.get(child, 0)}
            for child, parent in sorted(parents.items())}
