"""The crawl's tree in Redis: read the recorded pages and offers, resolve, store.

The pipeline stores the resolved tree in ``:tree`` when a crawl finishes; the
commands read it, or resolve it on demand from ``:pages``, ``:offers`` and
``:aliases`` (:mod:`skeleton.hierarchy.aliases`) for a
crawl that has not finished, with the edge model recorded in the crawl's meta.
Thin glue around the pure :func:`skeleton.hierarchy.resolve.resolve_tree`.
"""
from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from skeleton.hierarchy.aliases import final_urls, merge_offers
from skeleton.hierarchy.facts import OfferFacts, PageFacts, offer_facts, page_facts
from skeleton.hierarchy.offers import origin_of, unpack_offers
from skeleton.hierarchy.resolve import resolve_facts
from skeleton.hierarchy.scoring import EdgeModel, EdgeModelError
from skeleton.store.keys import CrawlKeys

__all__ = ["pack_record", "unpack_record", "load_hash", "stored_offers", "stored_aliases", "recorded_facts",
           "resolve_recorded_tree", "store_tree", "crawl_edges"]


RECORD_ZLIB_LEVEL = 6
#: a stored record inflating beyond this is not read (a corrupt or hostile value)
MAX_RECORD_BYTES = 64 * 1024 * 1024
#: entries asked of Redis per HSCAN call while the tree is resolved
SCAN_COUNT = 1000


def _text(value: Any) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value or "")


def pack_record(record: dict[str, Any]) -> bytes:
    """A page record as stored in ``:pages``: compact JSON, zlib-compressed."""
    return zlib.compress(json.dumps(record, ensure_ascii=False, sort_keys=True,
                                    separators=(",", ":")).encode("utf-8"), RECORD_ZLIB_LEVEL)


def unpack_record(value: Any) -> Any:
    """A stored value of ``:pages`` (:func:`pack_record`) or another hash of JSON
    values, decoded; raises ValueError when it is neither."""
    if isinstance(value, (bytes, bytearray)) and value[:1] == b"\x78":  # a zlib stream
        try:
            value = zlib.decompressobj().decompress(bytes(value), MAX_RECORD_BYTES)
        except zlib.error as exc:
            raise ValueError(f"not a stored record: {exc}") from None
    return json.loads(value)


def load_hash(server: Any, key: str) -> dict[str, Any]:
    """A hash of JSON values (or :func:`pack_record` records), decoded; values that
    do not decode are left out."""
    out = {}
    for field, value in server.hscan_iter(key, count=1000):
        try:
            out[_text(field)] = unpack_record(value)
        except (ValueError, UnicodeDecodeError):
            continue
    return out


def stored_offers(server: Any, keys: CrawlKeys, root: str) -> dict[str, list[dict[str, Any]]]:
    """Child URL -> its offers as stored in ``:offers`` by the tree pipeline
    (:func:`skeleton.hierarchy.offers.unpack_offers`, URLs on ``root``'s origin
    written from their path)."""
    origin = origin_of(root)
    return {_text(child): unpack_offers(raw, origin)
            for child, raw in server.hscan_iter(keys.offers, count=1000)}


def resolve_recorded_tree(server: Any, keys: CrawlKeys, root: str,
                          edge_model: dict[str, Any] | None,
                          pages: Mapping[str, Any] | None = None) -> dict[str, dict[str, Any]]:
    """The tree (child -> ``{"parent", "depth"}``) resolved from the crawl's pages
    and offers (``pages``: its records already loaded, else read from ``:pages``).

    The same tree as :func:`skeleton.hierarchy.resolve.resolve_tree` over every
    record and offer with the aliases applied
    (:func:`skeleton.hierarchy.aliases.apply_aliases`), read in bounded memory:
    records and offers are read a batch at a time and only their facts
    (:mod:`skeleton.hierarchy.facts`) are kept (:func:`recorded_facts`)."""
    root, facts, offers = recorded_facts(server, keys, root, pages)
    return resolve_facts(root, facts, offers, edge_model or None)


def recorded_facts(server: Any, keys: CrawlKeys, root: str, pages: Mapping[str, Any] | None = None
                   ) -> tuple[str, dict[str, PageFacts], dict[str, list[OfferFacts]]]:
    """``(root, page facts, offer facts)`` of the crawl, aliases applied: the input
    of :func:`skeleton.hierarchy.resolve.resolve_facts`, equal to the facts of
    :func:`skeleton.hierarchy.aliases.apply_aliases` over :func:`load_hash` of
    ``:pages`` (or ``pages``), :func:`stored_offers` and :func:`stored_aliases`.
    The pages are those whose URL ``HKEYS`` returns when it starts (a page stored
    while it reads is left out); a record is decoded, reduced to its facts and
    dropped, a batch of ``SCAN_COUNT`` at a time."""
    aliases = stored_aliases(server, keys)
    final = final_urls(aliases)
    if pages is None:
        recorded = [_text(url) for url in server.hkeys(keys.pages)]
        records: Iterable[tuple[str, Any]] = _decoded(server.hscan_iter(keys.pages, count=SCAN_COUNT))
    else:
        recorded = list(pages)
        records = pages.items()
    # one string per URL that can be a page: a recorded URL and the page it leads to
    urls: dict[str, str] = {}
    for url in recorded:
        urls.setdefault(url, url)
        target = final(url)
        urls.setdefault(target, target)
    del recorded
    facts: dict[str, PageFacts] = {}
    values: dict[Any, Any] = {}  # equal tuples of URLs, one object
    moving: dict[str, tuple[str, PageFacts]] = {}  # final URL -> (its smallest alias, facts)
    for url, record in records:
        url = urls.get(url)
        if url is None:  # stored after HKEYS
            continue
        target = final(url)
        if target == url:
            facts[url] = page_facts(url, record, urls, values)
        elif target not in moving or url < moving[target][0]:
            # a page recorded under an alias (by an earlier version): moved to the
            # page it leads to unless that page has its own record
            moving[target] = (url, page_facts(target, record, urls, values))
    for target, (_, moved) in moving.items():
        facts.setdefault(target, moved)
    del moving, values
    offers = _offer_facts(server, keys, root, aliases, final, urls)
    return final(root), facts, offers


def _decoded(entries: Iterable[tuple[Any, Any]]) -> Iterator[tuple[str, Any]]:
    """``(field, decoded value)`` of a hash's entries, those that decode (:func:`load_hash`)."""
    for field, value in entries:
        try:
            yield _text(field), unpack_record(value)
        except (ValueError, UnicodeDecodeError):
            continue


def _offer_facts(server: Any, keys: CrawlKeys, root: str, aliases: Mapping[str, str],
                 final: Callable[[Any], Any], urls: Mapping[str, str]) -> dict[str, list[OfferFacts]]:
    """Child URL -> the facts of its stored offers, aliases applied as
    :func:`skeleton.hierarchy.aliases.apply_aliases` does: the offers of the URLs
    leading to one page are merged once all are read; any other child's at once."""
    origin = origin_of(root)
    values: dict[Any, Any] = {}
    # the pages aliases lead to: their offers wait for those of their aliases
    joined = set(map(final, aliases))
    waiting: dict[str, list[list[dict[str, Any]]]] = {}
    offers: dict[str, list[OfferFacts]] = {}
    for field, raw in server.hscan_iter(keys.offers, count=SCAN_COUNT):
        child = _text(field)
        child_offers: Sequence[Mapping[str, Any]] = unpack_offers(raw, origin)
        if aliases:
            target = final(child)
            if target != child or target in joined:
                waiting.setdefault(target, []).append(child_offers)  # type: ignore[arg-type]
                continue
            child_offers = merge_offers(child, [child_offers], final)
        if child_offers:
            child = urls.get(child, child)
            offers[child] = [offer_facts(o, urls, values) for o in child_offers]
    for target, lists in waiting.items():
        merged = merge_offers(target, lists, final)
        if merged:
            offers[urls.get(target, target)] = [offer_facts(o, urls, values) for o in merged]
    return offers


def stored_aliases(server: Any, keys: CrawlKeys) -> dict[str, str]:
    """The crawl's redirects (``:aliases``: alias -> target URL)."""
    return {_text(alias): _text(target) for alias, target in server.hscan_iter(keys.aliases, count=1000)}


def store_tree(server: Any, keys: CrawlKeys, tree: dict[str, dict[str, Any]]) -> None:
    """Replace the crawl's stored tree (``:tree``) by ``tree`` (child -> parent, depth)."""
    pipe = server.pipeline(transaction=True)
    pipe.delete(keys.tree)
    items = [(child, json.dumps(edge, sort_keys=True)) for child, edge in tree.items()]
    for start in range(0, len(items), 1000):
        pipe.hset(keys.tree, mapping=dict(items[start:start + 1000]))
    pipe.hset(keys.meta, "tree_pages", len(tree) + 1)
    pipe.execute()


def crawl_edges(server: Any, keys: CrawlKeys, pages: Mapping[str, Any] | None = None) -> dict[str, dict[str, Any]]:
    """The crawl's tree edges: the stored tree of a finished crawl, else resolved now."""
    meta = {_text(k): _text(v) for k, v in server.hgetall(keys.meta).items()}
    if meta.get("finish_reason") and meta.get("tree_pages"):
        return load_hash(server, keys.tree)
    try:
        model = json.loads(meta.get("edge_model") or "{}")
        if model:
            EdgeModel.from_dict(model)
    except (ValueError, KeyError, TypeError) as exc:
        raise EdgeModelError(f"crawl {keys.crawl!r} recorded an unusable edge model ({exc}): "
                             "crawl it again with this version") from None
    return resolve_recorded_tree(server, keys, meta.get("base", ""), model, pages)
