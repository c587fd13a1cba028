"""The crawl's tree in Redis: the recorded pages and offers read, the tree stored.

The crawl lifecycle stores the resolved tree in ``:tree`` when a crawl finishes;
the commands read it, or have it resolved on demand from ``:pages``, ``:offers``
and ``:aliases`` for a crawl that has not finished, with the edge model recorded in
the crawl's meta. This module only reads and writes: the resolution is
:mod:`skeleton.hierarchy.recorded` (facts from the records as they are read) and
:func:`skeleton.hierarchy.resolve.resolve_facts`.
"""
from __future__ import annotations

import json
import zlib
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from skeleton.hierarchy.facts import OfferFacts, PageFacts
from skeleton.hierarchy.offers import origin_of, unpack_offers
from skeleton.hierarchy.recorded import recorded_facts as hierarchy_facts
from skeleton.hierarchy.recorded import resolve_recorded
from skeleton.hierarchy.scoring import EdgeModel, EdgeModelError
from skeleton.store.keys import META_BASE, META_EDGE_MODEL, META_FINISH_REASON, META_TREE_PAGES, CrawlKeys
from skeleton.store.meta import read_meta

__all__ = ["pack_record", "unpack_record", "load_hash", "stored_offers", "stored_aliases", "recorded_facts",
           "resolve_recorded_tree", "stored_pages", "stored_tree", "store_tree", "crawl_edges"]


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
    records and offers are read a batch at a time and only their facts are kept
    (:func:`skeleton.hierarchy.recorded.resolve_recorded`)."""
    return resolve_recorded(root, *_recorded(server, keys, root, pages), edge_model)


def recorded_facts(server: Any, keys: CrawlKeys, root: str, pages: Mapping[str, Any] | None = None
                   ) -> tuple[str, dict[str, PageFacts], dict[str, list[OfferFacts]]]:
    """``(root, page facts, offer facts)`` of the crawl
    (:func:`skeleton.hierarchy.recorded.recorded_facts`) over :func:`load_hash` of
    ``:pages`` (or ``pages``), :func:`stored_offers` and :func:`stored_aliases`."""
    return hierarchy_facts(root, *_recorded(server, keys, root, pages))


def _recorded(server: Any, keys: CrawlKeys, root: str, pages: Mapping[str, Any] | None
              ) -> tuple[list[str], Iterable[tuple[str, Any]], dict[str, str], Iterator[tuple[str, Any]]]:
    """The crawl's recorded URLs, records, aliases and offers as
    :mod:`skeleton.hierarchy.recorded` reads them: the aliases and the URLs read now
    (the pages are those whose URL ``HKEYS`` returns: a page stored while the
    records are read is left out), the records (unless ``pages`` are given) and the
    offers read as they are consumed, ``SCAN_COUNT`` at a time."""
    aliases = stored_aliases(server, keys)
    if pages is None:
        recorded = [_text(url) for url in server.hkeys(keys.pages)]
        records: Iterable[tuple[str, Any]] = _decoded(server.hscan_iter(keys.pages, count=SCAN_COUNT))
    else:
        recorded, records = list(pages), pages.items()
    origin = origin_of(root)
    offers = ((_text(child), unpack_offers(raw, origin))
              for child, raw in server.hscan_iter(keys.offers, count=SCAN_COUNT))
    return recorded, records, aliases, offers


def _decoded(entries: Iterable[tuple[Any, Any]]) -> Iterator[tuple[str, Any]]:
    """``(field, decoded value)`` of a hash's entries, those that decode (:func:`load_hash`)."""
    for field, value in entries:
        try:
            yield _text(field), unpack_record(value)
        except (ValueError, UnicodeDecodeError):
            continue


def stored_aliases(server: Any, keys: CrawlKeys) -> dict[str, str]:
    """The crawl's redirects (``:aliases``: alias -> target URL)."""
    return {_text(alias): _text(target) for alias, target in server.hscan_iter(keys.aliases, count=1000)}


def stored_pages(server: Any, keys: CrawlKeys) -> dict[str, Any]:
    """The crawl's page records (``:pages``: URL -> record), those that decode."""
    return load_hash(server, keys.pages)


def stored_tree(server: Any, keys: CrawlKeys) -> dict[str, dict[str, Any]]:
    """The crawl's stored tree (``:tree``: child -> ``{"parent", "depth"}``)."""
    return load_hash(server, keys.tree)


def store_tree(server: Any, keys: CrawlKeys, tree: dict[str, dict[str, Any]]) -> None:
    """Replace the crawl's stored tree (``:tree``) by ``tree`` (child -> parent, depth)."""
    pipe = server.pipeline(transaction=True)
    pipe.delete(keys.tree)
    items = [(child, json.dumps(edge, sort_keys=True)) for child, edge in tree.items()]
    for start in range(0, len(items), 1000):
        pipe.hset(keys.tree, mapping=dict(items[start:start + 1000]))
    pipe.hset(keys.meta, META_TREE_PAGES, len(tree) + 1)
    pipe.execute()


def crawl_edges(server: Any, keys: CrawlKeys, pages: Mapping[str, Any] | None = None) -> dict[str, dict[str, Any]]:
    """The crawl's tree edges: the stored tree of a finished crawl, else resolved now."""
    meta = read_meta(server, keys)
    if meta.get(META_FINISH_REASON) and meta.get(META_TREE_PAGES):
        return stored_tree(server, keys)
    try:
        model = json.loads(meta.get(META_EDGE_MODEL) or "{}")
        if model:
            EdgeModel.from_dict(model)
    except (ValueError, KeyError, TypeError) as exc:
        raise EdgeModelError(f"crawl {keys.crawl!r} recorded an unusable edge model ({exc}): "
                             "crawl it again with this version") from None
    return resolve_recorded_tree(server, keys, meta.get(META_BASE, ""), model, pages)
