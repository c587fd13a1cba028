"""Pelican plugin (read-only): dump Pelican's own content model for the farm's truth.

After all generators have run, writes TRUTHDUMP_PATH (JSON): the published
default-language articles with their category, the categories in the order Pelican
gives them to templates (``categories``, which the menus iterate), the pages and
hidden pages, and the menu settings. Nothing is changed in the site.
"""
import json

from pelican import signals
from pelican.generators import ArticlesGenerator, PagesGenerator


def _keys(coll):
    """Taxonomy objects of a generator's tags/authors (a dict or a list of pairs)."""
    return list(coll) if isinstance(coll, dict) else [t for t, _ in coll]


def _dump(generators):
    out = {"articles": [], "categories": [], "pages": [], "hidden_pages": [], "settings": {}}
    for g in generators:
        if isinstance(g, ArticlesGenerator):
            s = g.settings
            out["settings"] = {k: s.get(k) for k in (
                "DISPLAY_PAGES_ON_MENU", "DISPLAY_CATEGORIES_ON_MENU", "MENUITEMS", "THEME",
                "DEFAULT_PAGINATION", "INDEX_SAVE_AS")}
            for cat, arts in g.categories:
                out["categories"].append({"name": str(cat), "slug": cat.slug, "url": cat.url,
                                          "save_as": cat.save_as, "articles": len(arts)})
            for a in g.articles:  # published, default language, newest first
                out["articles"].append({"title": a.title, "slug": a.slug, "url": a.url,
                                        "save_as": a.save_as, "category": a.category.slug,
                                        "category_save_as": a.category.save_as,
                                        "tags": [t.slug for t in getattr(a, "tags", [])],
                                        "author": a.author.slug if getattr(a, "author", None) else None})
            out["tags"] = [{"slug": t.slug, "save_as": t.save_as} for t in _keys(g.tags)]
            out["authors"] = [{"slug": t.slug, "save_as": t.save_as} for t in _keys(g.authors)]
        elif isinstance(g, PagesGenerator):
            out["pages"] = [{"title": p.title, "slug": p.slug, "url": p.url, "save_as": p.save_as}
                            for p in g.pages]
            out["hidden_pages"] = [{"title": p.title, "slug": p.slug, "url": p.url,
                                    "save_as": p.save_as} for p in g.hidden_pages]
    path = generators[0].settings.get("TRUTHDUMP_PATH")
    if path:
        with open(path, "w") as f:
            json.dump(out, f, indent=1)


def register():
    signals.all_generators_finalized.connect(_dump)
