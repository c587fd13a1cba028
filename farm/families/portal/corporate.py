"""A corporate site with a short one-word main menu (~7 items): product lines and products,
solutions, industries, company pages, careers (job list with location/department filters that
are not nodes), paginated press releases, a contact page."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

from .common import TRUTH, dated, headline, items, story_page
from .grammar import Node, Site, esc, slug
from .tree import emit_tree, footer_pages, sidebar

SITES = {
    "portal-corporate": "own portal grammar: a company site with a one-word main menu (Products, Solutions, Industries, "
                        "Company, Careers, News, Contact), product lines, job filters (?location=, not nodes), press releases",
}
MENU = {
    "en": ["Products", "Solutions", "Industries", "Company", "Careers", "News", "Contact"],
    "de": ["Produkte", "Lösungen", "Branchen", "Unternehmen", "Karriere", "Presse", "Kontakt"],
    "fr": ["Produits", "Solutions", "Secteurs", "Entreprise", "Carrières", "Presse", "Contact"],
    "es": ["Productos", "Soluciones", "Sectores", "Empresa", "Empleo", "Prensa", "Contacto"],
    "nl": ["Producten", "Oplossingen", "Sectoren", "Bedrijf", "Vacatures", "Nieuws", "Contact"],
}
CITIES = ["Berlin", "Lyon", "Austin", "Porto", "Utrecht", "Osaka", "Leeds"]


def build(name: str, out: Path) -> dict:
    s = Site(name, menu=None)
    rng = s.t.rng
    root = s.root
    labels = MENU[s.lang]
    en = MENU["en"]
    upper = s.once("dir_case", ["lower", "Title"]) == "Title"
    dirs = [(w if upper else slug(w)) for w in en]
    nodes = {}
    for lab, d in zip(labels, dirs):
        if d.lower() == "contact":
            nodes["Contact"] = root.add(Node(lab, s.once("contact_path", ["contact.html", "contact/index.html"]), "page",
                                             body=s.t.paragraphs(1, 2)))
        else:
            nodes[d.capitalize() if not upper else d] = root.add(Node(lab, f"{d}/index.html", "section", summary=s.t.sentence()))
    prods, sols, inds, comp, car, news = [nodes[k] for k in ("Products", "Solutions", "Industries", "Company", "Careers", "News")]
    pd = prods.path.rsplit("/", 1)[0]
    for _ in range(rng.randint(3, 4)):
        lt = s.t.title(1, 1) + rng.choice([" Series", " Line", " Suite", " Platform", ""])
        line = prods.add(Node(lt, f"{pd}/{slug(lt)}/index.html", "section", summary=s.t.sentence()))
        for _ in range(rng.randint(3, 6)):
            pt = f"{lt.split()[0]} {s.t.word().capitalize()} {rng.randint(2, 9)}{rng.choice(['00', '10', 'X', ' Pro', ''])}"
            line.add(Node(pt, s.uniq(f"{pd}/{slug(lt)}/{slug(pt)}.html"), "page", summary=s.t.sentence(), body=s.t.paragraphs()))
    for sec, n in ((sols, rng.randint(4, 7)), (inds, rng.randint(4, 6))):
        d = sec.path.rsplit("/", 1)[0]
        for _ in range(n):
            t = s.t.title(1, 3)
            sec.add(Node(t, s.uniq(f"{d}/{slug(t)}/index.html" if s.once("pretty_pages", [True, False]) else f"{d}/{slug(t)}.html"),
                         "page", summary=s.t.sentence(), body=s.t.paragraphs()))
    cd = comp.path.rsplit("/", 1)[0]
    for k in rng.sample(["About", "Team", "History", "Locations", "Sustainability", "Investors", "Partners"], 4):
        comp.add(Node(k if s.lang == "en" else f"{k} ({comp.title})", f"{cd}/{slug(k)}.html", "page", body=s.t.paragraphs()))
    jd = car.path.rsplit("/", 1)[0]
    depts = rng.sample(["Engineering", "Sales", "Finance", "Operations", "Marketing"], 3)
    cities = rng.sample(CITIES, 3)
    for i in range(rng.randint(9, 15)):
        jt = f"{rng.choice(['Senior', 'Junior', 'Lead', ''])} {s.t.word().capitalize()} {rng.choice(['Engineer', 'Manager', 'Analyst', 'Specialist'])}".strip()
        j = car.add(Node(jt, s.once("job_url", ["{d}/jobs/{id}.html", "{d}/{slug}-{id}.html", "jobs/{id}/index.html"])
                         .format(d=jd, id=2300 + 7 * i, slug=slug(jt)), "page", summary=s.t.sentence(), body=s.t.paragraphs()))
        j.data.update(city=rng.choice(cities), dept=rng.choice(depts))
    nd = news.path.rsplit("/", 1)[0]
    for d in dated(s, rng.randint(18, 30), dt.datetime(2023, 3, 1, 10), 5, 20):
        h = headline(s, 6, 10)
        news.add(Node(h, s.uniq(f"{nd}/{d:%Y}/{slug(h)[:50].strip('-')}.html"), "page", summary=s.t.sentence(),
                      body=s.t.paragraphs(), date=d))
    s.menu = [(n.title, n.path, [(k.title, k.path) for k in n.children[:8]] if n in (prods, sols, comp) else [])
              for n in root.children]
    footer_pages(s, ("imprint", "privacy"), sitemap=s.once("has_sitemap", [True, False]))
    c = s.c
    fkey = s.pick("job_filters", ["query", "query-multi"])
    fp = {}
    for city in cities:
        fp[("location", city)] = f"{car.path}@location={slug(city)}"
    for dep in depts:
        fp[("department", dep)] = f"{car.path}@department={slug(dep)}" if fkey == "query" else f"{car.path}@dept={slug(dep)}&sort=date"

    def filters(frm):
        return (f'<div{c("facet")}><h3>{esc(s.L("filter"))}</h3><ul>' + "".join(
            f"<li>{s.a(frm, p, v)}</li>" for (k, v), p in fp.items()) + f"</ul>{s.a(frm, car.path, s.L('all'))}</div>")

    def jobs(frm, js):
        return s.list_html(frm, [{"to": j.path, "title": j.title, "extra": f"{j.data['city']} · {j.data['dept']}"} for j in js])
    side = s.pick("sidebar", [None, "section"])
    skip = {car.path, news.path} | {n.path for n in car.children + news.children}
    home = (f'<div{c("box")}><h2>{esc(s.t.sentence())}</h2>{s.a("index.html", prods.path, s.L("more"))}</div>'
            + f'<div{c("list")}>' + "".join(f'<div{c("item")}>{s.a("index.html", x.path, x.title)}</div>'
                                           for x in [l.children[0] for l in prods.children]) + "</div>"
            + f"<h2>{esc(news.title)}</h2>" + s.list_html("index.html", items(news.children[:3])))
    emit_tree(s, root, s.pick("listing_mode", ["children", "cards"]), side=side, skip=skip, home_body=home)
    s.emit(car.path, car.title, filters(car.path) + jobs(car.path, car.children), car, side=sidebar(s, car, car.path, side))
    for (k, v), p in fp.items():
        s.emit(p, f"{car.title}: {v}", filters(p) + jobs(p, [j for j in car.children if v in (j.data["city"], j.data["dept"])]),
               None, s.crumbs_of(car))
    for j in car.children:
        s.emit(j.path, j.title, f"<p>{esc(j.data['city'])} · {esc(j.data['dept'])}</p>" + s.paras(j.body), j)
    s.paginate(news.path, news.title, items(news.children), rng.choice([6, 8, 10]), news, side=lambda p: sidebar(s, news, p, side))
    for n in news.children:
        s.emit(n.path, n.title, story_page(s, n, related=news.children[:3]), n)
    return s.write(out, TRUTH)
