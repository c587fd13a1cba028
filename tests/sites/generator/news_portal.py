"""The news_portal test site (see ../build.py); served by ../server.py."""
from __future__ import annotations

import datetime

from common import (EXT, MONTHS, WEEKDAYS, esc, slug, pretty, fmt_date, sentence, paragraph, html5, Site)


# ============================================================ news_portal
# WordPress-like news portal with a merchandise shop and pretty /dir/ URLs,
# made to hold every case of "one page, one node": tracking parameters,
# ?share= buttons, related-post parameters, paginated section listings,
# AMP copies and ?p=ID shortlinks (rel=canonical), /dir vs /dir/ vs
# /dir/index.html, _redirects rules (old URLs), query pages that ARE
# distinct pages (/events/event.html?id=N, files event.html@id=N), shop
# action links (cart, wishlist, compare, report, login with ?return_to=),
# "customers also bought" ?ref= links, facet/sort URLs, tag/author/month
# archives and a German language copy with hreflang alternates.
# True tree: home -> 5 header sections -> subsections ("In this section")
# -> articles / products; /culture/ lists its articles directly and
# /events/ its 6 event pages.

NP_NAME = "The Harbour Herald"
NP_DESKS = [  # (section, section slug, [(desk, desk slug, article titles)])
    ("News", "news", [
        ("World", "world", [
            "UN Climate Talks Stall Over Funding for Poorer Nations",
            "Record Turnout Expected as Three Countries Vote on the Same Weekend",
            "Drought Pushes Grain Prices to a Five-Year High",
            "Ceasefire Holds for a Second Week as Aid Convoys Reach the Border",
            "European Rail Operators Agree on a Single Night-Train Ticket",
            "Scientists Map the Deepest Coral Reef Yet Found",
            "Central Banks Signal a Slower Path for Interest Rate Cuts",
            "Island Nation Opens the World's Largest Floating Solar Farm"]),
        ("Local", "local", [
            "Council Approves Plan to Reopen the Old Harbour Footbridge",
            "Night Bus Trial Extended After Strong Demand From Shift Workers",
            "Library Returns Amnesty Brings Back Books Missing Since 1987",
            "New Cycle Lanes on Market Street Divide Shop Owners",
            "Primary School Pupils Plant 500 Trees Along the River Path",
            "Flood Defences Tested as Storm Brings Highest Tide in a Decade",
            "Residents Vote to Keep the Friday Farmers' Market on the Quay",
            "Historic Cinema Saved by Community Share Offer"])]),
    ("Sport", "sport", [
        ("Football", "football", [
            "Late Header Sends Harbour Town Into the Cup Quarter-Finals",
            "Manager Praises Academy Graduates After Unbeaten Month",
            "Record Crowd Watches Women's Derby at the Riverside Ground",
            "Injury Blow as Captain Faces Six Weeks on the Sidelines",
            "Transfer Window: Three Signings and One Surprise Departure",
            "Penalty Shoot-Out Drama Ends League Cup Run",
            "Grassroots Clubs Receive Funding for New All-Weather Pitches",
            "Goalkeeper Keeps Fifth Clean Sheet in a Row"]),
        ("Tennis", "tennis", [
            "Local Teenager Wins First Professional Title on Clay",
            "Indoor Championships Move to a New Venue Next Winter",
            "Veteran Doubles Pair Announce Their Final Season",
            "How the New Shot Clock Is Changing the Rhythm of Matches",
            "Wheelchair Tennis Clinic Draws Players From Across the Region",
            "Rain Delays Push the Club Final Into a Third Day",
            "Former Champion Returns to Coach at the Harbour Lawn Club",
            "Qualifying Round Upsets Shake Up the Spring Open Draw"])]),
    ("Culture", "culture", [
        (None, None, [
            "Museum Reopens Maritime Gallery After Two-Year Restoration",
            "Review: A Bold New Staging of The Tempest at the Quay Theatre",
            "Jazz Festival Announces Its Biggest Line-Up Yet",
            "Local Author Shortlisted for National Debut Novel Prize",
            "Street Art Trail Turns Empty Shopfronts Into a Gallery",
            "Choir of 300 Voices to Perform in the Cathedral This Spring",
            "Film Society Celebrates 50 Years With a Season of Restored Classics",
            "Photography Exhibition Captures a Century of Harbour Life",
            "Interview: The Potter Who Rebuilt a Victorian Kiln",
            "Poetry Slam Returns to the Lighthouse Caf\u00e9"])]),
]
NP_EVENTS = [  # (title, date, venue)
    ("Harbour Herald Readers' Quiz Night", datetime.date(2024, 5, 3), "The Anchor Inn"),
    ("Jazz on the Quay: Opening Concert", datetime.date(2024, 5, 10), "Quay Bandstand"),
    ("Guided Walk: The Old Harbour at Dusk", datetime.date(2024, 5, 14), "Harbour Master's Steps"),
    ("Book Talk With the Debut Novel Shortlist", datetime.date(2024, 5, 18), "Central Library"),
    ("Family Science Day at the Maritime Museum", datetime.date(2024, 5, 25), "Maritime Museum"),
    ("Charity 10k Run Along the River Path", datetime.date(2024, 6, 2), "Riverside Park"),
]
NP_SHOP = [  # (category, slug, [(product, price, colours)])
    ("Mugs", "mugs", [
        ("Classic Mug", "12.00", "white"), ("Harbour Lighthouse Mug", "14.00", "blue"),
        ("Enamel Camping Mug", "16.50", "white"), ("Front Page 1924 Mug", "13.00", "white"),
        ("Crossword Mug", "12.50", "red")]),
    ("Shirts", "shirts", [
        ("Logo T-Shirt", "22.00", "blue"), ("Press Pass Sweatshirt", "39.00", "red"),
        ("Deadline Hoodie", "45.00", "blue"), ("Vintage Masthead T-Shirt", "24.00", "white"),
        ("Organic Cotton Polo Shirt", "32.00", "blue")]),
]
NP_TAGS = ["analysis", "budget", "climate", "elections", "family", "history", "interview",
           "opinion", "transport", "weekend"]
NP_AUTHORS = [("Clara Jensen", "clara-jensen"), ("Tom Okafor", "tom-okafor"),
              ("Priya Nair", "priya-nair")]
NP_GERMAN = {  # English title -> German title of the copies under /de/
    "UN Climate Talks Stall Over Funding for Poorer Nations":
        "UN-Klimagespr\u00e4che stocken beim Geld f\u00fcr \u00e4rmere L\u00e4nder",
    "Drought Pushes Grain Prices to a Five-Year High":
        "D\u00fcrre treibt Getreidepreise auf ein F\u00fcnfjahreshoch",
    "Council Approves Plan to Reopen the Old Harbour Footbridge":
        "Stadtrat billigt Wiederer\u00f6ffnung der alten Hafenbr\u00fccke",
}
NP_SHORTLINKS = 4     # articles that get a ?p=ID shortlink page
NP_PER_PAGE = 4       # articles on each page of a section listing
NP_WORDS_DE = """der die das und in den von zu mit sich auf f\u00fcr ist im dem nicht ein eine
als auch es an werden aus er hat dass sie nach wird bei einer um am sind noch wie einem \u00fcber
so zum war haben nur oder aber vor zur bis mehr durch man sein wurde sei Stadt Hafen Rat Jahr
Menschen Regierung Preise Wasser Schule Zukunft Plan Markt Woche heute gestern morgen neue
gro\u00dfe kleine wichtige alte""".split()
NP_CSS = ("body{font-family:Georgia,serif;margin:0}.site-header{border-bottom:3px solid #036}"
          ".main-menu ul{display:flex;gap:1em;list-style:none}.site-content{display:flex;max-width:"
          "1100px;margin:auto}.content-area{flex:3}.widget-area{flex:1;padding-left:2em}"
          ".teaser{border-bottom:1px solid #ddd}.pagination a{padding:0 .3em}.price{font-weight:bold}")


def np_model(rng):
    sections, desks, articles = [], [], []
    for name, sslug, subs in NP_DESKS:
        sec = {"name": name, "path": f"{sslug}/index.html", "href": f"/{sslug}/", "desks": []}
        sections.append(sec)
        for dname, dslug, titles in subs:
            if dname is None:  # the section files its articles itself
                desk = sec
            else:
                desk = {"name": dname, "path": f"{sslug}/{dslug}/index.html",
                        "href": f"/{sslug}/{dslug}/", "section": sec}
                sec["desks"].append(desk)
            desk["articles"] = []
            desks.append(desk)
            articles += [{"title": t, "desk": desk, "section": sec} for t in titles]
    rng.shuffle(articles)
    day = datetime.date(2024, 4, 26)
    for i, art in enumerate(articles):  # newest first
        day -= datetime.timedelta(days=rng.randint(1, 4) if i else 0)
        path = f"{day:%Y/%m}/{slug(art['title'])}/index.html"
        art.update(date=day, path=path, href=pretty(path), amp=path.replace("/index.html", "/amp/index.html"),
                   id=4100 + 7 * (len(articles) - i), author=NP_AUTHORS[i % len(NP_AUTHORS)],
                   excerpt=sentence(rng, 16, 24), tags=[NP_TAGS[i % len(NP_TAGS)]])
        art["tags"] += rng.sample([t for t in NP_TAGS if t not in art["tags"]], rng.randint(1, 2))
        art["desk"]["articles"].append(art)
    for art in articles[5::9][:NP_SHORTLINKS]:
        art["shortlink"] = f"index.html?p={art['id']}"
    for art in articles:
        if art["title"] in NP_GERMAN:
            de = NP_GERMAN[art["title"]]
            art["de"] = {"title": de, "path": f"de/{art['date']:%Y/%m}/{slug(de)}/index.html"}
    shop = {"name": "Shop", "path": "shop/index.html", "href": "/shop/", "desks": []}
    products, item = [], 501
    for cname, cslug, prods in NP_SHOP:
        cat = {"name": cname, "path": f"shop/{cslug}/index.html", "href": f"/shop/{cslug}/",
               "section": shop, "products": []}
        shop["desks"].append(cat)
        for pname, price, colour in prods:
            path = f"shop/{cslug}/{slug(pname)}/index.html"
            prod = {"name": pname, "price": price, "colour": colour, "path": path,
                    "href": pretty(path), "cat": cat, "item": item, "blurb": sentence(rng, 14, 20)}
            item += 1
            cat["products"].append(prod)
            products.append(prod)
    events = {"name": "Events", "path": "events/index.html", "href": "/events/", "desks": [],
              "events": [{"id": n, "title": t, "date": d, "venue": v,
                          "path": f"events/event.html?id={n}", "file": f"events/event.html@id={n}",
                          "href": f"/events/event.html?id={n}"}
                         for n, (t, d, v) in enumerate(NP_EVENTS, 1)]}
    menu = sections[:3] + [events, shop]
    months = sorted({a["date"].strftime("%Y/%m") for a in articles}, reverse=True)
    most_read = rng.sample(articles[3:], 5)
    trending = rng.sample([a for a in articles if a not in most_read], 5)
    for tag in NP_TAGS:  # views must mix sections, else they would look like sections
        assert len({a["section"]["name"] for a in articles if tag in a["tags"]}) >= 2, tag
    for _, nick in NP_AUTHORS:
        assert len({a["section"]["name"] for a in articles if a["author"][1] == nick}) >= 2, nick
    return {"menu": menu, "sections": sections, "desks": desks, "articles": articles,
            "shop": shop, "products": products, "events": events, "months": months,
            "most_read": most_read, "trending": trending}


# ------------------------------------------------------------------ chrome

def np_alternates(en, de):
    """hreflang alternates of an English page and its German copy (hrefs)."""
    return (f'<link rel="alternate" hreflang="en" href="{en}">\n'
            f'<link rel="alternate" hreflang="de" href="{de}">\n')


def np_header(m):
    items = "".join(f'<li class="menu-item"><a href="{x["href"]}">{esc(x["name"])}</a></li>'
                    for x in m["menu"])
    return f"""<header id="masthead" class="site-header">
<p class="site-title"><a href="/" rel="home">{NP_NAME}</a></p>
<p class="site-description">News from the harbour town since 1871</p>
<nav id="site-navigation" class="main-menu" aria-label="Main menu"><ul id="primary-menu" class="menu">
<li class="menu-item menu-item-home"><a href="/">Home</a></li>{items}</ul></nav>
</header>"""


def np_sidebar(m):
    counts = {t: sum(t in a["tags"] for a in m["articles"]) for t in NP_TAGS}
    cloud = " ".join(f'<a href="/tag/{t}/" class="tag-cloud-link" style="font-size: {8 + n * 0.8:.1f}pt;">{t}</a>'
                     for t, n in counts.items())
    months = "".join(f'<li><a href="/{mo}/">{MONTHS[int(mo[5:]) - 1]} {mo[:4]}</a></li>'
                     for mo in m["months"])
    most = "".join(f'<li><a href="{a["href"]}?ref=mostread">{esc(a["title"])}</a></li>'
                   for a in m["most_read"])
    return f"""<aside id="secondary" class="widget-area">
<section class="widget widget_search"><form role="search" method="get" action="/search/"><input type="search" name="s" placeholder="Search the Herald"><button type="submit">Search</button></form></section>
<section class="widget widget_most_read"><h2 class="widget-title">Most read</h2><ol>{most}</ol></section>
<section class="widget widget_tag_cloud"><h2 class="widget-title">Topics</h2><div class="tagcloud">{cloud}</div></section>
<section class="widget widget_archive"><h2 class="widget-title">Archives</h2><ul>{months}</ul></section>
</aside>"""


def np_footer(old=False):
    old_link = '<li><a href="/old-news/">News archive (before 2020)</a></li>' if old else ""
    return f"""<footer id="colophon" class="site-footer"><ul class="footer-links">
<li><a href="/about/">About us</a></li><li><a href="/contact/">Contact</a></li>
<li><a href="/account/login/">Login</a></li><li><a href="/de/" hreflang="de" lang="de">Deutsch</a></li>{old_link}</ul>
<p class="social"><a href="{EXT}/social/twitter/harbourherald">Twitter</a> <a href="{EXT}/social/facebook/harbourherald">Facebook</a>
<a href="mailto:newsdesk@example.com">newsdesk@example.com</a> <a href="tel:+441234567890">01234 567890</a></p>
<p class="copyright">&copy; 2024 {NP_NAME}. Proudly powered by <a href="{EXT}/wordpress-org/">WordPress</a>.</p>
</footer>"""


def np_page(m, title, main, head="", old=False, body_class="page"):
    body = f"""<body class="{body_class}">
<div id="page" class="site"><a class="skip-link screen-reader-text" href="#primary">Skip to content</a>
{np_header(m)}
<div id="content" class="site-content">
<main id="primary" class="content-area">
{main}
</main>
{np_sidebar(m)}
</div>
{np_footer(old)}
</div>
</body>"""
    return html5(f"{title} \u2013 {NP_NAME}", body, NP_CSS, head=head)


def np_crumbs(chain):
    """Breadcrumb: [(text, href or None)] joined by \u00bb."""
    parts = [f'<a href="{h}">{esc(t)}</a>' if h else f'<span class="current">{esc(t)}</span>'
             for t, h in [("Home", "/")] + chain]
    return f'<nav class="breadcrumbs" aria-label="Breadcrumb">{" &raquo; ".join(parts)}</nav>'


def np_desk_crumbs(desk):
    """Breadcrumb entries of a (sub)section, without Home."""
    up = desk.get("section")
    return ([(up["name"], up["href"])] if up else []) + [(desk["name"], desk["href"])]


def np_teaser(a, heading="h2"):
    desk = a["desk"]
    return f"""<article class="teaser post-{a["id"]}">
<{heading} class="entry-title"><a href="{a["href"]}" rel="bookmark">{esc(a["title"])}</a></{heading}>
<p class="entry-meta"><time datetime="{a["date"]:%Y-%m-%d}">{fmt_date(a["date"])}</time> &middot; <a href="{desk["href"]}">{esc(desk["name"])}</a></p>
<p class="excerpt">{esc(a["excerpt"])} <a class="more-link" href="{a["href"]}">Continue reading &rarr;</a></p>
</article>"""


def np_pager(n, pages, link):
    out = [f'<span aria-current="page" class="page-numbers current">{i}</span>' if i == n
           else f'<a class="page-numbers" href="{link(i)}">{i}</a>' for i in range(1, pages + 1)]
    if n > 1:
        out.insert(0, f'<a class="prev page-numbers" href="{link(n - 1)}">&laquo; Previous</a>')
    if n < pages:
        out.append(f'<a class="next page-numbers" href="{link(n + 1)}">Next &raquo;</a>')
    return f'<nav class="pagination" aria-label="Pages">{" ".join(out)}</nav>'


# ------------------------------------------------------------ tree pages

def np_home(s, m):
    teasers = "\n".join(np_teaser(a) for a in m["articles"][:8])
    most = []
    for i, a in enumerate(m["trending"]):
        q = "?ref=mostread" if i % 3 == 2 else "?utm_source=home&amp;utm_medium=mostread"
        most.append(f'<li><a href="{a["href"]}{q}">{esc(a["title"])}</a></li>')
    main = f"""<h1 class="screen-reader-text">{NP_NAME}: latest news</h1>
<section class="latest"><h2>Latest stories</h2>
{teasers}
<p><a href="/culture/index.html">More culture &raquo;</a></p>
</section>
<section class="most-read-today"><h2>Most read today</h2><ol>{"".join(most)}</ol></section>"""
    s.add("index.html", np_page(m, "Home", main, np_alternates("/", "/de/"), old=True, body_class="home"))
    for sec in m["menu"]:
        s.edge("index.html", sec["path"])


def np_section(s, m, sec, slashless=False):
    """A section with subsections: 'In this section' list and the latest stories."""
    subs = "".join(f'<li><a href="{d["href"].rstrip("/") if slashless else d["href"]}">{esc(d["name"])}</a></li>'
                   for d in sec["desks"])
    latest = sorted((a for d in sec["desks"] for a in d["articles"]), key=lambda a: a["date"],
                    reverse=True)[:3]
    main = f"""{np_crumbs([(sec["name"], None)])}
<header class="page-header"><h1 class="page-title">{esc(sec["name"])}</h1><p>{sentence(s.rng)}</p></header>
<section class="in-this-section"><h2>In this section</h2><ul>{subs}</ul></section>
<section class="latest"><h2>Latest in {esc(sec["name"])}</h2>
{chr(10).join(np_teaser(a, "h3") for a in latest)}
</section>"""
    de = "/de/nachrichten/" if sec["name"] == "News" else "/de/"
    s.add(sec["path"], np_page(m, sec["name"], main, np_alternates(sec["href"], de), old=True,
                               body_class="archive category"))
    for d in sec["desks"]:
        s.edge(sec["path"], d["path"])


def np_desk(s, m, desk):
    """A paginated article listing: /x/ (first NP_PER_PAGE), /x/page/2/, ..."""
    arts = desk["articles"]
    pages = -(-len(arts) // NP_PER_PAGE)

    def link(i):
        return desk["href"] if i == 1 else f'{desk["href"]}page/{i}/'
    intro = sentence(s.rng)
    for n in range(1, pages + 1):
        path = desk["path"] if n == 1 else desk["path"].replace("index.html", f"page/{n}/index.html")
        head = ""
        if n > 1:
            head += f'<link rel="prev" href="{link(n - 1)}">\n'
        if n < pages:
            head += f'<link rel="next" href="{link(n + 1)}">\n'
        if n == 1 and "section" not in desk:
            head += np_alternates(desk["href"], "/de/")
        chunk = arts[(n - 1) * NP_PER_PAGE: n * NP_PER_PAGE]
        title = desk["name"] + (f" \u2013 Page {n}" if n > 1 else "")
        main = f"""{np_crumbs(np_desk_crumbs(desk)[:-1] + [(desk["name"], None if n == 1 else desk["href"])])}
<header class="page-header"><h1 class="page-title">{esc(desk["name"])}</h1><p>{esc(intro)}</p></header>
{chr(10).join(np_teaser(a) for a in chunk)}
{np_pager(n, pages, link)}"""
        s.add(path, np_page(m, title, main, head, old=True, body_class="archive category"))
        if n > 1:
            s.out(path)
    for a in arts:
        s.edge(desk["path"], a["path"])


def np_article_main(s, m, a, prev, nxt, text):
    desk = a["desk"]
    name, nick = a["author"]
    cat_href = "/culture/index.html" if desk["name"] == "Culture" else desk["href"]
    tags = ", ".join(f'<a href="/tag/{t}/" rel="tag">{t}</a>' for t in a["tags"])
    share = " ".join(f'<a class="share share-{k}" href="?share={k}&amp;nb=1" rel="nofollow noopener" '
                     f'target="_blank">{label}</a>' for k, label in
                     [("twitter", "Share on X"), ("facebook", "Share on Facebook"), ("email", "Email")])
    related = [x for x in desk["articles"] if x is not a][:2]
    related += [x for x in m["articles"] if x["desk"] is not desk][a["id"] % 11: a["id"] % 11 + 1]
    rel_html = "".join(
        f'<li><a href="{x["href"]}?relatedposts_hit=1&amp;relatedposts_origin={a["id"]}&amp;'
        f'relatedposts_position={i}">{esc(x["title"])}</a></li>' for i, x in enumerate(related))
    nav = ""
    if prev:
        nav += f'<div class="nav-previous"><a href="{prev["href"]}" rel="prev">&laquo; {esc(prev["title"])}</a></div>'
    if nxt:
        nav += f'<div class="nav-next"><a href="{nxt["href"]}" rel="next">{esc(nxt["title"])} &raquo;</a></div>'
    extra = ""
    if "shortlink" in a:
        extra += f'<p class="shortlink">Short link: <a href="/?p={a["id"]}">/?p={a["id"]}</a></p>'
    if "de" in a:
        extra += f'<p class="translation"><a href="{pretty(a["de"]["path"])}" hreflang="de" lang="de">Diesen Artikel auf Deutsch lesen</a></p>'
    return f"""{np_crumbs(np_desk_crumbs(desk) + [(a["title"], None)])}
<article class="post post-{a["id"]} type-post hentry">
<header class="entry-header"><h1 class="entry-title">{esc(a["title"])}</h1>
<div class="entry-meta"><time class="entry-date published" datetime="{a["date"]:%Y-%m-%d}">{fmt_date(a["date"])}</time>
by <span class="author vcard"><a class="url fn n" href="/author/{nick}/" rel="author">{name}</a></span>
&middot; Posted in <a rel="category tag" href="{cat_href}">{esc(desk["name"])}</a></div></header>
<div class="entry-content">
{text}
</div>
<footer class="entry-footer"><span class="tags-links">Tagged {tags}</span>
<div class="sharedaddy"><h3>Share this:</h3>{share}</div>
<p class="amp-link"><a href="{pretty(a["amp"])}">AMP version</a></p>{extra}</footer>
</article>
<div id="jp-relatedposts" class="jp-relatedposts"><h3 class="jp-relatedposts-headline">Related</h3><ul>{rel_html}</ul></div>
<nav class="navigation post-navigation" aria-label="Posts"><div class="nav-links">{nav}</div></nav>"""


def np_article(s, m, a, prev, nxt):
    rng = s.rng
    text = "\n".join(f"<p>{paragraph(rng)}</p>" for _ in range(rng.randint(3, 5)))
    head = (f'<link rel="canonical" href="{a["href"]}">\n'
            f'<link rel="amphtml" href="{pretty(a["amp"])}">\n')
    if "shortlink" in a:
        head += f'<link rel="shortlink" href="/?p={a["id"]}">\n'
    if "de" in a:
        head += np_alternates(a["href"], pretty(a["de"]["path"]))
    page = np_page(m, a["title"], np_article_main(s, m, a, prev, nxt, text), head,
                   body_class=f"single single-post postid-{a['id']}")
    s.add(a["path"], page)
    if "shortlink" in a:  # /?p=ID: the same article, canonical to its permalink
        s.add(a["shortlink"].replace("?", "@"), page)
        s.out(a["shortlink"])
    name = a["author"][0]
    amp = f"""<body class="amp">
<header class="amp-header"><a href="/">{NP_NAME}</a></header>
<article class="amp-article"><h1>{esc(a["title"])}</h1>
<p class="amp-meta">{fmt_date(a["date"])} &middot; {name} &middot; {esc(a["desk"]["name"])}</p>
{text}
</article>
<footer class="amp-footer"><a href="{a["href"]}">View the full version</a> &middot; &copy; 2024 {NP_NAME}</footer>
</body>"""
    s.add(a["amp"], html5(a["title"], amp, "body{max-width:600px;margin:auto}",
                          head=f'<link rel="canonical" href="{a["href"]}">\n'))
    s.out(a["amp"])
    return text


def np_events(s, m):
    ev = m["events"]
    rows = "".join(f"""<li class="event"><h2><a href="{e["href"]}">{esc(e["title"])}</a></h2>
<p><time datetime="{e["date"]:%Y-%m-%d}">{WEEKDAYS[e["date"].weekday()]} {fmt_date(e["date"])}</time> &middot; {esc(e["venue"])}</p></li>
""" for e in ev["events"])
    main = f"""{np_crumbs([("Events", None)])}
<header class="page-header"><h1 class="page-title">What's on</h1><p>{sentence(s.rng)}</p>
<p class="filters">Show: <a href="/events/">All</a> &middot; <a href="/events/?when=this-week">This week</a> &middot; <a href="/events/?when=weekend">This weekend</a></p></header>
<ul class="event-list">
{rows}</ul>"""
    s.add(ev["path"], np_page(m, "Events", main, np_alternates("/events/", "/de/"), old=True,
                              body_class="archive events"))
    for i, e in enumerate(ev["events"]):
        others = [x for x in ev["events"] if x is not e][i % 4: i % 4 + 2]
        other = "".join(f'<li><a href="{x["href"]}">{esc(x["title"])}</a></li>' for x in others)
        text = "\n".join(f"<p>{paragraph(s.rng)}</p>" for _ in range(2))
        main = f"""{np_crumbs([("Events", "/events/"), (e["title"], None)])}
<article class="event event-{e["id"]}"><h1>{esc(e["title"])}</h1>
<p class="when"><time datetime="{e["date"]:%Y-%m-%d}">{WEEKDAYS[e["date"].weekday()]} {fmt_date(e["date"])}</time>, 19:30</p>
<p class="where">Venue: {esc(e["venue"])}</p>
{text}
<p class="tickets">Tickets: <a href="{EXT}/tickets/harbour-herald-{e["id"]}">book online</a></p>
</article>
<section class="other-events"><h2>Also coming up</h2><ul>{other}</ul></section>
<p><a href="/events/">&laquo; All events</a></p>"""
        s.add(e["file"], np_page(m, e["title"], main, f'<link rel="canonical" href="{e["href"]}">\n',
                                 body_class="single event"))
        s.edge(ev["path"], e["path"])


def np_shop(s, m):
    shop = m["shop"]
    best = [m["products"][i] for i in (0, 6, 2)]
    cats = "".join(f'<li><a href="{c["href"]}">{esc(c["name"])}</a></li>' for c in shop["desks"])
    main = f"""{np_crumbs([("Shop", None)])}
<header class="page-header"><h1 class="page-title">The Herald Shop</h1><p>{sentence(s.rng)}</p></header>
<section class="in-this-section"><h2>In this section</h2><ul>{cats}</ul></section>
<section class="bestsellers"><h2>Bestsellers</h2><ul>{"".join(np_card(p) for p in best)}</ul></section>"""
    s.add(shop["path"], np_page(m, "Shop", main, np_alternates("/shop/", "/de/"), old=True,
                                body_class="woocommerce shop"))
    for c in shop["desks"]:
        s.edge(shop["path"], c["path"])
        facets = " ".join(f'<a href="{c["href"]}?{q}" rel="nofollow">{t}</a>' for q, t in
                          [("sort=price", "Price"), ("sort=newest", "Newest"), ("color=blue", "Blue"),
                           ("color=red", "Red"), ("color=white", "White")])
        main = f"""{np_crumbs([("Shop", "/shop/"), (c["name"], None)])}
<header class="page-header"><h1 class="page-title">{esc(c["name"])}</h1></header>
<div class="facets">Sort and filter: {facets}</div>
<ul class="products">{"".join(np_card(p) for p in c["products"])}</ul>"""
        s.add(c["path"], np_page(m, c["name"], main, old=True, body_class="woocommerce product-category"))
        for p in c["products"]:
            s.edge(c["path"], p["path"])
    for i, p in enumerate(m["products"]):
        np_product(s, m, p, i)


def np_card(p):
    return (f'<li class="product"><a href="{p["href"]}" class="product-link"><h3>{esc(p["name"])}</h3>'
            f'<span class="price">&pound;{p["price"]}</span></a></li>')


def np_product(s, m, p, i):
    n = p["item"]
    others = [x for x in m["products"] if x is not p]
    also = others[i % 3:: 3][:3]
    also_html = "".join(f'<li><a href="{x["href"]}?ref=sr_1_{k + 1}&amp;pf_rd_r=XY12">{esc(x["name"])}</a> '
                        f'&pound;{x["price"]}</li>' for k, x in enumerate(also))
    main = f"""{np_crumbs([("Shop", "/shop/"), (p["cat"]["name"], p["cat"]["href"]), (p["name"], None)])}
<div class="product type-product product-{n}"><h1 class="product_title">{esc(p["name"])}</h1>
<p class="price">&pound;{p["price"]}</p><p class="colour">Colour: {p["colour"]}</p>
<div class="description"><p>{esc(p["blurb"])}</p><p>{paragraph(s.rng, 2, 3)}</p></div>
<p class="actions"><a rel="nofollow" class="button add-to-cart" href="/cart/add/?item={n}">Add to cart</a>
<a rel="nofollow" class="wishlist" href="/wishlist/add/?item={n}">Add to wishlist</a>
<a rel="nofollow" class="compare" href="/compare/?items={n}">Compare</a></p>
<p class="review"><a rel="nofollow" href="/account/login/?return_to={p["href"]}">Sign in to review</a> &middot;
<a rel="nofollow" href="/report/?item={n}">Report this item</a></p></div>
<section class="also-bought"><h2>Customers also bought</h2><ul>{also_html}</ul></section>"""
    s.add(p["path"], np_page(m, p["name"], main, f'<link rel="canonical" href="{p["href"]}">\n',
                             body_class="woocommerce single-product"))


# ---------------------------------------------------------- outside pages

NP_FORMS = [  # (path, title, form fields)
    ("cart/add/index.html", "Add to cart",
     '<input type="hidden" name="item" value=""><label>Quantity <input type="number" name="qty" value="1"></label>'
     '<button type="submit">Add to cart</button>'),
    ("wishlist/add/index.html", "Add to wishlist",
     '<input type="hidden" name="item" value=""><label>List <select name="list"><option>My wishlist</option></select>'
     '</label><button type="submit">Save</button>'),
    ("compare/index.html", "Compare",
     '<input type="hidden" name="items" value=""><button type="submit">Compare</button>'),
    ("report/index.html", "Report this item",
     '<input type="hidden" name="item" value=""><label>Reason <textarea name="reason"></textarea></label>'
     '<button type="submit">Send report</button>'),
    ("account/login/index.html", "Log in",
     '<input type="hidden" name="return_to" value=""><label>Email <input type="email" name="email"></label>'
     '<label>Password <input type="password" name="password"></label><button type="submit">Log in</button>'),
]


def np_outside(s, m):
    def listing(path, kind, name, arts):
        main = (f'<header class="page-header"><h1 class="page-title">{kind}: <span>{esc(name)}</span></h1>'
                f'</header>\n' + "\n".join(np_teaser(a) for a in arts))
        s.add(path, np_page(m, f"{kind}: {name}", main, body_class="archive"))
        s.out(path)
    for t in NP_TAGS:
        listing(f"tag/{t}/index.html", "Tag", t, [a for a in m["articles"] if t in a["tags"]])
    for name, nick in NP_AUTHORS:
        listing(f"author/{nick}/index.html", "Author", name,
                [a for a in m["articles"] if a["author"][1] == nick])
    for mo in m["months"]:
        listing(f"{mo}/index.html", "Month", f"{MONTHS[int(mo[5:]) - 1]} {mo[:4]}",
                [a for a in m["articles"] if a["date"].strftime("%Y/%m") == mo])
    for path, title, fields in NP_FORMS:
        action = "/" + path[: -len("index.html")]
        main = (f'<h1>{title}</h1><form class="form" method="post" action="{action}">{fields}</form>')
        s.add(path, np_page(m, title, main, '<meta name="robots" content="noindex">\n',
                            body_class="form-page"))
        s.out(path)
    for path, title in [("about/index.html", "About us"), ("contact/index.html", "Contact")]:
        main = (f'<article class="page"><h1>{title}</h1><p>{paragraph(s.rng)}</p>'
                f'<p><a href="mailto:newsdesk@example.com">newsdesk@example.com</a></p></article>')
        s.add(path, np_page(m, title, main))
        s.out(path)
    s.add("_redirects", "# old URLs and URL variants (Netlify format, see tests/sites/server.py)\n"
                        "/old-news/ /news/ 301\n/culture/index.html /culture/ 301\n")


def np_german(s, m):
    """The German copy: /de/, /de/nachrichten/ and three articles (not nodes)."""
    rng = s.rng

    def satz():
        words = " ".join(rng.choice(NP_WORDS_DE) for _ in range(rng.randint(8, 14)))
        return words[0].upper() + words[1:] + "."

    def page(title, main, en, de):
        body = f"""<body class="lang-de">
<header class="site-header"><p class="site-title"><a href="/de/" rel="home">{NP_NAME}</a></p>
<nav class="main-menu" aria-label="Hauptmen\u00fc"><ul><li><a href="/de/">Startseite</a></li><li><a href="/de/nachrichten/">Nachrichten</a></li></ul></nav>
<p class="language"><a href="{en}" hreflang="en" lang="en">English</a></p></header>
<main class="content-area">
{main}
</main>
<footer class="site-footer"><p><a href="{en}" hreflang="en" lang="en">English</a> &middot; &copy; 2024 {NP_NAME}</p></footer>
</body>"""
        return html5(f"{title} \u2013 {NP_NAME}", body, NP_CSS, lang="de", head=np_alternates(en, de))
    arts = [a for a in m["articles"] if "de" in a]

    def teasers():
        return "\n".join(f'<article class="teaser"><h2><a href="{pretty(a["de"]["path"])}">{esc(a["de"]["title"])}'
                         f'</a></h2><p>{satz()}</p></article>' for a in arts)
    s.add("de/index.html", page("Startseite", f"<h1>Aktuelle Nachrichten</h1>\n{teasers()}", "/", "/de/"))
    s.add("de/nachrichten/index.html", page("Nachrichten", f"<h1>Nachrichten</h1>\n{teasers()}",
                                            "/news/", "/de/nachrichten/"))
    s.out("de/index.html")
    s.out("de/nachrichten/index.html")
    for a in arts:
        de = a["de"]
        text = "\n".join(f"<p>{' '.join(satz() for _ in range(4))}</p>" for _ in range(3))
        main = (f'<nav class="breadcrumbs"><a href="/de/">Startseite</a> &raquo; <a href="/de/nachrichten/">'
                f'Nachrichten</a></nav>\n<article><h1>{esc(de["title"])}</h1>\n<p class="meta">'
                f'{a["date"]:%d.%m.%Y} &middot; {a["author"][0]}</p>\n{text}\n</article>')
        s.add(de["path"], page(de["title"], main, a["href"], pretty(de["path"])))
        s.out(de["path"])


def build_news_portal():
    s = Site("news_portal", "news portal (WordPress-like) with a shop",
             "WordPress-style news portal with a merchandise shop, pretty /dir/ URLs, served by "
             "server.py (_redirects rules, PATH@QUERY pages). Home -> 5 header sections (News, "
             "Sport, Culture, Events, Shop) -> subsections ('In this section') -> articles under "
             "/2024/MM/slug/ and products; /culture/ lists its articles itself, /events/ lists 6 "
             "distinct query pages event.html?id=N. Made to hold every 'one page, one node' case: "
             "tracking (?utm_, ?ref=), ?share= and related-post parameters, paginated listings "
             "(page/N/, rel=next), AMP copies and ?p=ID shortlinks (rel=canonical), /dir vs /dir/ "
             "vs /dir/index.html and _redirects rules, cart/wishlist/compare/report/login links, "
             "'customers also bought', facet/sort URLs, tag/author/month archives, a German copy "
             "under /de/ with hreflang alternates.", seed=2024)
    m = np_model(s.rng)
    np_home(s, m)
    for sec in m["sections"]:
        if sec["desks"]:
            np_section(s, m, sec, slashless=sec["name"] == "Sport")
    for desk in m["desks"]:
        np_desk(s, m, desk)
    arts = m["articles"]
    for i, a in enumerate(arts):
        np_article(s, m, a, arts[i + 1] if i + 1 < len(arts) else None, arts[i - 1] if i else None)
    np_events(s, m)
    np_shop(s, m)
    np_outside(s, m)
    np_german(s, m)
    return s
