"""Nikola command plugin (read-only): ``nikola truthdump OUT.json``.

Scans the site as ``nikola build`` does and writes Nikola's own content model: every
published post with the category Nikola classified it in and its output path, the
category hierarchy (as the category taxonomy built it) with each category page's link,
the pages, and the NAVIGATION_LINKS menu. Nothing is written into the site.
"""
import json

from nikola.plugin_categories import Command


class CommandTruthdump(Command):
    name = "truthdump"
    doc_usage = "OUT.json"
    doc_purpose = "dump posts, categories and pages as JSON"
    needs_config = True
    cmd_options = []

    def _execute(self, options, args):
        site = self.site
        site.scan_posts()
        lang = site.config["DEFAULT_LANG"]
        out = {"posts": [], "pages": [], "categories": [], "navigation": []}
        for p in site.timeline:
            if not p.is_translation_available(lang) or p.is_draft or p.publish_later:
                continue
            rec = {"title": p.title(lang), "link": p.permalink(lang), "path": p.destination_path(lang),
                   "category": p.meta("category", lang) or "", "tags": p.tags_for_language(lang)}
            (out["posts"] if p.is_post else out["pages"]).append(rec)

        def walk(node, parent):
            out["categories"].append({"name": node.classification_name, "parent": parent,
                                      "link": site.link("category", node.classification_name, lang)})
            for c in node.children:
                walk(c, node.classification_name)

        for root in site.hierarchy_per_classification["category"][lang]:
            walk(root, None)
        tags = sorted({t for p in out["posts"] for t in p["tags"]})
        out["tag_links"] = [site.link("tag", t, lang) for t in tags]
        authors = sorted({p.author(lang) for p in site.timeline if p.is_post and p.author(lang)})
        out["author_links"] = ([site.link("author", a, lang) for a in authors]
                               if site.config.get("ENABLE_AUTHOR_PAGES") else [])
        nav = site.config["NAVIGATION_LINKS"]
        nav = nav(lang) if callable(nav) else nav.get(lang, ())
        out["navigation"] = [list(x) if isinstance(x[0], str) else [[list(y) for y in x[0]], x[1]] for x in nav]
        out["settings"] = {k: site.config.get(k) for k in (
            "CATEGORY_ALLOW_HIERARCHIES", "CATEGORY_OUTPUT_FLAT_HIERARCHY", "CATEGORY_PAGES_ARE_INDEXES",
            "INDEX_DISPLAY_POST_COUNT", "PRETTY_URLS", "THEME", "INDEX_PATH")}
        with open(args[0], "w") as f:
            json.dump(out, f, indent=1, default=str)
        return 0
