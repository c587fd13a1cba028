"""A multilingual site: the same tree in several languages (/en/ and /de/ ..., or the base
language at the root and copies under /de/); hreflang alternates and a language switch link
the copies. Only the base language is in the tree; the copies are not nodes."""
from __future__ import annotations

from pathlib import Path

from farm.content import doc_tree

from .common import TRUTH
from .grammar import Node, Site, esc
from .tree import footer_pages, from_doc, listing

SITES = {
    "portal-multilingual": "own portal grammar: one tree in two or three languages (language prefixes or base at the root), "
                           "hreflang alternates and a language switch; only the base language's pages are nodes",
}


def build(name: str, out: Path) -> dict:
    s = Site(name, lang="en")
    rng = s.t.rng
    others = rng.sample(["de", "fr", "es", "nl"], rng.randint(1, 2))
    prefixed = s.pick("lang_layout", ["prefixed", "root-base"]) == "prefixed"
    base = "en/" if prefixed else ""
    s.lang_links = {"en": base, **{l: f"{l}/" for l in others}}
    doc = doc_tree(name, sections=(5, 6), pages=(4, 7), depth=3, branch_share=0.4, title=s.title)
    root = s.root
    root.path = f"{base}index.html"
    from_doc(s, doc, root, s.pick("scheme", ["nested", "pretty"]), base=base)
    # a simple rename pass so that every copy lives under its language prefix
    nodes = list(root.walk())
    s._alts = {}
    for n in nodes:
        rel = n.path[len(base):]
        alts = {"en": n.path, **{l: f"{l}/{rel}" for l in others}}
        n.data["alts"] = alts
        for p in alts.values():
            s._alts[p] = alts
    s.menus = {}
    s.menus["en"] = [(n.title, n.path, []) for n in root.children]
    for l in others:
        s.menus[l] = [(n.title, n.data["alts"][l], []) for n in root.children]
    footer_pages(s, ("imprint", "privacy"), sitemap=False, prefix=base)
    mode = s.pick("listing_mode", ["children", "cards"])
    for n in nodes:
        body = listing(s, n, mode) if n.children else s.paras(n.body)
        s.emit(n.path, n.title, body, n)
        for l in others:
            p = n.data["alts"][l]
            crumbs = [(a.title if a is not root else s.L("home", l), a.data["alts"][l]) for a in n.ancestors()]
            if n.children:
                lst = s.list_html(p, [{"to": k.data["alts"][l], "title": k.title, "summary": k.summary} for k in n.children],
                                  "articles" if mode == "cards" else None)
            else:
                lst = s.paras(n.body)
            s.emit(p, n.title, lst, None, crumbs, lang=l)
    if prefixed:
        # the site root: a language chooser (not a node)
        s.emit("index.html", s.title, "<ul>" + "".join(f'<li>{s.a("index.html", pre + "index.html", l.upper())}</li>'
                                                       for l, pre in s.lang_links.items()) + "</ul>")
    return s.write(out, TRUTH)
