"""Offers: what one page says, through its navigation links, about other pages' places.

A page P whose navigation link set holds a link to C *offers* C a parent: P
itself (a direct link), or for a nested table of contents the entry under which
C is listed. Every offer is kept, not only the best one (issue "the site's own
hierarchy", item 1); the tree is chosen later from all of them
(:mod:`skeleton.hierarchy.resolve`).

An offer is a small JSON-safe dict computed from P alone, so it is the same
whatever the order in which pages arrive:

``from``   the offering page P;
``parent`` the candidate parent (P, or the enclosing TOC entry);
``level``  nesting level below P (1 for a direct link);
``size``   number of links in the navigation set holding the link;
``pos``    relative position of the link in that set (0 first, 1 last);
``toc``    1 when the set is nested (a table of contents with sub-entries);
``alpha``  1 when the set is sorted by its link texts (an A-Z index);
``dirs``   distinct URL directories among the set's links over its size: near 0
           for a section's own listing, high for a list mixing sections
           (teasers, "latest", a site-wide menu);
``inside`` share of the set's links under the folder P names as its section
           (:func:`section_folder`);
``sig``    a short fingerprint of the set's URLs: sets repeated on many pages
           (a site-wide menu or sidebar) share it.

SEW (Section 3.2) chooses the navigation sets; these are the features of the
set a link came from, which SEW's own features describe for the set as a whole.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from typing import Any


from skeleton.budget import checkpoint
from skeleton.sew.links import LinkNode
from skeleton.sew.nesting import folder_holds, section_folder
from skeleton.web.urls import directory, split_url

__all__ = ["ALPHA_MIN_SIZE", "MAX_OFFERS", "OFFER_FIELDS", "REPEAT_SHARE", "kept_offers", "repeated_sets", "offer_key", "origin_of", "pack_offer",
           "unpack_offers",
           "page_offers", "section_folder", "set_signature"]

#: a set shorter than this is never called alphabetical (three titles are often sorted by chance)
ALPHA_MIN_SIZE = 8
#: a page repeats an ancestor's navigation set when it links at least this share of its URLs
REPEAT_SHARE = 0.9
#: offers kept per child page; beyond it the offers with the largest ``offer_key`` are dropped
MAX_OFFERS = 24
#: an offer's features in their stored order (``from`` and ``parent`` are in its key)
OFFER_FIELDS = ("level", "size", "pos", "toc", "alpha", "dirs", "inside", "sig")
#: the stored key's fixed-width prefix (place, level, size) before ``from`` and ``parent``
_KEY_PREFIX = 8
#: the prefix of keys stored before the place letter (level, size): read as they are
_OLD_KEY_PREFIX = 7
#: the key's first letter: the offering page's folder holds the child, or not
ABOVE, ELSEWHERE = "a", "b"


def set_signature(urls: Iterable[str]) -> str:
    """A short, order-free fingerprint of a set of URLs."""
    digest = hashlib.blake2b("\n".join(sorted(set(urls))).encode("utf-8", "replace"), digest_size=6)
    return digest.hexdigest()


def repeated_sets(known: Iterable[set[str]], urls: Iterable[str]) -> list[str]:
    """The :func:`set_signature` of each set of ``known`` (the page's LinkSetDup
    context: its ancestors' navigation sets, the home page's first) of which the
    page's links ``urls`` hold at least ``REPEAT_SHARE``: a site menu that every
    page repeats, which LinkSetDup then leaves out of the page's own sets. Linear
    in the links and the sets."""
    linked = set(urls)
    out = []
    for urls_of_set in known:
        if urls_of_set and sum(1 for u in urls_of_set if u in linked) >= REPEAT_SHARE * len(urls_of_set):
            out.append(set_signature(urls_of_set))
    return out


def offer_key(offer: dict[str, Any], origin: str = "", child: str = "") -> str:
    """The bound's order (smaller is kept): first the offers of pages whose URL
    folder holds ``child`` (:func:`folder_holds`: a handful per child, the pages a
    folder tree would hang it from), then nested entries and short lists, a
    site-wide menu or an A-Z index of thousands last; then by offering page and
    parent (bytewise; a space between them, which no URL holds), so the kept
    offers never depend on arrival order. With ``origin`` (``scheme://host``), the
    URLs on it are written from their path: the key an offer is stored under."""
    frm = str(offer.get("from", ""))
    place = ABOVE if child and folder_holds(frm, child) else ELSEWHERE
    return (f"{place}{min(int(offer.get('level', 1)), 99):02d}{min(int(offer.get('size', 0)), 99999):05d}"
            f"{_short(frm, origin)} {_short(str(offer.get('parent', '')), origin)}")


def kept_offers(child: str, offers: Iterable[dict[str, Any]], origin: str = "",
                bound: int = MAX_OFFERS) -> list[dict[str, Any]]:
    """The offers ``child`` keeps in the crawl's store: the ``bound`` smallest by
    :func:`offer_key`, as the tree pipeline's script keeps them (the offline crawl
    applies it so that it sees what a crawl stores)."""
    return sorted(offers, key=lambda offer: offer_key(offer, origin, child))[:bound]


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of ``url`` ('' if unparsable): the part of a site's
    URLs that stored offers leave out."""
    parts = split_url(url)
    return f"{parts.scheme}://{parts.netloc}" if parts is not None and parts.netloc else ""


def _short(url: str, origin: str) -> str:
    # a space, tab or newline (none in a canonical URL) would break the stored line
    url = url.replace(" ", "%20").replace("\t", "%09").replace("\n", "%0A")
    return url[len(origin):] if origin and url.startswith(origin + "/") else url


def _long(url: str, origin: str) -> str:
    return origin + url if url.startswith("/") else url


def pack_offer(offer: dict[str, Any], origin: str = "", child: str = "") -> tuple[str, str]:
    """An offer to ``child`` as stored: its key (:func:`offer_key` with ``origin``,
    which holds ``from`` and ``parent``) and its other features as a compact JSON
    array in :data:`OFFER_FIELDS` order. Neither holds a tab or a newline."""
    values = json.dumps([offer.get(name) for name in OFFER_FIELDS], ensure_ascii=False,
                        separators=(",", ":"))
    return offer_key(offer, origin, child), values


def key_prefix(key: str) -> int:
    """The length of a stored key's ordering prefix: keys stored before the place
    letter (:data:`ABOVE`, :data:`ELSEWHERE`) begin with a digit."""
    return _OLD_KEY_PREFIX if key[:1].isdigit() else _KEY_PREFIX


def unpack_offers(stored: Any, origin: str = "") -> list[dict[str, Any]]:
    """The offers of one child as stored in ``:offers``: lines of ``key TAB
    features`` (:func:`pack_offer`); lines that do not decode are skipped."""
    text = stored.decode("utf-8", "replace") if isinstance(stored, bytes) else stored
    out: list[dict[str, Any]] = []
    for line in text.split("\n") if isinstance(text, str) else ():
        key, tab, values = line.partition("\t")
        prefix = key_prefix(key)
        frm, space, parent = key[prefix:].partition(" ")
        if not tab or not space or len(key) < prefix:
            continue
        try:
            features = json.loads(values)
        except ValueError:
            continue
        if not isinstance(features, list) or len(features) != len(OFFER_FIELDS):
            continue
        offer = {name: value for name, value in zip(OFFER_FIELDS, features) if value is not None}
        offer["from"], offer["parent"] = _long(frm, origin), _long(parent, origin)
        out.append(offer)
    return out


def _sorted_texts(texts: Sequence[str]) -> bool:
    keys = [t.strip().casefold() for t in texts if t.strip()]
    return len(keys) >= ALPHA_MIN_SIZE and keys == sorted(keys)


def _set_stats(page: str, urls: Sequence[str], texts: Sequence[str]) -> dict[str, Any]:
    urls = [u for u in urls if u]
    n = max(len(urls), 1)
    home = section_folder(page)
    return {"size": len(urls),
            "alpha": int(_sorted_texts(texts)),
            "dirs": round(len({directory(u) for u in urls}) / n, 3),
            "inside": round(sum(directory(u).startswith(home) for u in urls) / n, 3),
            "sig": set_signature(urls)}


def page_offers(page: str, nav_sets: Sequence[Sequence[LinkNode]],
                followed: Iterable[tuple[str, str, str, int]]) -> dict[str, dict[str, Any]]:
    """The offers of page ``page``: child URL -> offer.

    ``nav_sets`` are the page's accepted navigation link sets and ``followed`` its
    followed links as ``(url, text, parent, level)`` (``edges.followed_links``);
    a link that is in no set (a BFS crawl) counts as one set of all followed links."""
    followed = list(followed)
    where: dict[str, tuple[int, int]] = {}
    stats = []
    toc_sets: set[int] = set()
    for index, link_set in enumerate(nav_sets):
        checkpoint()
        stats.append(_set_stats(page, [link.url for link in link_set],
                                [link.sec_name for link in link_set]))
        for pos, link in enumerate(link_set):
            where.setdefault(link.url, (index, pos))
    for url, _, _, level in followed:
        if level > 1 and url in where:
            toc_sets.add(where[url][0])
    loose = {u: i for i, (u, _, _, _) in enumerate(u for u in followed if u[0] not in where)}
    loose_stats = _set_stats(page, list(loose), [t for u, t, _, _ in followed if u in loose])
    offers = {}
    for url, _, parent, level in followed:
        checkpoint()
        if url in where:
            index, pos = where[url]
            size_stats, size, toc = stats[index], len(nav_sets[index]), index in toc_sets
        else:
            size_stats, size, toc, pos = loose_stats, len(loose), False, loose[url]
        offers[url] = {"from": page, "parent": parent, "level": level, **size_stats,
                       "pos": round(pos / max(size - 1, 1), 3), "toc": int(toc)}
    return offers
