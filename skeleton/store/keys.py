"""Every Redis key the project uses, namespaced per crawl.

A crawl id names one crawl of one site: ``skeleton:{crawl}:requests`` (the
scrapy-redis request queue), ``:dupefilter`` (set of request fingerprints, the 20
raw bytes of their SHA-1, or a Bloom filter: ``skeleton.store.dupefilter``), ``:pages``
(hash: page URL -> JSON page record; a page that failed for good has a record
with ``reason`` ``failed`` and its ``status``), ``:failed`` (hash: the URL of each
page whose record is a failed one -> its status: an HTTP status code or an error
kind, ``skeleton.store.records``), ``:offsite`` (hash: the URL of each page whose
record is a ``redirect_offsite`` one, a page redirecting out of the crawl's scope
-> the URL it redirects to, ``skeleton.middlewares.scope``), ``:offers`` (hash: child URL -> JSON list
of the offers of a parent made to it, at most ``skeleton.hierarchy.offers.MAX_OFFERS``,
``skeleton.store.records``), ``:tree`` (hash: child URL -> JSON ``{"parent",
"depth"}``, the tree resolved when the crawl finished), ``:aliases`` (hash: a URL that
redirected, or that another URL names: ``rel="canonical"``, duplicate content, a
stripped parameter -> the URL it leads to, ``skeleton.store.aliases``,
``skeleton.store.variants``), the URL variants learned from duplicate content
(``skeleton.urlrules.duplicates``, ``skeleton.store.variants``): ``:fingerprints`` (hash: :func:`url_id` of the
page URL -> its content fingerprint, 8 raw bytes), ``:variants`` (hash: a simpler URL not fetched yet -> JSON list of
``[variant URL, kind, names, fingerprint]`` waiting for it), ``:votes`` (hash:
``q:NAME:same``/``q:NAME:diff``/``s:SEGMENT:...`` -> count) and ``:forms`` (set: URL
paths that answered with a form only), and ``:meta`` (hash, its fields named by the
``META_*`` constants below and read and written by ``skeleton.store.meta``: base, mode,
started, finished, finish_reason, ``edge_model`` (the crawl's JSON edge model),
``tree_pages`` (pages in the stored tree, set with it), and with ``-a template_menu=N`` the field
``template_menu``: JSON ``{"n", "urls", "pages", "loaded"}``, the site's template
menu, see ``skeleton.spiders.template_menu``). Term entropy (WISDOM Section 3.1) keeps
``:entropy:B`` (:data:`ENTROPY_BUCKETS` small hashes, ``B`` three hex digits: term ->
sufficient statistics, ``skeleton.entropy.statistics.encode``; a term goes to bucket
:func:`entropy_bucket`, a term longer than :data:`LONG_TERM` bytes to ``:entropy:long``),
``:entropy_pages`` (set of the :func:`url_id` of the pages counted) and
``:page_terms`` (hash: page URL -> zlib-compressed JSON term counts). WISDOM's second pass (``scrapy
informative``) reads ``:page_html`` (hash: page URL -> the zlib-compressed body
with a JSON header line, see ``skeleton.store.kept.pack_page``).
``:contexts`` (hash: context id -> JSON of the detection context the pages below a
page get, ``skeleton.sew.context``; queue entries carry the id).
``:sitemap`` (hash: a page URL the site's sitemap lists, canonical and in the crawl's
scope -> its ``lastmod`` or "") and ``:sitemaps`` (hash: a sitemap file read, or
claimed for reading -> JSON ``{"kind", "urls", "status"}``), written with
``SKELETON_SITEMAP`` by ``skeleton.store.sitemap``: a report, never a parent.
``skeleton:crawls`` is the set of crawl ids.

Memory (issue 14): Redis keeps a hash of at most 128 fields (``hash-max-ziplist-entries``,
``hash-max-listpack-entries`` from Redis 7) of at most 64 bytes each in one compact
block, a few bytes per field; a bigger hash costs about 100 bytes per field (an entry,
and an allocation per field and per value). So the vocabulary, the crawl's largest
data, is spread over :data:`ENTROPY_BUCKETS` hashes (about 26 bytes per term up to
about 100,000 terms), and the per-page sets and hashes hold 8-byte :func:`url_id`
digests rather than URLs.

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
import zlib
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlsplit

from skeleton.web.urls import canonical, directory

__all__ = ["PREFIX", "CRAWLS", "META_BASE", "META_MODE", "META_DEPTH", "META_MAX_PAGES", "META_EDGE_MODEL",
           "META_STARTED", "META_RESUMED", "META_FINISHED", "META_FINISH_REASON", "META_FETCHED",
           "META_BUDGET_UNTIL", "META_TREE_PAGES", "META_DEPTHS", "META_TEMPLATE_MENU", "META_DEAD_LETTERS",
           "ENTROPY_BUCKETS", "LONG_TERM",
           "CrawlKeys", "MAX_CRAWL_ID", "crawl_id_error", "crawl_id_for", "valid_crawl_id", "url_id",
           "entropy_bucket"]

PREFIX = "skeleton"
CRAWLS = f"{PREFIX}:crawls"
# ``:meta`` fields (the hash's only names: :mod:`skeleton.store.meta` reads and writes them)
#: the crawl's canonical base URL, its mode (``sew``, ``bfs``), its ``-a depth`` and
#: ``-a max_pages`` ("" when unlimited) and its JSON edge model, set when a run opens it
META_BASE = "base"
META_MODE = "mode"
META_DEPTH = "depth"
META_MAX_PAGES = "max_pages"
META_EDGE_MODEL = "edge_model"
#: when the crawl started (kept when it resumes) and when a run last resumed it
META_STARTED = "started"
META_RESUMED = "resumed"
#: when and why the crawl stopped (removed when a run opens it again)
META_FINISHED = "finished"
META_FINISH_REASON = "finish_reason"
#: pages analysed over every worker and run (the tree pipeline's script counts them)
META_FETCHED = "fetched"
#: the ``fetched`` count at which the current run's ``-a max_pages`` budget is spent
META_BUDGET_UNTIL = "budget_until"
#: pages in the stored ``:tree`` (its root included), set with it
META_TREE_PAGES = "tree_pages"
#: the stored tree's pages per depth (JSON)
META_DEPTHS = "depths"
#: ``:meta`` field holding the crawl's template menu (JSON)
META_TEMPLATE_MENU = "template_menu"
#: ``:meta`` field counting the queue entries moved to ``:dead``
META_DEAD_LETTERS = "dead_letters"
#: the longest crawl id, in characters
MAX_CRAWL_ID = 200
_CRAWL_ID = re.compile(rf"[A-Za-z0-9][A-Za-z0-9._-]{{0,{MAX_CRAWL_ID - 1}}}")
_SLUG_SEPARATORS = re.compile(r"[^A-Za-z0-9.]+")
#: the readable part of a default crawl id is cut to this many characters, which
#: leaves room for the mode, the hash and a ``skeleton.recrawl`` timestamp
_SLUG_MAX = 120
#: hex digits of the base URL's SHA-256 in a default crawl id (40 bits)
_HASH_DIGITS = 10
#: Hashes the crawl's vocabulary is spread over (``:entropy:000`` to ``:entropy:3ff``).
#: Fixed for every crawl: workers must agree on it. About 1,024 x 110 bytes of key
#: overhead; each stays compact up to 128 terms, so up to about 100,000 terms.
ENTROPY_BUCKETS = 1024
#: Terms longer than this (UTF-8 bytes) would make their hash lose its compact
#: encoding (``hash-max-ziplist-value``): they go to ``:entropy:long``.
LONG_TERM = 64
#: Terms whose bucket is remembered (:func:`entropy_bucket`; about 10 MB at most).
BUCKET_CACHE = 50_000
#: Bytes of a :func:`url_id`.
URL_ID_BYTES = 8


def url_id(url: str) -> bytes:
    """The 8-byte digest (BLAKE2b) of a page URL that stands for it in ``:entropy_pages``
    and ``:fingerprints``. Any two of a million URLs collide with probability below
    3e-8 (a page counted or compared as another one)."""
    return hashlib.blake2b(url.encode("utf-8", "surrogatepass"), digest_size=URL_ID_BYTES).digest()


@lru_cache(maxsize=BUCKET_CACHE)
def entropy_bucket(term: str) -> int:
    """Index of the ``:entropy`` bucket of ``term`` (:meth:`CrawlKeys.entropy_bucket`):
    CRC-32 of its UTF-8 bytes modulo :data:`ENTROPY_BUCKETS`, or :data:`ENTROPY_BUCKETS`
    (``:entropy:long``) for a term of more than :data:`LONG_TERM` bytes. The
    :data:`BUCKET_CACHE` terms used last are remembered (a site's pages share most
    of their vocabulary)."""
    data = term.encode("utf-8", "surrogatepass")
    if len(data) > LONG_TERM:
        return ENTROPY_BUCKETS
    return zlib.crc32(data) % ENTROPY_BUCKETS


def valid_crawl_id(crawl: str) -> bool:
    """Crawl ids are short and plain: letters, digits, '.', '_' and '-' (never
    '%' or ':', which would clash with scrapy-redis key templates and namespaces),
    starting with a letter or a digit, at most :data:`MAX_CRAWL_ID` characters."""
    return bool(_CRAWL_ID.fullmatch(crawl))


def crawl_id_error(crawl: str) -> str | None:
    """Why ``crawl`` is no valid crawl id (:func:`valid_crawl_id`), as one line
    naming the rule it breaks, or None when it is valid."""
    if valid_crawl_id(crawl):
        return None
    if len(crawl) > MAX_CRAWL_ID:
        return f"crawl id must be at most {MAX_CRAWL_ID} characters, got {len(crawl)}"
    return f"invalid crawl id {crawl!r}: use letters, digits, '.', '_', '-', starting with a letter or a digit"


def crawl_id_for(base_url: str, mode: str = "sew") -> str:
    """Default crawl id: a readable prefix, the host, port and directory of the
    base URL as a slug plus ``-bfs`` for the baseline mode, then a short hash of
    the canonical base URL and the mode (``http://127.0.0.1:8000/en/`` ->
    ``127.0.0.1-8000-en-`` and 10 hex digits). Slugs collide (``a_b/``, ``a-b/``
    and ``a/b/``; ``host:8000/`` and ``host/8000/``; http and https; a long URL
    cut short); the hash tells them apart, so two canonical bases never share a
    default id and one base always gets the same id. The base is canonicalized
    here (:func:`skeleton.web.urls.canonical`, as the spider does), so every
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
        problem = crawl_id_error(self.crawl)
        if problem:
            raise ValueError(problem)

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
    def offsite(self) -> str:
        return self._key("offsite")

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

    def entropy_bucket(self, index: int) -> str:
        """The ``:entropy`` hash number ``index`` (:func:`entropy_bucket`)."""
        return self._key("entropy:long" if index == ENTROPY_BUCKETS else f"entropy:{index:03x}")

    @property
    def entropy(self) -> tuple[str, ...]:
        """Every ``:entropy`` hash, in bucket order (``:entropy:long`` last)."""
        return tuple(self.entropy_bucket(i) for i in range(ENTROPY_BUCKETS + 1))

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
    def sitemap(self) -> str:
        return self._key("sitemap")

    @property
    def sitemaps(self) -> str:
        return self._key("sitemaps")

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
                *self.entropy, self.entropy_pages, self.page_terms, self.page_html,
                self.leases, self.inflight, self.dead, self.failed, self.offsite, self.contexts,
                self.sitemap, self.sitemaps)
