"""End to end through the real spider and Redis, one site per kind of layout that once
defeated the tree (issue 28): each site is written by the training farm's portal grammar
(``farm/families/portal``, standard library only, deterministic), crawled, and its tree
scored against the truth the generator wrote.

These sites are in the shipped model's training data: the bars guard against
regressions of the whole pipeline on these layouts. Held-out figures (leave one
generator family out) are ``benchmarks/farm_loo.py``'s, in ``docs/farm-results.md``.
"""
from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from helpers import crawl_and_score

#: kind of layout -> (portal grammar module, site, lowest edge F1, most pages fetched per node);
#: every kind must also find nearly every node (page recall ``MIN_RECALL``)
KINDS = {
    # the whole site tree in a sidebar on every page, the current branch expanded
    "whole-tree sidebar": ("sidebar", "portal-sidebar", 0.95, 1.3),
    # section indexes whose table of contents lists two levels below them
    "index listing everything below it": ("toc", "portal-toc", 0.95, 1.1),
    # a home page whose paginated list shows every post, category pages filing them
    "blog home listing": ("blog", "portal-blog", 0.95, 1.45),
    # table-and-font news portal: section pages' story lists are headline+blurb cells (once,
    # two thirds of the stories were never fetched); sections list their sub-sections'
    # stories too, and a third of the stories still hang from the section (edge F1 0.67)
    "table story lists": ("oldnews", "portal-oldnews-2", 0.6, 1.1),
    # a home page with a seven-item one-word menu beside a short headline list
    "short one-word menu": ("corporate", "portal-corporate", 0.95, 1.2),
    # a curated front page linking topic pages beside "news" and "chronology" listings; sections
    # linked without their slash (redirects), a chronology cut by year headings, a "more
    # articles" pager without a pager word (once: 26 nodes never fetched, edge F1 0.79)
    "curated front page": ("curated", "portal-curated", 0.95, 1.3),
}
MIN_RECALL = 0.95


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_layout_kind_crawled_against_its_truth(kind: str, serve, tmp_path: Path) -> None:
    module, name, min_f1, max_fetched = KINDS[kind]
    site = tmp_path / "site"
    site.mkdir()
    truth = importlib.import_module(f"farm.families.portal.{module}").build(name, site)
    score = crawl_and_score(serve(site) + "index.html", truth, tmp_path)
    assert score["pages"]["all"]["recall"] >= MIN_RECALL, (kind, score["pages"]["all"])
    assert score["edges"]["all"]["f1"] >= min_f1, (kind, score["edges"]["all"])
    assert score["fetched_per_true_page"] <= max_fetched, (kind, score["fetched_per_true_page"])
