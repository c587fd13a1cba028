"""One tree for a crawl: every fetched page's parent chosen from all the evidence.

``resolve_tree`` folds the pages of a paginated listing into its first page
(:mod:`.pagination`), scores every candidate edge (:mod:`.features`,
:mod:`.scoring`), takes the maximum spanning arborescence (:mod:`.arborescence`)
and removes the views: listings that file none of what they list
(:mod:`.views`); form pages and language copies are no nodes. ``scrapy
tree``, ``scrapy evaluate``, the exports and the tree stored when a crawl
finishes all come from it, so they agree on every page's parent and depth.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .arborescence import best_tree, tree_depths
from .features import FEATURES, candidate_edges
from .scoring import edge_weights
from .views import view_pages

__all__ = ["FAILED_REASON", "NOT_NODES", "resolve_tree"]

#: page ``reason`` of a page that failed for good (an HTTP error after retries, a
#: timeout, a DNS or connection error; its record's ``status`` says which): a node,
#: placed under a page that offered it; it offers nothing itself, so it is a leaf
#: unless other pages file pages under it (a nested list, a breadcrumb)
FAILED_REASON = "failed"

#: page ``reason``s of pages that are never nodes: a page that answers with a form
#: only (:func:`skeleton.urlrules.actions.form_only`) and a copy of the site in
#: another language (:mod:`skeleton.urlrules.language`)
NOT_NODES = frozenset({"form", "language"})


def resolve_tree(root: str, pages: Mapping[str, Mapping[str, Any]],
                 offers: Mapping[str, Sequence[Mapping[str, Any]]],
                 edge_model: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
    """child URL -> ``{"parent", "depth"}`` for every fetched page reachable from
    ``root`` through the offers (the root itself is not a key), except the later
    pages of a paginated listing and the views, which are no nodes, and the pages
    whose ``reason`` is in ``NOT_NODES``. A page that failed (``FAILED_REASON``) is a
    node like any other: it has no offers, evidence or links of its own, so it is
    placed by the offers of the pages that linked it, and a page another page files
    under it (a nested list, a breadcrumb) may hang from it."""
    if root not in pages:
        return {}
    pages = {url: page for url, page in pages.items()
             if url == root or not isinstance(page, Mapping) or page.get("reason") not in NOT_NODES}
    cands = candidate_edges(root, pages, offers)
    weights = edge_weights(cands.rows, edge_model)
    parents = best_tree(root, ((p, c, w) for (p, c), w in zip(cands.edges, weights)))
    named = FEATURES.index("named")
    placed = {child for (parent, child), row in zip(cands.edges, cands.rows)
              if row[named] and parents.get(child) == parent}
    for view in view_pages(root, parents, cands.offers, placed):
        del parents[view]
    depths = tree_depths(root, parents)
    return {child: {"parent": parent, "depth": depths.get(child, 0)}
            for child, parent in sorted(parents.items())}
