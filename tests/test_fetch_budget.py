"""benchmarks/fetch_budget.py: the kinds of the pages a crawl fetched that are no node."""
from __future__ import annotations

from benchmarks.corpus import fixture_sites
from benchmarks.fetch_budget import KINDS, site_budget


def test_the_blog_fixtures_fetches_are_its_nodes_and_kinds_of_others() -> None:
    blog = next(cs for cs in fixture_sites() if cs.name == "blog")
    found = site_budget(blog, None)
    others = sum(found[kind] for kind in KINDS)
    # every page fetched is a node or one of the kinds; the blog has no broken link
    assert found["fetched"] == found["true_nodes"] + others
    assert found["broken"] == 0
    # its home listing runs over two later pages that list posts the home files
    assert found["needed"] >= 2
    assert 1.0 < found["floor"] <= found["fetched_per_true"]
    assert found["floor"] == round((found["true_nodes"] + found["needed"]) / found["true_nodes"], 3)
