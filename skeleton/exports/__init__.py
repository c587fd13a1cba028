"""Every export of the project, and where it goes.

The skeleton tree (the nested tree of :func:`skeleton.tree.build_tree`) as an
outline (:mod:`.outline`), a table and its CSV (:mod:`.table`), GraphML
(:mod:`.graphml`), sitemaps (:mod:`.sitemap`), a self-contained HTML viewer
(:mod:`.html`) and the diagram of the sections, as static SVG and in the viewer
(:mod:`.diagram`); the site's logical schema as GraphML and JSON (:mod:`.schema`);
a crawl's feed files (:mod:`.feed`: the CSV item exporter, the tree's parents
filled in). :mod:`.formats` names each command's formats, chooses one (``--format``,
else the output file's suffix) and renders the tree and the skeleton diff in it;
:mod:`.output` writes to a file (atomically, :mod:`skeleton.files`) or to standard
output. Every export writes a page's text through :mod:`.safe` (no formula in a CSV
cell, no character XML forbids, no control character in the outline)."""
