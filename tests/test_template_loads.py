"""Template detection in few page loads (Algorithm 2 with the evidence order and
the load budget of ``skeleton.template.subdigraph``), on generated sites."""
from __future__ import annotations

import itertools
import random

import pytest

from skeleton.web.dom import parse_html
from skeleton.template.links import KeyLink, page_links
from skeleton.template.subdigraph import (DEFAULT_SIZE, LOADS_PER_MEMBER, CSSearch,
                                          find_complete_subdigraph)

BASE = "http://flat.test/"
MENU = ["about.html", "contact.html", "help.html", "news.html"]
ENTRIES = 500


def flat_site(menu_at: str, entries_link_menu: bool = True):  # type: ignore[no-untyped-def]
    """``fetch_links`` of a generated site: ``index.html`` lists ``ENTRIES`` pages
    of its own folder; every page has the menu (the index and ``MENU``) in its
    header or footer, and each entry links to its previous and next entry. Without
    ``entries_link_menu`` the entries have no menu and link only to the index."""
    loads: list[str] = []

    def html(name: str) -> str | None:
        if name == "index.html":
            main = "<ul>" + "".join(f'<li><a href="p{i}.html">entry {i}</a></li>'
                                    for i in range(ENTRIES)) + "</ul>"
        elif name in MENU:
            main = "<p>a page of the menu</p>"
        elif name.startswith("p") and name[1:-5].isdigit() and int(name[1:-5]) < ENTRIES:
            i = int(name[1:-5])
            if not entries_link_menu:
                return '<html><body><p>entry</p><a href="index.html">back</a></body></html>'
            main = "<p>entry</p>" + "".join(f'<a href="p{j}.html">{j}</a>' for j in (i - 1, i + 1)
                                            if 0 <= j < ENTRIES)
        else:
            return None
        menu = "<div>" + "".join(f'<a href="{m}">{m}</a>' for m in ["index.html", *MENU]) + "</div>"
        parts = [menu, f"<div>{main}</div>"] if menu_at == "header" else [f"<div>{main}</div>", menu]
        return "<html><body>" + "".join(parts) + "</body></html>"

    def fetch_links(url: str) -> list[KeyLink] | None:
        loads.append(url)
        body = html(url[len(BASE):] or "index.html")
        return None if body is None else page_links(parse_html(body), url)

    return fetch_links, loads


@pytest.mark.parametrize("menu_at", ["header", "footer"])
def test_flat_index_of_500_links_needs_at_most_12_loads_and_finds_the_menu_pages(menu_at: str) -> None:
    fetch_links, loads = flat_site(menu_at)
    result = find_complete_subdigraph(BASE + "index.html", fetch_links, 3)
    assert len(result.order) == ENTRIES + len(MENU)  # one folder: one tier of Algorithm 1
    assert result.complete and result.loaded == len(loads) <= 12
    assert {u[len(BASE):] for u in result.pages} <= set(MENU)
    # Algorithm 1 alone spreads the loads over the index entries (DOM relevance: far
    # from the links already taken) and reaches the third menu page late
    third = sorted(result.order.index(BASE + m) for m in MENU)[2]
    assert third >= 12


def test_flat_index_without_a_subdigraph_stops_at_the_budget() -> None:
    pages = {"": [f"p{i}.html" for i in range(ENTRIES)]}  # entries link only to the index

    def fetch_links(url: str) -> list[str]:
        return [BASE + p for p in pages.get(url[len(BASE):], [""])]

    result = find_complete_subdigraph(BASE, fetch_links, 3)
    assert result.loaded == LOADS_PER_MEMBER * 3 == 12
    assert result.pages == [BASE + "p0.html"] and not result.complete  # the biggest m-CS, m = 1
    # without the budget, Algorithm 2 loads every link of the key page for the same answer
    unbounded = find_complete_subdigraph(BASE, fetch_links, 3, max_loads=10_000)
    assert unbounded.loaded == ENTRIES + 1 and unbounded.pages == result.pages


def test_links_that_could_complete_a_subdigraph_are_loaded_first() -> None:
    # a links to b, c, d; b to a and d; d to a and b: {a, b} is mutual and both
    # link to d, only a links to c, so d (evidence 2) goes before c (evidence 1)
    # although Algorithm 1 puts c first (plain URLs: document order)
    pages = {"a": ["b", "c", "d"], "b": ["a", "d"], "c": ["a"], "d": ["a", "b"], "e": []}
    search = CSSearch(BASE, [BASE + p for p in "abcde"], 3)
    assert search.result.order == [BASE + p for p in "abcde"]
    while (url := search.next_url()) is not None:
        search.add([BASE + p for p in pages[url[len(BASE):]]])
    assert search.result.visited == [BASE + p for p in "abd"]
    assert search.result.pages == [BASE + p for p in "abd"] and search.result.loaded == 4


def _brute_largest(mutual: dict[str, set[str]], nodes: list[str], n: int) -> int:
    best = 1 if nodes else 0
    for size in range(2, n + 1):
        if any(all(b in mutual[a] for a, b in itertools.combinations(group, 2))
               for group in itertools.combinations(nodes, size)):
            best = size
    return best


@pytest.mark.parametrize("seed", range(40))
def test_random_sites_give_a_complete_subdigraph_as_big_as_there_is(seed: int) -> None:
    rng = random.Random(seed)
    count, n = rng.randrange(1, 13), rng.choice([2, 3, 4])
    nodes = [f"p{i}.html" for i in range(count)]
    density = rng.choice([0.2, 0.5, 0.8])
    out = {a: [b for b in nodes if b != a and rng.random() < density] for a in nodes}
    mutual = {a: {b for b in out[a] if a in out[b]} for a in nodes}

    def fetch_links(url: str) -> list[str]:
        name = url[len(BASE):]
        return [BASE + p for p in (nodes if name == "" else out[name])]

    unbounded = find_complete_subdigraph(BASE, fetch_links, n, max_loads=10_000)
    assert len(unbounded.pages) == _brute_largest(mutual, nodes, n)
    bounded = find_complete_subdigraph(BASE, fetch_links, n)
    assert bounded.loaded <= LOADS_PER_MEMBER * n
    for result in (unbounded, bounded):
        members = [u[len(BASE):] for u in result.pages]
        assert all(b in mutual[a] for a, b in itertools.combinations(members, 2))
        assert result.visited[:len(set(result.visited))] == result.visited  # each page once
        assert result.loaded == len(result.visited) + 1


def test_default_size_budget() -> None:
    assert CSSearch(BASE, [], DEFAULT_SIZE).max_loads == 12
    assert CSSearch(BASE, [], 1).max_loads == LOADS_PER_MEMBER
    assert CSSearch(BASE, [], 3, max_loads=30).max_loads == 30
