"""The pruning heuristics of SEW Section 3.2.2: skeleton.sew.heuristics."""
from __future__ import annotations

import pytest

from skeleton.sew.candidates import CandidateParams, gen_candidate_link_sets, prune_link_set, shallow_positions
from skeleton.web.dom import parse_html
from skeleton.sew.heuristics import (DATE_SHARE, ph_buttons, DISDIFF_MIN_GAP, MAX_DATE_NAME, INDEX_REDUNDANCY, is_date_name, jaccard, ph_date, ph_index, ph_anchor, ph_dis_diff, ph_link_dup,
                                     ph_link_set_dup, ph_max_num_word, ph_style)
from skeleton.sew.links import LinkNode, extract_links
from skeleton.web.urls import URLType

PAGE = "http://example.org/site/index.html"


def links_of(body: str, url: str = PAGE) -> list[LinkNode]:
    return extract_links(parse_html(f"<html><body>{body}</body></html>".encode()), url)


def names(links) -> list[str]:
    return [link.sec_name for link in links]


def node(number: int, name: str = "", url: str = "", depth: int = 5) -> LinkNode:
    """A synthetic link node (only what the heuristic under test looks at matters)."""
    return LinkNode(number=number, href=url or "#", url=url, url_type=URLType.RELATIVE,
                    sec_name=name or f"L{number}", depth=depth, path=("a",) * depth,
                    style=(), anchor="text")


# --- Anchor ------------------------------------------------------------------

def test_anchor_keeps_the_larger_text_group() -> None:
    links = links_of("""<p><a href="a.html">A</a><a href="i1.html"><img alt="I1"></a>
        <a href="b.html">B</a><a href="i2.html"><img alt="I2"></a><a href="c.html">C</a></p>""")
    assert names(ph_anchor(links)) == ["A", "B", "C"]


def test_anchor_keeps_the_larger_image_group() -> None:
    links = links_of("""<p><a href="a.html">A</a><a href="i1.html"><img alt="I1"></a>
        <a href="i2.html"><img alt="I2"></a><a href="i3.html"><img src="x.png"></a></p>""")
    assert names(ph_anchor(links)) == ["I1", "I2", ""]
    assert {link.anchor for link in ph_anchor(links)} == {"image"}


def test_anchor_tie_keeps_the_type_seen_first() -> None:
    links = links_of("""<p><a href="i1.html"><img alt="I1"></a><a href="a.html">A</a>
        <a href="b.html">B</a><a href="i2.html"><img alt="I2"></a></p>""")
    assert names(ph_anchor(links)) == ["I1", "I2"]


def test_anchor_of_an_empty_set() -> None:
    assert ph_anchor([]) == []


# --- LinkDup -----------------------------------------------------------------

def test_link_dup_drops_the_later_link_with_the_same_sec_name() -> None:
    links = links_of("""<p><a href="business.html">Business</a><a href="sport.html">Sport</a>
        <a href="biz2.html">business</a><a href="world.html">World</a></p>""")
    assert names(ph_link_dup(links)) == ["Business", "Sport", "World"]


def test_link_dup_drops_the_later_link_with_the_same_url() -> None:
    links = links_of("""<p><a href="sport.html">Sport</a><a href="news.html">News</a>
        <a href="./sport.html#top">More sport</a><a href="/site/news.html">All news</a></p>""")
    # './sport.html#top' and '/site/news.html' resolve to URLs already seen
    assert names(ph_link_dup(links)) == ["Sport", "News"]


def test_link_dup_does_not_treat_empty_names_as_duplicates() -> None:
    links = links_of("""<p><a href="a.html"><img src="a.png"></a><a href="b.html"><img src="b.png"></a>
        <a href="c.html"><img src="c.png"></a></p>""")
    assert [link.url.rsplit("/", 1)[1] for link in ph_link_dup(links)] == ["a.html", "b.html", "c.html"]


def test_link_dup_compares_unresolvable_links_by_href() -> None:
    links = links_of("""<p><a href="javascript:one()">One</a><a href="javascript:two()">Two</a>
        <a href="javascript:one()">Uno</a></p>""")
    assert names(ph_link_dup(links)) == ["One", "Two"]


# --- Style -------------------------------------------------------------------

def test_style_keeps_the_largest_cluster_of_equal_presentation() -> None:
    links = links_of("""<table><tr>
        <td bgcolor="#eee"><font size="2"><a href="a.html">A</a></font></td>
        <td bgcolor="#eee"><font size="2"><a href="b.html">B</a></font></td>
        <td bgcolor="red"><font size="2"><a href="c.html">C</a></font></td>
        <td bgcolor="#eee"><font size="2"><a href="d.html">D</a></font></td>
        <td bgcolor="#eee"><font size="4"><a href="e.html">E</a></font></td>
        </tr></table>""")
    assert len({link.path for link in links}) == 1  # same path, different style
    assert names(ph_style(links)) == ["A", "B", "D"]


def test_style_compares_css_style_of_the_link_itself() -> None:
    links = links_of("""<p><a href="a.html" style="font-weight:bold">A</a>
        <a href="b.html">B</a><a href="c.html">C</a><a href="d.html" style="font-weight:bold">D</a>
        <a href="e.html">E</a></p>""")
    assert names(ph_style(links)) == ["B", "C", "E"]


def test_style_ignores_class_and_id() -> None:
    links = links_of("""<ul><li class="chapter" id="c1"><a href="a.html">A</a></li>
        <li class="part"><a href="b.html" class="x">B</a></li><li><a href="c.html">C</a></li></ul>""")
    assert names(ph_style(links)) == ["A", "B", "C"]


# --- DisDiff -----------------------------------------------------------------

NESTED_TOC = """<ul class="toc">
  <li><a href="a/index.html">A</a>
    <ul>""" + "".join(f'<li><a href="a/{i}.html">A{i}</a></li>' for i in range(1, 9)) + """</ul></li>
  <li><a href="b/index.html">B</a></li>
  <li><a href="c/index.html">C</a></li>
  <li><a href="d/index.html">D</a></li>
</ul>"""

REAL_GAP = """<ul><li><a href="a.html">A</a></li><li><a href="b.html">B</a></li>
  <li><a href="c.html">C</a></li><li><a href="d.html">D</a></li></ul>
<div>""" + "".join(f'<a href="x{i}.html">X{i}</a>' for i in range(6)) + """</div>
<ul><li><a href="e.html">E</a></li><li><a href="f.html">F</a></li><li><a href="g.html">G</a></li></ul>"""


def _top_level(links: list[LinkNode]) -> list[LinkNode]:
    depth = min(link.depth for link in links if link.path[-2] == "li")
    return [link for link in links if link.depth == depth and link.path[-2] == "li"]


def test_dis_diff_by_link_numbers_splits_a_nested_toc() -> None:
    # link numbers A=0, A1..A8=1..8, B=9, C=10, D=11: gaps 9, 1, 1; the largest gap
    # (9) exceeds mean 1 + 3 * max(stdev 0, 1) = 4 of the others: the paper's DisDiff
    # measured on raw numbers keeps only A
    top = _top_level(links_of(NESTED_TOC))
    assert names(top) == ["A", "B", "C", "D"]
    assert [link.number for link in top] == [0, 9, 10, 11]
    assert names(ph_dis_diff(top, 3.0)) == ["A"]


def test_dis_diff_with_shallow_positions_keeps_a_nested_toc_whole() -> None:
    links = links_of(NESTED_TOC)
    top = _top_level(links)
    positions = shallow_positions(links, top[0].depth)
    # the nested entries between A and B are deeper: they do not count
    assert [positions[link.number] for link in top] == [0, 1, 2, 3]
    assert names(ph_dis_diff(top, 3.0, [positions[link.number] for link in top])) == ["A", "B", "C", "D"]


def test_dis_diff_with_shallow_positions_splits_a_real_gap_and_keeps_the_first_part() -> None:
    links = links_of(REAL_GAP)
    group = [link for link in links if link.path[-2] == "li"]
    assert names(group) == ["A", "B", "C", "D", "E", "F", "G"]
    assert len({link.path for link in group}) == 1
    positions = shallow_positions(links, group[0].depth)
    # the six <div> links are shallower, so they count: gaps 1, 1, 1, 7, 1, 1
    assert [positions[link.number] for link in group] == [0, 1, 2, 3, 10, 11, 12]
    assert names(ph_dis_diff(group, 3.0, [positions[link.number] for link in group])) == ["A", "B", "C", "D"]


def test_prune_link_set_uses_the_positions_it_is_given() -> None:
    params = CandidateParams(min_nl=1, max_nl=100, max_num_word=4, disdiff_z=3.0, linkset_dup_jaccard=0.8)
    links = links_of(NESTED_TOC)
    top = _top_level(links)
    positions = shallow_positions(links, top[0].depth)
    assert names(prune_link_set(top, params, [], positions)) == ["A", "B", "C", "D"]
    assert names(prune_link_set(top, params, [], None)) == ["A"]  # link numbers


def test_gen_candidate_link_sets_keeps_nested_toc_levels_and_splits_real_gaps() -> None:
    params = CandidateParams(min_nl=1, max_nl=100, max_num_word=4, disdiff_z=3.0, linkset_dup_jaccard=0.8)
    toc = [names(c) for c in gen_candidate_link_sets(links_of(NESTED_TOC), params)]
    assert ["A", "B", "C", "D"] in toc
    assert [f"A{i}" for i in range(1, 9)] in toc
    gap = [names(c) for c in gen_candidate_link_sets(links_of(REAL_GAP), params)]
    # DisDiff splits the set; the part after the gap becomes a candidate of its own
    assert ["A", "B", "C", "D"] in gap and ["E", "F", "G"] in gap
    assert not any("A" in c and "E" in c for c in gap)


FORUM_ROWS = "".join(
    f'''<tr><td width="100%"><span><a href="t{i}.html">Topic {i}</a></span></td>
    <td align="center"><span><a href="u{i}.html">user{i}</a></span></td>
    <td align="center"><span><a href="u{i + 9}.html">poster{i}</a></span></td></tr>''' for i in range(4))


def test_style_passes_the_other_clusters_on() -> None:
    links = links_of(f"<table>{FORUM_ROWS}</table>")
    rest: list = []
    assert names(ph_style(links, rest)) == [n for i in range(4) for n in (f"user{i}", f"poster{i}")]
    assert [names(r) for r in rest] == [[f"Topic {i}" for i in range(4)]]


def test_anchor_passes_the_other_group_on() -> None:
    links = links_of("""<p><a href="a.html">A</a><a href="i1.html"><img alt="I1"></a>
        <a href="b.html">B</a><a href="i2.html"><img alt="I2"></a><a href="c.html">C</a></p>""")
    rest: list = []
    assert names(ph_anchor(links, rest)) == ["A", "B", "C"]
    assert [names(r) for r in rest] == [["I1", "I2"]]


def test_anchor_separates_page_numbers_from_titles() -> None:
    # a forum's topic cell: the title, then "Goto page: 2, 3" with the same path
    rows = "".join(f'<tr><td><span><a href="t{i}.html">Topic number {i} title</a> Goto page: '
                   f'<a href="t{i}-2.html">2</a>, <a href="t{i}-3.html">3</a></span></td></tr>' for i in range(2))
    rest: list = []
    assert names(ph_anchor(links_of(f"<table>{rows}</table>"), rest)) == ["2", "3", "2", "3"]
    assert [names(r) for r in rest] == [["Topic number 0 title", "Topic number 1 title"]]


def test_gen_candidate_link_sets_prunes_the_other_style_clusters_again() -> None:
    # the topic titles share their path with the author names, in cells of another
    # presentation: Style keeps the authors, and the titles are pruned as a set of their own
    params = CandidateParams(min_nl=1, max_nl=100, max_num_word=4, disdiff_z=3.0, linkset_dup_jaccard=0.8)
    found = [names(c) for c in gen_candidate_link_sets(links_of(f"<table>{FORUM_ROWS}</table>"), params)]
    assert [f"Topic {i}" for i in range(4)] in found
    assert [n for i in range(4) for n in (f"user{i}", f"poster{i}")] in found


def test_dis_diff_deviation_factor() -> None:
    links = [node(i) for i in range(6)]
    pos = [0, 1, 3, 4, 6, 16]  # gaps 1, 2, 1, 2, 10
    # others: mean 1.5, stdev 0.5 -> max(0.5, 1) = 1: limit 1.5 + z
    assert len(ph_dis_diff(links, 3.0, pos)) == 5    # 10 > 4.5: split before the last
    assert len(ph_dis_diff(links, 8.4, pos)) == 5    # 10 > 9.9
    assert len(ph_dis_diff(links, 8.5, pos)) == 6    # 10 == 10.0: not larger
    assert len(ph_dis_diff(links, float("inf"), pos)) == 6


def test_dis_diff_largest_gap_first_keeps_only_the_first_link() -> None:
    links = [node(i) for i in range(4)]
    assert names(ph_dis_diff(links, 3.0, [0, 20, 21, 22])) == ["L0"]


def test_dis_diff_minimum_gap() -> None:
    links = [node(i) for i in range(4)]
    # z = 0: limit is the mean of the other gaps (1); the gap must also reach DISDIFF_MIN_GAP
    small = DISDIFF_MIN_GAP - 1
    assert len(ph_dis_diff(links, 0.0, [0, 1, 2, 2 + small])) == 4
    assert len(ph_dis_diff(links, 0.0, [0, 1, 2, 2 + DISDIFF_MIN_GAP])) == 3


def test_dis_diff_defaults_to_link_numbers() -> None:
    links = [node(n) for n in (0, 1, 2, 30)]
    assert names(ph_dis_diff(links, 3.0)) == ["L0", "L1", "L2"]


def test_dis_diff_needs_three_links() -> None:
    links = [node(0), node(100)]
    assert ph_dis_diff(links, 0.0) == links


def test_dis_diff_even_gaps_do_not_split() -> None:
    links = [node(n) for n in range(0, 50, 5)]
    assert ph_dis_diff(links, 3.0) == links


# --- MaxNumWord --------------------------------------------------------------

def test_max_num_word_discards_at_the_threshold() -> None:
    four = [node(i, "one two three four") for i in range(4)]
    assert ph_max_num_word(four, 4) == []  # mean 4 >= 4


def test_max_num_word_keeps_below_the_threshold() -> None:
    links = [node(0, "a b c d"), node(1, "a b c d"), node(2, "a b c d"), node(3, "a b c")]
    assert ph_max_num_word(links, 4) == links  # mean 15 / 4 = 3.75
    assert ph_max_num_word(links, 3.75) == []


def test_max_num_word_counts_words_of_sec_names() -> None:
    links = links_of("""<p><a href="a.html">World <b>news</b></a><a href="b.html"><img alt="Sport results today"></a>
        <a href="c.html">UK</a></p>""")
    # words 2, 3, 1: mean 2
    assert ph_max_num_word(links, 2.01) == links
    assert ph_max_num_word(links, 2) == []


# --- LinkSetDup --------------------------------------------------------------

def _set(*letters: str) -> list[LinkNode]:
    return [node(i, url=f"http://example.org/{x}.html") for i, x in enumerate(letters)]


def _urls(*letters: str) -> set[str]:
    return {f"http://example.org/{x}.html" for x in letters}


def test_jaccard() -> None:
    assert jaccard(_urls("a", "b", "c", "d", "e"), _urls("a", "b", "c", "d")) == pytest.approx(0.8)
    assert jaccard(_urls("a", "b"), _urls("c")) == 0.0
    assert jaccard(set(), set()) == 1.0


def test_link_set_dup_discards_a_set_seen_on_an_ancestor() -> None:
    links = _set("a", "b", "c")
    assert ph_link_set_dup(links, [_urls("x", "y"), _urls("c", "b", "a")], 1.0) == []


def test_link_set_dup_jaccard_threshold() -> None:
    links = _set("a", "b", "c", "d", "e")
    known = [_urls("a", "b", "c", "d")]  # Jaccard 4/5 = 0.8
    assert ph_link_set_dup(links, known, 0.8) == []
    assert ph_link_set_dup(links, known, 0.81) == links
    # 3 shared of 6 in the union: 0.5
    assert ph_link_set_dup(links, [_urls("a", "b", "c", "x")], 0.5) == []
    assert ph_link_set_dup(links, [_urls("a", "b", "c", "x")], 0.51) == links


def test_link_set_dup_on_the_homepage_keeps_everything() -> None:
    links = _set("a", "b")
    assert ph_link_set_dup(links, [], 0.0) == links


def test_link_set_dup_ignores_links_without_urls() -> None:
    anchors = [node(i) for i in range(3)]  # no resolved URL
    assert ph_link_set_dup(anchors, [set()], 0.0) == anchors


# --- Index (beyond the paper) -------------------------------------------------

def test_index_drops_a_set_of_mostly_deep_links() -> None:
    links = links_of("""<dl><dt><a href="a.html#x">alpha</a></dt><dt><a href="b.html#y">beta</a></dt>
        <dt><a href="c.html">gamma</a></dt></dl>""")
    assert ph_index(links) == []


def test_index_drops_a_set_of_mostly_repeated_targets() -> None:
    # three of five links repeat a.html: 3/5 > INDEX_REDUNDANCY
    links = links_of("""<p><a href="a.html">alpha</a> <a href="a.html">alpha, see</a>
        <a href="a.html">alpha again</a> <a href="a.html">alpha, 2</a> <a href="b.html">beta</a></p>""")
    assert ph_index(links) == []


def test_index_keeps_a_table_of_contents() -> None:
    # one fragment link of four, no repeat: redundancy 1/4 <= INDEX_REDUNDANCY
    links = links_of("""<ul><li><a href="a.html">A</a></li><li><a href="b.html">B</a></li>
        <li><a href="c.html#part">C, part</a></li><li><a href="d.html">D</a></li></ul>""")
    assert INDEX_REDUNDANCY == 0.5
    assert names(ph_index(links)) == ["A", "B", "C, part", "D"]


def test_index_keeps_links_whose_fragment_names_their_page() -> None:
    # a blog theme links each post's title as /2025/deploy/#deploy: the top of the page
    links = links_of("""<div><h2><a href="/2025/deploy/#deploy">Deploy</a></h2><h2><a href="/2025/tune/#tune">Tune</a></h2>
        <h2><a href="/2025/scale.html#scale">Scale</a></h2><h2><a href="/2025/grow/index.html#grow">Grow</a></h2></div>""")
    assert names(ph_index(links)) == ["Deploy", "Tune", "Scale", "Grow"]
    # a fragment naming something else in the page is still a deep link
    deep = links_of("""<div><a href="/2025/deploy/#usage">Deploy</a><a href="/2025/tune/#tune-it">Tune</a>
        <a href="/2025/scale.html#scale">Scale</a></div>""")
    assert ph_index(deep) == []


def test_index_at_exactly_half_keeps_the_set() -> None:
    links = links_of('<p><a href="a.html#1">A</a><a href="b.html">B</a></p>')
    assert names(ph_index(links)) == ["A", "B"]


def test_index_runs_before_the_other_heuristics() -> None:
    # DeepLink alone would keep the two plain links of this index as a candidate
    body = "".join(f'<dt><a href="p{i}.html#t{i}">term {i}</a></dt>' for i in range(6))
    body += '<dt><a href="q1.html">q1</a></dt><dt><a href="q2.html">q2</a></dt>'
    links = links_of(f"<dl>{body}</dl>")
    params = CandidateParams(min_nl=1, max_nl=100, max_num_word=10, disdiff_z=float("inf"),
                             linkset_dup_jaccard=1.0)
    assert gen_candidate_link_sets(links, params) == []


# --- Date (beyond the paper) --------------------------------------------------

@pytest.mark.parametrize("name", ["September 2023", "2023-09-30", "Mar 2024 (4)", "2023", "März 2024",
                                  "31 December 1999", "juillet 2022", "12/2021"])
def test_date_names(name: str) -> None:
    assert is_date_name(name)


@pytest.mark.parametrize("name", ["Python 3.11", "Chapter 12", "Release 2021", "2.4", "1", "", "Travel",
                                  "2023_report", "10000", "2023 " * (MAX_DATE_NAME // 5 + 1)])
def test_not_date_names(name: str) -> None:
    assert not is_date_name(name)


def test_date_drops_a_monthly_archive() -> None:
    links = links_of("""<ul><li><a href="/2024/03/">March 2024</a></li><li><a href="/2024/02/">February 2024</a></li>
        <li><a href="/2024/01/">January 2024</a> (3)</li><li><a href="/2023/">Older</a></li></ul>""")
    assert ph_date(links) == []


def test_date_keeps_a_menu_with_few_dates() -> None:
    # 2 of 4 SecNames are dates: 2/4 is not more than DATE_SHARE
    links = links_of("""<ul><li><a href="a/">Travel</a></li><li><a href="b/">Food</a></li>
        <li><a href="c/">2023</a></li><li><a href="d/">May 2024</a></li></ul>""")
    assert DATE_SHARE == 0.5
    assert names(ph_date(links)) == ["Travel", "Food", "2023", "May 2024"]


def test_date_archive_is_no_candidate() -> None:
    body = """<nav><ul><li><a href="/travel/">Travel</a></li><li><a href="/food/">Food</a></li>
        <li><a href="/garden/">Garden</a></li></ul></nav>
        <aside><ul><li><a href="/2024/03/">March 2024</a></li><li><a href="/2024/02/">February 2024</a></li>
        <li><a href="/2024/01/">January 2024</a></li></ul></aside>"""
    sets = gen_candidate_link_sets(links_of(body), CandidateParams(1, 100, 17, 3.0, 0.8), [])
    assert [names(s) for s in sets] == [["Travel", "Food", "Garden"]]


# --- Buttons (beyond the paper) -----------------------------------------------

def test_buttons_drops_pseudo_links_beside_page_links() -> None:
    # a theme's colour toggle in its menu: javascript: is no entry of the menu
    links = links_of("""<ul><li><a href="/">Home</a></li><li><a href="/archives/">Archives</a></li>
        <li><a href="/about/">About</a></li><li><a href="javascript:;"><i class="icon"></i></a></li></ul>""")
    assert names(ph_buttons(links)) == ["Home", "Archives", "About"]
    # pseudo-links with words stay (prose, a footer's mailto: "Contact")
    mails = links_of('<p><a href="/a.html">A</a><a href="mailto:b@ex.com">B</a><a href="javascript:go()">Go</a></p>')
    assert names(ph_buttons(mails)) == ["A", "B", "Go"]


def test_a_menu_with_a_toggle_button_is_a_candidate() -> None:
    from skeleton.sew.candidates import CandidateParams, gen_candidate_link_sets
    from skeleton.sew.features import FEATURES, link_set_features
    links = links_of("""<nav><a href="/">Home</a><a href="/archives/">Archives</a><a href="/tags/">Tags</a>
        <a href="/about/">About</a><a href="javascript:;" aria-label="Colour"><i></i></a></nav>""")
    (menu,) = gen_candidate_link_sets(links, CandidateParams(1, 1000, 4.0, 3.0, 0.8))
    assert [link.sec_name for link in menu] == ["Home", "Archives", "Tags", "About"]
    assert link_set_features(menu, "http://ex.com/", "http://ex.com/")[FEATURES.index("VarURLNumDir")] < 1
