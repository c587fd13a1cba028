"""FINDSKELETON (SEW Section 3.4, Figure 4) over an in-memory site.

The crawler runs the same steps one response at a time; this function runs them
over a ``fetch(url) -> bytes | None`` callable, breadth-first, and is what
training, tests and quick experiments use. A page reached from several parents
keeps the best one by ``edges.edge_rank``, as the crawler's tree does.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .edges import EdgeRank, edge_rank, followed_links
from .detect import Detection, detect_in_links, detect_navigation
from .links import LinkNode
from .dom import page_title, parse_html
from .frames import parse_with_frames
from .model import SEWModel
from .urls import canonical, in_scope, trap_reason

__all__ = ["PageDetector", "PageResult", "find_skeleton", "skeleton_edges"]

#: a page's detection from its tree: (root, page URL, home URL, known, template)
PageDetector = Callable[..., Detection]


@dataclass
class PageResult:
    url: str
    depth: int
    title: str
    is_navigation: bool
    nav_links: list[tuple[str, str, int]]  # (parent, child, child depth)


def find_skeleton(base_url: str, fetch: Callable[[str], bytes | None], model: SEWModel,
                  max_depth: int | None = None, max_pages: int | None = None,
                  scope: str | None = None,
                  links_of: Callable[[str], list[LinkNode]] | None = None,
                  detector: PageDetector | None = None, frames: bool = True) -> Iterator[PageResult]:
    """Yield every page the SEW crawl fetches, in breadth-first order.

    ``links_of(url)``, when given, replaces fetching and parsing (pages' link
    nodes cached by the caller; titles are then left empty). ``detector``, when
    given, replaces SEW's detection: ``detector(root, url, base_url, known,
    template) -> Detection`` (e.g. ``skeleton.navobjects.make_detector``). With
    ``frames``, a page's same-site frames are read as part of it (:mod:`.frames`), as
    the crawl's frames middleware does."""
    base_url = canonical(base_url)  # as the spider does with -a base
    scope = scope or base_url
    queue: list[tuple[str, int, list[set[str]], list[set[str]]]] = [(base_url, 0, [], [])]
    seen = {base_url}
    for url, depth, known, template in queue:
        if max_pages is not None and max_pages <= 0:
            return
        if max_pages is not None:
            max_pages -= 1
        if links_of is not None:
            root = None
            detection = detect_in_links(links_of(url), url, base_url, model, known, template)
        else:
            body = fetch(url)
            root = (parse_with_frames(body, url, fetch) if frames else parse_html(body)) if body else None
            detection = (detector(root, url, base_url, known, template) if detector is not None
                         else detect_navigation(root, url, model, known, base_url, template))
        followed, _ = followed_links(detection.nav_links(url), url,
                                     lambda u: None if in_scope(u, scope) and not trap_reason(u)
                                     else "skipped")
        edges = [(parent, child, depth + level) for child, _, parent, level in followed]
        yield PageResult(url, depth, page_title(root), detection.is_navigation, edges)
        if max_depth is not None and depth >= max_depth:
            continue
        child_known, child_template = detection.context_for_children(known)
        for _, child, child_depth in edges:
            if max_depth is not None and child_depth > max_depth:
                continue
            if child not in seen:
                seen.add(child)
                queue.append((child, child_depth, child_known, child_template))


def skeleton_edges(pages: Iterator[PageResult] | list[PageResult]) -> list[tuple[str, str]]:
    """The tree: per fetched page, the best edge reported (``edges.edge_rank``)."""
    pages = list(pages)
    fetched = {p.url for p in pages}
    best: dict[str, EdgeRank] = {}
    root = pages[0].url if pages else None
    for page in pages:
        for parent, child, depth in page.nav_links:
            if child == root or child not in fetched or parent not in fetched:
                continue
            rank = edge_rank(parent, child, depth, page.depth)
            if child not in best or rank < best[child]:
                best[child] = rank
    return sorted((rank[3], child) for child, rank in best.items())

