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
from typing import Any

from skeleton.hierarchy.aliases import apply_aliases
from skeleton.hierarchy.offers import origin_of, unpack_offers
from skeleton.hierarchy.resolve import resolve_tree
from skeleton.hierarchy.scoring import EdgeModel, EdgeModelError
from skeleton.store.keys import CrawlKeys

__all__ = ["pack_record", "unpack_record", "load_hash", "stored_offers", "stored_aliases", "resolve_recorded_tree", "store_tree", "crawl_edges"]


RECORD_ZLIB_LEVEL = 6
#: a stored record inflating beyond this is not read (a corrupt or hostile value)
MAX_RECORD_BYTES = 64 * 1024 * 1024


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
                          pages: dict[str, Any] | None = None) -> dict[str, dict[str, Any]]:
    """The tree (child -> ``{"parent", "depth"}``) resolved from the crawl's pages and offers."""
    pages = load_hash(server, keys.pages) if pages is None else pages
    offers = stored_offers(server, keys, root)
    root, pages, offers = apply_aliases(root, pages, offers, stored_aliases(server, keys))
    return resolve_tree(root, pages, offers, edge_model or None)


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


def crawl_edges(server: Any, keys: CrawlKeys, pages: dict[str, Any] | None = None) -> dict[str, dict[str, Any]]:
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
