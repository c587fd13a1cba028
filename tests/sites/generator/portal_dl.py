"""The portal_dl test site (see ../build.py)."""
from __future__ import annotations

from common import (EXT, esc, slug, root, sentence, paragraph, html5, Site)


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
