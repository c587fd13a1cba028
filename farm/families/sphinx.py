"""Sphinx sites: one reST document per DocNode, each section a document whose toctree
lists its children; one theme (and builder) per site.

The truth is the toctree tree as written into the sources (parent document -> the
documents its ``.. toctree::`` lists), mapped to the HTML files the builder writes
for those documents (``html``: ``a/b.html``; ``dirhtml``: ``a/b/index.html``).
"""
from __future__ import annotations

import shutil
from pathlib import Path

from farm.check import url_of
from farm.content import DocNode, doc_tree

FAMILY = "sphinx"
KIND = "docs"
GENERATOR = "Sphinx 8.2.3"
APT: list[str] = []

# name: (html_theme, builder, doc_tree kwargs, toctree options, html_theme_options, extra conf)
CONFIG = {
    "sphinx-alabaster": dict(
        theme="alabaster", builder="html", version="alabaster 1.0.0",
        tree=dict(sections=(6, 8), pages=(3, 6), depth=3),
        toctree=[":maxdepth: 2"],
        options={"show_related": True},
        extra="html_sidebars = {'**': ['about.html', 'navigation.html', 'relations.html', 'searchbox.html']}\n",
        desc="alabaster 1.0.0 (Sphinx's default theme): sidebar with the global toctree "
             "(current branch expanded), body toctrees of depth 2, depth 3"),
    "sphinx-rtd": dict(
        theme="sphinx_rtd_theme", builder="html", version="sphinx_rtd_theme 3.1.0",
        tree=dict(sections=(5, 7), pages=(3, 7), depth=4, branch_share=0.45),
        toctree=[":maxdepth: 1"],
        options={"collapse_navigation": True, "navigation_depth": 4, "titles_only": False},
        extra="",
        desc="sphinx_rtd_theme 3.1.0: collapsing left sidebar of the global toctree, "
             "breadcrumbs, prev/next; body toctrees of depth 1; depth 4, the largest site"),
    "sphinx-furo": dict(
        theme="furo", builder="dirhtml", version="furo 2025.12.19",
        tree=dict(sections=(4, 6), pages=(3, 8), depth=3),
        toctree=[":maxdepth: 1", ":titlesonly:"],
        options={},
        extra="",
        desc="furo 2025.12.19 with the dirhtml builder (pages are dir/index.html): "
             "collapsible sidebar tree of the whole site, body toctrees of depth 1; depth 3"),
    "sphinx-pydata": dict(
        theme="pydata_sphinx_theme", builder="html", version="pydata-sphinx-theme 0.20.0",
        tree=dict(sections=(5, 8), pages=(4, 8), depth=3, branch_share=0.3),
        toctree=[":maxdepth: 2"],
        options={"navigation_depth": 3, "show_nav_level": 1, "header_links_before_dropdown": 5,
                 "show_toc_level": 1, "navigation_with_keys": False},
        extra="",
        desc="pydata-sphinx-theme 0.20.0: top navbar of the top-level sections (some in a "
             "'More' dropdown), left sidebar of the current section, body toctrees of depth 2; depth 3"),
    "sphinx-book": dict(
        theme="sphinx_book_theme", builder="html", version="sphinx-book-theme 1.4.0",
        tree=dict(sections=(8, 12), pages=(4, 9), depth=2),
        toctree=[":maxdepth: 1"],
        options={"home_page_in_toc": True, "show_navbar_depth": 1},
        extra="",
        desc="sphinx-book-theme 1.4.0: book-style left sidebar of the whole toctree "
             "(first level open), many top-level sections, depth 2"),
    "sphinx-piccolo": dict(
        theme="piccolo_theme", builder="html", version="piccolo_theme 0.24.0",
        tree=dict(sections=(3, 5), pages=(2, 5), depth=4, branch_share=0.5),
        toctree=[":maxdepth: 1"],
        options={"globaltoc_collapse": True},
        extra="",
        desc="piccolo_theme 0.24.0: top bar, left global toctree sidebar, body toctrees "
             "of depth 1; few top sections, deep (depth 4)"),
    "sphinx-press": dict(
        theme="press", builder="dirhtml", version="sphinx_press_theme 0.9.1",
        tree=dict(sections=(7, 9), pages=(4, 7), depth=2),
        toctree=[":maxdepth: 2", ":numbered:"],
        options={},
        extra="",
        desc="sphinx_press_theme 0.9.1 (VuePress look) with the dirhtml builder: sidebar of "
             "the global toctree, section numbers (a :numbered: root toctree), body toctrees of depth 2; depth 2"),
    "sphinx-material": dict(
        theme="sphinx_material", builder="html", version="sphinx-material 0.0.36",
        tree=dict(sections=(4, 6), pages=(3, 6), depth=3),
        toctree=[":maxdepth: 1"],
        options={"nav_title": "Documentation", "globaltoc_depth": 2, "globaltoc_collapse": True,
                 "globaltoc_includehidden": False, "master_doc": False, "nav_links": []},
        extra="html_sidebars = {'**': ['logo-text.html', 'globaltoc.html', 'localtoc.html', 'searchbox.html']}\n",
        desc="sphinx-material 0.0.36 (Material Design): top tabs of the top-level sections, "
             "collapsed global toctree sidebar, body toctrees of depth 1; depth 3"),
}

SITES = {name: f"Sphinx 8.2.3, {c['desc']}" for name, c in CONFIG.items()}


def _docname(node: DocNode) -> str:
    """Sections are folder/index documents, leaves plain documents."""
    if node.children:
        return f"{node.path}/index" if node.path else "index"
    return node.path


def _rst(node: DocNode, toctree: list[str]) -> str:
    lines = [node.title, "=" * len(node.title), ""]
    lines += [p + "\n" for p in node.body]
    if node.children:
        here = _docname(node).rsplit("/", 1)[0] + "/" if "/" in _docname(node) else ""
        # :numbered: goes on the root toctree only (it numbers the whole tree below it)
        opts = [o for o in toctree if node.path == "" or o != ":numbered:"]
        lines += [".. toctree::"] + [f"   {o}" for o in opts] + [""]
        for c in node.children:
            lines.append(f"   {_docname(c)[len(here):]}")
        lines.append("")
    return "\n".join(lines) + "\n"


def build(name: str, out: Path, tools) -> dict:
    cfg = CONFIG[name]
    root = doc_tree(name, **cfg["tree"])
    src = out.parent / (name + ".src")
    shutil.rmtree(src, ignore_errors=True)
    src.mkdir(parents=True)
    for node in root.walk():
        f = src / (_docname(node) + ".rst")
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(_rst(node, cfg["toctree"]))
    (src / "conf.py").write_text(
        f"project = {root.title.removesuffix(' Documentation')!r}\n"
        "author = 'Farm Writers'\n"
        "copyright = '2024, Farm Writers'\n"
        "release = version = '1.0'\n"
        "extensions = []\n"
        "language = 'en'\n"
        f"html_theme = {cfg['theme']!r}\n"
        f"html_theme_options = {cfg['options']!r}\n"
        "html_last_updated_fmt = None\n"
        "html_show_sourcelink = True\n"
        "html_static_path = []\n"
        "html_title = project\n"
        + cfg["extra"])
    builder = cfg["builder"]
    tools.run(tools.bin("sphinx-build"), "-b", builder, "-E", "-a", "-q", "-j", "1",
              "-d", str(src / "_doctrees"), str(src), str(out),
              cwd=src, env={"SOURCE_DATE_EPOCH": "1704067200"})
    shutil.rmtree(src)

    def url(node: DocNode) -> str:
        d = _docname(node)
        if builder == "dirhtml" and not (d == "index" or d.endswith("/index")):
            return url_of(d + "/index.html")
        return url_of(d + ".html")

    extra = ["genindex", "search"]
    not_in_tree = [url_of(f"{p}/index.html" if builder == "dirhtml" else f"{p}.html") for p in extra]
    not_in_tree = [u for u in not_in_tree if (out / u.split("8000/", 1)[1]).is_file()]
    # template macro files some themes copy into _static (never linked, not pages)
    not_in_tree += sorted(url_of(str(f.relative_to(out))) for f in (out / "_static").rglob("*.html"))
    return {
        "root": url(root),
        "edges": [[url(p), url(c)] for p, c in root.edges()],
        "meta": {
            "not_in_tree": not_in_tree,
            "truth_method": "the toctree tree of the reST sources the family wrote from "
                            "farm.content.doc_tree (each section document's .. toctree:: lists "
                            f"its children), mapped to the {builder} builder's output files",
            "theme": cfg["version"],
            "builder": builder,
            "versions": {"sphinx": "8.2.3", "theme": cfg["version"]},
        },
    }
