"""The innermost section that lists a page is its parent (skeleton.hierarchy.innermost):
unit cases on small listings, and a blog whose menu shows its categories and whose
posts do not name theirs, crawled offline (with and without the rule) and through the
real spider and Redis."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import crawl_written_site

from skeleton.analysis.offline import find_skeleton, skeleton_edges
from skeleton.hierarchy import resolve as resolve_module, scoring
from skeleton.hierarchy.facts import PageFacts
from skeleton.hierarchy.innermost import declared_elsewhere, innermost_parents, site_menus
from skeleton.hierarchy.offers import repeated_sets, set_signature
from skeleton.sew.model import load_model

H = "http://x/"
CATS = [f"{H}cat/{c}/" for c in "abc"]
POSTS = {cat: [f"{H}post/{cat[-2]}{i}.html" for i in range(6)] for cat in CATS}
ALL_POSTS = [p for ps in POSTS.values() for p in ps]
MENU = {*CATS, H + "about/"}


def blog(menu_sig: str = "menu", posts_parent: str = H) -> tuple[dict, dict]:
    """(parents, listings) of a blog: home's menu offers the categories, home's list
    (all pages folded) offers every post, each category lists its posts; the tree hangs
    the posts from ``posts_parent``."""
    listings = {H: {menu_sig: set(MENU), "list": set(ALL_POSTS)}}
    for cat in CATS:
        listings[cat] = {f"own-{cat}": set(POSTS[cat])}
    parents = {cat: H for cat in CATS} | {H + "about/": H} | {p: posts_parent for p in ALL_POSTS}
    return parents, listings


def test_posts_hang_from_the_category_the_site_menu_shows() -> None:
    parents, listings = blog()
    moved = innermost_parents(H, parents, listings, menus={"menu"})
    assert moved == {p: cat for cat, ps in POSTS.items() for p in ps}


def test_without_a_site_menu_posts_stay_under_the_home_listing() -> None:
    # the categories are linked from the home page, but no other page repeats that set:
    # a post's category link on the home page's list, not a menu
    parents, listings = blog()
    assert innermost_parents(H, parents, listings, menus=set()) == {}


def test_a_post_whose_breadcrumb_names_its_parent_stays() -> None:
    parents, listings = blog()
    declared = {POSTS[CATS[0]][0]}
    moved = innermost_parents(H, parents, listings, declared, menus={"menu"})
    assert POSTS[CATS[0]][0] not in moved and len(moved) == len(ALL_POSTS) - 1


def test_an_archive_of_every_post_is_no_section() -> None:
    # the menu offers an archive listing every post beside two categories: it holds
    # all the home page's content, so posts go to their categories, never to it
    archive = H + "archive/"
    parents, listings = blog()
    listings[H]["menu"] = {archive, CATS[0], CATS[1], H + "about/"}
    listings[archive] = {"own-archive": set(ALL_POSTS)}
    parents[archive] = H
    moved = innermost_parents(H, parents, listings, menus={"menu"})
    assert moved == {p: cat for cat in CATS[:2] for p in POSTS[cat]}


def test_one_listing_alone_in_the_menu_is_no_section() -> None:
    parents, listings = blog()
    listings[H]["menu"] = {CATS[0], H + "about/"}
    assert innermost_parents(H, parents, listings, menus={"menu"}) == {}


def test_stories_in_a_repeated_box_are_no_sections() -> None:
    # a "most read" box on every page offers stories whose related lists hold
    # stories of their section: the section lists them beside the story itself
    section = H + "world/"
    stories = [f"{H}world/s{i}.html" for i in range(10)]
    listings = {H: {"box": {stories[0], stories[1]}, "menu": {section}},
                section: {"list": set(stories)},
                stories[0]: {"related": set(stories[2:6])},
                stories[1]: {"related": set(stories[5:9])}}
    parents = {section: H, **{s: section for s in stories}}
    assert innermost_parents(H, parents, listings, menus={"box", "menu"}) == {}


def test_sub_category_posts_hang_from_the_sub_category() -> None:
    # a category lists its own posts and its sub-category's; the sub-category is
    # linked only from an index of all categories, its URL folder is the category's
    parents, listings = blog()
    cat = CATS[0]
    sub = cat + "deep/"
    index = H + "cat/"
    listings[sub] = {"own-sub": set(POSTS[cat][:3])}
    listings[index] = {"own-index": {*CATS, sub}}
    parents.update({sub: index, index: H})
    moved = innermost_parents(H, parents, listings, menus={"menu"}, folders={sub: cat, cat: index})
    assert [moved[p] for p in POSTS[cat]] == [sub] * 3 + [cat] * 3
    assert moved[sub] == cat  # its folder's section holds its listing; the index does not


def test_a_page_of_a_menu_of_sections_stays_where_the_menu_files_it() -> None:
    # a "recent posts" box on every page offers posts whose own set repeats most of
    # the menu's pages: the pages of the menu of categories do not move under a post
    parents, listings = blog()
    extra = [f"{H}x{i}/" for i in range(5)]
    author = H + "authors/a/"
    listings[H]["menu"] |= set(extra)
    listings[H]["list"].add(author)
    parents.update({page: H for page in (*extra, author)})
    posts = ALL_POSTS[:2]
    listings[H]["recent"] = set(posts)
    copy = sorted(listings[H]["menu"])[2:]
    for post in posts:
        listings[post] = {f"copy-{post}": {*copy, author}}
    moved = innermost_parents(H, parents, listings, menus={"menu", "recent"})
    assert moved and set(moved.values()) <= set(CATS)


def test_a_whole_tree_sidebar_files_pages_under_their_group_page() -> None:
    # the home page's sidebar on every page: one set of the group pages, one of the
    # pages below them; each group page lists its own pages and two sub-groups that
    # the home page's sidebar does not show (a third of its listing)
    groups = [f"{H}g{i}/overview.html" for i in range(3)]
    pages = {g: [f"{H}g{i}/p{j}.html" for j in range(4)] for i, g in enumerate(groups)}
    subs = {g: {f"{H}g{i}/s{j}/overview.html" for j in range(2)} for i, g in enumerate(groups)}
    leaves = [p for ps in pages.values() for p in ps]
    listings = {H: {"groups": set(groups), "leaves": set(leaves)},
                **{g: {f"own-{g}": {*ps, *subs[g]}} for g, ps in pages.items()}}
    parents = {page: H for page in (*groups, *leaves)}
    moved = innermost_parents(H, parents, listings, menus={"groups", "leaves"})
    assert moved == {p: g for g, ps in pages.items() for p in ps}


def test_a_breadcrumb_that_repeats_the_url_folders_declares_nothing() -> None:
    folders = {f"{H}blog/a/": f"{H}blog/", f"{H}blog/b/": f"{H}blog/", f"{H}blog/c/": f"{H}blog/"}
    pages = {f"{H}blog/a/": PageFacts(True, (H, f"{H}blog/"), (), (), (), (), ()),
             f"{H}blog/b/": PageFacts(True, (H, f"{H}news/"), (), (), (), (), ()),
             f"{H}blog/c/": PageFacts(True, (), (), (f"{H}blog/",), (), (), ())}
    # a highlighted menu item is no declaration at all
    assert declared_elsewhere(pages, folders) == {f"{H}blog/b/"}


def test_site_menus_are_the_sets_most_pages_repeat() -> None:
    pages = {H: PageFacts(True, (), (), (), (), (), ())}
    for i in range(10):
        pages[f"{H}p{i}"] = PageFacts(True, (), (), (), (), (), (), menus=("menu",) + (("box",) if i < 4 else ()))
    assert site_menus(H, pages) == {"menu"}


def test_repeated_sets_are_the_context_sets_a_page_links() -> None:
    menu, listing = {H + "a", H + "b", H + "c"}, {H + "p1", H + "p2"}
    assert repeated_sets([menu, listing], [H + "a", H + "b", H + "c", H + "z"]) == [set_signature(menu)]
    assert repeated_sets([menu], [H + "a", H + "b"]) == []


# -- a blog crawled end to end ------------------------------------------------------------

N_CATS, PER_CAT, PER_PAGE = 5, 6, 7
TAGS = ["alpha", "beta", "gamma", "delta", "omega", "sigma", "kappa"]
NAMES = ["Harbour", "Meadow", "Granite", "Lantern", "Orchard"]
LOCAL = "http://127.0.0.1:8000/"


def _page(title: str, menu: str, body: str) -> str:
    return (f"<!doctype html><html><head><title>{title}</title></head><body>"
            f"<header><a href='/index.html'>The Blog</a><nav><ul>{menu}</ul></nav></header>"
            f"<main><h1>{title}</h1>{body}</main><footer><p>Written with care.</p></footer></body></html>")


def blog_site() -> tuple[dict[str, str], dict]:
    """A blog of ``N_CATS`` categories of ``PER_CAT`` posts, its menu showing the categories;
    the home page lists every post, ``PER_PAGE`` to a page; a post links its tags, never its
    category. Returns (path -> HTML, truth on ``LOCAL``)."""
    cats = [(f"cat/{n.lower()}/index.html", n) for n in NAMES[:N_CATS]]
    # in date order, the categories taking turns (no page of the home list is a category's list)
    posts = [(f"post/{cats[c][1].lower()}-{i}.html", f"{cats[c][1]} notes number {i}", c)
             for i in range(PER_CAT) for c in range(len(cats))]
    menu = "".join(f"<li><a href='/{u}'>{t}</a></li>" for u, t in [("about.html", "About"), *cats])
    site: dict[str, str] = {}
    order = posts[::-1]
    chunks = [order[i:i + PER_PAGE] for i in range(0, len(order), PER_PAGE)]
    for n, chunk in enumerate(chunks):
        newer = "" if n == 0 else "<a rel='prev' href='/index.html'>Newer posts</a>" if n == 1 else \
            f"<a rel='prev' href='/page/{n}/'>Newer posts</a>"
        older = f"<a rel='next' href='/page/{n + 2}/'>Older posts</a>" if n + 1 < len(chunks) else ""
        entries = "".join(f"<article><h2><a href='/{u}'>{t}</a></h2><p>Posted.</p></article>" for u, t, _ in chunk)
        site["index.html" if n == 0 else f"page/{n + 1}/index.html"] = _page(
            "The Blog", menu, f"{entries}<nav class='pagination'>{newer}{older}</nav>")
    for c, (url, name) in enumerate(cats):
        site[url] = _page(name, menu, "<ul>" + "".join(f"<li><a href='/{u}'>{t}</a></li>"
                                                       for u, t, k in posts if k == c) + "</ul>")
    tagged: dict[str, list[tuple[str, str]]] = {t: [] for t in TAGS}
    for i, (url, title, _) in enumerate(posts):
        tags = [TAGS[(i + k) % len(TAGS)] for k in range(3)]
        for t in tags:
            tagged[t].append((url, title))
        links = "".join(f"<li><a href='/tag/{t}.html'>{t}</a></li>" for t in tags)
        site[url] = _page(title, menu, f"<p>Some words about {title}.</p><ul class='tags'>{links}</ul>")
    for t, items in tagged.items():
        site[f"tag/{t}.html"] = _page(t, menu, "<ul>" + "".join(f"<li><a href='/{u}'>{x}</a></li>"
                                                               for u, x in items) + "</ul>")
    site["about.html"] = _page("About", menu, "<p>About this blog.</p>")
    edges = [[LOCAL + "index.html", LOCAL + u] for u, _ in [("about.html", ""), *cats]]
    edges += [[LOCAL + cats[c][0], LOCAL + u] for u, _, c in posts]
    return site, {"root": LOCAL + "index.html", "edges": edges}


def _offline_tree() -> dict[str, str]:
    site, _ = blog_site()

    def fetch(url: str) -> bytes | None:
        path = url.removeprefix(LOCAL)
        html = site.get(path + "index.html" if path.endswith("/") or not path else path)
        return html.encode() if html is not None else None

    pages = list(find_skeleton(LOCAL + "index.html", fetch, load_model(), scope=LOCAL))
    short = lambda u: u.removeprefix(LOCAL).removesuffix("index.html")  # noqa: E731
    return {short(child): short(parent) for parent, child in skeleton_edges(pages, load_model().edges)}


def test_the_crawled_blog_files_each_post_under_its_category() -> None:
    tree = _offline_tree()
    _, truth = blog_site()
    for parent, child in truth["edges"]:
        short = lambda u: u.removeprefix(LOCAL).removesuffix("index.html")  # noqa: E731
        assert tree.get(short(child)) == short(parent), child


def test_without_the_rule_posts_hang_from_the_home_list(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(resolve_module, "innermost_parents", lambda *args: {})
    tree = _offline_tree()
    assert sum(parent == "" for child, parent in tree.items() if child.startswith("post/")) >= N_CATS


def test_the_blog_crawled_through_the_spider_and_redis(serve, tmp_path: Path) -> None:
    site, truth = blog_site()
    score = crawl_written_site(serve, tmp_path, site, truth, LOCAL)
    assert score["edges"]["all"]["f1"] >= 0.95, json.dumps(score["edges"])


def test_a_manuals_menu_sections_hold_the_home_pages_index_of_every_page(monkeypatch: pytest.MonkeyPatch) -> None:
    # the home page lists every page; the menu's sections each list theirs (the site of
    # tests/test_folder_confirmed.py, whose pages do not name their section), with a model
    # that prefers the home page and without the folders' bonus
    from test_folder_confirmed import CRUMBED, SECTIONS, H as MANUAL, _site
    from helpers import root_loving_model

    monkeypatch.setattr(scoring, "FOLDER_CONFIRMED", 0.0)
    pages = list(find_skeleton(MANUAL, _site().get, load_model()))
    tree = {c.removeprefix(MANUAL): p.removeprefix(MANUAL)
            for p, c in skeleton_edges(pages, root_loving_model().to_dict())}
    for section, names in SECTIONS.items():
        for name in names:
            if f"{section}/{name}" != CRUMBED:  # its breadcrumb names the home page
                assert tree[f"{section}/{name}/"] == f"{section}/", (section, name)


def test_a_record_whose_menus_are_not_fingerprints_says_nothing() -> None:
    from skeleton.hierarchy.facts import page_facts

    assert page_facts(H, {"evidence": {"menus": "menu"}}).menus == ()
    assert page_facts(H, {"evidence": {"menus": [1, None, "menu"]}}).menus == ("menu",)
