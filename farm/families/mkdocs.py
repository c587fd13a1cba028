"""MkDocs sites: Markdown pages and a ``nav:`` in mkdocs.yml written from a DocNode tree;
one theme (and URL style) per site.

Each section is a nav group whose first entry is the section's own ``index.md``; that
page also lists links to the section's children in its Markdown body, so that every
theme (even one whose menu does not expand deep levels) links a section to its pages.
The truth is the nav tree as written into mkdocs.yml (section index page -> the pages
and sub-section index pages of its group), mapped to the files MkDocs writes for them
(``use_directory_urls``: ``a/b/index.html``; without: ``a/b.html``).
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from farm.check import url_of
from farm.content import DocNode, doc_tree

FAMILY = "mkdocs"
KIND = "docs"
GENERATOR = "MkDocs 1.6.1"
APT: list[str] = []

CONFIG = {
    "mkdocs-mkdocs": dict(
        theme={"name": "mkdocs", "navigation_depth": 3}, dir_urls=True, version="mkdocs (built-in) 1.6.1",
        tree=dict(sections=(6, 8), pages=(4, 8), depth=2),
        desc="the built-in mkdocs theme (Bootstrap navbar with dropdown menus per section), "
             "directory URLs, section index pages listing their pages; depth 2"),
    "mkdocs-readthedocs": dict(
        theme={"name": "readthedocs", "collapse_navigation": True, "navigation_depth": 4},
        dir_urls=False, version="readthedocs (built-in) 1.6.1",
        tree=dict(sections=(4, 7), pages=(3, 6), depth=3),
        desc="the built-in readthedocs theme (collapsing left sidebar, breadcrumbs), .html "
             "URLs (use_directory_urls false); depth 3"),
    "mkdocs-material-tabs": dict(
        theme={"name": "material", "features": ["navigation.tabs", "navigation.indexes",
                                                "navigation.path", "navigation.top"]},
        dir_urls=True, version="mkdocs-material 9.8.2",
        tree=dict(sections=(4, 6), pages=(3, 7), depth=4, branch_share=0.35),
        desc="mkdocs-material 9.8.2 with navigation.tabs (top-level sections as tabs), "
             "navigation.indexes (section index pages), breadcrumbs; directory URLs; depth 4"),
    "mkdocs-material-sections": dict(
        theme={"name": "material", "features": ["navigation.sections", "navigation.indexes",
                                                "navigation.expand"],
               "palette": {"scheme": "slate", "primary": "teal"}},
        dir_urls=False, version="mkdocs-material 9.8.2",
        tree=dict(sections=(3, 5), pages=(4, 8), depth=3, branch_share=0.3),
        desc="mkdocs-material 9.8.2 without tabs: navigation.sections + navigation.expand "
             "(the whole tree in the left sidebar), navigation.indexes, slate palette; .html URLs; depth 3"),
    "mkdocs-cinder": dict(
        theme={"name": "cinder"}, dir_urls=False, version="mkdocs-cinder 1.2.0",
        tree=dict(sections=(5, 8), pages=(3, 7), depth=2),
        desc="mkdocs-cinder 1.2.0 (Bootstrap navbar with dropdowns), .html URLs; depth 2"),
    "mkdocs-flatly": dict(
        theme={"name": "flatly"}, dir_urls=True, version="mkdocs-bootswatch 1.1 (flatly)",
        tree=dict(sections=(4, 6), pages=(3, 6), depth=3),
        desc="mkdocs-bootswatch 1.1 flatly theme (navbar dropdowns), directory URLs; depth 3"),
    "mkdocs-windmill": dict(
        theme={"name": "windmill"}, dir_urls=False, version="mkdocs-windmill 1.0.5",
        tree=dict(sections=(3, 5), pages=(3, 6), depth=3, branch_share=0.5),
        desc="mkdocs-windmill 1.0.5 (collapsible sidebar tree, page content in the same "
             "document), .html URLs; depth 3"),
}

SITES = {name: f"MkDocs 1.6.1, {c['desc']}" for name, c in CONFIG.items()}


def _file(node: DocNode) -> str:
    if node.children:
        return f"{node.path}/index.md" if node.path else "index.md"
    return node.path + ".md"


def _nav(node: DocNode):
    """The nav entry of a section: its index page first, then its children."""
    items = [_file(node)]
    for c in node.children:
        items.append(_nav(c) if c.children else {c.title: _file(c)})
    return items if not node.path else {node.title: items}


def _md(node: DocNode) -> str:
    lines = [f"# {node.title}", ""]
    for p in node.body:
        lines += [p, ""]
    if node.children:
        here = _file(node).rsplit("index.md", 1)[0]
        lines += ["## In this section", ""]
        lines += [f"- [{c.title}]({_file(c)[len(here):]})" for c in node.children]
        lines.append("")
    return "\n".join(lines)


def build(name: str, out: Path, tools) -> dict:
    cfg = CONFIG[name]
    root = doc_tree(name, **cfg["tree"])
    src = out.parent / (name + ".src")
    shutil.rmtree(src, ignore_errors=True)
    (src / "docs").mkdir(parents=True)
    for node in root.walk():
        f = src / "docs" / _file(node)
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(_md(node))
    conf = {
        "site_name": root.title.removesuffix(" Documentation"),
        "site_description": "Synthetic documentation of the skeleton training farm",
        "copyright": "Copyright 2024 Farm Writers",
        "use_directory_urls": cfg["dir_urls"],
        "theme": cfg["theme"],
        "plugins": ["search"],
        "nav": _nav(root),
    }
    # JSON is YAML: mkdocs.yml written as one JSON document
    (src / "mkdocs.yml").write_text(json.dumps(conf, indent=1) + "\n")
    tools.run(tools.bin("mkdocs"), "build", "--quiet", "--clean", "--site-dir", str(out),
              cwd=src, env={"SOURCE_DATE_EPOCH": "1704067200", "NO_MKDOCS_2_WARNING": "1"})
    shutil.rmtree(src)

    def url(node: DocNode) -> str:
        f = _file(node)[:-3]
        if cfg["dir_urls"] and not (f == "index" or f.endswith("/index")):
            return url_of(f + "/index.html")
        return url_of(f + ".html")

    nodes = {url(n) for n in root.walk()}
    # the theme's own pages: 404, search results page, template files among its assets
    not_in_tree = sorted(u for u in (url_of(str(f.relative_to(out))) for f in out.rglob("*.html"))
                         if u not in nodes)
    return {
        "root": url(root),
        "edges": [[url(p), url(c)] for p, c in root.edges()],
        "meta": {
            "not_in_tree": not_in_tree,
            "truth_method": "the nav tree of the mkdocs.yml the family wrote from "
                            "farm.content.doc_tree (a section's group starts with its index.md, "
                            "which is the parent of the group's other entries), mapped to the "
                            "files MkDocs writes (use_directory_urls "
                            f"{str(cfg['dir_urls']).lower()})",
            "theme": cfg["version"],
            "use_directory_urls": cfg["dir_urls"],
            "versions": {"mkdocs": "1.6.1", "theme": cfg["version"]},
        },
    }
