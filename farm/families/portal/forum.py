"""A forum: board index listing categories and their forums, sub-forums, topics filed in one
forum, topic pagination, member profiles, a member list and search-by-author pages (not nodes)."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

from .common import TRUTH, dated
from .grammar import Node, Site, esc, slug

SITES = {
    "portal-forum": "own portal grammar: a discussion board (categories, forums, sub-forums, topics); topic "
                    "pagination, member profiles, member list and search-by-author pages are not nodes",
}


def build(name: str, out: Path) -> dict:
    s = Site(name)
    rng = s.t.rng
    root = s.root
    style = s.pick("forum_urls", ["xenforo", "discourse", "ipb", "vbseo", "phpbb"])
    n_mem = rng.randint(10, 14)
    members = []
    while len(members) < n_mem:
        p = s.t.person()
        if p not in members:
            members.append(p)
    mid = {m: 100 + 17 * i for i, m in enumerate(members)}

    def member_path(m):
        return {"xenforo": f"members/{slug(m)}.{mid[m]}/index.html", "discourse": f"u/{slug(m)}/index.html",
                "ipb": f"profile/{mid[m]}-{slug(m)}/index.html", "vbseo": f"member.php@u={mid[m]}",
                "phpbb": f"memberlist.php@mode=viewprofile&u={mid[m]}"}[style]

    def search_path(m):
        return {"xenforo": f"search/member/index.html@user_id={mid[m]}", "discourse": f"search/index.html@q=user:{slug(m)}",
                "ipb": f"search/index.html@author={slug(m)}", "vbseo": f"search.php@do=finduser&u={mid[m]}",
                "phpbb": f"search.php@author_id={mid[m]}&sr=posts"}[style]

    tid = rng.randint(300, 900)
    forums: list[Node] = []
    for ci in range(rng.randint(3, 4)):
        ct = s.t.title(1, 2)
        cat = root.add(Node(ct, {"xenforo": f"categories/{slug(ct)}.{ci + 1}/index.html",
                                 "discourse": f"c/{slug(ct)}/index.html", "ipb": f"forum/{ci + 1}-{slug(ct)}/index.html",
                                 "vbseo": f"{slug(ct)}/index.html", "phpbb": f"viewforum-c{ci + 1}.html"}[style], "section"))
        for fi in range(rng.randint(2, 3)):
            ft = s.t.title(1, 3)
            fid = 10 * (ci + 1) + fi
            fpath = {"xenforo": f"forums/{slug(ft)}.{fid}/index.html", "discourse": f"c/{slug(ct)}/{slug(ft)}/index.html",
                     "ipb": f"forum/{fid}-{slug(ft)}/index.html", "vbseo": f"{slug(ct)}/{slug(ft)}/index.html",
                     "phpbb": f"viewforum-f{fid}.html"}[style]
            f = cat.add(Node(ft, fpath, "section", summary=s.t.sentence()))
            forums.append(f)
            if rng.random() < 0.25:
                st = s.t.title(1, 2)
                sp = fpath.replace("index.html", f"{slug(st)}/index.html") if fpath.endswith("index.html") \
                    else f"viewforum-f{fid}0.html"
                forums.append(f.add(Node(st, sp, "section", summary=s.t.sentence())))
    topics = []
    for f in forums:
        for _ in range(rng.randint(6, 16)):
            tid += rng.randint(1, 30)
            t = s.t.heading() + ("?" if rng.random() < 0.4 else "")
            sl = slug(t)
            fd = f.path.rsplit("/", 1)[0]
            path = {"xenforo": f"threads/{sl}.{tid}/index.html", "discourse": f"t/{sl}/{tid}/index.html",
                    "ipb": f"topic/{tid}-{sl}/index.html", "vbseo": f"{fd}/{tid}-{sl}.html",
                    "phpbb": f"viewtopic-t{tid}.html"}[style]
            n = f.add(Node(t, path, "page", author=rng.choice(members)))
            n.data["posts"] = rng.randint(1, 34)
            topics.append(n)
    dates = dated(s, len(topics) * 3, dt.datetime(2022, 2, 1), 0, 2)
    rng.shuffle(dates)
    for i, n in enumerate(topics):
        n.date = max(dates[3 * i:3 * i + 3])
    for f in forums:
        f.children.sort(key=lambda n: (n.kind != "section", -(n.date.timestamp() if n.date else 0)))
    members_page = {"xenforo": "members/index.html", "discourse": "u/index.html", "ipb": "members/index.html",
                    "vbseo": "memberlist.php", "phpbb": "memberlist.php"}[style]
    if members_page.endswith(".php"):
        members_page = "memberlist.html"
    s.menu = [(s.L("topics"), "index.html", [])] + [(c.title, c.path, [(f.title, f.path) for f in c.children])
                                                      for c in root.children] + [(s.L("members"), members_page, [])]
    s.utility = [(s.L("login"), "login.html"), (s.L("search"), "search.html")]
    s.emit("login.html", s.L("login"), '<form method="post"><input name="u"><input type="password" name="p"></form>')
    s.emit("search.html", s.L("search"), f'<form action="/search"><input name="q"><button>{esc(s.L("search"))}</button></form>')
    c = s.c
    tbl = s.layout == "tables" or s.once("forumtables", [True, False])

    def forum_rows(frm, fs):
        if tbl:
            return (f'<table{c("list")} width="100%" cellspacing="1"><tr><th>{esc(s.L("topics"))}</th><th>{esc(s.L("replies"))}</th></tr>'
                    + "".join(f'<tr><td>{s.a(frm, f.path, f.title)}<br><small>{esc(f.summary)}</small>'
                              + ("".join(f' <small>» {s.a(frm, x.path, x.title)}</small>' for x in f.sections()))
                              + f'</td><td>{len(f.leaves())}</td></tr>' for f in fs) + "</table>")
        return f'<ol{c("list")}>' + "".join(
            f'<li{c("item")}><h3>{s.a(frm, f.path, f.title)}</h3><p>{esc(f.summary)}</p>'
            + "".join(f'<span{c("sub")}>{s.a(frm, x.path, x.title)}</span>' for x in f.sections())
            + f'<span{c("meta")}>{len(f.leaves())}</span></li>' for f in fs) + "</ol>"

    def topic_rows(frm, ts):
        if tbl:
            return (f'<table{c("list")} width="100%"><tr><th>{esc(s.L("topics"))}</th><th>{esc(s.L("by"))}</th>'
                    f'<th>{esc(s.L("replies"))}</th></tr>' + "".join(
                        f'<tr><td>{s.a(frm, t.path, t.title)}</td><td>{s.a(frm, member_path(t.author), t.author)}</td>'
                        f'<td>{t.data["posts"] - 1}</td></tr>' for t in ts) + "</table>")
        return f'<ul{c("list")}>' + "".join(
            f'<li{c("item")}>{s.a(frm, t.path, t.title)} <span{c("meta")}>{esc(s.L("by"))} '
            f'{s.a(frm, member_path(t.author), t.author)} · {t.data["posts"] - 1} · {esc(s.fmt_date(t.date))}</span></li>'
            for t in ts) + "</ul>"

    body = "".join(f'<section><h2>{s.a("index.html", cat.path, cat.title)}</h2>{forum_rows("index.html", cat.children)}</section>'
                   for cat in root.children)
    s.emit("index.html", s.title, body, root)
    for cat in root.children:
        s.emit(cat.path, cat.title, forum_rows(cat.path, cat.children), cat)
    per = rng.choice([10, 15, 20])
    for f in forums:
        head = forum_rows(f.path, f.sections()) if f.sections() else ""
        s.paginate(f.path, f.title, f.leaves(), per, f, head_html=head, render=topic_rows)
    tp_style = s.pick("topic_pager", ["page-N", "query", "indexN"])
    per_t = rng.choice([10, 15, 20])
    for t in topics:
        posts = []
        for k in range(t.data["posts"]):
            who = t.author if k == 0 else rng.choice(members)
            posts.append((who, s.t.paragraph(1, 3)))
        chunks = [posts[i:i + per_t] for i in range(0, len(posts), per_t)]

        def tpage(k, t=t):
            if k == 1:
                return t.path
            if tp_style == "query":
                return f"{t.path}@page={k}"
            base = t.path[:-len("index.html")] if t.path.endswith("index.html") else t.path[:-5] + "-"
            return f"{base}page-{k}/index.html" if tp_style == "page-N" and t.path.endswith("index.html") \
                else f"{base}{'index' if t.path.endswith('index.html') else 'p'}{k}.html"
        for k, chunk in enumerate(chunks, 1):
            p = tpage(k)
            b = "".join(f'<div{c("item")} id="post-{k}-{i}"><div{c("meta")}>{s.a(p, member_path(w), w)} · '
                        f'{s.a(p, search_path(w), s.L("posts_by") + " " + w)}</div><p>{esc(txt)}</p></div>'
                        for i, (w, txt) in enumerate(chunk))
            if len(chunks) > 1:
                b += f'<div{c("pager")}>' + " ".join(
                    f"<b>{i}</b>" if i == k else s.a(p, tpage(i), str(i)) for i in range(1, len(chunks) + 1)) + "</div>"
            s.emit(p, t.title if k == 1 else f"{t.title} – {s.L('page')} {k}", b, t if k == 1 else None,
                   s.crumbs_of(t))
    for m in members:
        mine = [t for t in topics if t.author == m]
        s.emit(member_path(m), f"{s.L('profile')}: {m}", f"<p>{esc(s.t.sentence())}</p><p>"
               + s.a(member_path(m), search_path(m), s.L("posts_by") + " " + m) + "</p>"
               + topic_rows(member_path(m), mine[:5]), None, [(s.L("home"), "index.html"), (s.L("members"), members_page), (m, "")])
        s.emit(search_path(m), f"{s.L('search')}: {m}", topic_rows(search_path(m), mine), None)
    s.emit(members_page, s.L("members"), "<ul>" + "".join(f"<li>{s.a(members_page, member_path(m), m)}</li>" for m in members) + "</ul>")
    return s.write(out, TRUTH)
