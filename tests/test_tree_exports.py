"""Tree exports: GraphML read back by networkx, sitemaps valid against the
sitemaps.org schemas (split with an index past the limit), the HTML viewer in a
real headless Chromium (expand a node, search a title), and `scrapy tree --format`
end to end on a crawled fixture."""
from __future__ import annotations

import io
import json
from pathlib import Path

import networkx as nx
import pytest
from helpers import FAST, FIXTURES, run_scrapy
from lxml import etree

from skeleton.browser import MISSING, chromium_paths, start_chromium
from skeleton.exports.graphml import to_graphml
from skeleton.exports.html import depth_counts, to_html
from skeleton.exports.sitemap import render_sitemaps, sitemap_files, sitemap_urls
from skeleton.exports.table import tree_rows

DATA = Path(__file__).parent / "data" / "sitemaps"
B = "http://127.0.0.1:9/site/"
PAGES = {B: {"title": "Home", "is_navigation": True}, B + "a/": {"title": "Section A", "is_navigation": True},
         B + "a/1.html": {"title": "Page <one> & more"}, B + "a/2.html": {"title": "Second page"},
         B + "b/": {"title": "Section B", "is_navigation": True},
         B + "b/gone.html": {"title": "", "reason": "failed", "status": "404"}}
TREE = {"url": B, "title": "Home", "depth": 0, "children": [
    {"url": B + "a/", "title": "Section A", "depth": 1, "children": [
        {"url": B + "a/1.html", "title": "Page <one> & more", "depth": 2, "children": []},
        {"url": B + "a/2.html", "title": "Second page", "depth": 2, "children": []}]},
    {"url": B + "b/", "title": "Section B", "depth": 1, "children": [
        {"url": B + "b/gone.html", "title": "", "depth": 2, "children": [], "broken": True, "status": "404"}]}]}


def _schema(name: str) -> etree.XMLSchema:
    return etree.XMLSchema(etree.parse(str(DATA / name)))


def test_graphml_has_one_node_per_page_and_one_edge_per_tree_edge() -> None:
    graph = nx.read_graphml(io.BytesIO(to_graphml(TREE, PAGES).encode("utf-8")))
    assert graph.is_directed() and set(graph.nodes) == set(PAGES)
    assert set(graph.edges) == {(row["parent"], row["url"]) for row in tree_rows(TREE, PAGES) if row["parent"]}
    assert nx.is_arborescence(graph)
    assert graph.nodes[B + "b/gone.html"]["status"] == "404" and graph.nodes[B + "a/"]["children"] == 2
    assert graph.nodes[B + "a/1.html"]["title"] == "Page <one> & more"


def test_a_sitemap_lists_the_fetched_pages_and_validates() -> None:
    urls = sitemap_urls(TREE, PAGES)
    assert urls == [B, B + "a/", B + "a/1.html", B + "a/2.html", B + "b/"]  # no broken page
    [document] = render_sitemaps(urls + [B + "q?a=1&b=<2>"])
    root = etree.fromstring(document.encode("utf-8"))
    _schema("sitemap.xsd").assertValid(root)
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    assert root.xpath("//s:loc/text()", namespaces=ns)[-1] == B + "q?a=1&b=<2>"


def test_past_the_limit_the_sitemaps_are_split_and_indexed() -> None:
    urls = [f"{B}p{n}.html" for n in range(7)]
    files = sitemap_files("out/sitemap.xml", B + "index.html", urls, max_urls=3)
    assert list(files) == ["out/sitemap-1.xml", "out/sitemap-2.xml", "out/sitemap-3.xml", "out/sitemap.xml"]
    sitemap, index = _schema("sitemap.xsd"), _schema("siteindex.xsd")
    locs: list[str] = []
    for name in list(files)[:3]:
        root = etree.fromstring(files[name].encode("utf-8"))
        sitemap.assertValid(root)
        locs += [el.text for el in root.iter("{*}loc")]
    assert locs == urls
    root = etree.fromstring(files["out/sitemap.xml"].encode("utf-8"))
    index.assertValid(root)
    assert [el.text for el in root.iter("{*}loc")] == [f"{B}sitemap-{n}.xml" for n in (1, 2, 3)]
    assert len(render_sitemaps(urls, max_bytes=400)) > 1  # the size limit splits too


def test_the_html_viewer_is_self_contained() -> None:
    page = to_html(TREE, "crawl-1")
    # no resource from the network (the SVG namespace is a name, never fetched)
    assert "http://" not in page.replace(B, "").replace("http://www.w3.org/2000/svg", "")
    assert "<script src" not in page and "<link" not in page
    assert "Page \\u003cone> & more" in page  # no title can close the data script
    assert depth_counts(TREE) == {0: 1, 1: 2, 2: 3}


@pytest.fixture
def browser():
    if chromium_paths() is None:
        pytest.skip(MISSING)
    pytest.importorskip("selenium.webdriver")
    driver = start_chromium()
    try:
        yield driver
    finally:
        driver.quit()


def _visible(driver) -> list[str]:
    return [el.get_attribute("data-url") for el in driver.find_elements("css selector", "li.node")
            if el.is_displayed()]


def _wait(driver, condition, timeout: float = 10.0):
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(driver, timeout).until(lambda d: condition(d))


def test_the_html_viewer_expands_and_searches_in_chromium(browser, tmp_path: Path) -> None:
    page = tmp_path / "tree.html"
    page.write_text(to_html(TREE, "crawl-1"), "utf-8")
    browser.get(page.as_uri())
    summary = browser.find_element("id", "summary").text
    assert "6 pages, 1 broken" in summary and "2: 3" in summary
    assert _visible(browser) == [B, B + "a/", B + "b/"]  # the root is open, its children closed
    section = browser.find_element("css selector", f'li.node[data-url="{B}b/"]')
    assert section.find_element("css selector", ".count").text == "1"
    section.find_element("css selector", ".toggle").click()  # expand Section B
    _wait(browser, lambda d: B + "b/gone.html" in _visible(d))
    broken = browser.find_element("css selector", f'li.node[data-url="{B}b/gone.html"] .broken')
    assert broken.text == "broken: 404"
    browser.find_element("id", "search").send_keys("second")
    _wait(browser, lambda d: d.find_element("id", "found").text == "1 found")
    assert _visible(browser) == [B, B + "a/", B + "a/2.html"]  # the hit and its ancestors
    hit = browser.find_element("css selector", "li.hit .title")
    assert hit.text == "Second page"


def test_scrapy_tree_formats_end_to_end(serve, tmp_path: Path) -> None:
    base = serve(FIXTURES / "tinysite")
    done = run_scrapy(["crawl", "skeleton", "-a", f"base={base}index.html", *FAST], tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    tree = json.loads(run_scrapy(["tree"], tmp_path).stdout)
    edges = 0
    stack = [tree]
    while stack:
        node = stack.pop()
        edges += len(node["children"])
        stack.extend(node["children"])
    for args in (["--format", "graphml", "-o", "t.graphml"], ["-o", "sitemap.xml"], ["-o", "t.html"]):
        done = run_scrapy(["tree", *args], tmp_path)
        assert done.returncode == 0, done.stderr[-2000:]
    graph = nx.read_graphml(tmp_path / "t.graphml")
    assert graph.number_of_edges() == edges and graph.number_of_nodes() == edges + 1
    _schema("sitemap.xsd").assertValid(etree.parse(str(tmp_path / "sitemap.xml")))
    assert (tmp_path / "t.html").read_text("utf-8").startswith("<!DOCTYPE html>")
    done = run_scrapy(["tree", "--format", "sitemap"], tmp_path)
    assert done.returncode == 0 and done.stdout.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset')
