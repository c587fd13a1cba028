"""A manual-like portal whose sidebar shows the whole site tree on every page, with the
branch of the current page expanded; section pages list their children or rely on it alone."""
from __future__ import annotations

from pathlib import Path

from farm.content import doc_tree

from .common import TRUTH
from .grammar import Site
from .tree import emit_tree, footer_pages, from_doc

SITES = {
    "portal-sidebar": "own portal grammar: a whole-tree sidebar on every page (current branch expanded); section "
                      "pages show only an intro, the sidebar is their listing",
    "portal-sidebar-2": "own portal grammar: a whole-tree sidebar on every page (current branch expanded) and "
                        "section pages that also list their children; deeper tree",
}


def build(name: str, out: Path) -> dict:
    s = Site(name)
    two = name.endswith("2")
    doc = doc_tree(name, sections=(5, 7), pages=(4, 7) if not two else (3, 5), depth=3 if not two else 4,
                   branch_share=0.35 if not two else 0.5, title=s.title)
    from_doc(s, doc, s.root, s.pick("scheme", ["nested", "pretty", "flat", "id"]))
    s.menu = [(n.title, n.path, []) for n in s.root.children]
    if s.once("topmenu", [True, False]) is False:
        s.menu = [(s.L("home"), "index.html", [])]
    s.side_left = True
    footer_pages(s, sitemap=s.once('has_sitemap', [True, False]))
    emit_tree(s, s.root, "none" if not two else s.pick("listing_mode", ["children", "cards"]), side="whole")
    return s.write(out, TRUTH)
