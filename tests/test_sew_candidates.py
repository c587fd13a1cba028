"""GENCANLINKSETS (SEW Section 3.2.2, Figure 2): skeleton.sew.candidates."""
from __future__ import annotations

import math

from skeleton.sew.candidates import (CandidateParams, gen_candidate_link_sets, group_by_level_and_path,
                                     shallow_positions)
from skeleton.web.dom import parse_html
from skeleton.sew.links import LinkNode, extract_links

PAGE = "http://example.org/index.html"


def links_of(body: str) -> list[LinkNode]:
    return extract_links(parse_html(f"<html><body>{body}</body></html>".encode()), PAGE)


def names(groups) -> list[list[str]]:
    return [[link.sec_name for link in group] for group in groups]


def loose(min_nl: int = 1, max_nl: int = 1000) -> CandidateParams:
    """Parameters under which no heuristic prunes the plain lists used here."""
    return CandidateParams(min_nl=min_nl, max_nl=max_nl, max_num_word=math.inf,
                           disdiff_z=math.inf, linkset_dup_jaccard=1.0)


PAGE_BODY = """
<a href="solo.html">Solo</a>
<p><a href="p1.html">P1</a><a href="p2.html">P2</a></p>
<ul><li><a href="u1.html">U1</a></li><li><a href="u2.html">U2</a></li><li><a href="u3.html">U3</a></li></ul>
<div><p><a href="d1.html">D1</a></p><p><a href="d2.html">D2</a></p></div>
<div><a href="v1.html">V1</a></div>
<ul><li><a href="u4.html">U4</a></li></ul>
"""


def test_links_are_grouped_by_depth_then_by_path() -> None:
    links = links_of(PAGE_BODY)
    assert [(link.sec_name, link.depth) for link in links] == [
        ("Solo", 3), ("P1", 4), ("P2", 4), ("U1", 5), ("U2", 5), ("U3", 5),
        ("D1", 5), ("D2", 5), ("V1", 4), ("U4", 5)]
    # the first remaining link is P1 (Solo is alone at depth 3): depth 4 comes first,
    # split into its paths body/p/a and body/div/a; then depth 5 (first link U1),
    # split into body/ul/li/a and body/div/p/a; U4 has U1's path but is in another
    # <ul> (split_by_list, beyond the paper), of the same element and URL folder: the
    # two lists are one listing cut in two, joined again
    assert names(group_by_level_and_path(links)) == [
        ["P1", "P2"], ["V1"], ["U1", "U2", "U3", "U4"], ["D1", "D2"]]
    # in another folder, U4 is a group of its own
    other = links_of(PAGE_BODY.replace('href="u4.html"', 'href="other/u4.html"'))
    assert names(group_by_level_and_path(other)) == [
        ["P1", "P2"], ["V1"], ["U1", "U2", "U3"], ["U4"], ["D1", "D2"]]


def test_every_group_has_one_depth_and_one_path() -> None:
    for group in group_by_level_and_path(links_of(PAGE_BODY)):
        assert len({link.depth for link in group}) == 1
        assert len({link.path for link in group}) == 1
        assert [link.number for link in group] == sorted(link.number for link in group)


def test_a_link_alone_at_its_depth_is_dropped() -> None:
    links = links_of("""<a href="a.html">Alone at depth 3</a>
        <div><p><span><a href="b.html">Alone at depth 6</a></span></p></div>
        <ul><li><a href="c.html">C</a></li><li><a href="d.html">D</a></li></ul>""")
    assert names(group_by_level_and_path(links)) == [["C", "D"]]


def test_a_link_alone_on_its_path_is_kept_when_its_depth_has_others() -> None:
    links = links_of("""<p><a href="a.html">A</a></p><div><a href="b.html">B</a></div>""")
    assert names(group_by_level_and_path(links)) == [["A"], ["B"]]
    # ... but a set of one never passes MinNL >= 1
    assert gen_candidate_link_sets(links, loose(min_nl=1)) == []
    assert names(gen_candidate_link_sets(links, loose(min_nl=0))) == [["A"], ["B"]]


def test_no_links_no_groups() -> None:
    assert list(group_by_level_and_path([])) == []
    assert gen_candidate_link_sets([], loose()) == []


def _lists(*sizes: int) -> str:
    html, k = [], 0
    for size in sizes:
        items = "".join(f'<li><a href="l{k + i}.html">L{k + i}</a></li>' for i in range(size))
        html.append(f'<div class="box">{"<div>" * len(html)}<ul>{items}</ul>{"</div>" * len(html)}</div>')
        k += size
    return "".join(html)


def test_min_nl_and_max_nl_are_strict_bounds() -> None:
    # three lists of 2, 3 and 4 links, each at its own depth
    links = links_of(_lists(2, 3, 4))
    assert [len(g) for g in group_by_level_and_path(links)] == [2, 3, 4]
    sizes = lambda params: [len(c) for c in gen_candidate_link_sets(links, params)]  # noqa: E731
    assert sizes(loose(min_nl=2, max_nl=4)) == [3]          # 2 < size < 4
    assert sizes(loose(min_nl=1, max_nl=5)) == [2, 3, 4]
    assert sizes(loose(min_nl=2, max_nl=5)) == [3, 4]
    assert sizes(loose(min_nl=1, max_nl=4)) == [2, 3]
    assert sizes(loose(min_nl=3, max_nl=4)) == []


def test_the_window_applies_to_the_pruned_set() -> None:
    # four links, one a duplicate of another's URL: LinkDup leaves three
    links = links_of("""<ul><li><a href="a.html">A</a></li><li><a href="b.html">B</a></li>
        <li><a href="c.html">C</a></li><li><a href="a.html">Again</a></li></ul>""")
    assert names(gen_candidate_link_sets(links, loose(min_nl=2, max_nl=4))) == [["A", "B", "C"]]


def test_heuristics_run_inside_gen_candidate_link_sets() -> None:
    links = links_of("""<ul><li><a href="a.html">Alpha beta gamma delta</a></li>
        <li><a href="b.html">Epsilon zeta eta theta</a></li></ul>
        <p><a href="c.html">C</a><a href="d.html">D</a><a href="e.html">E</a></p>""")
    params = CandidateParams(min_nl=1, max_nl=100, max_num_word=4, disdiff_z=3.0, linkset_dup_jaccard=0.8)
    # the four-word list is discarded by MaxNumWord
    assert names(gen_candidate_link_sets(links, params)) == [["C", "D", "E"]]
    # LinkSetDup with a known ancestor set
    known = [{"http://example.org/c.html", "http://example.org/d.html", "http://example.org/e.html"}]
    assert gen_candidate_link_sets(links, params, known) == []


def test_shallow_positions_count_links_at_or_above_the_depth() -> None:
    links = links_of("""<a href="top.html">T</a>
        <ul><li><a href="a.html">A</a><ul><li><a href="a1.html">A1</a></li><li><a href="a2.html">A2</a></li></ul></li>
        <li><a href="b.html">B</a></li></ul>""")
    assert [(link.sec_name, link.depth) for link in links] == [("T", 3), ("A", 5), ("A1", 7), ("A2", 7), ("B", 5)]
    assert shallow_positions(links, 5) == [0, 1, 2, 2, 2]
    assert shallow_positions(links, 7) == [0, 1, 2, 3, 4]
    assert shallow_positions(links, 3) == [0, 1, 1, 1, 1]


def _groups(html: bytes) -> list[list[str]]:
    from skeleton.sew.candidates import group_by_level_and_path
    from skeleton.web.dom import parse_html
    from skeleton.sew.links import extract_links

    links = extract_links(parse_html(html), "http://h/")
    return [[link.sec_name for link in g] for g in group_by_level_and_path(links)]


def test_separate_lists_of_one_path_are_separate_groups() -> None:
    """A sidebar's widgets (same depth, same tag path) are judged one by one."""
    page = (b"<aside><section><h2>Recent</h2><ul><li><a href='p1'>Post one</a></li>"
            b"<li><a href='p2'>Post two</a></li></ul></section>"
            b"<section><h2>Categories</h2><ul><li><a href='c1'>Travel</a></li>"
            b"<li><a href='c2'>Food</a></li></ul></section></aside>")
    assert _groups(page) == [["Post one", "Post two"], ["Travel", "Food"]]


def test_sub_lists_of_a_table_of_contents_stay_together() -> None:
    """DocBook nests a part's chapters in a dl inside the part's dd: one group per level."""
    page = (b"<dl><dt><a href='p1'>Part I</a></dt><dd><dl><dt><a href='c1'>Chapter 1</a></dt>"
            b"<dt><a href='c2'>Chapter 2</a></dt></dl></dd><dt><a href='p2'>Part II</a></dt>"
            b"<dd><dl><dt><a href='c3'>Chapter 3</a></dt></dl></dd></dl>")
    assert _groups(page) == [["Part I", "Part II"], ["Chapter 1", "Chapter 2", "Chapter 3"]]


def test_an_index_is_not_split_so_the_index_heuristic_drops_it_whole() -> None:
    letters = b"".join(b"<h2>%s</h2><ul><li><a href='a.html#%s1'>%s one</a></li>"
                       b"<li><a href='b.html'>%s two</a></li></ul>" % (c, c, c, c) for c in (b"A", b"B", b"C"))
    groups = _groups(b"<div>" + letters + b"</div>")
    assert len(groups) == 1 and len(groups[0]) == 6


def test_a_listing_cut_by_headings_is_one_group() -> None:
    """A chronology lists its pages under a heading per year, one <ul> each: one listing.
    A sidebar's categories and tags, one <ul> each in one element, stay apart: their
    links lie in two folders."""
    years = b"".join(b"<h2>%d</h2><ul><li><a href='/chronology/%d-a.html'>%d: A</a></li></ul>" % (y, y, y)
                     for y in (1990, 1992, 1993))
    assert _groups(b"<div id='content'>" + years + b"</div>") == [["1990: A", "1992: A", "1993: A"]]
    sidebar = (b"<aside><h3>Categories</h3><ul><li><a href='/category/a/'>A</a></li><li><a href='/category/b/'>B</a>"
               b"</li></ul><h3>Tags</h3><ul><li><a href='/tag/x/'>X</a></li><li><a href='/tag/y/'>Y</a></li></ul></aside>")
    assert _groups(sidebar) == [["A", "B"], ["X", "Y"]]


def test_a_group_of_one_link_joins_its_neighbour_box_of_one_folder() -> None:
    """A side menu in boxes, a heading and a list each (a manual's "Executors" or
    "web.xml" group holds one page): a box of one link, in its neighbour's folder
    and beside it (the same element around both boxes), joins that neighbour, so
    the page is offered with its menu (SEW's sets have at least MinNL links). Boxes
    of two links or more stay apart, as do a box of another folder and a box
    elsewhere on the page."""
    box = "<div><h2>{}</h2><ul>{}</ul></div>"
    item = "<li><a href='/config/{0}.html'>{0}</a></li>"
    menu = "".join(box.format(title, "".join(item.format(n) for n in pages)) for title, pages in (
        ("Top", ("server", "service")), ("Executors", ("executor",)), ("Connectors", ("http", "ajp")),
        ("web.xml", ("filter",))))
    assert _groups(f"<div id='menu'>{menu}</div>".encode()) == [
        ["server", "service", "executor"], ["http", "ajp", "filter"]]
    other = menu.replace("/config/executor.html", "/api/executor.html")
    assert _groups(f"<div id='menu'>{other}</div>".encode()) == [
        ["server", "service"], ["executor"], ["http", "ajp", "filter"]]
    apart = (f"<div id='menu'>{box.format('Top', item.format('server') + item.format('service'))}</div>"
             f"<div id='foot'>{box.format('More', item.format('executor'))}</div>")
    assert _groups(apart.encode()) == [["server", "service"], ["executor"]]
