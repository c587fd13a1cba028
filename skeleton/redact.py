"""Credentials are never printed: URLs with their secrets replaced by ``***``.

:func:`redact_url` masks a URL's password (``redis://:***@host:6379/0``,
``redis://user:***@host``), a user part with no password (``redis://***@host``:
it may well be a password) and password query parameters
(``unix:///tmp/redis.sock?password=***``). :func:`redact_text` does the same to
every URL in a message, such as an exception's text, and also masks the secrets
of the URLs it is given wherever they occur (a malformed URL's pieces can turn up
in a parse error). Every message or log line that shows the Redis URL or a Redis
error goes through them.

Standard library only (``python -m skeleton.recrawl`` uses it).
"""
from __future__ import annotations

import re
from urllib.parse import unquote

__all__ = ["MASK", "redact_url", "redact_text"]

MASK = "***"
#: A URL in running text: scheme, ``://`` and everything up to a space or a quote.
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^\s'\"<>]*")
#: Query parameters that carry a secret (redis-py reads ``password``).
_SECRET_PARAM = re.compile(r"(?i)([?&;](?:password|passwd|pass|pwd|secret|token|auth)=)[^&;#\s'\"]*")
#: Secrets shorter than this are not searched for in running text (every "a" would go).
_MIN_SECRET = 3


def _split(url: str, loose: bool) -> tuple[str, str | None, str]:
    """``(scheme://, userinfo or None, rest)``; the userinfo ends at the last ``@``
    of the URL when ``loose`` (a password may hold an unescaped ``/``, ``?`` or
    ``#``), else at the last ``@`` of the authority, as URL parsers read it."""
    scheme, sep, rest = url.partition("://")
    authority = rest if loose else re.split(r"[/?#]", rest, maxsplit=1)[0]
    userinfo, at, _ = authority.rpartition("@")
    if not sep or not at:
        return scheme + sep, None, rest
    return scheme + sep, userinfo, rest[len(userinfo) + 1:]


def _redact(url: str, loose: bool) -> str:
    head, userinfo, rest = _split(url, loose)
    if userinfo is not None:
        user, colon, _ = userinfo.partition(":")
        head += (f"{user}:{MASK}" if colon else MASK) + "@"
    return head + _SECRET_PARAM.sub(lambda m: m.group(1) + MASK, rest)


def redact_url(url: object) -> str:
    """``url`` with its password, a user part without password and its password
    query parameters replaced by ``***``."""
    return _redact(str(url), loose=True)


def _secrets(url: str) -> set[str]:
    """The secrets of ``url`` (as written and unescaped) and their pieces between
    URL delimiters, long enough to be looked for in running text."""
    _, userinfo, rest = _split(url, loose=True)
    user, colon, password = (userinfo or "").partition(":")
    found = {password if colon else user}
    found.update(m.group(0).split("=", 1)[1] for m in _SECRET_PARAM.finditer(rest))
    found |= {unquote(s) for s in found}
    found |= {piece for s in found for piece in re.split(r"[/?#@:;&]", s)}
    return {s for s in found if len(s) >= _MIN_SECRET}


def redact_text(text: object, *urls: object) -> str:
    """``text`` with every URL in it redacted (:func:`redact_url`) and the secrets
    of ``urls`` (the URLs the message may be about) masked wherever they occur."""
    out = _URL.sub(lambda m: _redact(m.group(0), loose=False), str(text))
    for secret in sorted({s for url in urls if url for s in _secrets(str(url))}, key=len, reverse=True):
        out = out.replace(secret, MASK)
    return out
