"""A documentation portal with a curated front page: the home page links topic pages deep in
the tree directly (cross links), beside a "News" listing and a "Chronology" listing; the
topic pages hang from their sections (menu), news items from News, entries from Chronology."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

from farm.content import doc_tree

from .common import TRUTH, dated, headline, items, story_page
from .grammar import Node, Site, esc, slug
from .tree import emit_tree, footer_pages, from_doc, sidebar

SITES = {
    "portal-curated": "own portal grammar: a docs portal whose home page links chosen topic pages directly (cross links) "
                      "beside News and Chronology listings; sections in the menu file the topic pages",
}


def build(name: str, out: Path) -> dict:
    s = Site(name)
    rng = s.t.rng
    doc = doc_tree(name, sections=(4, 6), pages=(3, 6), depth=3, branch_share=0.4, title=s.title)
    root = s.root
    from_doc(s, doc, root, s.pick("scheme", ["nested", "pretty", "id"]))
    news_dir = s.pick("news_dir", ["news", "updates", "aktuell", "blog"])
    news = root.add(Node(s.L("news"), f"{news_dir}/index.html", "section"))
    for d in dated(s, rng.randint(14, 24), dt.datetime(2023, 5, 1, 9), 4, 15):
        h = headline(s)
        news.add(Node(h, s.uniq(f"{news_dir}/{d:%Y-%m-%d}-{slug(h)[:40].strip('-')}.html"), "page",
                      summary=s.t.sentence(), body=s.t.paragraphs(), date=d))
    chron = root.add(Node(s.L("chronology"), s.once("chron_path", ["chronology/index.html", "timeline.html", "history/index.html"]),
                          "section"))
    cdir = chron.path.rsplit("/", 1)[0] if chron.path.endswith("index.html") else "timeline"
    for d in sorted(dated(s, rng.randint(12, 20), dt.datetime(1990, 1, 1), 200, 600)):
        t = f"{d.year}: {s.t.title(2, 4)}"
        chron.add(Node(t, s.uniq(f"{cdir}/{d.year}-{slug(t[6:])}.html"), "page", summary=s.t.sentence(),
                       body=s.t.paragraphs(1, 2), date=d))
    topics = [n for n in root.children if n not in (news, chron)]
    s.menu = [(n.title, n.path, [(k.title, k.path) for k in n.sections()]) for n in topics] + \
        [(news.title, news.path, []), (chron.title, chron.path, [])]
    footer_pages(s, ("imprint", "privacy"), sitemap=s.once("has_sitemap", [True, False]))
    deep = [n for n in root.walk() if n.kind == "page" and n.parent in topics or (n.parent and n.parent.parent in topics
                                                                                 and n.kind == "page")]
    pick = rng.sample(deep, min(len(deep), rng.randint(6, 10)))
    c = s.c
    home = (f'<div{c("list")}>' + "".join(f'<div{c("item")}><h3>{s.a("index.html", n.path, n.title)}</h3><p>{esc(n.summary)}</p></div>'
                                          for n in pick) + "</div>"
            + f'<div{c("box")}><h2>{esc(news.title)}</h2>' + s.list_html("index.html", items(news.children[:5], summary=False))
            + f'<p>{s.a("index.html", news.path, s.L("more"))}</p></div>'
            + f'<div{c("box")}><h2>{esc(chron.title)}</h2><ul>' + "".join(
                f'<li>{s.a("index.html", n.path, n.title)}</li>' for n in chron.children[-5:]) + "</ul>"
            + f'<p>{s.a("index.html", chron.path, s.L("more"))}</p></div>')
    if s.once("home_lists_sections", [True, False]):
        home += "<ul>" + "".join(f"<li>{s.a('index.html', t.path, t.title)}</li>" for t in topics) + "</ul>"
    side = s.pick("sidebar", [None, "section"])
    emit_tree(s, root, s.pick("listing_mode", ["children", "cards", "toc2"]), side=side,
              skip={news.path, chron.path} | {n.path for n in news.children + chron.children}, home_body=home)
    s.paginate(news.path, news.title, items(news.children), 8, news)
    for n in news.children:
        s.emit(n.path, n.title, story_page(s, n), n)
    body = ""
    for y in sorted({n.date.year for n in chron.children}):
        body += f"<h2>{y}</h2><ul>" + "".join(f"<li>{s.a(chron.path, n.path, n.title)}</li>"
                                             for n in chron.children if n.date.year == y) + "</ul>"
    s.emit(chron.path, chron.title, body, chron)
    for n in chron.children:
        s.emit(n.path, n.title, s.paras(n.body), n)
    return s.write(out, TRUTH)
