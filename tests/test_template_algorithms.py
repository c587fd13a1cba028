"""Template detection: hDistance, dDistance, Algorithm 1 and Algorithm 2 over files."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers import FIXTURES
from lxml import etree

from skeleton.web.dom import parse_html
from skeleton.analysis.training import file_fetcher
from skeleton.template.hyperlinks import h_distance, hyperlink, link_less, link_rank
from skeleton.template.links import KeyLink, d_distance, page_links
from skeleton.template.menu import links_fetcher, menu_urls, template_menu
from skeleton.template.sortlinks import sort_links
from skeleton.template.subdigraph import (LOADS_PER_MEMBER, default_max_loads,
                                         find_complete_subdigraph, largest_clique_with)

SITE = FIXTURES / "templatesite"
BASE = "http://site.test/"


fetch = file_fetcher(SITE)


@pytest.mark.parametrize("other,expected", [
    ("research/maths/a.html", 0), ("research/maths/geometry/a.html", 1), ("research/", -1),
    ("research/physics/dynamics/x.html", -1), ("x.html", -2)])
def test_h_distance_paper_examples(other: str, expected: int) -> None:
    key = hyperlink("http://www.upv.es/research/maths/index.html")
    assert h_distance(key, hyperlink("http://www.upv.es/" + other)) == expected


def test_h_distance_other_domain_is_minus_the_whole_link() -> None:
    key = hyperlink("http://www.upv.es/research/maths/")
    assert key == ("www.upv.es", "research", "maths")
    assert h_distance(key, hyperlink("http://other.org/research/")) == -3
    assert hyperlink("not a url") == ()


def test_link_relevance_order() -> None:
    distances = [-2, 3, 0, -1, 1]
    assert sorted(distances, key=link_rank) == [0, 1, 3, -1, -2]
    assert link_less(0, 1) and link_less(1, 2) and link_less(-1, -2) and link_less(2, -1)
    assert not link_less(-1, 0) and not link_less(1, 1)


def test_d_distance() -> None:
    assert d_distance((0, 1, 2), (0, 1, 2)) == 0
    assert d_distance((0, 1, 2), (0, 1, 3)) == 2
    assert d_distance((0, 1, 2, 0), (0, 2)) == 4
    assert d_distance((), (0, 1)) == 2


def test_page_links_same_domain_no_self_no_repeats() -> None:
    html = ('<html><body><a href="index.html">me</a><a href="./">me too</a><a href="a.html">A</a>'
            '<div><a href="a.html">A again</a><a href="http://other.org/">x</a>'
            '<a href="mailto:x@y">m</a><a href="sub/">S</a></div></body></html>')
    links = page_links(parse_html(html), BASE + "index.html")
    assert [link.url for link in links] == [BASE + "a.html", BASE + "sub/"]
    assert links[0].path == (0, 0, 2) and links[1].path == (0, 0, 3, 3)
    assert page_links(None, BASE) == []


def test_algorithm_1_orders_by_link_then_dom_relevance() -> None:
    links = page_links(parse_html(fetch(BASE + "index.html")), BASE + "index.html")
    order = [link.url[len(BASE):] for link in sort_links(links, BASE + "index.html")]
    assert order == ["contact.html", "story.html", "privacy.html",
                     "news/", "products/", "about/"]


def test_dom_relevance_prefers_links_far_from_the_chosen_ones() -> None:
    links = [KeyLink(f"{BASE}{i}.html", f"{BASE}{i}.html", path, i)
             for i, path in enumerate([(0, 0, 0), (0, 0, 1), (0, 0, 2), (1, 0)])]
    assert [link.number for link in sort_links(links, BASE)] == [0, 3, 1, 2]


def test_algorithm_2_finds_the_3_cs_and_counts_loads() -> None:
    result = find_complete_subdigraph(BASE + "index.html", links_fetcher(fetch), 3)
    assert [u[len(BASE):] for u in result.pages] == ["contact.html", "privacy.html", "news/"]
    assert result.loaded == 4 and result.complete
    # Algorithm 1 puts story.html second, but contact.html does not link to it: it
    # could not join contact.html in a subdigraph, so the links contact.html points
    # to are loaded first
    assert result.order[:3] == [BASE + "contact.html", BASE + "story.html", BASE + "privacy.html"]
    assert result.visited == result.pages
    assert {u[len(BASE):] for u in menu_urls(result)} == {
        "", "news/", "products/", "about/", "contact.html", "privacy.html"}


def test_algorithm_2_n_1_loads_two_pages_and_big_n_gives_the_biggest_m() -> None:
    one = find_complete_subdigraph(BASE + "index.html", links_fetcher(fetch), 1)
    assert one.loaded == 2 and one.pages == [BASE + "contact.html"]
    big = find_complete_subdigraph(BASE + "index.html", links_fetcher(fetch), 10)
    assert big.loaded == 7 and not big.complete
    assert {u[len(BASE):] for u in big.pages} == {"contact.html", "privacy.html", "news/",
                                                  "products/", "about/"}


def test_algorithm_2_max_loads_and_bad_size() -> None:
    result = find_complete_subdigraph(BASE + "index.html", links_fetcher(fetch), 3, max_loads=3)
    assert result.loaded == 3 and [u[len(BASE):] for u in result.pages] == ["contact.html",
                                                                           "privacy.html"]
    assert default_max_loads(3) == LOADS_PER_MEMBER * 3 == 12
    with pytest.raises(ValueError):
        find_complete_subdigraph(BASE, links_fetcher(fetch), 0)


def test_algorithm_2_without_links_or_pages() -> None:
    empty = find_complete_subdigraph(BASE + "none.html", lambda url: None)
    assert empty.pages == [] and empty.loaded == 1 and template_menu(empty) == set()
    single = find_complete_subdigraph(BASE, lambda url: [BASE + "a.html"] if url == BASE else [])
    assert single.loaded == 2 and single.pages == [BASE + "a.html"]


def test_algorithm_2_on_10000_links_and_deep_nesting() -> None:
    many = "".join(f'<a href="p{i}.html">{i}</a>' for i in range(10_000))
    key = parse_html(f"<html><body>{many}</body></html>")
    links = page_links(key, BASE)
    assert len(links) == 10_000

    def fetch_links(url: str):
        return links if url == BASE else [BASE + "p0.html", BASE + "p1.html", BASE + "p2.html"]

    result = find_complete_subdigraph(BASE, fetch_links, 3)
    assert result.complete and result.loaded == 4
    assert isinstance(page_links(parse_html("<div>" * 5000 + '<a href="x">x</a>' + "</div>" * 5000),
                                 BASE), list)  # libxml2 stops nesting near 2 000 levels
    node = root = etree.Element("html")
    for _ in range(5000):
        node = etree.SubElement(node, "div")
    etree.SubElement(node, "a", href="x.html")
    etree.SubElement(root, "a", href="y.html")
    deep_links = page_links(root, BASE)
    assert len(deep_links[0].path) == 5002  # root, 5 000 divs, the link
    assert [link.url for link in sort_links(deep_links, BASE)] == [BASE + "x.html", BASE + "y.html"]


def test_largest_clique_with() -> None:
    adjacent = {"a": {"b", "c", "d"}, "b": {"a", "c"}, "c": {"a", "b"}, "d": {"a"}}
    order = {"a": 0, "b": 1, "c": 2, "d": 3}
    assert largest_clique_with("a", adjacent, order, 5) == ["a", "b", "c"]
    assert largest_clique_with("d", adjacent, order, 5) == ["d", "a"]
    assert largest_clique_with("a", adjacent, order, 2) == ["a", "b"]
    assert largest_clique_with("z", {}, {}, 3) == ["z"]


def test_fixture_site_files_exist() -> None:
    assert (SITE / "index.html").is_file() and isinstance(SITE, Path)


def _brute_dom_order(links: list[KeyLink]) -> list[KeyLink]:
    """Algorithm 1's inner loop as written: the farthest from the links taken (ties: document order)."""
    left, out = list(links), []
    while left:
        best = max(left, key=lambda n: (min((d_distance(c.path, n.path) for c in out), default=0),
                                        -n.number))
        out.append(best)
        left.remove(best)
    return out


def test_dom_order_below_a_deep_shared_prefix_is_exact_and_fast() -> None:
    import random
    import time

    rng = random.Random(5)
    prefix = tuple([0] * 5000)
    small = [KeyLink(f"{BASE}{i}.html", f"{BASE}{i}.html",
                     prefix + tuple(rng.randrange(3) for _ in range(rng.randrange(1, 5))) + (i,), i)
             for i in range(40)]
    assert sort_links(small, BASE) == _brute_dom_order(small)
    many = [KeyLink(f"{BASE}p{i}.html", f"{BASE}p{i}.html", prefix + (i, 0), i) for i in range(10_000)]
    started = time.monotonic()
    order = sort_links(many, BASE)
    assert time.monotonic() - started < 20  # the whole 5 000-step paths walked: about a minute
    assert [link.number for link in order[:3]] == [0, 1, 2] and len(order) == 10_000
