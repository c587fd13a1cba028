"""The skeleton tree as one self-contained HTML page: a collapsible, searchable tree
beside a diagram of it.

No network: the page carries its styles, its script and the tree itself (JSON in a
``<script type="application/json">`` element, ``<`` escaped so no page title can
close it). It shows a summary (pages, broken pages, pages per depth) and the tree:
each node with its title, URL, depth and child count; a node with children opens
and closes on a click of its toggle; broken pages are marked with their status.
The search box keeps the nodes whose title or URL contains the text (case-insensitive)
and their ancestors, opened. Works in any current browser; nodes are built when
their parent opens, so a tree of 100,000 pages stays usable. Titles, URLs and
statuses go through :func:`~skeleton.exports.safe.xml_text` (no character the page
cannot hold, no lone surrogate that UTF-8 cannot write); the script shows them as
text (``textContent``), never as markup.

The diagram (``#diagram``, :mod:`skeleton.exports.diagram`) is an icicle of the
sections sized by pages, drawn as inline SVG by the page's own script: per section
its page count and depth, broken pages red; a click on a box with hidden children
(``collapsed``) or on a ``+N more`` box opens it, ``#diagram-up`` goes back; the
search box marks the matches there too. A crawl that read the site's sitemap
(``tree["sitemap"]``) shows its report: the orphans (listed, never reached) as a
dashed band under the diagram and in ``#sitemap``, with the pages missing from
the sitemap; they are never nodes. The URLs the site answered Not Found
(``tree["not_found"]``: broken links, no nodes) are listed in ``#not-found``, each
with the page linking it. Nodes may carry a diff ``mark``
(:func:`diff_html`, ``scrapy diff``'s picture).

Element ids and classes the page keeps stable (the browser tests rely on them):
``#search``, ``#summary``, ``#tree``, ``li.node`` (``data-url``), ``.toggle``,
``.title``, ``.count``, ``.broken``, ``li.open``, ``li.hit``, ``li.hidden``;
``#diagram`` (``data-boxes``: boxes drawn), ``g.node`` (``data-key`` unique,
``data-url``), ``rect.box`` (``.collapsed``, ``.more``, ``.hit``, ``.has-hit``,
``.broken``), ``#diagram-up``, ``#diagram-path``, ``#sitemap``, ``#not-found``, ``#legend``.
"""
from __future__ import annotations

import html
import json
from collections import Counter
from collections.abc import Mapping
from typing import Any

from skeleton.exports.diagram import MARKS, SCRIPT, STYLE, legend_svg, orphans_svg, orphan_groups
from skeleton.exports.safe import markup_text, xml_text

__all__ = ["to_html", "depth_counts", "diff_html"]

#: the diagram's size in the page, pixels
DIAGRAM_WIDTH, DIAGRAM_HEIGHT = 1000, 640


def _entry(node: Mapping[str, Any]) -> list[Any]:
    entry = [xml_text(str(node["url"])), xml_text(str(node.get("title") or "")),
             xml_text(str(node.get("status") or "")), []]
    if node.get("mark"):
        entry.append(xml_text(str(node["mark"])))
    return entry


def _compact(node: Mapping[str, Any]) -> list[Any]:
    """``[url, title, status or "", children]``: the tree in few bytes."""
    stack: list[tuple[Mapping[str, Any], list[Any]]] = []
    top: list[Any] = _entry(node)
    stack.append((node, top))
    while stack:
        source, target = stack.pop()
        for child in source.get("children", ()):
            entry = _entry(child)
            target[3].append(entry)
            stack.append((child, entry))
    return top


def depth_counts(tree: Mapping[str, Any] | None) -> dict[int, int]:
    """Pages per depth of the tree (the root is depth 0)."""
    counts: Counter[int] = Counter()
    stack = [(tree, 0)] if tree is not None else []
    while stack:
        node, depth = stack.pop()
        counts[depth] += 1
        stack.extend((child, depth + 1) for child in node.get("children", ()))
    return dict(sorted(counts.items()))


def _sitemap_html(tree: Mapping[str, Any] | None) -> tuple[str, str]:
    """The sitemap report's section and the diagram's orphan band (markup), or ""."""
    report = (tree or {}).get("sitemap")
    if not report or not report.get("urls"):
        return "", ""
    orphans, missing = list(report.get("orphans") or ()), list(report.get("missing") or ())

    def listing(urls: list[str]) -> str:
        return "<ul>" + "".join(f'<li><a href="{markup_text(u)}">{markup_text(u)}</a></li>' for u in urls) + "</ul>"

    section = (f'<section id="sitemap"><h2>The site\'s sitemap</h2><p>{int(report["urls"])} URLs in scope, '
               f'{int(report.get("matched") or 0)} reached by the navigation.</p>'
               f'<details class="orphans"{" open" if orphans else ""}><summary>{len(orphans)} orphans: listed by '
               f"the sitemap, never reached by the navigation (not in the tree)</summary>{listing(orphans)}</details>"
               f'<details class="missing"><summary>{len(missing)} pages reached by the navigation, missing from '
               f"the sitemap</summary>{listing(missing)}</details></section>")
    band = ""
    if orphans:
        band = (f'<svg class="skeleton-diagram" id="orphan-band" width="{DIAGRAM_WIDTH}" height="60" '
                f'viewBox="0 0 {DIAGRAM_WIDTH} 60">'
                f"{orphans_svg(orphan_groups(orphans, str(tree['url'])), 0, DIAGRAM_WIDTH)}</svg>")  # type: ignore[index]
    return section, band


def _not_found_html(tree: Mapping[str, Any] | None) -> str:
    """The section listing the URLs the site answered Not Found (``tree["not_found"]``:
    broken links, no nodes), with the page linking each, or ""."""
    entries = [e for e in (tree or {}).get("not_found") or () if isinstance(e, Mapping)]
    if not entries:
        return ""
    def link(url: str) -> str:
        return f'<a href="{markup_text(url)}">{markup_text(url)}</a>' if url else "an unknown page"

    items = "".join(f'<li>{link(str(e.get("url") or ""))} {markup_text(str(e.get("status") or ""))}, linked from '
                    f'{link(str(e.get("linked_from") or ""))}</li>' for e in entries)
    return (f'<section id="not-found"><h2>Broken links</h2><details><summary>{len(entries)} URLs the site '
            f"answered Not Found (not in the tree)</summary><ul>{items}</ul></details></section>")


def to_html(tree: Mapping[str, Any] | None, crawl: str = "", title: str = "", intro: str = "") -> str:
    """The viewer page of ``tree`` (the nested tree of :func:`skeleton.tree.build_tree`;
    ``title``: the page's heading, default "Skeleton of ROOT (crawl ID)"; ``intro``:
    markup shown under it, already safe)."""
    data = json.dumps(_compact(tree) if tree is not None else None, ensure_ascii=False,
                      separators=(",", ":")).replace("<", "\\u003c")
    if not title:
        title = f"Skeleton of {tree['url']}" if tree is not None else "Empty skeleton"
        if crawl:
            title += f" (crawl {crawl})"
    marks = tree is not None and _has_marks(tree)
    broken = tree is not None and _has_broken(tree)
    legend = (f'<svg class="skeleton-diagram" id="legend" width="{DIAGRAM_WIDTH}" height="26">'
              f"{legend_svg(marks, broken, DIAGRAM_WIDTH)}</svg>")
    section, band = _sitemap_html(tree)
    section += _not_found_html(tree)
    return (_PAGE.replace("__TITLE__", html.escape(xml_text(title))).replace("__INTRO__", intro)
            .replace("__LEGEND__", legend).replace("__BAND__", band).replace("__SITEMAP__", section)
            .replace("__STYLE__", STYLE).replace("__DIAGRAM__", SCRIPT)
            .replace("__WIDTH__", str(DIAGRAM_WIDTH)).replace("__HEIGHT__", str(DIAGRAM_HEIGHT))
            .replace("__DATA__", data))


def _has_marks(tree: Mapping[str, Any]) -> bool:
    stack = [tree]
    while stack:
        node = stack.pop()
        if node.get("mark") in MARKS:
            return True
        stack.extend(node.get("children") or ())
    return False


def _has_broken(tree: Mapping[str, Any]) -> bool:
    stack = [tree]
    while stack:
        node = stack.pop()
        if node.get("broken"):
            return True
        stack.extend(node.get("children") or ())
    return False


def diff_html(tree: Mapping[str, Any] | None, title: str, report: str) -> str:
    """``scrapy diff``'s picture: the viewer page of the union ``tree`` of two
    crawls, its nodes marked (``added``, ``removed``, ``moved``), the legend
    naming the colours, and the text ``report`` under the heading."""
    intro = f'<pre id="report">{markup_text(report)}</pre>'
    return to_html(tree, title=title, intro=intro)


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__TITLE__</title>
<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.3em; margin: 0 0 .4em; word-break: break-all; }
#summary { color: #555; margin-bottom: .8em; }
#search { width: min(40em, 90%); padding: .35em .5em; font-size: 1em; }
#found { margin-left: .6em; color: #555; }
ul { list-style: none; margin: 0; padding-left: 1.3em; }
#tree > ul { padding-left: 0; }
li.node > ul { display: none; }
li.node.open > ul { display: block; }
li.hidden { display: none; }
.row { padding: 1px 0; }
.toggle { display: inline-block; width: 1.2em; cursor: pointer; color: #06c; user-select: none; }
.toggle.leaf { cursor: default; color: #aaa; }
.title { font-weight: 600; }
.url { color: #06c; margin-left: .4em; font-size: .9em; word-break: break-all; }
.meta { color: #777; margin-left: .4em; font-size: .85em; }
.broken { color: #b00; font-weight: 600; margin-left: .4em; }
li.hit > .row .title { background: #fff3a0; }
#panes { display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start; }
#tree { flex: 1 1 22em; min-width: 18em; }
#diagram-view { flex: 0 0 auto; overflow-x: auto; max-width: 100%; }
#diagram-bar { margin-bottom: .3em; color: #555; }
#diagram-bar button { margin-right: .5em; }
#diagram-view svg { display: block; }
#diagram g.node { cursor: pointer; }
#report { background: #f6f6f6; padding: .6em; max-height: 14em; overflow: auto; font-size: .85em; }
#sitemap h2 { font-size: 1.1em; }
__STYLE__
</style>
</head>
<body>
<h1>__TITLE__</h1>
__INTRO__
<div id="summary"></div>
<p><input id="search" type="search" placeholder="Search titles and URLs" aria-label="Search titles and URLs">
<span id="found"></span></p>
<div id="panes">
<div id="tree"></div>
<section id="diagram-view" aria-label="Diagram of the sections, sized by pages">
<div id="diagram-bar"><button id="diagram-up" type="button" disabled>Up</button><span id="diagram-path"></span></div>
__LEGEND__
<svg id="diagram" class="skeleton-diagram" xmlns="http://www.w3.org/2000/svg" role="img"></svg>
__BAND__
</section>
</div>
__SITEMAP__
<script type="application/json" id="data">__DATA__</script>
<script>
__DIAGRAM__
</script>
<script>
"use strict";
(function () {
  var root = JSON.parse(document.getElementById("data").textContent);
  var treeBox = document.getElementById("tree");
  var summary = document.getElementById("summary");
  if (!root) { summary.textContent = "No page in this tree."; return; }
  var perDepth = [], pages = 0, broken = 0, parents = new Map(), depths = new Map(), stack = [[root, 0, null]];
  while (stack.length) {
    var item = stack.pop(), node = item[0], depth = item[1];
    parents.set(node, item[2]);
    depths.set(node, depth);
    pages += 1; if (node[2]) { broken += 1; }
    perDepth[depth] = (perDepth[depth] || 0) + 1;
    for (var i = 0; i < node[3].length; i++) { stack.push([node[3][i], depth + 1, node]); }
  }
  summary.textContent = pages + " pages, " + broken + " broken; pages per depth: " +
    perDepth.map(function (n, d) { return d + ": " + n; }).join(", ");

  var elements = new Map();
  function build(node, depth) {
    var li = document.createElement("li");
    li.className = "node";
    li.dataset.url = node[0];
    li.dataset.depth = depth;
    var row = document.createElement("div");
    row.className = "row";
    var toggle = document.createElement("span");
    toggle.className = node[3].length ? "toggle" : "toggle leaf";
    toggle.textContent = node[3].length ? "\\u25b8" : "\\u00b7";
    var title = document.createElement("span");
    title.className = "title";
    title.textContent = node[1] || "(untitled)";
    var link = document.createElement("a");
    link.className = "url";
    link.href = node[0];
    link.textContent = node[0];
    var meta = document.createElement("span");
    meta.className = "meta";
    meta.innerHTML = "depth " + depth + ", <span class=\\"count\\">" + node[3].length + "</span> children";
    row.append(toggle, title, link, meta);
    if (node[2]) {
      var mark = document.createElement("span");
      mark.className = "broken";
      mark.textContent = "broken: " + node[2];
      row.append(mark);
    }
    li.append(row);
    elements.set(node, li);
    if (node[3].length) {
      toggle.addEventListener("click", function () { setOpen(node, !li.classList.contains("open")); });
    }
    return li;
  }
  function fill(node) {
    var li = elements.get(node);
    if (li.querySelector(":scope > ul") || !node[3].length) { return; }
    var ul = document.createElement("ul");
    var depth = Number(li.dataset.depth) + 1;
    for (var i = 0; i < node[3].length; i++) { ul.append(build(node[3][i], depth)); }
    li.append(ul);
  }
  function setOpen(node, open) {
    var li = elements.get(node);
    if (open) { fill(node); }
    li.classList.toggle("open", open);
    var toggle = li.querySelector(":scope > .row > .toggle");
    if (node[3].length) { toggle.textContent = open ? "\\u25be" : "\\u25b8"; }
  }
  var top = document.createElement("ul");
  top.append(build(root, 0));
  treeBox.append(top);
  setOpen(root, true);

  var upButton = document.getElementById("diagram-up"), path = document.getElementById("diagram-path");
  var diagram = skeletonDiagram(document.getElementById("diagram"), root, {
    width: __WIDTH__, height: __HEIGHT__,
    onDraw: function (view, where) {
      var names = [];
      for (var n = view.node; n; n = parents.get(n)) { names.unshift(n[1] || n[0]); }
      path.textContent = " " + names.join(" \u203a ") + (view.subset ? " \u203a " + view.subset.length + " smaller sections" : "") +
        " (" + where.pages + " pages; click a box to open it)";
      upButton.disabled = !view.subset && !parents.get(view.node);
    }});
  upButton.addEventListener("click", function () { diagram.up(); });
  diagram.draw();

  var found = document.getElementById("found");
  var timer = null;
  function search(text) {
    var query = text.trim().toLowerCase();
    var shown = new Set(), hits = new Set();
    if (query) {
      var all = [root];
      while (all.length) {
        var node = all.pop();
        if ((node[1] || "").toLowerCase().indexOf(query) >= 0 || node[0].toLowerCase().indexOf(query) >= 0) {
          hits.add(node);
          for (var up = node; up && !shown.has(up); up = parents.get(up)) { shown.add(up); }
        }
        for (var i = 0; i < node[3].length; i++) { all.push(node[3][i]); }
      }
      // opened from the top down: a node's element is built when its parent opens
      Array.from(shown).filter(function (node) { return node[3].length; })
        .sort(function (a, b) { return depths.get(a) - depths.get(b); })
        .forEach(function (node) { setOpen(node, true); });
    }
    elements.forEach(function (li, node) {
      li.classList.toggle("hidden", query !== "" && !shown.has(node));
      li.classList.toggle("hit", query !== "" && hits.has(node));
    });
    found.textContent = query ? hits.size + " found" : "";
    diagram.search(text);
  }
  document.getElementById("search").addEventListener("input", function (event) {
    clearTimeout(timer);
    var value = event.target.value;
    timer = setTimeout(function () { search(value); }, 120);
  });
})();
</script>
</body>
</html>
"""
