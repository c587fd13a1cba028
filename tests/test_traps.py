"""Spider traps end: endless /a/a/a/... paths and endless calendar "next" links.

The crawls run in-process (pytest-twisted, asyncio reactor) so that their stats
can be read; the site is generated on demand by ``helpers.TrapHandler``.
"""
from __future__ import annotations

import pytest_twisted
from helpers import TrapHandler, crawl_in_process, project_settings


@pytest_twisted.inlineCallbacks
def test_traps_end_with_a_page_budget(serve, redis_settings) -> None:
    base = serve(handler=TrapHandler)
    stats, items = yield crawl_in_process(project_settings(redis_settings), base=base, mode="bfs",
                                   max_pages="30", crawl="traps-budget")
    urls = [item["url"] for item in items]
    assert stats["finish_reason"] == "max_pages"
    assert len(urls) == 30 == stats["skeleton/pages"]
    assert base + "a/a/" in urls and not any("a/a/a/" in u for u in urls)
    assert stats["skeleton/trap/repeated_segment"] >= 1
    assert stats["skeleton/max_pages/reached"] == 30


@pytest_twisted.inlineCallbacks
def test_traps_end_with_a_depth_limit(serve, redis_settings) -> None:
    base = serve(handler=TrapHandler)
    stats, items = yield crawl_in_process(project_settings(redis_settings), base=base, mode="bfs",
                                   depth="4", crawl="traps-depth")
    assert stats["finish_reason"] == "finished"
    assert max(item["depth"] for item in items) == 4
    months = sorted(int(i["url"].rsplit("=", 1)[1]) for i in items if "month=" in i["url"])
    assert months == list(range(-3, 4))
    assert not any("a/a/a/" in item["url"] for item in items)
