"""A picture of the tree: an icicle diagram of its sections, sized by pages (pure).

Why an icicle (a partition of the height, one column per depth) rather than a
node-link tidy tree or a sunburst: a section's box is as tall as its share of the
site's pages, so the heavy sections and the depth show at a glance; every label
is horizontal and aligned in its column; and the shapes drawn are bounded by the
picture's size, not by the site's: a box shorter than :data:`MIN_HEIGHT` is not
drawn alone, the small siblings of a section are drawn as one ``+N more`` box
(sized by their pages), and a column is drawn only while the picture stays
within :data:`MAX_SHAPES` boxes; boxes with children not drawn are marked
``collapsed``. A 10,000-page site is a few hundred boxes.

:func:`icicle` lays the tree out (one :class:`Box` per visible node: a page and
its section, or a ``+N more`` aggregate); :func:`to_svg` draws it as one static
SVG readable without a script (``scrapy tree --format svg``): one ``<rect
class="box">`` per visible node inside its ``<g class="node">`` (``data-key``
unique, ``data-url`` the page), its title and page count as text when the box is
tall enough, the full line (title, URL, depth, pages, broken pages) as the box's
``<title>`` tooltip; broken (failed) pages filled red, a section holding some
outlined red; the sitemap's orphans (pages the site lists that the navigation
never reached: ``tree["sitemap"]["orphans"]``) as a separate dashed band under
the tree, grouped by folder (:func:`orphan_groups`), never as nodes. A node may
carry a ``"mark"`` (``added``, ``removed``, ``moved``: ``scrapy diff``'s picture),
which colours its box; a legend then names the colours.

:data:`SCRIPT` is the same layout in JavaScript for the HTML viewer
(:mod:`skeleton.exports.html`), interactive: a click on a box with hidden children
or on a ``+N more`` box zooms into it (the box's own children get the whole
height, at least :data:`MIN_HEIGHT` each while room is left for a ``+N more`` box of
the rest: opening one always shows some of them), ``#diagram-up`` goes back up, and ``search(text)`` marks the boxes
holding a match (``hit``) or holding one below them (``has-hit``).

Every text goes through :func:`skeleton.exports.safe.markup_text`.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from skeleton.exports.safe import markup_text

__all__ = ["WIDTH", "HEIGHT", "MIN_HEIGHT", "MAX_LEVELS", "MAX_SHAPES", "MARKS", "Box", "subtree_counts",
           "icicle", "orphan_groups", "orphans_svg", "legend_svg", "to_svg", "SCRIPT", "STYLE"]

#: the static picture's size, pixels
WIDTH, HEIGHT = 1200, 800
#: a box shorter than this is drawn inside its siblings' ``+N more`` box
MIN_HEIGHT = 14.0
#: columns (depths) drawn from the top node at most
MAX_LEVELS = 6
#: boxes drawn at most: a column that would pass it is not drawn
MAX_SHAPES = 400
#: orphan folder groups drawn at most (the rest as one ``+N more``)
MAX_ORPHAN_GROUPS = 12
#: the diff marks and their legend, in order
MARKS = {"added": "added", "removed": "removed", "moved": "moved to another parent"}
#: fill colours of the top-level sections, in turn
PALETTE = ("#9ecae1", "#a1d99b", "#fdd0a2", "#bcbddc", "#fcbba1", "#c7e9c0", "#d9d9d9", "#fee391",
           "#c6dbef", "#dadaeb")
_ORPHAN_BAND = 56.0
_LEGEND = 30.0
_HEADER = 18.0


@dataclass
class Box:
    """One visible node: a page and its section (``kind`` ``node``), or siblings
    drawn together (``more``: ``count`` pages of ``items`` sections). ``pages``:
    pages in the subtree (or in the aggregated subtrees), ``broken`` the failed ones
    among them; ``collapsed``: it has children not drawn."""

    key: str
    kind: str
    url: str
    label: str
    depth: int
    x: float
    y: float
    w: float
    h: float
    pages: int
    broken: int
    section: int
    collapsed: bool = False
    mark: str = ""
    changes: dict[str, int] = field(default_factory=dict)
    items: int = 0
    status: str = ""


def subtree_counts(tree: Mapping[str, Any]) -> dict[int, tuple[int, int, int, dict[str, int]]]:
    """``id(node)`` -> (pages, broken pages, levels below, marks counted) of each
    subtree of ``tree`` (no recursion: trees of any depth)."""
    order: list[Mapping[str, Any]] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        order.append(node)
        stack.extend(node.get("children") or ())
    counts: dict[int, tuple[int, int, int, dict[str, int]]] = {}
    for node in reversed(order):
        pages, broken, levels = 1, 1 if node.get("broken") else 0, 0
        marks: dict[str, int] = {}
        if node.get("mark"):
            marks[node["mark"]] = 1
        for child in node.get("children") or ():
            c_pages, c_broken, c_levels, c_marks = counts[id(child)]
            pages, broken, levels = pages + c_pages, broken + c_broken, max(levels, c_levels + 1)
            for mark, n in c_marks.items():
                marks[mark] = marks.get(mark, 0) + n
        counts[id(node)] = (pages, broken, levels, marks)
    return counts


def _label(node: Mapping[str, Any]) -> str:
    return str(node.get("title") or "") or str(node.get("url") or "") or "(untitled)"


def icicle(tree: Mapping[str, Any], width: float = WIDTH, height: float = HEIGHT,
           min_height: float = MIN_HEIGHT, max_levels: int = MAX_LEVELS,
           max_shapes: int = MAX_SHAPES) -> list[Box]:
    """The visible boxes of ``tree``'s icicle in a ``width`` x ``height`` area:
    the root a full-height column, each drawn node's children sharing its height
    by pages (largest first; those under ``min_height`` as one ``+N more`` box
    at the bottom), column by column up to ``max_levels`` columns and
    ``max_shapes`` boxes."""
    counts = subtree_counts(tree)
    levels = min(max_levels, counts[id(tree)][2] + 1)
    column = width / max(levels, 1)

    def make(node: Mapping[str, Any], depth: int, y: float, h: float, section: int) -> Box:
        pages, broken, _, marks = counts[id(node)]
        return Box(key=str(node["url"]), kind="node", url=str(node["url"]), label=_label(node), depth=depth,
                   x=depth * column, y=y, w=column, h=h, pages=pages, broken=broken, section=section,
                   mark=str(node.get("mark") or ""), changes=marks, status=str(node.get("status") or "")
                   if node.get("broken") else "")

    top = make(tree, 0, 0.0, height, -1)
    boxes = [top]
    frontier: list[tuple[Box, Mapping[str, Any]]] = [(top, tree)]
    for depth in range(1, levels):
        added: list[tuple[Box, Mapping[str, Any] | None]] = []
        for parent_box, node in frontier:
            children = sorted(node.get("children") or (), key=lambda c: (-counts[id(c)][0], str(c["url"])))
            total = sum(counts[id(c)][0] for c in children)
            y = parent_box.y
            rest: list[Mapping[str, Any]] = []
            for index, child in enumerate(children):
                h = parent_box.h * counts[id(child)][0] / total
                if h < min_height:
                    rest = children[index:]  # sorted by size: the rest are smaller still
                    break
                section = parent_box.section if depth > 1 else len(added) % len(PALETTE)
                added.append((make(child, depth, y, h, section), child))
                y += h
            if rest:
                pages = sum(counts[id(c)][0] for c in rest)
                marks: dict[str, int] = {}
                for child in rest:
                    for mark, n in counts[id(child)][3].items():
                        marks[mark] = marks.get(mark, 0) + n
                more = Box(key=f"more:{parent_box.url}", kind="more", url="", label=f"+{len(rest)} more",
                           depth=depth, x=depth * column, y=y, w=column, h=parent_box.h * pages / total,
                           pages=pages, broken=sum(counts[id(c)][1] for c in rest), section=parent_box.section,
                           collapsed=True, changes=marks, items=len(rest))
                added.append((more, None))
        if len(boxes) + len(added) > max_shapes:
            break
        boxes.extend(box for box, _ in added)
        frontier = [(box, node) for box, node in added if node is not None]
    for box, node in frontier:
        box.collapsed = bool(node.get("children"))
    return boxes


def orphan_groups(orphans: Sequence[str], root: str,
                  max_groups: int = MAX_ORPHAN_GROUPS) -> list[tuple[str, list[str]]]:
    """The sitemap's orphans grouped by their first folder below the root's
    (``/hidden/`` for ``/hidden/a.html``, ``/`` for a page in the root's folder),
    largest group first; past ``max_groups`` the rest as one ``+N more`` group."""
    base = urlsplit(root).path
    base = base if base.endswith("/") else base.rsplit("/", 1)[0] + "/"
    groups: dict[str, list[str]] = {}
    for url in orphans:
        path = urlsplit(url).path
        rest = path[len(base):] if path.startswith(base) else path.lstrip("/")
        folder = base + rest.split("/", 1)[0] + "/" if "/" in rest else base
        groups.setdefault(folder, []).append(url)
    ordered = sorted(groups.items(), key=lambda item: (-len(item[1]), item[0]))
    if len(ordered) > max_groups:
        tail = [url for _, urls in ordered[max_groups - 1:] for url in urls]
        ordered = ordered[:max_groups - 1] + [(f"+{len(ordered) - max_groups + 1} more folders", tail)]
    return ordered


def _fill(box: Box) -> str:
    if box.mark:
        return {"added": "#74c476", "removed": "#fb6a4a", "moved": "#fd8d3c"}.get(box.mark, "#dddddd")
    if box.status:
        return "#e34a33"
    if box.kind == "more":
        return "#eeeeee"
    return "#f7f7f7" if box.section < 0 else PALETTE[box.section % len(PALETTE)]


def _classes(box: Box) -> str:
    names = ["box", box.kind]
    if box.status:
        names.append("broken")
    elif box.broken:
        names.append("has-broken")
    if box.collapsed:
        names.append("collapsed")
    if box.mark:
        names.append(box.mark)
    return " ".join(names)


def _changes(changes: Mapping[str, int]) -> str:
    signs = {"added": "+", "removed": "\u2212", "moved": "~"}
    return " ".join(f"{signs[m]}{changes[m]}" for m in MARKS if changes.get(m))


def _tooltip(box: Box) -> str:
    parts = [box.label if box.kind == "node" else f"{box.items} sections drawn together"]
    if box.url:
        parts.append(box.url)
    parts.append(f"depth {box.depth}, {box.pages} page{'s' if box.pages != 1 else ''}")
    if box.status:
        parts.append(f"broken: {box.status}")
    elif box.broken:
        parts.append(f"{box.broken} broken")
    if box.mark:
        parts.append(MARKS.get(box.mark, box.mark))
    if box.changes:
        parts.append("changes below: " + _changes(box.changes))
    if box.collapsed:
        parts.append("more below (open the HTML view to expand)")
    return " \u2014 ".join(parts)


def _fit(text: str, width: float, size: float = 11.0) -> str:
    room = max(0, int((width - 8) / (size * 0.55)))
    return text if len(text) <= room else (text[:max(0, room - 1)] + "\u2026" if room > 1 else "")


def _box_svg(box: Box, top: float) -> str:
    y = top + box.y
    parts = [f'<g class="node" data-key="{markup_text(box.key)}" data-url="{markup_text(box.url)}" '
             f'data-depth="{box.depth}" data-pages="{box.pages}">',
             f"<title>{markup_text(_tooltip(box))}</title>",
             f'<rect class="{_classes(box)}" x="{box.x:.1f}" y="{y:.1f}" width="{max(box.w - 1, 0.5):.1f}" '
             f'height="{max(box.h - 1, 0.5):.1f}" fill="{_fill(box)}"/>']
    if box.h >= 13:
        label = box.label + (" \u25b8" if box.collapsed and box.kind == "node" else "")
        parts.append(f'<text x="{box.x + 4:.1f}" y="{y + min(box.h / 2, 14) + 3.5:.1f}">'
                     f"{markup_text(_fit(label, box.w))}</text>")
    if box.h >= 31:
        extra = f"{box.pages} page{'s' if box.pages != 1 else ''}"
        if box.broken:
            extra += f", {box.broken} broken"
        if box.changes:
            extra += "  " + _changes(box.changes)
        parts.append(f'<text class="count" x="{box.x + 4:.1f}" y="{y + 27.5:.1f}">{markup_text(_fit(extra, box.w, 10))}</text>')
    parts.append("</g>")
    return "".join(parts)


def orphans_svg(groups: list[tuple[str, list[str]]], top: float, width: float) -> str:
    """The band of the sitemap's orphans (:func:`orphan_groups`), ``top`` pixels down:
    one dashed box per folder group, as wide as its share of the orphans."""
    total = sum(len(urls) for _, urls in groups)
    parts = [f'<g class="orphans"><text class="band" x="4" y="{top + 12:.1f}">{total} sitemap orphan'
             f'{"s" if total != 1 else ""}: listed by the site\'s sitemap, never reached by its navigation '
             "(not in the tree)</text>"]
    x = 0.0
    for folder, urls in groups:
        w = max(width * len(urls) / total, 2.0)
        sample = ", ".join(urls[:5]) + (f" \u2026 (+{len(urls) - 5})" if len(urls) > 5 else "")
        parts.append(f'<g class="orphan" data-key="orphans:{markup_text(folder)}"><title>'
                     f"{markup_text(f'{folder}: {len(urls)} orphans: {sample}')}</title>"
                     f'<rect class="orphan-box" x="{x:.1f}" y="{top + 18:.1f}" width="{max(w - 1, 1):.1f}" '
                     f'height="{_ORPHAN_BAND - 22:.1f}"/>'
                     f'<text x="{x + 4:.1f}" y="{top + 38:.1f}">{markup_text(_fit(f"{folder} {len(urls)}", w))}</text></g>')
        x += w
    parts.append("</g>")
    return "".join(parts)


#: the static picture's style (also the HTML viewer's, for the same classes)
STYLE = """
svg.skeleton-diagram { font: 11px system-ui, sans-serif; background: #fff; }
svg.skeleton-diagram rect.box { stroke: #fff; stroke-width: 1; }
svg.skeleton-diagram rect.more { stroke: #999; stroke-dasharray: 3 2; }
svg.skeleton-diagram rect.has-broken { stroke: #d7301f; stroke-width: 2; }
svg.skeleton-diagram rect.broken { stroke: #99000d; }
svg.skeleton-diagram rect.collapsed { stroke: #555; stroke-width: 1.5; }
svg.skeleton-diagram rect.hit { stroke: #000; stroke-width: 3; }
svg.skeleton-diagram rect.has-hit { stroke: #000; stroke-width: 2; stroke-dasharray: 4 2; }
svg.skeleton-diagram rect.orphan-box { fill: #fff7bc; stroke: #d95f0e; stroke-dasharray: 4 2; }
svg.skeleton-diagram text { fill: #222; pointer-events: none; }
svg.skeleton-diagram text.count, svg.skeleton-diagram text.head { fill: #555; font-size: 10px; }
svg.skeleton-diagram text.band { fill: #8c2d04; }
svg.skeleton-diagram .legend rect { stroke: #999; }
"""


def legend_svg(marks: bool, broken: bool, width: float) -> str:
    """The legend's shapes: the diff's colours (``marks``), broken pages (``broken``)
    and the ``+N more`` box."""
    entries = [(f"fill:{_fill(Box('', 'node', '', '', 0, 0, 0, 0, 0, 0, 0, 0, mark=m))}", label)
               for m, label in MARKS.items()] if marks else []
    if broken:
        entries.append(("fill:#e34a33", "broken page (failed)"))
    entries.append(("fill:#eeeeee;stroke-dasharray:3 2", "+N more: small sections drawn together"))
    parts, x = ['<g class="legend">'], 4.0
    for style, label in entries:
        parts.append(f'<rect x="{x:.1f}" y="6" width="14" height="14" style="{style}"/>'
                     f'<text x="{x + 18:.1f}" y="17">{markup_text(label)}</text>')
        x += 30 + len(label) * 6.2
    parts.append("</g>")
    return "".join(parts)


def to_svg(tree: Mapping[str, Any] | None, title: str = "", width: int = WIDTH, height: int = HEIGHT) -> str:
    """The diagram of ``tree`` (``scrapy tree``'s nested JSON; nodes may carry a
    ``mark``) as one standalone SVG document: no script, no external resource."""
    if tree is None:
        return ('<svg xmlns="http://www.w3.org/2000/svg" class="skeleton-diagram" width="400" height="40">'
                '<text x="4" y="24">No page in this tree.</text></svg>\n')
    boxes = icicle(tree, width, height)
    marks = any(box.mark or box.changes for box in boxes)
    broken = any(box.broken for box in boxes)
    orphans = list((tree.get("sitemap") or {}).get("orphans") or ())
    top = _LEGEND + _HEADER
    full = top + height + (_ORPHAN_BAND + 8 if orphans else 0)
    levels = max(box.depth for box in boxes) + 1
    heads = "".join(f'<text class="head" x="{d * boxes[0].w + 4:.1f}" y="{_LEGEND + 12:.1f}">depth {d}</text>'
                    for d in range(levels))
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="skeleton-diagram" width="{width}" '
             f'height="{full:.0f}" viewBox="0 0 {width} {full:.0f}" role="img" data-boxes="{len(boxes)}">',
             f"<title>{markup_text(title or 'Skeleton of ' + str(tree['url']))}</title>",
             f"<style>{STYLE}</style>", legend_svg(marks, broken, width), heads,
             *(_box_svg(box, top) for box in boxes)]
    if orphans:
        parts.append(orphans_svg(orphan_groups(orphans, str(tree["url"])), top + height + 8, width))
    parts.append("</svg>\n")
    return "".join(parts)


#: The layout of :func:`icicle` in JavaScript, interactive (see the module).
#: ``skeletonDiagram(svg, root, options)``: ``root`` in the viewer's compact form
#: ``[url, title, status, children, mark]``; returns ``{search(text), draw()}``.
SCRIPT = r"""
function skeletonDiagram(svg, root, options) {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var W = options.width || 1000, H = options.height || 640, MIN = options.minHeight || 14;
  var LEVELS = options.levels || 6, MAX = options.maxShapes || 400, TOP = 18;
  var PALETTE = ["#9ecae1", "#a1d99b", "#fdd0a2", "#bcbddc", "#fcbba1", "#c7e9c0", "#d9d9d9", "#fee391",
                 "#c6dbef", "#dadaeb"];
  var MARKS = {added: "#74c476", removed: "#fb6a4a", moved: "#fd8d3c"};
  var info = new Map(), order = [], stack = [[root, null, 0]];
  while (stack.length) {
    var item = stack.pop(), node = item[0];
    info.set(node, {parent: item[1], depth: item[2], pages: 1, broken: node[2] ? 1 : 0, levels: 0});
    order.push(node);
    for (var i = 0; i < node[3].length; i++) { stack.push([node[3][i], node, item[2] + 1]); }
  }
  for (var k = order.length - 1; k >= 0; k--) {
    var own = info.get(order[k]), above = own.parent && info.get(own.parent);
    if (above) { above.pages += own.pages; above.broken += own.broken; above.levels = Math.max(above.levels, own.levels + 1); }
  }
  var view = {node: root, subset: null}, hits = null, within = null, boxes = [];
  function bySize(a, b) { return info.get(b).pages - info.get(a).pages || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0); }
  function layout() {
    var top = view.node, kids0 = view.subset, base = info.get(top);
    var below = kids0 ? Math.max.apply(null, kids0.map(function (c) { return info.get(c).levels + 1; })) : base.levels;
    var levels = Math.min(LEVELS, below + 1), col = W / levels;
    var first = {kind: "node", node: top, depth: base.depth, x: 0, y: 0, w: col, h: H, section: -1,
                 pages: base.pages, broken: base.broken, kids: kids0};
    var out = [first], frontier = [first];
    for (var level = 1; level < levels; level++) {
      var added = [];
      frontier.forEach(function (box) {
        var kids = (box.kids || box.node[3]).slice().sort(bySize);
        var total = 0; kids.forEach(function (c) { total += info.get(c).pages; });
        var y = box.y;
        for (var i = 0; i < kids.length; i++) {
          var h = box.h * info.get(kids[i]).pages / total;
          if (h < MIN) {
            // the box opened: its small children get MIN each while room is left for
            // the rest, so opening a "+N more" box always shows some of them
            if (level !== 1 || box.y + box.h - y < MIN * (i < kids.length - 1 ? 2 : 1)) { break; }
            h = MIN;
          }
          var c = info.get(kids[i]);
          added.push({kind: "node", node: kids[i], depth: c.depth, x: level * col, y: y, w: col, h: h,
                      section: level === 1 ? added.length % PALETTE.length : box.section,
                      pages: c.pages, broken: c.broken});
          y += h;
        }
        if (i < kids.length) {
          var rest = kids.slice(i), pages = 0, broken = 0;
          rest.forEach(function (c) { pages += info.get(c).pages; broken += info.get(c).broken; });
          added.push({kind: "more", node: box.node, items: rest, depth: box.depth + 1, x: level * col, y: y,
                      w: col, h: box.y + box.h - y, section: box.section, pages: pages, broken: broken,
                      collapsed: true});
        }
      });
      if (out.length + added.length > MAX) { break; }
      out.push.apply(out, added);
      frontier = added.filter(function (b) { return b.kind === "node"; });
    }
    frontier.forEach(function (b) { b.collapsed = b.node[3].length > 0; });
    return out;
  }
  function el(name, attrs, parent) {
    var e = document.createElementNS(NS, name);
    for (var a in attrs) { e.setAttribute(a, attrs[a]); }
    if (parent) { parent.appendChild(e); }
    return e;
  }
  function fit(text, width, size) {
    var room = Math.max(0, Math.floor((width - 8) / (size * 0.55)));
    return text.length <= room ? text : (room > 1 ? text.slice(0, room - 1) + "\u2026" : "");
  }
  function marksBelow(box) {
    var counts = {}, list = box.kind === "more" ? box.items : [box.node], todo = list.slice();
    while (todo.length) {
      var n = todo.pop();
      if (n[4]) { counts[n[4]] = (counts[n[4]] || 0) + 1; }
      for (var i = 0; i < n[3].length; i++) { todo.push(n[3][i]); }
    }
    return counts;
  }
  function draw() {
    boxes = layout();
    while (svg.firstChild) { svg.removeChild(svg.firstChild); }
    svg.setAttribute("viewBox", "0 0 " + W + " " + (H + TOP));
    svg.setAttribute("width", W);
    svg.setAttribute("height", H + TOP);
    var levels = 0, col = boxes[0].w;
    boxes.forEach(function (b) { levels = Math.max(levels, b.depth - info.get(view.node).depth + 1); });
    for (var d = 0; d < levels; d++) {
      el("text", {"class": "head", x: d * col + 4, y: 12}, svg).textContent = "depth " + (info.get(view.node).depth + d);
    }
    boxes.forEach(function (b, index) {
      var node = b.node, g = el("g", {"class": "node"}, svg);
      var key = b.kind === "more" ? "more:" + node[0] : node[0];
      g.setAttribute("data-key", key);
      g.setAttribute("data-url", b.kind === "more" ? "" : node[0]);
      g.setAttribute("data-depth", b.depth);
      g.setAttribute("data-pages", b.pages);
      var mark = b.kind === "node" ? (node[4] || "") : "";
      var cls = ["box", b.kind];
      if (b.kind === "node" && node[2]) { cls.push("broken"); } else if (b.broken) { cls.push("has-broken"); }
      if (b.collapsed) { cls.push("collapsed"); }
      if (mark) { cls.push(mark); }
      var hit = hits && b.kind === "node" && hits.has(node);
      var inside = hits && !hit && (b.kind === "more" ? b.items.some(function (c) { return within.has(c); })
                                                      : b.collapsed && within.has(node) && !hits.has(node));
      if (hit) { cls.push("hit"); } else if (inside) { cls.push("has-hit"); }
      var fill = mark ? MARKS[mark] : (b.kind === "node" && node[2]) ? "#e34a33" : b.kind === "more" ? "#eeeeee"
               : b.section < 0 ? "#f7f7f7" : PALETTE[b.section % PALETTE.length];
      var x = b.x, y = TOP + b.y;
      el("rect", {"class": cls.join(" "), x: x.toFixed(1), y: y.toFixed(1), width: Math.max(b.w - 1, 0.5).toFixed(1),
                  height: Math.max(b.h - 1, 0.5).toFixed(1), fill: fill}, g);
      var label = b.kind === "more" ? "+" + b.items.length + " more" : (node[1] || node[0]);
      var changes = marksBelow(b), signs = [];
      [["added", "+"], ["removed", "\u2212"], ["moved", "~"]].forEach(function (m) {
        if (changes[m[0]]) { signs.push(m[1] + changes[m[0]]); }
      });
      var tip = [b.kind === "more" ? b.items.length + " sections drawn together (click to open)" : label];
      if (b.kind === "node") { tip.push(node[0]); }
      tip.push("depth " + b.depth + ", " + b.pages + (b.pages === 1 ? " page" : " pages"));
      if (b.kind === "node" && node[2]) { tip.push("broken: " + node[2]); } else if (b.broken) { tip.push(b.broken + " broken"); }
      if (mark) { tip.push(mark); }
      if (signs.length) { tip.push("changes below: " + signs.join(" ")); }
      el("title", {}, g).textContent = tip.join(" \u2014 ");
      if (b.h >= 13) {
        el("text", {x: (x + 4).toFixed(1), y: (y + Math.min(b.h / 2, 14) + 3.5).toFixed(1)}, g).textContent =
          fit(label + (b.collapsed && b.kind === "node" ? " \u25b8" : ""), b.w, 11);
      }
      if (b.h >= 31) {
        var extra = b.pages + (b.pages === 1 ? " page" : " pages") + (b.broken ? ", " + b.broken + " broken" : "") +
                    (signs.length ? "  " + signs.join(" ") : "");
        el("text", {"class": "count", x: (x + 4).toFixed(1), y: (y + 27.5).toFixed(1)}, g).textContent = fit(extra, b.w, 10);
      }
      g.addEventListener("click", function () { open(b); });
    });
    svg.setAttribute("data-boxes", boxes.length);
    if (options.onDraw) { options.onDraw(view, info.get(view.node)); }
  }
  function open(b) {
    if (b.kind === "more") { view = {node: b.node, subset: b.items}; }
    else if (b.node === view.node && !view.subset) { return up(); }
    else if (b.node[3].length) { view = {node: b.node, subset: null}; }
    else { return; }
    draw();
  }
  function up() {
    if (view.subset) { view = {node: view.node, subset: null}; }
    else if (info.get(view.node).parent) { view = {node: info.get(view.node).parent, subset: null}; }
    else { return; }
    draw();
  }
  function search(text) {
    var query = text.trim().toLowerCase();
    if (!query) { hits = null; within = null; draw(); return 0; }
    hits = new Set(); within = new Set();
    order.forEach(function (n) {
      if ((n[1] || "").toLowerCase().indexOf(query) >= 0 || n[0].toLowerCase().indexOf(query) >= 0) {
        hits.add(n);
        for (var a = n; a && !within.has(a); a = info.get(a).parent) { within.add(a); }
      }
    });
    draw();
    return hits.size;
  }
  return {draw: draw, search: search, up: up, open: open, boxes: function () { return boxes; },
          pages: info.get(root).pages};
}
"""
