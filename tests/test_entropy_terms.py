"""Term extraction: tokens, stop words, numbers, page text, packing; bad input."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skeleton.entropy.terms import (MAX_TERM_LENGTH, count_terms, document_text, pack_counts,
                                    page_terms, stop_words, tokenize, unpack_counts)
from skeleton.web.dom import parse_html


def test_tokens_are_lower_cased_and_numbers_dropped() -> None:
    text = "Hello, WORLD! In 2024 the MP3 player cost 3.14 dollars; x 1st ½ e-mail"
    assert tokenize(text) == ["hello", "world", "in", "the", "mp3", "player", "cost",
                              "dollars", "1st", "mail"]


def test_stop_words_english_by_default_and_other_languages() -> None:
    english = stop_words()
    assert {"the", "and", "of", "with"} <= english and "crawler" not in english
    assert stop_words("english") == english and len(english) == 318
    assert {"le", "et", "des"} <= stop_words("fr") == stop_words("French")
    assert "und" in stop_words("de")
    with pytest.raises(ValueError):
        stop_words("klingon")
    with pytest.raises(ValueError):
        stop_words("../en")


def test_count_terms_removes_stop_words() -> None:
    counts = count_terms("The cat and the hat. The CAT sat on 42 mats!", stop_words())
    assert counts == {"cat": 2, "hat": 1, "sat": 1, "mats": 1}
    assert count_terms("le chat et le chien", stop_words("fr")) == {"chat": 1, "chien": 1}


def test_count_terms_keeps_the_most_frequent_when_over_the_cap() -> None:
    text = "beta " * 3 + "alpha " * 3 + "gamma " * 2 + "delta"
    assert count_terms(text, max_terms=2) == {"alpha": 3, "beta": 3}
    assert count_terms(text, max_terms=0) == {}


def test_non_latin_scripts() -> None:
    assert tokenize("Привет мир") == ["привет", "мир"]
    assert tokenize("Ελληνικά κείμενα") == ["ελληνικά", "κείμενα"]
    # Han and kana have no separators: overlapping bigrams
    assert tokenize("東京の天気") == ["東京", "京の", "の天", "天気"]
    assert tokenize("猫") == ["猫"]
    assert tokenize("abc東京") == ["abc", "東京"]


def test_overlong_tokens_are_dropped() -> None:
    assert tokenize("a" * (MAX_TERM_LENGTH + 1) + " ok") == ["ok"]
    assert tokenize("b" * MAX_TERM_LENGTH) == ["b" * MAX_TERM_LENGTH]


def test_document_text_skips_scripts_and_styles() -> None:
    root = parse_html(b"<html><head><title>Site title</title><style>.x{color:red}</style>"
                      b"</head><body><p>Hello <b>bold</b> world<script>var hidden=1;</script>"
                      b" tail</p><template>tmpl</template></body></html>")
    assert document_text(root).split() == ["Site", "title", "Hello", "bold", "world", "tail"]
    assert page_terms(root, stop_words()) == {"site": 1, "title": 1, "hello": 1, "bold": 1,
                                              "world": 1, "tail": 1}


@pytest.mark.parametrize("body", [
    b"", b"   ", b"\x00\x01\x02binary", b"<html><body><img src='a.png'></body></html>",
    b"<html><body>123 456 7.89</body></html>", b"<p>\x80\x81\x8d \xfd</p>",
])
def test_pages_without_text_give_no_terms(body: bytes) -> None:
    assert page_terms(parse_html(body), stop_words()) == {}


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_never_raise(body: bytes) -> None:
    for term, count in page_terms(parse_html(body), stop_words()).items():
        assert count > 0 and term == term.lower()


def test_bad_arguments_never_raise() -> None:
    assert tokenize(None) == [] and tokenize(b"bytes") == [] and tokenize(42) == []
    assert document_text(None) == "" and document_text("not an element") == ""
    assert count_terms(None) == {}


def test_enormous_text() -> None:
    text = ("lorem ipsum dolor " * 200_000) + " ".join(f"w{i}x" for i in range(1000))
    counts = count_terms(text, stop_words(), max_terms=500)
    assert counts["lorem"] == counts["ipsum"] == counts["dolor"] == 200_000
    assert len(counts) == 500


def test_pack_round_trip_and_bad_blobs() -> None:
    counts = {"crawler": 3, "été": 1, "東京": 2}
    blob = pack_counts(counts)
    assert isinstance(blob, bytes) and unpack_counts(blob) == counts
    assert unpack_counts(pack_counts({})) == {}
    import json
    import zlib
    for bad in (None, "", b"", b"not zlib", zlib.compress(b"[1, 2]"),
                zlib.compress(b"\xff"), zlib.compress(json.dumps({"a": "x", "b": -1}).encode())):
        assert unpack_counts(bad) == {}
    bomb = zlib.compress(b'{"a": 1' + b" " * (80 * 1024 * 1024) + b"}")
    assert unpack_counts(bomb) == {}


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_any_text_gives_clean_terms(text: str) -> None:
    counts = count_terms(text, stop_words())
    for term, count in counts.items():
        assert count > 0 and term == term.lower() and not term.isnumeric()
        assert term.strip() == term and term and "_" not in term
        assert term not in stop_words()


def test_counts_are_those_of_the_lower_cased_text() -> None:
    """Upper- and lower-case forms count as one term, non-ASCII ones too; a final
    sigma is lower-cased as in the whole text (it depends on the letters after it)."""
    from collections import Counter

    from skeleton.entropy.terms import terms

    assert count_terms("Élan élan ÉLAN Straße STRASSE") == {"élan": 3, "straße": 1, "strasse": 1}
    assert count_terms("ΟΔΟΣ ΟΔΟΣ.Α") == {"οδος": 1, "οδοσ": 1}
    assert count_terms("ΟΔΟΣ ΟΔΟΣ.Α") == dict(Counter(terms("ΟΔΟΣ ΟΔΟΣ.Α")))
