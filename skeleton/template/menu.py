"""The site-wide template menu: the links shared by the key page and the
mutually linked pages that Algorithm 2 found (Alarte et al., Section 3.1: the
pages linked by a menu form a complete subdigraph, and the menu is what they
have in common), and a ``fetch_links`` built from a page fetcher.
"""
from __future__ import annotations

from collections.abc import Callable

from skeleton.web.dom import parse_html

from .hyperlinks import page_identity
from .links import KeyLink, page_links
from .subdigraph import CSResult, FetchLinks

__all__ = ["MIN_MENU_LINKS", "template_menu", "menu_urls", "links_fetcher"]

#: A shared link set smaller than this is no menu (an empty answer).
MIN_MENU_LINKS = 2


def template_menu(result: CSResult) -> set[str]:
    """Identities of the pages linked from the key page and from every page of
    the complete subdigraph; a page counts as linking to itself (a menu usually
    shows its current item without a link). Empty without a subdigraph of at
    least two pages or when fewer than ``MIN_MENU_LINKS`` links are shared."""
    if len(result.pages) < 2:
        return set()
    members = [page_identity(result.key), *(page_identity(url) for url in result.pages)]
    shared: set[str] | None = None
    for member in members:
        links = result.links.get(member, set()) | {member}
        shared = set(links) if shared is None else shared & links
    shared = shared or set()
    return shared if len(shared) >= MIN_MENU_LINKS else set()


def menu_urls(result: CSResult) -> set[str]:
    """The template menu as URLs in the form the site links with (for
    comparison with link sets, e.g. LinkSetDup)."""
    return {result.forms.get(ident, ident) for ident in template_menu(result)}


def links_fetcher(fetch: Callable[[str], bytes | None]) -> FetchLinks:
    """A ``fetch_links`` for Algorithm 2 from ``fetch(url) -> bytes | None``
    (files, an HTTP client): parsed defensively, unparsable pages have no links."""

    def fetch_links(url: str) -> list[KeyLink] | None:
        body = fetch(url)
        if body is None:
            return None
        return page_links(parse_html(body), url)

    return fetch_links
