"""The university test site (see ../build.py)."""
from __future__ import annotations

import datetime
import re

from common import (EXT, esc, slug, rel, root, fmt_date, sentence, paragraph, html5, Site)


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
