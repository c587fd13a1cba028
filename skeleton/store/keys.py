"""Every Redis key the project uses, namespaced per crawl.

A crawl id names one crawl of one site: ``skeleton:{crawl}:requests`` (the
scrapy-redis request queue), ``:dupefilter`` (request fingerprints), ``:pages``
(hash: page URL -> JSON page record; a page that failed for good has a record
with ``reason`` ``failed`` and its ``status``), ``:failed`` (hash: the URL of each
page whose record is a failed one -> its status: an HTTP status code or an error
kind, ``skeleton.pipelines.tree``), ``:offers`` (hash: child URL -> JSON list
of the offers of a parent made to it, at most ``skeleton.hierarchy.offers.MAX_OFFERS``,
``skeleton.pipelines.tree``), ``:tree`` (hash: child URL -> JSON ``{"parent",
"depth"}``, the tree resolved when the crawl finished), ``:aliases`` (hash: a URL that
redirected, or that another URL names: ``rel="canonical"``, duplicate content, a
stripped parameter -> the URL it leads to, ``skeleton.middlewares.aliases``,
``skeleton.middlewares.variants``), the URL variants learned from duplicate content
(``skeleton.urlrules.duplicates``): ``:fingerprints`` (hash: page URL -> content
fingerprint), ``:variants`` (hash: a simpler URL not fetched yet -> JSON list of
``[variant URL, kind, names, fingerprint]`` waiting for it), ``:votes`` (hash:
``q:NAME:same``/``q:NAME:diff``/``s:SEGMENT:...`` -> count) and ``:forms`` (set: URL
paths that answered with a form only), and ``:meta`` (hash: base, mode,
started, finished, finish_reason, ``edge_model`` (the crawl's JSON edge model),
``tree_pages`` (pages in the stored tree, set with it), and with ``-a template_menu=N`` the field
``template_menu``: JSON ``{"n", "urls", "pages", "loaded"}``, the site's template
menu, see ``skeleton.spiders.template_menu``). Term entropy (WISDOM Section 3.1) keeps
``:entropy`` (hash: term -> ``"S df G"`` sufficient statistics),
``:entropy_pages`` (set of the page URLs counted) and ``:page_terms`` (hash: page
URL -> zlib-compressed JSON term counts). WISDOM's second pass (``scrapy
informative``) reads ``:page_html`` (hash: page URL -> the zlib-compressed body
with a JSON header line, see ``skeleton.middlewares.informative.pack_page``).
``:contexts`` (hash: context id -> JSON of the detection context the pages below a
page get, ``skeleton.sew.context``; queue entries carry the id).
``skeleton:crawls`` is the set of crawl ids.

Workers sharing a crawl (:mod:`skeleton.store.queue`) add ``:leases`` (sorted set:
lease id -> lease deadline in Redis server milliseconds), ``:inflight`` (hash:
lease id -> the leased queue entry), ``:workers`` (sorted set: worker id ->
last heartbeat, server milliseconds) and ``:dead`` (list, newest first, at most
``skeleton.store.queue.DEAD_LETTER_MAX``: queue entries that are not a request of the
project's own classes, moved aside as they were; ``:meta`` field ``dead_letters``
counts them all).
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from skeleton.sew.urls import canonical, directory

__all__ = ["PREFIX", "CRAWLS", "META_TEMPLATE_MENU", "META_DEAD_LETTERS", "CrawlKeys", "crawl_id_for", "valid_crawl_id"]

PREFIX = "skeleton"
CRAWLS = f"{PREFIX}:crawls"
#: ``:meta`` field holding the crawl's template menu (JSON)
META_TEMPLATE_MENU = "template_menu"
#: ``:meta`` field counting the queue entries moved to ``:dead``
META_DEAD_LETTERS = "dead_letters"
_CRAWL_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$")
_SLUG_SEPARATORS = re.compile(r"[^A-Za-z0-9.]+")
#: the readable part of a default crawl id is cut to this many characters, which
#: leaves room for the mode, the hash and a ``skeleton.recrawl`` timestamp
_SLUG_MAX = 120
#: hex digits of the base URL's SHA-256 in a default crawl id (40 bits)
_HASH_DIGITS = 10


def valid_crawl_id(crawl: str) -> bool:
    """Crawl ids are short and plain: letters, digits, '.', '_' and '-' (never
    '%' or ':', which would clash with scrapy-redis key templates and namespaces)."""
    return bool(_CRAWL_ID.match(crawl))


def crawl_id_for(base_url: str, mode: str = "sew") -> str:
    """Default crawl id: a readable prefix, the host, port and directory of the
    base URL as a slug plus ``-bfs`` for the baseline mode, then a short hash of
    the canonical base URL and the mode (``http://127.0.0.1:8000/en/`` ->
    ``127.0.0.1-8000-en-`` and 10 hex digits). Slugs collide (``a_b/``, ``a-b/``
    and ``a/b/``; ``host:8000/`` and ``host/8000/``; http and https; a long URL
    cut short); the hash tells them apart, so two canonical bases never share a
    default id and one base always gets the same id. The base is canonicalized
    here (:func:`skeleton.sew.urls.canonical`, as the spider does), so every
    caller computes the same id."""
    url = canonical(base_url.strip()) or base_url.strip()
    parts = urlsplit(url)
    host = parts.netloc.rpartition("@")[2]  # never a user name or password in an id
    slug = _SLUG_SEPARATORS.sub("-", host + directory(url)).strip("-.")
    slug = slug[:_SLUG_MAX].rstrip("-.") or "site"
    if mode != "sew":
        slug = f"{slug}-{mode}"
    digest = hashlib.sha256(f"{mode}\n{url}".encode("utf-8", "surrogatepass")).hexdigest()
    return f"{slug}-{digest[:_HASH_DIGITS]}"


@dataclass(frozen=True)
class CrawlKeys:
    """The keys of one crawl."""

    crawl: str

    def __post_init__(self) -> None:
        if not valid_crawl_id(self.crawl):
            raise ValueError(f"invalid crawl id {self.crawl!r}: use letters, digits, '.', '_', '-'")

    def _key(self, name: str) -> str:
        return f"{PREFIX}:{self.crawl}:{name}"

    @property
    def requests(self) -> str:
        return self._key("requests")

    @property
    def dupefilter(self) -> str:
        return self._key("dupefilter")

    @property
    def pages(self) -> str:
        return self._key("pages")

    @property
    def failed(self) -> str:
        return self._key("failed")

    @property
    def offers(self) -> str:
        return self._key("offers")

    @property
    def tree(self) -> str:
        return self._key("tree")

    @property
    def aliases(self) -> str:
        return self._key("aliases")

    @property
    def fingerprints(self) -> str:
        return self._key("fingerprints")

    @property
    def variants(self) -> str:
        return self._key("variants")

    @property
    def votes(self) -> str:
        return self._key("votes")

    @property
    def forms(self) -> str:
        return self._key("forms")

    @property
    def meta(self) -> str:
        return self._key("meta")

    @property
    def entropy(self) -> str:
        return self._key("entropy")

    @property
    def entropy_pages(self) -> str:
        return self._key("entropy_pages")

    @property
    def page_terms(self) -> str:
        return self._key("page_terms")

    @property
    def leases(self) -> str:
        return self._key("leases")

    @property
    def inflight(self) -> str:
        return self._key("inflight")

    @property
    def workers(self) -> str:
        return self._key("workers")

    @property
    def page_html(self) -> str:
        return self._key("page_html")

    @property
    def dead(self) -> str:
        return self._key("dead")

    @property
    def contexts(self) -> str:
        return self._key("contexts")

    @property
    def pattern(self) -> str:
        """A ``SCAN MATCH`` pattern of every key of the crawl (crawl ids hold no
        glob character)."""
        return self._key("*")

    def all(self) -> tuple[str, ...]:
        """The crawl's data, deleted when a finished crawl starts afresh (not
        ``:workers``: a worker starting at the same time may be registered)."""
        return (self.requests, self.dupefilter, self.pages, self.offers, self.tree, self.aliases,
                self.fingerprints, self.variants, self.votes, self.forms, self.meta,
                self.entropy, self.entropy_pages, self.page_terms, self.page_html,
                self.leases, self.inflight, self.dead, self.failed, self.contexts)
