"""WISDOM Phase 1 node features (paper Section 3.1) on hand-computed trees."""
from __future__ import annotations

import math
from collections import Counter

import lxml.html
import pytest

from skeleton.entropy.terms import count_terms, stop_words, terms
from skeleton.wisdom.features import ENTROPY_FLOOR, UNKNOWN_WEIGHT, extract_features, text_length, weight_function
from skeleton.wisdom.tokens import tokenize

URL = "http://site.test/dir/page.html"


def node(nodes, tag, nth=0):
    return [i for i, el in enumerate(nodes.elements) if el.tag == tag][nth]


def test_tokenize_drops_stop_words_numbers_and_case():
    assert tokenize("The Kernel 2024 schedules THREADS_fast, x a") == ["kernel", "schedules", "threads", "fast"]
    assert tokenize("") == []


def test_tokenize_is_the_entropy_middleware_term_function():
    text = "MP3 players: the Kernel's 2nd THREADS_fast 東京の天気 x"
    assert tokenize(text) == terms(text, stop_words())
    assert Counter(tokenize(text)) == count_terms(text, stop_words())
    assert "mp3" in tokenize(text) and "東京" in tokenize(text)


def test_text_length_collapses_whitespace():
    assert text_length("  Foo \n\t bar  ") == 7
    assert text_length("   ") == 0
    assert text_length(None) == 0


def test_alen_clen_and_dummy_tags():
    root = lxml.html.fromstring(
        '<div>ab cd<a href="x.html">Foo  <b>bar</b></a>tail<script>var x = 1</script>zz'
        '<style>p {}</style><br>yy</div>')
    nodes = extract_features(root, URL, {})
    div, a, b = node(nodes, "div"), node(nodes, "a"), node(nodes, "b")
    assert [el.tag for el in nodes.elements] == ["div", "a", "b"]  # script, style, br are dummy
    assert nodes.clen[div] == len("ab cd") + len("tail") + len("zz") + len("yy")
    assert nodes.alen[div] == 0
    assert nodes.alen[a] == len("Foo")  # own text of <a>; "bar" is owned by <b>
    assert nodes.alen[b] == 3 and nodes.clen[b] == 0
    assert nodes.anchor == [False, True, False]
    assert nodes.children[div] == [a] and nodes.children[a] == [b]
    assert nodes.parent == [-1, 0, 1]


def test_term_weights_sum_and_count_per_node():
    root = lxml.html.fromstring("<p>alpha beta <i>beta gamma</i></p>")
    nodes = extract_features(root, URL, {"alpha": 0.5, "beta": 1.0})
    p, i = node(nodes, "p"), node(nodes, "i")
    assert nodes.term_count[p] == 2 and nodes.weight_sum[p] == pytest.approx(1.5)
    assert nodes.term_count[i] == 2 and nodes.weight_sum[i] == pytest.approx(1.0 + UNKNOWN_WEIGHT)


def test_weight_lookup_callable_mapping_and_bad_values():
    assert weight_function({"a": 0.3})("a") == 0.3
    assert weight_function({"a": 0.3})("b") == UNKNOWN_WEIGHT
    assert weight_function(lambda t: float("nan"))("a") == UNKNOWN_WEIGHT
    assert weight_function(lambda t: 7.0)("a") == 1.0
    assert weight_function(lambda t: -1.0)("a") == 0.0
    assert weight_function({}.__getitem__)("missing") == UNKNOWN_WEIGHT
    assert weight_function(None)("a") == UNKNOWN_WEIGHT


WEIGHTS = {"alpha": 0.5, "beta": 0.9, "gamma": 0.2, "common": 1.0}


def api_of(html, page_terms=None, missing_page="anchor", url=URL):
    root = lxml.html.fromstring(html)
    nodes = extract_features(root, url, WEIGHTS, page_terms, missing_page=missing_page)
    return nodes.api[node(nodes, "a")]


def test_api_matched_terms_weighted_by_inverse_entropy():
    linked = {"http://site.test/dir/target.html": {"alpha": 3, "gamma": 1, "delta": 2}}
    # matched: alpha (EN 0.5 -> 2) and gamma (EN 0.8 -> 1.25); beta is not in the page
    html = '<div><a href="target.html">Alpha beta <b>gamma</b> alpha</a></div>'
    assert api_of(html, linked.get) == pytest.approx(2.0 + 1.25)


def test_api_missing_page_policies():
    html = '<div><a href="elsewhere.html">Alpha beta gamma</a></div>'
    # 'anchor': every anchor term is assumed in the linked page: 2 + 10 + 1.25
    assert api_of(html, lambda url: None) == pytest.approx(13.25)
    assert api_of(html, None) == pytest.approx(13.25)
    assert api_of(html, lambda url: None, missing_page="zero") == 0.0
    with pytest.raises(ValueError):
        api_of(html, None, missing_page="guess")


def test_api_floor_and_unresolvable_links():
    assert api_of('<div><a href="t.html">common</a></div>') == pytest.approx(1.0 / ENTROPY_FLOOR)
    assert api_of('<div><a href="mailto:x@y.z">alpha</a></div>') == 0.0
    assert api_of('<div><a href="#top">alpha</a></div>') == 0.0
    assert api_of('<div><a href="javascript:void(0)">alpha</a></div>') == 0.0
    assert math.isfinite(api_of('<div><a href="t.html">alpha</a></div>', url=""))


def test_anchor_without_href_is_not_an_anchor():
    root = lxml.html.fromstring('<div><a name="x">alpha</a><a href=" ">beta</a></div>')
    nodes = extract_features(root, URL, WEIGHTS)
    assert nodes.anchor == [False, False, False]
    assert nodes.clen[1] == 5 and nodes.alen[1] == 0
