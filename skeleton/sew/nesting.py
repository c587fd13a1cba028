"""Nested navigation: a table of contents whose entries hold sub-lists.

SEW keeps one flat navigation link set per page. Tables of contents and mega-menus
show several levels of the hierarchy at once: a chapter entry followed by the
list of its sections. When an accepted link set B lies inside the container of a
shallower accepted set A (the lowest common ancestor of A's links), each link of B
hangs from the nearest link of A before it in document order. This is the
skeleton's own structure, read from one page; it goes beyond the paper.
"""
from __future__ import annotations

from collections.abc import Sequence

from .links import LinkNode

__all__ = ["common_chain", "is_nested", "nest_link_sets"]


def common_chain(links: Sequence[LinkNode]) -> tuple[int, ...]:
    """Ids of the common ancestors of all links (their lowest common ancestor last)."""
    chain = links[0].chain
    for link in links[1:]:
        n = 0
        for x, y in zip(chain, link.chain):
            if x != y:
                break
            n += 1
        chain = chain[:n]
    return chain


def _contains(lca: tuple[int, ...], link_sets_first: int, link_set: Sequence[LinkNode]) -> bool:
    k = len(lca)
    return all(b.chain[:k] == lca and b.number > link_sets_first for b in link_set)


def is_nested(inner: Sequence[LinkNode], outer: Sequence[LinkNode]) -> bool:
    """Does link set ``inner`` lie inside the container of the shallower ``outer``?"""
    return (len(outer) > 1 and outer[0].depth < inner[0].depth
            and _contains(common_chain(outer), outer[0].number, inner))


def nest_link_sets(link_sets: Sequence[Sequence[LinkNode]]) -> dict[int, LinkNode]:
    """For every link (by number) of a nested set, the link it hangs from."""
    ordered = sorted((s for s in link_sets if s), key=lambda s: (s[0].depth, s[0].number))
    placed: list[tuple[Sequence[LinkNode], tuple[int, ...]]] = []
    parent: dict[int, LinkNode] = {}
    for b_set in ordered:
        host = None
        for a_set, lca in placed:
            if a_set[0].depth < b_set[0].depth and len(a_set) > 1 \
                    and _contains(lca, a_set[0].number, b_set):
                if host is None or len(lca) >= len(host[1]):
                    host = (a_set, lca)
        if host is not None:
            a_links = host[0]
            i = 0
            for b in b_set:  # both in document order
                while i + 1 < len(a_links) and a_links[i + 1].number < b.number:
                    i += 1
                parent[b.number] = a_links[i]
        placed.append((b_set, common_chain(b_set)))
    return parent
