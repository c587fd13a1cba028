"""Optional analysis never costs a page (issue 13, item 8): when the entropy,
WISDOM, URL-variant, redirect-alias or frame components or the logical sections
raise, a real crawl against Redis still gives every page its item and its tree
node, the failures are counted per component and exception type, and each is
logged once."""
from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from typing import Any

import pytest
import pytest_twisted
from helpers import FIXTURES, crawl_in_process, project_settings
from scrapy.http import HtmlResponse, Request
from scrapy.utils.test import get_crawler

from skeleton.commands.tree import crawl_tree
from skeleton.middlewares import aliases, entropy, frames, informative, shared, variants
from skeleton.store.keys import CrawlKeys
from skeleton.spiders import skeleton as spider_module
from skeleton.spiders.skeleton import SkeletonSpider
from skeleton.store.tree import load_hash

SITE = FIXTURES / "tinysite"
#: One fetch at a time: both crawls visit the pages in the same order; every
#: optional analysis runs (skeleton.analyses), so each can fail.
SERIAL = {"CONCURRENT_REQUESTS": 1, "SKELETON_ANALYSES": ["all"]}

#: (module, function, exception type, component): what fails, and where it is counted.
FAILURES = [
    (entropy, "page_text", ZeroDivisionError, "entropy"),
    (informative, "informative_blocks", KeyError, "wisdom"),
    (variants, "content_fingerprint", ValueError, "variants"),
    (variants, "strip_tracking", TypeError, "variants"),
    (aliases, "redirect_target", RuntimeError, "aliases"),
    (frames, "frame_sources_in_bytes", LookupError, "frames"),
    (spider_module, "item_sections", AttributeError, "schema"),
]


def failing(kind: type[Exception]) -> Callable[..., Any]:
    def fail(*args: Any, **kwargs: Any) -> Any:
        raise kind("injected failure\nsecond line")
    return fail


def tree_and_items(redis_client, crawl: str, items: list[dict]) -> tuple[dict, dict]:
    keys = CrawlKeys(crawl)
    tree = crawl_tree(redis_client, keys, load_hash(redis_client, keys.pages))
    return tree, {i["url"]: (i["found_from"], i["is_navigation"], i["reason"],
                             [link["url"] for link in i["nav_links"]]) for i in items}


@pytest_twisted.inlineCallbacks
def test_failing_optional_analysis_costs_no_page(serve, redis_settings, redis_client,
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 caplog: pytest.LogCaptureFixture) -> None:
    base = serve(SITE)
    settings = project_settings({**redis_settings, **SERIAL})
    good = f"good-{uuid.uuid4().hex[:8]}"
    good_stats, good_items = yield crawl_in_process(settings, base=f"{base}index.html",
                                                    mode="bfs", crawl=good)
    for module, name, kind, _ in FAILURES:
        monkeypatch.setattr(module, name, failing(kind))
    bad = f"failing-{uuid.uuid4().hex[:8]}"
    with caplog.at_level(logging.DEBUG):
        stats, items = yield crawl_in_process(project_settings({**redis_settings, **SERIAL}),
                                              base=f"{base}index.html", mode="bfs", crawl=bad)

    # every page has its item and its node, as without the failures
    assert stats["finish_reason"] == "finished"
    assert tree_and_items(redis_client, bad, items) == tree_and_items(redis_client, good, good_items)
    assert "skeleton/fetch_failed" not in stats and "skeleton/errors" not in stats
    html = [i for i in items if i["reason"] is None]
    assert len(html) == good_stats["skeleton/wisdom/pages"] >= 10
    assert all(i["blocks"] == [] and "sections" not in i for i in items)
    assert all(i.get("sections") for i in good_items if i["reason"] is None)
    assert "skeleton/entropy/pages" not in stats and "skeleton/wisdom/pages" not in stats

    # counted per component and exception type
    for component, kinds in {"entropy": ["ZeroDivisionError"], "wisdom": ["KeyError"],
                             "schema": ["AttributeError"],
                             "variants": ["ValueError", "TypeError"]}.items():
        for kind in kinds:
            assert stats[f"skeleton/{component}/errors/{kind}"] >= len(html), (component, kind)
        assert stats[f"skeleton/{component}/errors"] == sum(
            stats[f"skeleton/{component}/errors/{kind}"] for kind in kinds)
    assert stats["skeleton/entropy/errors"] == stats["skeleton/wisdom/errors"] == len(html)
    assert stats["skeleton/aliases/errors/RuntimeError"] == stats["response_received_count"]
    assert stats["skeleton/frames/errors/LookupError"] >= len(html)

    # one warning line per component and exception type; its traceback at DEBUG only
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    failed = [r.getMessage() for r in warnings if "analysis failed" in r.getMessage()]
    assert sorted((m.split()[0], m.split("(")[1].split(":")[0]) for m in failed) == sorted(
        (component, kind.__name__) for _, _, kind, component in FAILURES)
    assert all("\n" not in m and "injected failure" in m for m in failed)
    assert not any(r.exc_info for r in warnings)
    assert not any("could not fetch" in r.getMessage() for r in warnings)
    debug = [r for r in caplog.records if r.levelno == logging.DEBUG and r.exc_info
             and r.getMessage().startswith("traceback of the")]
    assert len(debug) == len(FAILURES)


def test_analysis_failed_counts_each_time_and_logs_once_per_kind(
        caplog: pytest.LogCaptureFixture) -> None:
    stats = get_crawler(SkeletonSpider).stats
    log = logging.getLogger("skeleton.test")
    with caplog.at_level(logging.INFO, logger="skeleton.test"):
        for exc in (ValueError("a"), ValueError("b"), KeyError("c"), ValueError("d")):
            shared.analysis_failed(log, stats, "thing", "http://h/", exc)
    assert stats.get_value("skeleton/thing/errors") == 4
    assert stats.get_value("skeleton/thing/errors/ValueError") == 3
    assert stats.get_value("skeleton/thing/errors/KeyError") == 1
    assert [r.getMessage().split("(")[1].split(":")[0] for r in caplog.records] == \
        ["ValueError", "KeyError"]


def test_a_failing_frame_inlining_reads_the_page_without_frames(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shared, "inline_frames", failing(ZeroDivisionError))
    stats = get_crawler(SkeletonSpider).stats
    url = "http://h/index.html"
    response = HtmlResponse(url, body=b"<html><body><p>page</p><iframe src=f.html></iframe></body></html>",
                            request=Request(url, meta={shared.META_FRAMES: {"http://h/f.html": (b"<p>f</p>", None)}}))
    page = shared.shared_page(response, stats)
    assert page.root is not None and page.root.xpath("string(//p)") == "page"
    assert stats.get_value("skeleton/frames/errors/ZeroDivisionError") == 1
