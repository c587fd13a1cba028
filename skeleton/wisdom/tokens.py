"""A minimal default tokenizer for WISDOM (paper Section 3.1, term extraction).

The paper extracts terms from the *innerText* of a page after removing stop words,
and ignores numerical terms (Section 4.4). This module ships the smallest tokenizer
that does that for English, so :mod:`skeleton.wisdom` works standalone:

* a term is a maximal run of Unicode letters (digits, ``_`` and punctuation split
  terms, so numbers never become terms), lower-cased;
* terms shorter than :data:`MIN_TERM_LENGTH` and English stop words are dropped.

Text in scripts without word separators (Chinese, Japanese) becomes one term per
run of letters: no exception, just coarse terms. Callers with a better tokenizer
(the crawl's entropy middleware) pass it to :func:`skeleton.wisdom.informative_blocks`
instead; the only contract is ``tokenize(text) -> list[str]``.
"""
from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["MIN_TERM_LENGTH", "STOP_WORDS", "Tokenizer", "tokenize"]

#: Terms shorter than this are dropped (single letters carry no topic).
MIN_TERM_LENGTH = 2
#: English stop words (a short list in the spirit of Salton's SMART list).
STOP_WORDS = frozenset("""
a about above after again against all am an and any are as at be because been before
being below between both but by can could did do does doing down during each few for
from further had has have having he her here hers herself him himself his how i if in
into is it its itself just me more most my myself no nor not now of off on once only or
other our ours ourselves out over own same she should so some such than that the their
theirs them themselves then there these they this those through to too under until up
very was we were what when where which while who whom why will with would you your
yours yourself yourselves also may might must shall us via etc
""".split())
_WORD = re.compile(r"[^\W\d_]+")

Tokenizer = Callable[[str], list[str]]


def tokenize(text: str) -> list[str]:
    """Terms of ``text`` in order, lower-cased, without stop words and numbers."""
    return [term for term in _WORD.findall(text.lower())
            if len(term) >= MIN_TERM_LENGTH and term not in STOP_WORDS]
