"""VitePress documentation sites: ``farm.content.doc_tree`` rendered as Markdown pages with
the default theme's sidebar built from the same tree (``vitepress build``, npm package
``vitepress``).

Every section of the tree is a folder with an ``index.md`` that is the ``link`` of its
sidebar group (a group heading without a link could not be a node); its pages are the
group's ``items``, sub-sections nested groups. The sidebar shows the whole tree (or the
whole top section, with a per-section sidebar) on every page, so by the truth rule a page
hangs from the innermost group that lists it: the truth is ``DocNode.children`` of the
content model, the same tree the sidebar config is written from.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from farm.check import url_of
from farm.content import doc_tree

FAMILY = "vitepress"
KIND = "docs"
GENERATOR = "VitePress 1.6.4"

SITES = {
    "vitepress-sidebar": "VitePress 1.6.4 default theme, cleanUrls off (links to .html files): one "
                         "sidebar with the whole tree on every page, nested collapsible groups (all "
                         "open) whose headings link their section's index page; nav bar with home only; section pages "
                         "have no table of contents of their own (the sidebar is the only listing).",
    "vitepress-clean": "VitePress 1.6.4 default theme, cleanUrls on (extensionless links to NAME.html): "
                       "a per-section sidebar (keyed by the top section's path) with nested groups "
                       "down to depth 4, deeper groups collapsed; nav bar linking the top sections; each "
                       "section's index page also lists its pages (a Markdown table of contents).",
    "vitepress-collapsed": "VitePress 1.6.4 default theme, cleanUrls on: one whole-tree sidebar on "
                           "every page, depth 4, every group below the top sections collapsed (links "
                           "present in the HTML, folded); nav bar with a Sections dropdown; no tables "
                           "of contents on section pages.",
}

CONF = {
    "vitepress-sidebar": dict(tree=dict(sections=(5, 7), pages=(3, 6), depth=3, branch_share=0.35),
                              clean=False, multi=False, fold=99, toc=False),
    "vitepress-clean": dict(tree=dict(sections=(4, 5), pages=(3, 6), depth=4, branch_share=0.3),
                            clean=True, multi=True, fold=3, toc=True),
    "vitepress-collapsed": dict(tree=dict(sections=(5, 7), pages=(3, 6), depth=4, branch_share=0.3),
                                clean=True, multi=False, fold=2, toc=False, dropdown=True),
}


def _file(node) -> str:
    """The Markdown source of a node (relative to the docs folder)."""
    if not node.path:
        return "index.md"
    return f"{node.path}/index.md" if node.children else f"{node.path}.md"


def _link(node) -> str:
    return "/" + (f"{node.path}/" if node.children else node.path) if node.path else "/"


def _item(node, level: int, fold: int) -> dict:
    """A sidebar entry: a page, or a group whose heading links the section's index page
    (collapsible; collapsed from level ``fold`` down)."""
    if not node.children:
        return {"text": node.title, "link": _link(node)}
    return {"text": node.title, "link": _link(node), "collapsed": level >= fold,
            "items": [_item(c, level + 1, fold) for c in node.children]}


def build(name: str, out: Path, tools) -> dict:
    c = CONF[name]
    root = doc_tree(name, **c["tree"])
    src = out.parent / (name + ".src")
    shutil.rmtree(src, ignore_errors=True)
    docs = src / "docs"
    (docs / ".vitepress").mkdir(parents=True)
    (src / "package.json").write_text(json.dumps({"name": name, "private": True, "type": "module"}))
    (src / "node_modules").symlink_to(tools.npm / "node_modules")

    for node in root.walk():
        f = docs / _file(node)
        f.parent.mkdir(parents=True, exist_ok=True)
        text = f"# {node.title}\n\n" + "\n\n".join(node.body) + "\n"
        if node.children and c["toc"]:  # the section's own table of contents
            text += "\n## Contents\n\n" + "".join(f"- [{k.title}]({_link(k)})\n" for k in node.children)
        f.write_text(text)

    if c["multi"]:
        sidebar = {_link(s): [_item(s, 1, c["fold"])] for s in root.children if s.children}
        sidebar["/"] = [{"text": root.title, "link": "/",
                         "items": [{"text": s.title, "link": _link(s)} for s in root.children]}]
        nav = [{"text": "Home", "link": "/"}] + [{"text": s.title, "link": _link(s)} for s in root.children]
    else:
        sidebar = [{"text": root.title, "link": "/", "collapsed": False,
                    "items": [_item(s, 1, c["fold"]) for s in root.children]}]
        nav = [{"text": "Home", "link": "/"}]
        if c.get("dropdown"):
            nav.append({"text": "Sections", "items": [{"text": k.title, "link": _link(k)} for k in root.children]})
    config = {
        "title": root.title, "description": f"{root.title} (synthetic)", "lang": "en-US",
        "cleanUrls": c["clean"], "lastUpdated": False, "appearance": True,
        "themeConfig": {"nav": nav, "sidebar": sidebar, "outline": [2, 3],
                        "docFooter": {"prev": "Previous page", "next": "Next page"}},
    }
    (docs / ".vitepress" / "config.mjs").write_text("export default " + json.dumps(config, indent=1) + "\n")
    env = {"SOURCE_DATE_EPOCH": "1704067200", "TZ": "UTC", "VITE_CJS_IGNORE_WARNING": "1"}
    tools.run(tools.node_bin("vitepress"), "build", "docs", cwd=src, env=env)
    shutil.rmtree(out)
    shutil.copytree(docs / ".vitepress" / "dist", out)

    def url(node) -> str:
        return url_of(_file(node)[:-3] + ".html")

    edges = [[url(p), url(k)] for p, k in root.edges()]
    return {"root": url(root), "edges": edges,
            "meta": {"not_in_tree": [url_of("404.html")],
                     "truth_method": "DocNode.children of the content model, from which the sidebar "
                                     "config (nested groups linking their section index.md) was written",
                     "theme": "VitePress default theme (vitepress 1.6.4)",
                     "versions": {"vitepress": "1.6.4", "vue": "3.5.13"},
                     "clean_urls": c["clean"]}}
