"""Algorithm 1 (sort links) of Alarte et al., Section 3.3, with the DOM
relevance preorder of Definition 5.

Links are taken in tiers of equal link relevance (``hyperlinks.link_rank``),
best tier first; inside a tier, each next link is one whose DOM distance to the
nearest link already chosen in the tier is the largest (Definition 5: farther
is more relevant; with nothing chosen yet all links are equal). Ties go to
document order.

The farthest-first choice is computed exactly but fast: chosen paths are kept
in a trie where each node stores the smallest depth of a chosen path below it,
so the distance of a link to the chosen set is a walk down its own path
(min over its ancestors a of |x| + best(a) - 2 depth(a)), and a lazy max-heap
only re-evaluates links whose stored distance may be stale (distances to a
growing set never increase). The DOM path prefix shared by every link of the
tier is cut first (j + k is measured below the deepest common ancestor, so it
does not change): 10 000 links at the bottom of 5 000 nested levels cost what
they cost at the top.
"""
from __future__ import annotations

from os.path import commonprefix

import heapq
from collections.abc import Sequence

from .hyperlinks import h_distance, hyperlink, link_rank
from .links import KeyLink

__all__ = ["sort_links", "dom_order"]

_FAR = 1 << 60


class _ChosenTrie:
    """Chosen DOM paths; ``distance(path)`` is min dDistance to any of them."""

    def __init__(self) -> None:
        self.children: list[dict[int, int]] = [{}]
        self.best: list[int] = [_FAR]

    def add(self, path: Sequence[int]) -> None:
        node, depth = 0, len(path)
        self.best[0] = min(self.best[0], depth)
        for step in path:
            child = self.children[node].get(step)
            if child is None:
                child = len(self.children)
                self.children[node][step] = child
                self.children.append({})
                self.best.append(_FAR)
            node = child
            self.best[node] = min(self.best[node], depth)

    def distance(self, path: Sequence[int]) -> int:
        node, size = 0, len(path)
        result = size + self.best[0] if self.best[0] < _FAR else _FAR
        for level, step in enumerate(path, start=1):
            child = self.children[node].get(step)
            if child is None:
                break
            node = child
            if self.best[node] < _FAR:
                result = min(result, size + self.best[node] - 2 * level)
        return result


def _shared_prefix(paths: Sequence[Sequence[int]]) -> int:
    """Length of the prefix common to all ``paths``."""
    return len(commonprefix(list(paths)))  # compares only the lexicographic extremes


def dom_order(links: Sequence[KeyLink]) -> list[KeyLink]:
    """The inner loop of Algorithm 1: repeatedly take a link that no other link
    beats in DOM relevance w.r.t. the links already taken."""
    cut = _shared_prefix([link.path for link in links])
    paths = [link.path[cut:] for link in links]
    trie = _ChosenTrie()
    heap = [(-_FAR, link.number, i) for i, link in enumerate(links)]
    heapq.heapify(heap)
    out: list[KeyLink] = []
    while heap:
        stored, number, i = heapq.heappop(heap)
        current = trie.distance(paths[i]) if out else _FAR
        if -stored != current:
            heapq.heappush(heap, (-current, number, i))
            continue
        out.append(links[i])
        trie.add(paths[i])
    return out


def sort_links(links: Sequence[KeyLink], reference_url: str) -> list[KeyLink]:
    """Algorithm 1: ``links`` sorted by link relevance to ``reference_url``
    (the key page), each tier sorted by DOM relevance."""
    ref = hyperlink(reference_url)
    tiers: dict[tuple[int, int], list[KeyLink]] = {}
    for link in links:
        rank = link_rank(h_distance(ref, hyperlink(link.url)))
        tiers.setdefault(rank, []).append(link)
    out: list[KeyLink] = []
    for rank in sorted(tiers):
        out.extend(dom_order(tiers[rank]))
    return out
