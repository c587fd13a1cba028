"""tests/sites/server.py: a static server plus ``_redirects`` rules and ``PATH@QUERY`` pages."""
from __future__ import annotations

import http.client
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from helpers import SiteHandler


@pytest.fixture
def site(tmp_path: Path, serve: Callable[..., str]) -> str:
    (tmp_path / "index.html").write_text("<p>home</p>", "utf-8")
    (tmp_path / "index.html@p=7").write_text("<p>post seven</p>", "utf-8")
    (tmp_path / "news").mkdir()
    (tmp_path / "news" / "index.html").write_text("<p>news</p>", "utf-8")
    (tmp_path / "events").mkdir()
    (tmp_path / "events" / "event.html").write_text("<p>plain event</p>", "utf-8")
    (tmp_path / "events" / "event.html@id=3").write_text("<p>event three</p>", "utf-8")
    (tmp_path / "only").mkdir()
    (tmp_path / "only" / "show@id=1").write_text("<p>only with a query</p>", "utf-8")
    (tmp_path / "_redirects").write_text(
        "# old URLs\n\n/old-news/ /news/ 301\n/moved.html /news/index.html 302  # temporary\n"
        "/news/index.html /news/\n", "utf-8")
    return serve(tmp_path)


def get(base: str, path: str, method: str = "GET") -> tuple[int, dict[str, str], bytes]:
    netloc = urlsplit(base).netloc
    conn = http.client.HTTPConnection(netloc, timeout=10)
    try:
        conn.request(method, path)
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        conn.close()


def test_redirect_rules(site: str) -> None:
    status, headers, _ = get(site, "/old-news/")
    assert status == 301 and headers["location"] == "/news/"
    status, headers, _ = get(site, "/old-news/?utm_source=x")
    assert status == 301 and headers["location"] == "/news/"
    status, headers, _ = get(site, "/moved.html")
    assert status == 302 and headers["location"] == "/news/index.html"
    # a rule applies even when the file exists; its target is served
    status, headers, _ = get(site, "/news/index.html")
    assert status == 301 and headers["location"] == "/news/"
    assert get(site, "/news/")[2] == b"<p>news</p>"


def test_directory_without_slash(site: str) -> None:
    status, headers, _ = get(site, "/news")
    assert status == 301 and urlsplit(headers["location"]).path == "/news/"


def test_clean_url_is_served_from_its_html_file(site: str) -> None:
    status, headers, body = get(site, "/events/event")
    assert status == 200 and body == b"<p>plain event</p>" and headers["content-type"].startswith("text/html")
    assert get(site, "/events/nothing")[0] == 404
    assert get(site, "/events/event.html")[2] == b"<p>plain event</p>"


def test_query_pages(site: str) -> None:
    status, headers, body = get(site, "/events/event.html?id=3")
    assert status == 200 and body == b"<p>event three</p>"
    assert headers["content-type"] == "text/html; charset=utf-8"
    assert get(site, "/?p=7")[2] == b"<p>post seven</p>"
    assert get(site, "/index.html?p=7")[2] == b"<p>post seven</p>"
    status, headers, body = get(site, "/only/show?id=1")
    assert status == 200 and body == b"<p>only with a query</p>"
    assert headers["content-type"] == "text/html; charset=utf-8"
    status, headers, body = get(site, "/events/event.html?id=3", "HEAD")
    assert status == 200 and body == b"" and headers["content-length"] == str(len("<p>event three</p>"))


def test_unknown_query_falls_back(site: str) -> None:
    status, headers, body = get(site, "/events/event.html?id=4")
    assert status == 200 and body == b"<p>plain event</p>"
    assert headers["content-type"] == "text/html"
    assert get(site, "/?p=8")[2] == b"<p>home</p>"
    assert get(site, "/?utm_source=x&p=7")[2] == b"<p>home</p>"
    assert get(site, "/events/event.html?id=../../index.html")[2] == b"<p>plain event</p>"
    assert get(site, "/only/show")[0] == 404


def test_redirects_file_is_hidden(site: str) -> None:
    assert get(site, "/_redirects")[0] == 404
    assert get(site, "/index.html@p=7")[0] == 200  # the stored file itself is served as is


def test_serves_quietly() -> None:
    assert SiteHandler.log_message(None, "%s", "x") is None  # type: ignore[arg-type]
