"""An old news portal: table layout with font tags, dated story URLs, section pages whose
story lists are headline+blurb table cells, month archives, top stories on the home page."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

from .common import TRUTH, content_path, dated, desks, headline, items, story_page
from .grammar import Node, Site, esc, slug

SITES = {
    "portal-oldnews": "own portal grammar: a 2000s news portal in nested tables and font tags, dated story "
                      "URLs, desk pages listing headline+blurb table cells with indexN/pageN pagination, "
                      "sub-desks on some desks, month archives and top stories (not nodes)",
    "portal-oldnews-2": "own portal grammar: a second old-style news portal (tables, font tags) drawn from other "
                        "conventions: stories at story.asp?id=N style URLs (files PATH@QUERY) when "
                        "farm.check resolves query pages to their ?-URL, dated URLs otherwise; paginated desks, month archives",
}


def build(name: str, out: Path) -> dict:
    import random
    force = {"layout": "tables", "listing": "table", "menu": random.Random(name).choice(["ul", "div", "select", "ul"])}
    s = Site(name, **force)
    if s.pager_style == "query":
        s.pager_style = s.st["pager"] = "indexN"
    rng = s.t.rng
    root = s.root
    from .grammar import query_nodes_ok
    # the second site files its stories at article.php?id=N when farm.check resolves query pages
    scheme = "query-id" if name.endswith("2") and query_nodes_ok() else "dated"
    s.st["story_urls"] = scheme
    # desks and sub-desks
    names = desks(s, rng.randint(6, 8))
    leaves: list[Node] = []
    for i, d in enumerate(names):
        sec = root.add(Node(d, f"{slug(d)}/index.html", "section"))
        if i in (1, 3) or (i == 5 and rng.random() < 0.5):
            for _ in range(rng.randint(2, 3)):
                t = s.t.title(1, 1)
                leaves.append(sec.add(Node(t, f"{slug(d)}/{slug(t)}/index.html", "section")))
        else:
            leaves.append(sec)
    n_st = rng.randint(95, 130)
    dates = dated(s, n_st, dt.datetime(2003, 9, 1, 8), 1, 3)
    stories: list[Node] = []
    for i, d in enumerate(dates):
        sec = leaves[rng.randrange(len(leaves))]
        h = headline(s)
        sl = slug(h)[:60].strip("-") + ("" if rng.random() < 0.7 else f"_{4000 + i}")
        path = content_path(s, scheme, sec.path.rsplit("/", 1)[0], sl, d, 4000 + i)
        st = sec.add(Node(h, path, "page", summary=s.t.sentence(), body=s.t.paragraphs(2, 4), date=d,
                          author=s.t.person() if rng.random() < 0.6 else ""))
        stories.append(st)
    stories.sort(key=lambda n: n.date, reverse=True)
    for sec in root.walk():
        sec.children.sort(key=lambda n: (n.kind != "section", -(n.date.timestamp() if n.date else 0)))
    s.menu = [(n.title, n.path, [(k.title, k.path) for k in n.sections()]) for n in root.children]
    # footer-only pages (not nodes)
    for key in ("imprint", "contact"):
        p = f"{key}.html"
        s.footer.append((s.L(key), p))
        s.emit(p, s.L(key), s.paras(s.t.paragraphs(1, 2)))
    # month archives (not nodes)
    months = sorted({(n.date.year, n.date.month) for n in stories}, reverse=True)
    arch = {m: f"archive/{m[0]}-{m[1]:02d}.html" for m in months}

    def archive_box(frm: str) -> str:
        return (f'<table border="1" cellpadding="2" cellspacing="0" width="100%"><tr><td bgcolor="#cccccc">'
                f'<font size="1"><b>{esc(s.L("archive"))}</b></font></td></tr>' + "".join(
                    f'<tr><td><font size="1">{s.a(frm, p, f"{s.months()[m[1] - 1].capitalize()} {m[0]}")}</font></td></tr>'
                    for m, p in arch.items()) + "</table>")

    for m, p in arch.items():
        lst = [n for n in stories if (n.date.year, n.date.month) == m]
        s.emit(p, f"{s.L('archive')} {s.months()[m[1] - 1].capitalize()} {m[0]}",
               s.list_html(p, items(lst, summary=False)), None, [(s.L("home"), "index.html"), (s.L("archive"), p)],
               side=archive_box(p))
    # home: top stories + desk blocks (all cross links except the desks themselves)
    h = f'<table width="100%" cellpadding="4"><tr><td colspan="2"><font size="4"><b>{esc(stories[0].title)}</b></font>' \
        f'<br>{esc(stories[0].summary)} {s.a("index.html", stories[0].path, s.L("more"))}</td></tr>'
    cells = []
    for sec in root.children:
        heads = [n for n in sec.walk() if n.kind == "page"][:3]
        cells.append(f'<td valign="top" width="50%"><font size="3"><b>{s.a("index.html", sec.path, sec.title)}</b></font><br>'
                     + "<br>".join(f'&middot; {s.a("index.html", n.path, n.title)}' for n in heads) + "</td>")
    for i in range(0, len(cells), 2):
        h += "<tr>" + "".join(cells[i:i + 2]) + "</tr>"
    h += "</table>"
    s.emit("index.html", s.title, h, root, side=archive_box("index.html"))
    per = rng.choice([10, 12, 15])
    for sec in root.walk():
        if sec.kind != "section":
            continue
        if sec.sections():
            body = '<table width="100%" cellpadding="3">' + "".join(
                f'<tr><td bgcolor="#eeeeee"><b>{s.a(sec.path, k.path, k.title)}</b></td></tr><tr><td>'
                + "<br>".join(s.a(sec.path, n.path, n.title) for n in k.leaves()[:4]) + "</td></tr>"
                for k in sec.sections()) + "</table>"
            s.emit(sec.path, sec.title, body, sec, side=archive_box(sec.path))
        else:
            s.paginate(sec.path, sec.title, items(sec.leaves()), per, sec, side=archive_box)
    most = stories[3:8]
    for n in stories:
        box = f'<table border="0" width="100%"><tr><td><font size="1"><b>{esc(s.L("mostread"))}</b><br>' + "<br>".join(
            s.a(n.path, m.path, m.title) for m in most if m is not n) + "</font></td></tr></table>"
        s.emit(n.path, n.title, story_page(s, n), n, side=box)
    return s.write(out, TRUTH)
