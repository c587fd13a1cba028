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

from skeleton.analysis.offline import PageResult, find_skeleton
from skeleton.sew.model import SEWModel

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
    """``skeleton.analysis.offline.find_skeleton`` (breadth-first, same offers and
    evidence) with ``menu`` added to the template sets of pages at ``min_depth`` and
    deeper."""
    return find_skeleton(base_url, fetch, model, scope=scope, frames=False, menu=menu,
                         menu_min_depth=min_depth)
