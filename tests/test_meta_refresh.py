"""Scrapy's meta refresh with unparsable base or refresh URLs (issue 13)."""
from __future__ import annotations

import pytest
from scrapy.http import HtmlResponse, Request
from scrapy.utils.conf import build_component_list
from scrapy.utils.test import get_crawler

from skeleton import settings as project_settings
from skeleton.middlewares.meta_refresh import UNPARSABLE_REFRESH_STAT, TolerantMetaRefreshMiddleware

URL = "http://127.0.0.1:9/page.html"


def middleware():
    crawler = get_crawler(settings_dict={"METAREFRESH_ENABLED": True})
    crawler.stats.open_spider()
    return crawler, TolerantMetaRefreshMiddleware.from_crawler(crawler)


def page(head: str) -> HtmlResponse:
    body = f'<html><head>{head}</head><body><a href="a.html">A</a></body></html>'.encode()
    return HtmlResponse(URL, body=body, headers={"Content-Type": "text/html; charset=utf-8"},
                        request=Request(URL))


@pytest.mark.parametrize("head", [
    '<base href="http://[::1">',
    '<base href="http://[::1"><meta http-equiv="refresh" content="0; url=other.html">',
    '<meta http-equiv="refresh" content="0; url=http://[::1">',
    '<meta http-equiv="refresh" content="0; url=http://[::1]:99999/">',
])
def test_an_unparsable_base_or_refresh_url_is_no_refresh(head: str) -> None:
    crawler, mw = middleware()
    response = page(head)
    assert mw.process_response(response.request, response) is response
    assert crawler.stats.get_value(UNPARSABLE_REFRESH_STAT) == 1


def test_a_valid_refresh_is_still_followed() -> None:
    crawler, mw = middleware()
    response = page('<meta http-equiv="refresh" content="0; url=other.html">')
    out = mw.process_response(response.request, response)
    assert isinstance(out, Request) and out.url == "http://127.0.0.1:9/other.html"
    assert crawler.stats.get_value(UNPARSABLE_REFRESH_STAT) is None


def test_the_project_replaces_scrapys_middleware_in_place() -> None:
    crawler = get_crawler(settings_dict={
        "DOWNLOADER_MIDDLEWARES": project_settings.DOWNLOADER_MIDDLEWARES})
    names = [c if isinstance(c, str) else f"{c.__module__}.{c.__name__}"
             for c in build_component_list(crawler.settings.getwithbase("DOWNLOADER_MIDDLEWARES"))]
    assert "scrapy.downloadermiddlewares.redirect.MetaRefreshMiddleware" not in names
    ours = names.index("skeleton.middlewares.meta_refresh.TolerantMetaRefreshMiddleware")
    assert names[ours + 1] == "skeleton.middlewares.frames.FramesMiddleware"
    assert names[ours - 1] == "scrapy.downloadermiddlewares.retry.RetryMiddleware"
