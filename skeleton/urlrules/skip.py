"""The parts of a site the user declares the crawl must not fetch (``-a skip``).

A site's tag, author and archive pages, and on some sites its categories, are views:
they re-list what the sections file and are no nodes (``shared/corpus/README.md``).
The tree removes them once the crawl is over, but a crawl cannot tell a view from a
section before fetching it (``benchmarks/view_prediction.py``), so it fetches them. A
user who knows the site can say which URLs hold no section: ``-a skip`` takes regular
expressions separated by white space, each searched (:func:`re.search`) in a URL's
path and query (``/tags/``, ``^/author/``, ``[?&]sort=``). A link or declared place
whose URL one matches is not followed (``skeleton/skipped/user``); the start URL is
always fetched, and a pattern that matches it is refused.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import urlsplit

__all__ = ["MAX_PATTERNS", "MAX_PATTERN_LENGTH", "SKIP_REASON", "SkipError", "parse_skip", "skipped"]

#: at most this many patterns, of at most this many characters each
MAX_PATTERNS = 50
MAX_PATTERN_LENGTH = 500
#: the skip reason of a link a pattern matches (``skeleton/skipped/user``)
SKIP_REASON = "skipped/user"


class SkipError(ValueError):
    """A ``-a skip`` value that cannot be used; the message is one line."""


def _target(url: str) -> str:
    """The part of ``url`` the patterns read: its path, and ``?query`` when it has one."""
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def parse_skip(value: str | None, base: str) -> tuple[re.Pattern[str], ...]:
    """The compiled patterns of ``value`` (None or blank: none). Raises :class:`SkipError`
    for a pattern that does not compile, is too long, or matches the start URL ``base``,
    and for more than :data:`MAX_PATTERNS` patterns."""
    words = (value or "").split()
    if len(words) > MAX_PATTERNS:
        raise SkipError(f"skip takes at most {MAX_PATTERNS} patterns, got {len(words)}")
    patterns = []
    for word in words:
        if len(word) > MAX_PATTERN_LENGTH:
            raise SkipError(f"skip pattern longer than {MAX_PATTERN_LENGTH} characters: {word[:40]!r}...")
        try:
            pattern = re.compile(word)
        except re.error as exc:
            raise SkipError(f"skip pattern {word!r} is no regular expression: {exc}") from None
        if pattern.search(_target(base)):
            raise SkipError(f"skip pattern {word!r} matches the start URL's {_target(base)!r}, "
                            "which is always fetched: narrow the pattern")
        patterns.append(pattern)
    return tuple(patterns)


def skipped(url: str, patterns: Sequence[re.Pattern[str]]) -> bool:
    """Does one of ``patterns`` match ``url``'s path and query?"""
    if not patterns:
        return False
    target = _target(url)
    return any(pattern.search(target) for pattern in patterns)
