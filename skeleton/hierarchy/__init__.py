"""The site's own hierarchy: evidence about a page's parent, edge scores and the tree."""
