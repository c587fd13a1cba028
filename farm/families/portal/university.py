"""A university: faculties and departments with their courses, study programmes, research
institutes, a paginated news section, events with a month calendar view, and a staff
directory (A-Z people pages) -- calendars and the directory are not nodes."""
from __future__ import annotations

import calendar
import datetime as dt
from pathlib import Path

from .common import TRUTH, dated, headline, items, story_page
from .grammar import Node, Site, esc, slug
from .tree import emit_tree, footer_pages, sidebar

SITES = {
    "portal-university": "own portal grammar: a university (faculties > departments > courses, programmes, research "
                         "institutes, paginated news, events); month calendars and the A-Z staff directory are not nodes",
}


def build(name: str, out: Path) -> dict:
    s = Site(name)
    rng = s.t.rng
    root = s.root
    words = {"en": ["Faculties", "Study", "Research", "News", "Events", "About"],
             "de": ["Fakultäten", "Studium", "Forschung", "Aktuelles", "Veranstaltungen", "Über uns"],
             "fr": ["Facultés", "Formations", "Recherche", "Actualités", "Agenda", "L'université"],
             "es": ["Facultades", "Estudios", "Investigación", "Noticias", "Agenda", "La universidad"],
             "nl": ["Faculteiten", "Opleidingen", "Onderzoek", "Nieuws", "Agenda", "Over ons"]}[s.lang]
    dirs = s.pick("uni_dirs", [["faculties", "study", "research", "news", "events", "about"],
                               ["fac", "programmes", "research", "newsroom", "calendar-events", "university"],
                               ["schools", "education", "science", "news", "agenda", "about-us"]])
    top = [root.add(Node(w, f"{d}/index.html", "section", summary=s.t.sentence())) for w, d in zip(words, dirs)]
    fac, study, res, news, events, about = top
    cscheme = s.pick("course_url", ["nested", "code", "query-like"])
    for _ in range(rng.randint(3, 4)):
        ft = s.t.title(1, 2)
        f = fac.add(Node(ft, f"{dirs[0]}/{slug(ft)}/index.html", "section", summary=s.t.sentence()))
        for _ in range(rng.randint(2, 3)):
            dtl = s.t.title(1, 2)
            d = f.add(Node(dtl, f"{dirs[0]}/{slug(ft)}/{slug(dtl)}/index.html", "section", summary=s.t.sentence()))
            for _ in range(rng.randint(3, 6)):
                code = f"{slug(dtl)[:3].upper()}{rng.randint(100, 499)}"
                ct = s.t.heading()
                p = {"nested": f"{dirs[0]}/{slug(ft)}/{slug(dtl)}/{slug(ct)}.html", "code": f"courses/{code.lower()}.html",
                     "query-like": f"course/{code.lower()}/index.html"}[cscheme]
                d.add(Node(f"{code} {ct}", s.uniq(p), "page", summary=s.t.sentence(), body=s.t.paragraphs(1, 3)))
    for lvl in ("Bachelor", "Master", "PhD")[: rng.randint(2, 3)]:
        lv = study.add(Node(lvl, f"{dirs[1]}/{slug(lvl)}/index.html", "section", summary=s.t.sentence()))
        for _ in range(rng.randint(4, 8)):
            t = s.t.title(1, 3)
            lv.add(Node(f"{lvl} {t}", f"{dirs[1]}/{slug(lvl)}/{slug(t)}.html", "page", summary=s.t.sentence(),
                        body=s.t.paragraphs()))
    for _ in range(rng.randint(3, 4)):
        it = f"Institute of {s.t.title(1, 2)}" if s.lang == "en" else s.t.title(2, 2)
        i = res.add(Node(it, f"{dirs[2]}/{slug(it)}/index.html", "section", summary=s.t.sentence()))
        for _ in range(rng.randint(2, 4)):
            pt = s.t.title(2, 3)
            i.add(Node(pt, f"{dirs[2]}/{slug(it)}/projects/{slug(pt)}.html", "page", summary=s.t.sentence(),
                       body=s.t.paragraphs()))
    for k in ("Mission", "History", "Campus", "Leadership")[: rng.randint(3, 4)]:
        about.add(Node(k, f"{dirs[5]}/{slug(k)}.html", "page", body=s.t.paragraphs()))
    ndates = dated(s, rng.randint(25, 40), dt.datetime(2024, 1, 3, 9), 2, 6)
    for d in ndates:
        h = headline(s)
        news.add(Node(h, s.uniq(f"{dirs[3]}/{d:%Y}/{slug(h)[:50].strip('-')}.html"), "page", summary=s.t.sentence(),
                      body=s.t.paragraphs(), date=d))
    edates = sorted(dated(s, rng.randint(12, 18), dt.datetime(2024, 9, 1, 18), 3, 12))
    for d in edates:
        h = s.t.title(2, 4)
        events.add(Node(h, f"{dirs[4]}/{d:%Y-%m-%d}-{slug(h)}.html", "page", summary=s.t.sentence(),
                        body=s.t.paragraphs(1, 2), date=d))
    # people directory (not nodes): A-Z pages and profiles
    people = sorted({s.t.person() for _ in range(30)})[:rng.randint(14, 20)]
    ppath = {p: s.once("people_url", ["people/{}.html", "staff/profile@id={}", "directory/{}/index.html"])
             .format(slug(p) if "@id" not in s.st["people_url"] else 1000 + i) for i, p in enumerate(people)}
    letters = sorted({p.split()[-1][0] for p in people})
    lpath = {L: f"people/index.html@letter={L}" if s.once("az_query", [True, False]) else f"people/{L.lower()}.html"
             for L in letters}
    dirpage = "people/index.html"
    s.utility = [(s.rng.choice(["People", "Staff directory", "Find a person"]) if s.lang == "en" else s.L("members"), dirpage),
                 (s.L("calendar"), f"{dirs[4]}/calendar/index.html")]
    azbar = lambda frm: "<p>" + " ".join(s.a(frm, lpath[L], L) for L in letters) + "</p>"  # noqa: E731
    s.emit(dirpage, s.utility[0][0], azbar(dirpage) + s.list_html(dirpage, [{"to": ppath[p], "title": p} for p in people]))
    for L, p in lpath.items():
        s.emit(p, f"{s.utility[0][0]}: {L}", azbar(p) + s.list_html(p, [{"to": ppath[x], "title": x} for x in people
                                                                          if x.split()[-1][0] == L]))
    depts = [d for f in fac.children for d in f.children]
    for i, p in enumerate(people):
        s.emit(ppath[p], p, f"<p>{esc(s.t.sentence())}</p><p>{s.a(ppath[p], depts[i % len(depts)].path, depts[i % len(depts)].title)}</p>")
    # calendar months (not nodes)
    months = sorted({(d.year, d.month) for d in edates})
    cal = {m: (f"{dirs[4]}/calendar/index.html" if k == 0 else f"{dirs[4]}/calendar/{m[0]}-{m[1]:02d}.html")
           for k, m in enumerate(months)}
    for k, m in enumerate(months):
        p = cal[m]
        rows = ""
        for week in calendar.monthcalendar(*m):
            cells = ""
            for day in week:
                evs = [e for e in events.children if (e.date.year, e.date.month, e.date.day) == (*m, day)] if day else []
                cells += "<td>" + (str(day) if day else "") + "".join(f"<br>{s.a(p, e.path, e.title)}" for e in evs) + "</td>"
            rows += f"<tr>{cells}</tr>"
        nav = " ".join(s.a(p, cal[x], f"{s.months()[x[1] - 1]} {x[0]}") for x in months if x != m)
        s.emit(p, f"{s.L('calendar')} {s.months()[m[1] - 1]} {m[0]}", f'<table{s.c("box")}>{rows}</table><p>{nav}</p>', None)
    s.menu = [(n.title, n.path, [(k.title, k.path) for k in n.sections()]) for n in root.children]
    footer_pages(s, ("imprint", "privacy", "contact"), sitemap=s.once("has_sitemap", [True, False]))
    side = s.pick("sidebar", [None, "section"])
    emit_tree(s, root, s.pick("listing_mode", ["children", "cards"]), side=side, skip={news.path} | {n.path for n in news.children}
              | {n.path for n in events.children} | {events.path},
              home_body="".join(f'<h2>{s.a("index.html", n.path, n.title)}</h2><p>{esc(n.summary)}</p>' for n in top)
              + f"<h3>{esc(s.L('news'))}</h3>" + s.list_html("index.html", items(news.children[:4], summary=False)))
    s.paginate(news.path, news.title, items(news.children), rng.choice([8, 10]), news, side=lambda p: sidebar(s, news, p, side))
    for n in news.children:
        s.emit(n.path, n.title, story_page(s, n), n, side=sidebar(s, n, n.path, side))
    s.emit(events.path, events.title, f"<p>{s.a(events.path, cal[months[0]], s.L('calendar'))}</p>"
           + s.list_html(events.path, items(events.children)), events, side=sidebar(s, events, events.path, side))
    for n in events.children:
        s.emit(n.path, n.title, story_page(s, n) + f"<p>{s.a(n.path, cal[(n.date.year, n.date.month)], s.L('calendar'))}</p>",
               n, side=sidebar(s, n, n.path, side))
    return s.write(out, TRUTH)
