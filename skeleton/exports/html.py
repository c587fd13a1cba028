"""The skeleton tree as one self-contained HTML page: a collapsible, searchable tree.

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

Element ids and classes the page keeps stable (the browser test relies on them):
``#search``, ``#summary``, ``#tree``, ``li.node`` (``data-url``), ``.toggle``,
``.title``, ``.count``, ``.broken``, ``li.open``, ``li.hit``, ``li.hidden``.
"""
from __future__ import annotations

import html
import json
from collections import Counter
from collections.abc import Mapping
from typing import Any

from skeleton.exports.safe import xml_text

__all__ = ["to_html", "depth_counts"]


def _entry(node: Mapping[str, Any]) -> list[Any]:
    return [xml_text(str(node["url"])), xml_text(str(node.get("title") or "")),
            xml_text(str(node.get("status") or "")), []]


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


def to_html(tree: Mapping[str, Any] | None, crawl: str = "") -> str:
    """The viewer page of ``tree`` (the nested tree of :func:`skeleton.tree.build_tree`)."""
    data = json.dumps(_compact(tree) if tree is not None else None, ensure_ascii=False,
                      separators=(",", ":")).replace("<", "\\u003c")
    title = f"Skeleton of {tree['url']}" if tree is not None else "Empty skeleton"
    if crawl:
        title += f" (crawl {crawl})"
    return _PAGE.replace("__TITLE__", html.escape(xml_text(title))).replace("__DATA__", data)


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
</style>
</head>
<body>
<h1>__TITLE__</h1>
<div id="summary"></div>
<p><input id="search" type="search" placeholder="Search titles and URLs" aria-label="Search titles and URLs">
<span id="found"></span></p>
<div id="tree"></div>
<script type="application/json" id="data">__DATA__</script>
<script>
"use strict";
(function () {
  var root = JSON.parse(document.getElementById("data").textContent);
  var treeBox = document.getElementById("tree");
  var summary = document.getElementById("summary");
  if (!root) { summary.textContent = "No page in this tree."; return; }
  var perDepth = [], pages = 0, broken = 0, parents = new Map(), stack = [[root, 0, null]];
  while (stack.length) {
    var item = stack.pop(), node = item[0], depth = item[1];
    parents.set(node, item[2]);
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
      shown.forEach(function (node) { if (node[3].length) { setOpen(node, true); } });
    }
    elements.forEach(function (li, node) {
      li.classList.toggle("hidden", query !== "" && !shown.has(node));
      li.classList.toggle("hit", query !== "" && hits.has(node));
    });
    found.textContent = query ? hits.size + " found" : "";
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
