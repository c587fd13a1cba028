"""Algorithm 2 (extract an n-complete subdigraph) of Alarte et al., Section 3.3.

Pages are loaded through a ``fetch_links(url)`` callable that returns the
page's links (``KeyLink``s, or plain URLs) or ``None`` when the page cannot be
loaded, so the algorithm runs over files, over a live site, or inside a
spider. The key page's links are sorted by Algorithm 1 and loaded in that
order; after each load, the largest complete subdigraph (pages pairwise
mutually linked) that contains the page just loaded is searched among the
loaded ones, and the search stops at the first one of size n. Otherwise the
biggest one found (m < n) is returned once every link has been loaded.

Choices: getLinks keeps links to the key page's domain only (footnote 3 and
Section 4); ``dir/`` and ``dir/index.html`` are one page; the key page itself
is not a member of the subdigraph (as in the paper, the members are links of
the key page). ``loaded`` counts the key page (Table 1: n = 1 needs 2 loads).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from .hyperlinks import page_identity
from .links import KeyLink, as_key_links
from .sortlinks import sort_links

__all__ = ["DEFAULT_SIZE", "MAX_CLIQUE_STEPS", "FetchLinks", "CSResult", "CSSearch",
           "find_complete_subdigraph", "largest_clique_with"]

#: Section 4, Table 1: n = 3 balances precision and pages loaded.
DEFAULT_SIZE = 3
#: Bound on the search steps of one clique search (the problem is exponential in
#: general; past this the best clique found so far is used).
MAX_CLIQUE_STEPS = 100_000

FetchLinks = Callable[[str], "Iterable[KeyLink | str] | None"]


@dataclass
class CSResult:
    """What Algorithm 2 found for one key page."""

    key: str
    #: the n-CS, or the biggest m-CS (m < n); URLs in the order they were loaded
    pages: list[str] = field(default_factory=list)
    #: pages loaded, the key page included
    loaded: int = 0
    size: int = DEFAULT_SIZE
    #: the key page's same-domain links in Algorithm 1's order
    order: list[str] = field(default_factory=list)
    #: page identity -> identities of its same-domain links, for every loaded page
    links: dict[str, set[str]] = field(default_factory=dict, repr=False)
    #: page identity -> the URL first seen for it (the form the site links with)
    forms: dict[str, str] = field(default_factory=dict, repr=False)

    @property
    def complete(self) -> bool:
        return len(self.pages) == self.size


def largest_clique_with(vertex: str, adjacent: dict[str, set[str]], order: dict[str, int],
                        limit: int, max_steps: int = MAX_CLIQUE_STEPS) -> list[str]:
    """The largest clique (at most ``limit`` vertices) of the undirected graph
    ``adjacent`` that contains ``vertex``; iterative branch and bound, candidates
    in ``order``, so the first clique of a size found is the earliest loaded."""
    best = [vertex]
    candidates = sorted(adjacent.get(vertex, ()), key=order.__getitem__)
    stack: list[tuple[list[str], list[str]]] = [([vertex], candidates)]
    steps = 0
    while stack and len(best) < limit and steps < max_steps:
        clique, cands = stack.pop()
        steps += 1
        if len(clique) > len(best):
            best = clique
            if len(best) >= limit:
                break
        if len(clique) + len(cands) <= len(best):
            continue
        for i in range(len(cands) - 1, -1, -1):
            member = cands[i]
            near = adjacent.get(member, set())
            stack.append((clique + [member], [c for c in cands[i + 1:] if c in near]))
    return best[:limit]


class CSSearch:
    """Algorithm 2 one page at a time (for a spider): ``next_url()`` is the next
    link to load, ``add(url, links)`` records it; ``done`` once the n-CS is found
    or every link is loaded; ``result`` holds the answer so far."""

    def __init__(self, key_url: str, key_links: Iterable[KeyLink | str] | None,
                 n: int = DEFAULT_SIZE, max_loads: int | None = None) -> None:
        if n < 1:
            raise ValueError(f"the subdigraph size n must be at least 1, got {n}")
        self.result = CSResult(key=key_url, size=n, loaded=1)
        self.max_loads = max_loads
        links = as_key_links(key_links, key_url)
        self.reachable = {link.identity for link in links}
        self.sorted = sort_links(links, key_url)
        self.result.order = [link.url for link in self.sorted]
        self.result.links[page_identity(key_url)] = set(self.reachable)
        _remember_forms(self.result, links)
        self.out_links: dict[str, set[str]] = {}
        self.mutual: dict[str, set[str]] = {}
        self.position: dict[str, int] = {}
        self.urls: dict[str, str] = {}
        self.best: list[str] = []

    @property
    def done(self) -> bool:
        budget = self.max_loads is not None and self.result.loaded >= self.max_loads
        return (len(self.best) >= self.result.size or budget
                or len(self.position) >= len(self.sorted))

    def next_url(self) -> str | None:
        return None if self.done else self.sorted[len(self.position)].url

    def add(self, links: Iterable[KeyLink | str] | None) -> bool:
        """Record the page of ``next_url()`` and its links; True when done."""
        if self.done:
            return True
        link = self.sorted[len(self.position)]
        page = as_key_links(links, link.url)
        self.result.loaded += 1
        here = link.identity
        found = {other.identity for other in page}
        self.result.links[here] = found
        _remember_forms(self.result, page)
        existing = found & self.reachable
        self.position[here], self.urls[here] = len(self.position), link.url
        self.out_links[here] = existing
        self.mutual[here] = set()
        for other in self.position:
            if other != here and other in existing and here in self.out_links[other]:
                self.mutual[here].add(other)
                self.mutual[other].add(here)
        clique = largest_clique_with(here, self.mutual, self.position, self.result.size)
        if len(clique) > len(self.best):
            self.best = sorted(clique, key=self.position.__getitem__)
            self.result.pages = [self.urls[ident] for ident in self.best]
        return self.done


def find_complete_subdigraph(key_url: str, fetch_links: FetchLinks, n: int = DEFAULT_SIZE,
                             max_loads: int | None = None) -> CSResult:
    """Algorithm 2 from ``key_url``: the n-CS (or the biggest m-CS) among the key
    page's links and the number of pages loaded. ``max_loads`` (key page
    included) stops early with the best found so far. Never raises on bad pages:
    no links gives an empty set."""
    search = CSSearch(key_url, _safe_fetch(fetch_links, key_url), n, max_loads)
    while (url := search.next_url()) is not None:
        search.add(_safe_fetch(fetch_links, url))
    return search.result


def _remember_forms(result: CSResult, links: Sequence[KeyLink]) -> None:
    for link in links:
        result.forms.setdefault(link.identity, link.url)


def _safe_fetch(fetch_links: FetchLinks, url: str) -> Sequence[KeyLink | str] | None:
    links = fetch_links(url)
    return list(links) if links is not None else None
