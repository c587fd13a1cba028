"""A fixture single-page application: every page's links are written by a script.

Each page is an HTML file with an empty ``<nav>`` and ``<main>`` and one inline
script holding the site as a JSON object (no resource outside the page): the
script fills the menu (the sections, on every page), a section page's list of
its articles and an article's text. Served as is, no page has a link: a plain
crawl gives a tree of one node; rendered, the tree is home -> sections ->
articles (:func:`truth`). Built into a directory by :func:`build` (tests and
``benchmarks/render_cost.py``).
"""
from __future__ import annotations

import json
from pathlib import Path

__all__ = ["SECTIONS", "build", "truth"]

#: section slug -> its articles' slugs
SECTIONS = {
    "rivers": ["danube", "rhine", "elbe", "oder", "main"],
    "mountains": ["alps", "tatra", "harz", "eifel", "jura"],
    "forests": ["black-forest", "bavarian-forest", "spessart", "hainich", "odenwald"],
    "lakes": ["constance", "chiemsee", "mueritz", "starnberg", "ammersee"],
}

_SCRIPT = """
const SITE = %s;
const here = location.pathname.endsWith("/") ? location.pathname + "index.html" : location.pathname;
const link = (href, text) => { const a = document.createElement("a"); a.href = href; a.textContent = text; return a; };
const list = (items) => { const ul = document.createElement("ul");
  for (const [href, text] of items) { const li = document.createElement("li"); li.appendChild(link(href, text)); ul.appendChild(li); }
  return ul; };
const title = (slug) => slug.split("-").map(w => w[0].toUpperCase() + w.slice(1)).join(" ");
document.getElementById("menu").appendChild(list(
  [["/index.html", "Home"], ...Object.keys(SITE.sections).map(s => ["/" + s + "/index.html", title(s)])]));
const main = document.getElementById("main");
const heading = document.createElement("h1"); main.appendChild(heading);
const parts = here.split("/").filter(Boolean);
if (parts.length === 1) {
  heading.textContent = "Landscapes of Germany";
  main.appendChild(list(Object.keys(SITE.sections).map(s => ["/" + s + "/index.html", "All about " + title(s)])));
} else if (parts[1] === "index.html") {
  heading.textContent = title(parts[0]);
  main.appendChild(list(SITE.sections[parts[0]].map(a => ["/" + parts[0] + "/" + a + ".html", title(a)])));
} else {
  const slug = parts[1].replace(".html", "");
  heading.textContent = title(slug);
  for (let i = 0; i < 3; i++) { const p = document.createElement("p");
    p.textContent = title(slug) + " is one of the landscapes of " + title(parts[0]).toLowerCase() +
      " described here. Paragraph " + (i + 1) + " tells its story in a few plain sentences."; main.appendChild(p); }
}
"""

_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Landscapes</title></head>
<body><header><nav id="menu"></nav></header><main id="main"></main>
<footer><p>Landscapes of Germany, a single-page application fixture.</p></footer>
<script>%s</script></body></html>
"""


def _pages() -> list[str]:
    pages = ["index.html"]
    for section, articles in SECTIONS.items():
        pages.append(f"{section}/index.html")
        pages.extend(f"{section}/{article}.html" for article in articles)
    return pages


def build(directory: Path) -> Path:
    """Write the site's pages into ``directory``; returns it."""
    script = _SCRIPT % json.dumps({"sections": SECTIONS})
    for page in _pages():
        path = directory / page
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_PAGE % script, "utf-8")
    return directory


def truth(base: str) -> dict:
    """The site's true tree served at ``base`` (``http://host:port/``), as
    ``scrapy evaluate --truth`` reads it."""
    edges = []
    for section, articles in SECTIONS.items():
        edges.append([f"{base}index.html", f"{base}{section}/index.html"])
        edges.extend([f"{base}{section}/index.html", f"{base}{section}/{article}.html"] for article in articles)
    return {"root": f"{base}index.html", "edges": edges, "meta": {"not_in_tree": []}}
