"""The detection context a page hands to the pages below it, by id.

SEW's LinkSetDup heuristic (Section 3.2.2) drops a candidate link set that repeats
a navigation set of an ancestor; the crawl also passes the parent's rejected sets
as template (:mod:`skeleton.sew.detect`). Every page below the root gets the
root's context, so a crawl has few distinct contexts, each a few kilobytes of
URLs. Queue entries carry the context's id (:func:`encode_context`); the context
itself is stored once and read back by id (:func:`decode_context`).
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

__all__ = ["CONTEXT_ID_HEX", "Context", "decode_context", "encode_context"]

#: hex digits of a context id (SHA-256 of its canonical JSON)
CONTEXT_ID_HEX = 20

#: ``(known, template)``: the ancestors' navigation URL sets, the template URL sets
Context = tuple[list[set[str]], list[set[str]]]


def encode_context(known: Sequence[Sequence[str] | set[str]],
                   template: Sequence[Sequence[str] | set[str]]) -> tuple[str, str]:
    """``(id, JSON)`` of a context; ``("", "")`` for the empty one. The JSON is
    canonical (sets sorted, in the given order), so equal contexts get one id."""
    if not any(known) and not any(template):
        return "", ""
    blob = json.dumps({"known": [sorted(s) for s in known], "template": [sorted(s) for s in template]},
                      separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:CONTEXT_ID_HEX], blob


def decode_context(blob: str | bytes | None) -> Context | None:
    """The context stored as ``blob`` (:func:`encode_context`), or None when it is
    missing or not a context (never raises)."""
    if not blob:
        return None
    try:
        data = json.loads(blob)
        known = [set(map(str, urls)) for urls in data["known"]]
        template = [set(map(str, urls)) for urls in data["template"]]
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
    return known, template
