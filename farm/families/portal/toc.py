"""A portal whose section index pages list everything below them: a nested table of contents
two levels deep (sub-sections and their pages); the parent is the innermost listing section."""
from __future__ import annotations

from pathlib import Path

from farm.content import doc_tree

from .common import TRUTH
from .grammar import Site
from .tree import emit_tree, footer_pages, from_doc

SITES = {
    "portal-toc": "own portal grammar: section index pages with a nested two-level table of contents (sub-sections "
                  "and their pages); the home lists sections and sub-sections the same way; optional section sidebar",
}


def build(name: str, out: Path) -> dict:
    s = Site(name)
    doc = doc_tree(name, sections=(5, 6), pages=(3, 5), depth=4, branch_share=0.45, title=s.title)
    from_doc(s, doc, s.root, s.pick("scheme", ["nested", "pretty", "id"]))
    s.menu = [(n.title, n.path, [(k.title, k.path) for k in n.sections()]) for n in s.root.children]
    footer_pages(s, sitemap=s.once('has_sitemap', [True, False]))
    emit_tree(s, s.root, "toc2", side=s.pick("sidebar", [None, "section"]))
    return s.write(out, TRUTH)
