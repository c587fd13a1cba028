"""WISDOM's default tokenizer (paper Section 3.1, term extraction): the crawl's own.

The paper extracts terms from the *innerText* of a page after removing stop words,
and ignores numerical terms (Section 4.4). A term's weight W = 1 - EN is looked up
by the term, so WISDOM must cut text exactly as the entropy middleware counts it:
:func:`tokenize` is :func:`skeleton.entropy.terms.terms` with the English stop
words (:data:`STOP_WORDS`, the entropy default). Runs of letters and digits,
lower-cased, numbers and single characters dropped, CJK runs as character bigrams;
see :mod:`skeleton.entropy.terms`. A crawl with another stop-word language passes
``term_function(stop)`` (the middleware does this itself).
The only contract of a tokenizer is ``tokenize(text) -> list[str]``.
"""
from __future__ import annotations

from collections.abc import Callable

from skeleton.entropy.terms import DEFAULT_LANGUAGE, MIN_TERM_LENGTH, stop_words, term_function

__all__ = ["MIN_TERM_LENGTH", "STOP_WORDS", "Tokenizer", "tokenize"]

#: The entropy middleware's default stop words (English).
STOP_WORDS = stop_words(DEFAULT_LANGUAGE)

Tokenizer = Callable[[str], list[str]]


#: ``tokenize(text) -> list[str]``: terms of ``text`` in order, lower-cased, without
#: stop words and numbers (the entropy middleware's terms with its default stop words).
tokenize: Tokenizer = term_function(STOP_WORDS)
