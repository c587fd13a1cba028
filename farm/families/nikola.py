"""Nikola blogs with Nikola's bundled themes (bootblog4, bootstrap4, base-jinja).

``nikola init --quiet`` makes the site, whose ``conf.py`` gets this site's settings appended;
the synthetic blog (``farm.content.blog``) is written as Markdown posts and pages with
Nikola metadata comments. After ``nikola build``, a read-only command plugin
(``nikola/truthdump.py``, ``nikola truthdump``) scans the site as Nikola does and dumps its
content model: every post with the category Nikola classified it in and its output path,
the category hierarchy the category taxonomy built, the pages and NAVIGATION_LINKS. The
truth is read from that dump, never from the HTML.
"""
from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

from farm.check import url_of
from farm.content import blog

FAMILY = "nikola"
KIND = "blog"
GENERATOR = "Nikola 8.3.3"
HERE = Path(__file__).resolve().parent / "nikola"

SITES = {
    "nikola-bootblog4": "Nikola 8.3.3 with its bundled theme bootblog4: a 70-post blog in 6 flat "
                        "categories, all listed in the navbar with the About and Contact pages, "
                        "Archive and Tags; the blog index on the home page, 8 posts per page "
                        "(index-N.html, rel=next); category pages are plain lists",
    "nikola-bootstrap4-nested": "Nikola 8.3.3 with its bundled theme bootstrap4: a 110-post blog with "
                                "hierarchical categories (CATEGORY_ALLOW_HIERARCHIES, nested "
                                "categories/cat_parent/child/ folders): 5 top categories in a navbar "
                                "dropdown, 6 sub-categories listed on their parent's page; category "
                                "pages are paginated indexes (CATEGORY_PAGES_ARE_INDEXES, 10 per page, "
                                "page/N/, a parent also lists its sub-tree's posts), home index 10 per "
                                "page; 3 pages in the navbar",
    "nikola-base-jinja": "Nikola 8.3.3 with its bundled theme base-jinja (unstyled Jinja templates): "
                         "a 40-post blog whose navbar shows NO categories (Archive, Tags (the tags and "
                         "categories index), About); the posts hang from the paginated blog index on the home page "
                         "(5 per page, non-pretty URLs: posts/<slug>.html)",
}

CONFIG = {
    "nikola-bootblog4": dict(
        content=dict(posts=70, categories=6, subcategories=0, tags=14, authors=3, pages=2),
        theme="bootblog4", menu="flat",
        conf=dict(INDEX_DISPLAY_POST_COUNT=8, PRETTY_URLS=True, CATEGORY_PAGES_ARE_INDEXES=False)),
    "nikola-bootstrap4-nested": dict(
        content=dict(posts=110, categories=5, subcategories=6, tags=10, authors=2, pages=3),
        theme="bootstrap4", menu="dropdown",
        conf=dict(INDEX_DISPLAY_POST_COUNT=10, PRETTY_URLS=True, CATEGORY_PAGES_ARE_INDEXES=True,
                  CATEGORY_ALLOW_HIERARCHIES=True, CATEGORY_OUTPUT_FLAT_HIERARCHY=False,
                  INDEXES_PRETTY_PAGE_URL=["page", "{number}", "{index_file}"],
                  INDEXES_STATIC=False, TAG_PAGES_ARE_INDEXES=False)),
    "nikola-base-jinja": dict(
        content=dict(posts=40, categories=4, subcategories=0, tags=6, authors=1, pages=1),
        theme="base-jinja", menu="none",
        conf=dict(INDEX_DISPLAY_POST_COUNT=5, PRETTY_URLS=False, STRIP_INDEXES=False)),
}


def _meta(d: dict, body: list[str]) -> str:
    head = "".join(f".. {k}: {v}\n" for k, v in d.items())
    return f"<!--\n{head}-->\n\n" + "\n\n".join(body) + "\n"


def _file(link: str) -> str:
    """The output file of a site-relative link ('/categories/x/' -> categories/x/index.html)."""
    rel = link.split("#")[0].lstrip("/")
    return rel + "index.html" if rel.endswith("/") or rel == "" else rel


def build(name: str, out: Path, tools) -> dict:
    cfg = CONFIG[name]
    b = blog(name, **cfg["content"])
    cats = {c.slug: c for c in b.categories}
    nested = cfg["conf"].get("CATEGORY_ALLOW_HIERARCHIES", False)

    def cat_name(slug: str) -> str:
        c = cats[slug]
        return f"{cats[c.parent].title}/{c.title}" if (c.parent and nested) else c.title

    work = Path(tempfile.mkdtemp(prefix=name + ".src."))
    try:
        site = work / "site"
        tools.run(tools.bin("nikola"), "init", "--quiet", str(site), cwd=work)
        for d in ("posts", "pages", "plugins"):
            (site / d).mkdir(exist_ok=True)
        shutil.copy(HERE / "truthdump.plugin", site / "plugins")
        shutil.copy(HERE / "truthdump.py", site / "plugins")
        for p in b.posts:
            (site / "posts" / f"{p.slug}.md").write_text(_meta({
                "title": p.title, "slug": p.slug, "date": p.date.strftime("%Y-%m-%d %H:%M:%S UTC"),
                "tags": ", ".join(p.tags), "category": cat_name(p.category), "author": p.author,
                "description": p.summary, "type": "text"}, [p.summary, "<!-- TEASER_END -->", *p.body]))
        for i, (title, slug, body) in enumerate(b.pages):
            (site / "pages" / f"{slug}.md").write_text(_meta({
                "title": title, "slug": slug, "date": "2024-01-01 00:00:00 UTC", "type": "text"}, body))

        # The navbar, written from the content model: what each site's menu shows.
        pretty = cfg["conf"]["PRETTY_URLS"]
        page_link = (lambda s: f"/pages/{s}/") if pretty else (lambda s: f"/pages/{s}.html")
        nav = [("/archive.html", "Archive"), ("/categories/", "Tags")]
        tops = [c for c in b.categories if not c.parent]
        if cfg["menu"] == "flat":
            nav += [(f"/categories/cat_{c.slug}/", c.title) for c in b.categories]
        elif cfg["menu"] == "dropdown":
            nav.insert(0, (tuple((f"/categories/cat_{c.slug}/", c.title) for c in tops), "Topics"))
        nav += [(page_link(s), t) for t, s, _ in b.pages]
        conf = {
            "BLOG_TITLE": b.title, "BLOG_AUTHOR": b.authors[0], "SITE_URL": "https://example.com/",
            "BLOG_DESCRIPTION": f"Notes on {b.categories[0].title.lower()} and more",
            "THEME": cfg["theme"], "TIMEZONE": "UTC", "COMMENT_SYSTEM": "", "COMMENT_SYSTEM_ID": "",
            "POSTS": (("posts/*.md", "posts", "post.tmpl"),),
            "PAGES": (("pages/*.md", "pages", "page.tmpl"),),
            "CONTENT_FOOTER_FORMATS": {"en": ((), {"email": "blog@example.com", "author": b.authors[0],
                                                   "date": "2025", "license": ""})},
            "RSS_COPYRIGHT_FORMATS": {"en": ((), {"email": "blog@example.com", "author": b.authors[0],
                                                  "date": "2025", "license": ""})},
            "GENERATE_ATOM": False, "USE_BUNDLES": True, "FUTURE_IS_NOW": True,
            **cfg["conf"],
        }
        with (site / "conf.py").open("a") as f:
            f.write("\n# --- skeleton farm site settings ---\n")
            for k, v in conf.items():
                f.write(f"{k} = {v!r}\n")
            f.write(f"NAVIGATION_LINKS = {{DEFAULT_LANG: {tuple(nav)!r}}}\n")
        env = {"SOURCE_DATE_EPOCH": "1735689600", "TZ": "UTC"}
        tools.run(tools.bin("nikola"), "build", cwd=site, env=env)
        dump = work / "truth.json"
        tools.run(tools.bin("nikola"), "truthdump", str(dump), cwd=site, env=env)
        model = json.loads(dump.read_text())
        shutil.copytree(site / "output", out, dirs_exist_ok=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    home = url_of("index.html")
    u = lambda link: url_of(_file(link))  # noqa: E731
    catlink = {c["name"]: c["link"] for c in model["categories"]}
    edges = []
    if cfg["menu"] == "none":
        edges += [[home, u(p["link"])] for p in model["posts"]]
    else:
        for c in model["categories"]:
            edges.append([u(catlink[c["parent"]]) if c["parent"] else home, u(c["link"])])
        edges += [[u(catlink[p["category"]]), u(p["link"])] for p in model["posts"]]
    edges += [[home, u(p["link"])] for p in model["pages"]]
    not_in_tree = [url_of(x) for x in ("archive.html", "categories/index.html") if (out / x).is_file()]
    not_in_tree += [u(x) for x in model.get("tag_links", []) + model.get("author_links", [])
                    if (out / _file(x)).is_file()]
    if cfg["menu"] == "none":
        not_in_tree += [u(c["link"]) for c in model["categories"]]
    method = ("Read from Nikola's content model by a read-only command plugin (nikola truthdump: "
              "scan_posts, then each post's category as Nikola classified it, its output path, the "
              "category taxonomy's hierarchy and each category page's link, the pages). ")
    if cfg["menu"] == "flat":
        method += ("NAVIGATION_LINKS lists every category page and the pages: home -> pages, home -> "
                   "categories, category -> its posts (one category per post; the category page lists it). "
                   "The home blog index, tag and archive pages are cross listings.")
    elif cfg["menu"] == "dropdown":
        method += ("CATEGORY_ALLOW_HIERARCHIES: the navbar's Topics dropdown lists the top categories; each "
                   "top category's page lists its sub-categories (the taxonomy's children, 'Subcategories') "
                   "and, as an index, the posts of its whole sub-tree; a post hangs from the innermost "
                   "category that files it (its own category). home -> pages, home -> top categories -> "
                   "sub-categories -> posts. Pagination (page/N/) is not a node.")
    else:
        method += ("The navbar shows no categories (Archive, Tags/categories index, the pages): home (the "
                   "paginated blog index, the only menu listing that files the posts) -> every post, "
                   "home -> pages. Category pages are reached only from the posts' category links and the "
                   "tags/categories index, so they are not nodes (not_in_tree).")
    return {"root": home, "edges": edges,
            "meta": {"not_in_tree": sorted(set(not_in_tree) - {home}), "truth_method": method,
                     "theme": f"{cfg['theme']} (bundled with Nikola 8.3.3)",
                     "nikola_settings": model.get("settings", {}), "navigation": model["navigation"],
                     "versions": {"nikola": "8.3.3", "markdown": "3.11.3"}}}
