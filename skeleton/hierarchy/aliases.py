"""One page, one node: URLs that redirect are aliases of the page they lead to.

A page is recorded under its final URL (after HTTP redirects and meta refreshes);
every URL of the redirect chain is an *alias* of it (``/WORLD`` -> ``/WORLD/``),
recorded by the crawl (:mod:`skeleton.middlewares.aliases`) whether or not the
redirected request was fetched again (when ``/WORLD/`` was already fetched from
another link, the dupefilter drops it). Before the tree is resolved, every URL in
the pages and offers is replaced by the page it leads to, so an offer made to an
alias is an offer to the node.

Chains are followed (``/a`` -> ``/b`` -> ``/c``) for at most ``MAX_HOPS`` hops; a
URL whose chain loops (``/a`` -> ``/b`` -> ``/a``) or runs longer stays itself. Pure and
order-free: the result depends only on the pages, offers and aliases.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from skeleton.web.urls import directory_alias

__all__ = ["MAX_HOPS", "apply_aliases", "final_evidence", "final_record", "final_url", "final_urls", "merge_offers"]

#: hops of a redirect chain followed (Scrapy's own limit is ``REDIRECT_MAX_TIMES`` = 20)
MAX_HOPS = 20


def final_url(url: str, aliases: Mapping[str, str]) -> str:
    """The URL ``url`` leads to through ``aliases`` (alias -> target); ``url``
    itself when its chain loops or runs longer than ``MAX_HOPS``."""
    start, seen = url, {url}
    for _ in range(MAX_HOPS):
        target = aliases.get(url)
        if not isinstance(target, str) or not target:
            return url
        if target in seen:
            return start
        seen.add(target)
        url = target
    return start


def final_urls(aliases: Mapping[str, str]) -> Callable[[Any], Any]:
    """:func:`final_url` through ``aliases``, remembered per URL (anything but a
    string is returned as it is)."""
    cache: dict[str, str] = {}

    def final(url: Any) -> Any:
        if not isinstance(url, str):
            return url
        if url not in cache:
            cache[url] = final_url(url, aliases)
        return cache[url]
    return final


def apply_aliases(root: str, pages: Mapping[str, Any],
                  offers: Mapping[str, Sequence[Mapping[str, Any]]],
                  aliases: Mapping[str, str]
                  ) -> tuple[str, dict[str, Any], dict[str, list[Mapping[str, Any]]]]:
    """``(root, pages, offers)`` with every URL replaced by the page it leads to
    (also those of the records' evidence and navigation links, :func:`final_record`).

    Pages recorded under an alias (by an earlier version) move to their final URL
    unless that URL has its own record. Offers to an alias join the final URL's;
    an offer's ``from`` and ``parent`` are replaced too; an offer from a page to
    itself is dropped, and two offers of one child with the same ``from`` and
    ``parent`` are kept once (the first in JSON order, so arrival order never matters)."""
    if not aliases:
        return root, dict(pages), {child: list(os_) for child, os_ in offers.items()}
    final = final_urls(aliases)
    moved: dict[str, Any] = {}
    for url in sorted(pages):
        target = final(url)
        if target == url:
            moved[url] = final_record(pages[url], final)
        elif target not in pages:
            moved.setdefault(target, final_record(pages[url], final))  # the smallest alias's record
    by_target: dict[str, list[Sequence[Mapping[str, Any]]]] = {}
    for child in sorted(offers):
        by_target.setdefault(final(child), []).append(offers[child])
    merged = {target: merge_offers(target, lists, final) for target, lists in by_target.items()}
    return final(root), moved, {child: kept for child, kept in merged.items() if kept}


def final_record(record: Any, final: Callable[[Any], Any]) -> Any:
    """A page record whose evidence and navigation link URLs are replaced by the pages
    they lead to (a copy; the record itself is not changed): a breadcrumb naming
    ``/updates`` names the page ``/updates/``."""
    if not isinstance(record, Mapping):
        return record
    out = dict(record)
    evidence = record.get("evidence")
    if isinstance(evidence, Mapping):
        out["evidence"] = final_evidence(evidence, final)
    links = record.get("nav_links")
    if isinstance(links, list):
        out["nav_links"] = [{**link, "url": final(link.get("url"))} if isinstance(link, Mapping) else link
                            for link in links]
    return out


def final_evidence(evidence: Mapping[str, Any], final: Callable[[Any], Any]) -> dict[str, Any]:
    """A page's evidence with every URL replaced by the page it leads to; a pager link
    only when the page is the same URL but for a trailing slash or an index file name
    (``/news/page/2`` -> ``/news/page/2/``): pagination is read from the URLs, and a
    numbered link that redirects elsewhere is no later page of the listing."""
    out: dict[str, Any] = {}
    for kind, found in evidence.items():
        if not isinstance(found, list):
            out[kind] = found
        elif kind == "pager":
            out[kind] = [target if _same_place(url, target := final(url)) else url for url in found]
        else:
            out[kind] = [final(url) for url in found]
    return out


def _same_place(url: Any, target: Any) -> bool:
    """Are the two URLs one page but for a trailing slash or a directory's index file?"""
    if not isinstance(url, str) or not isinstance(target, str):
        return False
    return directory_alias(url).rstrip("/") == directory_alias(target).rstrip("/")


def merge_offers(target: str, offer_lists: Iterable[Sequence[Mapping[str, Any]]],
                 final: Callable[[Any], Any]) -> list[Mapping[str, Any]]:
    """The offers of the page ``target`` (:func:`apply_aliases`) from the offers of
    every URL leading to it (``offer_lists``, in any order): ``from`` and ``parent``
    replaced by ``final``, an offer from or under ``target`` itself dropped, one
    offer per ``from`` and ``parent`` (the first in JSON order), sorted by them."""
    kept: dict[tuple[Any, Any], Mapping[str, Any]] = {}
    for child_offers in offer_lists:
        for offer in child_offers:
            origin, parent = final(offer.get("from")), final(offer.get("parent"))
            if origin == target or parent == target:
                continue
            renamed = {**offer, "from": origin, "parent": parent}
            key = (origin, parent)
            if key not in kept or _order(renamed) < _order(kept[key]):
                kept[key] = renamed
    return [kept[k] for k in sorted(kept, key=str)]


def _order(offer: Mapping[str, Any]) -> str:
    return json.dumps(offer, sort_keys=True, default=str)
