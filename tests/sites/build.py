#!/usr/bin/env python3
"""Generate the labelled test websites under tests/sites/.

Every site is a folder of static HTML files, tests/sites/<name>/, plus
tests/sites/<name>.truth.json holding the site's designed navigation tree:

    {"root": URL, "edges": [[parent, child], ...],
     "meta": {"site": name, "kind": ..., "description": ...,
              "not_in_tree": [URL, ...]}}

URLs are http://127.0.0.1:8000/ + the percent-encoded path inside the site
folder (directories written as dir/index.html, no fragment).  Internal tree
nodes are navigation pages, leaves are content pages.  Pages that exist but
are deliberately outside the tree (search, login, tags, archives, legal,
pagination, facet URLs with query strings...) are listed in not_in_tree.

All links in the pages are relative or root-relative, so a site can be served
from its own folder on any port (python -m http.server).  The only links that
leave a site go to http://www.example.com/..., mailto:, tel: or javascript:.

Usage:
    python tests/sites/build.py            # rebuild every site, then check
    python tests/sites/build.py blog forum # rebuild only these
    python tests/sites/build.py --check    # only run the checks

Standard library only and deterministic: the only randomness is
random.Random(<fixed seed>) per site, so a rebuild gives identical bytes.
"""
from __future__ import annotations

import datetime
import html
import json
import os
import posixpath
import random
import re
import shutil
import sys
import unicodedata
from html.parser import HTMLParser
from urllib.parse import quote, unquote, urldefrag, urljoin, urlsplit

HERE = os.path.dirname(os.path.abspath(__file__))
BASE = "http://127.0.0.1:8000/"
EXT = "http://www.example.com"
MONTHS = ["January", "February", "March", "April", "May", "June", "July",
          "August", "September", "October", "November", "December"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
            "Saturday", "Sunday"]

# --------------------------------------------------------------- helpers


def url(path):
    """Truth URL of a site path (which may carry a ?query)."""
    p, sep, q = path.partition("?")
    return BASE + quote(p) + sep + q


def esc(text):
    """Escape text for element content or a double-quoted attribute."""
    return html.escape(text, quote=False).replace('"', "&quot;")


def slug(text):
    """ASCII slug: 'Café & Bar' -> 'cafe-bar'."""
    t = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", t.lower()).strip("-")


def rel(frm, to):
    """Relative, percent-encoded href from page `frm` to page `to`."""
    p, sep, q = to.partition("?")
    start = posixpath.dirname(frm) or "."
    return quote(posixpath.relpath(p, start)) + sep + q


def root(to):
    """Root-relative, percent-encoded href to page `to`."""
    p, sep, q = to.partition("?")
    return "/" + quote(p) + sep + q


def pretty(to):
    """Root-relative 'pretty' href: dir/index.html -> /dir/."""
    p = root(to)
    return p[: -len("index.html")] if p.endswith("/index.html") else p


def fmt_date(d):
    return f"{MONTHS[d.month - 1]} {d.day}, {d.year}"


WORDS = """the a of and to in for on with at by from new local public city
council plan report data service project system network season market price
growth energy water school family community research quality support design
early late river region board policy future change group level open small
large simple modern common recent careful quiet clear strong better several
often still usually always never also however because while although people
users members teams visitors residents students results changes options
questions details steps weeks months years days evening morning summer
winter spring autumn works helps shows makes keeps brings needs offers
includes describes explains improves reduces remains becomes""".split()


def sentence(rng, lo=8, hi=16):
    words = [rng.choice(WORDS) for _ in range(rng.randint(lo, hi))]
    return " ".join(words).capitalize() + "."


def paragraph(rng, lo=3, hi=5):
    return " ".join(sentence(rng) for _ in range(rng.randint(lo, hi)))


def html5(title, body, css="", lang="en", head=""):
    """A plain HTML5 document (utf-8)."""
    return (f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n'
            f'<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{esc(title)}</title>\n{head}"
            f"<style>{css}</style>\n</head>\n{body}\n</html>\n")


class Site:
    """Pages of one site, its true edges and its pages outside the tree."""

    def __init__(self, name, kind, description, seed, encoding="utf-8"):
        self.name = name
        self.kind = kind
        self.description = description
        self.encoding = encoding
        self.rng = random.Random(seed)
        self.pages = {}        # site path -> html text
        self.edges = []        # (parent path, child path)
        self.outside = []      # paths (maybe with ?query) not in the tree

    def add(self, path, text):
        if path in self.pages:
            raise ValueError(f"{self.name}: page {path} written twice")
        self.pages[path] = text

    def edge(self, parent, child):
        self.edges.append((parent, child))

    def out(self, path):
        if path not in self.outside:
            self.outside.append(path)

    def truth(self):
        return {"root": url("index.html"),
                "edges": [[url(p), url(c)] for p, c in self.edges],
                "meta": {"site": self.name, "kind": self.kind,
                         "description": self.description,
                         "not_in_tree": [url(p) for p in self.outside]}}

    def write(self):
        folder = os.path.join(HERE, self.name)
        if os.path.isdir(folder):
            shutil.rmtree(folder)
        for path, text in sorted(self.pages.items()):
            full = os.path.join(folder, *path.split("/"))
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "wb") as fh:
                fh.write(text.encode(self.encoding))
        with open(folder + ".truth.json", "w", encoding="utf-8") as fh:
            json.dump(self.truth(), fh, indent=1)
            fh.write("\n")


# ----------------------------------------------------------------- check


class _Hrefs(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.hrefs = []

    def handle_starttag(self, tag, attrs):
        if tag in ("a", "area", "link"):
            for key, value in attrs:
                if key == "href" and value is not None:
                    self.hrefs.append(value.strip())


def _decode(data):
    m = re.search(rb"charset=[\"']?([\w-]+)", data[:2048], re.I)
    return data.decode(m.group(1).decode() if m else "utf-8")


def _norm(u):
    """Canonical URL: no fragment, percent-encoded path, dir/ -> dir/index.html."""
    parts = urlsplit(urldefrag(u)[0])
    path = quote(unquote(parts.path))
    if path.endswith("/"):
        path += "index.html"
    query = "?" + parts.query if parts.query else ""
    return f"{parts.scheme}://{parts.netloc}{path}{query}"


def _file_of(u):
    """Site path of a truth/normalised URL (query dropped)."""
    return unquote(urlsplit(u).path)[1:]


def _external(href):
    return href.startswith(("mailto:", "javascript:", "tel:", EXT))


def page_links(folder, path, problems):
    """Normalised internal URLs linked from one page."""
    with open(os.path.join(folder, *path.split("/")), "rb") as fh:
        parser = _Hrefs()
        parser.feed(_decode(fh.read()))
    found = set()
    for href in parser.hrefs:
        if _external(href) or href.startswith("#"):
            continue
        if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", href) or href.startswith("//"):
            problems.append(f"{path}: absolute link {href}")
            continue
        found.add(_norm(urljoin(url(path), href)))
    return found


def _site_files(folder):
    files = set()
    for dirpath, _, names in os.walk(folder):
        for n in names:
            full = os.path.relpath(os.path.join(dirpath, n), folder)
            files.add(full.replace(os.sep, "/"))
    return files


def _check_tree(truth, files, problems):
    """Tree shape; returns (parent map, node set, depth)."""
    rt = truth["root"]
    if rt != url("index.html"):
        problems.append(f"root is {rt}")
    parent = {}
    for p, c in truth["edges"]:
        if c in parent:
            problems.append(f"{c} has two parents")
        parent[c] = p
    if rt in parent:
        problems.append("root has a parent")
    nodes = {rt} | set(parent) | set(parent.values())
    depth = 0
    for n in nodes:
        if _file_of(n) not in files or "?" in n or "#" in n:
            problems.append(f"tree node {n} is not a plain existing file")
        seen, x = set(), n
        while x != rt and x in parent and x not in seen:
            seen.add(x)
            x = parent[x]
        if x != rt:
            problems.append(f"{n} does not lead up to the root")
        depth = max(depth, len(seen))
    return parent, nodes, depth


def check(name):
    """Verify a generated site against its truth; raise on any problem."""
    folder = os.path.join(HERE, name)
    with open(folder + ".truth.json", encoding="utf-8") as fh:
        truth = json.load(fh)
    problems = []
    files = _site_files(folder)
    links = {f: page_links(folder, f, problems) for f in files}
    parent, nodes, depth = _check_tree(truth, files, problems)
    for p, c in truth["edges"]:
        if c not in links.get(_file_of(p), ()):
            problems.append(f"parent {p} does not link its child {c}")
    nit = truth["meta"]["not_in_tree"]
    for u in nit:
        if u in nodes or _file_of(u) not in files:
            problems.append(f"not_in_tree {u} is a tree node or missing")
    for f, targets in links.items():
        for t in targets:
            if not t.startswith(BASE) or _file_of(t) not in files:
                problems.append(f"{f}: broken link {t}")
    listed = nodes | set(nit)
    for f in files:
        if url(f) not in listed:
            problems.append(f"{f} is neither in the tree nor in not_in_tree")
    seen, todo = {"index.html"}, ["index.html"]
    while todo:
        for t in links[todo.pop()]:
            f = _file_of(t)
            if f in files and f not in seen:
                seen.add(f)
                todo.append(f)
    problems += [f"{f} unreachable from index.html" for f in files - seen]
    if problems:
        raise AssertionError(f"{name}: {len(problems)} problems:\n  "
                             + "\n  ".join(sorted(problems)[:40]))
    return {"pages": len(files), "tree_nodes": len(nodes),
            "edges": len(truth["edges"]), "depth": depth,
            "not_in_tree": len(nit)}


# ============================================================ news_tables
# A 1990s/2000s news portal: nested <TABLE> layout, <FONT> tags, uppercase
# markup, unclosed <P>/<TD>/<LI>, ISO-8859-1 bytes.

NEWS = [
    ("National", [], [
        "Parliament approves 40 million euro plan for rural schools and clinics",
        "Minister Lefèvre faces new questions over delayed railway contracts",
        "Record number of students apply to universities this autumn",
        "Flood defences along the Maas to be rebuilt before the winter",
        "Opposition calls for inquiry into hospital waiting lists after leaked report"]),
    ("World", [
        ("Europe", [
            "Voters in Zürich reject proposal to extend shop opening hours",
            "Rail strike in Köln leaves thousands of commuters stranded overnight",
            "Genève mayor unveils plan for a car-free old town by 2006"]),
        ("Asia", [
            "Typhoon season ends early as rice farmers count the cost",
            "Tokyo stock exchange extends trading hours to attract foreign investors",
            "Archaeologists in Xi'an uncover second pit of terracotta horses"]),
        ("Americas", [
            "São Paulo metro expansion delayed again amid dispute over funding",
            "Montréal jazz festival reports its best attendance in a decade",
            "Bogotá bans cars from the city centre every Sunday morning"])], []),
    ("Business", [
        ("Markets", [
            "Euro climbs to a record high against the dollar on strong exports",
            "Oil prices fall for a third week as OPEC talks stall",
            "Small investors return to the stock market after three lean years"]),
        ("Companies", [
            "Nestlé chief defends takeover strategy at stormy shareholder meeting",
            "Airline merger approved by regulators despite objections from unions",
            "Mobile phone maker to cut 1,200 jobs in its research division"])], []),
    ("Sports", [
        ("Football", [
            "Late goal from Ibáñez sends Málaga to the top of the table",
            "National coach Müller names three newcomers in squad for friendly",
            "New stadium plans approved after two years of debate in the council",
            "Fans protest against rising ticket prices before Saturday's derby"]),
        ("Tennis", [
            "Håkansson wins five-set thriller to reach the semi-finals in Paris",
            "Teenage qualifier Núñez stuns the top seed in straight sets",
            "Veteran champion announces retirement after twenty years on tour"])], []),
    ("Culture", [], [
        "Café society: how the old coffee houses survived the supermarket age",
        "Crème brûlée and cinema: the festival menu revealed at last",
        "Opera house reopens after four years of restoration work",
        "Novelist Gonçalves wins European literature prize for her debut"]),
    ("Science", [], [
        "Astronomers discover a planet orbiting a star in Ursa Major",
        "Ångström-scale microscope reveals the structure of a single protein",
        "Researchers in Tromsø track the effect of warmer winters on reindeer",
        "Genome study traces the origins of the domestic horse"]),
]
NEWS_SIMPLE = [("search.html", "Search the Courier"), ("login.html", "Member login"),
               ("register.html", "Register for free"), ("contact.html", "Contact the newsroom"),
               ("about.html", "About the Daily Courier"), ("advertise.html", "Advertise with us"),
               ("legal.html", "Legal notice"), ("privacy.html", "Privacy policy")]
NEWS_FOOT = [("About us", "about.html"), ("Advertise", "advertise.html"),
             ("Contact", "contact.html"), ("Legal notice", "legal.html"),
             ("Privacy", "privacy.html")]
NEWS_AUTHORS = ["Pieter de Vries", "Anne Mercier", "José Álvarez", "Greta Sørensen",
                "Tom Hughes"]


def _news_section(name, path, up, heads):
    sec = {"name": name, "path": path, "up": up, "subs": [], "arts": []}
    sec["arts"] = [{"title": h, "sec": sec} for h in heads]
    return sec


def news_model(rng):
    secs, arts = [], []
    for name, subs, heads in NEWS:
        sec = _news_section(name, f"section_{slug(name)}.html", None, heads)
        secs.append(sec)
        for sub_name, sub_heads in subs:
            path = f"section_{slug(name)}_{slug(sub_name)}.html"
            sub = _news_section(sub_name, path, sec, sub_heads)
            sec["subs"].append(sub)
            secs.append(sub)
            arts += sub["arts"]
        arts += sec["arts"]
    rng.shuffle(arts)
    for i, art in enumerate(arts):
        d = datetime.date(2003, 11, 28) - datetime.timedelta(days=2 * i + rng.randint(0, 1))
        art["date"] = d
        art["path"] = f"stories/{d:%Y/%m/%d}/story{10230 + 7 * i}.html"
        art["teaser"] = sentence(rng, 12, 20)
    for sec in secs:
        sec["arts"].sort(key=lambda a: a["date"], reverse=True)
    months = sorted({a["date"].strftime("%Y-%m") for a in arts}, reverse=True)
    return {"secs": secs, "top": [x for x in secs if x["up"] is None],
            "arts": arts, "months": months}


def news_month(mo):
    y, m = mo.split("-")
    return f"{MONTHS[int(m) - 1]} {y}"


def news_all_arts(sec):
    arts = sec["arts"] + [a for sub in sec["subs"] for a in sub["arts"]]
    return sorted(arts, key=lambda a: a["date"], reverse=True)


def news_right(r):
    return f"""<TABLE WIDTH=100% BORDER=0 CELLPADDING=3 CELLSPACING=0>
<TR><TD BGCOLOR="#003366"><FONT FACE="Verdana" SIZE=1 COLOR="#FFFFFF"><B>WEATHER</B></FONT>
<TR><TD><FONT FACE="Verdana" SIZE=1>Sunny spells, 12&deg;C<BR><A HREF="{EXT}/weather/forecast?city=courier">5-day forecast</A></FONT>
<TR><TD BGCOLOR="#003366"><FONT FACE="Verdana" SIZE=1 COLOR="#FFFFFF"><B>ADVERTISEMENT</B></FONT>
<TR><TD ALIGN=center><A HREF="{EXT}/ads/click?id=4471"><IMG SRC="{EXT}/ads/banner120x240.gif" WIDTH=120 HEIGHT=240 BORDER=0 ALT="Advertisement"></A>
<TR><TD BGCOLOR="#003366"><FONT FACE="Verdana" SIZE=1 COLOR="#FFFFFF"><B>READERS' POLL</B></FONT>
<TR><TD><FORM ACTION="{EXT}/cgi-bin/poll.pl" METHOD=post><FONT FACE="Verdana" SIZE=1>Should shops open on Sundays?<BR>
<INPUT TYPE=radio NAME=v VALUE=1>Yes<BR><INPUT TYPE=radio NAME=v VALUE=2>No<BR><INPUT TYPE=submit VALUE="Vote"></FONT></FORM>
<TR><TD><FONT FACE="Verdana" SIZE=1><A HREF="{r('register.html')}">Get the Courier by e-mail</A><BR>
<A HREF="{EXT}/partners/tv-guide">TV guide</A><BR><A HREF="{EXT}/partners/classifieds">Classifieds</A></FONT>
</TABLE>"""


def news_chrome(m, path, title, center):
    def r(p):
        return rel(path, p)
    util = " | ".join(f'<A HREF="{r(p)}"><FONT COLOR="#FFFFFF">{t}</FONT></A>' for t, p in
                      [("Home", "index.html"), ("Search", "search.html"),
                       ("Login", "login.html"), ("Register", "register.html")])
    bar = "&nbsp;|&nbsp;\n".join(
        f'<A HREF="{r(x["path"])}"><FONT COLOR="#FFFFFF"><B>{x["name"].upper()}</B></FONT></A>'
        for x in m["top"])
    tops = "<BR><BR>\n".join(f'<A HREF="{r(a["path"])}">{esc(a["title"])}</A>'
                             for a in m["arts"][:6])
    months = "<BR>\n".join(f'<A HREF="{r("archive/" + mo + ".html")}">{news_month(mo)}</A>'
                           for mo in m["months"])
    foot = " | ".join(f'<A HREF="{r(p)}">{t}</A>' for t, p in NEWS_FOOT)
    return f"""<HTML>
<HEAD>
<META charset=iso-8859-1>
<TITLE>{esc(title)} - The Daily Courier Online</TITLE>
</HEAD>
<BODY BGCOLOR="#FFFFFF" TEXT="#000000" LINK="#003399" VLINK="#663399" TOPMARGIN=0 LEFTMARGIN=0>
<A NAME="top"></A>
<TABLE WIDTH=760 BORDER=0 CELLPADDING=0 CELLSPACING=0>
<TR>
<TD BGCOLOR="#003366" COLSPAN=3><A HREF="{r('index.html')}"><IMG SRC="{EXT}/courier/img/logo.gif" WIDTH=320 HEIGHT=60 BORDER=0 ALT="The Daily Courier Online"></A>
<TD BGCOLOR="#003366" ALIGN=right VALIGN=bottom><FONT FACE="Verdana,Arial" SIZE=1 COLOR="#FFFFFF">{util}</FONT>
</TR>
<TR><TD BGCOLOR="#CC0000" COLSPAN=4 HEIGHT=22>&nbsp;<FONT FACE="Arial" SIZE=2>{bar}</FONT></TR>
<TR>
<TD WIDTH=150 VALIGN=top BGCOLOR="#EEEEEE">
<TABLE WIDTH=100% BORDER=0 CELLPADDING=3 CELLSPACING=0>
<TR><TD BGCOLOR="#666666"><FONT FACE="Verdana" SIZE=1 COLOR="#FFFFFF"><B>TOP STORIES</B></FONT>
<TR><TD><FONT FACE="Verdana" SIZE=1>{tops}</FONT>
<TR><TD BGCOLOR="#666666"><FONT FACE="Verdana" SIZE=1 COLOR="#FFFFFF"><B>ARCHIVE</B></FONT>
<TR><TD><FONT FACE="Verdana" SIZE=1>{months}<BR><A HREF="{r('archive/index.html')}">All archives...</A></FONT>
</TABLE>
<TD WIDTH=10>&nbsp;
<TD WIDTH=440 VALIGN=top><FONT FACE="Times New Roman,Times">
{center}
</FONT>
<TD WIDTH=160 VALIGN=top>{news_right(r)}
</TR>
</TABLE>
<TABLE WIDTH=760 BORDER=0><TR><TD ALIGN=center><HR SIZE=1 NOSHADE>
<FONT FACE="Verdana" SIZE=1>{foot}<BR>
Copyright &copy; 1998-2003 The Daily Courier. All rights reserved. <A HREF="mailto:webmaster@example.com">webmaster@example.com</A></FONT>
</TABLE>
</BODY>
</HTML>
"""


def news_crumb(path, sec):
    chain = []
    while sec:
        chain.insert(0, sec)
        sec = sec["up"]
    parts = [f'<A HREF="{rel(path, "index.html")}">Home</A>']
    parts += [f'<A HREF="{rel(path, x["path"])}">{x["name"]}</A>' for x in chain]
    return '<FONT FACE="Verdana" SIZE=1>' + " &gt; ".join(parts) + "</FONT><BR>"


def news_headlines(path, arts, teaser=True):
    out = []
    for a in arts:
        t = f'<BR><FONT SIZE=2>{esc(a["teaser"])}</FONT>' if teaser else ""
        out.append(f'<P><FONT FACE="Georgia" SIZE=3><B><A HREF="{rel(path, a["path"])}">'
                   f'{esc(a["title"])}</A></B></FONT><BR><FONT FACE="Verdana" SIZE=1 '
                   f'COLOR="#666666">{a["date"]:%d.%m.%Y}</FONT>{t}')
    return "\n".join(out)


def news_home(s, m):
    p = "index.html"
    lead = m["arts"][0]
    rows = []
    for sec in m["top"]:
        rows.append(f'<TR><TD BGCOLOR="#CCCCCC"><FONT FACE="Arial" SIZE=2><B>'
                    f'<A HREF="{rel(p, sec["path"])}">{sec["name"].upper()}</A></B></FONT>\n'
                    f'<TR><TD>{news_headlines(p, news_all_arts(sec)[:2], teaser=False)}')
        s.edge(p, sec["path"])
    center = f"""<FONT FACE="Georgia" SIZE=5><B><A HREF="{rel(p, lead['path'])}">{esc(lead['title'])}</A></B></FONT><BR>
<FONT SIZE=3>{esc(lead['teaser'])} <A HREF="{rel(p, lead['path'])}">More...</A></FONT>
<P>
<TABLE WIDTH=100% BORDER=0 CELLPADDING=3 CELLSPACING=0>
{chr(10).join(rows)}
</TABLE>"""
    s.add(p, news_chrome(m, p, "Home", center))


def news_section_page(s, m, sec):
    p = sec["path"]
    body = [news_crumb(p, sec["up"]),
            f'<FONT FACE="Georgia" SIZE=5 COLOR="#003366"><B>{sec["name"]}</B></FONT><BR>']
    if sec["subs"]:
        items = "\n".join(f'<LI><A HREF="{rel(p, x["path"])}"><B>{x["name"]}</B></A>'
                          for x in sec["subs"])
        body.append(f'<TABLE WIDTH=100% BGCOLOR="#FFFFCC" CELLPADDING=4><TR><TD>'
                    f'<FONT FACE="Verdana" SIZE=2><B>In this section:</B><UL>\n{items}\n'
                    f'</UL></FONT></TABLE>')
        for sub in sec["subs"]:
            body.append(f'<P><TABLE WIDTH=100% CELLPADDING=2 CELLSPACING=0><TR><TD BGCOLOR='
                        f'"#CCCCCC"><FONT FACE="Arial" SIZE=2><B><A HREF="{rel(p, sub["path"])}">'
                        f'{sub["name"].upper()}</A></B></FONT>\n<TR><TD>'
                        f'{news_headlines(p, sub["arts"][:2], teaser=False)}\n</TABLE>')
            s.edge(p, sub["path"])
    else:
        body.append(news_headlines(p, sec["arts"]))
    if sec["up"]:
        body.append(f'<P><FONT SIZE=2>&laquo; <A HREF="{rel(p, sec["up"]["path"])}">'
                    f'Back to {sec["up"]["name"]}</A></FONT>')
    for a in sec["arts"]:
        s.edge(p, a["path"])
    s.add(p, news_chrome(m, p, sec["name"], "\n".join(body)))


def news_article(s, m, art):
    p, sec, rng = art["path"], art["sec"], s.rng
    sib = sec["arts"]
    i = sib.index(art)
    related = "<BR>\n".join(f'<A HREF="{rel(p, x["path"])}">{esc(x["title"])}</A>'
                            for x in sib if x is not art)
    paras = "\n".join(f"<P>{paragraph(rng)}" for _ in range(rng.randint(3, 5)))
    nav = []
    if i > 0:
        nav.append(f'<A HREF="{rel(p, sib[i - 1]["path"])}">&laquo; Newer story</A>')
    if i + 1 < len(sib):
        nav.append(f'<A HREF="{rel(p, sib[i + 1]["path"])}">Older story &raquo;</A>')
    center = f"""{news_crumb(p, sec)}
<FONT FACE="Georgia" SIZE=5><B>{esc(art['title'])}</B></FONT><BR>
<FONT FACE="Verdana" SIZE=1 COLOR="#666666">By {esc(rng.choice(NEWS_AUTHORS))} | {art['date']:%d.%m.%Y}, {rng.randint(6, 22):02d}:{rng.randint(0, 59):02d}</FONT>
<TABLE ALIGN=right WIDTH=170 BGCOLOR="#EEEEEE" CELLPADDING=4 HSPACE=6><TR><TD><FONT FACE="Verdana" SIZE=1><B>RELATED STORIES</B><BR>
{related}</FONT></TABLE>
<FONT SIZE=3><P><B>{esc(art['teaser'])}</B>
{paras}
</FONT>
<P><FONT FACE="Verdana" SIZE=1>[ <A HREF="javascript:window.print()">Print this story</A> ] [ <A HREF="mailto:?subject=Courier%20story">E-mail to a friend</A> ] [ <A HREF="#top">Top</A> ]<BR>
{' | '.join(nav)}</FONT>"""
    s.add(p, news_chrome(m, p, art["title"], center))


def news_archive(s, m):
    p = "archive/index.html"
    items = "\n".join(f'<LI><A HREF="{rel(p, "archive/" + mo + ".html")}">{news_month(mo)}</A>'
                      for mo in m["months"])
    s.add(p, news_chrome(m, p, "Archive", f'<FONT FACE="Georgia" SIZE=5><B>Archive</B></FONT>'
                                          f'<P>Browse stories by month:<UL>\n{items}\n</UL>'))
    s.out(p)
    for mo in m["months"]:
        p = f"archive/{mo}.html"
        rows, day = [], None
        for a in (x for x in m["arts"] if x["date"].strftime("%Y-%m") == mo):
            if a["date"] != day:
                day = a["date"]
                rows.append(f'<P><B>{WEEKDAYS[day.weekday()]}, {day.day}. {news_month(mo)}</B><BR>')
            rows.append(f'<A HREF="{rel(p, a["path"])}">{esc(a["title"])}</A> '
                        f'<FONT SIZE=1>({a["sec"]["name"]})</FONT><BR>')
        center = (f'<FONT FACE="Georgia" SIZE=5><B>Archive: {news_month(mo)}</B></FONT>\n'
                  + "\n".join(rows))
        s.add(p, news_chrome(m, p, "Archive " + news_month(mo), center))
        s.out(p)


def news_simple_pages(s, m):
    for p, title in NEWS_SIMPLE:
        extra = ""
        if p == "search.html":
            extra = ('<FORM ACTION="search.html" METHOD=get><INPUT NAME=q SIZE=30> '
                     '<INPUT TYPE=submit VALUE="Search"></FORM>')
        elif p in ("login.html", "register.html"):
            extra = ('<FORM ACTION="login.html" METHOD=post>E-mail: <INPUT NAME=u><BR>'
                     'Password: <INPUT TYPE=password NAME=p><BR><INPUT TYPE=submit VALUE="OK"></FORM>')
        center = (f'<FONT FACE="Georgia" SIZE=5><B>{title}</B></FONT>\n<P>{paragraph(s.rng)}\n'
                  f'<P>{paragraph(s.rng)}\n{extra}')
        s.add(p, news_chrome(m, p, title, center))
        s.out(p)


def build_news_tables():
    s = Site("news_tables", "news portal (table layout, 2003)",
             "1990s/2000s news portal built with nested <TABLE> layout, <FONT> tags, "
             "uppercase and partly unclosed markup, ISO-8859-1 encoded. Home -> 6 sections "
             "(3 with subsections) -> articles. Noise: section bar on every page, top "
             "stories column, date archive, related stories, newer/older links.",
             seed=1901, encoding="iso-8859-1")
    m = news_model(s.rng)
    news_home(s, m)
    for sec in m["secs"]:
        news_section_page(s, m, sec)
    for art in m["arts"]:
        news_article(s, m, art)
    news_archive(s, m)
    news_simple_pages(s, m)
    return s


# ========================================================== shop_megamenu
# A modern shop: header mega-menu with every category and subcategory on
# every page, product cards, facet filters with query strings, pagination,
# footer link farm.  Product pages live in a flat /p/ folder.

SHOP = [
    ("Women", [
        ("Dresses", ["Wrap Midi Dress", "Shirt Dress", "Tiered Maxi Dress",
                     "Satin Slip Dress", "Smocked Mini Dress"]),
        ("Tops & Blouses", ["Puff Sleeve Blouse", "Ribbed Tank Top",
                            "Oversized Poplin Shirt", "Wrap Front Top"]),
        ("Knitwear", ["Cable Knit Jumper", "Cropped Cardigan", "Roll Neck Sweater"]),
        ("Shoes", ["Leather Ankle Boots", "Espadrille Sandals", "Chunky Trainers",
                   "Slingback Pumps"])]),
    ("Men", [
        ("Shirts", ["Oxford Button-Down Shirt", "Linen Resort Shirt", "Flannel Overshirt",
                    "Slim Fit Poplin Shirt"]),
        ("Jackets & Coats", ["Quilted Puffer Jacket", "Wool Blend Overcoat",
                             "Waxed Field Jacket", "Denim Trucker Jacket", "Hooded Rain Parka"]),
        ("Trousers", ["Tapered Stretch Chinos", "Pleated Wool Trousers", "Relaxed Cargo Pants"])]),
    ("Home & Living", [
        ("Bedding", ["Stonewashed Linen Duvet Cover Set", "Percale Fitted Sheet",
                     "Waffle Knit Throw Blanket", "Down Alternative Pillow Pair"]),
        ("Kitchen", ["Enamelled Cast Iron Casserole Dish", "Stainless Steel Saucepan Set",
                     "Ceramic Pour-Over Coffee Maker", "Acacia Wood Chopping Board",
                     "Glass Storage Jar Set"]),
        ("Lighting", ["Rattan Pendant Lamp Shade", "Dimmable Brass Floor Lamp",
                      "Rechargeable Cordless Table Lamp"])]),
    ("Electronics", [
        ("Headphones", ["Wireless Noise Cancelling Headphones", "True Wireless Earbuds",
                        "Open-Back Studio Headphones", "Kids' Volume-Limited Headphones"]),
        ("Smart Home", ["Wi-Fi Smart Plug Twin Pack", "Video Doorbell with Night Vision",
                        "Smart Thermostat Starter Kit"])]),
    ("Sports & Outdoors", [
        ("Running", ["Cushioned Road Running Shoes", "Lightweight Packable Running Jacket",
                     "Seamless Running Tights", "Trail Hydration Vest 5L"]),
        ("Camping", ["Two-Person Backpacking Tent", "Three-Season Down Sleeping Bag",
                     "Compact Gas Camping Stove"]),
        ("Cycling", ["Padded Cycling Bib Shorts", "Aero Road Bike Helmet",
                     "USB Rechargeable Bike Light Set"]),
        ("Yoga", ["Non-Slip Cork Yoga Mat", "High-Waisted Yoga Leggings",
                  "Organic Cotton Yoga Bolster"])]),
]
SHOP_BRANDS = ["Nordhavn", "Alder & Fox", "Maison Clé", "Kestrel", "Urbanfield", "Solberg"]
SHOP_SUFFIX = [" in Sage Green", " with Recycled Fill", " - Regular Fit", "", " in Navy",
               " (Pack of 2)", " - Limited Edition", "", " in Oatmeal", ""]
SHOP_FACETS = ["color=black", "color=navy", "color=red", "sort=price-asc", "sort=newest"]
SHOP_INFO = [  # footer link farm: (column, label, path)
    ("Customer service", "Contact us", "help/contact.html"),
    ("Customer service", "Delivery information", "help/shipping.html"),
    ("Customer service", "Returns & refunds", "help/returns.html"),
    ("Customer service", "FAQ", "help/faq.html"),
    ("About us", "Our story", "about/our-story.html"),
    ("About us", "Careers", "about/careers.html"),
    ("About us", "Press", "about/press.html"),
    ("About us", "Sustainability", "about/sustainability.html"),
    ("Legal", "Terms & conditions", "legal/terms.html"),
    ("Legal", "Privacy notice", "legal/privacy.html"),
    ("Legal", "Cookie settings", "legal/cookies.html"),
    ("Legal", "Imprint", "legal/imprint.html"),
]
SHOP_UTIL = [("Find a store", "stores.html"), ("Help", "help/faq.html"),
             ("Sign in", "account/login.html"), ("Wishlist", "wishlist.html"),
             ("Bag (0)", "cart.html")]
SHOP_CSS = ("body{font-family:Helvetica,Arial,sans-serif;margin:0}.mega{display:none}"
            ".menu-item:hover .mega{display:flex}.grid{display:grid;"
            "grid-template-columns:repeat(4,1fr);gap:16px}.price{font-weight:bold}")


def shop_model(rng):
    cats, prods, sku = [], [], 1000
    for cname, subs in SHOP:
        cat = {"name": cname, "path": f"{slug(cname)}/index.html", "subs": []}
        cats.append(cat)
        for sname, items in subs:
            sub = {"name": sname, "cat": cat, "prods": [],
                   "path": f"{slug(cname)}/{slug(sname)}/index.html"}
            cat["subs"].append(sub)
            for item in items:
                sku += rng.randint(3, 40)
                name = f"{rng.choice(SHOP_BRANDS)} {item}{rng.choice(SHOP_SUFFIX)}"
                prod = {"name": name, "sku": sku, "sub": sub,
                        "path": f"p/{slug(name)}-{sku}.html",
                        "price": f"{rng.randint(9, 229)}.{rng.choice(['00', '95', '99'])}"}
                sub["prods"].append(prod)
                prods.append(prod)
    return {"cats": cats, "prods": prods}


def shop_header(m):
    items = []
    for cat in m["cats"]:
        subs = "".join(f'<li><a href="{root(x["path"])}">{esc(x["name"])}</a></li>'
                       for x in cat["subs"])
        c = slug(cat["name"])
        items.append(
            f'<li class="menu-item has-mega"><a class="menu-link" href="{root(cat["path"])}">'
            f'{esc(cat["name"])}</a>\n  <div class="mega"><div class="mega-col"><h4>Shop by '
            f'category</h4><ul>{subs}</ul></div>\n  <div class="mega-col promo"><a href="'
            f'{root("search.html?q=new&cat=" + c).replace("&", "&amp;")}">New in</a> <a href="'
            f'{root("search.html?q=sale&cat=" + c).replace("&", "&amp;")}">Sale</a></div></div></li>')
    util = "".join(f'<li><a href="{root(p)}">{esc(t)}</a></li>' for t, p in SHOP_UTIL)
    return f"""<header class="site-header">
<div class="topbar"><p class="usp">Free delivery over &euro;60 &middot; 30-day returns</p>
<ul class="utility-nav">{util}</ul></div>
<div class="brand-row"><a class="logo" href="/index.html"><img src="{EXT}/cdn/northwind-logo.svg" alt="Northwind"></a>
<form class="search" action="/search.html" method="get" role="search"><input type="search" name="q" placeholder="Search products"><button type="submit">Search</button></form></div>
<nav class="mega-nav" aria-label="Main"><ul class="menu">
{chr(10).join(items)}
<li class="menu-item sale"><a class="menu-link" href="/search.html?q=sale">Sale</a></li>
</ul></nav>
</header>"""


def shop_footer():
    cols = {}
    for col, label, p in SHOP_INFO:
        cols.setdefault(col, []).append(f'<li><a href="{root(p)}">{esc(label)}</a></li>')
    html_cols = "\n".join(f'<div class="footer-col"><h4>{c}</h4><ul>{"".join(v)}</ul></div>'
                          for c, v in cols.items())
    social = " ".join(f'<a href="{EXT}/social/{n.lower()}/northwind" aria-label="{n}">{n}</a>'
                      for n in ["Instagram", "Facebook", "Pinterest", "TikTok"])
    return f"""<footer class="site-footer">
<div class="footer-links">
{html_cols}
<div class="footer-col"><h4>Follow us</h4><p class="social">{social}</p>
<form class="newsletter" action="{EXT}/newsletter/subscribe" method="post"><input type="email" name="email"><button>Sign up</button></form></div>
</div>
<div class="footer-bottom"><span>&copy; 2024 Northwind Retail GmbH</span>
<a href="{EXT}/de/">Deutschland</a> <a href="{EXT}/fr/">France</a> <a href="{EXT}/uk/">United Kingdom</a>
<a href="javascript:void(0)" class="cookie-prefs">Cookie preferences</a></div>
</footer>"""


def shop_page(m, title, main):
    body = (f'<body>\n<a class="skip-link" href="#main">Skip to content</a>\n'
            f'{shop_header(m)}\n<main id="main">\n{main}\n</main>\n{shop_footer()}\n</body>')
    return html5(f"{title} | Northwind", body, SHOP_CSS)


def shop_crumbs(chain):
    items = "".join(f'<li><a href="{root(p)}">{esc(t)}</a></li>' for t, p in chain[:-1])
    return (f'<nav class="breadcrumb" aria-label="Breadcrumb"><ol>{items}'
            f'<li aria-current="page">{esc(chain[-1][0])}</li></ol></nav>')


def shop_card(prod):
    h = root(prod["path"])
    badge = ' <span class="badge">New</span>' if prod["sku"] % 3 == 0 else ""
    return (f'<div class="card product-card" data-sku="{prod["sku"]}">\n'
            f'  <a class="card__media" href="{h}"><img src="{EXT}/cdn/img/{prod["sku"]}.jpg" '
            f'alt="{esc(prod["name"])}" loading="lazy"></a>\n'
            f'  <div class="card__body"><a class="card__title" href="{h}">{esc(prod["name"])}</a>\n'
            f'  <span class="price">&euro;{prod["price"]}</span>{badge}\n'
            f'  <button class="wishlist-toggle" type="button" aria-label="Add to wishlist">&#9825;</button>'
            f'</div>\n</div>')


def shop_home(s, m):
    tiles = "\n".join(f'<a class="tile category-tile" href="{root(c["path"])}"><img src="{EXT}/cdn/'
                      f'tiles/{slug(c["name"])}.jpg" alt=""><span>{esc(c["name"])}</span></a>'
                      for c in m["cats"])
    trending = "\n".join(shop_card(p) for p in s.rng.sample(m["prods"], 8))
    first = m["cats"][0]["subs"][0]
    main = f"""<section class="hero"><a href="{root(first['path'])}"><img src="{EXT}/cdn/hero-spring.jpg" alt="Spring collection"></a>
<h1>The spring edit is here</h1><a class="button" href="{root(first['path'])}">Shop dresses</a></section>
<section class="category-tiles"><h2>Shop by category</h2>
{tiles}
</section>
<section class="trending"><h2>Trending now</h2><div class="grid">
{trending}
</div></section>
<section class="brand-strip">{' '.join(f'<a href="{EXT}/brands/{slug(b)}">{esc(b)}</a>' for b in SHOP_BRANDS)}</section>"""
    s.add("index.html", shop_page(m, "Clothing, home and outdoor gear", main))
    for c in m["cats"]:
        s.edge("index.html", c["path"])


def shop_category(s, m, cat):
    pills = "\n".join(f'<li><a href="{root(x["path"])}">{esc(x["name"])}</a></li>'
                      for x in cat["subs"])
    best = [x["prods"][0] for x in cat["subs"]] + [cat["subs"][0]["prods"][1]]
    main = f"""{shop_crumbs([("Home", "index.html"), (cat["name"], cat["path"])])}
<h1>{esc(cat["name"])}</h1>
<p class="intro">{paragraph(s.rng, 2, 3)}</p>
<ul class="subcat-pills">
{pills}
</ul>
<section class="bestsellers"><h2>Bestsellers in {esc(cat["name"])}</h2><div class="grid">
{chr(10).join(shop_card(p) for p in best)}
</div></section>"""
    s.add(cat["path"], shop_page(m, cat["name"], main))
    for x in cat["subs"]:
        s.edge(cat["path"], x["path"])


def shop_filters(sub):
    links = []
    for f in SHOP_FACETS:
        key, val = f.split("=")
        if key == "color":
            links.append(f'<li><a href="?{f}" rel="nofollow">{val.title()}</a></li>')
    return (f'<aside class="filters"><h3>Colour</h3><ul>{"".join(links)}</ul>'
            f'<h3>Size</h3><ul class="sizes"><li><button>S</button></li><li><button>M</button>'
            f'</li><li><button>L</button></li></ul></aside>')


def shop_subcategory(s, m, sub):
    cat, p = sub["cat"], sub["path"]
    page2 = posixpath.dirname(p) + "/page-2.html" if len(sub["prods"]) >= 4 else None
    pager = ""
    if page2:
        pager = ('<nav class="pagination" aria-label="Pages"><span aria-current="page">1</span> '
                 '<a href="page-2.html">2</a> <a href="page-2.html" rel="next">Next &rsaquo;</a></nav>')
    others = ", ".join(f'<a href="{root(x["path"])}">{esc(x["name"])}</a>'
                       for x in cat["subs"] if x is not sub)
    main = f"""{shop_crumbs([("Home", "index.html"), (cat["name"], cat["path"]), (sub["name"], p)])}
<h1>{esc(sub["name"])}</h1>
<div class="listing">{shop_filters(sub)}
<div class="results"><div class="toolbar"><span>{len(sub["prods"])} products</span>
Sort by: <a href="?sort=price-asc" rel="nofollow">Price (low to high)</a> | <a href="?sort=newest" rel="nofollow">Newest</a></div>
<div class="grid">
{chr(10).join(shop_card(x) for x in sub["prods"])}
</div>
{pager}</div></div>
<section class="seo-text"><p>{paragraph(s.rng, 2, 3)}</p><p>More in {esc(cat["name"])}: {others}</p></section>"""
    s.add(p, shop_page(m, f'{sub["name"]} - {cat["name"]}', main))
    for x in sub["prods"]:
        s.edge(p, x["path"])
    for f in SHOP_FACETS:
        s.out(f"{p}?{f}")
    if page2:
        shop_page2(s, m, sub, page2)


def shop_page2(s, m, sub, p):
    cat = sub["cat"]
    prods = list(reversed(sub["prods"]))[:3]
    main = f"""{shop_crumbs([("Home", "index.html"), (cat["name"], cat["path"]), (sub["name"], sub["path"]), ("Page 2", p)])}
<h1>{esc(sub["name"])} <small>page 2</small></h1>
<div class="grid">
{chr(10).join(shop_card(x) for x in prods)}
</div>
<nav class="pagination" aria-label="Pages"><a href="index.html" rel="prev">&lsaquo; Previous</a> <a href="index.html">1</a> <span aria-current="page">2</span></nav>"""
    s.add(p, shop_page(m, f'{sub["name"]} - page 2', main))
    s.out(p)


def shop_product(s, m, prod):
    sub, rng = prod["sub"], s.rng
    cat = sub["cat"]
    others = [x for y in cat["subs"] if y is not sub for x in y["prods"]]
    also = rng.sample(others, min(4, len(others)))
    main = f"""{shop_crumbs([("Home", "index.html"), (cat["name"], cat["path"]), (sub["name"], sub["path"]), (prod["name"], prod["path"])])}
<div class="product">
<div class="gallery"><img src="{EXT}/cdn/img/{prod["sku"]}.jpg" alt="{esc(prod["name"])}"><img src="{EXT}/cdn/img/{prod["sku"]}-2.jpg" alt=""></div>
<div class="buy-box"><h1>{esc(prod["name"])}</h1>
<p class="price">&euro;{prod["price"]}</p>
<a class="rating" href="#reviews">&#9733;&#9733;&#9733;&#9733;&#9734; ({rng.randint(2, 240)} reviews)</a>
<form class="add-to-bag" action="/cart.html" method="post"><input type="hidden" name="sku" value="{prod["sku"]}">
<button type="submit">Add to bag</button></form>
<p class="delivery">Free delivery over &euro;60. <a href="/help/shipping.html">Delivery options</a> &middot; <a href="/help/returns.html">Free returns</a></p>
<details open><summary>Product details</summary><p>{paragraph(rng)}</p></details>
<details><summary>Materials &amp; care</summary><p>{sentence(rng)}</p></details></div>
</div>
<section class="also-like"><h2>You may also like</h2><div class="grid">
{chr(10).join(shop_card(x) for x in also)}
</div></section>
<section id="reviews" class="reviews"><h2>Customer reviews</h2>
<blockquote>{sentence(rng)}</blockquote><blockquote>{sentence(rng)}</blockquote>
<a href="/account/login.html">Sign in to write a review</a></section>"""
    s.add(prod["path"], shop_page(m, prod["name"], main))


def shop_info_pages(s, m):
    pages = [(label, p) for _, label, p in SHOP_INFO]
    pages += [(t, p) for t, p in SHOP_UTIL if p not in {q for _, q in pages}]
    pages.append(("Search results", "search.html"))
    for title, p in pages:
        main = f"<h1>{esc(title)}</h1>\n<p>{paragraph(s.rng)}</p>\n<p>{paragraph(s.rng)}</p>"
        if p == "account/login.html":
            main += ('\n<form method="post" action="/account/login.html"><input name="email">'
                     '<input type="password" name="password"><button>Sign in</button></form>')
        s.add(p, shop_page(m, title, main))
        s.out(p)
    for c in m["cats"]:
        for q in ("new", "sale"):
            s.out(f"search.html?q={q}&cat={slug(c['name'])}")
    s.out("search.html?q=sale")


def build_shop_megamenu():
    s = Site("shop_megamenu", "online shop (mega-menu)",
             "Modern fashion/home shop with a header mega-menu listing every category and "
             "subcategory on every page. Home -> 5 categories -> subcategories -> product "
             "pages (flat /p/ URLs). Noise: mega-menu, product cards in 'trending', "
             "'bestsellers' and 'you may also like', facet/sort links with query strings, "
             "pagination, footer link farm.", seed=2024)
    m = shop_model(s.rng)
    shop_home(s, m)
    for cat in m["cats"]:
        shop_category(s, m, cat)
        for sub in cat["subs"]:
            shop_subcategory(s, m, sub)
    for prod in m["prods"]:
        shop_product(s, m, prod)
    shop_info_pages(s, m)
    return s


# ============================================================= university
# University site: header nav of top-level sections, left <aside> sub-nav
# listing the current section's pages (current branch expanded),
# breadcrumbs, BEM-style classes.  Header/footer links are root-relative,
# body and sidebar links relative.  One person page has a non-ASCII path.

UNI_DEPTS = [  # (faculty, department, [(programme, long title)], [(person, role)])
    ("Faculty of Science", "Physics", [
        ("BSc Physics", "Bachelor of Science in Physics (3 years, full-time)"),
        ("MSc Quantum Technologies", "Master of Science in Quantum Technologies (2 years)")],
     [("Prof. Dr. Anna Keller", "Professor of Condensed Matter Physics"),
      ("Dr. Tomás Oliveira", "Lecturer in Astrophysics")]),
    ("Faculty of Science", "Chemistry", [
        ("BSc Chemistry", "Bachelor of Science in Chemistry with a year in industry"),
        ("MSc Sustainable Chemistry", "Master of Science in Sustainable and Green Chemistry")],
     [("Prof. Dr. Helen Park", "Chair of Organic Synthesis"),
      ("Dr. Rafael Costa", "Senior Lecturer in Analytical Chemistry")]),
    ("Faculty of Science", "Computer Science", [
        ("BSc Computer Science", "Bachelor of Science in Computer Science (3 or 4 years)"),
        ("MSc Data Science", "Master of Science in Data Science and Machine Learning")],
     [("Prof. Dr. Lena Fischer", "Professor of Distributed Systems"),
      ("Dr. Samuel Okafor", "Lecturer in Human-Computer Interaction")]),
    ("Faculty of Arts and Humanities", "History", [
        ("BA History", "Bachelor of Arts in History, full-time or part-time"),
        ("MA Medieval Studies", "Master of Arts in Medieval and Early Modern Studies")],
     [("Prof. Dr. Jürgen Müller", "Professor of Medieval History"),
      ("Dr. Claire Dubois", "Lecturer in Modern European History")]),
    ("Faculty of Arts and Humanities", "Linguistics", [
        ("BA Linguistics", "Bachelor of Arts in Linguistics and Language Sciences"),
        ("MA Applied Linguistics", "Master of Arts in Applied Linguistics and TESOL")],
     [("Prof. Dr. Ingrid Nilsson", "Professor of Phonetics"),
      ("Dr. Amir Haddad", "Lecturer in Sociolinguistics")]),
    ("Faculty of Engineering", "Mechanical Engineering", [
        ("BEng Mechanical Engineering", "Bachelor of Engineering in Mechanical Engineering (accredited)"),
        ("MEng Robotics", "Integrated Master of Engineering in Robotics and Automation")],
     [("Prof. Dr. Marco Bianchi", "Professor of Fluid Dynamics"),
      ("Dr. Priya Raman", "Lecturer in Control Engineering")]),
]
UNI_RESEARCH = [
    ("Centre for Climate Research", [
        "Arctic sea ice and the changing North Atlantic circulation",
        "Urban heat islands: measuring temperature in forty European cities",
        "Carbon storage in restored peatland ecosystems"]),
    ("Institute for Artificial Intelligence", [
        "Trustworthy machine learning for medical imaging diagnostics",
        "Robots that learn household tasks from human demonstration"]),
    ("Centre for Medieval Studies", [
        "Digitising the monastic manuscripts of the Upper Rhine",
        "Trade networks of the Hanseatic League, 1250 to 1450",
        "Women and property in late medieval town records"]),
]
UNI_ADMISSIONS = [
    ("Undergraduate study", ["How to apply for undergraduate programmes",
                             "Entry requirements and recognised qualifications",
                             "Open days and campus tours"]),
    ("Postgraduate study", ["Applying for a taught master's programme",
                            "PhD applications and finding a supervisor"]),
    ("International students", ["Visa and immigration guidance for non-EU students",
                                "English language requirements and accepted tests"]),
    ("Fees and funding", []),
]
UNI_ABOUT = ["History of the university", "Leadership and governance", "Campus and maps",
             "Facts and figures"]
UNI_NEWS = ["University opens new quantum computing laboratory in the Science Park",
            "Historians reconstruct a lost medieval library from surviving fragments",
            "Record number of international students enrol for the winter semester",
            "Engineering students win European solar car challenge for second time",
            "New scholarship programme supports first-generation students",
            "Climate researchers return from six-month expedition to Svalbard"]
UNI_SECTIONS = ["Faculties", "Research", "Admissions", "About", "News"]
UNI_NOISE = [("Search", "search.html"), ("Staff and student login", "login.html"),
             ("Contact", "contact.html"), ("Imprint", "imprint.html"),
             ("Privacy", "privacy.html"), ("Accessibility", "accessibility.html"),
             ("Jobs", "jobs.html"), ("Events calendar", "news/events.html"),
             ("Deutsch", "de/index.html")]
UNI_CSS = (".site-header{background:#00305e;color:#fff}.layout{display:flex}"
           ".sidebar{width:240px}.subnav__item.is-active>a{font-weight:bold}")


def uni_node(title, path, parent, kind, **extra):
    node = {"title": title, "path": path, "parent": parent, "kind": kind,
            "children": [], **extra}
    if parent:
        parent["children"].append(node)
    return node


def uni_person_slug(name):
    """Keeps non-ASCII letters: 'Prof. Dr. Jürgen Müller' -> 'jürgen-müller'."""
    name = re.sub(r"^(Prof\. )?Dr\. ", "", name)
    return re.sub(r"[^\w]+", "-", name.lower()).strip("-")


def uni_faculties(sec):
    for faculty, dept, progs, people in UNI_DEPTS:
        d = f"faculties/{slug(dept)}"
        node = uni_node(f"Department of {dept}", f"{d}/index.html", sec, "dept",
                        faculty=faculty, short=dept)
        for short, long in progs:
            uni_node(long, f"{d}/programmes/{slug(short)}.html", node, "programme", short=short)
        for person, role in people:
            uni_node(person, f"{d}/people/{uni_person_slug(person)}.html", node, "person",
                     role=role)


def uni_model():
    home = uni_node("Home", "index.html", None, "home")
    secs = {t: uni_node(t, f"{slug(t)}/index.html", home, "section") for t in UNI_SECTIONS}
    uni_faculties(secs["Faculties"])
    for centre, projects in UNI_RESEARCH:
        c = uni_node(centre, f"research/{slug(centre)}/index.html", secs["Research"], "centre")
        for title in projects:
            uni_node(title, f"research/{slug(centre)}/projects/{slug(title)}.html", c, "project")
    for sub, pages in UNI_ADMISSIONS:
        if not pages:
            uni_node(sub, f"admissions/{slug(sub)}.html", secs["Admissions"], "page")
            continue
        a = uni_node(sub, f"admissions/{slug(sub)}/index.html", secs["Admissions"], "guide")
        for title in pages:
            uni_node(title, f"admissions/{slug(sub)}/{slug(title)}.html", a, "page")
    for title in UNI_ABOUT:
        uni_node(title, f"about/{slug(title)}.html", secs["About"], "page")
    day = datetime.date(2024, 3, 14)
    for i, title in enumerate(UNI_NEWS):
        d = day - datetime.timedelta(days=9 * i + 2)
        uni_node(title, f"news/{d:%Y}/{slug(title)}.html", secs["News"], "news", date=d)
    return home, secs


def uni_header(path, secs):
    nav = "".join(f'<li class="mainnav__item"><a class="mainnav__link" href="{root(s["path"])}">'
                  f'{s["title"]}</a></li>' for s in secs.values())
    util = "".join(f'<li><a href="{root(p)}">{t}</a></li>' for t, p in UNI_NOISE[:3])
    return f"""<header class="site-header">
<div class="topbar"><ul class="topbar__links">{util}<li><a href="{EXT}/library">Library</a></li>
<li class="lang"><a href="/index.html" lang="en" aria-current="true">EN</a> / <a href="/de/index.html" lang="de">DE</a></li></ul></div>
<div class="site-header__brand"><a href="/index.html"><img src="{EXT}/uni/logo.svg" alt="University of Westhaven"></a></div>
<div class="mainnav"><ul class="mainnav__list">{nav}</ul></div>
</header>"""


def uni_footer():
    legal = " | ".join(f'<a href="{root(p)}">{t}</a>' for t, p in UNI_NOISE[2:7])
    social = " ".join(f'<a href="{EXT}/social/{n.lower()}/westhaven-uni">{n}</a>'
                      for n in ["Facebook", "Instagram", "LinkedIn", "YouTube"])
    return f"""<footer class="site-footer">
<div class="site-footer__address"><p>University of Westhaven<br>Campus Road 1, 20146 Westhaven<br>
<a href="tel:+494012345670">+49 40 1234 5670</a> &middot; <a href="mailto:info@example.com">info@example.com</a></p></div>
<div class="site-footer__links">{legal}</div>
<div class="site-footer__social">{social}</div>
</footer>"""


def uni_crumbs(node):
    chain = []
    x = node["parent"]
    while x:
        chain.insert(0, x)
        x = x["parent"]
    items = "".join(f'<li class="breadcrumb__item"><a href="{rel(node["path"], x["path"])}">'
                    f'{esc(x["title"] if x["kind"] != "home" else "Home")}</a></li>' for x in chain)
    return (f'<nav aria-label="Breadcrumb"><ol class="breadcrumb">{items}'
            f'<li class="breadcrumb__item is-current">{esc(node["title"])}</li></ol></nav>')


def uni_sidebar(node):
    """Section sub-nav: the section's pages, the current level-2 branch expanded."""
    chain, x = [], node
    while x["parent"]:
        chain.insert(0, x)
        x = x["parent"]
    sec, branch = chain[0], chain[1] if len(chain) > 1 else None
    p = node["path"]
    items = []
    for c in sec["children"]:
        label = c.get("short", c["title"])
        active = " is-active" if c is branch else ""
        sub = ""
        if c is branch and c["children"]:
            sub = "".join(f'<li class="subnav__item{" is-active" if g is node else ""}"><a '
                          f'class="subnav__link" href="{rel(p, g["path"])}">'
                          f'{esc(g.get("short", g["title"]))}</a></li>' for g in c["children"])
            sub = f'<ul class="subnav__list subnav__list--level2">{sub}</ul>'
        items.append(f'<li class="subnav__item{active}"><a class="subnav__link" '
                     f'href="{rel(p, c["path"])}">{esc(label)}</a>{sub}</li>')
    return (f'<aside class="sidebar"><nav class="subnav" aria-label="Section navigation">'
            f'<h2 class="subnav__title"><a href="{rel(p, sec["path"])}">{sec["title"]}</a></h2>'
            f'<ul class="subnav__list">\n' + "\n".join(items) + "\n</ul></nav></aside>")


def uni_page(node, secs, main):
    side = uni_sidebar(node) if node["kind"] != "home" else ""
    crumbs = uni_crumbs(node) if node["kind"] != "home" else ""
    body = (f'<body>\n{uni_header(node["path"], secs)}\n<div class="layout">\n{side}\n'
            f'<main class="content" id="content">\n{crumbs}\n{main}\n</main>\n</div>\n'
            f'{uni_footer()}\n</body>')
    title = "University of Westhaven" if node["kind"] == "home" else node["title"]
    return html5(f"{title} - University of Westhaven", body, UNI_CSS)


def uni_link(frm, node, text=None, cls=""):
    c = f' class="{cls}"' if cls else ""
    return f'<a{c} href="{rel(frm["path"], node["path"])}">{esc(text or node["title"])}</a>'


def uni_home_body(node, secs, rng):
    news = secs["News"]["children"][:3]
    tiles = "\n".join(f'<div class="teaser-tile"><h2>{uni_link(node, secs[t])}</h2><p>{sentence(rng)}</p></div>'
                      for t in ["Faculties", "Research", "Admissions"])
    news_html = "\n".join(f'<article class="news-teaser"><time>{fmt_date(n["date"])}</time>'
                          f'<h3>{uni_link(node, n)}</h3></article>' for n in news)
    ug = secs["Admissions"]["children"][0]
    return f"""<section class="hero"><h1>Think further. Study at Westhaven.</h1>
<p>{sentence(rng)}</p><a class="button" href="{rel(node['path'], ug['path'])}">Apply now</a></section>
<section class="teaser-tiles">
{tiles}
</section>
<section class="news"><h2>Latest news</h2>
{news_html}
<p><a href="news/index.html">All news</a> &middot; <a href="news/events.html">Events calendar</a></p></section>
<section class="popular"><h2>Popular pages</h2><ul>
<li>{uni_link(node, ug["children"][2])}</li><li>{uni_link(node, secs["Admissions"]["children"][3])}</li>
<li><a href="{EXT}/westhaven/moodle">E-learning (Moodle)</a></li></ul></section>"""


def uni_section_body(node, rng):
    p = node["path"]
    kids = node["children"]
    if node["title"] == "Faculties":
        groups = {}
        for d in kids:
            groups.setdefault(d["faculty"], []).append(f'<li>{uni_link(node, d)}</li>')
        lists = "\n".join(f'<div class="faculty"><h2>{f}</h2><ul class="dept-list">{"".join(v)}'
                          f'</ul></div>' for f, v in groups.items())
    elif node["title"] == "News":
        lists = "\n".join(f'<article class="news-item"><time>{fmt_date(n["date"])}</time><h2>'
                          f'{uni_link(node, n)}</h2><p>{sentence(rng)}</p></article>' for n in kids)
        lists += f'\n<p><a href="{rel(p, "news/events.html")}">Upcoming events</a></p>'
    else:
        lists = "\n".join(f'<div class="card"><h2 class="card__title">{uni_link(node, c)}</h2>'
                          f'<p>{sentence(rng)}</p></div>' for c in kids)
        lists = f'<div class="card-grid">\n{lists}\n</div>'
    return f'<h1>{esc(node["title"])}</h1>\n<p class="lead">{paragraph(rng, 2, 3)}</p>\n{lists}'


def uni_dept_body(node, rng):
    progs = [c for c in node["children"] if c["kind"] == "programme"]
    people = [c for c in node["children"] if c["kind"] == "person"]
    plist = "\n".join(f'<li>{uni_link(node, c)}</li>' for c in progs)
    cards = "\n".join(
        f'<div class="person-card"><a href="{rel(node["path"], c["path"])}"><img src="{EXT}/uni/'
        f'portraits/{slug(c["title"])}.jpg" alt=""></a><h3>{uni_link(node, c)}</h3><p>{c["role"]}</p>'
        f'<a href="mailto:{slug(c["title"])}@example.com">E-mail</a></div>' for c in people)
    return f"""<h1>{esc(node['title'])}</h1>
<p class="lead">{paragraph(rng, 2, 3)}</p>
<h2>Study programmes</h2>
<ul class="programme-list">
{plist}
</ul>
<h2>People</h2>
<div class="people-grid">
{cards}
</div>
<div class="contact-box"><h2>Contact</h2><p>Department office: <a href="mailto:{slug(node['short'])}@example.com">{slug(node['short'])}@example.com</a></p></div>"""


def uni_list_body(node, rng):
    items = "\n".join(f'<li>{uni_link(node, c)}<br><span class="summary">{sentence(rng, 6, 10)}</span></li>'
                      for c in node["children"])
    label = "Research projects" if node["kind"] == "centre" else "In this section"
    return (f'<h1>{esc(node["title"])}</h1>\n<p class="lead">{paragraph(rng, 2, 3)}</p>\n'
            f'<h2>{label}</h2>\n<ol class="link-list">\n{items}\n</ol>')


def uni_leaf_body(node, rng):
    extra = ""
    if node["kind"] == "person":
        extra = (f'<p class="role">{node["role"]}</p><p><a href="mailto:{slug(node["title"])}'
                 f'@example.com">E-mail</a> &middot; <a href="tel:+494012345678">Phone</a> &middot; '
                 f'<a href="{EXT}/orcid/{slug(node["title"])}">ORCID</a></p>')
    elif node["kind"] == "programme":
        extra = (f'<dl class="facts"><dt>Degree</dt><dd>{esc(node["short"])}</dd><dt>Start</dt>'
                 f'<dd>October</dd></dl><p><a class="button" href="{EXT}/apply/westhaven">Apply '
                 f'online</a></p>')
    elif node["kind"] == "news":
        extra = f'<p class="date"><time>{fmt_date(node["date"])}</time></p>'
    toc = ('<nav class="page-toc"><a href="#overview">Overview</a> &middot; '
           '<a href="#details">Details</a></nav>')
    return (f'<h1>{esc(node["title"])}</h1>\n{extra}\n{toc}\n<h2 id="overview">Overview</h2>\n'
            f'<p>{paragraph(rng)}</p>\n<h2 id="details">Details</h2>\n<p>{paragraph(rng)}</p>')


def uni_render(s, node, secs):
    kind, rng = node["kind"], s.rng
    if kind == "home":
        main = uni_home_body(node, secs, rng)
    elif kind == "section":
        main = uni_section_body(node, rng)
    elif kind == "dept":
        main = uni_dept_body(node, rng)
    elif node["children"]:
        main = uni_list_body(node, rng)
    else:
        main = uni_leaf_body(node, rng)
    s.add(node["path"], uni_page(node, secs, main))
    for c in node["children"]:
        s.edge(node["path"], c["path"])
        uni_render(s, c, secs)


def uni_noise_pages(s, secs):
    for title, p in UNI_NOISE:
        lang = "de" if p.startswith("de/") else "en"
        main = f"<h1>{esc(title)}</h1>\n<p>{paragraph(s.rng)}</p>\n<p>{paragraph(s.rng)}</p>"
        if p == "de/index.html":
            main = ('<h1>Willkommen an der Universität Westhaven</h1>\n<p>Diese Seite ist auf '
                    'Deutsch. <a href="../index.html">English version</a></p>')
        body = f'<body>\n{uni_header(p, secs)}\n<main class="content">\n{main}\n</main>\n{uni_footer()}\n</body>'
        s.add(p, html5(f"{title} - University of Westhaven", body, UNI_CSS, lang=lang))
        s.out(p)


def build_university():
    s = Site("university", "university website",
             "University site with a header nav of 5 top-level sections, a left <aside> "
             "sub-navigation on section pages (current branch expanded), breadcrumbs. "
             "Home -> Faculties/Research/Admissions/About/News -> departments, centres, "
             "admission guides -> programme, people, project and guide pages.", seed=1088)
    home, secs = uni_model()
    uni_render(s, home, secs)
    uni_noise_pages(s, secs)
    return s


# =================================================================== blog
# WordPress-like blog with pretty URLs (/category/travel/, /2024/03/14/slug/).
# True tree: home -> categories (-> child categories) -> posts, as in the
# category menu.  Tags, date archives, author pages and /page/N/ are noise.

BLOG_CATS = [
    ("Travel", [], [
        "Seven Days in the Lofoten Islands on a Shoestring Budget",
        "What I Packed for Three Weeks of Train Travel Across Europe",
        "A Slow Weekend in Porto: Tiles, Tascas and Sunset Views",
        "How We Planned a Road Trip Through the Scottish Highlands With Kids",
        "The Quiet Side of Kyoto: Temples Without the Crowds",
        "Is the Interrail Pass Still Worth It in 2024? An Honest Review"]),
    ("Food & Recipes", [
        ("Baking", [
            "My Foolproof Sourdough Starter Routine After Two Years of Failures",
            "Brown Butter Banana Bread With a Crackly Sugar Top",
            "Cardamom Buns Like the Ones From That Little Stockholm Bakery",
            "Why Your Pie Crust Shrinks and Five Ways to Stop It"]),
        ("Vegetarian", [
            "One-Pot Lentil and Spinach Dal for Busy Weeknights",
            "Twelve Meatless Meals My Family Actually Asks For Again",
            "Roasted Cauliflower Steaks With Tahini and Pomegranate",
            "A Beginner's Guide to Cooking With Tofu That Isn't Bland"])], []),
    ("Photography", [], [
        "Shooting Film Again: What Ten Rolls of Portra Taught Me",
        "The Only Three Lenses I Take on Every Trip",
        "How to Photograph Autumn Leaves Without Blown-Out Colours",
        "Editing Workflow: From Memory Card to Print in One Evening",
        "Street Photography Etiquette: Asking Strangers for Portraits"]),
    ("Gardening", [], [
        "Starting Tomatoes From Seed on a Cold North-Facing Windowsill",
        "No-Dig Gardening: Results From Our First Full Season",
        "Ten Perennials That Survived My Total Neglect This Summer",
        "Building a Cheap Raised Bed From Reclaimed Scaffold Boards",
        "Composting in a Small Garden Without Attracting Rats"]),
    ("Slow Living", [], [
        "Why I Deleted Social Media Apps From My Phone for a Month",
        "A Simple Sunday Reset Routine That Makes Mondays Easier",
        "Learning to Knit at Forty: Notes From a Clumsy Beginner",
        "Decluttering the Kitchen One Drawer at a Time"]),
]
BLOG_TAGS = ["budget", "europe", "family", "film", "sourdough", "seasonal", "diy",
             "mindfulness", "beginners", "weekend", "hiking", "autumn"]
BLOG_AUTHORS = [("Maren Holt", "maren"), ("Jonas Berg", "jonas")]
BLOG_PAGES = [("About", "about/index.html"), ("Contact", "contact/index.html"),
              ("Privacy Policy", "privacy-policy/index.html"), ("Log in", "wp-admin/index.html")]
BLOG_PER_PAGE = 10
BLOG_CSS = (".site{max-width:1100px;margin:auto}.content-area{float:left;width:70%}"
            ".widget-area{float:right;width:28%}.screen-reader-text{display:none}")


def blog_model(rng):
    cats, posts = [], []
    for name, subs, titles in BLOG_CATS:
        cat = {"name": name, "path": f"category/{slug(name)}/index.html", "up": None,
               "subs": [], "posts": []}
        cats.append(cat)
        for sname, stitles in subs:
            sub = {"name": sname, "path": f"category/{slug(name)}/{slug(sname)}/index.html",
                   "up": cat, "subs": [], "posts": []}
            cat["subs"].append(sub)
            cats.append(sub)
            posts += [{"title": t, "cat": sub} for t in stitles]
        posts += [{"title": t, "cat": cat} for t in titles]
    rng.shuffle(posts)
    day = datetime.date(2024, 3, 18)
    for i, post in enumerate(posts):
        day -= datetime.timedelta(days=rng.randint(4, 9) if i else 0)
        post.update(date=day, path=f"{day:%Y/%m/%d}/{slug(post['title'])}/index.html",
                    author=BLOG_AUTHORS[rng.randint(0, 1)], comments=rng.randint(0, 4),
                    excerpt=sentence(rng, 18, 28), tags=[BLOG_TAGS[i % len(BLOG_TAGS)]])
        post["tags"] += rng.sample([t for t in BLOG_TAGS if t not in post["tags"]], rng.randint(1, 2))
        post["cat"]["posts"].append(post)
    months = sorted({p["date"].strftime("%Y/%m") for p in posts}, reverse=True)
    return {"cats": cats, "posts": posts, "months": months}


def blog_cat_posts(cat):
    """Posts shown on a category archive: WordPress includes child categories."""
    posts = cat["posts"] + [p for sub in cat["subs"] for p in sub["posts"]]
    return sorted(posts, key=lambda p: p["date"], reverse=True)


def blog_header(m):
    items = []
    for cat in (c for c in m["cats"] if c["up"] is None):
        sub = ""
        if cat["subs"]:
            sub = "".join(f'<li class="menu-item menu-item-type-taxonomy"><a href="{pretty(x["path"])}">'
                          f'{esc(x["name"])}</a></li>' for x in cat["subs"])
            sub = f'<ul class="sub-menu">{sub}</ul>'
        has = " menu-item-has-children" if cat["subs"] else ""
        items.append(f'<li class="menu-item menu-item-type-taxonomy menu-item-object-category{has}">'
                     f'<a href="{pretty(cat["path"])}">{esc(cat["name"])}</a>{sub}</li>')
    pages = "".join(f'<li class="menu-item menu-item-type-post_type"><a href="{pretty(p)}">{t}</a></li>'
                    for t, p in BLOG_PAGES[:2])
    return f"""<header id="masthead" class="site-header">
<div class="site-branding"><p class="site-title"><a href="/" rel="home">Small Kitchen, Big World</a></p>
<p class="site-description">Travel, food and a slower life</p></div>
<nav id="site-navigation" class="main-navigation"><button class="menu-toggle" aria-controls="primary-menu" aria-expanded="false">Menu</button>
<ul id="primary-menu" class="menu"><li class="menu-item menu-item-home"><a href="/">Home</a></li>
{chr(10).join(items)}
{pages}</ul></nav>
</header>"""


def blog_sidebar(m):
    recent = "".join(f'<li><a href="{pretty(p["path"])}">{esc(p["title"])}</a></li>' for p in m["posts"][:5])
    cats = []
    for c in (c for c in m["cats"] if c["up"] is None):
        kids = "".join(f'<li class="cat-item"><a href="{pretty(x["path"])}">{esc(x["name"])}</a> '
                       f'({len(x["posts"])})</li>' for x in c["subs"])
        kids = f'<ul class="children">{kids}</ul>' if kids else ""
        cats.append(f'<li class="cat-item"><a href="{pretty(c["path"])}">{esc(c["name"])}</a> '
                    f'({len(blog_cat_posts(c))}){kids}</li>')
    months = "".join(f'<li><a href="/{mo}/">{MONTHS[int(mo[5:]) - 1]} {mo[:4]}</a></li>' for mo in m["months"])
    counts = {t: sum(t in p["tags"] for p in m["posts"]) for t in BLOG_TAGS}
    cloud = " ".join(f'<a href="/tag/{t}/" class="tag-cloud-link" style="font-size: {8 + 2.2 * n:.1f}pt;" '
                     f'aria-label="{t} ({n} items)">{t}</a>' for t, n in sorted(counts.items()))
    return f"""<aside id="secondary" class="widget-area">
<section id="search-2" class="widget widget_search"><form role="search" method="get" class="search-form" action="/"><input type="search" class="search-field" name="s"><input type="submit" class="search-submit" value="Search"></form></section>
<section id="recent-posts-2" class="widget widget_recent_entries"><h2 class="widget-title">Recent Posts</h2><ul>{recent}</ul></section>
<section id="categories-2" class="widget widget_categories"><h2 class="widget-title">Categories</h2><ul>{"".join(cats)}</ul></section>
<section id="archives-2" class="widget widget_archive"><h2 class="widget-title">Archives</h2><ul>{months}</ul></section>
<section id="tag_cloud-2" class="widget widget_tag_cloud"><h2 class="widget-title">Tags</h2><div class="tagcloud">{cloud}</div></section>
<section id="meta-2" class="widget widget_meta"><h2 class="widget-title">Meta</h2><ul><li><a href="/wp-admin/">Log in</a></li><li><a href="{EXT}/wordpress-org/">WordPress.org</a></li></ul></section>
</aside>"""


def blog_page(m, title, main):
    body = f"""<body class="wp-site-blocks">
<div id="page" class="site"><a class="skip-link screen-reader-text" href="#primary">Skip to content</a>
{blog_header(m)}
<div id="content" class="site-content">
<main id="primary" class="content-area">
{main}
</main>
{blog_sidebar(m)}
</div>
<footer id="colophon" class="site-footer"><div class="site-info">
<a href="/privacy-policy/">Privacy Policy</a> <span class="sep"> | </span>
<a href="{EXT}/wordpress-org/">Proudly powered by WordPress</a> <span class="sep"> | </span>
<a href="{EXT}/social/instagram/smallkitchenbigworld">Instagram</a> <a href="{EXT}/social/pinterest/smallkitchenbigworld">Pinterest</a>
</div></footer>
</div>
</body>"""
    return html5(f"{title} \u2013 Small Kitchen, Big World", body, BLOG_CSS)


def blog_entry_footer(post):
    tags = ", ".join(f'<a href="/tag/{t}/" rel="tag">{t}</a>' for t in post["tags"])
    cat = post["cat"]
    return (f'<footer class="entry-footer"><span class="cat-links">Posted in <a href="'
            f'{pretty(cat["path"])}" rel="category tag">{esc(cat["name"])}</a></span> '
            f'<span class="tags-links">Tagged {tags}</span> <span class="comments-link"><a href="'
            f'{pretty(post["path"])}#comments">{post["comments"]} Comments</a></span></footer>')


def blog_meta(post):
    name, nick = post["author"]
    return (f'<div class="entry-meta"><span class="posted-on">Posted on <a href="{pretty(post["path"])}"'
            f' rel="bookmark"><time class="entry-date published" datetime="{post["date"]:%Y-%m-%d}">'
            f'{fmt_date(post["date"])}</time></a></span> <span class="byline">by <span class="author '
            f'vcard"><a class="url fn n" href="/author/{nick}/">{name}</a></span></span></div>')


def blog_excerpt(post):
    h = pretty(post["path"])
    return f"""<article class="post type-post status-publish format-standard hentry">
<header class="entry-header"><h2 class="entry-title"><a href="{h}" rel="bookmark">{esc(post["title"])}</a></h2>
{blog_meta(post)}</header>
<div class="entry-summary"><p>{esc(post["excerpt"])} [&hellip;]</p>
<a class="more-link" href="{h}">Read more<span class="screen-reader-text"> "{esc(post["title"])}"</span></a></div>
{blog_entry_footer(post)}
</article>"""


def blog_pager(n, pages, link):
    out = []
    for i in range(1, pages + 1):
        out.append(f'<span aria-current="page" class="page-numbers current">{i}</span>' if i == n
                   else f'<a class="page-numbers" href="{link(i)}">{i}</a>')
    if n < pages:
        out.append(f'<a class="next page-numbers" href="{link(n + 1)}">Older posts &raquo;</a>')
    if n > 1:
        out.insert(0, f'<a class="prev page-numbers" href="{link(n - 1)}">&laquo; Newer posts</a>')
    return ('<nav class="navigation pagination" aria-label="Posts"><div class="nav-links">'
            + " ".join(out) + "</div></nav>")


def blog_listing(s, m, path, title, posts, header=""):
    """An archive-style list of excerpts (home pages, categories, tags...)."""
    main = header + "\n" + "\n".join(blog_excerpt(p) for p in posts)
    s.add(path, blog_page(m, title, main))


def blog_home(s, m):
    posts = m["posts"]
    pages = -(-len(posts) // BLOG_PER_PAGE)

    def link(i):
        return "/" if i == 1 else f"/page/{i}/"
    for n in range(1, pages + 1):
        path = "index.html" if n == 1 else f"page/{n}/index.html"
        chunk = posts[(n - 1) * BLOG_PER_PAGE: n * BLOG_PER_PAGE]
        main = "\n".join(blog_excerpt(p) for p in chunk) + "\n" + blog_pager(n, pages, link)
        s.add(path, blog_page(m, "Home" if n == 1 else f"Page {n}", main))
        if n > 1:
            s.out(path)
    for cat in (c for c in m["cats"] if c["up"] is None):
        s.edge("index.html", cat["path"])


def blog_categories(s, m):
    for cat in m["cats"]:
        browse = ""
        if cat["subs"]:
            browse = "<p>Browse: " + " &middot; ".join(
                f'<a href="{pretty(x["path"])}">{esc(x["name"])}</a>' for x in cat["subs"]) + "</p>"
        header = (f'<header class="page-header"><h1 class="page-title">Category: <span>'
                  f'{esc(cat["name"])}</span></h1><div class="archive-description"><p>'
                  f'{sentence(s.rng)}</p>{browse}</div></header>')
        blog_listing(s, m, cat["path"], cat["name"], blog_cat_posts(cat), header)
        for x in cat["subs"]:
            s.edge(cat["path"], x["path"])
        for p in cat["posts"]:
            s.edge(cat["path"], p["path"])


def blog_post(s, m, post, prev, nxt):
    rng = s.rng
    body = "\n".join(f"<p>{paragraph(rng)}</p>" for _ in range(rng.randint(3, 5)))
    nav = ""
    if prev:
        nav += (f'<div class="nav-previous"><a href="{pretty(prev["path"])}" rel="prev"><span class='
                f'"meta-nav">Previous:</span> <span class="post-title">{esc(prev["title"])}</span></a></div>')
    if nxt:
        nav += (f'<div class="nav-next"><a href="{pretty(nxt["path"])}" rel="next"><span class='
                f'"meta-nav">Next:</span> <span class="post-title">{esc(nxt["title"])}</span></a></div>')
    related = [p for p in post["cat"]["posts"] if p is not post][:3]
    rel_html = "".join(f'<li><a href="{pretty(p["path"])}">{esc(p["title"])}</a></li>' for p in related)
    comments = "".join(
        f'<li class="comment"><article class="comment-body"><footer class="comment-meta"><b class="fn">'
        f'<a href="{EXT}/~reader{rng.randint(1, 99)}" rel="external nofollow ugc" class="url">Reader {i + 1}'
        f'</a></b></footer><div class="comment-content"><p>{sentence(rng)}</p></div><div class="reply">'
        f'<a class="comment-reply-link" href="#respond">Reply</a></div></article></li>'
        for i in range(post["comments"]))
    main = f"""<article class="post type-post status-publish hentry">
<header class="entry-header"><h1 class="entry-title">{esc(post["title"])}</h1>
{blog_meta(post)}</header>
<div class="entry-content">
{body}
</div>
{blog_entry_footer(post)}
</article>
<nav class="navigation post-navigation" aria-label="Posts"><div class="nav-links">{nav}</div></nav>
<div id="jp-relatedposts" class="jp-relatedposts"><h3 class="jp-relatedposts-headline">Related</h3><ul>{rel_html}</ul></div>
<div id="comments" class="comments-area"><h2 class="comments-title">{post["comments"]} thoughts on &ldquo;{esc(post["title"])}&rdquo;</h2>
<ol class="comment-list">{comments}</ol>
<div id="respond" class="comment-respond"><h3>Leave a Reply</h3><form action="/" method="post"><textarea name="comment"></textarea><input type="submit" value="Post Comment"></form></div></div>"""
    s.add(post["path"], blog_page(m, post["title"], main))


def blog_noise(s, m):
    def head(kind, name):
        return (f'<header class="page-header"><h1 class="page-title">{kind}: <span>{esc(name)}'
                f'</span></h1></header>')
    for t in BLOG_TAGS:
        p = f"tag/{t}/index.html"
        blog_listing(s, m, p, t, [x for x in m["posts"] if t in x["tags"]], head("Tag", t))
        s.out(p)
    for mo in m["months"]:
        p = f"{mo}/index.html"
        name = f"{MONTHS[int(mo[5:]) - 1]} {mo[:4]}"
        posts = [x for x in m["posts"] if x["date"].strftime("%Y/%m") == mo]
        blog_listing(s, m, p, name, posts, head("Month", name))
        s.out(p)
    for name, nick in BLOG_AUTHORS:
        p = f"author/{nick}/index.html"
        blog_listing(s, m, p, name, [x for x in m["posts"] if x["author"][1] == nick],
                     head("Author", name))
        s.out(p)
    for title, p in BLOG_PAGES:
        main = (f'<article class="page type-page"><header class="entry-header"><h1 class="entry-title">'
                f'{title}</h1></header><div class="entry-content"><p>{paragraph(s.rng)}</p>'
                f'<p><a href="mailto:hello@example.com">hello@example.com</a></p></div></article>')
        s.add(p, blog_page(m, title, main))
        s.out(p)


def build_blog():
    s = Site("blog", "blog (WordPress-like)",
             "WordPress-style blog with pretty URLs. Home (10 latest posts, excerpts, 'Read "
             "more') -> 5 categories from the category menu (Food & Recipes has 2 child "
             "categories) -> posts; each post is in exactly one category. Noise: sidebar "
             "widgets (recent posts, categories, monthly archive, tag cloud), /page/N/, "
             "post navigation, related posts, comments.", seed=777)
    m = blog_model(s.rng)
    blog_home(s, m)
    blog_categories(s, m)
    posts = m["posts"]
    for i, post in enumerate(posts):
        prev = posts[i + 1] if i + 1 < len(posts) else None
        nxt = posts[i - 1] if i > 0 else None
        blog_post(s, m, post, prev, nxt)
    blog_noise(s, m)
    return s


# ================================================================== forum
# phpBB2-like board: index table with category rows (not links) and forum
# rows (a.forumtitle, description, subforum links, last-post links), forum
# pages with subforum and topic tables, topic pages with posts.  Flat file
# names in the site root (viewforum-f3.html, viewtopic-t1012.html).

FORUM = [
    ("General", [
        ("Announcements", "News and announcements from the board team", [], [
            "Board rules - please read before posting (updated March 2024)",
            "Scheduled maintenance this Saturday: forum offline 02:00-04:00 UTC",
            "New feature: you can now attach images directly to your posts"]),
        ("Introductions", "New here? Say hello and tell us about your setup", [], [
            "Hi all, long time lurker from Rotterdam finally registering",
            "New member here - building my first PC after 15 years on laptops",
            "Hello from a retired electrician getting into home automation",
            "Greetings! Student looking to learn Linux and self-hosting"]),
        ("Off-topic", "Anything that does not fit anywhere else", [], [
            "What are you listening to while you work? Post your playlists",
            "Show us your desk setup, 2024 edition (pictures welcome)",
            "Anyone else completely addicted to mechanical keyboards now?",
            "Best budget office chair for long gaming sessions and bad backs"])]),
    ("Hardware", [
        ("CPUs and motherboards", "Processors, chipsets, BIOS and overclocking", [], [
            "Ryzen 7 7800X3D idle temperatures around 50°C - is that normal?",
            "B650 vs X670 motherboard: is the extra money worth it for gaming?",
            "PC won't POST after BIOS update, orange DRAM light on my board",
            "Undervolting an i7-13700K: my results and stability testing guide"]),
        ("Graphics cards", "GPUs, drivers and monitors", [], [
            "RTX 4070 vs RX 7800 XT for 1440p gaming - which one should I buy?",
            "Coil whine on a brand new GPU, should I return it or live with it?",
            "Black screen after driver update, only fixed by reinstalling Windows?",
            "How much does PCIe 4.0 vs 3.0 actually matter for a mid-range card?",
            "Finally upgraded from a GTX 970 after nine years, here are my benchmarks"]),
        ("Storage", "Hard drives, SSDs, NAS and backups", [
            ("SSDs and NVMe", "Solid state drives, firmware and benchmarks", [
                "Firmware issue on my 2 TB NVMe drive: check your health percentage now",
                "Is a DRAM-less NVMe SSD fine for a gaming-only build?",
                "PCIe 5.0 SSD heatsink: do I really need the big one?",
                "SSD shows only half its capacity in Disk Management, help please"]),
            ("NAS and home servers", "Self-built and off-the-shelf network storage", [
                "Building a low-power NAS with TrueNAS Scale: parts list and power draw",
                "Synology vs self-built Unraid box for a family photo library",
                "RAID 5 rebuild failed halfway, how do I recover my data?",
                "Which hard drives do you trust for 24/7 operation in 2024?"])], [
            "Best way to clone an old HDD to a new drive without reinstalling?",
            "External backup drive keeps disconnecting during large file copies",
            "How do you organise backups? 3-2-1 strategy for home users"])]),
    ("Software", [
        ("Linux", "Distributions, desktop environments and the command line", [], [
            "Switching from Windows to Fedora for daily use: my first month",
            "Wi-Fi adapter not detected on Ubuntu 22.04 after kernel update",
            "Wayland vs X11 in 2024: is it finally ready for NVIDIA users?",
            "Bash script to rename thousands of photos by EXIF date"]),
        ("Windows", "Windows 10 and 11 help and tweaks", [], [
            "Windows 11 update stuck at 35 percent for hours, what now?",
            "How to disable the web search results in the Start menu for good",
            "Blue screen DPC_WATCHDOG_VIOLATION after installing a new SSD",
            "Is it still worth doing a clean install instead of upgrading?"]),
        ("Programming", "Code, tools and careers", [
            ("Python", "Everything Python: scripts, data and web", [
                "Why is my pandas groupby so slow on ten million rows?",
                "Virtual environments, pipx, conda: what should I actually use?",
                "Async web scraping with aiohttp keeps hitting connection limits",
                "Type hints in a large codebase: worth the effort or just noise?"]),
            ("Web development", "HTML, CSS, JavaScript and backends", [
                "CSS grid vs flexbox for a dashboard layout, which one and why?",
                "My first full-stack project: a recipe site with Django and HTMX",
                "How do you handle authentication in a small single-page app?",
                "Static site generators compared: Hugo, Eleventy and Astro"])], [
            "Which language should a complete beginner learn first in 2024?",
            "Git merge vs rebase: explain it like I am five please",
            "Share your favourite code editor setup and extensions"])]),
]
FORUM_USERS = ["nightowl", "bitflipper", "Marta_K", "oldschool_dave", "zeroKelvin", "pixelpusher",
               "tuxfan88", "ReneV", "sparky", "quietfan", "admin", "moderator_jo"]
FORUM_NOISE = [("FAQ", "faq.html"), ("Search", "search.html"), ("Memberlist", "memberlist.html"),
               ("The team", "team.html"), ("Register", "ucp-register.html"),
               ("Log in", "ucp-login.html"), ("View unanswered posts", "search-unanswered.html"),
               ("View active topics", "search-active.html")]
FORUM_PER_PAGE = 6
FORUM_CSS = (".forumline{background:#fff;border:1px #006699 solid}td.row1{background:#EFEFEF}"
             "td.row2{background:#DEE3E7}td.catLeft{background:#C7D0D7}.gensmall{font-size:10px}")


def forum_add_forum(m, name, desc, up, cat, titles):
    f = {"name": name, "desc": desc, "up": up, "cat": cat, "subs": [], "topics": [],
         "id": len(m["forums"]) + 1}
    f["path"] = f"viewforum-f{f['id']}.html"
    m["forums"].append(f)
    for title in titles:
        t = {"title": title, "forum": f, "id": 1001 + len(m["topics"])}
        t["path"] = f"viewtopic-t{t['id']}.html"
        f["topics"].append(t)
        m["topics"].append(t)
    return f


def forum_model(rng):
    m = {"cats": [], "forums": [], "topics": [], "post_id": 2300}
    for cname, forums in FORUM:
        cat = {"name": cname, "forums": [], "id": len(m["cats"]) + 1}
        m["cats"].append(cat)
        for name, desc, subs, titles in forums:
            f = forum_add_forum(m, name, desc, None, cat, titles)
            cat["forums"].append(f)
            for sname, sdesc, stitles in subs:
                f["subs"].append(forum_add_forum(m, sname, sdesc, f, cat, stitles))
    start = datetime.datetime(2024, 3, 16, 21, 12)
    for t in m["topics"]:
        n = rng.randint(2, 10)
        t["posts"] = []
        when = start - datetime.timedelta(hours=rng.randint(2, 2000))
        for _ in range(n):
            m["post_id"] += rng.randint(1, 9)
            t["posts"].append({"id": m["post_id"], "user": rng.randrange(len(FORUM_USERS)),
                               "when": when, "text": paragraph(rng, 1, 3)})
            when += datetime.timedelta(minutes=rng.randint(5, 600))
        t["views"] = rng.randint(40, 9000)
    return m


def forum_user(uid):
    return f'<a href="./memberlist-u{uid + 1}.html">{FORUM_USERS[uid]}</a>'


def forum_time(when):
    h = when.hour % 12 or 12
    return (f'{WEEKDAYS[when.weekday()][:3]} {MONTHS[when.month - 1][:3]} {when.day}, {when.year} '
            f'{h}:{when.minute:02d} {"am" if when.hour < 12 else "pm"}')


def forum_pages_of(t):
    return -(-len(t["posts"]) // FORUM_PER_PAGE)


def forum_page_path(t, n):
    return t["path"] if n == 1 else t["path"].replace(".html", f"-start{(n - 1) * FORUM_PER_PAGE}.html")


def forum_last_link(t):
    """'last post' link: the last page of the topic, with a #p fragment."""
    last = t["posts"][-1]
    p = forum_page_path(t, forum_pages_of(t))
    return (f'{forum_time(last["when"])}<br>{forum_user(last["user"])} <a href="./{p}#p{last["id"]}">'
            f'<img src="{EXT}/phpbb/icon_latest_reply.gif" alt="View latest post" title="View latest post"></a>')


def forum_all_topics(f):
    return f["topics"] + [t for s in f["subs"] for t in s["topics"]]


def forum_row(f):
    topics = forum_all_topics(f)
    last = max(topics, key=lambda t: t["posts"][-1]["when"])
    subs = ""
    if f["subs"]:
        subs = ('<br><span class="gensmall"><b>Subforums:</b> ' + ", ".join(
            f'<a class="subforum" href="./{s["path"]}">{esc(s["name"])}</a>' for s in f["subs"]) + "</span>")
    return f"""<tr>
<td class="row1" align="center" valign="middle" height="50"><img src="{EXT}/phpbb/folder_big.gif" alt="No new posts"></td>
<td class="row1" width="100%"><a class="forumtitle" href="./{f['path']}">{esc(f['name'])}</a><br><span class="genmed">{esc(f['desc'])}</span>{subs}</td>
<td class="row2" align="center"><span class="gensmall">{len(topics)}</span></td>
<td class="row2" align="center"><span class="gensmall">{sum(len(t['posts']) for t in topics)}</span></td>
<td class="row2" align="center" nowrap="nowrap"><span class="gensmall">{forum_last_link(last)}</span></td>
</tr>"""


def forum_page(title, body, crumbs=""):
    links = " &nbsp; ".join(f'<a href="./{p}" class="mainmenu">{t}</a>' for t, p in FORUM_NOISE[:6])
    online = ", ".join(forum_user(u) for u in (0, 3, 6, 10))
    page = f"""<body bgcolor="#E5E5E5" text="#000000" link="#006699" vlink="#5493B4">
<a name="top"></a>
<table width="100%" cellspacing="0" cellpadding="10" border="0" align="center"><tr><td class="bodyline">
<table width="100%" cellspacing="0" cellpadding="0" border="0">
<tr><td><a href="./index.html"><img src="{EXT}/phpbb/logo_phpBB.gif" border="0" alt="HardwareTalk Forum Index"></a></td>
<td align="center" width="100%" valign="middle"><span class="maintitle">HardwareTalk</span><br><span class="gen">PC hardware and software help since 2004</span><br>
<table cellspacing="0" cellpadding="2" border="0"><tr><td align="center" valign="top" nowrap="nowrap"><span class="mainmenu">{links}</span></td></tr></table></td></tr>
</table>
<br>
<table width="100%" cellspacing="0" cellpadding="2" border="0"><tr>
<td align="left" valign="bottom"><span class="gensmall"><a href="./search-unanswered.html" class="gensmall">View unanswered posts</a> | <a href="./search-active.html" class="gensmall">View active topics</a></span><br>
<span class="nav">{crumbs or '<a href="./index.html" class="nav">HardwareTalk Forum Index</a>'}</span></td>
<td align="right" valign="bottom"><span class="gensmall"><a href="#" class="gensmall">Mark all forums read</a></span></td></tr></table>
{body}
<br>
<table width="100%" cellpadding="3" cellspacing="1" border="0" class="forumline">
<tr><td class="catHead" colspan="2"><span class="cattitle"><a href="./search-active.html" class="cattitle">Who is online</a></span></td></tr>
<tr><td class="row1" align="left"><span class="gensmall">In total there are 23 users online :: 4 registered, 1 hidden and 18 guests<br>Registered users: {online}</span></td></tr>
</table>
<div align="center"><span class="copyright"><a href="javascript:deleteCookies()">Delete all board cookies</a> &middot; All times are UTC<br>
Powered by <a href="{EXT}/phpbb" target="_phpbb" class="copyright">phpBB</a> &copy; 2001, 2005 phpBB Group</span></div>
</td></tr></table>
</body>"""
    head = f'<link rel="stylesheet" href="{EXT}/phpbb/subSilver.css" type="text/css">\n'
    return html5(f"HardwareTalk :: {title}", page, FORUM_CSS, head=head).replace(
        "<!DOCTYPE html>", '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">')


def forum_crumbs(f):
    chain = []
    while f:
        chain.insert(0, f)
        f = f["up"]
    parts = ['<a href="./index.html" class="nav">HardwareTalk Forum Index</a>',
             f'<a href="./index.html#c{chain[0]["cat"]["id"]}" class="nav">{esc(chain[0]["cat"]["name"])}</a>']
    parts += [f'<a href="./{x["path"]}" class="nav">{esc(x["name"])}</a>' for x in chain]
    return " &raquo; ".join(parts)


def forum_index(s, m):
    rows = []
    for cat in m["cats"]:
        rows.append(f'<tr><td class="catLeft" colspan="2" height="28"><a name="c{cat["id"]}"></a>'
                    f'<span class="cattitle">{esc(cat["name"])}</span></td><td class="rowpic" colspan="3" '
                    f'align="right">&nbsp;</td></tr>')
        for f in cat["forums"]:
            rows.append(forum_row(f))
            s.edge("index.html", f["path"])
    body = f"""<table width="100%" cellpadding="2" cellspacing="1" border="0" class="forumline">
<tr><th colspan="2" class="thCornerL" height="25" nowrap="nowrap">&nbsp;Forum&nbsp;</th><th width="50" class="thTop" nowrap="nowrap">&nbsp;Topics&nbsp;</th>
<th width="50" class="thTop" nowrap="nowrap">&nbsp;Posts&nbsp;</th><th class="thCornerR" nowrap="nowrap">&nbsp;Last Post&nbsp;</th></tr>
{chr(10).join(rows)}
</table>
<table width="100%" cellspacing="0" border="0" align="center" cellpadding="2"><tr><td align="left"><span class="gensmall">Our users have posted a total of <b>{sum(len(t['posts']) for t in m['topics'])}</b> articles. The newest registered user is {forum_user(9)}</span></td></tr></table>"""
    s.add("index.html", forum_page("Index", body))


def forum_topic_row(t, sticky=False):
    pages = forum_pages_of(t)
    goto = ""
    if pages > 1:
        goto = ' [ Goto page: ' + ", ".join(f'<a href="./{forum_page_path(t, n)}">{n}</a>'
                                             for n in range(1, pages + 1)) + " ]"
    label = "<b>Announcement:</b> " if sticky else ""
    first = t["posts"][0]
    return f"""<tr>
<td class="row1" align="center" valign="middle" width="20"><img src="{EXT}/phpbb/folder{'_announce' if sticky else ''}.gif" alt="No new posts"></td>
<td class="row1" width="100%"><span class="topictitle">{label}<a href="./{t['path']}" class="topictitle">{esc(t['title'])}</a></span><span class="gensmall">{goto}</span></td>
<td class="row2" align="center" valign="middle"><span class="postdetails">{len(t['posts']) - 1}</span></td>
<td class="row3" align="center" valign="middle"><span class="name">{forum_user(first['user'])}</span></td>
<td class="row2" align="center" valign="middle"><span class="postdetails">{t['views']}</span></td>
<td class="row3Right" align="center" valign="middle" nowrap="nowrap"><span class="postdetails">{forum_last_link(t)}</span></td>
</tr>"""


def forum_forum(s, m, f):
    parts = []
    if f["subs"]:
        parts.append('<table width="100%" cellpadding="2" cellspacing="1" border="0" class="forumline">'
                     '<tr><th colspan="2" class="thCornerL">&nbsp;Subforums&nbsp;</th><th class="thTop">'
                     'Topics</th><th class="thTop">Posts</th><th class="thCornerR">Last Post</th></tr>\n'
                     + "\n".join(forum_row(x) for x in f["subs"]) + "\n</table><br>")
    rules = m["topics"][0]
    rows = ([forum_topic_row(rules, sticky=True)] if f["topics"][0] is not rules else [])
    rows += [forum_topic_row(t) for t in f["topics"]]
    parts.append(f"""<table width="100%" cellspacing="2" cellpadding="2" border="0" align="center">
<tr><td align="left" valign="bottom"><a href="./ucp-login.html"><img src="{EXT}/phpbb/post.gif" border="0" alt="Post new topic"></a></td>
<td align="right" valign="bottom"><span class="gensmall">Page <b>1</b> of <b>1</b></span></td></tr></table>
<table border="0" cellpadding="4" cellspacing="1" width="100%" class="forumline">
<tr><th colspan="2" align="center" height="25" class="thCornerL" nowrap="nowrap">&nbsp;Topics&nbsp;</th><th width="50" align="center" class="thTop" nowrap="nowrap">&nbsp;Replies&nbsp;</th>
<th width="100" align="center" class="thTop" nowrap="nowrap">&nbsp;Author&nbsp;</th><th width="50" align="center" class="thTop" nowrap="nowrap">&nbsp;Views&nbsp;</th><th align="center" class="thCornerR" nowrap="nowrap">&nbsp;Last Post&nbsp;</th></tr>
{chr(10).join(rows)}
</table>
<form method="get" action="./index.html"><span class="gensmall">Jump to: <select name="f">{''.join(f'<option value="{x["id"]}">{esc(x["name"])}</option>' for x in m['forums'])}</select> <input type="submit" value="Go"></span></form>""")
    s.add(f["path"], forum_page(f["name"], "\n".join(parts), forum_crumbs(f)))
    for x in f["subs"]:
        s.edge(f["path"], x["path"])
    for t in f["topics"]:
        s.edge(f["path"], t["path"])


def forum_post_html(t, post, first):
    u = post["user"]
    subject = t["title"] if first else "Re: " + t["title"]
    sig = (f'<br>_________________<br><a href="{EXT}/sig/{FORUM_USERS[u].lower()}" target="_blank" '
           f'class="postlink">My rig on PCPartPicker</a>') if u % 3 == 0 else ""
    return f"""<tr>
<td width="150" align="left" valign="top" class="row1"><span class="name"><a name="p{post['id']}"></a><b>{forum_user(u)}</b></span><br>
<span class="postdetails">{'Site Admin' if FORUM_USERS[u] == 'admin' else 'Member'}<br>Joined: {MONTHS[u % 12][:3]} {2005 + u}<br>Posts: {37 * (u + 3)}</span></td>
<td class="row1" width="100%" height="28" valign="top"><table width="100%" border="0" cellspacing="0" cellpadding="0">
<tr><td width="100%"><a href="#p{post['id']}"><img src="{EXT}/phpbb/icon_minipost.gif" alt="Post"></a><span class="postdetails">Posted: {forum_time(post['when'])}<span class="gen">&nbsp;</span>&nbsp; &nbsp;Post subject: {esc(subject)}</span></td>
<td valign="top" nowrap="nowrap"><a href="./ucp-login.html"><img src="{EXT}/phpbb/icon_quote.gif" alt="Reply with quote"></a></td></tr>
<tr><td colspan="2"><hr></td></tr>
<tr><td colspan="2"><span class="postbody">{post['text']}{sig}</span></td></tr></table></td>
</tr>
<tr><td class="row1" valign="middle"><span class="nav"><a href="#top" class="nav">Back to top</a></span></td>
<td class="row1"><a href="./memberlist-u{u + 1}.html"><img src="{EXT}/phpbb/icon_profile.gif" alt="View user's profile"></a></td></tr>
<tr><td class="spaceRow" colspan="2" height="1"></td></tr>"""


def forum_topic(s, m, t):
    f = t["forum"]
    pages = forum_pages_of(t)
    similar = [x for x in m["topics"] if x["forum"] is not f][t["id"] % 7::9][:3]
    sim = "".join(f'<tr><td class="row1"><a href="./{x["path"]}" class="topictitle">{esc(x["title"])}</a>'
                  f'</td><td class="row2"><span class="gensmall">in <a href="./{x["forum"]["path"]}">'
                  f'{esc(x["forum"]["name"])}</a></span></td></tr>' for x in similar)
    for n in range(1, pages + 1):
        p = forum_page_path(t, n)
        posts = t["posts"][(n - 1) * FORUM_PER_PAGE: n * FORUM_PER_PAGE]
        goto = ", ".join(f"<b>{i}</b>" if i == n else f'<a href="./{forum_page_path(t, i)}">{i}</a>'
                         for i in range(1, pages + 1))
        body = f"""<table width="100%" cellspacing="2" cellpadding="2" border="0">
<tr><td align="left" valign="bottom" colspan="2"><a class="maintitle" href="./{t['path']}">{esc(t['title'])}</a><br>
<span class="gensmall"><b>Goto page {goto}</b></span></td></tr></table>
<table width="100%" cellspacing="2" cellpadding="2" border="0"><tr><td><a href="./ucp-login.html"><img src="{EXT}/phpbb/reply.gif" alt="Post a reply"></a></td></tr></table>
<table class="forumline" width="100%" cellspacing="1" cellpadding="3" border="0">
<tr><th class="thLeft" width="150" height="26" nowrap="nowrap">Author</th><th class="thRight" nowrap="nowrap">Message</th></tr>
{chr(10).join(forum_post_html(t, x, n == 1 and i == 0) for i, x in enumerate(posts))}
</table>
<p class="gensmall">Page <b>{n}</b> of <b>{pages}</b> &middot; <a href="./{f['path']}">Return to {esc(f['name'])}</a></p>
<table class="forumline" width="100%" cellspacing="1" cellpadding="3"><tr><th colspan="2">Similar topics</th></tr>{sim}</table>"""
        s.add(p, forum_page(t["title"], body, forum_crumbs(f)))
        if n > 1:
            s.out(p)


def forum_noise(s, m):
    users = set(p["user"] for t in m["topics"] for p in t["posts"]) | {0, 3, 6, 9, 10}
    for u in sorted(users):
        p = f"memberlist-u{u + 1}.html"
        mine = [t for t in m["topics"] if t["posts"][0]["user"] == u][:5]
        started = "".join(f'<li><a href="./{t["path"]}">{esc(t["title"])}</a></li>' for t in mine)
        body = (f'<table class="forumline" width="100%"><tr><th>Viewing profile :: {FORUM_USERS[u]}</th></tr>'
                f'<tr><td class="row1"><span class="gen">Joined: {MONTHS[u % 12]} {2005 + u}<br>'
                f'Website: <a href="{EXT}/~{FORUM_USERS[u].lower()}">{EXT}/~{FORUM_USERS[u].lower()}</a><br>'
                f'<a href="./search.html">Find all posts by {FORUM_USERS[u]}</a></span><ul>{started}</ul></td></tr></table>')
        s.add(p, forum_page(f"Viewing profile :: {FORUM_USERS[u]}", body))
        s.out(p)
    for title, p in FORUM_NOISE:
        body = f'<table class="forumline" width="100%"><tr><th>{title}</th></tr><tr><td class="row1"><span class="gen">{paragraph(s.rng)}</span></td></tr></table>'
        if p == "memberlist.html":
            body = ('<table class="forumline" width="100%"><tr><th>Username</th><th>Posts</th></tr>' + "".join(
                f'<tr><td class="row1">{forum_user(u)}</td><td class="row2">{37 * (u + 3)}</td></tr>'
                for u in sorted(users)) + "</table>")
        elif p in ("search-unanswered.html", "search-active.html"):
            body += "<ul>" + "".join(f'<li><a href="./{t["path"]}">{esc(t["title"])}</a></li>'
                                     for t in m["topics"][3::7]) + "</ul>"
        s.add(p, forum_page(title, body))
        s.out(p)


def build_forum():
    s = Site("forum", "discussion forum (phpBB-like)",
             "phpBB2-style board. Index table with category rows (plain text) and forum rows "
             "-> forums (two with subforums) -> subforums -> topics. Noise: last-post links "
             "(#p fragments), subforum links on the index, announcement rows, user profiles, "
             "topic pagination (-startN pages), similar topics, search/memberlist pages.",
             seed=31337)
    m = forum_model(s.rng)
    forum_index(s, m)
    for f in m["forums"]:
        forum_forum(s, m, f)
    for t in m["topics"]:
        forum_topic(s, m, t)
    forum_noise(s, m)
    return s


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


# ============================================================== portal_dl
# Municipal portal: home tile grid of sections (div.tile), section pages
# with <dl> topic lists, topic pages with service tiles, service pages as
# content; quick links, news, A-Z index, language switcher and a huge
# footer sitemap (<dl>) on every page.  Root-relative links.

PORTAL = [
    ("Residents", [
        ("Council tax", "Bands, discounts and payments", [
            "Pay your council tax online", "Apply for a council tax discount",
            "Tell us you are moving home"]),
        ("Waste and recycling", "Bin collections, recycling centres and bulky waste", [
            "Check your bin collection day", "Order a new or replacement recycling bin",
            "Book a bulky waste collection"]),
        ("Housing", "Social housing, repairs and homelessness", [
            "Apply to join the social housing register", "Report a repair in your council home",
            "Get help if you are homeless or at risk"])]),
    ("Business", [
        ("Licences and permits", "Premises, street trading and taxi licences", [
            "Apply for a premises licence to sell alcohol", "Apply for a street trading licence",
            "Renew your taxi or private hire driver licence"]),
        ("Business rates", "Bills, payments and relief", [
            "Pay your business rates", "Apply for small business rate relief"]),
        ("Planning and building control", "Planning permission and building regulations", [
            "Apply for planning permission", "Comment on a planning application",
            "Request a building control inspection"])]),
    ("Environment", [
        ("Parks and green spaces", "Parks, playgrounds and sports pitches", [
            "Book a sports pitch or park facility", "Report damage or litter in a park"]),
        ("Pollution and nuisance", "Noise, air quality and fly-tipping", [
            "Report a noise complaint", "Check local air quality readings",
            "Report fly-tipping on public land"]),
        ("Trees", "Council trees and tree preservation orders", [
            "Request work on a council-owned tree", "Apply for consent to work on a protected tree"])]),
    ("Transport and streets", [
        ("Parking", "Permits, fines and car parks", [
            "Apply for a resident parking permit", "Pay a penalty charge notice",
            "Challenge a parking fine"]),
        ("Roads and pavements", "Potholes, street lights and dropped kerbs", [
            "Report a pothole or damaged pavement", "Report a broken street light",
            "Apply for a dropped kerb outside your home"]),
        ("Public transport", "Bus passes and travel support", [
            "Apply for an older person's bus pass", "Apply for a disabled person's travel pass"])]),
    ("Health and social care", [
        ("Adult social care", "Care assessments, blue badges and care homes", [
            "Ask for a care needs assessment", "Apply for or renew a blue badge",
            "Find a care home in Eastbrook"]),
        ("Children and families", "Schools, childcare and family support", [
            "Apply for a primary or secondary school place", "Find a registered childminder",
            "Apply for free school meals"]),
        ("Public health", "Health checks and healthy living", [
            "Book a free NHS health check", "Find a stop smoking service near you"])]),
    ("Council and democracy", [
        ("Councillors and committees", "Your councillors, meetings and decisions", [
            "Find your local councillor", "View committee meeting papers and minutes"]),
        ("Elections and voting", "Registering to vote and polling stations", [
            "Register to vote", "Apply for a postal or proxy vote", "Find your polling station"]),
        ("Freedom of information", "Requests and open data", [
            "Make a freedom of information request", "View council spending and transparency data"])]),
]
PORTAL_NEWS = ["Eastbrook wins national award for its recycling rate for the third year",
               "New cycle lanes on the High Street to open in April after consultation",
               "Council budget 2024/25 approved: what it means for your council tax",
               "Summer holiday activity programme for children now open for bookings"]
PORTAL_NOISE = [("Search", "search.html"), ("Contact us", "contact.html"),
                ("Sign in to My Eastbrook", "account/sign-in.html"),
                ("Accessibility statement", "accessibility.html"), ("Privacy notice", "privacy.html"),
                ("Cookies", "cookies.html"), ("A to Z of services", "a-z.html"), ("News", "news/index.html")]
PORTAL_QUICK = ["Pay your council tax online", "Check your bin collection day",
                "Report a pothole or damaged pavement", "Apply for a resident parking permit",
                "Register to vote", "Apply for a primary or secondary school place"]
PORTAL_LANGS = [("cy", "Cymraeg", "Croeso i Gyngor Dinas Eastbrook"),
                ("pl", "Polski", "Witamy na stronie Rady Miasta Eastbrook")]
PORTAL_CSS = (".tile-grid{display:grid;grid-template-columns:repeat(3,1fr);gap:1rem}"
              ".tile{border:1px solid #ccc;padding:1rem}.footer-sitemap dl{columns:3}")


def portal_model():
    secs, services = [], []
    for sname, topics in PORTAL:
        sd = slug(sname)
        sec = {"name": sname, "path": f"{sd}/index.html", "topics": []}
        secs.append(sec)
        for tname, desc, svcs in topics:
            td = f"{sd}/{slug(tname)}"
            topic = {"name": tname, "desc": desc, "path": f"{td}/index.html", "sec": sec, "services": []}
            sec["topics"].append(topic)
            for title in svcs:
                svc = {"name": title, "path": f"{td}/{slug(title)}.html", "topic": topic}
                topic["services"].append(svc)
                services.append(svc)
    news = [{"name": t, "path": f"news/{slug(t)[:48].strip('-')}.html"} for t in PORTAL_NEWS]
    by_name = {x["name"]: x for x in services}
    quick = [by_name[n] for n in PORTAL_QUICK]
    return {"secs": secs, "services": services, "news": news, "quick": quick, "by_name": by_name}


def portal_header(lang="en"):
    langs = " ".join(f'<a href="/{code}/index.html" lang="{code}" hreflang="{code}">{name}</a>'
                     for code, name, _ in PORTAL_LANGS)
    return f"""<header class="site-header" role="banner">
<a class="skip-link" href="#main-content">Skip to main content</a>
<div class="header-top"><div class="language-switcher" aria-label="Choose language"><a href="/index.html" lang="en" hreflang="en"{' aria-current="true"' if lang == 'en' else ''}>English</a> {langs}</div>
<ul class="header-links"><li><a href="/account/sign-in.html">Sign in to My Eastbrook</a></li><li><a href="/contact.html">Contact us</a></li><li><a href="/a-z.html">A-Z</a></li><li><a href="/search.html">Search</a></li></ul></div>
<div class="header-main"><a class="logo" href="/index.html"><img src="{EXT}/eastbrook/crest.svg" alt="Eastbrook City Council - home"></a>
<form class="site-search" action="/search.html" method="get" role="search"><label for="q">Search this site</label><input id="q" name="q" type="search"><button type="submit">Search</button></form></div>
</header>"""


def portal_footer(m):
    blocks = []
    for sec in m["secs"]:
        dds = "".join(f'<dd><a href="{root(t["path"])}">{esc(t["name"])}</a></dd>' for t in sec["topics"])
        blocks.append(f'<dt><a href="{root(sec["path"])}">{esc(sec["name"])}</a></dt>{dds}')
    legal = " ".join(f'<a href="{root(p)}">{t}</a>' for t, p in PORTAL_NOISE[1:7])
    social = " ".join(f'<a href="{EXT}/social/{n.lower()}/eastbrookcouncil">{n}</a>' for n in ["X", "Facebook", "YouTube"])
    return f"""<footer class="site-footer" role="contentinfo">
<nav class="footer-sitemap" aria-label="Site map"><h2>All council services</h2><dl>
{chr(10).join(blocks)}
</dl></nav>
<div class="footer-legal">{legal}</div>
<div class="footer-contact">Eastbrook City Council, Civic Centre, Market Square, EB1 1AA &middot; <a href="tel:01632960000">01632 960000</a> &middot; {social}</div>
</footer>"""


def portal_page(m, title, main, crumbs=None, lang="en"):
    trail = ""
    if crumbs:
        items = "".join(f'<li><a href="{root(p)}">{esc(t)}</a></li>' for t, p in crumbs)
        trail = f'<nav class="breadcrumbs" aria-label="Breadcrumb"><ol>{items}</ol></nav>'
    body = (f'<body>\n{portal_header(lang)}\n<div class="container">{trail}\n<main id="main-content" '
            f'role="main">\n{main}\n</main></div>\n{portal_footer(m)}\n</body>')
    return html5(f"{title} - Eastbrook City Council", body, PORTAL_CSS, lang=lang)


def portal_quick(items, heading="Quick links"):
    lis = "".join(f'<li><a href="{root(x["path"])}">{esc(x["name"])}</a></li>' for x in items)
    return f'<div class="quick-links"><h2>{heading}</h2><ul>{lis}</ul></div>'


def portal_home(s, m):
    tiles = []
    for sec in m["secs"]:
        topics = "".join(f'<li><a href="{root(t["path"])}">{esc(t["name"])}</a></li>' for t in sec["topics"])
        tiles.append(f'<div class="tile tile--section"><h2 class="tile__title"><a href="{root(sec["path"])}">'
                     f'{esc(sec["name"])}</a></h2><ul class="tile__topics">{topics}</ul></div>')
        s.edge("index.html", sec["path"])
    news = "".join(f'<li><a href="{root(n["path"])}">{esc(n["name"])}</a></li>' for n in m["news"][:3])
    main = f"""<h1 class="visually-hidden">Eastbrook City Council</h1>
<div class="alert">Christmas and New Year bin collection changes: <a href="{root(m['by_name']['Check your bin collection day']['path'])}">check your new collection day</a></div>
{portal_quick(m["quick"])}
<section class="services"><h2>Council services</h2><div class="tile-grid">
{chr(10).join(tiles)}
</div></section>
<section class="news"><h2>Latest news</h2><ul>{news}</ul><a href="/news/index.html">More news</a></section>
<section class="report"><h2>Report it</h2><p><a href="{root(m['by_name']['Report a pothole or damaged pavement']['path'])}">Report a pothole</a> &middot; <a href="{EXT}/eastbrook/report-it">Report anything else</a></p></section>"""
    s.add("index.html", portal_page(m, "Home", main))


def portal_section(s, m, sec):
    dl = "\n".join(f'<dt><a href="{root(t["path"])}">{esc(t["name"])}</a></dt><dd>{esc(t["desc"])}</dd>'
                   for t in sec["topics"])
    popular = [t["services"][0] for t in sec["topics"]]
    main = f"""<h1>{esc(sec['name'])}</h1>
<p class="lead">{sentence(s.rng)}</p>
<dl class="topic-list">
{dl}
</dl>
{portal_quick(popular, "Most requested in " + sec['name'])}"""
    s.add(sec["path"], portal_page(m, sec["name"], main, [("Home", "index.html")]))
    for t in sec["topics"]:
        s.edge(sec["path"], t["path"])


def portal_topic(s, m, topic):
    sec = topic["sec"]
    tiles = "\n".join(f'<div class="tile tile--service"><h3 class="tile__title"><a href="{root(x["path"])}">'
                      f'{esc(x["name"])}</a></h3><p>{sentence(s.rng, 6, 12)}</p></div>' for x in topic["services"])
    others = "".join(f'<li><a href="{root(t["path"])}">{esc(t["name"])}</a></li>'
                     for t in sec["topics"] if t is not topic)
    main = f"""<h1>{esc(topic['name'])}</h1>
<p class="lead">{esc(topic['desc'])}. {sentence(s.rng)}</p>
<div class="tile-grid">
{tiles}
</div>
<aside class="related-topics"><h2>Other topics in {esc(sec['name'])}</h2><ul>{others}</ul></aside>"""
    s.add(topic["path"], portal_page(m, topic["name"], main, [("Home", "index.html"), (sec["name"], sec["path"])]))
    for x in topic["services"]:
        s.edge(topic["path"], x["path"])


def portal_service(s, m, svc, related):
    topic, rng = svc["topic"], s.rng
    sec = topic["sec"]
    rel_html = "".join(f'<li><a href="{root(x["path"])}">{esc(x["name"])}</a></li>' for x in related)
    main = f"""<h1>{esc(svc['name'])}</h1>
<p class="lead">{sentence(rng)}</p>
<h2>Before you start</h2><ul><li>{sentence(rng, 6, 10)}</li><li>{sentence(rng, 6, 10)}</li></ul>
<p><a class="button button--start" href="{EXT}/eastbrook/forms/{slug(svc['name'])}" role="button">Start now</a></p>
<h2>Contact</h2>
<dl class="contact-details"><dt>Phone</dt><dd><a href="tel:01632960{rng.randint(100, 999)}">01632 960{rng.randint(100, 999)}</a></dd>
<dt>Email</dt><dd><a href="mailto:{slug(topic['name'])}@example.com">{slug(topic['name'])}@example.com</a></dd>
<dt>Opening hours</dt><dd>Monday to Friday, 9am to 5pm</dd></dl>
<aside class="related"><h2>Related services</h2><ul>{rel_html}</ul></aside>
<div class="feedback" id="feedback">Was this page useful? <a href="#feedback-yes">Yes</a> <a href="#feedback-no">No</a> <a href="/contact.html">Report a problem with this page</a></div>"""
    crumbs = [("Home", "index.html"), (sec["name"], sec["path"]), (topic["name"], topic["path"])]
    s.add(svc["path"], portal_page(m, svc["name"], main, crumbs))


def portal_noise(s, m):
    by_letter = {}
    for x in sorted(m["services"], key=lambda x: x["name"]):
        by_letter.setdefault(x["name"][0].upper(), []).append(x)
    az = " ".join(f'<a href="#letter-{c}">{c}</a>' for c in by_letter)
    az += "".join(f'<h2 id="letter-{c}">{c}</h2><ul>' + "".join(
        f'<li><a href="{root(x["path"])}">{esc(x["name"])}</a></li>' for x in xs) + "</ul>"
        for c, xs in by_letter.items())
    news = "".join(f'<li><a href="{root(n["path"])}">{esc(n["name"])}</a></li>' for n in m["news"])
    bodies = {"a-z.html": az, "news/index.html": f"<ul>{news}</ul>"}
    for title, p in PORTAL_NOISE:
        main = f"<h1>{title}</h1>\n" + bodies.get(p, f"<p>{paragraph(s.rng)}</p>")
        s.add(p, portal_page(m, title, main, [("Home", "index.html")]))
        s.out(p)
    for n in m["news"]:
        main = f'<h1>{esc(n["name"])}</h1>\n<p>{paragraph(s.rng)}</p>\n<p><a href="/news/index.html">All news</a></p>'
        s.add(n["path"], portal_page(m, n["name"], main, [("Home", "index.html"), ("News", "news/index.html")]))
        s.out(n["path"])
    for code, name, greeting in PORTAL_LANGS:
        p = f"{code}/index.html"
        main = (f"<h1>{greeting}</h1>\n<p>{name}: {sentence(s.rng)}</p>\n"
                f'<p><a href="/index.html">English</a></p>')
        s.add(p, portal_page(m, name, main, lang=code))
        s.out(p)


def build_portal_dl():
    s = Site("portal_dl", "municipal government portal",
             "City council portal: home tile grid (div.tile) of 6 sections -> topics listed in "
             "<dl> on section pages -> services listed as tiles on topic pages (content). "
             "Noise: quick links, most requested services, huge footer sitemap (<dl>) of all "
             "sections and topics on every page, related topics/services, A-Z, news, "
             "language switcher.", seed=5150)
    m = portal_model()
    portal_home(s, m)
    for sec in m["secs"]:
        portal_section(s, m, sec)
        for topic in sec["topics"]:
            portal_topic(s, m, topic)
    services = m["services"]
    for i, svc in enumerate(services):
        related = [x for x in svc["topic"]["services"] if x is not svc][:2] + [services[(i * 7 + 5) % len(services)]]
        portal_service(s, m, svc, [x for x in related if x is not svc])
    portal_noise(s, m)
    return s


# ================================================================== main

SITES = {  # name -> (builder, rule for the truth, as stated in README.md)
    "news_tables": (build_news_tables,
                    "home -> the 6 sections of the red section bar -> subsections listed "
                    "under 'In this section' -> the articles each (sub)section page lists. "
                    "Archive pages and the utility/footer pages are outside the tree."),
    "shop_megamenu": (build_shop_megamenu,
                      "home -> categories -> subcategories -> products (the designed shop "
                      "hierarchy, also shown in the mega-menu). page-2.html listings, facet/"
                      "sort URLs (?color=, ?sort=), search URLs and footer/utility pages are "
                      "outside the tree. Page 1 of a subcategory lists all its products (so "
                      "the parent links every child); page-2.html repeats a few of them."),
    "university": (build_university,
                   "home -> the 5 header sections -> departments / research centres / "
                   "admission guides / about and news pages -> programme, people, project "
                   "and guide pages. Two person pages have non-ASCII (percent-encoded) paths."),
    "blog": (build_blog,
             "home -> top-level categories of the category menu -> child categories -> "
             "posts (a post's parent is its one category). Links use /dir/ pretty URLs; "
             "tags, month archives, authors, /page/N/, about/contact/privacy/login are "
             "outside the tree."),
    "forum": (build_forum,
              "index -> forums (category rows are plain text, not nodes) -> subforums -> "
              "topics; a topic's parent is the forum it is posted in. Profiles, topic "
              "page 2+ (-startN), search, memberlist, FAQ, login are outside the tree."),
    "docs_sidebar": (build_docs_sidebar,
                     "home -> sections -> pages -> subpages, i.e. the toctree / sidebar "
                     "hierarchy. search, genindex and py-modindex are outside the tree."),
    "portal_dl": (build_portal_dl,
                  "home -> sections (home tiles) -> topics (section <dl>) -> services "
                  "(topic tiles). News, A-Z, language homes, contact/legal/sign-in pages "
                  "are outside the tree."),
}


def write_readme(stats):
    rows = []
    for name, (_, rule) in SITES.items():
        st = stats[name]
        with open(os.path.join(HERE, name + ".truth.json"), encoding="utf-8") as fh:
            desc = json.load(fh)["meta"]["description"]
        rows.append(f"### `{name}`\n\n{desc}\n\n- pages: {st['pages']} ({st['tree_nodes']} in "
                    f"the tree, {st['edges']} edges, depth {st['depth']}); not_in_tree: "
                    f"{st['not_in_tree']} URLs\n- truth: {rule}\n")
    text = f"""# Labelled test sites

Generated by `build.py` (standard library only, deterministic). Do not edit the
generated folders or `*.truth.json` by hand: change `build.py` and rerun

    python tests/sites/build.py          # rebuild all sites + README, run check()
    python tests/sites/build.py --check  # only verify the files on disk

Each site is served from its own folder (`python -m http.server 8000 -d
tests/sites/<name>`); all internal links are relative or root-relative.
`<name>.truth.json` has the format of the dev corpus: `root`, `edges`
(parent, child), `meta.not_in_tree` (pages that exist but are deliberately
outside the tree). URLs are `http://127.0.0.1:8000/` + percent-encoded path,
directories as `dir/index.html` (the blog links to `/dir/`: normalise before
comparing). Internal nodes are navigation pages, leaves are content pages.
External noise links point to `http://www.example.com/`, `mailto:`, `tel:`,
`javascript:` or `#fragments`.

`check(name)` verifies: the truth is a tree rooted at index.html, every node is
an existing file, every child is linked from its parent's HTML, every internal
href resolves to an existing file, every file is either a tree node or listed in
not_in_tree, and every file is reachable by links from index.html.

{chr(10).join(rows)}"""
    with open(os.path.join(HERE, "README.md"), "w", encoding="utf-8") as fh:
        fh.write(text)


def main(argv):
    only_check = "--check" in argv
    names = [a for a in argv if not a.startswith("--")] or list(SITES)
    unknown = [n for n in names if n not in SITES]
    if unknown:
        raise SystemExit(f"unknown site(s): {', '.join(unknown)}")
    if not only_check:
        for name in names:
            site = SITES[name][0]()
            if site.name != name:
                raise AssertionError(f"builder for {name} made {site.name}")
            site.write()
    stats = {}
    for name in SITES if set(names) == set(SITES) else names:
        stats[name] = check(name)
        print(f"{name:15} " + " ".join(f"{k}={v}" for k, v in stats[name].items()))
    if not only_check and set(names) == set(SITES):
        write_readme(stats)


if __name__ == "__main__":
    main(sys.argv[1:])
