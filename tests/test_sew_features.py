"""The six link-set features of SEW Section 3.3.1, and LinkDensity: skeleton.sew.features.

Every expected value below is computed by hand from the paper's definitions.
"""
from __future__ import annotations

import math

import pytest

from skeleton.web.dom import parse_html
from skeleton.sew.features import FEATURES, link_set_features
from skeleton.sew.links import LinkNode, extract_links
from skeleton.web.urls import OTHER_NUM_DIR, URLType

HOME = "http://example.org/"
PAGE = "http://example.org/news/index.html"


def links_of(anchors: str, page: str = PAGE) -> list[LinkNode]:
    return extract_links(parse_html(f"<html><body><p>{anchors}</p></body></html>".encode()), page)


def features(anchors: str, page: str = PAGE, home: str = HOME) -> dict[str, float]:
    return dict(zip(FEATURES, link_set_features(links_of(anchors, page), page, home)))


MIXED = """
<a href="world/index.html">World</a>
<a href="uk/politics.html">UK Politics</a>
<a href="business.html">Business</a>
<a href="/sport/">Sport</a>
<a href="http://other.org/a/b/c.html">Elsewhere on the web</a>
"""


def test_feature_names_and_order() -> None:
    assert FEATURES == ("NumWordName", "LenName", "VarLenName", "URLType", "VarURLNumDir", "URLContain",
                        "LinkDensity")


def test_link_density_of_a_menu_is_one() -> None:
    # the container <p> holds only the links' text (whitespace ignored)
    assert features(MIXED)["LinkDensity"] == pytest.approx(1.0)


def test_link_density_of_links_in_prose_is_their_share_of_the_text() -> None:
    html = b"""<html><body><div><p>Read the <a href="a.html">guide</a> and the
    <a href="b.html">FAQ</a> first.</p><p>Unrelated text here.</p></div></body></html>"""
    links = extract_links(parse_html(html), PAGE)
    # LCA is the first <p>: "Read the guide and the FAQ first." -> 4+3+5+3+3+3+6 = 27 chars; links 5+3
    assert dict(zip(FEATURES, link_set_features(links, PAGE, HOME)))["LinkDensity"] == pytest.approx(8 / 27)


def test_link_density_measures_the_lowest_common_ancestor_only() -> None:
    html = b"""<html><body><p>Long prose outside the list, not counted.</p>
    <ul><li><a href="a.html">One</a> (new)</li><li><a href="b.html">Two</a></li></ul>
    tail text</body></html>"""
    links = extract_links(parse_html(html), PAGE)
    # LCA <ul>: "One(new)Two" = 11 chars, links 6; the ul's tail is not counted
    assert dict(zip(FEATURES, link_set_features(links, PAGE, HOME)))["LinkDensity"] == pytest.approx(6 / 11)


def test_link_density_without_elements_is_one() -> None:
    links = [LinkNode(i, f"{i}.html", f"http://example.org/{i}.html", URLType.RELATIVE, "x", 3,
                      ("html", "body", "a"), (), "text", (0, 1)) for i in range(3)]
    assert dict(zip(FEATURES, link_set_features(links, PAGE, HOME)))["LinkDensity"] == 1.0


def test_num_word_name_is_the_mean_word_count() -> None:
    # words: 1, 2, 1, 1, 4 -> 9 / 5
    assert features(MIXED)["NumWordName"] == pytest.approx(1.8)


def test_len_name_is_the_mean_length_in_characters() -> None:
    # lengths: 5, 11, 8, 5, 20 -> 49 / 5
    assert features(MIXED)["LenName"] == pytest.approx(9.8)


def test_var_len_name_is_the_variance_of_the_lengths_on_a_log_scale() -> None:
    # deviations from 9.8: -4.8, 1.2, -1.8, -4.8, 10.2; squares sum to 154.8; / 5
    assert features(MIXED)["VarLenName"] == pytest.approx(math.log(1 + 30.96))


def test_url_type_is_the_share_of_the_most_common_type() -> None:
    # relative, relative, relative, absolute, cross-site: 3 / 5
    assert features(MIXED)["URLType"] == pytest.approx(0.6)


def test_var_url_num_dir_of_relative_absolute_and_cross_site_urls() -> None:
    # relative URLs are prefixed with the path from the homepage's directory to the
    # page's: news/world/ 2, news/uk/ 2, news/ 1; absolute /sport/ 1; cross-site
    # without the file name a/b/ 2. Levels 2, 2, 1, 1, 2: mean 1.6, variance 1.2 / 5
    assert features(MIXED)["VarURLNumDir"] == pytest.approx(0.24)


def test_url_contain_is_the_share_under_the_page_directory() -> None:
    # under /news/: world/index.html, uk/politics.html, business.html -> 3 / 5
    assert features(MIXED)["URLContain"] == pytest.approx(0.6)


def test_the_five_url_types() -> None:
    links = links_of("""<a href="a.html">rel</a><a href="/b.html">abs</a>
        <a href="http://www.example.com/c.html">cross</a><a href="#d">anchor</a>
        <a href="javascript:e()">other</a>""")
    assert [link.url_type for link in links] == [URLType.RELATIVE, URLType.ABSOLUTE, URLType.CROSS_SITE,
                                                 URLType.ANCHOR, URLType.OTHER]
    # every type once: the most common covers 1 of 5
    assert link_set_features(links, PAGE, HOME)[FEATURES.index("URLType")] == pytest.approx(0.2)


def test_url_type_share_with_anchors_and_others() -> None:
    f = features("""<a href="#a">A</a><a href="#b">B</a><a href="#c">C</a>
        <a href="mailto:x@example.org">Mail</a>""")
    assert f["URLType"] == pytest.approx(0.75)


def test_full_same_site_urls_are_absolute_type() -> None:
    f = features("""<a href="http://example.org/x.html">X</a><a href="/y.html">Y</a>""")
    assert f["URLType"] == 1.0


def test_var_url_num_dir_gives_other_urls_1000_levels() -> None:
    assert OTHER_NUM_DIR == 1000
    # levels 1 (news/), 1 (news/), 1000 (javascript:): mean 334, deviations -333,
    # -333, 666: (2 * 110889 + 443556) / 3
    f = features("""<a href="a.html">A</a><a href="b.html">B</a><a href="javascript:go()">Go</a>""")
    assert f["VarURLNumDir"] == pytest.approx(221778.0)
    assert f["URLType"] == pytest.approx(2 / 3)


def test_var_url_num_dir_of_anchor_urls_is_the_page_directory() -> None:
    # #a and #b are in news/ (1 level), world/x.html in news/world/ (2):
    # mean 4/3, variance ((1/3)^2 * 2 + (2/3)^2) / 3 = 2/9
    f = features("""<a href="#a">A</a><a href="#b">B</a><a href="world/x.html">X</a>""")
    assert f["VarURLNumDir"] == pytest.approx(2 / 9)


def test_var_url_num_dir_counts_below_the_homepage_directory() -> None:
    home = "http://example.org/news/index.html"
    # below /news/: world/ 1, (news/ itself) 0, world/africa/ 2: mean 1, variance 2/3
    f = features("""<a href="world/index.html">World</a><a href="index.html">Home</a>
        <a href="world/africa/index.html">Africa</a>""", home=home)
    assert f["VarURLNumDir"] == pytest.approx(2 / 3)


def test_var_url_num_dir_is_zero_when_all_levels_agree() -> None:
    f = features("""<a href="a/x.html">A</a><a href="b/y.html">B</a><a href="/news/c/">C</a>""")
    assert f["VarURLNumDir"] == 0.0


def test_url_contain_of_a_page_in_a_subdirectory() -> None:
    page = "http://example.org/news/world/index.html"
    f = features("""<a href="africa/index.html">Africa</a>
        <a href="europe.html">Europe</a>
        <a href="../sport.html">Sport</a>
        <a href="/news/world/asia/">Asia</a>
        <a href="http://other.org/news/world/x.html">Elsewhere</a>
        <a href="javascript:x()">JS</a>""", page=page)
    # contained: africa/index.html, europe.html, /news/world/asia/ -> 3 / 6
    assert f["URLContain"] == pytest.approx(0.5)


def test_url_contain_counts_anchors_as_contained() -> None:
    f = features("""<a href="#a">A</a><a href="#b">B</a><a href="world/x.html">X</a>
        <a href="/sport/">Sport</a>""")
    assert f["URLContain"] == pytest.approx(0.75)


def test_a_single_link_has_zero_variances() -> None:
    f = features('<a href="a.html">Just one</a>')
    assert f == {"NumWordName": 2.0, "LenName": 8.0, "VarLenName": 0.0, "URLType": 1.0,
                 "VarURLNumDir": 0.0, "URLContain": 1.0, "LinkDensity": 1.0}


def test_image_anchors_use_their_alt_text() -> None:
    f = features("""<a href="a.html"><img alt="Front page"></a><a href="b.html"><img src="b.png"></a>""")
    # SecNames 'Front page' (2 words, 10 chars) and '' (0, 0)
    assert f["NumWordName"] == pytest.approx(1.0)
    assert f["LenName"] == pytest.approx(5.0)
    assert f["VarLenName"] == pytest.approx(math.log(26.0))
