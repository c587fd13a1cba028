"""Pelican blogs: the bundled themes ``simple`` and ``notmyidea`` and the PyPI theme ``reflex``.

The synthetic blog (``farm.content.blog``) is written as Markdown articles and pages; the
site is built by ``pelican`` with a read-only plugin (``pelican/truthdump.py``) that dumps
Pelican's own content model after generation: every published article with the category
Pelican filed it in, the categories in the order the menu iterates them, the pages, and the
menu settings. The truth is built from that dump and from the theme's menu template
(which of categories / pages it shows), never from the HTML.
"""
from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

from farm.check import url_of
from farm.content import blog

FAMILY = "pelican"
KIND = "blog"
GENERATOR = "Pelican 4.12.0"
HERE = Path(__file__).resolve().parent / "pelican"

# Pagination as folders (page/N/) so that a listing's further pages sit below it.
PAGER_DIRS = ((1, "{url}", "{save_as}"),
              (2, "{base_name}/page/{number}/", "{base_name}/page/{number}/index.html"))
PAGER_FILES = ((1, "{url}", "{save_as}"),
               (2, "{base_name}/page{number}.html", "{base_name}/page{number}.html"))

SITES = {
    "pelican-simple": "Pelican 4.12.0 with its bundled theme simple: a 60-post blog in 6 categories; "
                      "the top menu lists 3 standalone pages and the categories (category/<slug>/, "
                      "10 per page, page/N/); posts under posts/YYYY/MM/<slug>/; tag, author and "
                      "archive pages; root-relative links",
    "pelican-notmyidea-nested": "Pelican 4.12.0 with its bundled theme notmyidea: a 95-post blog whose "
                                "4 categories have 5 sub-categories written as path categories "
                                "(\"Parent / Child\", Pelican's categories are flat, so each is its own "
                                "category page in the menu); 5 posts per page (page<N>.html); 2 pages "
                                "in the menu; 4 authors; relative links",
    "pelican-reflex": "Pelican 4.12.0 with the PyPI theme pelican-theme-reflex 4.0.1 (a Flex fork): "
                      "a 45-post blog whose menu shows NO categories: Home (the paginated blog "
                      "index, 6 per page, page/N/), Archives and Tags indexes in the top menu and 2 "
                      "standalone pages in the sidebar; category pages are reachable only from the "
                      "posts' 'in <category>' links (and the unlinked categories.html)",
    "pelican-engineering": "Pelican 4.12.0 with the PyPI theme pelican-engineering-theme 0.1.0: an "
                           "80-post blog in 7 categories; the theme's menu is MENUITEMS only, configured "
                           "as the site's sections: the 7 category pages (topics/<slug>.html), 3 pages and "
                           "Archives; Pelican's default pagination (topics/<slug>2.html, rel=next), 8 per "
                           "page; articles under articles/YYYY/<slug>.html; relative links",
}

CONFIG = {
    "pelican-simple": dict(
        content=dict(posts=60, categories=6, subcategories=0, tags=15, authors=2, pages=3),
        theme="simple", menu_categories=True, menu_pages=True,
        settings=dict(
            DEFAULT_PAGINATION=10, PAGINATION_PATTERNS=PAGER_DIRS, RELATIVE_URLS=False,
            ARTICLE_URL="posts/{date:%Y}/{date:%m}/{slug}/",
            ARTICLE_SAVE_AS="posts/{date:%Y}/{date:%m}/{slug}/index.html",
            CATEGORY_URL="category/{slug}/", CATEGORY_SAVE_AS="category/{slug}/index.html",
            TAG_URL="tag/{slug}/", TAG_SAVE_AS="tag/{slug}/index.html",
            AUTHOR_URL="author/{slug}/", AUTHOR_SAVE_AS="author/{slug}/index.html",
            PAGE_URL="{slug}/", PAGE_SAVE_AS="{slug}/index.html",
            MENUITEMS=[("Archives", "/archives.html")],
        )),
    "pelican-notmyidea-nested": dict(
        content=dict(posts=95, categories=4, subcategories=5, tags=10, authors=4, pages=2),
        theme="notmyidea", menu_categories=True, menu_pages=True,
        settings=dict(
            DEFAULT_PAGINATION=5, PAGINATION_PATTERNS=PAGER_FILES, RELATIVE_URLS=True,
            ARTICLE_URL="{category}/{slug}.html", ARTICLE_SAVE_AS="{category}/{slug}.html",
            TAGS_SAVE_AS="", AUTHORS_SAVE_AS="",
            LINKS=(("Pelican", "https://getpelican.com/"), ("Python.org", "https://www.python.org/")),
            SOCIAL=(("mastodon", "https://example.social/@blog"),),
        )),
    "pelican-reflex": dict(
        content=dict(posts=45, categories=5, subcategories=0, tags=8, authors=1, pages=2),
        theme="reflex", menu_categories=False, menu_pages=True,
        settings=dict(
            DEFAULT_PAGINATION=6, PAGINATION_PATTERNS=PAGER_DIRS, RELATIVE_URLS=False,
            ARTICLE_URL="{date:%Y}/{slug}/", ARTICLE_SAVE_AS="{date:%Y}/{slug}/index.html",
            CATEGORY_URL="category/{slug}/", CATEGORY_SAVE_AS="category/{slug}/index.html",
            TAG_URL="tag/{slug}/", TAG_SAVE_AS="tag/{slug}/index.html",
            AUTHOR_SAVE_AS="", AUTHORS_SAVE_AS="",
            PAGE_URL="pages/{slug}/", PAGE_SAVE_AS="pages/{slug}/index.html",
            MAIN_MENU=True, SITESUBTITLE="Notes from the build farm",
            MENUITEMS=[("Archives", "/archives.html"), ("Tags", "/tags.html")],
            LINKS=(("Pelican", "https://getpelican.com/"),),
            SOCIAL=(("github", "https://example.com/blog"),),
            THEME_COLOR_AUTO_DETECT_BROWSER_PREFERENCE=True, COPYRIGHT_YEAR=2025,
            CC_LICENSE={"name": "Creative Commons Attribution-ShareAlike", "version": "4.0",
                        "slug": "by-sa", "icon": False, "language": "en_US"},
        )),
    "pelican-engineering": dict(
        content=dict(posts=80, categories=7, subcategories=0, tags=20, authors=3, pages=3),
        theme="engineering", menu_categories="menuitems", menu_pages="menuitems",
        settings=dict(
            DEFAULT_PAGINATION=8, RELATIVE_URLS=True,
            ARTICLE_URL="articles/{date:%Y}/{slug}.html", ARTICLE_SAVE_AS="articles/{date:%Y}/{slug}.html",
            CATEGORY_URL="topics/{slug}.html", CATEGORY_SAVE_AS="topics/{slug}.html",
            PAGE_URL="{slug}.html", PAGE_SAVE_AS="{slug}.html",
        )),
}


THEME_SOURCE = {"reflex": " (PyPI pelican-theme-reflex 4.0.1)",
                "engineering": " (PyPI pelican-engineering-theme 0.1.0)"}
THEME_VERSIONS = {"reflex": {"pelican-theme-reflex": "4.0.1"},
                  "engineering": {"pelican-engineering-theme": "0.1.0"}}


def _md(meta: dict, body: list[str]) -> str:
    return "".join(f"{k}: {v}\n" for k, v in meta.items()) + "\n" + "\n\n".join(body) + "\n"


def _theme_path(theme: str, tools) -> str:
    if theme in ("simple", "notmyidea"):
        return theme
    if theme == "engineering":
        found = sorted(Path(tools.venv).glob("lib/python*/site-packages/pelican_engineering_theme/theme"))
        assert found, "pelican-engineering-theme not installed"
        return str(found[0])
    # PyPI theme packages install into pelican/themes/<name> of the venv
    found = sorted(Path(tools.venv).glob(f"lib/python*/site-packages/pelican/themes/{theme}"))
    assert found, f"theme {theme} not installed"
    return str(found[0])


def build(name: str, out: Path, tools) -> dict:
    cfg = CONFIG[name]
    b = blog(name, **cfg["content"])
    work = Path(tempfile.mkdtemp(prefix=name + ".src."))
    try:
        content = work / "content"
        (content / "pages").mkdir(parents=True)
        cats = {c.slug: c for c in b.categories}

        def cat_name(slug: str) -> str:
            c = cats[slug]
            if c.parent:  # a path category: "Parent / Child"
                return f"{cats[c.parent].title} / {c.title}"
            return c.title

        def cat_dir(slug: str) -> Path:
            c = cats[slug]
            return content / (f"{c.parent}/{c.slug}" if c.parent else c.slug)

        for p in b.posts:
            d = cat_dir(p.category)
            d.mkdir(parents=True, exist_ok=True)
            (d / f"{p.slug}.md").write_text(_md({
                "Title": p.title, "Date": p.date.strftime("%Y-%m-%d %H:%M"),
                "Category": cat_name(p.category), "Tags": ", ".join(p.tags), "Author": p.author,
                "Slug": p.slug, "Summary": p.summary}, p.body))
        for title, slug, body in b.pages:
            (content / "pages" / f"{slug}.md").write_text(_md({"Title": title, "Slug": slug}, body))
        dump = work / "truth.json"
        menu_mode = cfg["menu_categories"] == "menuitems"
        if menu_mode:
            # The theme's menu is MENUITEMS only: configure it as the site's sections, from the
            # content model (category pages in their order, then the pages, then the archives).
            cat_url, page_url = cfg["settings"]["CATEGORY_URL"], cfg["settings"]["PAGE_URL"]
            cfg["settings"]["MENUITEMS"] = (
                [(cat_name(c.slug), "/" + cat_url.format(slug=c.slug)) for c in b.categories]
                + [(t, "/" + page_url.format(slug=s_)) for t, s_, _ in b.pages]
                + [("Archives", "/archives.html")])
        settings = {
            "SITENAME": b.title, "SITEURL": "", "AUTHOR": b.authors[0], "TIMEZONE": "UTC",
            "DEFAULT_LANG": "en", "PATH": str(content), "OUTPUT_PATH": str(out),
            "THEME": _theme_path(cfg["theme"], tools),
            "PLUGIN_PATHS": [str(HERE)], "PLUGINS": ["truthdump"], "TRUTHDUMP_PATH": str(dump),
            "FEED_ALL_ATOM": "feeds/all.atom.xml", "CATEGORY_FEED_ATOM": "feeds/{slug}.atom.xml",
            "TRANSLATION_FEED_ATOM": None, "AUTHOR_FEED_ATOM": None, "AUTHOR_FEED_RSS": None,
            "DISPLAY_CATEGORIES_ON_MENU": cfg["menu_categories"] is True,
            "DISPLAY_PAGES_ON_MENU": cfg["menu_pages"] is True, "USE_FOLDER_AS_CATEGORY": False,
            "DEFAULT_DATE_FORMAT": "%Y-%m-%d", "CACHE_CONTENT": False, "LOAD_CONTENT_CACHE": False,
            **cfg["settings"],
        }
        conf = work / "pelicanconf.py"
        conf.write_text("".join(f"{k} = {v!r}\n" for k, v in settings.items()))
        tools.run(tools.bin("pelican"), str(content), "-s", str(conf), "-o", str(out), "--fatal", "errors",
                  cwd=work, env={"SOURCE_DATE_EPOCH": "1735689600", "TZ": "UTC"})
        model = json.loads(dump.read_text())
    finally:
        shutil.rmtree(work, ignore_errors=True)

    home = url_of("index.html")

    def u(save_as: str) -> str:
        return url_of(save_as)

    edges = []
    if cfg["menu_categories"] == "menuitems":
        # home -> every MENUITEMS entry that is a page or a category page of the model, in menu order
        by_file = {p["save_as"]: p for p in model["pages"]} | {c["save_as"]: c for c in model["categories"]}
        menu = [link.lstrip("/") for _, link in model["settings"]["MENUITEMS"]]
        edges += [[home, u(f)] for f in menu if f in by_file]
        assert {c["save_as"] for c in model["categories"]} <= set(menu), "a category is not in MENUITEMS"
        edges += [[u(a["category_save_as"]), u(a["save_as"])] for a in model["articles"]]
    # The theme's menu, in its template order: MENUITEMS (non-node indexes), pages, categories.
    elif cfg["menu_pages"]:
        edges += [[home, u(p["save_as"])] for p in model["pages"]]
    if cfg["menu_categories"] == "menuitems":
        pass
    elif cfg["menu_categories"]:
        edges += [[home, u(c["save_as"])] for c in model["categories"]]
        edges += [[u(a["category_save_as"]), u(a["save_as"])] for a in model["articles"]]
    else:
        # No category in the menu: the posts are filed by the blog index (home, paginated).
        edges += [[home, u(a["save_as"])] for a in model["articles"]]
    not_in_tree = [u(t["save_as"]) for t in model.get("tags", []) + model.get("authors", []) if t["save_as"]]
    if not cfg["menu_categories"]:
        not_in_tree += [u(c["save_as"]) for c in model["categories"]]
    for extra in ("archives.html", "tags.html", "categories.html", "authors.html"):
        if (out / extra).is_file():
            not_in_tree.append(url_of(extra))
    s = model["settings"]
    method = ("Read from Pelican's content model by a read-only plugin (truthdump, all_generators_finalized): "
              "the published articles with the category Pelican filed each in, the categories in the "
              "order the theme's menu iterates them, the pages. ")
    if cfg["menu_categories"] == "menuitems":
        method += ("The theme's only menu is MENUITEMS, set to the category pages, the pages and the archives: "
                   "home -> each menu entry that is a page or category page of the model (menu order), "
                   "category -> its articles (each article has exactly one category; the category listing "
                   "and its pagination file it). Home-page, tag, author and archive listings are cross "
                   "listings.")
    elif cfg["menu_categories"]:
        method += ("The theme's menu (DISPLAY_PAGES_ON_MENU, DISPLAY_CATEGORIES_ON_MENU) lists the pages and "
                   "the category pages: home -> pages, home -> categories, category -> its articles (each "
                   "article has exactly one category; the category listing and its pagination file it). "
                   "Home-page, tag, author and archive listings are cross listings.")
    else:
        method += ("The theme's menu shows no categories (MENUITEMS: the archives and tags indexes; "
                   "sidebar: the pages, DISPLAY_PAGES_ON_MENU): home -> pages, and home (the paginated blog "
                   "index, the only menu listing that files the posts) -> every article. Category pages are "
                   "reached only from the posts' 'in <category>' links, like tag pages, so they are not "
                   "nodes (not_in_tree); so is categories.html, which nothing links.")
    return {"root": home, "edges": edges,
            "meta": {"not_in_tree": sorted(set(not_in_tree)), "truth_method": method,
                     "theme": cfg["theme"] + THEME_SOURCE.get(cfg["theme"], " (bundled with Pelican 4.12.0)"),
                     "pelican_settings": {k: s.get(k) for k in ("DISPLAY_PAGES_ON_MENU",
                                                                 "DISPLAY_CATEGORIES_ON_MENU", "MENUITEMS",
                                                                 "DEFAULT_PAGINATION")},
                     "versions": {"pelican": "4.12.0", "markdown": "3.11.3",
                                  **THEME_VERSIONS.get(cfg["theme"], {})}}}
