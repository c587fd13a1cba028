"""A picture of the tree (issue 31, item 3): the icicle diagram of
``skeleton.exports.diagram``, drawn as a static SVG (``scrapy tree --format svg``)
and, interactive, beside the outline of the HTML viewer; checked in a real
headless Chromium: it renders one shape per visible node, a node can be expanded,
search marks the matches, and no resource outside the file is loaded."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import FAST, FIXTURES, run_scrapy
from lxml import etree
from test_tree_exports import B, TREE, _wait, browser  # noqa: F401  (the Chromium fixture)

from skeleton.exports.diagram import MAX_SHAPES, MIN_HEIGHT, icicle, orphan_groups, to_svg
from skeleton.diff import marked_tree
from skeleton.exports.html import diff_html, to_html

SVG = "{http://www.w3.org/2000/svg}"


def big_tree(pages: int = 10_000) -> dict:
    """A tree of ``pages`` pages: a deep chain ``/deep/2/3/.../10/`` of heavy
    sections (99 pages each, the last one holding the page titled ``Needle``),
    three heavy sections and many small ones, one broken page."""
    root = {"url": B, "title": "Home", "depth": 0, "children": []}
    count = 1
    chain = root
    for level in range(1, 11):
        node = {"url": chain["url"] + ("deep/" if level == 1 else f"{level}/"), "title": f"Deep {level}",
                "depth": level, "children": []}
        chain["children"].append(node)
        for n in range(98):
            node["children"].append({"url": node["url"] + f"l{n}.html", "title": f"Leaf {level}.{n}",
                                     "depth": level + 1, "children": []})
        chain, count = node, count + 99
    chain["children"].append({"url": chain["url"] + "needle.html", "title": "Needle", "depth": 11, "children": []})
    count += 1
    index = 0
    while count < pages:
        size = 2000 if index < 3 else 3
        section = {"url": f"{B}s{index}/", "title": f"Section {index}", "depth": 1, "children": []}
        root["children"].append(section)
        count += 1
        for n in range(min(size, pages - count)):
            section["children"].append({"url": f"{B}s{index}/p{n}.html", "title": f"Page {index}.{n}",
                                        "depth": 2, "children": []})
            count += 1
        index += 1
    root["children"][1]["children"][0].update(broken=True, status="404")
    return root


def _nodes(tree: dict) -> int:
    stack, n = [tree], 0
    while stack:
        node = stack.pop()
        n += 1
        stack.extend(node["children"])
    return n


def test_the_icicle_stays_within_its_budget_at_ten_thousand_pages() -> None:
    tree = big_tree()
    assert _nodes(tree) == 10_000
    boxes = icicle(tree)
    assert boxes[0].pages == 10_000 and len(boxes) <= MAX_SHAPES
    assert len({box.key for box in boxes}) == len(boxes)
    more = [box for box in boxes if box.kind == "more"]
    assert more and all(box.h >= MIN_HEIGHT for box in boxes if box.kind == "node")
    # the small sections are drawn together, sized by their pages
    top_more = next(box for box in more if box.depth == 1)
    assert top_more.items > 30 and top_more.pages == sum(_nodes(s) for s in tree["children"] if _nodes(s) < 100)
    # children share their parent's height by pages
    for parent in (box for box in boxes if box.kind == "node" and not box.collapsed):
        below = [b for b in boxes if b.depth == parent.depth + 1 and parent.y - 1e-6 <= b.y < parent.y + parent.h - 1e-6]
        if below:
            assert abs(sum(b.h for b in below) - parent.h) < 1e-6
    assert any(box.collapsed for box in boxes)  # the deep chain goes on past the columns drawn


def test_the_static_svg_has_one_shape_per_visible_node_and_is_escaped() -> None:
    tree = big_tree()
    tree["children"][0]["title"] = 'Evil <script>alert(1)</script> & "quotes"\x01'
    tree["sitemap"] = {"urls": 3, "matched": 0, "missing": [],
                       "orphans": [B + "hidden/a.html", B + "hidden/b.html", B + "c.html"]}
    document = to_svg(tree)
    svg = etree.fromstring(document.encode())  # well-formed XML despite the title
    boxes = icicle(tree)
    rects = svg.findall(f".//{SVG}g[@class='node']/{SVG}rect")
    assert len(rects) == len(boxes) == int(svg.get("data-boxes"))
    assert all("box" in rect.get("class").split() for rect in rects)
    keys = [g.get("data-key") for g in svg.iter(f"{SVG}g") if g.get("class") == "node"]
    assert len(set(keys)) == len(keys) == len(boxes)
    assert svg.find(f".//{SVG}script") is None and "href" not in document and "<script>" not in document
    broken = [r for r in rects if "broken" in r.get("class").split()]
    assert len(broken) <= 1 and any("has-broken" in r.get("class") for r in rects)
    # orphans: a separate band grouped by folder, never nodes
    assert "3 sitemap orphans" in document and "hidden/a.html" not in keys
    assert orphan_groups(tree["sitemap"]["orphans"], B) == [("/site/hidden/",
                                                             [B + "hidden/a.html", B + "hidden/b.html"]),
                                                            ("/site/", [B + "c.html"])]


@pytest.fixture
def page(browser, tmp_path: Path):  # noqa: F811
    def load(tree: dict) -> object:
        path = tmp_path / "tree.html"
        path.write_text(to_html(tree, "crawl-1"), "utf-8")
        browser.get(path.as_uri())
        _wait(browser, lambda d: d.find_element("id", "diagram").get_attribute("data-boxes"))
        return browser
    return load


def _shown(driver) -> dict[str, str]:
    """data-key -> the classes of its box, of every box the diagram shows (read in one script:
    the diagram is redrawn as a whole)."""
    return driver.execute_script(
        "var out = {}; document.querySelectorAll('#diagram g.node').forEach(function (g) {"
        " out[g.getAttribute('data-key')] = g.querySelector('rect').getAttribute('class'); }); return out;")


def test_the_diagram_renders_expands_and_searches_in_chromium(page) -> None:
    driver = page(big_tree())
    shown = _shown(driver)
    count = int(driver.find_element("id", "diagram").get_attribute("data-boxes"))
    assert len(shown) == count == len(driver.find_elements("css selector", "#diagram rect.box"))
    assert count <= MAX_SHAPES and shown[B].startswith("box node")
    assert driver.execute_script("return performance.getEntriesByType('resource').length") == 0
    # a collapsed node opens: its children get the whole height
    last = max((key for key, cls in shown.items() if "collapsed" in cls and not key.startswith("more:")),
               key=lambda key: key.count("/"))
    driver.find_element("css selector", f'#diagram g.node[data-key="{last}"]').click()
    _wait(driver, lambda d: any(key.startswith(last) and key != last for key in _shown(d)))
    assert "Deep 5" in driver.find_element("id", "diagram-path").text
    up = driver.find_element("id", "diagram-up")
    while up.is_enabled():  # back up to the home page, a level a click
        up.click()
    _wait(driver, lambda d: B + "deep/" in _shown(d) and "more:" + B in _shown(d))
    # the small sections drawn together open too
    home = set(_shown(driver))
    driver.find_element("css selector", f'#diagram g.node[data-key="more:{B}"]').click()
    _wait(driver, lambda d: "smaller sections" in d.find_element("id", "diagram-path").text)
    opened = {key for key in _shown(driver) if key.startswith(B + "s") and key.count("/") == 5}
    assert opened and not opened & home  # sections that were drawn together
    driver.find_element("id", "diagram-up").click()
    _wait(driver, lambda d: set(_shown(d)) == home)
    # search: the hidden match marks the boxes holding it, the outline finds it
    driver.find_element("id", "search").send_keys("needle")
    _wait(driver, lambda d: d.find_element("id", "found").text == "1 found")
    _wait(driver, lambda d: "has-hit" in _shown(d).get(B + "deep/", "") or
          any("has-hit" in cls for key, cls in _shown(d).items() if key.startswith(B + "deep/")))
    holder = next(key for key, cls in _shown(driver).items() if "has-hit" in cls and "collapsed" in cls)
    driver.find_element("css selector", f'#diagram g.node[data-key="{holder}"]').click()
    _wait(driver, lambda d: any(key.endswith("needle.html") for key in _shown(d)) or
          any("has-hit" in cls and key != holder for key, cls in _shown(d).items()))


def test_the_small_tree_marks_broken_pages_in_the_diagram(page) -> None:
    driver = page(TREE)
    shown = _shown(driver)
    assert set(shown) == {B, B + "a/", B + "a/1.html", B + "a/2.html", B + "b/", B + "b/gone.html"}
    assert "broken" in shown[B + "b/gone.html"].split() and "has-broken" in shown[B + "b/"].split()
    driver.find_element("id", "search").send_keys("second")
    _wait(driver, lambda d: "hit" in _shown(d)[B + "a/2.html"].split())


def test_the_picture_of_a_diff_renders_its_colours_in_chromium(browser, tmp_path: Path) -> None:  # noqa: F811
    old = {"url": B, "title": "Home", "children": [
        {"url": B + "a/", "title": "A", "children": [{"url": B + "a/1.html", "title": "One", "children": []},
                                                    {"url": B + "a/2.html", "title": "Two", "children": []}]},
        {"url": B + "b/", "title": "B", "children": []}]}
    new = {"url": B, "title": "Home", "children": [
        {"url": B + "a/", "title": "A", "children": []},
        {"url": B + "b/", "title": "B", "children": [{"url": B + "a/1.html", "title": "One", "children": []}]},
        {"url": B + "c/", "title": "C", "children": []}]}
    path = tmp_path / "diff.html"
    path.write_text(diff_html(marked_tree(old, new), "diff", "report"), "utf-8")
    browser.get(path.as_uri())
    _wait(browser, lambda d: d.find_element("id", "diagram").get_attribute("data-boxes"))
    shown = _shown(browser)
    assert {key: cls.split()[-1] for key, cls in shown.items() if cls.split()[-1] in ("added", "removed", "moved")} \
        == {B + "c/": "added", B + "a/2.html": "removed", B + "a/1.html": "moved"}
    fills = browser.execute_script(
        "var out = {}; document.querySelectorAll('#diagram g.node').forEach(function (g) {"
        " out[g.getAttribute('data-key')] = getComputedStyle(g.querySelector('rect')).fill; }); return out;")
    assert len({fills[B + "c/"], fills[B + "a/2.html"], fills[B + "a/1.html"], fills[B + "b/"]}) == 4
    assert "moved to another parent" in browser.find_element("id", "legend").text


def test_the_static_svg_renders_one_shape_per_visible_node_in_chromium(browser, tmp_path: Path) -> None:  # noqa: F811
    path = tmp_path / "tree.svg"
    path.write_text(to_svg(big_tree()), "utf-8")
    browser.get(path.as_uri())
    drawn = browser.execute_script(
        "return Array.from(document.querySelectorAll('g.node > rect.box'))"
        ".filter(function (r) { var b = r.getBBox(); return b.width > 0 && b.height > 0; }).length")
    assert drawn == len(icicle(big_tree())) == int(browser.execute_script(
        "return document.documentElement.getAttribute('data-boxes')"))


def test_scrapy_tree_writes_the_svg(serve, tmp_path: Path) -> None:
    base = serve(FIXTURES / "tinysite")
    done = run_scrapy(["crawl", "skeleton", "-a", f"base={base}index.html", *FAST], tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert run_scrapy(["tree", "-o", "tree.svg"], tmp_path).returncode == 0
    svg = etree.parse(str(tmp_path / "tree.svg")).getroot()
    keys = {g.get("data-key") for g in svg.iter(f"{SVG}g") if g.get("class") == "node"}
    tree = json.loads(run_scrapy(["tree"], tmp_path).stdout)
    assert keys == {tree["url"], *(c["url"] for c in tree["children"]),
                    *(g["url"] for c in tree["children"] for g in c["children"])}
    stdout = run_scrapy(["tree", "--format", "svg"], tmp_path).stdout
    assert stdout.startswith("<svg") and "data-boxes" in stdout
    html = run_scrapy(["tree", "--format", "html"], tmp_path).stdout
    assert 'id="diagram"' in html and "skeletonDiagram" in html
