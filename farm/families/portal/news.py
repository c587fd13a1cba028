"""A modern news site: desks (some with sub-desks in a mega or plain menu), stories under one
URL convention, and many views that are not nodes: tag, author and date-archive pages,
"latest" and "most read" lists (one of them in the main menu), related stories."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

from .common import TRUTH, content_path, dated, desks, headline, items, story_page
from .grammar import Node, Site, esc, slug

SITES = {
    "portal-news": "own portal grammar: a modern news site (HTML5 or divs), desks and sub-desks, stories with "
                   "tags, authors and related stories; tag/author/month-archive/latest/most-read views are not nodes",
    "portal-news-2": "own portal grammar: a second modern news site drawn from other conventions (URL scheme, "
                     "menu, pagination, language), same kinds of views",
}


def build(name: str, out: Path) -> dict:
    s = Site(name, layout=None if name.endswith("2") else "html5")
    if s.layout == "tables":
        s.layout = s.st["layout"] = "divs"
    rng = s.t.rng
    root = s.root
    scheme = s.pick("scheme", ["id", "pretty", "dated", "nested", "flat"])
    names = desks(s, rng.randint(5, 7))
    leaves = []
    for i, d in enumerate(names):
        sec = root.add(Node(d, f"{slug(d)}/index.html", "section"))
        if i < 2:
            for _ in range(rng.randint(2, 3)):
                t = s.t.title(1, 1)
                sub = sec.add(Node(t, f"{slug(d)}/{slug(t)}/index.html", "section"))
                leaves.append(sub)
        leaves.append(sec)   # desks with sub-desks also file their own stories
    tags = sorted({s.t.word() for _ in range(30)})[:rng.randint(10, 16)]
    authors = []
    while len(authors) < rng.randint(4, 7):
        p = s.t.person()
        if p not in authors:
            authors.append(p)
    n_st = rng.randint(120, 170)
    stories = []
    for i, d in enumerate(dated(s, n_st, dt.datetime(2023, 6, 1, 7), 1, 3)):
        sec = leaves[rng.randrange(len(leaves))]
        h = headline(s)
        path = content_path(s, scheme, sec.path.rsplit("/", 1)[0], slug(h)[:70].strip("-"), d, 81000 + 7 * i)
        stories.append(sec.add(Node(h, path, "page", summary=s.t.sentence(), body=s.t.paragraphs(3, 5), date=d,
                                    author=rng.choice(authors), tags=sorted(rng.sample(tags, rng.randint(1, 3))))))
    stories.sort(key=lambda n: n.date, reverse=True)
    for sec in root.walk():
        sec.children.sort(key=lambda n: (n.kind != "section", -(n.date.timestamp() if n.date else 0)))
    tag_dir = s.pick("tagdir", ["tag", "tags", "topic", "thema", "keyword"])
    auth_dir = s.pick("authdir", ["author", "authors", "people", "profile", "by"])
    tag_path = {t: f"{tag_dir}/{slug(t)}/index.html" for t in tags}
    auth_path = {a: f"{auth_dir}/{slug(a)}/index.html" for a in authors}
    latest, most = f"{s.pick('latestdir', ['latest', 'news', 'live', 'just-in'])}/index.html", "most-read/index.html"
    menu_view = s.pick("menuview", ["latest", "most", "both"])
    s.menu = [(n.title, n.path, [(k.title, k.path) for k in n.sections()]) for n in root.children]
    if menu_view in ("latest", "both"):
        s.menu.insert(0, (s.L("latest"), latest, []))
    if menu_view in ("most", "both"):
        s.menu.append((s.L("mostread"), most, []))
    for key in ("about", "contact", "privacy"):
        p = f"{slug(s.L(key))}.html"
        s.footer.append((s.L(key), p))
        s.emit(p, s.L(key), s.paras(s.t.paragraphs(1, 2)))
    months = sorted({(n.date.year, n.date.month) for n in stories}, reverse=True)
    month_path = {m: f"{m[0]}/{m[1]:02d}/index.html" for m in months}
    if scheme == "dated" and s.st.get("scheme_variant:dated") == 2:
        month_path = {m: f"archive/{m[0]}-{m[1]:02d}.html" for m in months}

    def authored(frm, ns):
        lst = items(ns)
        for d, n in zip(lst, ns):
            d["author_html"] = f'{esc(s.L("by"))} ' + s.a(frm, auth_path[n.author], n.author)
        return s.list_html(frm, lst)

    def side(frm):
        c = s.c
        return (f'<section{c("box")}><h2>{esc(s.L("mostread"))}</h2><ol>' + "".join(
            f"<li>{s.a(frm, n.path, n.title)}</li>" for n in stories[5:10]) + "</ol></section>"
            f'<section{c("box")}><h2>{esc(s.L("tags"))}</h2><p>' + " ".join(
                s.a(frm, tag_path[t], t) for t in tags) + "</p></section>"
            f'<section{c("box")}><h2>{esc(s.L("archive"))}</h2><ul>' + "".join(
                f'<li>{s.a(frm, p, s.months()[m[1] - 1].capitalize() + " " + str(m[0]))}</li>'
                for m, p in month_path.items()) + "</ul></section>")

    per = rng.choice([10, 12, 15, 20])
    # home: lead stories per desk (cross links), desks
    body = f'<div{s.c("list")}>'
    for sec in root.children:
        tops = [n for n in sec.walk() if n.kind == "page"][:4]
        body += f'<section{s.c("box")}><h2>{s.a("index.html", sec.path, sec.title)}</h2>' + authored("index.html", tops) + "</section>"
    s.emit("index.html", s.title, body + "</div>", root, side=side("index.html"))
    for sec in root.walk():
        if sec.kind != "section":
            continue
        head = ""
        if sec.sections():
            head = f'<ul{s.c("sub")}>' + "".join(f"<li>{s.a(sec.path, k.path, k.title)}</li>" for k in sec.sections()) + "</ul>"
        s.paginate(sec.path, sec.title, sec.leaves(), per, sec, head_html=head, side=side,
                   render=authored)
    for t, p in tag_path.items():
        ns = [n for n in stories if t in n.tags]
        s.paginate(p, f"{s.L('tags')}: {t}", ns, 30, None, side=side, render=authored)
    for a, p in auth_path.items():
        ns = [n for n in stories if n.author == a]
        s.paginate(p, a, ns, 30, None, head_html=f"<p>{esc(s.t.sentence())}</p>", side=side, render=authored)
    for m, p in month_path.items():
        ns = [n for n in stories if (n.date.year, n.date.month) == m]
        s.emit(p, f"{s.L('archive')}: {s.months()[m[1] - 1].capitalize()} {m[0]}", authored(p, ns), None, side=side(p))
    s.emit(latest, s.L("latest"), authored(latest, stories[:25]), None)
    s.emit(most, s.L("mostread"), s.list_html(most, items(stories[5:25], summary=False), "ol"), None)
    for n in stories:
        sib = [x for x in n.parent.leaves() if x is not n][:4]
        s.emit(n.path, n.title, story_page(s, n, related=sib, author_link=auth_path[n.author],
                                           tag_links=[(t, tag_path[t]) for t in n.tags]), n, side=side(n.path))
    return s.write(out, TRUTH)
