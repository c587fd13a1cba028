"""Pagination folded into its listing, views left out of the tree, and a parent
the child names considered even when its link is in no navigation set."""
from __future__ import annotations

from skeleton.hierarchy.evidence import page_evidence, pager_links
from skeleton.hierarchy.features import FEATURES, candidate_edges
from skeleton.hierarchy.pagination import (fold_listings, is_pager_link, is_pager_text, listing_heads,
                                           same_listing)
from skeleton.hierarchy.resolve import resolve_tree
from skeleton.hierarchy.views import view_pages
from skeleton.sew.model import load_model
from skeleton.web.dom import parse_html

B = "http://s.test/"


def page(body: str):
    return parse_html(f"<html><body>{body}</body></html>".encode())


# --- pager links -------------------------------------------------------------------

def test_pager_text_numbers_arrows_and_words_in_several_languages():
    for text in ("2", " 12 ", "»", "&raquo;".replace("&raquo;", "»"), "\u27e9", "Next »", "Older posts",
                 "Suivant", "weiter", "Página siguiente", "次へ"):
        assert is_pager_text(text), text
    for text in ("", "2023", "Python", "Read the whole article", "A checklist for C extensions"):
        assert not is_pager_text(text), text


def test_same_listing_when_urls_differ_only_in_a_page_number():
    assert same_listing(B + "category/python.html", B + "category/python2.html")
    assert same_listing(B + "index.html", B + "index14.html")
    assert same_listing(B + "blog/", B + "blog/page/2/")
    assert same_listing(B + "blog/page/2/", B + "blog/page/3/")
    assert same_listing(B + "list?sort=a", B + "list?sort=a&page=3")
    assert not same_listing(B + "list?sort=a", B + "list?sort=b&page=3")
    assert not same_listing(B + "category/python.html", B + "category/devops2.html")
    assert not same_listing(B + "blog/", B + "blog/")
    # a year is not a page number: archives of two years are two listings, each paginated
    assert not same_listing(B + "blog/archive/2024/", B + "blog/archive/2025/")
    assert same_listing(B + "blog/archive/2024/", B + "blog/archive/2024/page/2/")
    assert same_listing(B + "blog/archive/2024/page/2/", B + "blog/archive/2024/page/3/")


def test_a_pager_word_joined_to_the_number_is_a_page_of_the_listing():
    # jekyll-paginate's /page2/, and other "word + number" last segments
    assert same_listing(B, B + "page2/")
    assert same_listing(B + "page2/", B + "page3/")
    assert same_listing(B + "blog/", B + "blog/page-3.html")
    assert same_listing(B + "news/", B + "news/seite_4/")
    assert is_pager_link(B, B + "page2/", "Older posts")
    # Nikola's index-7.html and the corpus rule's index2.html: an index with a number
    assert is_pager_link(B, B + "index-7.html", "Older posts", ["next"])
    assert is_pager_link(B + "blog/index.html", B + "blog/index2.html", "Next")
    # a word that is no pager word joined to a number is another page
    assert not same_listing(B + "a/", B + "a/top2/")
    # a bare "p" with a number names an item as often as a page
    assert not is_pager_link(B + "p1.html", B + "p2.html", "Page 2")
    assert not is_pager_link(B + "docs/", B + "docs/part2/", "Next")


def test_a_pager_url_with_its_word_needs_no_pager_text():
    # "Weitere Artikel" ("more articles") is no pager word; /updates/page/2 names its page
    assert is_pager_link(B + "updates/", B + "updates/page/2", "Weitere Artikel")
    assert is_pager_link(B + "updates/page/2/", B + "updates/page/3", "Weitere Artikel")
    assert is_pager_link(B + "list", B + "list?page=2", "Show more")
    # without the word, the text must say it: an item numbered like a page is no pager
    assert not is_pager_link(B + "news/", B + "news/2", "Storm hits the coast")
    assert not is_pager_link(B + "updates/", B + "other/page/2", "Weitere Artikel")


def test_document_order_next_is_not_a_pager():
    # a manual's "Next" between numbered chapters: same stem, but words, not a page number
    assert not is_pager_link(B + "release-15-1.html", B + "release-15-2.html", "Next")
    assert not is_pager_link(B + "release-15-1.html", B + "release-15-2.html", "", ["next"])
    # pagers: a number or arrows, or a word with a URL that carries a page number
    assert is_pager_link(B + "category/python.html", B + "category/python2.html", "\u27e9")
    assert is_pager_link(B + "blog/", B + "blog/page/2/", "Older posts")
    assert is_pager_link(B + "news?page=2", B + "news?page=3", "", ["next"])
    assert not is_pager_link(B + "blog/", B + "about/", "2")


def test_pager_links_read_from_a_page():
    root = page('<nav><a href="/a.html">A</a><a href="/category/python.html">\u27ea</a>'
                '<a href="/category/python3.html">3</a><a href="/category/python3.html" rel="next">Next</a>'
                '<a href="/category/devops.html">2</a></nav><link rel="prev" href="/category/python.html">')
    assert pager_links(root, B + "category/python2.html") == [B + "category/python.html",
                                                              B + "category/python3.html"]
    assert page_evidence(root, B + "category/python2.html")["pager"] == pager_links(root, B + "category/python2.html")
    assert pager_links(None, B) == []


# --- listing heads and folding -------------------------------------------------------

def record(pager=(), **evidence):
    return {"evidence": {"pager": list(pager), **evidence}, "nav_links": []}


def test_listing_heads_fold_later_pages_into_the_first():
    pages = {B: record(),
             B + "cat.html": record([B + "cat2.html"]),
             B + "cat2.html": record([B + "cat.html", B + "cat3.html"]),
             B + "cat3.html": record([B + "cat2.html"]),
             B + "index2.html": record([B]),
             # chapters with no page-number-free member: not a listing
             B + "ch01.html": record([B + "ch02.html"]),
             B + "ch02.html": record([B + "ch01.html"])}
    heads = listing_heads(B, pages)
    assert heads == {B + "cat2.html": B + "cat.html", B + "cat3.html": B + "cat.html", B + "index2.html": B}


def test_fold_listings_moves_offers_to_the_head_and_drops_later_pages():
    pages = {B: record(), B + "cat.html": record([B + "cat2.html"]), B + "cat2.html": record([B + "cat.html"]),
             B + "post.html": record()}
    offers = {B + "post.html": [{"from": B + "cat2.html", "parent": B + "cat2.html", "size": 5}],
              B + "cat2.html": [{"from": B + "cat.html", "parent": B + "cat.html", "size": 2}],
              B + "cat.html": [{"from": B, "parent": B, "size": 3}]}
    folded_pages, folded_offers, heads = fold_listings(B, pages, offers)
    assert heads == {B + "cat2.html": B + "cat.html"}
    assert B + "cat2.html" not in folded_pages and B + "cat2.html" not in folded_offers
    assert folded_offers[B + "post.html"][0]["from"] == B + "cat.html"
    assert folded_offers[B + "post.html"][0]["parent"] == B + "cat.html"


# --- views -----------------------------------------------------------------------------

def offer(origin, sig, size=5):
    return {"from": origin, "parent": origin, "sig": sig, "size": size, "level": 1}


def blog():
    """Home lists two categories (menu); each category lists its posts; a tag page
    lists posts of both categories; a post's "see also" lists two posts of its own
    category, and one post lists four posts across categories."""
    cats = {"a": [f"{B}a{i}.html" for i in range(3)], "b": [f"{B}b{i}.html" for i in range(3)]}
    pages = {B: record(), B + "tag.html": record(), B + "a.html": record(), B + "b.html": record()}
    offers: dict[str, list[dict]] = {B + "a.html": [offer(B, "menu")], B + "b.html": [offer(B, "menu")],
                                     B + "tag.html": [offer(B, "menu")]}
    for cat, posts in cats.items():
        for post in posts:
            pages[post] = record(trail=[f"{B}{cat}.html"])
            offers[post] = [offer(f"{B}{cat}.html", f"list-{cat}"), offer(B + "tag.html", "tag")]
    return pages, offers


def test_a_tag_page_that_files_nothing_is_a_view_and_leaves_the_tree():
    pages, offers = blog()
    tree = resolve_tree(B, pages, offers, None)
    assert B + "tag.html" not in tree
    assert tree[B + "a0.html"]["parent"] == B + "a.html"
    assert tree[B + "a.html"] == {"parent": B, "depth": 1}


def test_view_rules():
    parents = {"t": "r", "c1": "r", "c2": "r", "p1": "c1", "p2": "c1", "p3": "c2", "p4": "c2", "q": "c1"}
    mixed = [offer("t", "t-list")]
    offers = {p: list(mixed) for p in ("p1", "p2", "p3", "p4")}
    assert view_pages("r", parents, offers) == {"t"}
    # the same list on a page the site places (its breadcrumb names its parent) is no view
    assert view_pages("r", parents, offers, placed={"t"}) == set()
    # a list of the page's own siblings ("see also") is context, not a view
    siblings = {p: [offer("q", "see-also")] for p in ("p1", "p2", "p3")}
    assert view_pages("r", parents, siblings) == set()
    # a page that files a child is no view; fewer items than the minimum is no listing
    assert view_pages("r", {**parents, "x": "t"}, offers) == set()
    assert view_pages("r", parents, {p: list(mixed) for p in ("p1", "p3")}) == set()
    # the root is never a view
    assert view_pages("t", {k: v for k, v in parents.items() if k != "t"}, offers) == set()


# --- a parent the child names -------------------------------------------------------------

def test_a_named_parent_is_a_candidate_without_an_offer():
    pages = {B: record(), B + "cat.html": record(), B + "post.html": record(trail=[B + "cat.html"])}
    offers = {B + "cat.html": [offer(B, "menu")], B + "post.html": [offer(B, "home-list")]}
    cands = candidate_edges(B, pages, offers)
    rows = dict(zip(cands.edges, cands.rows))
    named, offered = FEATURES.index("named"), FEATURES.index("offered")
    assert rows[(B + "cat.html", B + "post.html")][named] == 1.0
    assert rows[(B + "cat.html", B + "post.html")][offered] == 0.0
    assert rows[(B, B + "post.html")][offered] == 1.0


def test_bad_pager_input_gives_no_pager_and_never_raises():
    root = page('<a href="http://[bad/2">2</a><a href="javascript:void(0)">»</a>'
                '<a href="http://other.test/cat2.html">2</a><a href="http://s.test:99999/cat2.html">2</a>'
                '<a href="\x01cat2.html">3</a><link rel="next">')
    assert pager_links(root, B + "cat.html") == []
    assert not same_listing("http://[bad", B)
    # records as a hand-edited Redis could hold them: no evidence, wrong types
    pages = {B: {}, B + "cat.html": {"evidence": "x"}, B + "cat2.html": {"evidence": {"pager": "cat.html"}},
             B + "cat3.html": {"evidence": {"pager": [None, 3, B + "cat.html"]}}}
    assert listing_heads(B, pages) == {B + "cat3.html": B + "cat.html"}


def test_the_category_a_post_says_it_is_filed_in_is_named_and_wins_over_its_tags():
    pages = {B: record(), B + "cat/": record(), B + "tag/a/": record(), B + "tag/b/": record(),
             B + "post/": record(filed=[B + "cat/"])}
    offers = {B + "cat/": [offer(B, "menu")], B + "tag/a/": [offer(B, "cloud")],
              B + "tag/b/": [offer(B, "cloud")],
              B + "post/": [offer(B + "cat/", "cat-list"), offer(B + "tag/a/", "a-list"),
                            offer(B + "tag/b/", "b-list")]}
    cands = candidate_edges(B, pages, offers)
    rows = dict(zip(cands.edges, cands.rows))
    named = FEATURES.index("named")
    assert rows[(B + "cat/", B + "post/")][named] == 1.0
    assert rows[(B + "tag/a/", B + "post/")][named] == 0.0
    tree = resolve_tree(B, pages, offers, load_model(None).edges)
    assert tree[B + "post/"]["parent"] == B + "cat/"


def test_a_declared_parent_outranks_a_highlighted_menu_item():
    pages = {B: record(), B + "about/": record(),
             B + "about/maps.html": record(crumbs=[B, B + "about/"], trail=[B]),
             B + "news.html": record(trail=[B])}
    offers = {B + "about/": [offer(B, "menu")],
              B + "about/maps.html": [offer(B, "menu"), offer(B + "about/", "about-list")],
              B + "news.html": [offer(B, "menu")]}
    rows = dict(zip(*(lambda c: (c.edges, c.rows))(candidate_edges(B, pages, offers))))
    named = FEATURES.index("named")
    assert rows[(B + "about/", B + "about/maps.html")][named] == 1.0
    assert rows[(B, B + "about/maps.html")][named] == 0.0  # the trail names home: overruled
    assert rows[(B, B + "news.html")][named] == 1.0  # a trail alone still names


def test_form_pages_and_language_copies_are_no_nodes():
    """A page recorded with reason ``form`` or ``language`` leaves the tree, and the
    pages only it offers with it."""
    pages, offers = blog()
    pages[B + "login.html"] = {**record(), "reason": "form"}
    pages[B + "de.html"] = {**record(), "reason": "language"}
    pages[B + "de-a.html"] = record()
    offers[B + "login.html"] = [offer(B, "menu")]
    offers[B + "de.html"] = [offer(B, "menu")]
    offers[B + "de-a.html"] = [offer(B + "de.html", "de")]
    tree = resolve_tree(B, pages, offers, None)
    assert {B + "login.html", B + "de.html", B + "de-a.html"}.isdisjoint(tree)
    assert tree[B + "a.html"] == {"parent": B, "depth": 1}
