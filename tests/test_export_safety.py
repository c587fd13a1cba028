"""Exports safe for their readers (issue 29): a page title is text a crawled site
chose. No CSV cell the project writes starts as a spreadsheet formula, no XML export
(GraphML, sitemap) or HTML viewer holds a character its parser refuses, and the
outline holds no control character: whatever the titles and URLs, every export of
a tree parses and gives back its text (neutralised by :mod:`skeleton.exports.safe`)."""
from __future__ import annotations

import argparse
import csv
import io
import json
import re
import tempfile
from pathlib import Path
from typing import Any

import lxml.html
import networkx as nx
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from lxml import etree
from scrapy.settings import Settings

from skeleton.commands import tree as tree_command
from skeleton.exports.feed import CsvItemExporter
from skeleton.exports.feed import fill_feed, tree_positions
from skeleton.exports.graphml import to_graphml
from skeleton.exports.html import to_html
from skeleton.exports.safe import FORMULA_ESCAPE, FORMULA_PREFIXES, csv_cell, text_line, xml_text
from skeleton.exports.sitemap import render_sitemaps, sitemap_urls
from skeleton.settings import FEED_EXPORTERS
from skeleton.exports.outline import render_text
from skeleton.exports.table import render_csv
from skeleton.tree import build_tree

#: modest and derandomized, as tests/test_url_fuzz.py: a few seconds, the same examples every run
FUZZ = settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])

R = "http://example.org/"
#: titles seen to run in a spreadsheet, or to break an export (issue 29)
FORMULAS = ("=cmd|' /C calc'!A0", "+SUM(1,2)", "-2+3", "@SUM(1)", "\tx", "\n=1+1")
CONTROLS = "\x01\x02\x07\x08"
#: characters XML 1.0 forbids
NOT_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
#: control characters, tab and line breaks included
ANY_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
SITEMAP_NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}


def small_tree(titles: list[str], suffixes: tuple[str, ...] | list[str] = (),
               broken: str = "") -> tuple[dict[str, Any], dict[str, Any]]:
    """The tree (``build_tree``, as ``scrapy tree`` builds it) and page records of a
    root titled ``titles[0]`` and one page per further title, ``R + "pN/" + suffixes[N]``
    (distinct by N whatever the suffix): pages 1 and 2 under the root, the others under
    page 1; the last page failed with status ``broken`` if one is given."""
    padded = [*suffixes, *[""] * len(titles)]
    urls = [R] + [f"{R}p{n}/{padded[n]}" for n in range(1, len(titles))]
    pages: dict[str, dict[str, Any]] = {url: {"title": title, "is_navigation": n % 2 == 0}
                                        for n, (url, title) in enumerate(zip(urls, titles))}
    if broken and len(urls) > 1:
        pages[urls[-1]].update(reason="failed", status=broken)
    tree = build_tree(R, pages, {url: {"parent": R if n < 3 else urls[1]} for n, url in enumerate(urls) if n})
    assert tree is not None
    return tree, pages


def depths(urls: list[str]) -> dict[str, int]:
    """URL -> depth in :func:`small_tree`."""
    return {url: 0 if n == 0 else 1 if n < 3 else 2 for n, url in enumerate(urls)}


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text, newline="")))


# --- the helper --------------------------------------------------------------------


@pytest.mark.parametrize("title", FORMULAS)
def test_a_cell_starting_as_a_formula_is_quoted(title: str) -> None:
    assert csv_cell(title) == "'" + title
    assert csv_cell(csv_cell(title)) == csv_cell(title)  # idempotent


def test_a_plain_cell_is_left_as_it_is() -> None:
    for text in ("Home", "http://example.org/a?b=1&c=-2", "Été 2024", "1 + 1 = 2", "", "'quoted", "3", " =1"):
        assert csv_cell(text) == text and xml_text(text) == text and text_line(text) == text


def test_control_characters_are_dropped() -> None:
    assert csv_cell(CONTROLS) == xml_text(CONTROLS) == text_line(CONTROLS) == ""
    assert csv_cell("\x00=1+1") == "'=1+1"  # dropped first, then quoted
    assert csv_cell("a\x7fb\x85c\x9f") == text_line("a\x7fb\x85c\x9f") == "abc"
    assert xml_text("a\x7fb\x85c") == "a\x7fb\x85c"  # XML allows DEL and C1
    assert csv_cell("two\nlines\ttab\r\nend\r") == "two\nlines\ttab\nend\n"  # the csv module quotes them
    assert csv_cell("\r=1+1") == "'\n=1+1"
    assert text_line("two\nlines\ttab\r\u2028end") == "two lines tab  end"


def test_xml_text_drops_what_xml_forbids() -> None:
    assert xml_text("a\ud800b\udfffc\ufffed\uffffe\x0bf\x0cg") == "abcdefg"
    assert xml_text("tab\tlf\ncr\r\U0001f600\ufffd") == "tab\tlf\ncr\r\U0001f600\ufffd"
    assert set(FORMULA_PREFIXES) >= {"=", "+", "-", "@", "\t", "\r"} and FORMULA_ESCAPE == "'"


# --- each export, on the titles of issue 29 ----------------------------------------------


def test_the_tree_csv_quotes_formulas_and_keeps_its_numbers() -> None:
    tree, pages = small_tree(["Home", *FORMULAS, "-3", CONTROLS])
    rows = _rows(render_csv(tree, pages))
    by_url = {row["url"]: row for row in rows}
    for n, title in enumerate([*FORMULAS, "-3"], 1):
        assert by_url[f"{R}p{n}/"]["title"] == "'" + title
    assert by_url[f"{R}p{len(FORMULAS) + 2}/"]["title"] == ""
    assert {row["depth"] for row in rows} == {"0", "1", "2"}  # numbers are not quoted
    assert by_url[R]["children"] == "2" and by_url[f"{R}p1/"]["is_navigation"] == "False"


def test_the_outline_has_one_clean_line_per_page() -> None:
    tree, pages = small_tree(["Home", "two\nlines", CONTROLS, "a\x1b[31mred"], broken="50\x070")
    text = render_text(tree)
    assert text.splitlines() == ["Home <http://example.org/>", "  two lines <http://example.org/p1/>",
                                 "    a[31mred <http://example.org/p3/> [failed 500]",
                                 "  (untitled) <http://example.org/p2/>"]


def test_graphml_with_control_characters_in_a_title_is_written_and_read_back() -> None:
    tree, pages = small_tree(["Home", CONTROLS + "Docs", "=1+1"], ["", "x\x01y"])
    graph = nx.read_graphml(io.BytesIO(to_graphml(tree, pages).encode("utf-8")))
    assert graph.nodes[f"{R}p1/xy"]["title"] == "Docs"
    assert graph.nodes[f"{R}p2/"]["title"] == "=1+1"  # XML holds it: no spreadsheet reads GraphML


def test_a_sitemap_leaves_out_a_url_xml_cannot_hold() -> None:
    tree, pages = small_tree(["Home", "a", "b", "c"], ["", "x\x01y.html", "ok.html", "line\nbreak"])
    assert sitemap_urls(tree, pages) == [R, f"{R}p2/ok.html"]
    [document] = render_sitemaps([R + "\x02\ud800", R + "a\rb"])  # a direct caller's URLs are cleaned
    locs = etree.fromstring(document.encode("utf-8")).xpath("//s:loc/text()", namespaces=SITEMAP_NS)
    assert locs == [R, R + "a\rb"]  # the carriage return read back, not turned into a line feed


def test_the_html_viewer_carries_clean_text() -> None:
    tree, pages = small_tree(["Home", CONTROLS + "Docs\ud800", "</script><b>x"])
    page = to_html(tree, "crawl\x01")
    data = lxml.html.document_fromstring(page.encode("utf-8")).get_element_by_id("data").text
    root = json.loads(data)
    assert [child[1] for child in root[3]] == ["Docs", "</script><b>x"]
    assert not NOT_XML.search(page)


def test_the_feed_exporter_quotes_text_cells_and_keeps_numbers() -> None:
    assert FEED_EXPORTERS["csv"] == "skeleton.exports.feed.CsvItemExporter"
    out = io.BytesIO()
    exporter = CsvItemExporter(out)
    exporter.start_exporting()
    exporter.export_item({"url": R, "title": "=cmd|' /C calc'!A0", "depth": -1, "confidence": -0.5,
                          "is_navigation": True, "reason": "@x", "lang": CONTROLS + "en",
                          "nav_links": [{"text": "=1+1\x85", "url": R + "a\ud800"}]})
    exporter.finish_exporting()
    [row] = _rows(out.getvalue().decode("utf-8"))
    assert row["title"] == "'=cmd|' /C calc'!A0" and row["reason"] == "'@x" and row["lang"] == "en"
    assert row["depth"] == "-1" and row["confidence"] == "-0.5" and row["is_navigation"] == "True"
    assert json.loads(row["nav_links"]) == [{"text": "=1+1", "url": R + "a"}]


def test_a_rewritten_feed_csv_is_neutralised_and_keeps_its_numbers(tmp_path: Path) -> None:
    path = tmp_path / "pages.csv"
    with path.open("w", encoding="utf-8", newline="") as handle:  # as another exporter would write it
        writer = csv.writer(handle)
        writer.writerow(["url", "title", "parent", "depth", "confidence"])
        writer.writerow([R, "+SUM(1,2)", "", "", "-0.25"])
        writer.writerow([R + "a/", "-2+3" + CONTROLS, "", "", "1e-3"])
    assert fill_feed(path, "csv", tree_positions(R, {R + "a/": {"parent": R, "depth": 1}})) == 2
    first = path.read_text("utf-8")
    rows = _rows(first)
    assert [row["title"] for row in rows] == ["'+SUM(1,2)", "'-2+3"]
    assert [(row["parent"], row["depth"], row["confidence"]) for row in rows] == [("", "0", "-0.25"),
                                                                                   (R, "1", "1e-3")]
    fill_feed(path, "csv", tree_positions(R, {R + "a/": {"parent": R, "depth": 1}}))
    assert path.read_text("utf-8") == first  # rewriting again changes nothing


@pytest.mark.parametrize("fmt", ["csv", "graphml", "html", "text", "sitemap"])
def test_scrapy_tree_writes_every_format_of_a_hostile_tree(fmt: str, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    tree, pages = small_tree(["Home", CONTROLS, "=cmd|' /C calc'!A0", "x\ud800", "ok"], ["", "", "", "", "\x01"])
    tree["not_found"] = [{"url": R + "gone\x01<b>\ud800", "status": "404\x07", "linked_from": R + "p\x1b[31m"}]
    monkeypatch.setattr(tree_command, "load_crawl_pages_tree", lambda settings, crawl: ("c1", tree, pages))
    command = tree_command.Command()
    command.settings = Settings()
    output = tmp_path / f"tree.{fmt}"
    command.run([], argparse.Namespace(output=str(output), format=fmt, crawl=None))
    written = output.read_text("utf-8")
    assert R in written and not NOT_XML.search(written)
    if fmt == "csv":
        assert "'=cmd" in written and "=cmd" not in written.replace("'=cmd", "")


# --- every export of any tree ------------------------------------------------------------

#: any text: control characters, lone surrogates, noncharacters, formula starts, markup
TEXT = st.one_of(
    st.text(st.characters(codec=None, exclude_categories=()), max_size=20),
    st.text(st.characters(min_codepoint=0, max_codepoint=0x9F) | st.sampled_from("\ud800\udfff\ufffe\uffff\u2028<&\"'"),
            max_size=12),
    st.tuples(st.sampled_from(FORMULA_PREFIXES + ("\x00", "'", " ")), st.text(max_size=10)).map("".join),
)


def _check_csv(rows: list[dict[str, str]], urls: list[str], titles: dict[str, str]) -> None:
    """Every text cell of ``rows`` is safe, and each row gives its page's title and
    depth (its URL and title neutralised; ``titles``: URL -> title)."""
    for row in rows:
        for key in ("url", "title", "parent", "status"):
            cell = row.get(key, "")
            assert not cell.startswith(FORMULA_PREFIXES)
            assert not re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]", cell)
    assert {row["url"]: row["title"] for row in rows} == {csv_cell(url): csv_cell(titles[url]) for url in urls}
    assert {row["url"]: int(row["depth"]) for row in rows} == {csv_cell(u): d for u, d in depths(urls).items()}


def _html_titles(data: list[Any]) -> dict[str, str]:
    found, stack = {}, [data]
    while stack:
        node = stack.pop()
        found[node[0]] = node[1]
        stack.extend(node[3])
    return found


@FUZZ
@given(titles=st.lists(TEXT, min_size=1, max_size=5), suffixes=st.lists(TEXT, min_size=5, max_size=5),
       status=TEXT)
@example(titles=["Home", *FORMULAS[:4]], suffixes=[""] * 5, status="")
@example(titles=["Home", CONTROLS, "\ud800", "\ufffe", "\x85"], suffixes=["", "\x01", "\ud800", "a", "b"],
         status="\x07")
def test_every_export_of_any_tree_parses_and_gives_its_text_back(titles: list[str], suffixes: list[str],
                                                                 status: str) -> None:
    tree, pages = small_tree(titles, suffixes, broken=status)
    urls = list(pages)
    titles_of = {url: pages[url]["title"] for url in urls}

    _check_csv(_rows(render_csv(tree, pages)), urls, titles_of)

    graph = nx.read_graphml(io.BytesIO(to_graphml(tree, pages).encode("utf-8")))
    assert {node: data["title"] for node, data in graph.nodes(data=True)} == \
        {xml_text(url): xml_text(title) for url, title in titles_of.items()}
    assert {node: data["depth"] for node, data in graph.nodes(data=True)} == \
        {xml_text(url): depth for url, depth in depths(urls).items()}

    [sitemap] = render_sitemaps(sitemap_urls(tree, pages))
    locs = etree.fromstring(sitemap.encode("utf-8")).xpath("//s:loc/text()", namespaces=SITEMAP_NS)
    assert R in locs and set(locs) <= {url for url in urls if text_line(url) == url}

    page = to_html(tree, "crawl")
    data = json.loads(lxml.html.document_fromstring(page.encode("utf-8")).get_element_by_id("data").text)
    assert _html_titles(data) == {xml_text(url): xml_text(title) for url, title in titles_of.items()}

    text = render_text(tree)
    text.encode("utf-8")
    lines = text.split("\n")[:-1]
    assert len(lines) == len(urls) == len(text.splitlines())
    assert not any(ANY_CONTROL.search(line) for line in lines)

    with tempfile.TemporaryDirectory() as folder:  # the crawl's CSV feed, then its tree positions
        path = Path(folder) / "pages.csv"
        with path.open("wb") as out:
            exporter = CsvItemExporter(out)
            exporter.start_exporting()
            for url in urls:
                exporter.export_item({"url": url, "title": titles_of[url], "parent": None, "depth": None,
                                      "confidence": -0.5, "nav_links": [{"text": titles_of[url]}]})
            exporter.finish_exporting()
        fill_feed(path, "csv", tree_positions(R, {url: {"parent": R if depth == 1 else urls[1], "depth": depth}
                                                  for url, depth in depths(urls).items() if depth}))
        with path.open(encoding="utf-8", newline="") as handle:
            feed = list(csv.DictReader(handle))
    _check_csv(feed, urls, titles_of)
    assert {row["confidence"] for row in feed} == {"-0.5"}
    assert all(isinstance(json.loads(row["nav_links"]), list) for row in feed)
