"""``-a render=js``: pages whose links a script writes, read as headless Chromium
renders them (skeleton.middlewares.render), on the fixture single-page application
(tests/spa.py)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from helpers import FAST, ROOT, run_scrapy
from scrapy.exceptions import NotConfigured, UsageError
from scrapy.http import HtmlResponse, Request, TextResponse
from scrapy.settings import Settings
from scrapy.utils.test import get_crawler
from spa import build, truth

from skeleton.browser import MISSING, chromium_paths
from skeleton.middlewares.render import RenderMiddleware
from skeleton.setting_types import SettingTypeError, check_setting_types
from skeleton.spiders.skeleton import SkeletonSpider


def crawl(base: str, cwd: Path, crawl_id: str, *args: str) -> str:
    done = run_scrapy(["crawl", "skeleton", "-a", f"base={base}index.html", "-a", f"crawl={crawl_id}",
                       *args, *FAST], cwd)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "'finish_reason': 'finished'" in done.stderr, done.stderr[-3000:]
    return done.stderr


def evaluate(cwd: Path, crawl_id: str) -> dict:
    done = run_scrapy(["evaluate", "--truth", "truth.json", "--crawl", crawl_id, "--json"], cwd)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def stat(log: str, name: str) -> int | None:
    found = re.search(rf"'skeleton/render/{name}': (\d+)", log)
    return int(found.group(1)) if found else None


def test_a_script_built_site_is_one_node_served_and_its_true_tree_rendered(serve, tmp_path: Path) -> None:
    if chromium_paths() is None:
        pytest.skip(MISSING)
    base = serve(build(tmp_path / "spa"))
    (tmp_path / "truth.json").write_text(json.dumps(truth(base)), "utf-8")
    plain_log = crawl(base, tmp_path, "plain")
    plain = evaluate(tmp_path, "plain")
    assert plain["pages"]["all"]["found"] == 1 and plain["edges"]["all"]["found"] == 0  # the home page only
    assert stat(plain_log, "pages") is None  # off by default: nothing rendered
    log = crawl(base, tmp_path, "rendered", "-a", "render=js")
    rendered = evaluate(tmp_path, "rendered")
    assert rendered["edges"]["all"]["f1"] == 1.0, rendered["edges"]
    assert rendered["pages"]["all"]["found"] == len(truth(base)["edges"]) + 1
    # every HTML page rendered, once, by one browser; robots.txt (a 404 here) is not
    assert stat(log, "pages") == rendered["pages"]["all"]["found"]
    assert stat(log, "browsers") == 1
    assert stat(log, "skipped") == 1 and stat(log, "failed") is None


def test_the_setting_turns_rendering_on_too(serve, tmp_path: Path) -> None:
    if chromium_paths() is None:
        pytest.skip(MISSING)
    base = serve(build(tmp_path / "spa"))
    (tmp_path / "truth.json").write_text(json.dumps(truth(base)), "utf-8")
    crawl(base, tmp_path, "by-setting", "-s", "SKELETON_RENDER=js", "-a", "depth=1")
    found = evaluate(tmp_path, "by-setting")
    assert found["edges"]["1"]["f1"] == 1.0, found["edges"]  # the sections, built by the script


def test_auto_renders_the_script_built_pages_only(serve, tmp_path: Path) -> None:
    if chromium_paths() is None:
        pytest.skip(MISSING)
    base = serve(build(tmp_path / "spa"))
    (tmp_path / "truth.json").write_text(json.dumps(truth(base)), "utf-8")
    log = crawl(base, tmp_path, "auto", "-a", "render=auto")
    found = evaluate(tmp_path, "auto")
    assert found["edges"]["all"]["f1"] == 1.0, found["edges"]
    assert stat(log, "pages") == found["pages"]["all"]["found"] and stat(log, "served") is None
    # a static site (no script) is read as served, the browser never started
    static = serve(ROOT / "tests" / "sites" / "university")
    log = crawl(static, tmp_path, "auto-static", "-a", "render=auto", "-a", "depth=1")
    assert stat(log, "served") and stat(log, "pages") is None and stat(log, "browsers") is None


def test_render_values_are_checked_as_an_argument_and_as_a_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    if chromium_paths() is not None:
        assert SkeletonSpider.check_arguments(base="http://example.com/", render="JS").render == "js"
    assert SkeletonSpider.check_arguments(base="http://example.com/").render is None
    with pytest.raises(UsageError, match="render must be one of off, js, auto, not 'yes'"):
        SkeletonSpider.check_arguments(base="http://example.com/", render="yes")
    check_setting_types(Settings({"SKELETON_RENDER": "js"}))
    monkeypatch.setattr("skeleton.spiders.arguments.chromium_paths", lambda: None)
    with pytest.raises(UsageError, match="render=js: no Chromium and ChromeDriver here"):
        SkeletonSpider.check_arguments(base="http://example.com/", render="js")
    assert SkeletonSpider.check_arguments(base="http://example.com/", render="off").render == "off"
    with pytest.raises(SettingTypeError, match="SKELETON_RENDER must be one of off, js, auto, not 'always'"):
        check_setting_types(Settings({"SKELETON_RENDER": "always"}))
    with pytest.raises(SettingTypeError, match="SKELETON_RENDER_SETTLE must be a number >= 0"):
        check_setting_types(Settings({"SKELETON_RENDER_SETTLE": "-1"}))


def test_rendering_is_off_by_default_and_never_touches_files_robots_or_errors() -> None:
    with pytest.raises(NotConfigured):
        RenderMiddleware.from_crawler(get_crawler(settings_dict={"SKELETON_RENDER": "off"}))
    middleware = RenderMiddleware.from_crawler(get_crawler(settings_dict={"SKELETON_RENDER": "js"}))
    middleware.crawler.stats.open_spider()
    request = Request("http://127.0.0.1:1/a.pdf")
    answers = [TextResponse("http://127.0.0.1:1/a.txt", body=b"text", request=request),
               HtmlResponse("http://127.0.0.1:1/gone.html", status=404, body=b"<p>gone</p>", request=request),
               HtmlResponse("http://127.0.0.1:1/robots.txt", body=b"<p>x</p>",
                            request=Request("http://127.0.0.1:1/robots.txt", meta={"dont_obey_robotstxt": True}))]
    for response in answers:
        coroutine = middleware.process_response(response.request, response)
        with pytest.raises(StopIteration) as done:  # no await: answered at once, no browser
            coroutine.send(None)
        assert done.value.value is response
    assert middleware._driver is None
    assert middleware.crawler.stats.get_value("skeleton/render/skipped") == 3


def test_the_browser_loads_nothing_from_another_host_and_sends_the_crawls_user_agent(serve, tmp_path: Path) -> None:
    if chromium_paths() is None:
        pytest.skip(MISSING)
    site = tmp_path / "site"
    site.mkdir()
    (site / "x.js").write_text('window.X = "loaded";', "utf-8")
    base = serve(site)
    other = base.replace("127.0.0.1", "localhost")  # the same server under another host name
    (site / "index.html").write_text(
        f'<html><body><p id="p"></p><script src="{other}x.js"></script><script>'
        'document.getElementById("p").textContent = (window.X || "blocked") + " " + navigator.userAgent;'
        '</script></body></html>', "utf-8")
    seen = {}
    for same_host in (True, False):
        middleware = RenderMiddleware.from_crawler(get_crawler(settings_dict={
            "SKELETON_RENDER": "js", "SKELETON_RENDER_SAME_HOST": same_host, "USER_AGENT": "skeleton-test/1.0"}))
        middleware._host = "127.0.0.1"
        try:
            url, html, _ = middleware._render(f"{base}index.html")
        finally:
            middleware._quit()
        assert url == f"{base}index.html"
        seen[same_host] = re.search(r'<p id="p">([^<]*)</p>', html).group(1)
    assert seen[True] == "blocked skeleton-test/1.0"
    assert seen[False] == "loaded skeleton-test/1.0"  # the script is there: only the rule kept it out
