"""Exports of the skeleton tree (the nested tree of :func:`skeleton.tree.build_tree`):
GraphML (:mod:`.graphml`), sitemaps (:mod:`.sitemap`), a self-contained HTML
viewer (:mod:`.html`) and the diagram of the sections, as static SVG and in the viewer
(:mod:`.diagram`). The outline and the CSV are in :mod:`skeleton.tree`. Every
export writes a page's text through :mod:`.safe` (no formula in a CSV cell, no
character XML forbids, no control character in the outline)."""
