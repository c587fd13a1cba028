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
from collections import defaultdict, deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from skeleton.web.urls import directory, section_dirs, split_url

from .offers import section_folder
from .facts import NO_OFFER, OfferFacts, PageFacts, offer_facts, page_facts
from .pagination import pager_heads
from .peers import folder_tree

__all__ = ["FEATURES", "CandidateEdges", "EdgeRows", "candidate_edges", "fold_facts", "offer_distances",
           "sibling_overlap"]

#: the features of a candidate edge, in the model's order
FEATURES = (
    "direct", "offerers", "share", "level", "size", "size_rel", "smallest", "toc", "alpha",
    "dirs", "dirs_rel", "inside", "repeated", "backlink", "url_under", "url_near",
    "url_index", "from_root", "dist", "gap", "shallowest", "candidates", "hub",
    "named", "named_any", "contradicted", "has_named", "offered", "folder", "folder_agree",
    "coarser", "finer", "overlap",
)
#: distances and levels are capped here (a deeper page is as deep as this)
CAP = 6
#: a listing lies inside another when at least this share of its pages are the other's
#: too (``coarser``/``finer``: a blog home listing every post and a category listing
#: some; a section index listing its sub-section's pages)
INSIDE_SHARE = 0.9
#: listings of fewer pages than this are not compared (a "see also" pair), nor, as the
#: smaller of two, listings of more (each comparison reads the smaller listing once)
INSIDE_MIN = 3
INSIDE_MAX = 2000
#: at most this many candidates of a child are compared, those with the smallest
#: listings (the crawl keeps ``offers.MAX_OFFERS`` = 24 offers per child): at most
#: ``INSIDE_CANDIDATES ** 2`` tests per child, whatever the number of candidates
INSIDE_CANDIDATES = 24
#: the caches of tests and of listings are emptied past these sizes, so that memory
#: stays flat on a large crawl (siblings, resolved one after the other, share pairs)
INSIDE_CACHE_PAIRS = 200_000
INSIDE_CACHE_SETS = 2_000


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


def _sibling_group(url: str) -> str:
    """The folder holding the folder ``url`` names as its section: ``/tags/`` for
    ``/tags/a/`` and ``/tags/b.html``; the pages of one kind of listing share it."""
    parts = split_url(url)
    folder = section_folder(url).rstrip("/")
    return (parts.netloc if parts is not None else "") + (folder[: folder.rfind("/") + 1] or "/")


def sibling_overlap(offers: Mapping[str, Sequence[OfferFacts]], repeated: Callable[[str], int]
                    ) -> dict[str, float]:
    """Listing page -> the share of the pages its own listing files that a sibling
    listing (a page of the same :func:`_sibling_group`) files too: near 0 for
    listings that partition their items (a blog's categories: one per post), high
    for listings that cross (tags, authors, facets). A page's own listing is its
    direct offers from sets no other page repeats (``repeated(sig)``: the pages
    seen with a set; a site menu on every page is no listing). Listings of fewer
    than ``INSIDE_MIN`` pages are left out. Linear in the offers (three passes)."""
    groups: dict[str, str] = {}

    def own(offer: OfferFacts, child: str) -> str | None:
        origin = offer.origin
        if offer.parent != origin or origin == child or not isinstance(origin, str) \
                or repeated(offer.sig) > 1:
            return None
        group = groups.get(origin)
        if group is None:
            group = groups[origin] = _sibling_group(origin)
        return group

    count: dict[tuple[str, str], int] = defaultdict(int)
    size: dict[str, int] = defaultdict(int)
    for child, child_offers in offers.items():
        for offer in child_offers:
            group = own(offer, child)
            if group is not None:
                count[(group, child)] += 1
                size[offer.origin] += 1
    shared: dict[str, int] = defaultdict(int)
    for child, child_offers in offers.items():
        for offer in child_offers:
            group = own(offer, child)
            if group is not None and count[(group, child)] > 1:
                shared[offer.origin] += 1
    return {page: shared[page] / n for page, n in size.items() if n >= INSIDE_MIN}


class CandidateEdges:
    """The candidate edges of a crawl and their feature rows (``FEATURES`` order)."""

    def __init__(self, edges: list[tuple[str, str]], rows: list[list[float]],
                 distances: dict[str, int], folded: dict[str, str] | None = None,
                 offers: Mapping[str, Sequence[OfferFacts]] | None = None) -> None:
        self.edges = edges
        self.rows = rows
        self.distances = distances
        #: later page of a listing -> its head (:mod:`.pagination`): not nodes
        self.folded = folded or {}
        #: the offers with listings folded (child -> :class:`.facts.OfferFacts`)
        self.offers = offers or {}


def _named(facts: PageFacts) -> set[str]:
    """The parents the child's own evidence names: the last breadcrumb entry, an up
    link, a section it says it is filed in (declarations, any kind alike); only when
    it declares none, the innermost highlighted menu item (a menu often highlights
    an ancestor, the deepest item it shows)."""
    declared = {*facts.up, *facts.filed, *facts.crumbs[-1:]}
    return declared or set(facts.trail[-1:])


class _Froms:
    """Signature -> the distinct offering pages seen with it (one string, or a set
    once there are two): :func:`candidate_edges`' count of pages repeating a set."""

    def __init__(self) -> None:
        self.of: dict[str, Any] = {}

    def add(self, sig: str, origin: str) -> None:
        seen = self.of.get(sig)
        if seen is None:
            self.of[sig] = origin
        elif isinstance(seen, set):
            seen.add(origin)
        elif seen != origin:
            self.of[sig] = {seen, origin}

    def count(self, sig: str) -> int:
        seen = self.of.get(sig)
        return 0 if seen is None else len(seen) if isinstance(seen, set) else 1


def fold_facts(root: str, pages: dict[str, PageFacts],
               offers: dict[str, list[OfferFacts]]) -> dict[str, str]:
    """Fold every later page of a listing into its head (:func:`.pagination.fold_listings`
    on facts), in place: those pages leave ``pages``, offers to them leave
    ``offers`` and the offers they made are their head's. Returns the heads
    (later page -> head)."""
    heads = pager_heads(root, ((url, f.pager) for url, f in pages.items() if f.pager), pages)
    if not heads:
        return heads
    for url in heads:
        pages.pop(url, None)
    for child in list(offers):
        if child in heads:
            del offers[child]
            continue
        child_offers = offers[child]
        for i, o in enumerate(child_offers):
            if o.origin in heads or o.parent in heads:
                child_offers[i] = o._replace(origin=heads.get(o.origin, o.origin),
                                             parent=heads.get(o.parent, o.parent))
    return heads


class EdgeRows:
    """The candidate edges of a crawl's facts, child by child (:func:`candidate_edges`).

    Built from ``pages`` (URL -> :class:`.facts.PageFacts`) and ``offers`` (child
    URL -> its :class:`.facts.OfferFacts`), which it owns: it folds the listings in
    them (:func:`fold_facts`), and :meth:`rows` releases each child's offers and
    facts once its rows are made (the URLs stay keys of ``pages``)."""

    def __init__(self, root: str, pages: dict[str, PageFacts | None],
                 offers: dict[str, list[OfferFacts]]) -> None:
        self.root = root
        self.pages = pages
        self.offers = offers
        self.folded = fold_facts(root, pages, offers)  # type: ignore[arg-type]
        graph: dict[str, list[str]] = defaultdict(list)
        froms = _Froms()
        offered_by: dict[str, set[str]] = {}
        for child in sorted(offers):
            if child == root or child not in pages:
                continue
            parents = set()
            for offer in offers[child]:
                parent = offer.parent
                if isinstance(parent, str) and parent != child and parent in pages:
                    parents.add(parent)
                    froms.add(offer.sig, str(offer.origin))
            offered_by[child] = parents
            for parent in parents:  # distances run over the offers only
                graph[parent].append(child)
        for children in graph.values():
            children.sort()
        #: offering page -> the pages it offers a place to
        self.graph = graph
        self.distances = offer_distances(root, graph)
        self.froms = froms
        #: the URL-folder tree of the fetched pages (:func:`.peers.folder_tree`), and how
        #: far the site's offers agree with it: the share of offered pages whose folder
        #: parent (other than the root) offers them. Folders that agree with the menus
        #: are strong evidence; on a site of flat or unrelated URLs the share is small.
        self.folder = folder_tree(root, pages)
        agree = sum(1 for child, parents in offered_by.items()
                    if self.folder.get(child, root) != root and self.folder[child] in parents)
        self.folder_agree = agree / len(offered_by) if offered_by else 0.0
        self.overlap = sibling_overlap(offers, froms.count)
        self._sets: dict[str, frozenset[str]] = {}
        self._inside: dict[tuple[str, str], bool] = {}

    def inside(self, small: str, large: str) -> bool:
        """Does the listing of ``small`` (the pages it offers a place to) lie inside the
        larger listing of ``large``: at least ``INSIDE_SHARE`` of its pages, and fewer
        pages? Cached per pair; each test reads the smaller listing once."""
        key = (small, large)
        found = self._inside.get(key)
        if found is None:
            a, b = self.graph.get(small, ()), self.graph.get(large, ())
            found = False
            if INSIDE_MIN <= len(a) < len(b) and len(a) <= INSIDE_MAX:
                big = self._sets.get(large)
                if big is None:
                    if len(self._sets) >= INSIDE_CACHE_SETS:
                        self._sets.clear()
                    big = self._sets[large] = frozenset(b)
                found = sum(1 for u in a if u in big) >= INSIDE_SHARE * len(a)
            if len(self._inside) >= INSIDE_CACHE_PAIRS:
                self._inside.clear()
            self._inside[key] = found
        return found

    def nesting(self, cands: Sequence[str], offered: Mapping[str, Sequence[Any]]) -> tuple[set[str], set[str]]:
        """(coarser, finer): the candidates whose listing holds another candidate's, and
        those whose listing lies inside another's, among the ``INSIDE_CANDIDATES``
        offering candidates with the smallest listings."""
        graph = self.graph
        listing = sorted((p for p in cands if offered[p]), key=lambda p: (len(graph.get(p, ())), p))
        listing = listing[:INSIDE_CANDIDATES]
        coarser: set[str] = set()
        finer: set[str] = set()
        for i, small in enumerate(listing):
            for large in listing[i + 1:]:
                if self.inside(small, large):
                    coarser.add(large)
                    finer.add(small)
        return coarser, finer

    def _edges(self, child: str) -> dict[str, list[OfferFacts]]:
        """The candidate parents of ``child`` and their offers (none for a parent the
        child's evidence names and no page offers)."""
        pages, folded = self.pages, self.folded
        by_parent: dict[str, list[OfferFacts]] = defaultdict(list)
        for offer in self.offers.get(child, ()):
            parent = offer.parent
            if isinstance(parent, str) and parent != child and parent in pages:
                by_parent[parent].append(offer)
        # a parent the child's own evidence names is a candidate even when its link to
        # the child is in none of its navigation sets (a listing's featured first item)
        for parent in _named(pages[child]):  # type: ignore[arg-type]
            parent = folded.get(parent, parent)
            if parent != child and parent in pages and parent not in by_parent:
                by_parent[parent] = []
        # and so is the page whose URL folder holds it, when some page offers it a place
        folder = self.folder.get(child)
        if by_parent and folder is not None and folder != child and folder not in by_parent:
            by_parent[folder] = []
        return by_parent

    def rows(self) -> Iterator[tuple[str, list[str], list[list[float]], list[bool]]]:
        """``(child, its candidate parents in sorted order, their rows, whether the
        child's evidence names each)`` for every page with a candidate edge, children
        in sorted order. Releases each child's offers and facts."""
        root, pages, dist, graph, folded = self.root, self.pages, self.distances, self.graph, self.folded
        named_col = FEATURES.index("named")
        for child in sorted(pages):
            if child == root:
                continue
            by_parent = self._edges(child)
            if not by_parent:
                self.offers.pop(child, None)
                pages[child] = None
                continue
            facts: PageFacts = pages[child]  # type: ignore[assignment]
            cands = sorted(by_parent)
            crumbs, trail, links = facts.crumbs, facts.trail, facts.links
            offerers_all = {o.origin for os_ in by_parent.values() for o in os_}
            stats = {}
            for parent, os_ in by_parent.items():
                if os_:
                    stats[parent] = (_log(min(o.size for o in os_)), min(o.dirs for o in os_))
            # a named-only edge (no offer) takes the child's smallest list's figures
            min_size = min((s for s, _ in stats.values()), default=0.0)
            min_dirs = min((d for _, d in stats.values()), default=1.0)
            for parent in cands:
                stats.setdefault(parent, (min_size, min_dirs))
            dists = [dist.get(p, CAP) for p in cands]
            min_dist = min(dists)
            child_dir, child_path = directory(child), _path(child)
            # the parents the child's own evidence names: the last breadcrumb entry, an
            # up link, the innermost highlighted menu item (any kind of evidence alike)
            named = {folded.get(u, u) for u in _named(facts)}
            named_cands = named & set(cands)
            folder_parent = self.folder.get(child)
            coarser, finer = self.nesting(cands, by_parent)
            rows = []
            for parent, parent_dist in zip(cands, dists):
                offered = by_parent[parent]
                os_ = offered or [NO_OFFER]
                offerers = {o.origin for o in offered}
                size, dirs = stats[parent]
                parent_dir = section_folder(parent)
                under = child_path.startswith(parent_dir) and parent_dir != child_path
                gap = child_dir.count("/") - parent_dir.count("/")
                repeated = max(self.froms.count(o.sig) for o in os_)
                rows.append([
                    float(parent in offerers),
                    _log(len(offerers)),
                    len(offerers) / max(len(offerers_all), 1),
                    float(min(min(o.level for o in os_), CAP)),
                    size,
                    size - min_size,
                    float(size == min_size),
                    float(max(o.toc for o in os_)),
                    float(max(o.alpha for o in os_)),
                    dirs,
                    dirs - min_dirs,
                    max(o.inside for o in os_),
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
                    float(parent in named or parent in crumbs or parent in trail or parent in facts.above),
                    float(bool(named_cands - {parent})),
                    float(bool(named)),
                    float(bool(offered)),
                    float(parent == folder_parent),
                    self.folder_agree,
                    float(parent in coarser),
                    float(parent in finer),
                    self.overlap.get(parent, 0.0),
                ])
            self.offers.pop(child, None)
            pages[child] = None
            yield child, cands, rows, [bool(row[named_col]) for row in rows]


def candidate_edges(root: str, pages: Mapping[str, Mapping[str, Any]],
                    offers: Mapping[str, Sequence[Mapping[str, Any]]]) -> CandidateEdges:
    """The candidate edges between fetched ``pages`` (URL -> page record, with
    ``evidence`` and ``nav_links``) from ``offers`` (child URL -> its offers), with
    their features. Edges into ``root``, self-loops and edges whose parent or child
    was not fetched are left out. Edges are sorted by (child, parent). The pages
    of a paginated listing are first folded into its first page
    (:func:`.pagination.fold_listings`). The facts of the records and offers
    (:mod:`.facts`) are all that is read: :class:`EdgeRows` gives the same rows
    child by child."""
    facts: dict[str, PageFacts | None] = {url: page_facts(url, record) for url, record in pages.items()}
    offer_lists = {child: [offer_facts(o) for o in os_] for child, os_ in offers.items()}
    source = EdgeRows(root, facts, offer_lists)
    folded_offers = dict(offer_lists)
    edges: list[tuple[str, str]] = []
    rows: list[list[float]] = []
    for child, parents, child_rows, _ in source.rows():
        edges += [(parent, child) for parent in parents]
        rows += child_rows
    return CandidateEdges(edges, rows, source.distances, source.folded, folded_offers)
