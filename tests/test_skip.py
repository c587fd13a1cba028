"""``-a skip``: the URLs the user declares the crawl must not fetch
(:mod:`skeleton.urlrules.skip`), as the spider and the offline crawl apply them."""
from __future__ import annotations

import re
import uuid
from pathlib import Path

import pytest
import pytest_twisted
from scrapy.exceptions import UsageError

from skeleton.analysis.offline import find_skeleton
from skeleton.analysis.page import scope_filter
from skeleton.analysis.training import file_fetcher
from skeleton.sew.detect import Detection
from skeleton.sew.links import extract_links
from skeleton.sew.model import load_model
from skeleton.spiders.arguments import parse_arguments
from skeleton.urlrules.skip import MAX_PATTERNS, SKIP_REASON, SkipError, parse_skip, skipped

BASE = "http://127.0.0.1:8000/"
BLOG = Path(__file__).parent / "sites" / "blog"
#: a post of the blog fixture: /YYYY/MM/DD/slug/
POST = re.compile(r"/20\d\d/\d\d/\d\d/[^/]+/$")


def test_patterns_are_searched_in_the_path_and_query() -> None:
    patterns = parse_skip(r"^/tag/ [?&]sort=  /author/", BASE)
    assert len(patterns) == 3
    assert skipped(BASE + "tag/a/", patterns) and skipped(BASE + "shop/?page=2&sort=price", patterns)
    assert skipped(BASE + "blog/author/jo/", patterns)
    assert not skipped(BASE + "blog/tag/a/", patterns[:1])  # anchored at the path's start
    assert not skipped("http://tag.example.org/x", patterns)  # the host is not read
    assert not skipped(BASE + "tag/a/", ())
    assert parse_skip(None, BASE) == parse_skip("  ", BASE) == ()


@pytest.mark.parametrize("value, message", [
    ("[unclosed", "is no regular expression"),
    ("^/$", "matches the start URL"),
    (" ".join(f"p{i}" for i in range(MAX_PATTERNS + 1)), "at most"),
    ("x" * 501, "longer than"),
])
def test_a_pattern_that_cannot_be_used_is_refused_in_one_line(value: str, message: str) -> None:
    with pytest.raises(SkipError, match=message) as found:
        parse_skip(value, BASE)
    assert "\n" not in str(found.value)
    with pytest.raises(UsageError, match=message):
        parse_arguments(base=BASE, skip=value)


def test_the_spider_argument_carries_the_patterns() -> None:
    assert parse_arguments(base=BASE).skip == ()
    assert [p.pattern for p in parse_arguments(base=BASE, skip="/tag/ /author/").skip] == ["/tag/", "/author/"]


def test_the_scope_filter_names_the_users_skip_after_the_scope() -> None:
    patterns = parse_skip("/tag/", BASE)
    skip = scope_filter(BASE, skip=patterns)
    assert skip(BASE + "tag/a/") == SKIP_REASON
    assert skip("http://other.example.org/tag/a/") == "filtered/offsite"
    assert skip(BASE + "post.html") is None
    assert scope_filter(BASE)(BASE + "tag/a/") is None


def every_link(root, url, base, known, template) -> Detection:  # type: ignore[no-untyped-def]
    """A detector that takes all of a page's links as its one navigation set."""
    return Detection(nav_sets=[extract_links(root, url)])


def test_an_offline_crawl_fetches_nothing_the_patterns_match() -> None:
    """The blog fixture read breadth-first: with its category pages declared skipped,
    none is fetched, nothing new is, and every post is still reached (the home
    page's listing and its later pages list them all)."""
    fetch = file_fetcher(BLOG)
    model = load_model(None)
    every = {p.url for p in find_skeleton(BASE, fetch, model, detector=every_link) if p.fetched}
    patterns = parse_skip("^/category/", BASE)
    assert any(skipped(url, patterns) for url in every)
    without = {p.url for p in find_skeleton(BASE, fetch, model, detector=every_link, skip=patterns) if p.fetched}
    assert not {url for url in without if skipped(url, patterns)}
    assert without < every
    assert {url for url in without if POST.search(url)} == {url for url in every if POST.search(url)}


@pytest_twisted.inlineCallbacks
def test_a_crawl_with_skip_requests_no_matching_url(serve, redis_settings) -> None:
    """Through the real spider (local HTTP server, embedded Redis): the blog fixture
    crawled breadth-first (every link followed) with its category pages declared
    skipped requests none of them, counts the links not followed, and still reaches
    every post."""
    from helpers import crawl_in_process, project_settings

    base = serve(BLOG)
    stats, items = yield crawl_in_process(project_settings(redis_settings), base=base, mode="bfs",
                                          crawl=f"skip-{uuid.uuid4().hex[:8]}", skip="^/category/")
    assert stats["finish_reason"] == "finished"
    urls = [item["url"] for item in items]
    assert urls and not [url for url in urls if "/category/" in url]
    assert stats["skeleton/skipped/user"] > 0
    assert len([url for url in urls if POST.search(url)]) == len(list(BLOG.glob("20*/*/*/*/index.html")))
