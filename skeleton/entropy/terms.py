"""Terms of a page (WISDOM Section 3.1: "we parse the innerText of the root node
to extract meaningful terms ... removing stop words based on a stop-list").

A page's text is the text of its DOM without ``<script>`` and ``<style>``
content. It is lower-cased and cut into tokens: runs of letters and digits
(apostrophes, hyphens and other punctuation separate tokens). Tokens made of
digits only (numbers) are dropped, as are stop words and tokens shorter than
``MIN_TERM_LENGTH`` or longer than ``MAX_TERM_LENGTH``. Han and kana runs, which
have no word separators, become overlapping character bigrams (the paper used a
Chinese term base instead). No stemming: the paper stems English terms, but
unstemmed terms keep anchor-text matching (API, Section 3.1.2) exact.

Stop words: English by default (``stopwords/en.txt``, the Glasgow list that
scikit-learn ships); other languages come from the ``stop-words`` package
(33 languages, by ISO 639-1 code or English name).

Every function that takes text or markup never raises on bad input: it returns
no terms. Only an unknown stop-word language is an error (a configuration one).
"""
from __future__ import annotations

import json
import re
import zlib
from collections import Counter
from collections.abc import Callable, Mapping
from functools import lru_cache
from importlib import resources
from typing import Any

from lxml import etree

__all__ = ["DEFAULT_LANGUAGE", "MIN_TERM_LENGTH", "MAX_TERM_LENGTH", "MAX_PAGE_TERMS",
           "SKIPPED_TAGS", "stop_words", "tokenize", "terms", "term_function", "terms_of_pieces",
           "count_terms", "document_text",
           "page_terms", "pack_counts", "unpack_counts"]

DEFAULT_LANGUAGE = "en"
MIN_TERM_LENGTH = 2
MAX_TERM_LENGTH = 64
#: At most this many distinct terms per page are kept (the most frequent ones).
MAX_PAGE_TERMS = 50_000
#: Elements whose own text is not page text.
SKIPPED_TAGS = frozenset({"script", "style", "template"})
#: A packed page-terms blob larger than this (decompressed) is refused.
MAX_UNPACKED_BYTES = 64 * 1024 * 1024

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
#: Greek capital sigma: lower-cased as final sigma or not by the letters around it
#: (Unicode's Final_Sigma), which may lie beyond the token
_CAPITAL_SIGMA = "\u03a3"
#: the first UTF-8 byte of every CJK character (U+3040-U+9FFF: E3-E9, U+F900-U+FAFF:
#: EF): UTF-8 text holding none of them has no CJK (memchr scans, not the regex)
_CJK_LEADS = tuple(bytes([lead]) for lead in (*range(0xE3, 0xEA), 0xEF))
#: A run of word characters that are neither '_' nor CJK; a CJK run.
_WORD = re.compile(rf"[^\W_{_CJK}]+")
_CJK_RUN = re.compile(rf"[{_CJK}]+")
#: A run of at least MIN_TERM_LENGTH such characters (a run is maximal either way).
_WORD_2 = re.compile(rf"[^\W_{_CJK}]{{{MIN_TERM_LENGTH},}}")
#: Text pieces tokenized together are joined by this (no word character).
_PIECE_SEPARATOR = "\x01"
_WORD_OR_SEPARATOR = re.compile(rf"[^\W_{_CJK}]{{{MIN_TERM_LENGTH},}}|{_PIECE_SEPARATOR}")
_SPACED_SEPARATOR = f" {_PIECE_SEPARATOR} "
#: UTF-8 bytes -> themselves, except ASCII characters that are neither letters, digits
#: nor the separator: a space (multi-byte characters are left to str.isalnum).
_ASCII_NON_WORD = bytes(b if b >= 0x80 or chr(b).isalnum() or chr(b) == _PIECE_SEPARATOR
                        else 0x20 for b in range(256))
_ZLIB_LEVEL = 1
#: Packed counts: compact JSON, keys sorted by the C encoder (no sorted copy).
_COUNTS_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode
_SHIPPED_ALIASES = {"english": "en"}
#: every text node under an element, itself included, its tail not: plain strings
_TEXT_NODES = etree.XPath(".//text()", smart_strings=False)


@lru_cache(maxsize=16)
def stop_words(language: str = DEFAULT_LANGUAGE) -> frozenset[str]:
    """The stop words of ``language`` (ISO 639-1 code or English name), lower-cased.
    Raises ``ValueError`` for a language with no known list."""
    name = (language or "").strip().lower()
    # a package resource, so that the list is found inside a zipped egg (Scrapyd) too
    file_name = f"{_SHIPPED_ALIASES.get(name, name)}.txt"
    shipped = resources.files("skeleton.entropy").joinpath("stopwords", file_name)
    if name.isalpha() and shipped.is_file():
        lines = shipped.read_text("utf-8").splitlines()
        return frozenset(w.strip().lower() for w in lines if w.strip() and not w.startswith("#"))
    try:
        from stop_words import StopWordError, get_stop_words
    except ImportError as exc:
        raise ValueError(f"stop words for {language!r} need the 'stop-words' package") from exc
    try:
        return frozenset(w.strip().lower() for w in get_stop_words(name) if w.strip())
    except (StopWordError, KeyError, OSError) as exc:
        raise ValueError(f"no stop-word list for language {language!r}") from exc


def tokenize(text: Any) -> list[str]:
    """Lower-cased tokens of ``text`` before stop-word removal (words, then CJK
    bigrams); numbers and tokens of the wrong length are already dropped. Not a
    string: no tokens."""
    if not isinstance(text, str) or not text:
        return []
    lowered = text.lower()
    tokens = [word for word in _WORD.findall(lowered)
              if MIN_TERM_LENGTH <= len(word) <= MAX_TERM_LENGTH and not word.isnumeric()]
    if not lowered.isascii() and _CJK_RUN.search(lowered) is not None:
        tokens.extend(tokenize_cjk(lowered))
    return tokens


def terms(text: Any, stop: frozenset[str] = frozenset()) -> list[str]:
    """The terms of ``text`` in order: :func:`tokenize` without the ``stop`` words.
    The one term function of the project (entropy counts and WISDOM use it)."""
    return term_function(stop)(text)


@lru_cache(maxsize=16)
def term_function(stop: frozenset[str] = frozenset()) -> Callable[[Any], list[str]]:
    """``text -> terms`` for one stop-word list, as one flat function (it runs for
    every text piece of every page): same result as :func:`terms`."""
    words = _WORD_2.findall
    cjk_search = _CJK_RUN.search

    def cut(text: Any) -> list[str]:
        if not isinstance(text, str) or not text:
            return []
        lowered = text.lower()
        found = [w for w in words(lowered)
                 if w not in stop and len(w) <= MAX_TERM_LENGTH and not w.isnumeric()]
        if not lowered.isascii() and cjk_search(lowered) is not None:
            found.extend(t for t in tokenize_cjk(lowered) if t not in stop)
        return found
    return cut


def terms_of_pieces(texts: list[str], stop: frozenset[str] = frozenset()) -> list[list[str]]:
    """``[terms(text, stop) for text in texts]``, tokenized in one regex pass over all
    the pieces (the page's text nodes): the same terms per piece, in the same order
    except that a piece's CJK bigrams may come in another order."""
    if not texts:
        return []
    joined = _PIECE_SEPARATOR.join(texts)
    if joined.count(_PIECE_SEPARATOR) != len(texts) - 1 or _PIECE_SEPARATOR in stop or (
            not joined.isascii() and _CJK_RUN.search(joined) is not None):
        cut = term_function(stop)
        return [cut(text) for text in texts]
    return _split_at_separators(_kept_words(joined.lower(), stop), len(texts))


def _kept_words(lowered: str, stop: frozenset[str]) -> list[str]:
    """The ``_WORD_OR_SEPARATOR`` matches of lower-cased text without CJK, in order,
    minus stop words, numbers and too long words: the terms and the separators.

    The same matches without the regex engine (the costliest step): ASCII non-word
    bytes become spaces (one ``bytes.translate``) and ``str.split`` cuts the rest.
    A token made only of word characters but '_' (``str.isalnum``, which is the
    regex's ``[^\\W_]``; whitespace never is one) is one whole match; the few tokens
    still holding other characters (non-ASCII punctuation: ’, —) go through the regex.
    """
    text = lowered.replace(_PIECE_SEPARATOR, _SPACED_SEPARATOR).encode(
        "utf-8", "surrogatepass").translate(_ASCII_NON_WORD).decode("utf-8", "surrogatepass")
    tokens = text.split()
    distinct = set(tokens)
    good = {w for w in distinct if MIN_TERM_LENGTH <= len(w) <= MAX_TERM_LENGTH
            and w not in stop and w.isalnum() and not w.isnumeric()}
    good.add(_PIECE_SEPARATOR)
    odd = {w for w in distinct if not w.isalnum()}
    odd.discard(_PIECE_SEPARATOR)
    if not odd:
        return [w for w in tokens if w in good]
    find = _WORD_OR_SEPARATOR.findall
    parts = {token: [w for w in find(token)
                     if w not in stop and len(w) <= MAX_TERM_LENGTH and not w.isnumeric()]
             for token in odd}
    kept: list[str] = []
    add, extend = kept.append, kept.extend
    for token in tokens:
        if token in good:
            add(token)
        elif token in parts:
            extend(parts[token])
    return kept


def _counted_words(encoded: bytes, stop: frozenset[str]) -> dict[str, int]:
    """The terms of text without CJK (UTF-8 ``encoded``), lower-cased and counted: the
    tokens of :func:`_kept_words`, counted by ``Counter`` in C before any is tested, so
    that each distinct token is tested once (a page repeats its words). ASCII letters
    are lower-cased on the bytes; a token holding other characters is lower-cased
    alone (``str.lower`` never makes or removes a separator, so the tokens are those
    of the lower-cased text)."""
    tokens = Counter(encoded.lower().translate(_ASCII_NON_WORD).decode("utf-8", "surrogatepass").split())
    for token in [token for token in tokens if not token.isascii()]:
        lowered = token.lower()
        if lowered != token:
            tokens[lowered] += tokens.pop(token)
    counts: dict[str, int] = {}
    odd: list[tuple[str, int]] = []
    for token, count in tokens.items():
        if not token.isalnum():
            odd.append((token, count))  # non-ASCII punctuation or the separator inside
        elif MIN_TERM_LENGTH <= len(token) <= MAX_TERM_LENGTH and token not in stop \
                and not token.isnumeric():
            counts[token] = count
    find = _WORD_2.findall
    for token, count in odd:
        for word in find(token):
            if word not in stop and len(word) <= MAX_TERM_LENGTH and not word.isnumeric():
                counts[word] = counts.get(word, 0) + count
    return counts


def _split_at_separators(kept: list[str], pieces: int) -> list[list[str]]:
    """``kept`` (terms and separators) cut into ``pieces`` lists at the separators:
    C-level ``index`` and slices, no new strings."""
    out: list[list[str]] = []
    add, find = out.append, kept.index
    start = 0
    for _ in range(pieces - 1):
        end = find(_PIECE_SEPARATOR, start)
        add(kept[start:end])
        start = end + 1
    add(kept[start:])
    return out


def tokenize_cjk(lowered: str) -> list[str]:
    """The CJK terms of lower-cased text: one per single character, else bigrams;
    numbers (CJK numerals such as 一二) are dropped like digits."""
    tokens: list[str] = []
    for run in _CJK_RUN.findall(lowered):
        if len(run) == 1:
            tokens.append(run)
        else:
            tokens.extend(run[i:i + 2] for i in range(len(run) - 1))
    return [t for t in tokens if not t.isnumeric()]


def count_terms(text: Any, stop: frozenset[str] = frozenset(),
                max_terms: int = MAX_PAGE_TERMS) -> dict[str, int]:
    """Term -> frequency in ``text``, stop words removed. With more than
    ``max_terms`` distinct terms, the most frequent are kept (ties by term)."""
    if not isinstance(text, str) or not text:
        return {}
    encoded = text.encode("utf-8", "surrogatepass")
    if not text.isascii() and any(lead in encoded for lead in _CJK_LEADS) \
            and _CJK_RUN.search(text) is not None:
        counts: Mapping[str, int] = Counter(term_function(stop)(text))
    elif _CAPITAL_SIGMA in text:  # its lower case depends on what follows, across tokens
        counts = _counted_words(text.lower().encode("utf-8", "surrogatepass"), stop)
    else:
        counts = _counted_words(encoded, stop)
    if len(counts) > max(0, max_terms):
        kept = sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:max(0, max_terms)]
        return dict(kept)
    return dict(counts)


def document_text(root: Any) -> str:
    """The text of an lxml element and its descendants, without the content of
    ``SKIPPED_TAGS``; pieces are joined by spaces. ``None`` or a non-element: ''."""
    if root is None or not hasattr(root, "iter"):
        return ""
    parts: list[str] = []
    try:
        for element in root.iter():
            tag = element.tag
            if isinstance(tag, str) and tag.lower() not in SKIPPED_TAGS and element.text:
                parts.append(element.text)
            if element is not root and element.tail:
                parts.append(element.tail)
    except (TypeError, ValueError):
        return " ".join(parts)
    return " ".join(parts)


def page_terms(root: Any, stop: frozenset[str] = frozenset(),
               max_terms: int = MAX_PAGE_TERMS) -> dict[str, int]:
    """Term frequencies of a parsed page: those of its :func:`document_text`.

    The text nodes come from one libxml2 XPath pass, as plain strings; the text of
    each ``SKIPPED_TAGS`` element (its first text node, as in :func:`document_text`)
    is then removed from them once. The pieces are those of :func:`document_text`,
    perhaps in another order when a skipped text equals an earlier piece: the same
    counts."""
    if root is None or not hasattr(root, "iter"):
        return {}
    try:
        pieces = _TEXT_NODES(root)
        for element in root.iter(*SKIPPED_TAGS):
            if element.text:
                pieces.remove(element.text)
    except (TypeError, ValueError, etree.XPathError):
        return count_terms(document_text(root), stop, max_terms)
    return count_terms(" ".join(pieces), stop, max_terms)


def pack_counts(counts: Mapping[str, int]) -> bytes:
    """Compact storage of a page's term counts: zlib-compressed JSON object."""
    text = _COUNTS_JSON(counts if isinstance(counts, dict) else dict(counts))
    return zlib.compress(text.encode("utf-8"), _ZLIB_LEVEL)


def unpack_counts(blob: Any) -> dict[str, int]:
    """Inverse of :func:`pack_counts`; anything unreadable gives ``{}``."""
    if not isinstance(blob, (bytes, bytearray, memoryview)) or not blob:
        return {}
    try:
        decoder = zlib.decompressobj()
        raw = decoder.decompress(bytes(blob), MAX_UNPACKED_BYTES)
        if decoder.unconsumed_tail:
            return {}
        data = json.loads(raw.decode("utf-8"))
    except (zlib.error, UnicodeDecodeError, ValueError, RecursionError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(term): int(count) for term, count in data.items()
            if isinstance(count, int) and not isinstance(count, bool) and count > 0}

