"""The crawl's tree in Redis: read the recorded pages and offers, resolve, store.

The pipeline stores the resolved tree in ``:tree`` when a crawl finishes; the
commands read it, or resolve it on demand from ``:pages``, ``:offers`` and
``:aliases`` (:mod:`skeleton.hierarchy.aliases`) for a
crawl that has not finished, with the edge model recorded in the crawl's meta.
Thin glue around the pure :func:`skeleton.hierarchy.resolve.resolve_tree`.
"""
from __future__ import annotations

import json
from typing import Any

from skeleton.hierarchy.aliases import apply_aliases
from skeleton.hierarchy.resolve import resolve_tree
from skeleton.hierarchy.scoring import EdgeModel, EdgeModelError
from skeleton.store.keys import CrawlKeys

__all__ = ["load_hash", "stored_offers", "stored_aliases", "resolve_recorded_tree", "store_tree", "crawl_edges"]


def _text(value: Any) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value or "")


def load_hash(server: Any, key: str) -> dict[str, Any]:
    """A hash of JSON values, decoded; values that are not JSON are left out."""
    out = {}
    for field, value in server.hscan_iter(key, count=1000):
        try:
            out[_text(field)] = json.loads(value)
        except ValueError:
            continue
    return out


def stored_offers(raw: Any) -> list[dict[str, Any]]:
    """The offers of one child as stored in ``:offers`` (a JSON list of ``{"id",
    "k", "o"}``, ``o`` the offer's JSON); entries that do not decode are skipped."""
    out = []
    for entry in raw if isinstance(raw, list) else []:
        try:
            offer = json.loads(entry["o"])
        except (TypeError, KeyError, ValueError):
            continue
        if isinstance(offer, dict):
            out.append(offer)
    return out


def resolve_recorded_tree(server: Any, keys: CrawlKeys, root: str,
                          edge_model: dict[str, Any] | None,
                          pages: dict[str, Any] | None = None) -> dict[str, dict[str, Any]]:
    """The tree (child -> ``{"parent", "depth"}``) resolved from the crawl's pages and offers."""
    pages = load_hash(server, keys.pages) if pages is None else pages
    offers = {child: stored_offers(raw) for child, raw in load_hash(server, keys.offers).items()}
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
