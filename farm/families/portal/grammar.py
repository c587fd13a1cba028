"""The portal grammar: page chrome, menus, breadcrumbs, listings and pagination drawn at
random (seeded by the site name) from many conventions, so that no class name, label word
or markup pattern is shared by every site.

A kind module builds a content model (``Node`` tree plus non-node views), asks ``Site`` to
``emit`` each page's body, and ``Site.write`` renders the chrome around every body, writes
the files (``PATH@QUERY`` for query pages, ``_redirects``) and returns the truth read from
the ``Node`` tree -- never from the HTML.
"""
from __future__ import annotations

import datetime as dt
import html
import posixpath
import random
import re
import string
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from farm.check import BASE, url_of
from farm.content import Text

MONTHS = {
    "en": "January February March April May June July August September October November December",
    "de": "Januar Februar März April Mai Juni Juli August September Oktober November Dezember",
    "fr": "janvier février mars avril mai juin juillet août septembre octobre novembre décembre",
    "es": "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre",
    "nl": "januari februari maart april mei juni juli augustus september oktober november december",
}

# label word -> variants per language (a site draws one variant per key)
LABELS = {
    "en": dict(
        home=["Home", "Start", "Front page", "Main page", "Homepage"], search=["Search", "Find", "Search site"],
        more=["Read more", "More", "Continue reading", "Full story", "Details"],
        next=["Next", "Next »", "next page", "›", "Next page →"], prev=["Previous", "« Prev", "‹", "← Previous page"],
        older=["Older posts", "Older entries", "« Older stories", "More stories", "Load more"],
        newer=["Newer posts", "Newer entries", "Newer stories »"], page=["Page", "Pg.", "p."],
        tags=["Tags", "Topics", "Filed under", "Keywords"], by=["By", "Written by", "Posted by", "Author:"],
        related=["Related", "Related stories", "See also", "More on this"],
        latest=["Latest", "Latest news", "Just in", "Newest", "Recent"],
        mostread=["Most read", "Popular", "Trending", "Most viewed"], sort=["Sort by", "Order by", "Sort"],
        price=["Price", "Cost"], newest=["Newest", "New arrivals", "Latest"], name=["Name", "A-Z", "Title"],
        filter=["Filter", "Refine", "Narrow results", "Shop by"], all=["All", "Show all", "Clear filters"],
        contact=["Contact", "Contact us", "Get in touch"], about=["About", "About us", "Who we are"],
        here=["You are here:", "Location:", ""], archive=["Archive", "Archives", "Back issues"],
        members=["Members", "Users", "Community", "Member list"], replies=["Replies", "Posts", "Answers"],
        services=["Services", "Online services", "Our services"], az=["A-Z", "A to Z", "Index A-Z"],
        news=["News", "Newsroom", "Press", "Updates"], chronology=["Chronology", "Timeline", "History"],
        imprint=["Imprint", "Legal notice", "Terms"], privacy=["Privacy", "Privacy policy", "Cookies"],
        sitemap=["Sitemap", "Site map"], login=["Log in", "Sign in", "Login"], cart=["Cart", "Basket", "Bag"],
        lang=["Language", "Languages"], menu=["Menu", "Navigation", "Sections", "Browse"], go=["Go", "OK", "»"],
        calendar=["Calendar", "Events calendar", "What's on"], events=["Events", "Agenda", "Upcoming events"],
        print=["Print", "Printer-friendly version"], profile=["Profile", "View profile"],
        posts_by=["Find all posts by", "Posts by", "Search posts by"], topics=["Topics", "Threads", "Discussions"],
        color=["Colour", "Color"], size=["Size"], brand=["Brand", "Maker"], material=["Material", "Fabric"],
        jump=["Jump to", "Choose a section", "Quick links"]),
    "de": dict(
        home=["Startseite", "Start", "Home"], search=["Suche", "Suchen"], more=["Weiterlesen", "mehr", "Mehr lesen"],
        next=["Weiter", "Nächste Seite", "vor ›"], prev=["Zurück", "‹ zurück"], older=["Ältere Beiträge", "Weitere Artikel"],
        newer=["Neuere Beiträge"], page=["Seite"], tags=["Schlagworte", "Themen", "Stichwörter"], by=["Von", "Autor:"],
        related=["Mehr zum Thema", "Verwandte Artikel"], latest=["Neueste", "Aktuell", "Neu"],
        mostread=["Meistgelesen", "Beliebt"], sort=["Sortieren nach", "Sortierung"], price=["Preis"],
        newest=["Neuheiten", "Neueste"], name=["Name", "A-Z"], filter=["Filtern", "Eingrenzen"], all=["Alle", "Alle anzeigen"],
        contact=["Kontakt"], about=["Über uns", "Wir über uns"], here=["Sie sind hier:", ""], archive=["Archiv"],
        members=["Mitglieder", "Benutzer"], replies=["Antworten", "Beiträge"], services=["Dienstleistungen", "Leistungen"],
        az=["A-Z", "Leistungen A-Z"], news=["Nachrichten", "Aktuelles", "Presse"], chronology=["Chronik", "Zeitleiste"],
        imprint=["Impressum"], privacy=["Datenschutz"], sitemap=["Sitemap", "Inhaltsübersicht"], login=["Anmelden"],
        cart=["Warenkorb"], lang=["Sprache"], menu=["Menü", "Navigation", "Rubriken"], go=["Los", "OK"],
        calendar=["Kalender", "Veranstaltungskalender"], events=["Veranstaltungen", "Termine"], print=["Drucken", "Druckversion"],
        profile=["Profil"], posts_by=["Beiträge von", "Alle Beiträge von"], topics=["Themen"], color=["Farbe"],
        size=["Größe"], brand=["Marke", "Hersteller"], material=["Material"], jump=["Springe zu", "Schnellzugriff"]),
    "fr": dict(
        home=["Accueil", "Page d'accueil"], search=["Rechercher", "Recherche"], more=["Lire la suite", "En savoir plus", "Suite"],
        next=["Suivant", "Page suivante ›"], prev=["Précédent", "‹ Page précédente"], older=["Articles plus anciens", "Plus d'articles"],
        newer=["Articles plus récents"], page=["Page"], tags=["Mots-clés", "Thèmes", "Étiquettes"], by=["Par", "Auteur :"],
        related=["À lire aussi", "Sur le même sujet"], latest=["À la une", "Dernières nouvelles", "En continu"],
        mostread=["Les plus lus", "Populaires"], sort=["Trier par", "Tri"], price=["Prix"], newest=["Nouveautés"],
        name=["Nom"], filter=["Filtrer", "Affiner"], all=["Tout", "Tout afficher"], contact=["Contact", "Nous contacter"],
        about=["À propos", "Qui sommes-nous"], here=["Vous êtes ici :", ""], archive=["Archives"], members=["Membres"],
        replies=["Réponses", "Messages"], services=["Services", "Démarches"], az=["De A à Z", "A-Z"],
        news=["Actualités", "Actus", "Presse"], chronology=["Chronologie", "Frise"], imprint=["Mentions légales"],
        privacy=["Confidentialité", "Données personnelles"], sitemap=["Plan du site"], login=["Connexion"],
        cart=["Panier"], lang=["Langue"], menu=["Menu", "Rubriques"], go=["OK", "Aller"], calendar=["Calendrier", "Agenda"],
        events=["Événements", "Agenda"], print=["Imprimer"], profile=["Profil"], posts_by=["Messages de", "Rechercher les messages de"],
        topics=["Sujets", "Discussions"], color=["Couleur"], size=["Taille", "Pointure"], brand=["Marque"],
        material=["Matière"], jump=["Aller à", "Accès rapide"]),
    "es": dict(
        home=["Inicio", "Portada"], search=["Buscar", "Búsqueda"], more=["Leer más", "Seguir leyendo", "Ver más"],
        next=["Siguiente", "Página siguiente ›"], prev=["Anterior", "‹ Anterior"], older=["Entradas anteriores", "Más noticias"],
        newer=["Entradas más recientes"], page=["Página"], tags=["Etiquetas", "Temas"], by=["Por", "Autor:"],
        related=["Noticias relacionadas", "Te puede interesar"], latest=["Última hora", "Lo último"],
        mostread=["Lo más leído", "Más vistos"], sort=["Ordenar por", "Orden"], price=["Precio"], newest=["Novedades"],
        name=["Nombre"], filter=["Filtrar", "Refinar"], all=["Todos", "Ver todo"], contact=["Contacto", "Contáctenos"],
        about=["Quiénes somos", "Sobre nosotros"], here=["Está en:", ""], archive=["Archivo", "Hemeroteca"],
        members=["Miembros", "Usuarios"], replies=["Respuestas", "Mensajes"], services=["Servicios", "Trámites"],
        az=["A-Z", "Trámites de la A a la Z"], news=["Noticias", "Actualidad", "Prensa"], chronology=["Cronología"],
        imprint=["Aviso legal"], privacy=["Privacidad", "Política de cookies"], sitemap=["Mapa del sitio"],
        login=["Iniciar sesión", "Acceder"], cart=["Carrito", "Cesta"], lang=["Idioma"], menu=["Menú", "Secciones"],
        go=["Ir", "OK"], calendar=["Calendario", "Agenda"], events=["Eventos", "Agenda"], print=["Imprimir"],
        profile=["Perfil"], posts_by=["Mensajes de", "Buscar mensajes de"], topics=["Temas", "Hilos"], color=["Color"],
        size=["Talla", "Tamaño"], brand=["Marca"], material=["Material", "Tejido"], jump=["Ir a", "Accesos directos"]),
    "nl": dict(
        home=["Home", "Startpagina", "Voorpagina"], search=["Zoeken", "Zoek"], more=["Lees meer", "Meer", "Verder lezen"],
        next=["Volgende", "Volgende pagina ›"], prev=["Vorige", "‹ Vorige"], older=["Oudere berichten", "Meer nieuws"],
        newer=["Nieuwere berichten"], page=["Pagina"], tags=["Tags", "Trefwoorden", "Onderwerpen"], by=["Door", "Auteur:"],
        related=["Gerelateerd", "Lees ook"], latest=["Laatste nieuws", "Net binnen", "Nieuwste"],
        mostread=["Meest gelezen", "Populair"], sort=["Sorteer op", "Sorteren"], price=["Prijs"], newest=["Nieuw binnen"],
        name=["Naam"], filter=["Filter", "Verfijn"], all=["Alles", "Toon alles"], contact=["Contact"],
        about=["Over ons", "Wie zijn wij"], here=["U bent hier:", ""], archive=["Archief"], members=["Leden", "Gebruikers"],
        replies=["Reacties", "Berichten"], services=["Diensten", "Producten en diensten"], az=["A-Z", "Van A tot Z"],
        news=["Nieuws", "Actueel", "Pers"], chronology=["Tijdlijn", "Kroniek"], imprint=["Colofon", "Disclaimer"],
        privacy=["Privacy", "Cookiebeleid"], sitemap=["Sitemap"], login=["Inloggen"], cart=["Winkelwagen", "Mandje"],
        lang=["Taal"], menu=["Menu", "Rubrieken"], go=["Ga", "OK"], calendar=["Kalender", "Agenda"], events=["Evenementen", "Agenda"],
        print=["Afdrukken"], profile=["Profiel"], posts_by=["Berichten van", "Zoek berichten van"], topics=["Onderwerpen"],
        color=["Kleur"], size=["Maat"], brand=["Merk"], material=["Materiaal"], jump=["Ga naar", "Snel naar"]),
}

# news desk names per language (for news-like portals)
DESKS = {
    "en": "Politics Business Sport Culture Science World Local Opinion Travel Health Tech Weather Education Media".split(),
    "de": "Politik Wirtschaft Sport Kultur Wissen Welt Regional Meinung Reise Gesundheit Digital Wetter Bildung Medien".split(),
    "fr": "Politique Économie Sport Culture Sciences Monde Régions Opinions Voyage Santé Numérique Météo Éducation Médias".split(),
    "es": "Política Economía Deportes Cultura Ciencia Internacional Local Opinión Viajes Salud Tecnología Tiempo Educación Medios".split(),
    "nl": "Politiek Economie Sport Cultuur Wetenschap Buitenland Regio Opinie Reizen Gezondheid Tech Weer Onderwijs Media".split(),
}

PLAIN = {
    "wrap": ["wrapper", "container", "page", "site", "outer", "frame"],
    "header": ["header", "masthead", "top", "banner", "site-head", "hdr"],
    "logo": ["logo", "brand", "site-title", "sitename", "wordmark"],
    "nav": ["nav", "menu", "navigation", "mainmenu", "topnav", "navbar", "primary", "menubar"],
    "navitem": ["menu-item", "nav-item", "item", "tab", "entry", "mi"],
    "sub": ["submenu", "dropdown", "flyout", "children", "mega", "panel", "sub"],
    "crumbs": ["breadcrumb", "breadcrumbs", "crumbs", "path", "trail", "where", "locator"],
    "main": ["content", "main", "primary", "body", "article-area", "col-main", "center"],
    "side": ["sidebar", "aside", "secondary", "col-side", "rail", "widget-area", "leftcol"],
    "footer": ["footer", "foot", "site-info", "bottom", "colophon", "legal"],
    "list": ["list", "listing", "items", "stream", "river", "results", "feed", "grid"],
    "item": ["entry", "card", "story", "teaser", "post", "row", "result", "tile", "unit"],
    "title": ["title", "headline", "heading", "name", "hed", "caption"],
    "teaser": ["summary", "excerpt", "blurb", "dek", "standfirst", "lead", "intro"],
    "meta": ["meta", "byline", "info", "details", "dateline", "small"],
    "pager": ["pagination", "pager", "pages", "paging", "nav-links", "page-numbers", "pagenav"],
    "facet": ["facets", "filters", "refine", "filter-group", "options", "narrow"],
    "box": ["box", "panel", "block", "module", "widget", "well", "section"],
    "current": ["active", "current", "selected", "on", "is-active", "here"],
}
UTIL = ("flex grid block inline-flex px-2 px-4 py-1 py-2 py-3 text-sm text-lg font-bold font-medium mt-2 mb-4 "
        "gap-2 gap-4 items-center justify-between container mx-auto w-full border-b border-t rounded "
        "shadow-sm bg-white bg-gray-50 text-gray-700 hover:underline md:flex lg:w-1/4 lg:w-3/4 space-y-2 "
        "list-none leading-tight tracking-wide uppercase col-span-2 p-4 m-0").split()


def query_nodes_ok() -> bool:
    """Whether farm.check resolves ``PATH?QUERY`` links to a ``PATH@QUERY`` node under its
    ``?`` URL (then content pages may live at ``article.php?id=N``; otherwise they get path ids)."""
    import tempfile

    from farm import check
    with tempfile.TemporaryDirectory() as d:
        Path(d, "a.php@id=1").write_text("<html></html>")
        try:
            return check.canonical(BASE + "a.php?id=1", Path(d)) == BASE + "a.php?id=1"
        except Exception:
            return False


def turl(path: str) -> str:
    """The truth URL of a served file; ``PATH@QUERY`` files are the URL ``PATH?QUERY``."""
    p, at, q = path.partition("@")
    return url_of(p) + ("?" + q if at else "")


def esc(s: str) -> str:
    return html.escape(str(s), quote=True)


def slug(text: str) -> str:
    t = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", t.lower()).strip("-")


@dataclass
class Node:
    """A node of the truth tree: ``path`` is its file in the served folder."""
    title: str
    path: str
    kind: str = "page"            # home | section | page
    parent: "Node | None" = None
    children: list["Node"] = field(default_factory=list)
    summary: str = ""
    body: list[str] = field(default_factory=list)
    date: dt.datetime | None = None
    author: str = ""
    tags: list[str] = field(default_factory=list)
    data: dict = field(default_factory=dict)

    def add(self, child: "Node") -> "Node":
        child.parent = self
        self.children.append(child)
        return child

    def walk(self):
        yield self
        for c in self.children:
            yield from c.walk()

    def ancestors(self) -> list["Node"]:
        out, n = [], self
        while n is not None:
            out.append(n)
            n = n.parent
        return out[::-1]

    def sections(self) -> list["Node"]:
        return [c for c in self.children if c.kind == "section"]

    def leaves(self) -> list["Node"]:
        return [c for c in self.children if c.kind != "section"]


class Site:
    """One site's drawn conventions, its pages and its truth."""

    def __init__(self, name: str, **force) -> None:
        self.name = name
        self.rng = random.Random(name + "/style")
        self.t = Text(name)
        self.force = force
        self.st: dict = {}
        r = self.rng
        self.lang = self.pick("lang", ["en"] * 5 + ["de", "fr", "es", "nl"])
        self.layout = self.pick("layout", ["tables", "divs", "divs", "html5", "html5", "html5"])
        self.classes = self.pick("classes", ["bem", "utility", "hash", "none", "plain", "plain"])
        self.menu_style = self.pick("menu", ["ul", "ul", "div", "buttons", "select", "mega"])
        self.crumb_style = self.pick("crumbs", [None, "ol", "sep", "nav_ul", "p_font", "schema"])
        self.pager_style = self.pick("pager", ["dir", "query", "indexN", "pageN", "older"])
        self.href_mode = self.pick("href", ["rel", "root", "root", "abs"])
        self.pretty = self.pick("pretty", [True, True, False])
        self.noslash = self.pick("noslash", [False, False, True]) if self.pretty else False
        self.list_markup = self.pick("listing", ["ul", "divs", "table", "dl", "articles", "ol"])
        self.side_left = r.random() < 0.5
        self.bem_block = r.choice(["site", "page", "l", "c", "app", "ui", slug(self.t.word())[:6]])
        self.hash_prefix = r.choice(["css-", "sc-", "_", "jsx-", "x", "emotion-"])
        self.title = force.get("title") or self.make_title()
        self._cls: dict[str, str] = {}
        self._lab: dict[str, str] = {}
        self.files: dict[str, str] = {}          # path -> finished html
        self.pending: list[tuple] = []           # pages to render
        self.nin: list[str] = []                 # non-node pages (paths)
        self.redirects: list[str] = []
        self.menu: list[tuple[str, str, list]] = []   # (label, path, [(label, path)])
        self.menu_fallback = self.menu_style == "select"
        self.footer: list[tuple[str, str]] = []
        self.utility: list[tuple[str, str]] = []
        self.root = Node(self.title, "index.html", "home")
        self.head_extra = ""
        self.lang_links: dict[str, str] | None = None   # lang -> path prefix (multilingual)
        self.side_fn = None                      # callable(node, path) -> html for every page

    # ------------------------------------------------------------ drawing
    def pick(self, key, options):
        v = self.force[key] if self.force.get(key) is not None else self.rng.choice(options)
        self.st[key] = v
        return v

    def once(self, key, options):
        if key not in self.st:
            self.st[key] = self.force[key] if self.force.get(key) is not None else self.rng.choice(options)
        return self.st[key]

    def make_title(self) -> str:
        w = self.t.word().capitalize()
        return self.rng.choice([f"The {w} Times", f"{w} Online", f"{w}Net", f"{w} Group", f"{w} Portal",
                                f"Daily {w}", f"{w} & {self.t.word().capitalize()}", f"{w}.com"])

    def L(self, key: str, lang: str | None = None) -> str:
        lang = lang or self.lang
        k = (lang, key)
        if k not in self._lab:
            self._lab[k] = self.rng.choice(LABELS[lang][key])
        return self._lab[k]

    def months(self, lang=None) -> list[str]:
        return MONTHS[lang or self.lang].split()

    def fmt_date(self, d: dt.datetime) -> str:
        f = self.st.get("datefmt") or self.pick("datefmt", ["iso", "long", "dots", "slash", "short"])
        m = self.months()
        return {"iso": d.strftime("%Y-%m-%d"), "long": f"{m[d.month - 1].capitalize()} {d.day}, {d.year}"
                if self.lang == "en" else f"{d.day} {m[d.month - 1]} {d.year}",
                "dots": d.strftime("%d.%m.%Y"), "slash": d.strftime("%m/%d/%Y"),
                "short": f"{d.day} {m[d.month - 1][:3]} {d.year}"}[f]

    def c(self, role: str) -> str:
        """The class attribute (with a leading space) for a role, drawn once per site."""
        if role not in self._cls:
            r = self.rng
            word = r.choice(PLAIN.get(role, [role]))
            if self.classes == "none":
                v = ""
            elif self.classes == "plain":
                v = word
            elif self.classes == "bem":
                v = f"{self.bem_block}-{word}" if role in ("header", "footer", "nav", "main", "wrap", "side") \
                    else f"{self.bem_block}__{word}"
            elif self.classes == "utility":
                v = " ".join(r.sample(UTIL, r.randint(2, 4)))
            else:
                h = "".join(r.choice(string.ascii_lowercase + string.digits) for _ in range(r.randint(5, 7)))
                v = f"{self.hash_prefix}{h}"
                if r.random() < 0.3:
                    v += f" {self.hash_prefix}{''.join(r.choice(string.ascii_lowercase) for _ in range(6))}"
            self._cls[role] = v
        v = self._cls[role]
        return f' class="{v}"' if v else ""

    def uniq(self, path: str) -> str:
        """The path, or a numbered variant when already used on this site."""
        used = self.__dict__.setdefault("_paths", set())
        cand, k = path, 2
        while cand in used:
            if cand.endswith("/index.html"):
                cand = path[:-len("/index.html")] + f"-{k}/index.html"
            else:
                stem, dot, ext = path.rpartition(".")
                cand = f"{stem}-{k}.{ext}"
            k += 1
        used.add(cand)
        return cand

    # ------------------------------------------------------------ links
    def href(self, frm: str, to: str) -> str:
        p, _, q = to.partition("@")
        tgt = p
        if q and self.href_mode == "rel" and p == frm and self.once("bareq", [True, False]):
            return "?" + q   # "?page=2" from the listing itself
        if self.pretty and not q and (p == "index.html" or p.endswith("/index.html")):
            tgt = p[:-len("index.html")]
            if self.noslash and tgt and not q:
                tgt = tgt.rstrip("/")
        if self.href_mode == "rel":
            start = posixpath.dirname(frm) or "."
            if tgt == "" or tgt.endswith("/"):
                r = posixpath.relpath(tgt.rstrip("/") or ".", start)
                out = "./" if r == "." else r + "/"
            else:
                out = posixpath.relpath(tgt, start)
        elif self.href_mode == "root":
            out = "/" + tgt
        else:
            out = BASE + tgt
        return quote(out, safe="/:.-_~") + (("?" + q) if q else "")

    def a(self, frm: str, to: str, text: str, attrs: str = "") -> str:
        return f'<a href="{esc(self.href(frm, to))}"{attrs}>{esc(text)}</a>'

    # ------------------------------------------------------------ pages
    def emit(self, path: str, title: str, body: str, node: Node | None = None, crumbs: list | None = None,
             side: str | None = None, lang: str | None = None, head: str = "") -> None:
        """Register a page; chrome is added in ``write``. Non-node pages go to not_in_tree."""
        if node is None:
            self.nin.append(path)
        self.pending.append((path, title, body, node, crumbs, side, lang, head))

    def crumbs_of(self, node: Node) -> list[tuple[str, str]]:
        return [(n.title if n.kind != "home" else self.L("home"), n.path) for n in node.ancestors()]

    def render_menu(self, frm: str, cur: str | None, lang: str | None) -> str:
        s, c = self.menu_style, self.c
        items = self.menus.get(lang, self.menu) if hasattr(self, "menus") else self.menu
        home_lab = self.L("home", lang)

        def cls_cur(path):
            if path != cur:
                return ""
            return self.c("current") or ' aria-current="page"'
        if self.layout == "tables" and s in ("ul", "div", "mega"):
            rows = "".join(f'<tr><td{cls_cur(p)}><font size="2" face="Arial">{self.a(frm, p, lab)}</font></td></tr>'
                           for lab, p, _ in items)
            out = f'<table{c("nav")} border="0" cellpadding="3" cellspacing="0" width="100%">{rows}</table>'
        elif s == "ul":
            lis = "".join(f'<li{c("navitem")}>{self.a(frm, p, lab, cls_cur(p))}</li>' for lab, p, _ in items)
            out = f'<ul{c("nav")}>{lis}</ul>'
        elif s == "div":
            sep = self.once("menusep", [" | ", " · ", " ", " / "])
            out = f'<div{c("nav")}>' + sep.join(f'<span{c("navitem")}>{self.a(frm, p, lab, cls_cur(p))}</span>'
                                                for lab, p, _ in items) + "</div>"
        elif s == "buttons":
            out = f'<div{c("nav")} role="menubar">' + "".join(
                f'<button type="button"{c("navitem")}>{self.a(frm, p, lab, cls_cur(p))}</button>' for lab, p, _ in items) + "</div>"
        elif s == "select":
            opts = "".join(f'<option value="{esc(self.href(frm, p))}"{" selected" if p == cur else ""}>{esc(lab)}</option>'
                           for lab, p, _ in items)
            out = (f'<form{c("nav")} action="#"><label>{esc(self.L("jump", lang))} <select name="goto" '
                   f'onchange="location.href=this.value">{opts}</select></label> '
                   f'<input type="submit" value="{esc(self.L("go", lang))}"></form>')
            # the visible link fallback: a plain line of links under the form
            out += f'<p{c("box")}>' + " | ".join(self.a(frm, p, lab) for lab, p, _ in items) + "</p>"
        else:  # mega
            lis = []
            for lab, p, subs in items:
                panel = ""
                if subs:
                    cols = "".join(f'<li>{self.a(frm, sp, sl)}</li>' for sl, sp in subs)
                    panel = f'<div{c("sub")}><ul>{cols}</ul></div>'
                lis.append(f'<li{c("navitem")}>{self.a(frm, p, lab, cls_cur(p))}{panel}</li>')
            out = f'<ul{c("nav")}>{"".join(lis)}</ul>'
        if self.layout == "html5":
            out = f'<nav aria-label="{esc(self.L("menu", lang))}">{out}</nav>'
        return out

    def render_crumbs(self, frm: str, crumbs: list[tuple[str, str]], lang) -> str:
        s, c = self.crumb_style, self.c
        if not s or len(crumbs) < 2:
            return ""
        here = self.L("here", lang)
        links = [self.a(frm, p, t) for t, p in crumbs[:-1]]
        last = esc(crumbs[-1][0])
        if s == "ol":
            lis = "".join(f"<li>{x}</li>" for x in links) + f'<li aria-current="page">{last}</li>'
            return f'<nav{c("crumbs")} aria-label="breadcrumb"><ol>{lis}</ol></nav>'
        if s == "schema":
            lis = "".join(f'<li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem">'
                          f'<a itemprop="item" href="{esc(self.href(frm, p))}"><span itemprop="name">{esc(t)}</span></a>'
                          f'<meta itemprop="position" content="{i + 1}"></li>' for i, (t, p) in enumerate(crumbs[:-1]))
            return f'<ul{c("crumbs")} itemscope itemtype="https://schema.org/BreadcrumbList">{lis}<li>{last}</li></ul>'
        if s == "nav_ul":
            return f'<div{c("crumbs")}><ul>' + "".join(f"<li>{x}</li>" for x in links) + f"<li><span>{last}</span></li></ul></div>"
        if s == "p_font":
            return f'<p><font size="1">{esc(here)} ' + " &gt; ".join(links + [last]) + "</font></p>"
        sep = self.once("crumbsep", ([" › ", " / ", " » ", " &gt; ", " → "]))
        return f'<div{c("crumbs")}>{esc(here)} ' + sep.join(links + [last]) + "</div>"

    def render(self, path, title, body, node, crumbs, side, lang, head) -> str:
        c = self.c
        lang = lang or self.lang
        if crumbs is None and node is not None:
            crumbs = self.crumbs_of(node)
        if node is not None:
            top = node.ancestors()[1].path if len(node.ancestors()) > 1 else None
        else:
            top = None
        menu = self.render_menu(path, top, lang)
        bc = self.render_crumbs(path, crumbs or [], lang)
        if side is None and self.side_fn:
            side = self.side_fn(node, path)
        logo = self.a(path, "index.html" if not self.lang_links else self.lang_links[lang] + "index.html",
                      self.title, c("logo"))
        util = " ".join(self.a(path, p, t) for t, p in self.utility)
        langs = ""
        if self.lang_links:
            alts = node.data.get("alts", {}) if node else {}
            alts = alts or (self._alts.get(path, {}) if hasattr(self, "_alts") else {})
            langs = " ".join(self.a(path, p, l.upper(), f' hreflang="{l}" lang="{l}"') for l, p in alts.items() if l != lang)
            head += "".join(f'<link rel="alternate" hreflang="{l}" href="{esc(self.href(path, p))}">' for l, p in alts.items())
        foot = f' {self.once("footsep", (["|", "·", "–", ""]))} '.join(
            self.a(path, p, t) for t, p in self.footer)
        year = 2024
        body_h1 = f"<h1>{esc(title)}</h1>" if not body.lstrip().startswith("<h1") else ""
        main = f"{bc}{body_h1}{body}"
        ttl = f"{esc(title)} {self.once('tsep', (['|', '-', '–', '::', '·']))} {esc(self.title)}" \
            if path != "index.html" else esc(self.title)
        if self.layout == "tables":
            html_ = (f'<html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8"><title>{ttl}</title>{head}</head>'
                     f'<body bgcolor="#ffffff" topmargin="0" leftmargin="0">'
                     f'<table{c("wrap")} width="760" border="0" cellspacing="0" cellpadding="0" align="center">'
                     f'<tr><td colspan="3" bgcolor="#003366"><font face="Georgia" size="6" color="#ffffff"><b>{logo}</b></font>'
                     f' <font size="1">{util} {langs}</font></td></tr>'
                     f'<tr><td width="150" valign="top" bgcolor="#eeeeee">{menu}'
                     f'{"<br>" + side if side and self.side_left else ""}</td>'
                     f'<td width="10"><img src="/img/spacer.gif" width="10" height="1" alt=""></td>'
                     f'<td valign="top"><font face="Verdana, Arial" size="2">{main}</font></td>'
                     f'{"<td width=160 valign=top>" + side + "</td>" if side and not self.side_left else ""}</tr>'
                     f'<tr><td colspan="3" align="center"><font size="1">{foot}<br>&copy; {year} {esc(self.title)}</font></td></tr>'
                     f'</table></body></html>')
        elif self.layout == "divs":
            sidebar = f'<div{c("side")}>{side}</div>' if side else ""
            html_ = (f'<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN"><html lang="{lang}"><head>'
                     f'<meta charset="utf-8"><title>{ttl}</title>{head}</head><body><div{c("wrap")} id="wrap">'
                     f'<div{c("header")} id="header"><div id="util">{util} {langs}</div>{logo}</div>'
                     f'<div id="navigation">{menu}</div>'
                     + (sidebar if self.side_left else "") + f'<div{c("main")} id="content">{main}</div>'
                     + ("" if self.side_left else sidebar)
                     + f'<div{c("footer")} id="footer">{foot}<br>&copy; {year} {esc(self.title)}</div></div></body></html>')
        else:
            aside = f'<aside{c("side")}>{side}</aside>' if side else ""
            html_ = (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
                     f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>{ttl}</title>{head}</head>'
                     f'<body><header{c("header")}><div>{logo}</div><div>{util} {langs}</div>{menu}</header>'
                     + (aside if self.side_left else "") + f'<main{c("main")}>{main}</main>'
                     + ("" if self.side_left else aside)
                     + f'<footer{c("footer")}><p>{foot}</p><p>&copy; {year} {esc(self.title)}</p></footer></body></html>')
        return html_

    # ------------------------------------------------------------ listings
    def item_html(self, frm: str, it: dict, mode: str | None = None) -> str:
        """One listing entry: {to, title, summary?, date?, author?, extra?}."""
        c = self.c
        mode = mode or self.list_markup
        link = self.a(frm, it["to"], it["title"])
        meta = []
        if it.get("date"):
            meta.append(f'<time datetime="{it["date"]:%Y-%m-%d}">{esc(self.fmt_date(it["date"]))}</time>')
        if it.get("author_html"):
            meta.append(it["author_html"])
        if it.get("extra"):
            meta.append(it["extra"])
        meta_h = f'<span{c("meta")}>{" ".join(meta)}</span>' if meta else ""
        summ = f'<p{c("teaser")}>{esc(it["summary"])}</p>' if it.get("summary") else ""
        more = ""
        if it.get("summary") and self.once("readmore", [True, False, False]):
            more = " " + self.a(frm, it["to"], self.L("more"))
        if mode == "table":
            return f'<tr><td valign="top"><b>{link}</b><br>{meta_h}{"<br><font size=1>" + esc(it.get("summary", "")) + "</font>" if it.get("summary") else ""}{more}</td></tr>'
        if mode == "dl":
            return f'<dt>{link} {meta_h}</dt><dd>{esc(it.get("summary", ""))}{more}</dd>'
        if mode == "articles":
            tag = "article" if self.layout == "html5" else "div"
            return f'<{tag}{c("item")}><h3{c("title")}>{link}</h3>{meta_h}{summ}{more}</{tag}>'
        if mode == "divs":
            return f'<div{c("item")}><h4>{link}</h4>{meta_h}{summ}{more}</div>'
        return f'<li{c("item")}>{link} {meta_h}{summ}{more}</li>'

    def list_html(self, frm: str, items: list[dict], mode: str | None = None) -> str:
        mode = mode or self.list_markup
        inner = "".join(self.item_html(frm, it, mode) for it in items)
        c = self.c
        if mode == "table":
            return f'<table{c("list")} border="0" cellpadding="4" width="100%">{inner}</table>'
        if mode == "dl":
            return f'<dl{c("list")}>{inner}</dl>'
        if mode in ("articles", "divs"):
            return f'<div{c("list")}>{inner}</div>'
        tag = "ol" if mode == "ol" else "ul"
        return f'<{tag}{c("list")}>{inner}</{tag}>'

    def page_path(self, first: str, k: int, style: str | None = None) -> str:
        style = style or self.pager_style
        d = posixpath.dirname(first)
        pre = d + "/" if d else ""
        if posixpath.basename(first) != "index.html":
            pre = first.rsplit(".", 1)[0] + "/"   # listing in a file: its pages in a folder of its name
        if style in ("dir", "older"):
            return f"{pre}page/{k}/index.html"
        if style == "query":
            return f"{first}@page={k}"
        if style == "indexN":
            return f"{pre}index{k}.html"
        return f"{pre}page{k}.html"

    def pager_html(self, frm: str, first: str, k: int, n: int, style: str | None = None) -> str:
        style = style or self.pager_style
        c = self.c
        pp = lambda i: first if i == 1 else self.page_path(first, i, style)  # noqa: E731
        rel = style == "query" or self.once("relnext", [True, False])
        parts = []
        if style == "older":
            if k < n:
                parts.append(self.a(frm, pp(k + 1), self.L("older"), ' rel="next"' if rel else ""))
            if k > 1:
                parts.append(self.a(frm, pp(k - 1), self.L("newer"), ' rel="prev"' if rel else ""))
        else:
            if k > 1:
                parts.append(self.a(frm, pp(k - 1), self.L("prev"), ' rel="prev"' if rel else ""))
            for i in range(1, n + 1):
                parts.append(f"<strong>{i}</strong>" if i == k else self.a(frm, pp(i), str(i)))
            if k < n:
                parts.append(self.a(frm, pp(k + 1), self.L("next"), ' rel="next"' if rel else ""))
        tag = "nav" if self.layout == "html5" else "div"
        return f'<{tag}{c("pager")}>{" ".join(parts)}</{tag}>'

    def paginate(self, first: str, title: str, items: list[dict], per: int, node: Node | None = None,
                 head_html: str = "", foot_html: str = "", crumbs=None, side=None, mode=None, style=None,
                 render=None) -> None:
        """A listing over several pages: page 1 at ``first`` (the node's page), the others not nodes."""
        chunks = [items[i:i + per] for i in range(0, len(items), per)] or [[]]
        n = len(chunks)
        for k, chunk in enumerate(chunks, 1):
            path = first if k == 1 else self.page_path(first, k, style)
            sd = side(path) if callable(side) else side
            lst = render(path, chunk) if render else self.list_html(path, chunk, mode)
            pager = self.pager_html(path, first, k, n, style) if n > 1 else ""
            t = title if k == 1 else f"{title} – {self.L('page')} {k}"
            if k == 1:
                self.emit(path, t, head_html + lst + pager + foot_html, node, crumbs, sd)
            else:
                self.emit(path, t, lst + pager, None, crumbs or (self.crumbs_of(node) if node else None), sd)

    # ------------------------------------------------------------ text
    def paras(self, body: list[str]) -> str:
        return "".join(f"<p>{esc(p)}</p>" for p in body)

    # ------------------------------------------------------------ output
    def write(self, out: Path, truth_method: str, extra_meta: dict | None = None) -> dict:
        if "_sitemap" in self.__dict__:
            from .tree import finish_sitemap
            finish_sitemap(self)
        for args in self.pending:
            if args is not None:
                self.files[args[0]] = self.render(*args)
        for path, text in self.files.items():
            f = out / path
            f.parent.mkdir(parents=True, exist_ok=True)
            f.write_text(text, encoding="utf-8")
        if self.redirects:
            (out / "_redirects").write_text("\n".join(self.redirects) + "\n")
        nodes = list(self.root.walk())
        paths = [n.path for n in nodes]
        assert len(paths) == len(set(paths)), "two nodes share a path"
        missing = [p for p in paths if p not in self.files]
        assert not missing, f"nodes without a page: {missing[:5]}"
        edges = [[turl(p.path), turl(ch.path)] for p in nodes for ch in p.children]
        node_set = set(paths)
        nin = []
        for p in dict.fromkeys(self.nin):
            if p in node_set:
                continue
            nin.append(turl(p))
        meta = {"not_in_tree": nin, "truth_method": truth_method,
                "theme": "own markup grammar; conventions drawn: " + ", ".join(f"{k}={v}" for k, v in self.st.items()),
                "conventions": {k: v for k, v in self.st.items()},
                "versions": {"grammar": "1"}}
        meta.update(extra_meta or {})
        return {"root": turl(self.root.path), "edges": edges, "meta": meta}


def conventions(site: Site) -> str:
    return ", ".join(f"{k}={v}" for k, v in site.st.items())
