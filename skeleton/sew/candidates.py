"""GENCANLINKSETS (SEW Section 3.2.2, Figure 2).

Links are clustered by DOM depth (FINDLINKNODESATSAMELEVEL) and then by tag path
(GROUPBYPATH); every cluster is pruned by PRUNELINKSET and kept when its size lies
strictly between MinNL and MaxNL.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import accumulate

from skeleton.budget import checkpoint

from .heuristics import (ph_anchor, ph_buttons, ph_date, ph_deep_link, ph_index, ph_dis_diff, ph_link_dup, ph_link_set_dup,
                         ph_max_num_word, ph_style)
from .links import LinkNode

__all__ = ["LIST_TAGS", "ENTRY_TAGS", "CandidateParams", "shallow_positions", "group_by_level_and_path",
           "split_by_list", "prune_link_set", "gen_candidate_link_sets"]


#: Elements that make a list of links (``split_by_list``).
LIST_TAGS = frozenset({"ul", "ol", "dl", "menu"})
#: A list below one of these is the sub-list of an entry.
ENTRY_TAGS = frozenset({"li", "dd", "dt"})


@dataclass(frozen=True, slots=True)
class CandidateParams:
    min_nl: int
    max_nl: int
    max_num_word: float
    disdiff_z: float
    linkset_dup_jaccard: float


def group_by_level_and_path(links: Sequence[LinkNode]) -> Iterator[list[LinkNode]]:
    """Figure 2, lines 6-22: repeatedly take the first remaining link, gather the
    remaining links at its depth, and split them by path (then by list, see
    :func:`split_by_list`); a link alone at its depth is dropped. Groups come out
    in the order of their first link's path."""
    by_depth: dict[int, dict[tuple[str, ...], list[LinkNode]]] = {}
    for link in links:
        by_depth.setdefault(link.depth, {}).setdefault(link.path, []).append(link)
    order = sorted(by_depth, key=lambda d: next(iter(by_depth[d].values()))[0].number)
    for depth in order:
        paths = by_depth[depth]
        if sum(len(group) for group in paths.values()) < 2:
            continue
        for group in paths.values():
            parts = split_by_list(group)
            # an index stays whole, so that the Index heuristic still drops it whole
            yield from parts if len(parts) > 1 and ph_index(group) else [group]


def split_by_list(group: Sequence[LinkNode]) -> list[list[LinkNode]]:
    """Beyond the paper: the links of one (depth, path) group that sit in separate
    lists are separate groups. A list is the nearest ``ul``/``ol``/``dl``/``menu``
    above the link, unless that list is the sub-list of an entry (it has an ``li``,
    ``dd`` or ``dt`` above it), as a table of contents nests its levels: those stay
    together. So the boxes of a side menu, the widgets of a blog's sidebar and a
    portal's tiles are judged one by one, as their headings present them; lists of
    one element holding one URL folder are one listing cut by headings (:func:`_rejoin`)."""
    if not group:
        return []
    path = group[0].path  # one path for the whole group
    for i in range(len(path) - 2, -1, -1):
        if path[i] in LIST_TAGS:
            if not ENTRY_TAGS.isdisjoint(path[:i]):
                break  # a sub-list of an entry: the levels of a TOC stay together
            parts: dict[int, list[LinkNode]] = {}
            for link in group:
                parts.setdefault(link.chain[i], []).append(link)
            return _rejoin(list(parts.values()), i)
    return [list(group)]


def _rejoin(parts: list[list[LinkNode]], i: int) -> list[list[LinkNode]]:
    """Consecutive lists of one element whose links all lie in one URL folder are one
    listing cut by headings (a chronology's ``<h2>1998</h2><ul>...</ul>`` per year, a
    news archive per month): they are joined again. Lists in separate boxes, or of
    other folders (a sidebar's categories beside its tags), stay apart, except a
    list of one link in a box beside its neighbour's box (one element around both)
    and in its folder: a side menu's group of one page joins the group before it
    (or after it, when first), else no set could offer it."""
    out: list[list[LinkNode]] = []
    folders: list[str | None] = []
    for part in parts:
        folder = _one_folder(part)
        if out and folder is not None and folder == folders[-1] and (
                out[-1][0].chain[i - 1:i] == part[0].chain[i - 1:i]
                or (1 in (len(part), len(out[-1])) and i >= 2
                    and out[-1][0].chain[i - 2:i - 1] == part[0].chain[i - 2:i - 1])):
            out[-1] = out[-1] + part
            continue
        out.append(part)
        folders.append(folder)
    return out


def _one_folder(links: Sequence[LinkNode]) -> str | None:
    """The URL folder all ``links`` lie in, or None (also for a link without a URL)."""
    found = None
    for link in links:
        if not link.url:
            return None
        folder = link.url[: link.url.rfind("/") + 1]
        if found is None:
            found = folder
        elif folder != found:
            return None
    return found


def shallow_positions(links: Sequence[LinkNode], depth: int) -> list[int]:
    """For every link, how many links at ``depth`` or shallower precede it."""
    return [0, *accumulate([link.depth <= depth for link in links])][:-1]


def prune_link_set(links: Sequence[LinkNode], params: CandidateParams,
                   known: Iterable[set[str]], positions: Sequence[int] | None = None,
                   rest: list[list[LinkNode]] | None = None) -> list[LinkNode]:
    """PRUNELINKSET (Figure 2, lines 26-33), in the paper's order, after Index,
    DeepLink and Buttons, with Date before MaxNumWord. ``positions`` (indexed by link number)
    are the distances DisDiff measures.

    The links Anchor and Style leave out, and the part DisDiff cuts off, are
    appended to ``rest`` when it is given, each as a set of its own: Figure 2
    removes from AllLinks only the links of the pruned set (line 17), so the others
    are grouped and pruned again in a later round."""
    kept = ph_link_dup(ph_anchor(ph_buttons(ph_deep_link(ph_index(links))), rest))
    kept = ph_style(kept, rest)
    first = ph_dis_diff(kept, params.disdiff_z,
                        [positions[link.number] for link in kept] if positions else None)
    if rest is not None and len(first) < len(kept):
        rest.append(kept[len(first):])
    kept = ph_max_num_word(ph_date(first), params.max_num_word)
    return ph_link_set_dup(kept, known, params.linkset_dup_jaccard)


def gen_candidate_link_sets(links: Sequence[LinkNode], params: CandidateParams,
                            known: Sequence[set[str]] = ()) -> list[list[LinkNode]]:
    """Candidate link sets of a page; ``known`` are the navigation link sets (URL
    sets) of the page's ancestors, for LinkSetDup.

    The links a heuristic leaves out of a set are pruned again, as the paper's
    loop over AllLinks does: Anchor's and Style's other clusters (a forum's topic
    titles next to its author names, with the same path but other cells), and the
    part after a DisDiff split, which the paper drops (a menu in several sections,
    a header and a footer with the same path). Selection decides among them."""
    found = []
    positions: dict[int, list[int]] = {}
    for group in group_by_level_and_path(links):
        depth = group[0].depth
        pending = [group]
        while pending:
            checkpoint()
            item = pending.pop()
            at = None  # DisDiff measures sets of three links or more
            if len(item) >= 3:
                at = positions.get(depth)
                if at is None:
                    at = positions[depth] = shallow_positions(links, depth)
            rest: list[list[LinkNode]] = []
            kept = prune_link_set(item, params, known, at, rest)
            if params.min_nl < len(kept) < params.max_nl:
                found.append(kept)
            pending.extend(r for r in reversed(rest) if len(r) > params.min_nl)
    return found
