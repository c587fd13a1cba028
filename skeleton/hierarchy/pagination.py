"""Pagination: a listing that runs over several pages is one node.

The site's truth rule (``shared/corpus/README.md``): pagination pages
(``page/2/``, ``index2.html``, ``?page=3``) are not nodes; the items they list are
children of the section they paginate. This module decides, from plain data,

* whether a link is a **pager link** (:func:`is_pager_link`): its text is a page
  number or an arrow, a next/previous word (in several languages) or it has
  ``rel="next"``/``"prev"``; *and* its target belongs to the same listing as the
  page (:func:`same_listing`): the two URLs differ only in a page number (a digit
  run in the path, a numeric query value, a trailing ``word/N`` pair). The URL
  test keeps document-order "next" links of a manual (``rel="next"`` to the next
  chapter) out; the text test keeps links between similarly named pages out;
* which fetched pages are pages of one listing and which of them is its **head**
  (:func:`listing_heads`): pager links join pages into groups; the head is the
  member whose URL has strictly fewer digits than every other member (the
  listing's first page: ``python.html`` for ``python2.html``, ``/blog/`` for
  ``/blog/page/2/``, ``/list`` for ``/list?page=3``). A group without such a member
  (``ch01.html``/``ch02.html``, ``?id=5``/``?id=6``) is not folded;
* the offers of a crawl with every page of a listing folded into its head
  (:func:`fold_listings`): an offer from ``python4.html`` is an offer from
  ``python.html``, and the pages after the first are no nodes.

Every decision is a function of the pages' own evidence (``evidence["pager"]``,
extracted by :mod:`skeleton.hierarchy.evidence`), never of arrival order.
"""
from __future__ import annotations

import re
from collections.abc import Container, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any
from urllib.parse import parse_qsl

from skeleton.sew.nesting import INDEX_NAMES
from skeleton.web.urls import split_url

__all__ = ["PAGER_RELS", "PAGER_WORDS", "URL_PAGER_WORDS", "first_page_folder", "fold_listings", "is_later_page",
           "is_pager_link", "is_pager_text", "worded_page",
           "listing_heads", "listing_keys", "pager_heads", "same_listing"]

#: ``rel`` values of a pager link
PAGER_RELS = frozenset({"next", "prev", "previous", "first", "last"})
#: words of a next/previous/first/last pager link, lower case, in several languages
PAGER_WORDS = frozenset({
    "next", "previous", "prev", "older", "newer", "first", "last", "more", "page",
    "suivant", "suivante", "précédent", "précédente", "premier", "dernier",
    "weiter", "zurück", "nächste", "vorherige", "erste", "letzte", "seite", "ältere", "neuere",
    "siguiente", "anterior", "primera", "última", "página", "próxima", "próximo",
    "successivo", "successiva", "precedente", "prima", "ultima", "pagina",
    "volgende", "vorige", "eerste", "laatste",
    "następna", "poprzednia", "strona",
    "следующая", "предыдущая", "далее", "назад", "страница",
    "次へ", "前へ", "下一页", "上一页", "首页", "末页", "다음", "이전",
    "entries", "posts", "articles", "results", "»", "«",
})
#: words that, joined to a number, make a pager's path segment (``page2``, ``seite-3``;
#: not a bare ``p``: ``p12.html`` is as often an item as a page)
_SEGMENT_WORDS = frozenset({"page", "seite", "pagina", "página", "strona", "index"})
#: words that name a page number in a URL whatever the link's text says (``page/2``,
#: ``?page=2``, ``seite3``)
URL_PAGER_WORDS = _SEGMENT_WORDS - {"index"}
#: a pager link's text has at most this many words
PAGER_MAX_WORDS = 4
#: a page number is at most this many digits (a four-digit "2023" is a year, not a page)
PAGE_NUMBER_DIGITS = 3

_NUMBER = re.compile(rf"^\d{{1,{PAGE_NUMBER_DIGITS}}}$")
#: arrows, guillemets, angle brackets and ellipses only
_ARROWS = re.compile(r"^[\s<>«»‹›←→↞↠⇐⇒⇠⇢⟨⟩〈〉⟪⟫≪≫⏮⏭⏪⏩◀▶◁▷|.…·:-]+$")
_WORD = re.compile(r"[^\W\d_]+|[«»]", re.UNICODE)
#: a last path segment that is a pager word and a page number (``page2``, ``page-3``,
#: ``seite_4.html``): jekyll-paginate's ``/page2/``, and others of its kind
_WORD_NUMBER = re.compile(rf"^([^\W\d_]+)[-_]?\d{{1,{PAGE_NUMBER_DIGITS}}}(?:\.html?)?$")
#: a page number in a path: a run of at most ``PAGE_NUMBER_DIGITS`` digits (``/2024/`` is a year)
_DIGITS = re.compile(rf"[-_.]?(?<!\d)\d{{1,{PAGE_NUMBER_DIGITS}}}(?!\d)")


@lru_cache(maxsize=16384)
def is_pager_text(text: str) -> bool:
    """Is ``text`` the text of a pager link: a page number, arrows only, or a few
    words among ``PAGER_WORDS`` (``"Next »"``, ``"Older posts"``, ``"Page 3"``)?
    Cached: a site's menus repeat their link texts on every page."""
    text = " ".join(text.split())
    if not text or len(text) > 40:
        return False
    if _NUMBER.match(text) or _ARROWS.match(text):
        return True
    words = [w.casefold() for w in _WORD.findall(text)]
    if not words or len(words) > PAGER_MAX_WORDS:
        return False
    return words[0] in PAGER_WORDS or words[-1] in PAGER_WORDS and len(words) <= 2


def _segments(path: str) -> list[str]:
    """The path's non-empty segments, without a trailing index file name."""
    segments = [s for s in path.split("/") if s]
    if segments and segments[-1].lower() in INDEX_NAMES:
        segments.pop()
    return segments


@lru_cache(maxsize=8192)
def listing_keys(url: str) -> frozenset[str]:
    """The keys of the listing ``url`` may be a page of: its host, path and query
    with the page number taken out (a run of up to ``PAGE_NUMBER_DIGITS`` digits in
    the path, a query parameter
    whose value is a number, a trailing ``word/N`` pair), index file names and
    trailing slashes dropped. Two URLs are pages of one listing when their keys meet.
    No keys for an unparsable URL (:func:`skeleton.web.urls.split_url`): it is no
    page of any listing."""
    parts = split_url(url)
    if parts is None:
        return frozenset()
    try:
        query = parse_qsl(parts.query, keep_blank_values=True)
    except ValueError:
        return frozenset()
    kept = "&".join(sorted(f"{k}={v}" for k, v in query if not v.isdigit()))
    base = f"{parts.netloc.lower()}?{kept}?"

    keys = {base + "/" + "/".join(_segments(_DIGITS.sub("", parts.path)))}
    segments = _segments(parts.path)
    if (len(segments) >= 2 and _NUMBER.match(segments[-1])
            and not any(c.isdigit() for c in segments[-2])):
        keys.add(base + "/" + "/".join(segments[:-2]))
    if segments and _pager_segment(segments[-1]):
        keys.add(base + "/" + "/".join(segments[:-1]))
    return frozenset(keys)


def _pager_segment(segment: str) -> bool:
    """Is a path segment a pager word joined to a page number (``page2``, ``seite-3``)?"""
    match = _WORD_NUMBER.match(segment)
    return match is not None and match.group(1).casefold() in _SEGMENT_WORDS


def same_listing(a: str, b: str) -> bool:
    """Are ``a`` and ``b`` two different pages of one listing (:func:`listing_keys`)?"""
    return a != b and bool(listing_keys(a) & listing_keys(b))


def is_later_page(page_url: str, first: str) -> bool:
    """Is ``page_url`` a later page of the listing whose first page is ``first``: two
    pages of one listing (:func:`same_listing`), ``page_url`` carrying its page number
    as pagers do (``/page/2/``, ``?page=2``) and ``first`` none?"""
    return same_listing(page_url, first) and _paged_url(page_url) and not _paged_url(first)


def _numbered(text: str) -> bool:
    text = " ".join(text.split())
    return bool(text) and bool(_NUMBER.match(text) or _ARROWS.match(text))


def _paged_url(url: str) -> bool:
    """Does the URL carry its page number the way pagers do: a trailing ``word/N``
    or ``/N`` path segment, or a query value that is a number? (No, when it is
    unparsable.)"""
    parts = split_url(url)
    if parts is None:
        return False
    try:
        query = parse_qsl(parts.query, keep_blank_values=True)
    except ValueError:
        return False
    segments = _segments(parts.path)
    return (bool(segments and (segments[-1].isdigit() or _pager_segment(segments[-1])))
            or any(v.isdigit() for _, v in query))


def is_pager_link(page_url: str, url: str, text: str, rels: Iterable[str] = ()) -> bool:
    """Is the link to ``url`` with ``text`` (and ``rel`` tokens) on ``page_url`` a
    link to another page of the same listing? A page number or arrows as text
    suffice; a next/previous word or ``rel`` only when one of the two URLs carries
    its page number as pagers do (``/page/2/``, ``?page=2``): a manual's "Next"
    from ``release-15-1.html`` to ``release-15-2.html`` is document order. Any text
    will do for a link to another page of the listing whose URL has a pager's word
    and number (:func:`worded_page`: "Weitere Artikel" to ``/updates/page/2``)."""
    if not same_listing(page_url, url):
        return False
    if _numbered(text):
        return True
    if not (is_pager_text(text) or PAGER_RELS & {r.lower() for r in rels}):
        # whatever its text ("Weitere Artikel"), a link to another page of the listing
        # whose URL has a pager's word and number (``/news/`` -> ``/news/page/2``)
        return worded_page(url)
    return _paged_url(page_url) or _paged_url(url)


def first_page_folder(folder: str) -> str:
    """The folder (a path) of a listing's first page for the folder of a later page
    named with a pager's word (``/shoes/`` for ``/shoes/page/2/`` and
    ``/shoes/page2/``, as :func:`worded_page` reads them), else ``folder``."""
    segments = [s for s in folder.split("/") if s]
    if len(segments) >= 2 and _NUMBER.match(segments[-1]) and segments[-2].casefold() in URL_PAGER_WORDS:
        segments = segments[:-2]
    elif segments and (match := _WORD_NUMBER.match(segments[-1])) and match.group(1).casefold() in URL_PAGER_WORDS:
        segments = segments[:-1]
    else:
        return folder
    return "/" + "".join(f"{s}/" for s in segments)


def worded_page(url: str) -> bool:
    """Does the URL name its page number with a pager's word: a trailing ``page/N``
    (``seite/N``, ...), a last segment ``page2``, or a query parameter ``page=N``
    (:data:`URL_PAGER_WORDS`)?"""
    parts = split_url(url)
    if parts is None:
        return False
    words = URL_PAGER_WORDS
    segments = _segments(parts.path)
    if len(segments) >= 2 and _NUMBER.match(segments[-1]) and segments[-2].casefold() in words:
        return True
    match = _WORD_NUMBER.match(segments[-1]) if segments else None
    if match is not None and match.group(1).casefold() in words:
        return True
    try:
        query = parse_qsl(parts.query, keep_blank_values=True)
    except ValueError:
        return False
    return any(k.casefold() in words and _NUMBER.match(v) for k, v in query)


def _digits(url: str) -> int:
    parts = split_url(url)
    if parts is None:
        return 0
    return sum(c.isdigit() for c in parts.path + parts.query)


def listing_heads(root: str, pages: Mapping[str, Mapping[str, Any]]) -> dict[str, str]:
    """Page URL -> the head of its listing, for every fetched page that is a later
    page of a listing (heads and other pages are not keys).

    ``pages`` maps URL -> page record with ``evidence["pager"]`` (the page's pager
    links). The fetched pages joined by pager links form groups; a group's head is
    ``root`` when it is a member, else the member with strictly fewer digits in its
    path and query than every other member; a group without one is left alone."""
    def pagers() -> Iterable[tuple[str, list[Any]]]:
        for url, record in pages.items():
            evidence = record.get("evidence") if isinstance(record, Mapping) else None
            pager = evidence.get("pager") if isinstance(evidence, Mapping) else None
            if isinstance(pager, list):
                yield url, pager
    return pager_heads(root, pagers(), pages)


def pager_heads(root: str, pagers: Iterable[tuple[str, Iterable[Any]]],
                pages: Container[str]) -> dict[str, str]:
    """:func:`listing_heads` from each page's pager links: ``pagers`` yields
    ``(page URL, its pager link URLs)`` (pages without pager links may be left out),
    ``pages`` holds every fetched page's URL. Order-free."""
    parent: dict[str, str] = {}

    def find(u: str) -> str:
        while parent.get(u, u) != u:
            parent[u] = parent.get(parent[u], parent[u])
            u = parent[u]
        return u

    for url, pager in pagers:
        for other in pager:
            if isinstance(other, str) and other in pages and same_listing(url, other):
                a, b = find(url), find(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    groups: dict[str, list[str]] = {}
    for url in parent:
        groups.setdefault(find(url), [find(url)]).append(url)
    heads: dict[str, str] = {}
    for members in groups.values():
        members = sorted(set(members))
        if root in members:
            head = root
        else:
            ranked = sorted(members, key=lambda u: (_digits(u), len(u), u))
            if _digits(ranked[0]) >= _digits(ranked[1]):
                continue
            head = ranked[0]
        heads.update({m: head for m in members if m != head})
    return heads


def fold_listings(root: str, pages: Mapping[str, Mapping[str, Any]],
                  offers: Mapping[str, Sequence[Mapping[str, Any]]]
                  ) -> tuple[dict[str, Mapping[str, Any]], dict[str, list[Mapping[str, Any]]], dict[str, str]]:
    """``(pages, offers, heads)`` with every later page of a listing folded into its
    head (:func:`listing_heads`): those pages are no longer pages, and an offer
    they made (``from``/``parent``) is their head's. Offers to them are dropped."""
    heads = listing_heads(root, pages)
    if not heads:
        return dict(pages), {c: list(os_) for c, os_ in offers.items()}, heads
    folded_pages = {u: r for u, r in pages.items() if u not in heads}
    folded: dict[str, list[Mapping[str, Any]]] = {}
    for child, child_offers in offers.items():
        if child in heads:
            continue
        folded[child] = [{**o, "from": heads.get(o.get("from"), o.get("from")),
                          "parent": heads.get(o.get("parent"), o.get("parent"))}
                         for o in child_offers]
    return folded_pages, folded, heads
