"""Views: listings that re-list what the site files elsewhere are not nodes.

The site's truth rule (``shared/corpus/README.md``): tag, author, date-archive and
search pages, filters and sorts re-list content the site files under its
sections, and are not nodes. Words in URLs ("tag", "author") are not evidence
(sites are in many languages); the resolved tree is. A **listing** is a page
that offers at least ``VIEW_MIN_ITEMS`` pages through a navigation set of its own
(one no other page repeats, unlike a site-wide menu); a listing that, once every
page has its best parent, files none of them, and whose items are all leaves of
the tree (content, not sections: a post's block naming its category is no
listing), is a **view** and leaves the tree.
A page whose own breadcrumb, up link or highlighted trail names the parent it
is given is filed there by the site, and is never a view. A view's removal can leave its own parent a listing with no child (an index of
tags): views are removed until none is left.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from typing import Any

from .facts import OfferFacts

__all__ = ["MAX_ROUNDS", "VIEW_MIN_ITEMS", "listed_views", "listing_items", "view_pages"]

#: a page that lists fewer pages than this through its own sets is not a listing
VIEW_MIN_ITEMS = 4
#: rounds of removal (a view hanging from a view is found in the next round)
MAX_ROUNDS = 8


def listing_items(offers: Mapping[str, Sequence[Any]]) -> dict[str, dict[str, set[str]]]:
    """Page -> its navigation sets of its own (a set whose fingerprint ``sig`` no
    other offering page has): ``sig`` -> the pages the set offers. An offer is a
    mapping of :mod:`.offers`' fields or a :class:`.facts.OfferFacts`."""
    def triples() -> Iterator[tuple[str, str, str]]:
        for child, child_offers in offers.items():
            for offer in child_offers:
                if isinstance(offer, OfferFacts):
                    yield child, str(offer.origin), offer.sig
                else:
                    yield child, str(offer.get("from", "")), str(offer.get("sig", ""))
    return _items(triples)


def _items(triples: Callable[[], Iterable[tuple[str, str, str]]]) -> dict[str, dict[str, set[str]]]:
    """:func:`listing_items` from ``(child, offering page, sig)`` of every offer
    (``triples`` is called twice: one pass finds the sets of one page, the other
    gathers their items)."""
    many = object()
    page_of_sig: dict[str, Any] = {}
    for _, origin, sig in triples():
        seen = page_of_sig.setdefault(sig, origin)
        if seen is not many and seen != origin:
            page_of_sig[sig] = many
    items: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for child, origin, sig in triples():
        if origin != child and page_of_sig[sig] is not many:
            items[origin][sig].add(child)
    return {page: dict(sets) for page, sets in items.items()}


def _re_lists(page: str, listed: set[str], parents: Mapping[str, str], real_children: Counter) -> bool:
    """Does the set ``listed`` of ``page`` re-list content filed elsewhere: at least
    ``VIEW_MIN_ITEMS`` pages, none with a child of its own, filed under two or more
    parents, fewer than half of them the page's own siblings (a "see also" list of
    its section's pages is the page's context, not a view)?"""
    if len(listed) < VIEW_MIN_ITEMS or any(real_children[i] for i in listed):
        return False
    their_parents = [parents[i] for i in listed]
    siblings = sum(p == parents[page] for p in their_parents)
    return len(set(their_parents)) >= 2 and 2 * siblings < len(listed)


def view_pages(root: str, parents: Mapping[str, str],
               offers: Mapping[str, Sequence[Any]],
               placed: Collection[str] = ()) -> set[str]:
    """The pages of the tree ``parents`` (child -> parent, rooted at ``root``) that
    are views: pages with no child in the tree and a navigation set of their own
    that lists ``VIEW_MIN_ITEMS`` or more pages of the tree, all content (no child
    but leaves that are listings themselves); repeatedly. ``root`` is never a view,
    nor a page in ``placed`` (its own breadcrumb, up link or highlighted trail
    names the parent the tree gives it: the site files it there)."""
    return listed_views(root, parents, listing_items(offers), placed)


def listed_views(root: str, parents: Mapping[str, str], listings: Mapping[str, Mapping[str, set[str]]],
                 placed: Collection[str] = ()) -> set[str]:
    """:func:`view_pages` from the crawl's :func:`listing_items` (which it does not change)."""
    items = {p: [{i for i in listed if i in parents} for _, listed in sorted(sets.items())]
             for p, sets in listings.items() if p != root and p in parents and p not in placed}
    views: set[str] = set()
    for _ in range(MAX_ROUNDS):
        live = [c for c in parents if c not in views]
        children = Counter(parents[c] for c in live)
        # leaves that list pages: views or not, they say nothing of their parent's
        # role (a post is content even when its tag pages hang from it)
        shaped = {p for p, sets in items.items() if p not in views and not children[p]
                  and any(len(listed - views) >= VIEW_MIN_ITEMS for listed in sets)}
        real_children = Counter(parents[c] for c in live if c not in shaped)
        found = {p for p in shaped if any(_re_lists(p, listed - views, parents, real_children)
                                          for listed in items[p])}
        if not found:
            break
        views |= found
    return views
