"""The tree: the maximum spanning arborescence of the scored candidate edges.

Each fetched page gets exactly one parent so that the sum of the edges' weights
(``log p`` of the edge score) is largest over all trees rooted at the base page
(Edmonds' algorithm, as implemented by networkx).

networkx's Edmonds copies the graph at every contraction, which is slow on a
whole crawl. The problem splits exactly by strongly connected components: a cycle
lies inside one component, and a component is entered only from components
upstream of it, which are connected to the root whatever they choose. So each
component is solved on its own (the components are found by Tarjan's algorithm
over each page's kept candidates, not on a networkx graph of the whole crawl),
with a super-root whose edge to each member
carries that member's best edge from outside, and a component of one page simply
takes its best edge. Weights are shifted by a constant large enough that the
maximum branching networkx computes spans the component. Each page keeps at most ``MAX_IN_EDGES`` best incoming
candidates. Equal weights are broken by the smaller parent URL, and nodes and
edges reach networkx in sorted order, so the tree depends only on the candidates.
"""
from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Iterable, Iterator

import networkx as nx

__all__ = ["MAX_IN_EDGES", "best_tree", "tree_depths"]

#: incoming candidates kept per page before the arborescence (the best by weight)
MAX_IN_EDGES = 8
_SUPER = "\x00root"


def _reachable(root: str, out: dict[str, list[str]]) -> set[str]:
    seen = {root}
    queue = deque([root])
    while queue:
        for child in out.get(queue.popleft(), ()):
            if child not in seen:
                seen.add(child)
                queue.append(child)
    return seen


def _keep_best(cands: list[tuple[float, str]]) -> None:
    cands.sort(key=lambda wp: (-wp[0], wp[1]))
    del cands[MAX_IN_EDGES:]


def _components(nodes: Iterable[str], out: dict[str, list[str]]) -> Iterator[list[str]]:
    """The strongly connected components of the graph ``out`` (page -> pages it has
    an edge to) over ``nodes`` (closed under ``out``): Tarjan's algorithm, without
    recursion. One number per page (its visit order, ``-1`` once its component is
    out); the low links live in the frames of the pages being explored."""
    number: dict[str, int] = {}
    stack: list[str] = []
    for start in nodes:
        if start in number:
            continue
        number[start] = len(number)
        stack.append(start)
        work: list[list] = [[start, iter(out.get(start, ())), number[start]]]
        while work:
            frame = work[-1]
            for succ in frame[1]:
                seen = number.get(succ)
                if seen is None:
                    number[succ] = len(number)
                    stack.append(succ)
                    work.append([succ, iter(out.get(succ, ())), number[succ]])
                    break
                if 0 <= seen < frame[2]:  # on the stack
                    frame[2] = seen
            else:
                work.pop()
                node, low = frame[0], frame[2]
                if work and low < work[-1][2]:
                    work[-1][2] = low
                if low == number[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        number[member] = -1
                        component.append(member)
                        if member == node:
                            break
                    yield component


def best_tree(root: str, edges: Iterable[tuple[str, str, float]]) -> dict[str, str]:
    """child -> parent of the maximum-weight spanning arborescence rooted at ``root``
    over the pages reachable from it through ``edges`` ``(parent, child, weight)``.
    Edges into ``root`` and self-loops are ignored. ``edges`` may be a generator:
    only each page's ``MAX_IN_EDGES`` best incoming edges are kept while it runs."""
    incoming: dict[str, list[tuple[float, str]]] = defaultdict(list)
    for parent, child, weight in edges:
        if child != root and parent != child:
            cands = incoming[child]
            cands.append((weight, parent))
            if len(cands) > 2 * MAX_IN_EDGES:
                _keep_best(cands)
    out: dict[str, list[str]] = defaultdict(list)
    for child, cands in incoming.items():
        _keep_best(cands)
        for _, parent in cands:
            out[parent].append(child)
    nodes = _reachable(root, out)
    parents: dict[str, str] = {}
    for component in _components(sorted(nodes), out):
        if root in component:
            continue
        if len(component) == 1:
            child = component[0]
            # its best edge from outside: its best edge that is no self-loop
            parents[child] = min(((w, p) for w, p in incoming[child] if p in nodes),
                                 key=lambda wp: (-wp[0], wp[1]))[1]
            continue
        component.sort()
        members = set(component)
        outside = {}
        for child in component:
            best = [(w, p) for w, p in incoming[child] if p in nodes and p not in members]
            if best:
                outside[child] = min(best, key=lambda wp: (-wp[0], wp[1]))
        inner = [(_SUPER, c, w) for c, (w, _) in sorted(outside.items())]
        inner += sorted((p, c, w) for c in component for w, p in incoming[c] if p in members)
        # Every spanning arborescence has len(component) edges, so a constant added to
        # every weight changes no choice among them, and one larger than the spread of
        # all weights times the number of edges makes any branching that leaves a page
        # out lighter than every spanning one: the maximum branching spans. (networkx's
        # own maximum_spanning_arborescence shifts by only one spread, and fails on
        # real crawls: tests/data/arborescence_branching_case.json.)
        low, high = min(w for _, _, w in inner), max(w for _, _, w in inner)
        shift = (len(component) + 1) * (high - low) + abs(low) + 1.0
        sub = nx.DiGraph()
        sub.add_nodes_from([_SUPER, *component])
        sub.add_weighted_edges_from([(p, c, w + shift) for p, c, w in inner])
        tree = nx.maximum_branching(sub, attr="weight")
        if tree.number_of_edges() != len(component):  # cannot happen: see the shift above
            raise nx.NetworkXException("the maximum branching of a component does not span it")
        for parent, child in tree.edges():
            parents[child] = outside[child][1] if parent == _SUPER else parent
    return parents


def tree_depths(root: str, parents: dict[str, str]) -> dict[str, int]:
    """Depth of every page of the tree ``parents`` (child -> parent) below ``root``."""
    children: dict[str, list[str]] = defaultdict(list)
    for child, parent in parents.items():
        children[parent].append(child)
    depth = {root: 0}
    queue = deque([root])
    while queue:
        page = queue.popleft()
        for child in children.get(page, ()):
            depth[child] = depth[page] + 1
            queue.append(child)
    return depth
