"""benchmarks/fetch_budget.py: the kinds of the pages a crawl fetched that are no node."""
from __future__ import annotations

from benchmarks.corpus import fixture_sites
from benchmarks.fetch_budget import KINDS, site_budget


def budget(name: str) -> dict:
    found = site_budget(next(cs for cs in fixture_sites() if cs.name == name), None)
    # every page fetched is a node or one of the kinds
    assert found["fetched"] == found["true_nodes"] + sum(found[kind] for kind in KINDS)
    assert found["floor"] == round((found["true_nodes"] + found["needed"] + found["broken"])
                                   / found["true_nodes"], 3)
    assert 1.0 <= found["floor"] <= found["fetched_per_true"]
    return found


def test_later_pages_listing_what_their_section_files_are_needed() -> None:
    # the news portal's section listings run over later pages holding stories they file
    found = budget("news_portal")
    assert found["needed"] >= 1
    assert found["floor"] > 1.0


def test_later_pages_of_a_home_listing_whose_posts_hang_from_categories_are_not() -> None:
    # the blog's home listing runs over two later pages; its posts hang from their
    # categories and the menu those pages repeat is on the home page too
    found = budget("blog")
    assert found["later"] == 2
    assert found["needed"] == 0 and found["broken"] == 0
    assert found["floor"] == 1.0
