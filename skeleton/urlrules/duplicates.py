"""Duplicate URLs with the same text: URL variants learned per site.

After "Do not crawl in the DUST: different URLs with similar text" (Bar-Yossef,
Keidar and Schonfeld, WWW 2007): two URLs of one site that differ only in some
query parameters, or in a trailing path segment (``/amp/``), and give the same
page content show that the difference is irrelevant for that site. Here

* a page's **content fingerprint** (:func:`content_fingerprint`) hashes the text
  of its main content (its single ``<article>``, else ``<main>``/``role="main"``,
  else ``<body>``), without scripts, navigation, sidebars and forms, so that a
  share button or a "related posts" beacon that echoes the URL changes nothing;
  a page with less than ``MIN_TEXT`` characters of it has none (empty pages all
  look alike);
* each fetched URL is compared with its **simpler variants**
  (:func:`variant_candidates`): the URL without its query, without one of its
  parameters, without its last path segment, and a clean URL (``/guide/intro``)
  with the file name it stands for (``/guide/intro.html``): a server that answers
  both with one file (GitHub Pages, Netlify) makes them one page;
* a comparison is a **vote** for each differing parameter (or segment): ``same``
  when the fingerprints agree, ``diff`` when they do not and only one parameter
  differs (with several, the one that changed the page is unknown);
* a parameter (segment) with at least ``MIN_SUPPORT`` ``same`` votes and no
  ``diff`` vote is **irrelevant** for the site (:func:`learned_rules`), and
  :meth:`LearnedRules.clean` strips it from every later link. One ``diff`` vote
  keeps it for good: a parameter that changes one page is never stripped.

Pure: the crawl keeps the fingerprints and votes in Redis
(:mod:`skeleton.middlewares.variants`).
"""
from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from urllib.parse import urlunsplit

from lxml import etree

from skeleton.web.urls import split_url

from .content import content_text, main_element
from .slash import adds_slash, with_slash
from .tracking import query_names, strip_params

__all__ = ["MIN_TEXT", "MIN_SUPPORT", "MAX_SEGMENT", "CLEAN_URL_SUFFIX", "Variant", "Comparison", "LearnedRules",
           "content_fingerprint", "variant_candidates", "vote_fields", "compare_variants", "learned_rules"]

#: a page with less main text than this (characters) has no fingerprint
MIN_TEXT = 40
#: ``same`` votes that make a parameter or segment irrelevant (with no ``diff``)
MIN_SUPPORT = 2
#: a trailing path segment longer than this is a page's name, not a variant marker
MAX_SEGMENT = 12
#: the file suffix a clean URL stands for (kind ``"h"``: compared, never voted on)
CLEAN_URL_SUFFIX = ".html"

_SEGMENT = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")


def content_fingerprint(root: etree._Element | None, attributes: str | None = None) -> str | None:
    """A short hash of the page's main text (:func:`content_text` of its
    :func:`main_element`; ``attributes``: the page's attribute text, if the caller
    has it), or None (no tree, too little text)."""
    if root is None:
        return None
    text = content_text(main_element(root, attributes))
    if len(text) < MIN_TEXT:
        return None
    return hashlib.blake2b(text.encode("utf-8", "replace"), digest_size=8).hexdigest()


@dataclass(frozen=True, slots=True)
class Variant:
    """A simpler URL ``url`` of a fetched URL, and what differs: ``kind`` ``"q"``
    (the query parameters ``names``), ``"s"`` (the trailing path segment ``names[0]``)
    or ``"h"`` (the clean URL's file suffix, ``names[0]``)."""

    url: str
    kind: str
    names: tuple[str, ...]


def variant_candidates(url: str) -> list[Variant]:
    """The simpler URLs a fetched ``url`` is compared with: without its query,
    without each one of its parameters (when it has several), without its last
    path segment (a word of at most ``MAX_SEGMENT`` characters, on a URL without query),
    and, for a clean URL (no query, no trailing slash, no dot in its last segment), the
    file it stands for (``CLEAN_URL_SUFFIX`` added). No candidates for an unparsable URL
    (:func:`skeleton.web.urls.split_url`)."""
    parts = split_url(url)
    if parts is None:
        return []
    out: list[Variant] = []
    names = query_names(url)
    if names:
        out.append(Variant(urlunsplit((parts.scheme, parts.netloc, parts.path, "", "")), "q", tuple(names)))
        if len(names) > 1:
            out.extend(Variant(strip_params(url, {name}), "q", (name,)) for name in names)
        return out
    path = parts.path
    segments = path.rstrip("/").split("/")
    if len(segments) >= 3 and _SEGMENT.match(segments[-1]) and len(segments[-1]) <= MAX_SEGMENT:
        parent = "/".join(segments[:-1]) + "/"
        out.append(Variant(urlunsplit((parts.scheme, parts.netloc, parent, "", "")), "s", (segments[-1],)))
    if len(segments) >= 2 and segments[-1] and not path.endswith("/") and "." not in segments[-1]:
        out.append(Variant(urlunsplit((parts.scheme, parts.netloc, path + CLEAN_URL_SUFFIX, "", "")), "h",
                           (CLEAN_URL_SUFFIX,)))
    return out


def vote_fields(variant: Variant, same: bool) -> list[str]:
    """The vote counters one comparison increments (``"q:NAME:same"``, ``"s:SEG:diff"``);
    none for a difference over several parameters, and none for a clean URL (kind
    ``"h"``: the server's answer, not a rule to learn)."""
    if variant.kind == "h" or (not same and len(variant.names) != 1):
        return []
    verdict = "same" if same else "diff"
    return [f"{variant.kind}:{name}:{verdict}" for name in variant.names]


@dataclass
class Comparison:
    """What comparing one fetched page with its variants found: vote counters to add,
    aliases (variant URL -> the simpler URL with the same content), and the simpler
    URLs not fetched yet, which the page waits for."""

    votes: Counter[str] = field(default_factory=Counter)
    aliases: dict[str, str] = field(default_factory=dict)
    pending: list[Variant] = field(default_factory=list)


def compare_variants(url: str, fingerprint: str, known: Mapping[str, str],
                     waiting: Iterable[Sequence[object]] = ()) -> Comparison:
    """Compare the fetched ``url`` (content ``fingerprint``) with its simpler variants
    whose fingerprints ``known`` holds (URL -> fingerprint), and with the variants
    ``waiting`` for it (``(variant URL, kind, names, fingerprint)`` entries, as a
    page that was fetched before ``url`` left them); malformed entries are skipped."""
    out = Comparison()
    for candidate in variant_candidates(url):
        other = known.get(candidate.url)
        if other is None:
            out.pending.append(candidate)
            continue
        out.votes.update(vote_fields(candidate, other == fingerprint))
        if other == fingerprint:
            out.aliases.setdefault(url, candidate.url)  # the simplest variant comes first
    for entry in waiting:
        try:
            variant_url, kind, names, other = entry
            variant = Variant(url, str(kind), tuple(map(str, names)))  # type: ignore[call-overload]
        except (TypeError, ValueError):
            continue
        out.votes.update(vote_fields(variant, other == fingerprint))
        if other == fingerprint and variant_url != url:
            out.aliases[str(variant_url)] = url
    return out


@dataclass(frozen=True, slots=True)
class LearnedRules:
    """What a site's duplicates taught: query parameters and trailing path segments
    that never change its pages."""

    params: frozenset[str] = frozenset()
    segments: frozenset[str] = frozenset()
    #: the site answers its bare URLs with a redirect that adds the slash (:mod:`.slash`)
    slash: bool = False

    def add_slash(self, url: str) -> str:
        """``url`` with the trailing slash the site adds (:func:`.slash.with_slash`)
        when the site was learned to add it, else ``url``."""
        return with_slash(url) if self.slash else url

    def clean(self, url: str) -> str:
        """``url`` without its irrelevant parameters and trailing segment; ``url``
        itself when it is unparsable."""
        if self.params and "?" in url:
            url = strip_params(url, self.params)
        if self.segments and "?" not in url:
            parts = split_url(url)
            if parts is None:
                return url
            segments = parts.path.rstrip("/").split("/")
            if len(segments) >= 3 and segments[-1] in self.segments:
                path = "/".join(segments[:-1]) + "/"
                url = urlunsplit((parts.scheme, parts.netloc, path, "", ""))
        return url


def learned_rules(counts: Mapping[str, int], min_support: int = MIN_SUPPORT) -> LearnedRules:
    """The rules the vote counters ``counts`` (field -> count) support; the slash
    rule needs :func:`.slash.adds_slash`, whatever ``min_support``."""
    same: dict[tuple[str, str], int] = {}
    diff: set[tuple[str, str]] = set()
    for field, count in counts.items():
        kind, _, rest = field.partition(":")
        name, _, verdict = rest.rpartition(":")
        if kind not in ("q", "s", "r") or not name:
            continue
        if verdict == "same":
            same[(kind, name)] = same.get((kind, name), 0) + int(count)
        elif verdict == "diff" and int(count) > 0:
            diff.add((kind, name))
    kept = {key for key, n in same.items() if n >= min_support and key not in diff}
    slash = adds_slash(same.get(("r", "slash"), 0), int(("r", "slash") in diff))
    return LearnedRules(frozenset(n for k, n in kept if k == "q"), frozenset(n for k, n in kept if k == "s"),
                        slash)
