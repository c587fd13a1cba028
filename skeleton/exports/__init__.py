"""Exports of the skeleton tree (the nested tree of :func:`skeleton.tree.build_tree`):
GraphML (:mod:`.graphml`), sitemaps (:mod:`.sitemap`) and a self-contained HTML
viewer (:mod:`.html`). The outline and the CSV are in :mod:`skeleton.tree`."""
