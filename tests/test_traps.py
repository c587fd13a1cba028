"""Spider traps end: endless /a/a/a/... paths and endless calendar "next" links.

The crawls run in-process (pytest-twisted, asyncio reactor) so the crawl stats
can be read; the site is served by a handler that generates pages on demand.
"""
from __future__ import annotations

import http.server
from urllib.parse import parse_qs, urlsplit

import pytest_twisted
from scrapy import signals
from scrapy.crawler import CrawlerRunner
from scrapy.settings import Settings

from skeleton.spiders.skeleton import SkeletonSpider


class TrapHandler(http.server.BaseHTTPRequestHandler):
    """``/`` links to ``a/`` and to a calendar; ``/a/.../`` links to ``a/`` below
    itself; ``/cal?month=N`` links to the previous and next months, forever."""

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        segments = [s for s in parts.path.split("/") if s]
        if parts.path == "/":
            links = [("a/", "Archive"), ("cal?month=0", "Calendar")]
        elif segments and set(segments) == {"a"} and parts.path.endswith("/"):
            links = [("a/", "Older"), ("/", "Home")]
        elif parts.path == "/cal":
            month = int(parse_qs(parts.query).get("month", ["0"])[0])
            links = [(f"cal?month={month - 1}", "Previous month"),
                     (f"cal?month={month + 1}", "Next month")]
            links = [(f"/{href}", text) for href, text in links]
        else:
            self.send_error(404)
            return
        anchors = "".join(f'<li><a href="{href}">{text}</a></li>' for href, text in links)
        body = f"<html><head><title>{self.path}</title></head><body><ul>{anchors}</ul></body></html>"
        data = body.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def _settings(redis_settings: dict[str, str]) -> Settings:
    settings = Settings()
    settings.setmodule("skeleton.settings", priority="project")
    settings.update({**redis_settings, "AUTOTHROTTLE_ENABLED": False, "DOWNLOAD_DELAY": 0,
                     "LOG_LEVEL": "INFO"}, priority="cmdline")
    return settings


def _crawl(settings: Settings, **args):
    crawler = CrawlerRunner(settings).create_crawler(SkeletonSpider)
    items: list[dict] = []

    def collect(item, response, spider):
        items.append(dict(item))

    crawler.signals.connect(collect, signal=signals.item_scraped)
    done = crawler.crawl(**args)
    done.addCallback(lambda _: (crawler.stats.get_stats(), items, collect))
    return done


@pytest_twisted.inlineCallbacks
def test_traps_end_with_a_page_budget(serve, redis_settings) -> None:
    base = serve(handler=TrapHandler)
    stats, items, _ = yield _crawl(_settings(redis_settings), base=base, mode="bfs",
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
    stats, items, _ = yield _crawl(_settings(redis_settings), base=base, mode="bfs",
                                   depth="4", crawl="traps-depth")
    assert stats["finish_reason"] == "finished"
    assert max(item["depth"] for item in items) == 4
    months = sorted(int(i["url"].rsplit("=", 1)[1]) for i in items if "month=" in i["url"])
    assert months == list(range(-3, 4))
    assert not any("a/a/a/" in item["url"] for item in items)
