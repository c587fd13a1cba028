"""One tree for a crawl: every fetched page's parent chosen from all the evidence.

``resolve_tree`` folds the pages of a paginated listing into its first page
(:mod:`.pagination`), scores every candidate edge (:mod:`.features`,
:mod:`.scoring`), takes the maximum spanning arborescence (:mod:`.arborescence`),
hangs each leaf from the innermost section that lists it (:mod:`.innermost`)
or from the section that lists it in a folder holding it (:mod:`.folder_listings`)
and removes the views: listings that file none of what they list
(:mod:`.views`); form pages and language copies are no nodes. ``scrapy
tree``, ``scrapy evaluate``, the exports and the tree stored when a crawl
finishes all come from it, so they agree on every page's parent and depth.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from .arborescence import best_tree, tree_depths
from .facts import FAILED_REASON, NOT_FOUND, NOT_NODES, OfferFacts, PageFacts, offer_facts, page_facts
from .features import EdgeRows
from .folder_listings import folder_listing_parents
from .innermost import declared_elsewhere, innermost_parents, site_menus
from .scoring import EdgeModel, model_weights
from .views import listed_views, listing_items

__all__ = ["BATCH", "FAILED_REASON", "NOT_FOUND", "NOT_NODES", "resolve_facts", "resolve_tree"]

#: candidate edges made and scored together (their rows are freed once scored)
BATCH = 1024


def resolve_tree(root: str, pages: Mapping[str, Mapping[str, Any]],
                 offers: Mapping[str, Sequence[Mapping[str, Any]]],
                 edge_model: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
    """child URL -> ``{"parent", "depth"}`` for every fetched page reachable from
    ``root`` through the offers (the root itself is not a key), except the later
    pages of a paginated listing and the views, which are no nodes, and the pages
    whose ``reason`` is in ``NOT_NODES``. A page that failed (``FAILED_REASON``) is a
    node like any other, unless the site answered it with Not Found or Gone
    (``NOT_FOUND``: a broken link, no page): it has no offers, evidence or links of its own, so it is
    placed by the offers of the pages that linked it, and a page another page files
    under it (a nested list, a breadcrumb) may hang from it.

    Reads only the facts of the records and offers (:mod:`.facts`):
    :func:`resolve_facts` gives the same tree from them."""
    return resolve_facts(root, {url: page_facts(url, record) for url, record in pages.items()},
                         {child: [offer_facts(o) for o in os_] for child, os_ in offers.items()},
                         edge_model)


def resolve_facts(root: str, pages: dict[str, PageFacts], offers: dict[str, list[OfferFacts]],
                  edge_model: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
    """:func:`resolve_tree` from the facts of the crawl's pages (URL ->
    :class:`.facts.PageFacts`) and offers (child URL -> its
    :class:`.facts.OfferFacts`). Takes ``pages`` and ``offers`` over: they are
    changed and emptied while it runs, so that a crawl's memory is given back as
    its edges are scored (the rows are made and scored ``BATCH`` edges at a time)."""
    if root not in pages:
        return {}
    for url in [url for url, facts in pages.items() if url != root and not facts.node]:
        del pages[url]
    source = EdgeRows(root, pages, offers)  # type: ignore[arg-type]
    listings = listing_items(offers)
    folders = source.folder
    declared = declared_elsewhere(pages, folders)
    menus = site_menus(root, pages)
    model = EdgeModel.from_dict(edge_model) if edge_model else None
    named: dict[str, tuple[str, ...]] = {}  # child -> the candidates its evidence names
    shared: dict[tuple[str, ...], tuple[str, ...]] = {}  # equal tuples of named candidates, one object

    def weighted() -> Iterator[tuple[str, str, float]]:
        batch: list[tuple[str, str]] = []
        rows: list[list[float]] = []
        for child, parents, child_rows, names in source.rows():
            batch += [(parent, child) for parent in parents]
            rows += child_rows
            if any(names):
                chosen = tuple(p for p, n in zip(parents, names) if n)
                named[child] = shared.setdefault(chosen, chosen)
            if len(rows) >= BATCH:
                yield from _scored(batch, rows, model)
                batch, rows = [], []
        yield from _scored(batch, rows, model)

    parents = best_tree(root, weighted())
    source = None  # type: ignore[assignment]
    parents.update(innermost_parents(root, parents, listings, declared, menus, folders))
    parents.update(folder_listing_parents(root, parents, listings, declared, menus))
    placed = {child for child, parent in parents.items() if parent in named.get(child, ())}
    for view in listed_views(root, parents, listings, placed):
        del parents[view]
    depths = tree_depths(root, parents)
    return {child: {"parent": parents[child], "depth": depths.get(child, 0)} for child in sorted(parents)}


def _scored(edges: list[tuple[str, str]], rows: list[list[float]],
            model: EdgeModel | None) -> Iterator[tuple[str, str, float]]:
    for (parent, child), weight in zip(edges, model_weights(rows, model)):
        yield parent, child, weight
