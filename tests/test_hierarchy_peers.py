"""The peer trees (skeleton.hierarchy.peers) and the URL-folder evidence of the edge rows."""
from skeleton.hierarchy.features import FEATURES, candidate_edges
from skeleton.hierarchy.peers import bfs_tree, folder_owners, folder_tree

B = "http://h.test/"


def test_bfs_tree_hangs_each_page_from_the_first_page_that_links_it():
    links = {B: [B + "a/", B + "b/"], B + "a/": [B + "b/", B + "a/x.html"], B + "b/": [B + "a/x.html", B]}
    assert bfs_tree(B, lambda u: links.get(u, [])) == {
        B + "a/": B, B + "b/": B, B + "a/x.html": B + "a/"}


def test_bfs_tree_stops_at_max_pages():
    links = {B: [B + f"{i}.html" for i in range(10)]}
    # the root's links are all seen once the root is read; no further page is read
    assert len(bfs_tree(B, lambda u: links.get(u, []), max_pages=1)) == 10
    chain = {B + f"{i}.html": [B + f"{i + 1}.html"] for i in range(10)} | {B: [B + "0.html"]}
    assert len(bfs_tree(B, lambda u: chain.get(u, []), max_pages=3)) == 3


def test_folder_tree_takes_the_nearest_page_naming_a_containing_folder():
    pages = [B, B + "a/", B + "a/x.html", B + "a/b.html", B + "a/b/y.html", B + "a/b/c/z.html",
             B + "d/e/f.html", B + "p?id=1"]
    assert folder_tree(B, pages) == {
        B + "a/": B,
        B + "a/x.html": B + "a/",
        B + "a/b.html": B + "a/",
        B + "a/b/y.html": B + "a/b.html",      # a page named like the folder names it
        B + "a/b/c/z.html": B + "a/b.html",    # no page names a/b/c/: the next folder up
        B + "d/e/f.html": B,                   # no page names d/ or d/e/
        B + "p?id=1": B,
    }


def test_a_folder_index_names_its_folder_before_a_page_named_like_it():
    owners = folder_owners([B + "a.html", B + "a/index.html"])
    assert owners[("h.test", "/a/")] == B + "a/index.html"
    # a page with a query names no folder
    assert ("h.test", "/p/") not in folder_owners([B + "p?id=1"])


def test_folder_tree_keeps_hosts_apart():
    other = "http://other.test/"
    assert folder_tree(B, [B, other + "a/", B + "a/x.html"])[B + "a/x.html"] == B


def _record(nav=()):
    return {"evidence": {}, "nav_links": [{"url": u} for u in nav]}


def _offer(origin, size=3):
    return {"from": origin, "parent": origin, "level": 1, "size": size, "pos": 0.0, "toc": 0,
            "alpha": 0, "dirs": 0.5, "inside": 0.5, "sig": origin}


def test_the_folder_parent_is_a_candidate_and_a_feature():
    # the home page's menu offers every page; the section /a/ offers only x
    pages = {B: _record(), B + "a/": _record(), B + "a/x.html": _record(), B + "a/y.html": _record()}
    offers = {B + "a/": [_offer(B)], B + "a/x.html": [_offer(B), _offer(B + "a/")],
              B + "a/y.html": [_offer(B)]}
    cands = candidate_edges(B, pages, offers)
    rows = dict(zip(cands.edges, cands.rows))
    folder, agree = FEATURES.index("folder"), FEATURES.index("folder_agree")
    # y is offered by the home page only, yet its folder's page is a candidate (not offered)
    assert (B + "a/", B + "a/y.html") in rows
    assert rows[(B + "a/", B + "a/y.html")][FEATURES.index("offered")] == 0.0
    assert rows[(B + "a/", B + "a/y.html")][folder] == 1.0
    assert rows[(B, B + "a/y.html")][folder] == 0.0
    # one of the three offered pages (x) is offered by its folder's page
    assert rows[(B, B + "a/")][agree] == rows[(B + "a/", B + "a/x.html")][agree] == 1 / 3


def test_a_listing_holding_another_is_coarser_and_loses_a_tie():
    from skeleton.hierarchy.scoring import edge_weights

    posts = [B + f"p{i}.html" for i in range(8)]
    pages = {B: _record(), B + "cat/a.html": _record(), **{p: _record() for p in posts}}
    # the home page lists every post; category a lists the first four
    offers = {p: [_offer(B, 9)] + ([_offer(B + "cat/a.html", 4)] if i < 4 else []) for i, p in enumerate(posts)}
    offers[B + "cat/a.html"] = [_offer(B, 9)]
    for p in posts:  # both lists are as deep in the site, so only the listings differ
        pages[p] = _record()
    cands = candidate_edges(B, pages, offers)
    rows = dict(zip(cands.edges, cands.rows))
    coarser, finer = FEATURES.index("coarser"), FEATURES.index("finer")
    home_row, cat_row = rows[(B, posts[0])], rows[(B + "cat/a.html", posts[0])]
    assert (home_row[coarser], home_row[finer]) == (1.0, 0.0)
    assert (cat_row[coarser], cat_row[finer]) == (0.0, 1.0)
    # a post category a does not list has one candidate: nothing to compare
    assert rows[(B, posts[5])][coarser] == 0.0
    # rows alike but for the listings: the innermost wins the shortest-path rule's tie
    tied_home = list(cat_row)
    tied_home[coarser], tied_home[finer] = 1.0, 0.0
    w_home, w_cat = edge_weights([tied_home, cat_row], None)
    assert w_cat > w_home


def test_listings_that_cross_their_siblings_overlap_and_those_that_partition_do_not():
    # six posts: categories a and b partition them; tags x and y both list posts 2 and 3;
    # the home page's menu (one set repeated on every page) offers every listing page
    posts = [B + f"posts/p{i}.html" for i in range(6)]
    cats = {B + "categories/a.html": posts[:3], B + "categories/b.html": posts[3:]}
    tags = {B + "tags/x/": posts[:4], B + "tags/y/": posts[2:]}
    pages = {B: _record(), **{u: _record() for u in [*posts, *cats, *tags]}}
    menu = {**_offer(B, 4), "sig": "menu"}
    offers: dict = {u: [menu, {**menu, "from": p, "parent": p}]
                    for u in [*cats, *tags] for p in [B] + [q for q in [*cats, *tags] if q != u]}
    for listing, listed in {**cats, **tags}.items():
        for post in listed:
            offers.setdefault(post, []).append(_offer(listing, len(listed)))
    cands = candidate_edges(B, pages, offers)
    rows = dict(zip(cands.edges, cands.rows))
    overlap = FEATURES.index("overlap")
    assert rows[(B + "categories/a.html", posts[2])][overlap] == 0.0
    assert rows[(B + "tags/x/", posts[2])][overlap] == 0.5  # posts 2 and 3 of its four
    assert rows[(B + "tags/y/", posts[5])][overlap] == 0.5
    # the menu repeated on every page is no listing of its own
    assert rows[(B, B + "tags/x/")][overlap] == 0.0
