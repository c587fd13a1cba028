"""benchmarks/synthetic_site.py: the scale benchmark's generated site (no crawl)."""
from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from urllib.error import HTTPError
from urllib.request import urlopen

import pytest
from parsel import Selector

from benchmarks.synthetic_site import Shape, Site, serve


@lru_cache(maxsize=None)
def small() -> Site:
    """A 600-page site with 5 articles per listing page (several listing pages)."""
    return Site(Shape.for_pages(600, per_page=5))


def page(site: Site, path: str) -> Selector:
    body = site.render(path)
    assert body is not None, path
    return Selector(text=body.decode("utf-8"))


def test_the_same_url_gives_the_same_bytes() -> None:
    site, again = small(), Site(Shape.for_pages(600, per_page=5))
    paths = list(site.paths())
    assert paths == list(again.paths())
    for path in paths[::37]:
        assert site.render(path) == again.render(path) == site.render(path)
    assert site.render(paths[10]) != site.render(paths[11])


@pytest.mark.parametrize("pages", [2000, 10_000, 100_000])
def test_the_shape_has_about_the_pages_asked(pages: int) -> None:
    shape = Shape.for_pages(pages)
    assert abs(shape.total - pages) <= 1
    assert shape.sections * shape.subsections * shape.categories == len(shape.articles)
    assert min(shape.articles) >= 1
    if pages == 100_000:
        assert 10_000 <= len(list(Site(shape).paths())) == shape.total
        assert max(shape.listing_pages(k) for k in range(len(shape.articles))) <= 8


def test_paths_are_distinct_pages_of_every_kind() -> None:
    site = small()
    shape = site.shape
    paths = list(site.paths())
    assert len(paths) == len(set(paths)) == shape.total
    kinds = Counter(site.locate(path)[0] for path in paths)  # type: ignore[index]
    listing = sum(shape.listing_pages(k) for k in range(len(shape.articles)))
    assert kinds == {"home": 1, "footer": 3, "section": shape.sections,
                     "subsection": shape.sections * shape.subsections, "category": listing,
                     "article": sum(shape.articles)}
    assert listing > len(shape.articles)  # some categories have later listing pages


def test_titles_are_unique_and_pages_realistic_in_size() -> None:
    site = small()
    titles = []
    for path in site.paths():
        body = site.render(path)
        assert body is not None
        titles.append(Selector(text=body.decode()).css("title::text").get())
        if path.endswith(".html"):
            assert 8_000 < len(body) < 40_000
    assert len(set(titles)) == len(titles)


def test_every_page_has_menu_breadcrumb_sidebar_footer() -> None:
    site = small()
    sections = {sec.path for sec in site.sections}
    for path in random.Random(1).sample(list(site.paths()), 60):
        sel = page(site, path)
        assert set(sel.css("header nav ul a::attr(href)").getall()) == {"/", *sections}
        assert sel.css("aside nav ul a")
        assert sel.css("footer a::attr(href)").getall() == ["/about/", "/contact/", "/privacy/"]
        if path != "/":
            assert sel.css('nav[aria-label="breadcrumb"] ol li a::attr(href)').get() == "/"


def test_parent_is_the_last_breadcrumb_link_and_leads_home() -> None:
    site = small()
    assert site.parent("/") is None
    for path in site.paths():
        if path == "/":
            continue
        crumbs = page(site, path).css('nav[aria-label="breadcrumb"] li a::attr(href)').getall()
        parent = site.parent(path)
        assert crumbs[-1] == parent, path
        assert site.locate(parent) is not None  # type: ignore[arg-type]
        depth, node = 0, path
        while node != "/":
            node, depth = site.parent(node), depth + 1  # type: ignore[assignment]
        assert depth <= 4 and len(crumbs) == depth


def test_children_are_listed_by_their_parent_or_its_next_pages() -> None:
    site = small()
    links: dict[str, set[str]] = {}
    following: dict[str, str | None] = {}
    for path in site.paths():
        sel = page(site, path)
        links[path] = set(sel.css("main a::attr(href)").getall())
        following[path] = sel.css('a[rel="next"]::attr(href)').get()
        assert bool(sel.css('a[rel="prev"]')) == ("?page=" in path)
    for path in site.paths():
        parent = site.parent(path)
        if parent is None or path.startswith(("/about/", "/contact/", "/privacy/")):
            continue
        chain, listed = parent, set()
        while chain is not None:  # the parent and its rel=next listing pages
            listed |= links[chain]
            chain = following[chain]
        assert path in listed, path


@pytest.mark.parametrize("path", [
    "/nope/", "/about", "/index.html", "/?page=2", "/about/?page=2",
    "{category}?page=1", "{category}?page=99", "{category}?page=2&x=1", "{category}?page=02",
    "{category}?x=1", "{section}?page=2", "{article}?page=2", "{article_bad_slug}", "{article_bad_id}",
    "{article_other_category}", "{category}nothing-here-3.html",
])
def test_unknown_paths_are_404(path: str) -> None:
    site = small()
    cat = next(p for p in site.paths() if "?page=2" in p).partition("?")[0]
    article = site.article_path(3)
    head, _, leaf = article.rpartition("/")
    path = path.format(category=cat, section=site.sections[0].path, article=article,
                       article_bad_slug=f"{head}/x{leaf}", article_bad_id=article.replace("-3.html", "-9999.html"),
                       article_other_category=site.category(len(site.shape.articles) - 1).path + leaf)
    assert site.locate(path) is None and site.render(path) is None


def test_the_server_answers_pages_and_404() -> None:
    site = small()
    httpd = serve(site)
    try:
        root = f"http://127.0.0.1:{httpd.server_port}"
        article = site.article_path(5)
        with urlopen(root + article, timeout=10) as answer:
            assert answer.status == 200 and answer.read() == site.render(article)
            assert answer.headers["Content-Type"] == "text/html; charset=utf-8"
        with pytest.raises(HTTPError) as error:
            urlopen(root + "/missing/", timeout=10)
        assert error.value.code == 404
    finally:
        httpd.shutdown()
        httpd.server_close()
