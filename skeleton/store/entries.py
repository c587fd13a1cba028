"""Queue entries: a request as JSON (:mod:`skeleton.store.serializer`) and back,
without letting queue data choose code.

:func:`encode_entry` writes what ``Request.to_dict(spider=...)`` holds less the
attributes left at the request class's defaults, ASCII headers as plain strings and
the callback and errback by name when they are the spider's own public methods (a
queued link is about 300 bytes). :func:`decode_entry` builds the request with its
class's constructor: the entry must name one of :data:`REQUEST_CLASSES` (classes
imported here, never a module an entry names) and public methods of the spider as
its callback and errback; anything else raises, and the queue moves the entry to
its dead letters (:mod:`skeleton.store.queue`).
"""
from __future__ import annotations

import functools
import inspect
from typing import Any

from scrapy import Request

__all__ = ["REQUEST_CLASSES", "encode_entry", "decode_entry"]

#: The request classes a queue entry may name (its ``_class``, as
#: ``Request.to_dict()`` writes it; no ``_class`` is ``scrapy.Request``). The
#: spider and the project's middlewares queue plain ``scrapy.Request``s; a
#: project subclass would be added here, imported by this module.
REQUEST_CLASSES: dict[str | None, type[Request]] = {
    None: Request,
    f"{Request.__module__}.{Request.__name__}": Request,
    "scrapy.Request": Request,
}
_CLASSES = frozenset(REQUEST_CLASSES.values())
#: attributes an entry writes apart (or, for ``url``, always)
_NAMED = frozenset({"url", "callback", "errback", "headers"})


def _spider_method(spider: Any, name: Any) -> Any:
    """The spider's public method ``name``, or ``ValueError``."""
    method = getattr(spider, name, None) if isinstance(name, str) and not name.startswith("_") \
        else None
    if not inspect.ismethod(method) or method.__self__ is not spider:
        raise ValueError(f"the spider has no method {str(name)[:80]!r}")
    return method


def _method_name(spider: Any, func: Any) -> str | None:
    """The name of ``func`` when it is a public method of ``spider`` bound to it,
    else None (to be looked up the slow way)."""
    name = getattr(func, "__name__", None)
    if (isinstance(name, str) and not name.startswith("_") and getattr(func, "__self__", None) is spider
            and getattr(getattr(spider, name, None), "__func__", None) is getattr(func, "__func__", None)):
        return name
    return None


@functools.lru_cache(maxsize=None)
def _defaults(cls: type[Request]) -> dict[str, Any]:
    """The attributes of a request of ``cls`` made from a URL alone (what its
    constructor gives an attribute that is not passed)."""
    blank = cls("http://localhost/")
    return {attr: getattr(blank, attr) for attr in cls.attributes if attr not in _NAMED}


def _plain_headers(headers: Any) -> dict[Any, Any]:
    """Request headers as ``{str: [str]}`` when every name and value is ASCII (a
    request's constructor encodes them back to the same bytes), else as Scrapy
    holds them (bytes, which the serializer tags)."""
    try:
        return {key.decode("ascii"): [value.decode("ascii") for value in values]
                for key, values in headers.items()}
    except (UnicodeDecodeError, AttributeError):
        return dict(headers)


def encode_entry(request: Request, spider: Any, serializer: Any) -> str:
    """The queue entry of ``request`` (its meta as it is). Raises ``TypeError`` for a
    request class not in :data:`REQUEST_CLASSES`."""
    if type(request) not in _CLASSES:
        raise TypeError(f"cannot queue a {type(request).__name__}: add its class to "
                        "skeleton.store.entries.REQUEST_CLASSES")
    functions = (request.callback, request.errback)
    names = [None if f is None else _method_name(spider, f) for f in functions]
    if any(n is None and f is not None for n, f in zip(names, functions)):
        return serializer.dumps(request.to_dict(spider=spider))
    obj: dict[str, Any] = {"url": request.url}
    for name, value in zip(("callback", "errback"), names):
        if value is not None:
            obj[name] = value
    if request.headers:
        obj["headers"] = _plain_headers(request.headers)
    defaults = _defaults(type(request))
    for attr in request.attributes:
        if attr not in obj and attr not in _NAMED:
            value = getattr(request, attr)
            if attr not in defaults or value != defaults[attr]:
                obj[attr] = value
    if type(request) is not Request:
        obj["_class"] = f"{type(request).__module__}.{type(request).__name__}"
    return serializer.dumps(obj)


def decode_entry(data: bytes | str, spider: Any, serializer: Any) -> Request:
    """The request a queue entry holds, like ``scrapy.utils.request.request_from_dict``
    but importing nothing: its ``_class`` must be one of :data:`REQUEST_CLASSES`,
    its callback and errback public methods of ``spider``. Raises ``ValueError`` or
    ``TypeError`` (or whatever a bad entry makes the request class raise)."""
    obj = serializer.loads(data)
    if not isinstance(obj, dict):
        raise TypeError(f"a JSON {type(obj).__name__}, not an object")
    name = obj.get("_class")
    cls = REQUEST_CLASSES.get(name) if name is None or isinstance(name, str) else None
    if cls is None:
        raise ValueError(f"request class {str(name)[:120]!r} is not allowed")
    kwargs = {key: value for key, value in obj.items() if key in cls.attributes}
    for key in ("callback", "errback"):
        if obj.get(key):
            kwargs[key] = _spider_method(spider, obj[key])
    return cls(**kwargs)
