"""URL types, canonical form, scope and traps: skeleton.web.urls."""
from __future__ import annotations

import pytest

from skeleton.web.urls import (MAX_REPEATED_SEGMENTS, MAX_URL_LENGTH, OTHER_NUM_DIR, URLType, canonical,
                               contained, directory, in_scope, normalize_page, origin, same_host, num_dirs, resolve,
                               trap_reason, section_dirs, shared_dirs, url_type)

PAGE = "http://example.org/news/world/index.html"


@pytest.mark.parametrize("href,expected", [
    # relative: relative to the current directory
    ("africa.html", URLType.RELATIVE), ("sub/page.html", URLType.RELATIVE), ("../up.html", URLType.RELATIVE),
    ("./here.html", URLType.RELATIVE), ("?page=2", URLType.RELATIVE), ("page.html#part", URLType.RELATIVE),
    # absolute: relative to the current site
    ("/sport/", URLType.ABSOLUTE), ("/", URLType.ABSOLUTE), ("http://example.org/x.html", URLType.ABSOLUTE),
    ("HTTP://EXAMPLE.ORG/x.html", URLType.ABSOLUTE), ("https://example.org/secure", URLType.ABSOLUTE),
    ("//example.org/proto-relative", URLType.ABSOLUTE),
    # cross-site: independent of the current site
    ("http://other.org/x.html", URLType.CROSS_SITE), ("https://www.example.org/", URLType.CROSS_SITE),
    ("//cdn.example.net/x", URLType.CROSS_SITE), ("http://example.org:8080/x", URLType.CROSS_SITE),
    # anchor: links with '#'
    ("#top", URLType.ANCHOR), ("#", URLType.ANCHOR), ("  #pad  ", URLType.ANCHOR), ("", URLType.ANCHOR),
    # others: JavaScript and other schemes
    ("javascript:void(0)", URLType.OTHER), ("JavaScript:go()", URLType.OTHER),
    ("mailto:someone@example.org", URLType.OTHER), ("tel:+441234", URLType.OTHER),
    ("ftp://example.org/file", URLType.OTHER), ("data:text/html,hi", URLType.OTHER),
])
def test_url_type(href: str, expected: URLType) -> None:
    assert url_type(href, PAGE) is expected


def test_url_type_has_the_five_types_of_the_paper() -> None:
    assert {t.value for t in URLType} == {"relative", "absolute", "cross-site", "anchor", "other"}


@pytest.mark.parametrize("url,expected", [
    ("http://example.org/a.html#section", "http://example.org/a.html"),
    ("http://example.org/a.html#", "http://example.org/a.html"),
    ("http://example.org/a?sid=123&x=1", "http://example.org/a?x=1"),
    ("http://example.org/a?x=1&sessionid=ab&y=2", "http://example.org/a?x=1&y=2"),
    ("http://example.org/a?phpsessid=deadbeef", "http://example.org/a"),
    ("http://example.org/a?osCsid=0f0f&cat=3", "http://example.org/a?cat=3"),
    ("http://example.org/a;jsessionid=ABC123?x=1", "http://example.org/a?x=1"),
    ("http://example.org/a;JSESSIONID=ABC123", "http://example.org/a"),
    ("http://example.org/a?b=2&a=1", "http://example.org/a?a=1&b=2"),
    ("HTTP://Example.ORG/a%7Eb/c d", "http://example.org/a~b/c%20d"),
    ("http://example.org/a?sid=1#frag", "http://example.org/a"),
])
def test_canonical(url: str, expected: str) -> None:
    assert canonical(url) == expected


def test_canonical_keeps_other_parameters_and_is_idempotent() -> None:
    url = canonical("http://example.org/list?page=2&sort=name&sid=9#top")
    assert url == "http://example.org/list?page=2&sort=name"
    assert canonical(url) == url


@pytest.mark.parametrize("url", ["http://example.org/a?PHPSESSID=deadbeef&x=1",
                                 "http://example.org/a?JSESSIONID=ABC&x=1",
                                 "http://example.org/a?SID=42&x=1"])
def test_canonical_drops_upper_case_session_ids(url: str) -> None:
    assert canonical(url) == "http://example.org/a?x=1"


@pytest.mark.parametrize("href,expected", [
    ("africa.html", "http://example.org/news/world/africa.html"),
    ("../sport/", "http://example.org/news/sport/"),
    ("/about.html#team", "http://example.org/about.html"),
    ("http://other.org/x?sid=1", "http://other.org/x"),
    ("#top", ""), ("", ""), ("javascript:go()", ""), ("mailto:x@example.org", ""),
    ("  europe.html  ", "http://example.org/news/world/europe.html"),
])
def test_resolve(href: str, expected: str) -> None:
    assert resolve(href, PAGE) == expected


@pytest.mark.parametrize("url,expected", [
    ("http://example.org/a/b/c.html", "/a/b/"), ("http://example.org/a/b/", "/a/b/"),
    ("http://example.org/", "/"), ("http://example.org", "/"), ("http://example.org/x.html", "/"),
])
def test_directory(url: str, expected: str) -> None:
    assert directory(url) == expected


def test_num_dirs() -> None:
    assert num_dirs("http://example.org/a/b/c.html") == 2
    assert num_dirs("http://example.org/a/b/") == 2
    assert num_dirs("http://example.org/index.html") == 0
    assert num_dirs("http://example.org/news/a/b/c.html", "/news/") == 2
    assert num_dirs("http://example.org/other/c.html", "/news/") == 1
    assert num_dirs("") == OTHER_NUM_DIR == 1000


def test_contained() -> None:
    assert contained("http://example.org/news/world/africa.html", PAGE)
    assert contained("http://example.org/news/world/asia/china.html", PAGE)
    assert contained(PAGE, PAGE)
    assert not contained("http://example.org/news/sport.html", PAGE)
    assert not contained("http://other.org/news/world/africa.html", PAGE)
    assert not contained("", PAGE)


@pytest.mark.parametrize("url,expected", [
    ("http://example.org/docs/guide.html", True),
    ("http://example.org/docs/", True),
    ("http://example.org/docs/a/b/c.html", True),
    ("http://EXAMPLE.org/docs/x.html", True),
    ("http://example.org/other/x.html", False),
    ("http://example.org/", False),
    ("http://example.org/docsearch.html", False),
    ("http://other.org/docs/x.html", False),
    ("http://example.org:8080/docs/x.html", False),
    ("", False),
])
def test_in_scope(url: str, expected: bool) -> None:
    assert in_scope(url, "http://example.org/docs/index.html") is expected


def test_in_scope_of_a_site_root() -> None:
    assert in_scope("http://example.org/anything/at/all.html", "http://example.org/")
    assert not in_scope("https://sub.example.org/x", "http://example.org/")


@pytest.mark.parametrize("url,base,expected", [
    # the port: a scheme's default port written or not is the same port
    ("http://example.org:80/docs/x.html", "http://example.org/docs/", True),
    ("http://example.org/docs/x.html", "http://example.org:80/docs/", True),
    ("https://example.org:443/docs/x.html", "https://example.org/docs/", True),
    ("http://example.org:8080/docs/x.html", "http://example.org:8080/docs/", True),
    ("http://example.org:8081/docs/x.html", "http://example.org:8080/docs/", False),
    ("http://example.org/docs/x.html", "http://example.org:8080/docs/", False),
    ("http://example.org:443/docs/x.html", "http://example.org/docs/", False),
    ("http://127.0.0.1:8001/docs/", "http://127.0.0.1:8000/docs/", False),
    # the scheme: https is another origin of the host, and its default port another port
    ("https://example.org/docs/x.html", "http://example.org/docs/", False),
    ("http://example.org/docs/x.html", "https://example.org/docs/", False),
    ("https://example.org:80/docs/x.html", "http://example.org/docs/", False),
    ("HTTP://EXAMPLE.ORG:80/docs/x.html", "http://example.org/docs/", True),
    # the host name, not the address it resolves to; user info is no part of it
    ("http://localhost:8000/docs/", "http://127.0.0.1:8000/docs/", False),
    ("http://user:pw@example.org/docs/x.html", "http://example.org/docs/", True),
    ("ftp://example.org/docs/x.html", "http://example.org/docs/", False),
])
def test_in_scope_is_scheme_host_port_and_path(url: str, base: str, expected: bool) -> None:
    assert in_scope(url, base) is expected


def test_origin_normalises_the_default_port() -> None:
    assert origin("http://Example.org/x") == origin("http://example.org:80/") == ("http", "example.org", 80)
    assert origin("https://example.org/") == ("https", "example.org", 443)
    assert origin("http://example.org:8080/") == ("http", "example.org", 8080)
    assert origin("mailto:a@example.org") is None and origin("http://[::1/") is None and origin("") is None


def test_same_host_is_host_and_port_not_subdomains() -> None:
    base = "http://example.org/docs/index.html"
    assert same_host("https://EXAMPLE.org/other/x.html", base)  # any path and scheme
    assert not same_host("http://sub.example.org/docs/x.html", base)
    assert not same_host("http://example.org:8080/docs/x.html", base)
    assert not same_host("", base) and not same_host("http://[::1/x", base)
    assert same_host("http://example.org:80/x.html", base)  # http's default port, written
    assert not same_host("http://localhost/docs/", "http://127.0.0.1/docs/")


def test_trap_reason_long_urls() -> None:
    base = "http://example.org/"
    ok = base + "x" * (MAX_URL_LENGTH - len(base))
    assert len(ok) == MAX_URL_LENGTH and trap_reason(ok) is None
    assert trap_reason(ok + "x") == "url_length"
    assert trap_reason(base + "cal?month=" + "1" * 600) == "url_length"


def test_trap_reason_repeated_segments() -> None:
    assert MAX_REPEATED_SEGMENTS == 2
    assert trap_reason("http://example.org/a/a/") is None
    assert trap_reason("http://example.org/a/b/a/c.html") is None
    assert trap_reason("http://example.org/a/a/a/") == "repeated_segment"
    assert trap_reason("http://example.org/a/b/a/c/a/d.html") == "repeated_segment"
    assert trap_reason("http://example.org/x/y/z/index.html") is None


def test_normalize_page() -> None:
    assert normalize_page("http://example.org/dir/") == normalize_page("http://example.org/dir/index.html")
    assert normalize_page("http://example.org/dir/") == "http://example.org/dir/index.html"
    assert normalize_page("http://example.org") == "http://example.org/index.html"
    assert normalize_page("http://example.org/dir/page.html#s") == "http://example.org/dir/page.html"
    assert normalize_page("http://example.org/dir/?q=1") == "http://example.org/dir/index.html?q=1"
    assert normalize_page("http://example.org/dir") != normalize_page("http://example.org/dir/")


def test_directory_index_pages_are_named_by_their_directory() -> None:
    assert canonical("http://h/a/index.html") == "http://h/a/"
    assert canonical("http://h/index.htm#top") == "http://h/"
    assert canonical("http://h/a/./b/../index.html") == "http://h/a/"
    # not an index: other names, a query, or another case (servers may be case-sensitive)
    assert canonical("http://h/a/myindex.html") == "http://h/a/myindex.html"
    assert canonical("http://h/a/index.html?p=2") == "http://h/a/index.html?p=2"
    assert canonical("http://h/a/INDEX.HTML") == "http://h/a/INDEX.HTML"


def test_shared_dirs_counts_leading_directories() -> None:
    assert shared_dirs("http://h/en/mod/x.html", "http://h/en/mod/") == 2
    assert shared_dirs("http://h/en/mod/x.html", "http://h/en/caching.html") == 1
    assert shared_dirs("http://h/x.html", "http://h/y.html") == 0
    assert shared_dirs("http://h/en/x.html", "http://other/en/y.html") == 0


def test_section_dirs_counts_only_for_a_directory_index_parent() -> None:
    child = "http://h/en/mod/mod_cache.html"
    assert section_dirs("http://h/en/mod/", child) == 2
    assert section_dirs("http://h/en/mod/index.html", child) == 2
    assert section_dirs("http://h/en/", child) == 1
    assert section_dirs("http://h/en/mod/other.html", child) == 0
    assert section_dirs("http://h/p/a.html", "http://h/p/b.html") == 0
    assert section_dirs("http://h/en/mod/?page=2", child) == 0
    assert section_dirs("http://other/en/mod/", child) == 0


