"""A listing's last page that holds one item makes no navigation set (SEW's sets have
at least ``min_nl`` links): its items are still followed, and filed under the listing
(``skeleton.analysis.page.later_page_items``)."""
from __future__ import annotations

import pytest

from skeleton.analysis import page as page_module
from skeleton.analysis.offline import find_skeleton, skeleton_edges
from skeleton.analysis.page import later_page_items
from skeleton.sew.detect import NavLink
from skeleton.sew.model import load_model

H = "http://127.0.0.1:8000/"
SHOES = ["trail-runner", "city-boot", "canvas-low", "desert-chukka", "rain-boot", "court-classic"]
WORDS = "Made from sturdy materials and finished by hand in a small workshop near the coast. " * 3


def _page(title: str, main: str) -> bytes:
    return (f"<html><head><title>{title}</title></head><body><header><a href='/'>Shop</a>"
            "<nav><ul><li><a href='/shoes/'>Shoes</a></li><li><a href='/bags/'>Bags</a></li>"
            "<li><a href='/about.html'>About us</a></li></ul></nav></header>"
            f"<main><h1>{title}</h1>{main}</main>"
            "<footer><a href='/imprint.html'>Imprint</a> <a href='/privacy.html'>Privacy</a></footer>"
            "</body></html>").encode()


def _listing(items: list[str], pager: str) -> str:
    cells = "".join(f'<li><a href="/p/{slug}.html">{slug.replace("-", " ").title()}</a>'
                    f"<p>{WORDS[:60]}</p></li>" for slug in items)
    return f"<ul class='products'>{cells}</ul><nav class='pages'>{pager}</nav>"


def _site() -> dict[str, bytes]:
    site = {H: _page("Shop", f"<p>{WORDS}</p>"),
            f"{H}about.html": _page("About us", f"<p>{WORDS}</p>"),
            f"{H}imprint.html": _page("Imprint", f"<p>{WORDS}</p>"),
            f"{H}privacy.html": _page("Privacy", f"<p>{WORDS}</p>"),
            f"{H}bags/": _page("Bags", _listing([], "")),
            f"{H}shoes/": _page("Shoes", _listing(SHOES[:5], '<span>1</span> <a href="/shoes/page/2/">2</a>'
                                                             ' <a href="/shoes/page/2/">Next</a>')),
            f"{H}shoes/page/2/": _page("Shoes", _listing(SHOES[5:], '<a href="/shoes/">Previous</a>'
                                                                    ' <a href="/shoes/">1</a> <span>2</span>'))}
    for slug in SHOES:
        site[f"{H}p/{slug}.html"] = _page(slug.replace("-", " ").title(), f"<p>{WORDS}</p>")
    return site


def _tree() -> dict[str, str]:
    pages = list(find_skeleton(H, _site().get, load_model()))
    edges = skeleton_edges(pages, None)
    return {child.removeprefix(H): parent.removeprefix(H) for parent, child in edges}


def test_the_lone_item_of_a_listings_last_page_is_filed_under_the_listing() -> None:
    tree = _tree()
    for slug in SHOES:
        assert tree.get(f"p/{slug}.html") == "shoes/", slug
    assert "shoes/page/2/" not in tree  # a later page is no node


def test_without_the_rule_the_lone_item_is_never_reached(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(page_module, "later_page_items", lambda *args: [])
    tree = _tree()
    assert tree.get("p/trail-runner.html") == "shoes/"
    assert "p/court-classic.html" not in tree


class _Link:
    def __init__(self, url: str, text: str = "") -> None:
        self.url, self.sec_name = url, text


def test_only_a_later_page_whose_main_content_follows_nothing_else_gives_its_loose_links() -> None:
    later, first = f"{H}shoes/page/2/", f"{H}shoes/"
    links = [_Link(f"{H}shoes/"), _Link(f"{H}about.html"), _Link(f"{H}p/a.html", "A"), _Link(first, "1")]
    menu = [{f"{H}shoes/", f"{H}about.html"}]
    items = later_page_items(later, {"pager": [first]}, [], [], lambda: links, menu)
    assert items == [NavLink(f"{H}p/a.html", "A", later)]
    # the first page of a listing (no later page), or a later page that follows an item
    assert later_page_items(first, {"pager": [later]}, [], [], lambda: links, menu) == []
    followed = [(f"{H}p/b.html", "B", later, 1)]
    with_b = [*links, _Link(f"{H}p/b.html", "B")]
    assert later_page_items(later, {"pager": [first]}, [], followed, lambda: with_b, menu) == []
    # a set followed outside the main content (a footer the menu context misses) is no listing
    footer = [(f"{H}imprint.html", "Imprint", later, 1), (f"{H}privacy.html", "Privacy", later, 1)]
    assert later_page_items(later, {"pager": [first]}, [], footer, lambda: links, menu) == [
        NavLink(f"{H}p/a.html", "A", later)]
    # a link to a folder holding the page (its section, an unmarked breadcrumb) is no item
    followed = [(f"{H}shoes/", "Shoes", later, 1), (H, "Shop", later, 1)]
    assert later_page_items(later, {"pager": [first]}, [], followed, lambda: links, menu) == [
        NavLink(f"{H}p/a.html", "A", later)]
