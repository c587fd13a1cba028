"""The docs_sidebar test site (see ../build.py)."""
from __future__ import annotations

from common import (EXT, esc, slug, rel, paragraph, html5, Site)


# =========================================================== docs_sidebar
# Sphinx + Read the Docs theme: sidebar <nav> with ul.menu on every page,
# only the current branch expanded; body toctrees; "On this page" local
# contents (#fragments); prev/next footer; "Edit on GitHub"; version and
# language flyout (external).  All links relative.

DOCS = [
    ("Getting started", [
        ("Installation", []), ("Quickstart", []),
        ("Core concepts", ["Projects", "Pipelines", "Artifacts"]),
        ("Frequently asked questions", [])]),
    ("User guide", [
        ("Configuration", ["Configuration file reference", "Environment variables",
                           "Profiles and overrides"]),
        ("Command-line interface", []),
        ("Plugins", ["Writing your first plugin", "Plugin hook reference"]),
        ("Logging", []), ("Caching and incremental builds", [])]),
    ("API reference", [
        ("widgetkit.Client", []), ("widgetkit.Pipeline", []),
        ("widgetkit.storage", ["LocalStorage", "S3Storage"]),
        ("Exceptions", [])]),
    ("Deployment", [
        ("Running in Docker", []),
        ("Kubernetes", ["Installing with the Helm chart", "Autoscaling workers"]),
        ("Running as a systemd service", []), ("Monitoring and metrics", [])]),
    ("Community", [
        ("Contributing", ["Code style", "Running the test suite"]),
        ("Code of conduct", []), ("Release notes", [])]),
]
DOCS_HEADINGS = ["Overview", "Prerequisites", "Usage", "Examples", "Options", "Troubleshooting",
                 "See also", "How it works", "Limitations"]
DOCS_CSS = (".wy-nav-side{position:fixed;width:300px}.wy-nav-content-wrap{margin-left:300px}"
            ".menu .menu{display:none}.current>.menu{display:block}")


def docs_node(title, path, parent):
    node = {"title": title, "path": path, "parent": parent, "children": []}
    if parent:
        parent["children"].append(node)
    return node


def docs_model(rng):
    home = docs_node("Widgetkit documentation", "index.html", None)
    for sec_title, pages in DOCS:
        d = slug(sec_title)
        sec = docs_node(sec_title, f"{d}/index.html", home)
        for title, subs in pages:
            if not subs:
                docs_node(title, f"{d}/{slug(title)}.html", sec)
                continue
            page = docs_node(title, f"{d}/{slug(title)}/index.html", sec)
            for sub in subs:
                docs_node(sub, f"{d}/{slug(title)}/{slug(sub)}.html", page)
    order = []

    def walk(n):
        order.append(n)
        n["headings"] = rng.sample(DOCS_HEADINGS, rng.randint(2, 4))
        for c in n["children"]:
            walk(c)
    walk(home)
    return home, order


def docs_ancestors(node):
    chain = []
    while node:
        chain.insert(0, node)
        node = node["parent"]
    return chain


def docs_menu(items, level, chain, frm):
    """RTD sidebar: nested ul.menu, expanded only along `chain`."""
    out = []
    for n in items:
        cur = n in chain
        cls = f"toctree-l{level}" + (" current" if cur else "")
        href = "#" if n is frm else rel(frm["path"], n["path"])
        a = f'<a class="reference internal{" current" if cur else ""}" href="{href}">{esc(n["title"])}</a>'
        sub = ""
        if cur and n["children"]:
            sub = docs_menu(n["children"], level + 1, chain, frm)
        elif n is frm:
            sub = "".join(f'<li class="toctree-l{level + 1}"><a class="reference internal" '
                          f'href="#{slug(h)}">{h}</a></li>' for h in n["headings"])
            sub = f'<ul class="menu">{sub}</ul>'
        out.append(f"<li class=\"{cls}\">{a}{sub}</li>")
    return f'<ul class="menu{" current" if level > 1 else ""}">' + "".join(out) + "</ul>"


def docs_sidebar(home, node):
    chain = docs_ancestors(node)[1:]
    r = rel(node["path"], "index.html")
    return f"""<nav data-toggle="wy-nav-shift" class="wy-nav-side"><div class="wy-side-scroll">
<div class="wy-side-nav-search"><a href="{r}" class="icon icon-home">Widgetkit</a><div class="version">2.4</div>
<div role="search"><form id="rtd-search-form" class="wy-form" action="{rel(node['path'], 'search.html')}" method="get"><input type="text" name="q" placeholder="Search docs"></form></div></div>
<div class="wy-menu wy-menu-vertical" data-spy="affix" role="navigation" aria-label="Navigation menu">
<p class="caption" role="heading"><span class="caption-text">Contents</span></p>
{docs_menu(home["children"], 1, chain, node)}
</div></div></nav>"""


def docs_breadcrumbs(node):
    chain = docs_ancestors(node)
    items = "".join(f'<li><a href="{rel(node["path"], x["path"])}">{esc(x["title"]) if x["parent"] else ""}'
                    f'</a> &raquo;</li>' for x in chain[:-1])
    src = node["path"].replace(".html", ".rst")
    return (f'<div role="navigation" aria-label="Page navigation"><ul class="wy-breadcrumbs">{items}'
            f'<li>{esc(node["title"])}</li><li class="wy-breadcrumbs-aside"><a href="{EXT}/github/acme/'
            f'widgetkit/blob/main/docs/{src}" class="fa fa-github"> Edit on GitHub</a></li></ul><hr/></div>')


def docs_footer(node, prev, nxt):
    btn = ""
    if prev:
        btn += (f'<a href="{rel(node["path"], prev["path"])}" class="btn btn-neutral float-left" '
                f'title="{esc(prev["title"])}" accesskey="p" rel="prev"><span class="fa '
                f'fa-arrow-circle-left"></span> Previous</a>')
    if nxt:
        btn += (f'<a href="{rel(node["path"], nxt["path"])}" class="btn btn-neutral float-right" '
                f'title="{esc(nxt["title"])}" accesskey="n" rel="next">Next <span class="fa '
                f'fa-arrow-circle-right"></span></a>')
    return f"""<footer><div class="rst-footer-buttons" role="navigation" aria-label="Footer">{btn}</div><hr/>
<div role="contentinfo"><p>&#169; Copyright 2024, Acme Labs. Revision <code>4f2c9e1</code>.</p></div>
Built with <a href="{EXT}/sphinx-doc/">Sphinx</a> using a <a href="{EXT}/github/readthedocs/sphinx_rtd_theme">theme</a> provided by <a href="{EXT}/readthedocs/">Read the Docs</a>.
</footer>"""


def docs_flyout():
    langs = "".join(f'<dd><a href="{EXT}/widgetkit/{lang}/latest/">{lang}</a></dd>' for lang in ["en", "ja", "zh-cn"])
    vers = "".join(f'<dd><a href="{EXT}/widgetkit/en/{v}/">{v}</a></dd>' for v in ["latest", "stable", "2.3", "2.2", "1.x"])
    return (f'<div class="rst-versions" data-toggle="rst-versions" role="note" aria-label="Versions">'
            f'<span class="rst-current-version" data-toggle="rst-current-version">v: latest</span>'
            f'<div class="rst-other-versions"><dl><dt>Languages</dt>{langs}</dl><dl><dt>Versions</dt>'
            f'{vers}</dl><dl><dt>Downloads</dt><dd><a href="{EXT}/widgetkit/downloads/pdf/latest/">PDF'
            f'</a></dd><dd><a href="{EXT}/widgetkit/downloads/epub/latest/">Epub</a></dd></dl></div></div>')


def docs_toctree(node, depth, frm=None):
    frm = frm or node["path"]

    def items(n, level, d):
        out = []
        for c in n["children"]:
            sub = items(c, level + 1, d - 1) if d > 1 and c["children"] else ""
            out.append(f'<li class="toctree-l{level}"><a class="reference internal" href="'
                       f'{rel(frm, c["path"])}">{esc(c["title"])}</a>{sub}</li>')
        return "<ul>" + "".join(out) + "</ul>"
    return f'<div class="toctree-wrapper compound">{items(node, 1, depth)}</div>'


def docs_home_toctree(home):
    out = []
    for sec in home["children"]:
        out.append(f'<p class="caption" role="heading"><span class="caption-text">{esc(sec["title"])}'
                   f'</span></p>\n<div class="toctree-wrapper compound"><ul><li class="toctree-l1"><a '
                   f'class="reference internal" href="{rel("index.html", sec["path"])}">{esc(sec["title"])}'
                   f'</a>{docs_toctree(sec, 1, "index.html").replace("toctree-l1", "toctree-l2")}</li></ul></div>')
    return "\n".join(out)


def docs_body(node, rng):
    sid = slug(node["title"])
    toc = "".join(f'<li><a class="reference internal" href="#{slug(h)}">{h}</a></li>' for h in node["headings"])
    parts = [f'<section id="{sid}"><h1>{esc(node["title"])}<a class="headerlink" href="#{sid}" '
             f'title="Permalink to this heading">&#182;</a></h1>',
             f'<p>{paragraph(rng, 2, 3)}</p>',
             f'<div class="contents local topic" id="on-this-page"><p class="topic-title">On this page</p>'
             f'<ul class="simple">{toc}</ul></div>']
    if node["parent"] is None:
        parts.append(docs_home_toctree(node))
    elif node["children"]:
        depth = 2 if node["parent"]["parent"] is None else 1
        parts.append(docs_toctree(node, depth))
    for h in node["headings"]:
        code = ""
        if rng.random() < 0.4:
            code = (f'<div class="highlight-python notranslate"><div class="highlight"><pre>'
                    f'<span class="kn">import</span> widgetkit\nclient = widgetkit.Client(profile='
                    f'"{slug(node["title"])}")</pre></div></div>')
        parts.append(f'<section id="{slug(h)}"><h2>{h}<a class="headerlink" href="#{slug(h)}" '
                     f'title="Permalink to this heading">&#182;</a></h2><p>{paragraph(rng)}</p>{code}</section>')
    if node["parent"] is None:
        r = "index.html"
        parts.append(f'<section id="indices-and-tables"><h2>Indices and tables</h2><ul class="simple">'
                     f'<li><p><a class="reference internal" href="{rel(r, "genindex.html")}"><span class="std '
                     f'std-ref">Index</span></a></p></li><li><p><a class="reference internal" href="'
                     f'{rel(r, "py-modindex.html")}"><span class="std std-ref">Module Index</span></a></p></li>'
                     f'<li><p><a class="reference internal" href="{rel(r, "search.html")}"><span class="std '
                     f'std-ref">Search Page</span></a></p></li></ul></section>')
    return "\n".join(parts) + "\n</section>"


def docs_page(home, node, main, prev=None, nxt=None):
    p = node["path"]
    head = (f'<link rel="index" title="Index" href="{rel(p, "genindex.html")}">\n'
            f'<link rel="search" title="Search" href="{rel(p, "search.html")}">\n')
    if prev:
        head += f'<link rel="prev" title="{esc(prev["title"])}" href="{rel(p, prev["path"])}">\n'
    if nxt:
        head += f'<link rel="next" title="{esc(nxt["title"])}" href="{rel(p, nxt["path"])}">\n'
    body = f"""<body class="wy-body-for-nav">
<div class="wy-grid-for-nav">
{docs_sidebar(home, node)}
<section data-toggle="wy-nav-shift" class="wy-nav-content-wrap">
<nav class="wy-nav-top" aria-label="Mobile navigation menu"><i data-toggle="wy-nav-top" class="fa fa-bars"></i><a href="{rel(p, 'index.html')}">Widgetkit</a></nav>
<div class="wy-nav-content"><div class="rst-content">
{docs_breadcrumbs(node)}
<div role="main" class="document" itemscope="itemscope" itemtype="http://schema.org/Article"><div itemprop="articleBody">
{main}
</div></div>
{docs_footer(node, prev, nxt)}
</div></div>
</section>
</div>
{docs_flyout()}
</body>"""
    title = node["title"] if node["parent"] else "Widgetkit 2.4 documentation"
    return html5(f"{title} \u2014 Widgetkit 2.4 documentation", body, DOCS_CSS, head=head)


def docs_noise(s, home):
    mods = "".join(f'<tr><td><a href="api-reference/{slug(t)}.html"><code class="xref">{t}</code></a></td></tr>'
                   for t in ["widgetkit.Client", "widgetkit.Pipeline", "widgetkit.storage"])
    mods = mods.replace("widgetkit-storage.html", "widgetkit-storage/index.html")
    pages = [("Search", "search.html", '<form action="" method="get"><input type="text" name="q">'
              '<input type="submit" value="search"></form><div id="search-results"></div>'),
             ("Python Module Index", "py-modindex.html", f'<table class="indextable modindextable">{mods}</table>'),
             ("Index", "genindex.html", "<p>" + " | ".join(f'<a href="#{c}"><strong>{c}</strong></a>' for c in "ACEILPS")
              + "</p>" + '<ul><li><a href="api-reference/exceptions.html#widgetkit.ConfigError">ConfigError</a></li>'
              '<li><a href="user-guide/caching-and-incremental-builds.html#cache">cache</a></li></ul>')]
    for title, p, main in pages:
        node = {"title": title, "path": p, "parent": home, "children": [], "headings": []}
        s.add(p, docs_page(home, node, f"<h1>{title}</h1>\n{main}"))
        s.out(p)


def build_docs_sidebar():
    s = Site("docs_sidebar", "documentation (Sphinx / Read the Docs)",
             "Sphinx documentation with the Read the Docs theme: sidebar <nav> (ul.menu, nested) "
             "on every page with only the current branch expanded, body toctrees, 'On this "
             "page' #fragment lists, breadcrumbs, prev/next footer, Edit on GitHub and version "
             "flyout (external). Home -> 5 guide sections -> pages -> subpages.", seed=4242)
    home, order = docs_model(s.rng)
    for i, node in enumerate(order):
        prev = order[i - 1] if i > 0 else None
        nxt = order[i + 1] if i + 1 < len(order) else None
        s.add(node["path"], docs_page(home, node, docs_body(node, s.rng), prev, nxt))
        for c in node["children"]:
            s.edge(node["path"], c["path"])
    docs_noise(s, home)
    return s
