"""The tree of a recorded crawl, from its records and offers as they are read.

:func:`recorded_facts` turns a crawl's page records, offers and aliases, read one
at a time (by :mod:`skeleton.store.tree` from Redis, in batches), into the input of
:func:`skeleton.hierarchy.resolve.resolve_facts`: only each record's and offer's
facts (:mod:`skeleton.hierarchy.facts`) are kept, so a large crawl resolves in
bounded memory; the facts equal those of
:func:`skeleton.hierarchy.aliases.apply_aliases` over every record and offer.
:func:`resolve_recorded` resolves the tree from them. Pure: no Redis, no Scrapy.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from skeleton.hierarchy.aliases import final_urls, merge_offers
from skeleton.hierarchy.facts import OfferFacts, PageFacts, offer_facts, page_facts
from skeleton.hierarchy.resolve import resolve_facts

__all__ = ["recorded_facts", "resolve_recorded"]


def resolve_recorded(root: str, recorded: Iterable[str], records: Iterable[tuple[str, Any]],
                     aliases: Mapping[str, str], offers: Iterable[tuple[str, Sequence[Mapping[str, Any]]]],
                     edge_model: dict[str, Any] | None) -> dict[str, dict[str, Any]]:
    """The tree (child -> ``{"parent", "depth"}``) of :func:`recorded_facts`."""
    root, facts, offer_lists = recorded_facts(root, recorded, records, aliases, offers)
    return resolve_facts(root, facts, offer_lists, edge_model or None)


def recorded_facts(root: str, recorded: Iterable[str], records: Iterable[tuple[str, Any]],
                   aliases: Mapping[str, str], offers: Iterable[tuple[str, Sequence[Mapping[str, Any]]]]
                   ) -> tuple[str, dict[str, PageFacts], dict[str, list[OfferFacts]]]:
    """``(root, page facts, offer facts)`` of a crawl, aliases applied: ``recorded``
    the URLs of its pages (a record of another URL is left out: stored after they
    were listed), ``records`` ``(URL, decoded record)``, ``aliases`` alias -> target
    and ``offers`` ``(child URL, its decoded offers)``; records and offers are
    consumed one at a time, reduced to their facts and dropped."""
    final = final_urls(aliases)
    # one string per URL that can be a page: a recorded URL and the page it leads to
    urls: dict[str, str] = {}
    for url in recorded:
        urls.setdefault(url, url)
        target = final(url)
        urls.setdefault(target, target)
    facts: dict[str, PageFacts] = {}
    values: dict[Any, Any] = {}  # equal tuples of URLs, one object
    moving: dict[str, tuple[str, PageFacts]] = {}  # final URL -> (its smallest alias, facts)
    for url, record in records:
        url = urls.get(url)
        if url is None:  # stored after the URLs were listed
            continue
        target = final(url)
        if target == url:
            facts[url] = page_facts(url, record, urls, values, final)
        elif target not in moving or url < moving[target][0]:
            # a page recorded under an alias (by an earlier version): moved to the
            # page it leads to unless that page has its own record
            moving[target] = (url, page_facts(target, record, urls, values, final))
    for target, (_, moved) in moving.items():
        facts.setdefault(target, moved)
    del moving, values
    return final(root), facts, _offer_facts(offers, aliases, final, urls)


def _offer_facts(offers: Iterable[tuple[str, Sequence[Mapping[str, Any]]]], aliases: Mapping[str, str],
                 final: Callable[[Any], Any], urls: Mapping[str, str]) -> dict[str, list[OfferFacts]]:
    """Child URL -> the facts of its offers, aliases applied as
    :func:`skeleton.hierarchy.aliases.apply_aliases` does: the offers of the URLs
    leading to one page are merged once all are read; any other child's at once."""
    values: dict[Any, Any] = {}
    # the pages aliases lead to: their offers wait for those of their aliases
    joined = set(map(final, aliases))
    waiting: dict[str, list[list[dict[str, Any]]]] = {}
    found: dict[str, list[OfferFacts]] = {}
    for child, child_offers in offers:
        if aliases:
            target = final(child)
            if target != child or target in joined:
                waiting.setdefault(target, []).append(child_offers)  # type: ignore[arg-type]
                continue
            child_offers = merge_offers(child, [child_offers], final)
        if child_offers:
            child = urls.get(child, child)
            found[child] = [offer_facts(o, urls, values) for o in child_offers]
    for target, lists in waiting.items():
        merged = merge_offers(target, lists, final)
        if merged:
            found[urls.get(target, target)] = [offer_facts(o, urls, values) for o in merged]
    return found
