"""The site's sitemap as a report (issue 31, item 2): sitemap files read (robots.txt
``Sitemap:`` lines, sitemap indexes, gzip, ``lastmod``), bounded, in scope, and the
orphans (listed, never reached by the navigation) and the pages missing from the
sitemap named by ``scrapy status`` and ``scrapy tree``; end to end through the
real spider, the embedded Redis and a local copy of the tiny fixture site."""
from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest
from helpers import FAST, FIXTURES, run_scrapy

from skeleton.sitemaps.coverage import compare, loose_key
from skeleton.sitemaps.files import INDEX, URLSET, default_sitemaps, read_sitemap, robots_sitemaps, sitemap_allowed, sitemap_body
from skeleton.store import sitemap as store
from skeleton.store.keys import CrawlKeys

NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'


def urlset(*entries: tuple[str, str]) -> bytes:
    items = "".join(f"<url><loc>{loc}</loc>" + (f"<lastmod>{mod}</lastmod>" if mod else "") + "</url>"
                    for loc, mod in entries)
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset {NS}>{items}</urlset>'.encode()


def index(*locs: str) -> bytes:
    items = "".join(f"<sitemap><loc>{loc}</loc></sitemap>" for loc in locs)
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex {NS}>{items}</sitemapindex>'.encode()


# --- reading files (pure) ---------------------------------------------------------------

def test_sitemaps_indexes_gzip_and_robots_lines_are_read() -> None:
    found = read_sitemap(urlset(("/a/", "2024-01-02"), ("http://h/b.html", "")), "http://h/maps/s.xml")
    assert found.kind == URLSET and found.entries == [("http://h/a/", "2024-01-02"), ("http://h/b.html", "")]
    packed = gzip.compress(index("http://h/s1.xml", "s2.xml.gz"))
    found = read_sitemap(sitemap_body(packed) or b"", "http://h/maps/index.xml")
    assert found.kind == INDEX and [loc for loc, _ in found.entries] == ["http://h/s1.xml", "http://h/maps/s2.xml.gz"]
    assert sitemap_body(gzip.compress(b"x" * 5000), max_size=1000) is None  # a gzip bomb is no sitemap
    for junk in (b"", b"not xml", b"<html><body><a href='/x'>x</a></body></html>", b"\x00\x01\x02"):
        assert read_sitemap(junk, "http://h/").kind == ""
    robots = b"User-agent: *\nDisallow: /private/\nSitemap: /maps/index.xml\nsitemap:http://h/s.xml\n"
    assert robots_sitemaps(robots, "http://h/robots.txt") == ["http://h/maps/index.xml", "http://h/s.xml"]


def test_sitemap_files_are_read_from_the_crawls_origin_only() -> None:
    assert default_sitemaps("http://h:8/docs/index.html") == ["http://h:8/robots.txt", "http://h:8/docs/sitemap.xml"]
    assert sitemap_allowed("http://H:8/other/s.xml", "http://h:8/docs/")
    for away in ("https://h:8/s.xml", "http://h:9/s.xml", "http://cdn.h:8/s.xml", "ftp://h/s.xml"):
        assert not sitemap_allowed(away, "http://h:8/docs/")


def test_orphans_and_missing_pages_compare_by_the_crawls_url_identity() -> None:
    listed = ["http://h/", "http://h/a/index.html", "http://h/b.html#top", "http://h/old.html",
              "http://h/orphan.html", "http://h/x?b=2&a=1"]
    reached = ["http://h/", "http://h/a/", "http://h/b.html", "http://h/new.html", "http://h/c.html",
               "http://h/x?a=1&b=2"]
    report = compare(listed, reached, {"http://h/old.html": "http://h/new.html"})
    assert report.orphans == ["http://h/orphan.html"] and report.missing == ["http://h/c.html"]
    assert report.listed == 6 and report.matched == 5
    # no sitemap: nothing is missing from it
    assert compare([], reached, {}).as_dict() == {"urls": 0, "matched": 0, "orphans": [], "missing": []}
    assert loose_key("https://h/a/index.html") == loose_key("http://h/a") == loose_key("http://h/a.html") \
        != loose_key("http://h/b")


# --- Redis: bounded over every worker -------------------------------------------------

def test_files_and_urls_are_bounded_and_claimed_once(redis_client) -> None:
    keys = CrawlKeys("sitemap-bounds")
    redis_client.delete(*keys.all())
    assert store.claim_file(redis_client, keys, "http://h/a.xml", 2) == 1
    assert store.claim_file(redis_client, keys, "http://h/a.xml", 2) == 0  # read once
    assert store.claim_file(redis_client, keys, "http://h/b.xml", 2) == 1
    assert store.claim_file(redis_client, keys, "http://h/c.xml", 2) == -1  # past the bound
    entries = [(f"http://h/{i}.html", "2024") for i in range(1200)]
    assert store.add_urls(redis_client, keys, entries, 1000) == (1000, 200)
    assert store.add_urls(redis_client, keys, [("http://h/0.html", "2025")], 1000) == (0, 0)
    assert len(store.stored_urls(redis_client, keys)) == 1000
    assert store.stored_urls(redis_client, keys)["http://h/0.html"] == "2025"
    store.record_file(redis_client, keys, "http://h/a.xml", URLSET, 1200, "ok")
    assert store.stored_files(redis_client, keys)["http://h/a.xml"] == {"kind": URLSET, "urls": 1200,
                                                                        "status": "ok"}
    assert store.stored_files(redis_client, keys)["http://h/b.xml"]["status"] == store.PENDING
    redis_client.delete(*keys.all())


# --- end to end -------------------------------------------------------------------------

#: pages of the tiny site the navigation never reaches, listed by its sitemap
ORPHANS = ["hidden/orphan1.html", "orphan2.html", "privacy.html"]


def sitemap_site(tmp_path: Path) -> Path:
    """The tiny fixture site with two unlinked pages, a robots.txt declaring a
    sitemap index (and a sitemap on another host, never read), the index listing
    a gzip sitemap and a plain one; ``news/n4.html`` is left out of both."""
    site = tmp_path / "site"
    shutil.copytree(FIXTURES / "tinysite", site)
    (site / "hidden").mkdir()
    for name in ("hidden/orphan1.html", "orphan2.html"):
        (site / name).write_text(f"<html><head><title>{name}</title></head><body><p>Unlinked.</p></body></html>")
    (site / "robots.txt").write_text("User-agent: *\nDisallow: /nowhere/\nSitemap: /maps/index.xml\n"
                                     "Sitemap: http://sitemaps.invalid/sitemap.xml\n")
    (site / "maps").mkdir()
    (site / "maps" / "index.xml").write_bytes(index("/maps/pages.xml.gz", "/maps/more.xml"))
    linked = ["index.html", "about.html#team", "guides/index.html", *(f"guides/g{i}.html" for i in range(1, 6)),
              "news/", *(f"news/n{i}.html" for i in range(1, 4))]
    (site / "maps" / "pages.xml.gz").write_bytes(gzip.compress(urlset(
        *((f"/{path}", "2024-05-01") for path in linked), ("http://127.0.0.1:1/elsewhere.html", ""))))
    (site / "maps" / "more.xml").write_bytes(urlset(*((f"/{path}", "") for path in ORPHANS)))
    return site


def test_status_and_the_json_tree_name_exactly_the_orphans_and_missing_pages(serve, tmp_path: Path) -> None:
    base = serve(sitemap_site(tmp_path))
    done = run_scrapy(["crawl", "skeleton", "-a", f"base={base}index.html", "-a", "crawl=with-sitemap", *FAST,
                       "-s", "SKELETON_SITEMAP=True"], tmp_path)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-3000:]
    assert "'skeleton/sitemap/files': 3" in done.stderr  # the index and its two sitemaps
    assert "'skeleton/sitemap/out_of_scope': 1" in done.stderr
    assert "'skeleton/sitemap/out_of_scope_files': 1" in done.stderr
    assert "'skeleton/sitemap/failed/404': 1" in done.stderr  # /sitemap.xml: the site has none there
    orphans = [base + path for path in ORPHANS]
    status = json.loads(run_scrapy(["status", "--crawl", "with-sitemap", "--json"], tmp_path).stdout)
    sitemap = status["sitemap"]
    assert sitemap["orphans"] == orphans and sitemap["missing"] == [base + "news/n4.html"]
    assert sitemap["urls"] == 12 + len(ORPHANS) and sitemap["matched"] == 12 and sitemap["files"] == 4
    text = run_scrapy(["status", "--crawl", "with-sitemap"], tmp_path).stdout
    assert "orphans (in the sitemap, never reached): 3" in text
    assert all(f"\n  {url}\n" in text for url in orphans), text
    assert f"missing from the sitemap (reached, not listed): 1\n  {base}news/n4.html\n" in text
    tree = json.loads(run_scrapy(["tree", "--crawl", "with-sitemap"], tmp_path).stdout)
    assert tree["sitemap"]["orphans"] == orphans and tree["sitemap"]["missing"] == [base + "news/n4.html"]
    # the sitemap never adds a node: the tree is the navigation's
    nodes, stack = [], [tree]
    while stack:
        node = stack.pop()
        nodes.append(node["url"])
        stack.extend(node["children"])
    assert len(nodes) == 13 and not set(orphans) & set(nodes)


def test_without_the_setting_no_sitemap_is_read(serve, tmp_path: Path) -> None:
    base = serve(sitemap_site(tmp_path))
    done = run_scrapy(["crawl", "skeleton", "-a", f"base={base}index.html", "-a", "crawl=no-sitemap", *FAST],
                      tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "skeleton/sitemap/" not in done.stderr
    status = json.loads(run_scrapy(["status", "--crawl", "no-sitemap", "--json"], tmp_path).stdout)
    assert status["sitemap"] is None
    assert "sitemap" not in json.loads(run_scrapy(["tree", "--crawl", "no-sitemap"], tmp_path).stdout)


def test_a_bad_bound_is_refused_before_the_crawl(tmp_path: Path) -> None:
    done = run_scrapy(["crawl", "skeleton", "-a", "base=http://127.0.0.1:9/", "-s", "SKELETON_SITEMAP_MAX_URLS=0"],
                      tmp_path)
    assert done.returncode == 2
    assert "setting SKELETON_SITEMAP_MAX_URLS must be an integer >= 1, not '0'" in done.stderr


def test_a_crawl_of_a_folder_keeps_the_sitemaps_urls_in_its_folder(serve, tmp_path: Path) -> None:
    """A crawl of ``/guides/`` reads the host's robots.txt and ``/guides/sitemap.xml``;
    the listed pages out of its folder are counted, not kept."""
    site = tmp_path / "site"
    shutil.copytree(FIXTURES / "tinysite", site)
    (site / "guides" / "unlinked.html").write_text("<html><head><title>Unlinked</title></head><body>x</body></html>")
    (site / "guides" / "sitemap.xml").write_bytes(urlset(
        ("/guides/", ""), *((f"/guides/g{i}.html", "") for i in range(1, 6)), ("/guides/unlinked.html", ""),
        ("/news/n1.html", ""), ("/about.html", "")))
    base = serve(site)
    done = run_scrapy(["crawl", "skeleton", "-a", f"base={base}guides/index.html", "-a", "crawl=folder-sitemap",
                       *FAST, "-s", "SKELETON_SITEMAP=True"], tmp_path)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-3000:]
    assert "'skeleton/sitemap/out_of_scope': 2" in done.stderr
    sitemap = json.loads(run_scrapy(["status", "--crawl", "folder-sitemap", "--json"], tmp_path).stdout)["sitemap"]
    assert sitemap["orphans"] == [base + "guides/unlinked.html"] and sitemap["urls"] == 7
    assert sitemap["missing"] == [] and sitemap["files"] == 1
