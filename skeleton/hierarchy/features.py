"""Features of every candidate edge ``parent -> child`` of a crawl.

A candidate edge exists for each page that offered ``child`` a parent
(:mod:`skeleton.hierarchy.offers`). Its features join three kinds of evidence:

* what the offers say (how many pages offer it, from which kind of list: its
  size against the child's other offers, nesting, an A-Z index, a list mixing
  sections, a block repeated on many pages);
* what the child page says about itself (its breadcrumb, declared up link and
  highlighted menu trail name the parent; its own navigation links back to it;
  :mod:`skeleton.hierarchy.evidence`);
* where the edge sits in the graph of all offers and in the URL hierarchy (the
  shortest-path distance from the root, the shortcut it would be, the parent's
  directory containing the child).

Every feature is a function of the set of pages and offers, never of their
order of arrival, so the same crawl gives the same rows.
"""
from __future__ import annotations

import math
from collections import Counter, defaultdict, deque
from collections.abc import Mapping, Sequence
from typing import Any

from skeleton.sew.urls import directory, section_dirs, split_url

from .offers import section_folder
from .pagination import fold_listings

__all__ = ["FEATURES", "CandidateEdges", "candidate_edges", "offer_distances"]

#: the features of a candidate edge, in the model's order
FEATURES = (
    "direct", "offerers", "share", "level", "size", "size_rel", "smallest", "toc", "alpha",
    "dirs", "dirs_rel", "inside", "repeated", "backlink", "url_under", "url_near",
    "url_index", "from_root", "dist", "gap", "shallowest", "candidates", "hub",
    "named", "named_any", "contradicted", "has_named", "offered",
)
#: distances and levels are capped here (a deeper page is as deep as this)
CAP = 6


def _log(x: float) -> float:
    return math.log1p(max(x, 0.0))


def offer_distances(root: str, graph: Mapping[str, Sequence[str]]) -> dict[str, int]:
    """Breadth-first distance of every page from ``root`` over ``graph`` (page ->
    the pages it offers a place to); children in sorted order."""
    dist = {root: 0}
    queue = deque([root])
    while queue:
        page = queue.popleft()
        for child in graph.get(page, ()):
            if child not in dist:
                dist[child] = dist[page] + 1
                queue.append(child)
    return dist


def _path(url: str) -> str:
    parts = split_url(url)
    return (parts.path if parts is not None else "") or "/"


class CandidateEdges:
    """The candidate edges of a crawl and their feature rows (``FEATURES`` order)."""

    def __init__(self, edges: list[tuple[str, str]], rows: list[list[float]],
                 distances: dict[str, int], folded: dict[str, str] | None = None,
                 offers: Mapping[str, Sequence[Mapping[str, Any]]] | None = None) -> None:
        self.edges = edges
        self.rows = rows
        self.distances = distances
        #: later page of a listing -> its head (:mod:`.pagination`): not nodes
        self.folded = folded or {}
        #: the offers with listings folded (child -> offers)
        self.offers = offers or {}


def _host(url: str) -> str:
    parts = split_url(url)
    return parts.netloc.lower() if parts is not None else ""


def _evidence(child: str, record: Mapping[str, Any]) -> tuple[list[str], set[str], list[str], set[str], set[str]]:
    """The child's breadcrumb, up links, highlighted trail, the sections it says it
    is filed in (same-host URLs only: a site names its own pages) and its navigation
    link URLs."""
    ev = record.get("evidence") or {}
    host = _host(child)

    def own(urls: Any) -> list[str]:
        return [u for u in urls or [] if isinstance(u, str) and _host(u) == host]

    links = {link.get("url") for link in record.get("nav_links") or [] if isinstance(link, Mapping)}
    return own(ev.get("crumbs")), set(own(ev.get("up"))), own(ev.get("trail")), set(own(ev.get("filed"))), links


#: the figures of a named-only edge's missing offer (sizes and dirs come from the child's other offers)
_NO_OFFER: Mapping[str, Any] = {"level": 1, "toc": 0, "alpha": 0, "inside": 0.0, "sig": ""}


def _named(child: str, record: Mapping[str, Any]) -> set[str]:
    """The parents the child's own evidence names: the last breadcrumb entry, an up
    link, a section it says it is filed in (declarations, any kind alike); only when
    it declares none, the innermost highlighted menu item (a menu often highlights
    an ancestor, the deepest item it shows)."""
    crumbs, up, trail, filed, _ = _evidence(child, record)
    declared = up | filed | ({crumbs[-1]} if crumbs else set())
    return declared or ({trail[-1]} if trail else set())


def candidate_edges(root: str, pages: Mapping[str, Mapping[str, Any]],
                    offers: Mapping[str, Sequence[Mapping[str, Any]]]) -> CandidateEdges:
    """The candidate edges between fetched ``pages`` (URL -> page record, with
    ``evidence`` and ``nav_links``) from ``offers`` (child URL -> its offers), with
    their features. Edges into ``root``, self-loops and edges whose parent or child
    was not fetched are left out. Edges are sorted by (child, parent). The pages
    of a paginated listing are first folded into its first page
    (:func:`.pagination.fold_listings`)."""
    pages, offers, folded = fold_listings(root, pages, offers)
    by_edge: dict[tuple[str, str], list[Mapping[str, Any]]] = defaultdict(list)
    for child in sorted(offers):
        if child == root or child not in pages:
            continue
        for offer in offers[child]:
            parent = offer.get("parent")
            if isinstance(parent, str) and parent != child and parent in pages:
                by_edge[(parent, child)].append(offer)
    # a parent the child's own evidence names is a candidate even when its link to
    # the child is in none of its navigation sets (a listing's featured first item)
    for child in sorted(pages):
        if child == root:
            continue
        for parent in sorted(_named(child, pages[child])):
            parent = folded.get(parent, parent)
            if parent != child and parent in pages and (parent, child) not in by_edge:
                by_edge[(parent, child)] = []
    edges = sorted(by_edge, key=lambda e: (e[1], e[0]))
    graph: dict[str, list[str]] = defaultdict(list)
    for parent, child in edges:
        if by_edge[(parent, child)]:  # distances run over the offers only
            graph[parent].append(child)
    for children in graph.values():
        children.sort()
    dist = offer_distances(root, graph)
    sig_pages = Counter()
    seen_sig: set[tuple[str, str]] = set()
    for edge_offers in by_edge.values():
        for offer in edge_offers:
            key = (str(offer.get("sig", "")), str(offer.get("from", "")))
            if key not in seen_sig:
                seen_sig.add(key)
                sig_pages[key[0]] += 1
    per_child: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for edge in edges:
        per_child[edge[1]].append(edge)
    rows: list[list[float]] = []
    out_edges: list[tuple[str, str]] = []
    for child in sorted(per_child):
        cands = per_child[child]
        crumbs, up, trail, _, links = _evidence(child, pages[child])
        offerers_all = {o.get("from") for e in cands for o in by_edge[e]}
        stats = {}
        for edge in cands:
            os_ = by_edge[edge]
            if os_:
                stats[edge] = (_log(min(int(o.get("size", 0)) for o in os_)),
                               min(float(o.get("dirs", 1.0)) for o in os_))
        # a named-only edge (no offer) takes the child's smallest list's figures
        min_size = min((s for s, _ in stats.values()), default=0.0)
        min_dirs = min((d for _, d in stats.values()), default=1.0)
        for edge in cands:
            stats.setdefault(edge, (min_size, min_dirs))
        dists = [dist.get(p, CAP) for p, _ in cands]
        min_dist = min(dists)
        child_dir, child_path = directory(child), _path(child)
        # the parents the child's own evidence names: the last breadcrumb entry, an
        # up link, the innermost highlighted menu item (any kind of evidence alike)
        named = {folded.get(u, u) for u in _named(child, pages[child])}
        named_cands = named & {p for p, _ in cands}
        for (parent, _), parent_dist in zip(cands, dists):
            os_ = by_edge[(parent, child)] or [_NO_OFFER]
            offerers = {o.get("from") for o in by_edge[(parent, child)]}
            size, dirs = stats[(parent, child)]
            parent_dir = section_folder(parent)
            under = child_path.startswith(parent_dir) and parent_dir != child_path
            gap = child_dir.count("/") - parent_dir.count("/")
            repeated = max(sig_pages[str(o.get("sig", ""))] for o in os_)
            rows.append([
                float(parent in offerers),
                _log(len(offerers)),
                len(offerers) / max(len(offerers_all), 1),
                float(min(min(int(o.get("level", 1)) for o in os_), CAP)),
                size,
                size - min_size,
                float(size == min_size),
                float(max(int(o.get("toc", 0)) for o in os_)),
                float(max(int(o.get("alpha", 0)) for o in os_)),
                dirs,
                dirs - min_dirs,
                max(float(o.get("inside", 0.0)) for o in os_),
                _log(repeated),
                float(parent in links),
                float(under),
                1.0 / (1 + max(gap, 0)) if under else 0.0,
                float(section_dirs(parent, child) > 0),
                float(parent == root),
                float(min(parent_dist, CAP)),
                float(min(max(parent_dist + 1 - dist.get(child, CAP), 0), CAP)),
                float(parent_dist == min_dist),
                _log(len(cands)),
                _log(len(graph.get(parent, ()))),
                float(parent in named),
                float(parent in named or parent in crumbs or parent in trail),
                float(bool(named_cands - {parent})),
                float(bool(named)),
                float(bool(by_edge[(parent, child)])),
            ])
            out_edges.append((parent, child))
    return CandidateEdges(out_edges, rows, dist, folded, offers)
