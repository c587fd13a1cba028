"""The few facts of pages and offers that resolving the tree reads, in compact form.

A stored page record holds far more than the tree needs (titles, texts, all its
links). :func:`page_facts` keeps what :mod:`.features`, :mod:`.pagination` and
:mod:`.resolve` read of a record, as tuples of strings; :func:`offer_facts` keeps
an offer's fields as one small tuple with the defaults the features apply. A
crawl of many pages is resolved from these (:func:`.resolve.resolve_facts`),
so its memory grows by a few hundred bytes per page, not by its records.

Given a table of the crawl's URLs, every page and offer refers to one string
object per URL, however many times it is named.

Pure: no I/O; the facts of a record depend only on the record and its URL.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from skeleton.web.urls import split_url

from .aliases import final_evidence

__all__ = ["FAILED_REASON", "NOT_FOUND", "NOT_NODES", "NO_OFFER", "OfferFacts", "PageFacts", "is_node",
           "not_found", "offer_facts", "page_facts"]

#: page ``reason``s of pages that are never nodes: a page that answers with a form
#: only (:func:`skeleton.urlrules.actions.form_only`) and a copy of the site in
#: another language (:mod:`skeleton.urlrules.language`)
NOT_NODES = frozenset({"form", "language"})
#: page ``reason`` of a page that failed for good (an HTTP error after retries, a
#: timeout, a DNS or connection error, a body too large, a redirect loop...; its
#: record's ``status`` says which: ``skeleton.spiders.failures.failure_status``)
FAILED_REASON = "failed"
#: ``status``es of a failed page that the site says does not exist (Not Found, Gone):
#: a broken link, no page of the site, so no node (a page failing with any other
#: status, a 500 or a timeout, exists and is a node)
NOT_FOUND = frozenset({"404", "410"})


def not_found(record: Any) -> bool:
    """Is ``record`` that of a URL the site answered with Not Found or Gone (``NOT_FOUND``)?"""
    return (isinstance(record, Mapping) and record.get("reason") == FAILED_REASON
            and str(record.get("status")) in NOT_FOUND)


def is_node(record: Any) -> bool:
    """Can the page of ``record`` be a node: its ``reason`` is not in ``NOT_NODES`` and
    the site did not answer it with Not Found (:func:`not_found`)?"""
    return not isinstance(record, Mapping) or (record.get("reason") not in NOT_NODES and not not_found(record))


class PageFacts(NamedTuple):
    """What resolution reads of one page record (:func:`page_facts`)."""

    #: False for a page whose ``reason`` is in ``NOT_NODES`` or that was not found (:func:`is_node`)
    node: bool
    #: the page's breadcrumb, up links, highlighted trail and the sections it says
    #: it is filed in (``evidence``), its own host's URLs only, in record order
    crumbs: tuple[str, ...]
    up: tuple[str, ...]
    trail: tuple[str, ...]
    filed: tuple[str, ...]
    #: its pager links (``evidence["pager"]``, when a list): URLs only
    pager: tuple[str, ...]
    #: the URLs of its navigation links (``nav_links``)
    links: tuple[Any, ...]
    #: a breadcrumb's links when the trail names places between its last link and the
    #: page as text only (``evidence["above"]``): ancestors, the last not the parent
    above: tuple[str, ...] = ()
    #: the signatures of the ancestors' navigation sets the page repeats
    #: (``evidence["menus"]``: a site menu, :func:`.offers.repeated_sets`)
    menus: tuple[str, ...] = ()


class OfferFacts(NamedTuple):
    """One offer (:mod:`.offers`) with the defaults the features apply to a missing field."""

    origin: Any  # ``from``: the offering page ("" when absent)
    parent: Any
    level: int
    size: int
    toc: int
    alpha: int
    dirs: float
    inside: float
    sig: str


#: the figures of a named-only edge's missing offer (sizes and dirs come from the child's other offers)
NO_OFFER = OfferFacts("", None, 1, 0, 0, 0, 1.0, 0.0, "")


def _host(url: str) -> str:
    parts = split_url(url)
    return parts.netloc.lower() if parts is not None else ""


def page_facts(url: str, record: Any, urls: Mapping[str, str] | None = None,
               values: dict[Any, Any] | None = None, final: Callable[[Any], Any] | None = None) -> PageFacts:
    """The facts of the page ``url`` whose record is ``record`` (a JSON-safe mapping
    with ``reason``, ``evidence`` and ``nav_links``; anything else is a page with no
    evidence and no links). The evidence URLs are those on ``url``'s own host (a site
    names its own pages).

    With ``urls`` (URL -> the one string object to use for it; a superset of the
    URLs of the pages resolved), pager and navigation link URLs not in it are left
    out (only a page can be a parent or a page of a listing), and every URL kept is
    its string in ``urls`` when it has one, so many pages share one string. With
    ``values`` (a dict the caller keeps for all pages), equal tuples of URLs (the
    breadcrumb and menu links of a section's pages) are one object. With ``final``
    (:func:`skeleton.hierarchy.aliases.final_urls`), every URL the record names is
    first replaced by the page it leads to (:func:`.aliases.final_evidence`): a
    breadcrumb's ``/updates`` is the page ``/updates/``."""
    if not isinstance(record, Mapping):
        return PageFacts(True, (), (), (), (), (), ())
    ev = record.get("evidence") or {}
    if not isinstance(ev, Mapping):
        ev = {}
    if final is not None:
        ev = final_evidence(ev, final)
    shared: Mapping[str, str] = urls if urls is not None else {}
    host = None

    def own(values: Any) -> tuple[str, ...]:
        nonlocal host
        if not values:
            return ()
        if host is None:
            host = _host(url)
        return tuple(shared.get(u, u) for u in values if isinstance(u, str) and _host(u) == host)

    pager = ev.get("pager")
    links = {link.get("url") for link in record.get("nav_links") or [] if isinstance(link, Mapping)}
    if final is not None:
        links = {final(u) for u in links}
    if urls is not None:
        pager = [urls[u] for u in pager if isinstance(u, str) and u in urls] if isinstance(pager, list) else ()
        links = {urls[u] for u in links if isinstance(u, str) and u in urls}
    fields = (own(ev.get("crumbs")), own(ev.get("up")), own(ev.get("trail")), own(ev.get("filed")),
              tuple(u for u in pager if isinstance(u, str)) if isinstance(pager, list) else (),
              tuple(sorted(links, key=str)) if values is not None else tuple(links),
              own(ev.get("above")),
              tuple(m for m in ev.get("menus") or () if isinstance(m, str)) if isinstance(ev.get("menus"), list)
              else ())
    if values is not None:
        fields = tuple(values.setdefault(f, f) if f else () for f in fields)
    return PageFacts(is_node(record), *fields)


def offer_facts(offer: Mapping[str, Any], urls: Mapping[str, str] | None = None,
                values: dict[Any, Any] | None = None) -> OfferFacts:
    """The facts of one offer (a mapping of :mod:`.offers`' fields). With ``urls``
    (as for :func:`page_facts`) its page URLs are the strings there; with
    ``values`` (a dict the caller keeps for all offers) equal offers (the offers
    one navigation set makes to each of its pages), signatures and figures are
    one object."""
    origin, parent = offer.get("from", ""), offer.get("parent")
    if urls is not None:
        origin = urls.get(origin, origin) if isinstance(origin, str) else origin
        parent = urls.get(parent, parent) if isinstance(parent, str) else parent
    dirs, inside = float(offer.get("dirs", 1.0)), float(offer.get("inside", 0.0))
    sig = str(offer.get("sig", ""))
    if values is not None:
        dirs, inside, sig = (values.setdefault(("f", dirs), dirs), values.setdefault(("f", inside), inside),
                             values.setdefault(sig, sig))
    facts = OfferFacts(origin, parent, int(offer.get("level", 1)), int(offer.get("size", 0)),
                       int(offer.get("toc", 0)), int(offer.get("alpha", 0)), dirs, inside, sig)
    return values.setdefault(facts, facts) if values is not None else facts
