"""VuePress 2 (rc) with @vuepress/theme-default and the Vite bundler.

Sites:

* ``vuepress-home``: the theme's home layout (hero, action buttons, features; no sidebar)
  whose navbar links each top-level section; one sidebar per section (a sidebar object keyed
  by the section's path) whose groups have their own pages (``link``) and collapse.
* ``vuepress-sidebar``: one global sidebar with the whole tree on every page, the home page an
  ordinary page that is the sidebar's first item, groups that do not collapse, depth 4.
* ``vuepress-dropdowns``: navbar dropdown menus (labels, not pages) listing the top-level
  sections, one sidebar per section with non-collapsible groups and the pages' own headings.

Truth from the content model we write (the sidebar config): a group's ``link`` page is the
group's node and its ``children`` are its children; the top-level sections hang from home
(the navbar links them in ``vuepress-home`` and ``vuepress-dropdowns``, the sidebar shown on the home page in
``vuepress-sidebar``). ``README.md`` is written as ``index.html``, ``x.md`` as ``x.html``.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from farm.check import url_of
from farm.content import DocNode, doc_tree

FAMILY = "vuepress"
KIND = "docs"
GENERATOR = "VuePress 2.0.0-rc.26 (@vuepress/bundler-vite)"
SITES = {
    "vuepress-home": "VuePress 2.0.0-rc.26, @vuepress/theme-default 2.0.0-rc.124: home layout with hero "
                     "and features, navbar links to the top-level sections, one sidebar per section with "
                     "collapsible linked groups, depth 3",
    "vuepress-sidebar": "VuePress 2.0.0-rc.26, @vuepress/theme-default 2.0.0-rc.124: one global sidebar "
                        "with the whole tree on every page (non-collapsible linked groups), the home page is "
                        "an ordinary page in the sidebar, depth 4",
    "vuepress-dropdowns": "VuePress 2.0.0-rc.26, @vuepress/theme-default 2.0.0-rc.124: navbar dropdown menus "
                          "(Guides, Reference) listing the top-level sections, one sidebar per section with "
                          "non-collapsible groups and page headings (sidebarDepth 2), the home page a plain "
                          "page, depth 3",
}
VERSIONS = {"vuepress": "2.0.0-rc.26", "@vuepress/bundler-vite": "2.0.0-rc.26",
            "@vuepress/theme-default": "2.0.0-rc.124"}


def _route(n: DocNode) -> str:
    """The page path VuePress gives the node's Markdown file."""
    if not n.path:
        return "/"
    return f"/{n.path}/" if n.children else f"/{n.path}.html"


def _file(route: str) -> str:
    return route[1:] + "index.html" if route.endswith("/") else route[1:]


def _write(docs: Path, n: DocNode, front: str = "", headings: bool = False) -> None:
    f = docs / (f"{n.path}/README.md".lstrip("/") if n.children or not n.path else f"{n.path}.md")
    f.parent.mkdir(parents=True, exist_ok=True)
    body = n.body
    if headings:  # "## " headings (the sidebar lists them as #anchors of the page)
        body = [f"## {' '.join(p.split()[1:4]).rstrip('.').capitalize()} {i}\n\n{p}" for i, p in enumerate(body, 1)]
    f.write_text(f"---\ntitle: {json.dumps(n.title)}\n{front}---\n\n# {n.title}\n\n"
                 + "\n\n".join(body) + "\n", encoding="utf-8")


def _item(n: DocNode, collapsible: bool):
    if not n.children:
        return _route(n)
    return {"text": n.title, "link": _route(n), "collapsible": collapsible,
            "children": [_item(c, collapsible) for c in n.children]}


def _config(title: str, description: str, navbar, sidebar, sidebar_depth: int) -> str:
    theme = {"navbar": navbar, "sidebar": sidebar, "sidebarDepth": sidebar_depth,
             "colorModeSwitch": False, "contributors": False, "lastUpdated": False, "editLink": False,
             # git log, canonical/OG tags and the sitemap are off: no hostname, no history
             "themePlugins": {"git": False, "seo": False, "sitemap": False, "linksCheck": False}}
    return f"""// Farm site: written by farm/families/vuepress.py
import {{ viteBundler }} from "@vuepress/bundler-vite";
import {{ defaultTheme }} from "@vuepress/theme-default";
import {{ defineUserConfig }} from "vuepress";

export default defineUserConfig({{
  lang: "en-US",
  title: {json.dumps(title)},
  description: {json.dumps(description)},
  // the theme's client code (plugin-git's styles) must be bundled for the server render too:
  // the family's node_modules are linked in from the tools cache, outside the site's root
  bundler: viteBundler({{ viteOptions: {{ ssr: {{ noExternal: [/^@vuepress\\//] }} }} }}),
  theme: defaultTheme({json.dumps(theme, indent=2)}),
}});
"""


def _build(src: Path, out: Path, tools) -> None:
    (src / "package.json").write_text(json.dumps({"name": "farm-site", "private": True, "type": "module"}) + "\n")
    nm = src / "node_modules"
    if not nm.exists():
        nm.symlink_to(Path(tools.node_bin("vuepress")).parent.parent)
    tools.run(tools.node_bin("vuepress"), "build", "docs", "--dest", str(src / "dist"), "--clean-cache",
              "--clean-temp", cwd=src, env={"SOURCE_DATE_EPOCH": "1704067200"})
    shutil.copytree(src / "dist", out, dirs_exist_ok=True)


def build(name: str, out: Path, tools) -> dict:
    src = out.parent / (name + ".src")
    shutil.rmtree(src, ignore_errors=True)
    docs = src / "docs"
    depth = 0  # sidebarDepth: how many heading levels the sidebar lists under a page
    if name == "vuepress-home":
        root = doc_tree(name, sections=(4, 6), pages=(3, 6), depth=3, branch_share=0.4)
        for n in root.walk():
            if n is root:
                acts = [{"text": root.children[0].title, "link": _route(root.children[0]), "type": "primary"}]
                feats = [{"title": c.title, "details": c.body[0][:160]} for c in root.children[:3]]
                front = ("home: true\nheroText: " + json.dumps(root.title) + "\ntagline: "
                         + json.dumps(root.body[0][:120]) + "\nactions: " + json.dumps(acts)
                         + "\nfeatures: " + json.dumps(feats) + "\nfooter: Synthetic content\n")
                _write(docs, n, front)
            else:
                _write(docs, n)
        navbar = [{"text": c.title, "link": _route(c)} for c in root.children]
        sidebar = {_route(c): [_item(c, True)] for c in root.children}
        desc = "home layout, navbar sections, a sidebar per section"
        method = ("sidebar object written from the doc tree, one sidebar per top-level section: a group's "
                  "link page is its node, its children its children; the navbar links the sections from "
                  "the home layout page")
    elif name == "vuepress-dropdowns":
        root = doc_tree(name, sections=(6, 8), pages=(3, 6), depth=3, branch_share=0.45)
        for n in root.walk():
            _write(docs, n, headings=True)
        half = (len(root.children) + 1) // 2
        navbar = [{"text": "Guides", "children": [{"text": c.title, "link": _route(c)} for c in root.children[:half]]},
                  {"text": "Reference", "children": [{"text": c.title, "link": _route(c)}
                                                     for c in root.children[half:]]}]
        sidebar = {_route(c): [_item(c, False)] for c in root.children}
        sidebar["/"] = ["/"]
        desc = "navbar dropdowns, a sidebar per section with page headings"
        method = ("navbar dropdowns (Guides, Reference: labels, not pages) link the top-level sections from "
                  "home; one sidebar per section written from the doc tree: a group's link page is its "
                  "node, its children its children (heading anchors in the sidebar are the same page)")
        depth = 2
    else:
        root = doc_tree(name, sections=(5, 7), pages=(2, 5), depth=4, branch_share=0.35)
        for n in root.walk():
            _write(docs, n)
        navbar = [{"text": "Home", "link": "/"}, {"text": root.children[0].title, "link": _route(root.children[0])}]
        sidebar = ["/"] + [_item(c, False) for c in root.children]
        desc = "one global sidebar"
        method = ("sidebar array written from the doc tree: the home page is its first item, a group's link "
                  "page is its node, its children its children")
    (docs / ".vuepress").mkdir(parents=True, exist_ok=True)
    (docs / ".vuepress" / "config.js").write_text(_config(root.title, desc, navbar, sidebar, depth))
    _build(src, out, tools)
    u = {n.path: url_of(_file(_route(n))) for n in root.walk()}
    return {"root": u[""], "edges": [[u[p.path], u[c.path]] for p, c in root.edges()],
            "meta": {"not_in_tree": [url_of("404.html")], "truth_method": method,
                     "theme": "@vuepress/theme-default 2.0.0-rc.124", "versions": VERSIONS}}
