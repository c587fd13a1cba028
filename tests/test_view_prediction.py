"""benchmarks/view_prediction.py: the links of a crawl, what is reached without the pages cut,
and the per-page features the classifier reads."""
from __future__ import annotations

from benchmarks.view_prediction import (OFFER_FEATURES, budget_after, crawl_links, cut_pages, folder, link_features,
                                        linked_pages, page_features, reached, url_words)
from skeleton.analysis.offline import PageResult

H = "http://h/"


def offer(size: int, sig: str) -> dict:
    return {"level": 1, "size": size, "pos": 0.0, "toc": 0, "alpha": 0, "dirs": 1.0, "inside": 0.0, "sig": sig}


def crawl() -> list[PageResult]:
    home = PageResult(H, 0, "Home", True, [(H, H + "tags/a/", 1), (H, H + "blog/", 1)],
                      {H + "tags/a/": offer(1, "t"), H + "blog/": offer(2, "m")}, {"pager": [H + "page/2/"]}, None, {})
    blog = PageResult(H + "blog/", 1, "Blog", True, [(H + "blog/", H + "blog/post.html", 2)],
                      {H + "blog/post.html": offer(1, "b")}, {}, None, {})
    tag = PageResult(H + "tags/a/", 1, "a", True, [(H + "tags/a/", H + "blog/only.html", 2)],
                     {H + "blog/only.html": offer(1, "x")}, {}, None, {})
    moved = PageResult(H + "old", 1, "", False, [], {}, {}, None, {H + "old": H + "new/"})
    return [home, blog, tag, moved]


def test_the_crawl_links_are_navigation_links_with_their_offer_and_pager_redirect_links_without() -> None:
    links = crawl_links(crawl())
    assert (H, H + "tags/a/", offer(1, "t")) in links
    assert (H, H + "page/2/", None) in links
    assert (H + "old", H + "new/", None) in links
    assert all(o is not None for origin, child, o in links if child.endswith(".html"))


def test_a_cut_page_is_not_reached_nor_what_only_it_leads_to() -> None:
    links = crawl_links(crawl())
    every = reached(H, links, set())
    assert {H + "blog/post.html", H + "blog/only.html", H + "page/2/"} <= every
    without = reached(H, links, {H + "tags/a/"})
    assert H + "tags/a/" not in without and H + "blog/only.html" not in without
    assert H + "blog/post.html" in without


def test_budget_after_counts_fetched_pages_reached_and_nodes_lost() -> None:
    kinds = {H: "node", H + "blog/": "node", H + "tags/a/": "first", H + "blog/only.html": "node"}
    assert budget_after(kinds, 3, set(kinds)) == (round(4 / 3, 3), 0)
    assert budget_after(kinds, 3, {H, H + "blog/"}) == (round(2 / 3, 3), 1)


def test_a_linked_page_sums_up_its_links() -> None:
    pages = crawl()
    features = linked_pages(pages, crawl_links(pages))
    assert set(features) == {H + "tags/a/", H + "blog/", H + "blog/post.html", H + "blog/only.html"}
    tag = features[H + "tags/a/"]
    assert tag[0] == 1.0 and tag[1] == 1.0  # one link, from the home page
    assert features[H + "blog/post.html"][1] == 0.0
    width = len(link_features((H, H + "blog/", offer(2, "m")), H, {H: 2}, {H: 2}))
    assert len(tag) == 2 + 3 * width


def test_link_features_relate_the_folders() -> None:
    found = link_features((H + "blog/", H + "blog/2024/post.html", offer(3, "s")), H, {H + "blog/": 5}, {H + "blog/": 2})
    n = len(OFFER_FEATURES)
    assert found[n:] == [0.0, 5.0, 2.0, 1.0, 1.0, 0.0]
    assert folder(H + "blog/2024/post.html") == "/blog/2024/"


def test_page_features_are_count_home_links_then_mean_min_max_of_each() -> None:
    rows = [[1.0] * len(OFFER_FEATURES) + [1.0, 4.0], [3.0] * len(OFFER_FEATURES) + [0.0, 2.0]]
    out = page_features(rows)
    assert out[:2] == [2.0, 1.0]
    assert out[2:5] == [2.0, 1.0, 3.0]
    assert out[-3:] == [3.0, 2.0, 4.0]


def test_url_words_name_the_view_kinds_of_the_urls_folders_and_file() -> None:
    assert url_words(H + "tags/a/") == [1.0, 0.0, 0.0, 0.0]
    assert url_words(H + "archives.html") == [0.0, 0.0, 1.0, 0.0]
    assert url_words(H + "contributors/x/page/2/") == [0.0, 1.0, 0.0, 0.0]
    assert url_words(H + "catalog/tagged.html") == [0.0, 0.0, 0.0, 0.0]


def test_cut_pages_reports_sites_over_the_budget_and_nodes_lost() -> None:
    pages = crawl()
    links = crawl_links(pages)
    kinds = {H: "node", H + "blog/": "node", H + "blog/post.html": "node", H + "tags/a/": "first",
             H + "blog/only.html": "node"}
    sites = {"s": {"root": H, "links": links, "kinds": kinds, "nodes": 4}}
    assert cut_pages(sites, []) == {"sites_over": [], "nodes_lost": 0, "sites_losing": {}}
    assert cut_pages(sites, [("s", H + "tags/a/")]) == {"sites_over": [], "nodes_lost": 1, "sites_losing": {"s": 1}}
    sites["s"]["nodes"] = 3
    assert cut_pages(sites, [])["sites_over"] == ["s"]
