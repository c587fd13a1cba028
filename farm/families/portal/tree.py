"""Rendering a plain section tree: section index pages that list their children (one level,
a nested two-level table of contents, or nothing but a sidebar), content pages, sidebars
showing the current section or the whole tree with the current branch expanded."""
from __future__ import annotations

from farm.content import DocNode

from .common import tree_html
from .grammar import Node, Site, esc, slug


def from_doc(s: Site, doc: DocNode, parent: Node, scheme: str = "nested", base: str = "") -> None:
    """Copy a farm.content doc tree below ``parent`` with paths drawn from ``scheme``."""
    for ch in doc.children:
        d = parent.path.rsplit("/", 1)[0] if parent.path != "index.html" else base.rstrip("/")
        pre = f"{d}/" if d else ""
        if ch.children:
            path = f"{pre}{ch.slug}/index.html"
            kind = "section"
        else:
            path = {"nested": f"{pre}{ch.slug}.html", "pretty": f"{pre}{ch.slug}/index.html",
                    "flat": f"page/{ch.slug}.html", "id": f"{pre}{ch.slug}-{stable_id(s, ch.path)}.html"}[scheme]
            kind = "page"
        n = parent.add(Node(ch.title, path, kind, summary=ch.body[0].split(". ")[0] + ".", body=ch.body))
        from_doc(s, ch, n, scheme)


def stable_id(s: Site, key: str) -> int:
    return sum(ord(ch) * (i + 7) for i, ch in enumerate(key)) % 9000 + 1000


def listing(s: Site, n: Node, mode: str) -> str:
    c = s.c
    if mode == "none" or not n.children:
        return ""
    if mode == "toc2":
        return f'<div{c("box")}>' + tree_html(s, n.path, n, 2) + "</div>"
    if mode == "cards":
        return s.list_html(n.path, [{"to": k.path, "title": k.title, "summary": k.summary} for k in n.children], "articles")
    return s.list_html(n.path, [{"to": k.path, "title": k.title, "summary": k.summary if mode == "children" else ""}
                                for k in n.children])


def sidebar(s: Site, node: Node | None, frm: str, mode: str | None) -> str | None:
    if not mode or node is None:
        return None
    anc = node.ancestors()
    expand = {a.path for a in anc}
    if mode == "whole":
        return f'<nav{s.c("side")}>' + tree_html(s, frm, s.root, 9, expand, node.path) + "</nav>" \
            if s.layout == "html5" else f'<div{s.c("side")}>' + tree_html(s, frm, s.root, 9, expand, node.path) + "</div>"
    if len(anc) < 2:
        return None
    top = anc[1]
    return (f'<div{s.c("box")}><h3>{s.a(frm, top.path, top.title)}</h3>'
            + tree_html(s, frm, top, 9, expand, node.path) + "</div>")


def emit_tree(s: Site, root: Node, mode: str = "children", side: str | None = None, skip: set | None = None,
              home_body: str | None = None, section_extra=None) -> None:
    skip = skip or set()
    for n in root.walk():
        if n.path in skip:
            continue
        sb = sidebar(s, n, n.path, side)
        if n is root:
            body = home_body if home_body is not None else listing(s, n, "cards" if mode != "toc2" else "toc2")
        elif n.children:
            body = (f'<p{s.c("teaser")}>{esc(n.summary)}</p>' if n.summary else "") + listing(s, n, mode)
            if section_extra:
                body += section_extra(n)
        else:
            body = s.paras(n.body)
        s.emit(n.path, n.title, body, n, side=sb)


def footer_pages(s: Site, keys=("imprint", "privacy", "contact"), sitemap: bool = True, prefix: str = "") -> None:
    """Footer-only pages (not nodes), and a site map listing the whole tree (a view, not a node)."""
    for key in keys:
        p = f"{prefix}{slug(s.L(key))}.html"
        s.footer.append((s.L(key), p))
        s.emit(p, s.L(key), s.paras(s.t.paragraphs(1, 2)))
    if sitemap:
        p = f"{prefix}{s.once('sitemap_path', ['sitemap.html', 'sitemap/index.html', 'site-map.html'])}"
        s.footer.append((s.L("sitemap"), p))
        s.pending.append(None)  # placeholder, filled in by finish_sitemap
        s.__dict__["_sitemap"] = (p, len(s.pending) - 1)


def finish_sitemap(s: Site) -> None:
    if "_sitemap" in s.__dict__:
        p, i = s._sitemap
        s.pending[i] = (p, s.L("sitemap"), tree_html(s, p, s.root, 9), None, None, None, None, "")
        s.nin.append(p)
