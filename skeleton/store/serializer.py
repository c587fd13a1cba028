"""JSON request serializer for scrapy-redis (``SCHEDULER_SERIALIZER``).

scrapy-redis stores the output of ``Request.to_dict()``: headers are a dict with
bytes keys and lists of bytes values, the body is bytes, and ``meta`` may hold
tuples. Plain JSON keeps none of those, so this small codec tags them: bytes as
base64, tuples, and dicts whose keys are not all strings (or that contain the
tag key) as lists of pairs. Anything else that JSON cannot hold raises
``TypeError`` instead of being silently changed. No pickle.
"""
from __future__ import annotations

import base64
import json
from typing import Any

__all__ = ["dumps", "loads"]

_TAG = "__skeleton_type__"


def _encode(obj: Any) -> Any:
    if obj is None or isinstance(obj, (str, bool, int, float)):
        return obj
    if isinstance(obj, (bytes, bytearray)):
        return {_TAG: "bytes", "v": base64.b64encode(bytes(obj)).decode("ascii")}
    if isinstance(obj, list):
        return [_encode(v) for v in obj]
    if isinstance(obj, tuple):
        return {_TAG: "tuple", "v": [_encode(v) for v in obj]}
    if isinstance(obj, dict):
        if _TAG not in obj and all(isinstance(k, str) for k in obj):
            return {k: _encode(v) for k, v in obj.items()}
        return {_TAG: "dict", "v": [[_encode(k), _encode(v)] for k, v in obj.items()]}
    raise TypeError(f"cannot serialize a {type(obj).__name__} in a request")


def _decode_tagged(obj: dict[str, Any]) -> Any:
    kind = obj.get(_TAG)
    if kind is None:
        return obj
    value = obj["v"]
    if kind == "bytes":
        return base64.b64decode(value)
    if kind == "tuple":
        return tuple(value)
    if kind == "dict":
        return {k: v for k, v in value}
    raise ValueError(f"unknown serialized type {kind!r}")


def dumps(obj: Any) -> str:
    return json.dumps(_encode(obj), separators=(",", ":"), allow_nan=True)


def loads(data: str | bytes) -> Any:
    return json.loads(data, object_hook=_decode_tagged)
