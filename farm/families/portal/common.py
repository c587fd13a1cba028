"""Helpers shared by the portal kinds: headlines, URL schemes, dated stories, sidebars."""
from __future__ import annotations

import datetime as dt
import posixpath

from .grammar import DESKS, Node, Site, esc, slug

TRUTH = ("the portal generator's own content model: the Node tree it builds before rendering "
         "(sections declared by its menus, each content page filed under the innermost section whose "
         "listing shows it); views (pagination, tags, authors, dates, search, facets, sort, calendars, "
         "language copies) are emitted as non-node pages")


def headline(site: Site, lo: int = 5, hi: int = 9) -> str:
    used = site.__dict__.setdefault("_heads", set())
    while True:
        words = site.t.sentence().rstrip(".").split()
        h = " ".join(words[: site.t.rng.randint(lo, hi)])
        if h not in used:
            used.add(h)
            return h


def dated(site: Site, n: int, start: dt.datetime, lo: int = 1, hi: int = 4) -> list[dt.datetime]:
    out, d = [], start
    for _ in range(n):
        d = d + dt.timedelta(days=site.t.rng.randint(lo, hi), hours=site.t.rng.randint(0, 9))
        out.append(d)
    return out[::-1]


def content_path(site: Site, scheme: str, sec_dir: str, s: str, date: dt.datetime | None, ident: int) -> str:
    """The file of a content page under one of the URL conventions."""
    return site.uniq(_content_path(site, scheme, sec_dir, s, date, ident))


def _content_path(site: Site, scheme: str, sec_dir: str, s: str, date: dt.datetime | None, ident: int) -> str:
    sub = site.once("scheme_variant:" + scheme, [0, 1, 2])
    pre = sec_dir.rstrip("/") + "/" if sec_dir else ""
    if scheme == "dated":
        d = date or dt.datetime(2024, 1, 1)
        return [f"{d:%Y/%m/%d}/{s}.html", f"{pre}{d:%Y/%m/%d}/{s}.html", f"{d:%Y/%m}/{s}/index.html"][sub]
    if scheme == "flat":
        return [f"p/{s}.html", f"a/{s}/index.html", f"{s}.html"][sub]
    if scheme == "nested":
        return [f"{pre}{s}.html", f"{pre}{s}/index.html", f"{pre}{s}.html"][sub]
    if scheme == "id":
        return [f"article/{ident}.html", f"{pre}{s}-{ident}.html", f"story{ident}.html"][sub]
    if scheme == "query-id":   # article.php?id=N, served from the file article.php@id=N
        return f"{site.once('id_script', ['article.php', 'story.asp', 'news.php', 'index.php'])}@id={ident}"
    return f"{pre}{s}/index.html"  # pretty


def desks(site: Site, n: int) -> list[str]:
    names = list(DESKS[site.lang])
    site.t.rng.shuffle(names)
    return names[:n]


def tree_html(site: Site, frm: str, node: Node, depth: int, expand: set | None = None,
              current: str | None = None, leaves: bool = True) -> str:
    """Nested list of a node's children, ``depth`` levels (or only the ``expand`` branches)."""
    kids = [k for k in node.children if leaves or k.kind == "section"]
    if not kids:
        return ""
    c = site.c
    lis = []
    for k in kids:
        label = esc(k.title) if k.path == current and site.once("sidebar_cur_plain", [True, False]) \
            else site.a(frm, k.path, k.title, site.c("current") if k.path == current else "")
        sub = ""
        if (expand is None and depth > 1) or (expand is not None and k.path in expand):
            sub = tree_html(site, frm, k, depth - 1, expand, current, leaves)
        lis.append(f"<li>{label}{sub}</li>")
    return f'<ul{c("list") if depth else ""}>{"".join(lis)}</ul>'


def story_page(site: Site, n: Node, extra: str = "", related: list[Node] | None = None,
               author_link: str | None = None, tag_links: list[tuple[str, str]] | None = None) -> str:
    c = site.c
    meta = []
    if n.date:
        meta.append(f'<time datetime="{n.date:%Y-%m-%dT%H:%M}">{esc(site.fmt_date(n.date))}</time>')
    if n.author:
        meta.append(f'{esc(site.L("by"))} ' + (site.a(n.path, author_link, n.author) if author_link else esc(n.author)))
    out = f'<p{c("meta")}>{" · ".join(meta)}</p>' if meta else ""
    if n.summary:
        out += f'<p{c("teaser")}><b>{esc(n.summary)}</b></p>'
    out += site.paras(n.body)
    if tag_links:
        out += f'<p{c("meta")}>{esc(site.L("tags"))}: ' + ", ".join(site.a(n.path, p, t) for t, p in tag_links) + "</p>"
    if related:
        out += f'<div{c("box")}><h3>{esc(site.L("related"))}</h3><ul>' + "".join(
            f"<li>{site.a(n.path, r.path, r.title)}</li>" for r in related) + "</ul></div>"
    return out + extra


def items(nodes: list[Node], summary: bool = True, date: bool = True) -> list[dict]:
    return [{"to": n.path, "title": n.title, "summary": n.summary if summary else "",
             "date": n.date if date else None} for n in nodes]


def sec_dir(n: Node) -> str:
    return posixpath.dirname(n.path)
