"""Sites that add the trailing slash: a redirect learned once, not paid per page.

Many sites link their folders without the trailing slash (``/sport``,
``/docs/category/setup``) and answer each such link with a redirect to the
folder (``/sport/``): every page then costs two requests. The truth rule counts
``/x`` and ``/x/`` as one page (``../shared/corpus/README.md``); the redirect
only costs time. Here the crawl learns the site's habit from what it fetched:

* a **bare** URL (:func:`bare_url`) has a path that does not end with ``/``, a
  last segment without a dot (no file name such as ``page.html``) and no query;
* a bare URL that redirected to itself plus a slash is a ``same`` vote; a bare
  URL answered directly (no redirect) is a ``diff`` vote (:func:`slash_vote`),
  and so is a slashed guess that the site answered with 404 or 410;
* with at least :data:`SLASH_SUPPORT` ``same`` votes and no ``diff`` vote the
  site **adds the slash** (:func:`skeleton.urlrules.duplicates.learned_rules`),
  and every later bare link is requested with it (:func:`with_slash`). One
  ``diff`` vote stops it for good: a site that serves some bare URLs itself
  never has them rewritten.

A guess the site does not serve (404 or 410) is requested again as linked, so a
wrong guess costs one request and loses no page. Pure: the crawl keeps the votes
in Redis with the URL variants' (:mod:`skeleton.middlewares.variants`).
"""
from __future__ import annotations

from urllib.parse import urlunsplit

from skeleton.web.urls import canonical, split_url

__all__ = ["SLASH_SUPPORT", "SLASH_SAME", "SLASH_DIFF", "MISSING_STATUSES", "adds_slash", "bare_url",
           "with_slash", "slash_vote"]

#: ``same`` votes (and no ``diff`` vote) after which the site adds the slash
SLASH_SUPPORT = 3
#: the vote counters (``kind:name:verdict``, as :func:`skeleton.urlrules.duplicates.vote_fields`)
SLASH_SAME = "r:slash:same"
SLASH_DIFF = "r:slash:diff"
#: statuses that say a slashed guess is no page: it is requested again as linked
MISSING_STATUSES = frozenset({404, 410})


def adds_slash(same: int, diff: int) -> bool:
    """Does a site with ``same`` and ``diff`` votes add the slash? At least
    :data:`SLASH_SUPPORT` ``same`` votes and no ``diff`` vote."""
    return same >= SLASH_SUPPORT and diff == 0


def bare_url(url: str) -> bool:
    """True for an http(s) URL whose path is not empty, does not end with ``/``
    and has no dot in its last segment, without query; False for any other URL
    and for an unparsable one."""
    parts = split_url(url)
    if parts is None or parts.scheme not in ("http", "https") or parts.query:
        return False
    path = parts.path
    return bool(path) and path != "/" and not path.endswith("/") and "." not in path.rsplit("/", 1)[-1]


def with_slash(url: str) -> str:
    """A bare ``url`` with the slash added to its path (fragment dropped); any
    other URL unchanged."""
    if not bare_url(url):
        return url
    parts = split_url(url)
    assert parts is not None  # bare_url parsed it
    return urlunsplit((parts.scheme, parts.netloc, parts.path + "/", "", ""))


def slash_vote(requested: str, final: str, redirected: bool) -> str | None:
    """The vote one answer casts: ``requested`` the URL first requested, ``final``
    the URL answered, ``redirected`` whether a redirect led there. :data:`SLASH_SAME`
    when a bare URL redirected to itself plus a slash, :data:`SLASH_DIFF` when a bare
    URL was answered without a redirect, else None (not a bare URL, another redirect)."""
    if not bare_url(requested):
        return None
    if not redirected:
        return SLASH_DIFF
    slashed = canonical(with_slash(requested))
    return SLASH_SAME if slashed and canonical(final) == slashed else None
