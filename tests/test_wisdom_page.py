"""The shared text pass: the same terms as the entropy middleware's, in one pass."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import lxml.html
import pytest
from lxml import etree

from skeleton.entropy.terms import page_terms, stop_words, terms, terms_of_pieces
from skeleton.web.dom import parse_html
from skeleton.wisdom.page import link_targets, scan_page

SITES = Path(__file__).resolve().parent / "sites"
FIXTURE_PAGES = sorted(SITES.glob("*/**/*.html"))[::25] + sorted(
    (Path(__file__).resolve().parent / "fixtures" / "tinysite").glob("**/*.html"))


@pytest.mark.parametrize("path", FIXTURE_PAGES, ids=lambda p: p.relative_to(p.parents[2]).as_posix())
def test_page_counts_are_the_entropy_middleware_terms(path: Path) -> None:
    root = parse_html(path.read_bytes())
    assert scan_page(root, stop=stop_words()).counts() == page_terms(root, stop_words())


def test_pieces_are_tokenized_like_one_piece_at_a_time() -> None:
    pieces = ["Hello World 2024", "the MP3 player", "a b cd", "ÉCOLE İstanbul", "x" * 70 + " ok",
              "東京の天気 and words", "with \x01 separator", "Привет мир", "   "]
    stop = stop_words()
    by_piece = terms_of_pieces(pieces, stop)
    assert [Counter(t) for t in by_piece] == [Counter(terms(p, stop)) for p in pieces]
    ascii_only = pieces[:5]
    assert terms_of_pieces(ascii_only, stop) == [terms(p, stop) for p in ascii_only]
    assert terms_of_pieces([], stop) == []


def test_nodes_pieces_and_anchors() -> None:
    root = lxml.html.fromstring(
        '<div>Intro words<a href="x.html">Kernel <b>threads</b></a> tail text'
        '<script>var hidden = 1</script>after script<br>more</div>')
    page = scan_page(root)
    assert [el.tag for el in page.elements] == ["div", "a", "b"]
    assert page.parent == [-1, 0, 1] and page.children == [[1], [2], []]
    assert page.anchor == [False, True, False] and page.anchors == [1]
    assert page.anchor_terms == [{"kernel", "threads"}]
    assert page.alen == [0, len("Kernel"), len("threads")]
    assert page.clen[0] == len("Intro words") + len("tail text") + len("after script") + len("more")
    assert "hidden" not in page.counts()
    assert link_targets(page, "http://h/dir/p.html") == ["http://h/dir/x.html"]


def test_title_is_page_text_but_no_node() -> None:
    page = scan_page(parse_html("<html><head><title>Cats</title></head><body><p>dogs</p></body></html>"))
    assert page.counts() == {"cats": 1, "dogs": 1} and page.terms() == {"dogs"}
    assert [el.tag for el in page.elements] == ["html", "body", "p"]


@pytest.mark.parametrize("root", [None, "text", etree.Comment("c"), parse_html("<p></p>"),
                                  etree.ElementTree(lxml.html.fromstring("<div>a word</div>"))])
def test_bad_input_gives_an_empty_or_small_pass(root) -> None:
    page = scan_page(root)
    assert len(page) <= 3 and page.counts() in ({}, {"word": 1}) and not page.anchors
