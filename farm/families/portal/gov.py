"""A government portal: life-event topics and sub-topics filing service pages, an A-Z index of
services (letter pages, a view that is not a node) in the main menu, agencies, news."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

from .common import TRUTH, dated, headline, items, story_page
from .grammar import Node, Site, esc, slug
from .tree import emit_tree, footer_pages, sidebar

SITES = {
    "portal-gov": "own portal grammar: a government portal (topics > sub-topics > services, agencies, news); the "
                  "services A-Z view and its letter pages, search and footer pages are not nodes",
}
TOPICS = {
    "en": ["Family", "Housing", "Work", "Health", "Transport", "Education", "Taxes", "Environment", "Business"],
    "de": ["Familie", "Wohnen", "Arbeit", "Gesundheit", "Verkehr", "Bildung", "Steuern", "Umwelt", "Wirtschaft"],
    "fr": ["Famille", "Logement", "Travail", "Santé", "Transports", "Éducation", "Impôts", "Environnement", "Entreprises"],
    "es": ["Familia", "Vivienda", "Trabajo", "Salud", "Transporte", "Educación", "Impuestos", "Medio ambiente", "Empresas"],
    "nl": ["Gezin", "Wonen", "Werk", "Zorg", "Verkeer", "Onderwijs", "Belastingen", "Milieu", "Ondernemen"],
}
VERB = {"en": ["Apply for", "Register", "Renew", "Report", "Request", "Change"],
        "de": ["Beantragen:", "Anmelden:", "Verlängern:", "Melden:", "Ändern:"],
        "fr": ["Demander", "Déclarer", "Renouveler", "Signaler", "Modifier"],
        "es": ["Solicitar", "Registrar", "Renovar", "Comunicar", "Modificar"],
        "nl": ["Aanvragen:", "Aanmelden:", "Verlengen:", "Melden:", "Wijzigen:"]}


def build(name: str, out: Path) -> dict:
    s = Site(name)
    rng = s.t.rng
    root = s.root
    tdir = s.pick("topic_dir", ["topics", "themen", "life-events", "residents", ""])
    pre = f"{tdir}/" if tdir else ""
    services = []
    for tn in rng.sample(TOPICS[s.lang], rng.randint(6, 8)):
        t = root.add(Node(tn, f"{pre}{slug(tn)}/index.html", "section", summary=s.t.sentence()))
        subs = [t.add(Node(x, f"{pre}{slug(tn)}/{slug(x)}/index.html", "section", summary=s.t.sentence()))
                for x in (s.t.title(1, 2) for _ in range(rng.randint(0, 3)))]
        for holder in subs or [t]:
            for _ in range(rng.randint(3, 6)):
                st = f"{rng.choice(VERB[s.lang])} {s.t.word()} {s.t.word()}"
                sp = s.once("service_url", ["service/{slug}.html", "{dir}/{slug}.html", "services/{id}/index.html"])
                n = holder.add(Node(st, s.uniq(sp.format(slug=slug(st), dir=holder.path.rsplit('/', 1)[0], id=500 + len(services))),
                                    "page", summary=s.t.sentence(), body=s.t.paragraphs(2, 3)))
                services.append(n)
    ag_dir = s.pick("agency_dir", ["agencies", "departments", "organisations", "ministries"])
    agencies = root.add(Node(s.once("agency_title", ["Agencies", "Departments", "Organisations"]) if s.lang == "en" else
                             ag_dir.capitalize(), f"{ag_dir}/index.html", "section"))
    for _ in range(rng.randint(5, 8)):
        an = f"{rng.choice(['Office', 'Agency', 'Bureau', 'Ministry'])} for {s.t.title(1, 2)}" if s.lang == "en" else s.t.title(2, 3)
        agencies.add(Node(an, s.uniq(f"{ag_dir}/{slug(an)}.html"), "page", body=s.t.paragraphs()))
    news = root.add(Node(s.L("news"), f"{slug(s.L('news'))}/index.html", "section"))
    for d in dated(s, rng.randint(15, 25), dt.datetime(2024, 2, 1, 11), 3, 12):
        h = headline(s)
        news.add(Node(h, s.uniq(f"{slug(s.L('news'))}/{d:%Y%m%d}-{slug(h)[:40].strip('-')}.html"), "page",
                      summary=s.t.sentence(), body=s.t.paragraphs(), date=d))
    topics = [n for n in root.children if n not in (agencies, news)]
    az = s.once("az_url", ["a-z/index.html", "services-a-z.html", "az/index.html"])
    letters = sorted({slug(x.title)[0].upper() for x in services})
    lstyle = s.pick("az_letters", ["query", "path", "anchors"])
    lp = {L: (f"{az}@letter={L}" if lstyle == "query" else
              (az.replace("index.html", f"{L.lower()}/index.html") if az.endswith("index.html") else az.replace(".html", f"-{L.lower()}.html"))
              if lstyle == "path" else az) for L in letters}
    s.menu = ([(t.title, t.path, [(k.title, k.path) for k in t.sections()]) for t in topics]
              if s.once("topics_in_menu", [True, False]) else []) + \
        [(s.L("az") if s.lang != "en" else "Services A-Z", az, []), (agencies.title, agencies.path, []), (news.title, news.path, [])]
    s.utility = [(s.L("search"), "search.html")]
    s.emit("search.html", s.L("search"), '<form action="/search"><input name="q"></form>')
    footer_pages(s, ("imprint", "privacy", "contact"), sitemap=s.once("has_sitemap", [True, False]))

    def az_page(p, L):
        bar = "<p>" + " ".join(s.a(p, lp[x], x) if lstyle != "anchors" else f'<a href="#{x}">{x}</a>' for x in letters) + "</p>"
        grp = [L] if L else letters
        body = ""
        for x in grp:
            ss = sorted((n for n in services if slug(n.title)[0].upper() == x), key=lambda n: n.title)
            body += f'<h2 id="{x}">{x}</h2>' + s.list_html(p, [{"to": n.path, "title": n.title} for n in ss], "ul")
        return bar + body
    s.emit(az, "Services A-Z" if s.lang == "en" else s.L("az"), az_page(az, None if lstyle == "anchors" else letters[0]))
    if lstyle != "anchors":
        for L in letters[1:]:
            s.emit(lp[L], f"A-Z: {L}", az_page(lp[L], L))
    side = s.pick("sidebar", [None, "section"])
    tiles = f'<div{s.c("list")}>' + "".join(f'<div{s.c("item")}><h2>{s.a("index.html", t.path, t.title)}</h2><p>{esc(t.summary)}</p></div>'
                                            for t in topics) + "</div>"
    tiles += f'<p>{s.a("index.html", az, "Services A-Z" if s.lang == "en" else s.L("az"))} · {s.a("index.html", agencies.path, agencies.title)}</p>'
    tiles += f"<h2>{s.a('index.html', news.path, news.title)}</h2>" + s.list_html("index.html", items(news.children[:3], summary=False))
    emit_tree(s, root, s.pick("listing_mode", ["children", "cards"]), side=side, skip={news.path} | {n.path for n in news.children},
              home_body=tiles, section_extra=None)
    s.paginate(news.path, news.title, items(news.children), 8, news)
    for n in news.children:
        s.emit(n.path, n.title, story_page(s, n), n)
    return s.write(out, TRUTH)
