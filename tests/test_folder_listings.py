"""A page listed by a section in a folder that holds it hangs from it
(skeleton.hierarchy.folder_listings): unit cases on small listings, and a documentation
site whose sidebar prints the whole tree with unlinked group heads, crawled offline (with
and without the rule) and through the real spider and Redis, with an edge model that
prefers the home page (as one trained on other generators did)."""
from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import pytest
from helpers import crawl_written_site, root_loving_model

from skeleton.analysis.offline import find_skeleton, skeleton_edges
from skeleton.hierarchy import resolve as resolve_module
from skeleton.hierarchy.folder_listings import folder_listing_parents, folder_of
from skeleton.sew.model import load_model

H = "http://x/"
GROUPS = [f"{H}g{i}/overview.html" for i in range(3)]
PAGES = {g: [f"{H}g{i}/p{j}.html" for j in range(4)] for i, g in enumerate(GROUPS)}
LEAVES = [p for ps in PAGES.values() for p in ps]


def whole_tree(parent_of_leaves: str = H) -> tuple[dict, dict]:
    """(parents, listings): the home page's sidebar (a site menu) lists every page, each
    group page lists its own pages; the tree hangs the pages from ``parent_of_leaves``."""
    listings = {H: {"sidebar": {*GROUPS, *LEAVES}, "body": set(GROUPS)},
                **{g: {f"own-{g}": set(ps)} for g, ps in PAGES.items()}}
    parents = {g: H for g in GROUPS} | {p: parent_of_leaves for p in LEAVES}
    return parents, listings


def test_pages_of_a_whole_tree_sidebar_hang_from_their_group_page() -> None:
    parents, listings = whole_tree()
    moved = folder_listing_parents(H, parents, listings, menus={"sidebar"})
    assert moved == {p: g for g, ps in PAGES.items() for p in ps}


def test_a_page_hung_from_a_page_of_another_group_moves_to_its_own() -> None:
    parents, listings = whole_tree()
    parents[PAGES[GROUPS[1]][0]] = PAGES[GROUPS[0]][3]  # a nested list's host of another group
    moved = folder_listing_parents(H, parents, listings, menus={"sidebar"})
    assert moved[PAGES[GROUPS[1]][0]] == GROUPS[1]


def test_a_sub_group_page_hangs_from_the_group_page_that_lists_it() -> None:
    parents, listings = whole_tree()
    sub = f"{H}g0/s/overview.html"
    subpages = [f"{H}g0/s/q{j}.html" for j in range(3)]
    listings[GROUPS[0]][f"own-{GROUPS[0]}"].add(sub)
    listings[sub] = {"own-sub": set(subpages)}
    listings[H]["sidebar"] |= {sub, *subpages}
    parents |= {sub: H} | {q: H for q in subpages}
    moved = folder_listing_parents(H, parents, listings, menus={"sidebar"})
    assert moved[sub] == GROUPS[0]
    assert {moved[q] for q in subpages} == {sub}  # the deepest folder, not the group above


def test_without_a_folder_that_holds_the_page_a_listing_moves_nothing() -> None:
    # a "related pages" box of a page in another folder lists the pages: no move
    parents, listings = whole_tree()
    other = f"{H}elsewhere/related.html"
    listings = {H: listings[H], other: {"related": set(PAGES[GROUPS[0]])}}
    parents[other] = H
    assert folder_listing_parents(H, parents, listings, menus={"sidebar"}) == {}


def test_a_folder_no_deeper_than_the_one_shared_with_the_parent_moves_nothing() -> None:
    # the page's parent is its group page; a sibling in the same folder lists it too
    parents, listings = whole_tree(parent_of_leaves=GROUPS[0])
    parents = {**parents, **{p: g for g, ps in PAGES.items() for p in ps}}
    sibling = PAGES[GROUPS[0]][0]
    listings[sibling] = {"see-also": set(PAGES[GROUPS[0]][1:])}
    assert folder_listing_parents(H, parents, listings, menus={"sidebar"}) == {}


def test_a_listing_of_fewer_than_three_pages_moves_nothing() -> None:
    parents, listings = whole_tree()
    listings[GROUPS[0]] = {"pair": set(PAGES[GROUPS[0]][:2])}
    moved = folder_listing_parents(H, parents, listings, menus={"sidebar"})
    assert not set(moved) & set(PAGES[GROUPS[0]])


def test_a_parent_whose_listing_lies_inside_the_sections_keeps_its_pages() -> None:
    # posts in /blog/ under their category (the innermost listing); the blog index lists them all
    index = f"{H}blog/"
    cats = {f"{H}categories/{c}/": [f"{H}blog/{c}{i}/" for i in range(4)] for c in "ab"}
    posts = [p for ps in cats.values() for p in ps]
    listings = {index: {"all": set(posts)}, **{c: {f"own-{c}": set(ps)} for c, ps in cats.items()}}
    parents = {index: H} | {c: H for c in cats} | {p: c for c, ps in cats.items() for p in ps}
    assert folder_listing_parents(H, parents, listings) == {}


def test_a_story_beside_the_story_whose_box_lists_it_stays() -> None:
    # the newsroom lists every story; a story's "more news" box lists others of its folder
    room = f"{H}newsroom/"
    stories = [f"{H}newsroom/2024/s{i}.html" for i in range(6)]
    listings = {room: {"stories": set(stories)}, stories[0]: {"more": set(stories[1:5])}}
    parents = {room: H} | {s: room for s in stories}
    assert folder_listing_parents(H, parents, listings) == {}


def test_a_page_whose_own_evidence_names_its_parent_stays() -> None:
    parents, listings = whole_tree()
    declared = {PAGES[GROUPS[0]][0]}
    moved = folder_listing_parents(H, parents, listings, declared, menus={"sidebar"})
    assert PAGES[GROUPS[0]][0] not in moved and PAGES[GROUPS[0]][1] in moved


def test_a_section_below_the_page_never_becomes_its_parent() -> None:
    # the group page hangs from one of its pages (a wrong tree): that page does not move
    parents, listings = whole_tree()
    page = PAGES[GROUPS[0]][0]
    parents[GROUPS[0]] = page
    moved = folder_listing_parents(H, parents, listings, menus={"sidebar"})
    assert page not in moved


def test_the_folder_a_page_lies_in() -> None:
    assert folder_of("http://x/a/b/c.html") == ("x", "/a/b/")
    assert folder_of("http://x/a/b/") == ("x", "/a/")
    assert folder_of("http://X/a/b/index.html") == ("x", "/a/")
    assert folder_of("http://x/") == ("x", "/")


# --- a whole-tree sidebar site, crawled ---------------------------------------------------

LOCAL = "http://127.0.0.1:8000/"
WORDS = ["Harbour", "Meadow", "Granite", "Lantern", "Orchard", "Willow", "Copper", "Thistle"]


def sidebar_site() -> tuple[dict[str, str], dict]:
    """A manual of three groups, the first with a sub-group; every page prints the whole
    tree in its sidebar, each group's head a ``<summary>`` label (no page) and its
    ``overview.html`` one item of the group; an overview lists its group's pages in its
    body, the home page lists the groups' overviews. Returns (path -> HTML, truth on ``LOCAL``)."""
    tree: dict[str, list[str]] = {}  # overview path -> its children's paths
    titles: dict[str, str] = {"index.html": "The Manual"}
    tops = []
    for g, name in enumerate(WORDS[:3]):
        folder = name.lower()
        overview = f"{folder}/overview.html"
        tops.append(overview)
        titles[overview] = f"{name} overview"
        kids = [f"{folder}/{w.lower()}-{g}.html" for w in WORDS[3:7]]
        for k in kids:
            titles[k] = f"{k.split('/')[-1][:-5].title()} in {name}"
        if g == 0:
            sub = f"{folder}/deep/overview.html"
            titles[sub] = f"Deep {name} overview"
            # three pages: a listing of four would repeat the home page's copy of the
            # group (LinkSetDup, Jaccard 0.8) and be no set of the overview's own
            tree[sub] = [f"{folder}/deep/{w.lower()}.html" for w in WORDS[5:8]]
            for k in tree[sub]:
                titles[k] = f"Deep {k.split('/')[-1][:-5].title()}"
            kids = [sub, *kids]
        tree[overview] = kids

    def group(overview: str) -> str:
        label = titles[overview].removesuffix(" overview")
        items = [overview, *tree[overview]]
        # the group's page among its items, sub-groups first (as Starlight sorts them)
        items = [i for i in items if i in tree and i != overview] + [overview] + \
                [i for i in items if i not in tree]
        lis = "".join(group(i) if i in tree and i != overview else
                      f"<li><a href='/{i}'>{titles[i]}</a></li>" for i in items)
        return f"<li><details open><summary>{label}</summary><ul>{lis}</ul></details></li>"

    sidebar = ("<nav class='sidebar'><ul><li><a href='/index.html'>Home</a></li>"
               + "".join(group(t) for t in tops) + "</ul></nav>")

    def page(path: str, body: str) -> str:
        return (f"<!doctype html><html><head><title>{titles[path]}</title></head><body>"
                f"<header><a href='/index.html'>The Manual</a></header>{sidebar}"
                f"<main><h1>{titles[path]}</h1><p>Some words about {titles[path]}.</p>{body}</main>"
                f"<footer><p>Made with care.</p></footer></body></html>")

    def own_list(items: list[str]) -> str:
        return "<h2>In this section</h2><ul>" + "".join(
            f"<li><a href='/{i}'>{titles[i]}</a></li>" for i in items) + "</ul>"

    site = {"index.html": page("index.html", own_list(tops))}
    edges = [[LOCAL + "index.html", LOCAL + t] for t in tops]
    for overview, kids in tree.items():
        site[overview] = page(overview, own_list(kids))
        edges += [[LOCAL + overview, LOCAL + k] for k in kids]
        for k in kids:
            if k not in tree:
                site[k] = page(k, "<p>More words.</p>")
    return site, {"root": LOCAL + "index.html", "edges": edges}


def _offline_tree() -> tuple[dict[str, str], dict[str, str]]:
    site, truth = sidebar_site()

    def fetch(url: str) -> bytes | None:
        html = site.get(url.removeprefix(LOCAL) or "index.html")
        return html.encode() if html is not None else None

    pages = list(find_skeleton(LOCAL + "index.html", fetch, load_model(), scope=LOCAL))
    home = lambda u: u.removesuffix("index.html")  # noqa: E731
    tree = {c: p for p, c in skeleton_edges(pages, root_loving_model().to_dict())}
    return tree, {c: home(p) for p, c in truth["edges"]}


def test_the_crawled_sidebar_site_files_each_page_under_its_group_page() -> None:
    tree, truth = _offline_tree()
    assert tree == truth


def test_without_the_rule_a_sub_groups_pages_hang_from_the_home_page(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(resolve_module, "folder_listing_parents", lambda *args: {})
    tree, truth = _offline_tree()
    wrong = {c for c, p in truth.items() if tree.get(c) != p}
    # the sub-group's pages: the home page's sidebar lists them beside their overview
    assert wrong == {c for c, p in truth.items() if p == LOCAL + "harbour/deep/overview.html"}
    assert {tree[c] for c in wrong} == {LOCAL}


def test_the_sidebar_site_crawled_through_the_spider_and_redis(serve, tmp_path: Path) -> None:
    site, truth = sidebar_site()
    model = asdict(load_model()) | {"edges": root_loving_model().to_dict()}
    (tmp_path / "model.json").write_text(json.dumps(model))
    score = crawl_written_site(serve, tmp_path, site, truth, LOCAL, "-a", f"model={tmp_path / 'model.json'}")
    assert score["edges"]["all"]["f1"] == 1.0, json.dumps(score["edges"])


def test_a_section_listing_its_folder_wins_with_the_scores_bonuses_off(monkeypatch: pytest.MonkeyPatch) -> None:
    # the sites of tests/test_unlisted.py and tests/test_folder_confirmed.py, whose edge
    # score constants alone put the pages under their section: the rule does too
    from test_folder_confirmed import CRUMBED, SECTIONS, H as MANUAL, _site as manual
    from test_unlisted import TOPICS, H as SERVER, _site as server

    from skeleton.hierarchy import scoring

    monkeypatch.setattr(scoring, "UNLISTED", 0.0)
    monkeypatch.setattr(scoring, "FOLDER_CONFIRMED", 0.0)
    monkeypatch.setattr(resolve_module, "innermost_parents", lambda *args: {})
    def tree(root: str, site: dict) -> dict[str, str]:
        pages = list(find_skeleton(root, site.get, load_model()))
        return {c.removeprefix(root): p.removeprefix(root)
                for p, c in skeleton_edges(pages, root_loving_model().to_dict())}

    found = tree(SERVER, server())
    assert all(found[f"tribes/{topic}.html"] == "tribes/introduction.html" for topic in TOPICS)
    found = tree(MANUAL, manual())
    assert all(found[f"{section}/{name}/"] == ("" if f"{section}/{name}" == CRUMBED else f"{section}/")
               for section, names in SECTIONS.items() for name in names)
