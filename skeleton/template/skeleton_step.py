"""The template menu as a LinkSetDup signal in FINDSKELETON (an optional step,
offline; the crawler's default detector is unchanged).

The SEW detector already discards, on a page, a candidate link set that repeats
(Jaccard >= the model's ``linkset_dup_jaccard``) a navigation set of an
ancestor or a block its parent rejected. The template menu found by Algorithm 2
from the home page (:func:`.menu.menu_urls`) is a site-wide block of the same
kind: from ``min_depth`` on, it is passed to the detector as one more template
set, so that deeper pages do not take the site menu for their own navigation.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator

from skeleton.sew.detect import detect_navigation
from skeleton.sew.dom import page_title, parse_html
from skeleton.sew.edges import followed_links
from skeleton.sew.findskeleton import PageResult
from skeleton.sew.model import SEWModel
from skeleton.sew.urls import in_scope, trap_reason

from .menu import links_fetcher, menu_urls
from .subdigraph import DEFAULT_SIZE, find_complete_subdigraph

__all__ = ["MENU_MIN_DEPTH", "site_template_menu", "find_skeleton_with_menu"]

#: Pages at this crawl depth and deeper get the template menu as a LinkSetDup set
#: (the home page's children still see the menu as navigation, through their parent).
MENU_MIN_DEPTH = 2


def site_template_menu(base_url: str, fetch: Callable[[str], bytes | None],
                       n: int = DEFAULT_SIZE) -> tuple[set[str], int]:
    """The template menu of the site seen from ``base_url`` and the pages loaded."""
    result = find_complete_subdigraph(base_url, links_fetcher(fetch), n)
    return menu_urls(result), result.loaded


def find_skeleton_with_menu(base_url: str, fetch: Callable[[str], bytes | None], model: SEWModel,
                            menu: set[str], min_depth: int = MENU_MIN_DEPTH,
                            scope: str | None = None) -> Iterator[PageResult]:
    """``skeleton.sew.findskeleton.find_skeleton`` (breadth-first, same edges)
    with ``menu`` added to the template sets of pages at ``min_depth`` and deeper."""
    scope = scope or base_url
    queue: list[tuple[str, int, list[set[str]], list[set[str]]]] = [(base_url, 0, [], [])]
    seen = {base_url}
    for url, depth, known, template in queue:
        body = fetch(url)
        root = parse_html(body) if body else None
        extra = [menu] if menu and depth >= min_depth else []
        detection = detect_navigation(root, url, model, known, base_url, [*template, *extra])
        followed, _ = followed_links(detection.nav_links(url), url,
                                     lambda u: None if in_scope(u, scope) and not trap_reason(u)
                                     else "skipped")
        edges = [(parent, child, depth + level) for child, _, parent, level in followed]
        yield PageResult(url, depth, page_title(root), detection.is_navigation, edges)
        child_known, child_template = detection.context_for_children(known)
        for _, child, child_depth in edges:
            if child not in seen:
                seen.add(child)
                queue.append((child, child_depth, child_known, child_template))
