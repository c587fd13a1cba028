"""The news_tables test site (see ../build.py)."""
from __future__ import annotations

import datetime

from common import (EXT, MONTHS, WEEKDAYS, esc, slug, rel, sentence, paragraph, Site)


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
