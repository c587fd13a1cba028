"""Hexo blogs: ``farm.content.blog`` rendered as Hexo posts with front matter, built by the
``hexo`` npm package (its API via the bundled CLI, ``hexo generate``) with the official
generators (index, category, tag, archive) and themes installed from npm.

The truth is read from the content model (``Blog.categories`` with their parents,
``Post.category``, the standalone pages in the theme's menu) and from the URLs the site's
configuration fixes (``category_map``, ``permalink``), never from the generated HTML:

* categories in the site's navigation (Landscape's category widget shows the whole
  category hierarchy on every page, or its main menu lists the flat categories; NexT's
  menu links the ``/categories/`` page): a post
  hangs from its innermost category, a sub-category from its parent category, a top
  category from home (or from the menu's Categories page);
* categories not in the navigation (the Fluid site's menu has no Categories entry): the
  posts hang from the blog index (home) and its ``page/N/`` pagination;
* standalone pages linked by the menu hang from home; tag, archive and pagination pages
  are not nodes.
"""
from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path

from farm.check import url_of
from farm.content import blog

FAMILY = "hexo"
KIND = "blog"
GENERATOR = "Hexo 8.1.2"

THEMES = {"landscape": "hexo-theme-landscape 1.1.0", "next": "hexo-theme-next 8.29.0",
          "fluid": "hexo-theme-fluid 1.9.9"}

SITES = {
    "hexo-landscape": "Hexo 8.1 with hexo-theme-landscape 1.1.0: nested categories (top categories "
                      "and sub-categories) listed as a tree by the sidebar's category widget on every "
                      "page, posts under their innermost category, About and Contact in the main menu, "
                      "home and category pagination (per_page 6), tags, monthly archives.",
    "hexo-landscape-menu": "Hexo 8.1 with hexo-theme-landscape 1.1.0: flat categories as main-menu "
                           "entries (Home / Archives / the categories / About), no category widget "
                           "(left sidebar: recent posts, tag cloud, archives), posts under their "
                           "category, pagination per_page 4, date permalinks without the day.",
    "hexo-next": "Hexo 8.1 with hexo-theme-next 8.29.0 (Muse scheme): menu Home / About / Categories "
                 "/ Tags / Archives, a Categories page listing flat categories, posts under their "
                 "category, collapsed post lists with pagination (per_page 5), tag and archive pages.",
    "hexo-fluid": "Hexo 8.1 with hexo-theme-fluid 1.9.9: no Categories entry in the menu (Home / "
                  "Archives / Tags / About / Contact / Projects), so posts hang from the paginated "
                  "home page (per_page 8); category, tag and archive pages exist but are not nodes.",
}

# per site: theme, blog() parameters, pagination, permalink, categories in navigation
CONF = {
    "hexo-landscape": dict(theme="landscape", blog=dict(posts=64, categories=5, subcategories=4, tags=12,
                                                        authors=3, pages=2),
                           per_page=6, permalink=":year/:month/:day/:title/", cats="widget"),
    "hexo-landscape-menu": dict(theme="landscape", blog=dict(posts=38, categories=5, subcategories=0,
                                                             tags=8, authors=2, pages=1),
                                per_page=4, permalink=":year/:month/:title/", cats="menu"),
    "hexo-next": dict(theme="next", blog=dict(posts=46, categories=6, subcategories=0, tags=10,
                                              authors=2, pages=1),
                      per_page=5, permalink="posts/:title/", cats="page"),
    "hexo-fluid": dict(theme="fluid", blog=dict(posts=55, categories=4, subcategories=3, tags=14,
                                                authors=4, pages=3),
                       per_page=8, permalink="blog/:year/:title.html", cats=None),
}

PLUGINS = ["hexo-generator-archive", "hexo-generator-category", "hexo-generator-index",
           "hexo-generator-tag", "hexo-renderer-ejs", "hexo-renderer-marked", "hexo-renderer-stylus"]


def _yaml(v, indent=0) -> str:
    """YAML from plain dicts/lists/scalars (JSON scalars are valid YAML)."""
    pad = "  " * indent
    out = []
    if isinstance(v, dict):
        for k, x in v.items():
            if isinstance(x, (dict, list)) and x:
                out.append(f"{pad}{json.dumps(str(k))}:\n{_yaml(x, indent + 1)}")
            else:
                out.append(f"{pad}{json.dumps(str(k))}: {json.dumps(x)}")
    else:
        out += [f"{pad}- {json.dumps(x)}" for x in v]  # list items as JSON flow values
    return "\n".join(out)


def _theme_config(theme: str, b, c: dict) -> dict:
    pages = {slug: f"/{slug}/" for _, slug, _ in b.pages}
    if theme == "landscape":
        menu = {"Home": "/"}
        widgets = ["category", "tag", "archive", "recent_posts"]
        if c["cats"] == "menu":  # the (flat) categories are main-menu entries, no category widget
            menu.update({k.title: f"/categories/{k.slug}/" for k in b.categories})
            widgets = ["recent_posts", "tagcloud", "archive"]
        menu["Archives"] = "/archives/"
        menu.update({t: f"/{s}/" for t, s, _ in b.pages})
        return {"menu": menu, "rss": False, "fancybox": False, "show_count": False,
                "widgets": widgets, "sidebar": "left" if c["cats"] == "menu" else "right"}
    if theme == "next":
        menu = {"home": "/ || fa fa-home"}
        menu.update({s: f"/{s}/ || fa fa-user" for s in pages})
        menu.update({"categories": "/categories/ || fa fa-th", "tags": "/tags/ || fa fa-tags",
                     "archives": "/archives/ || fa fa-archive"})
        return {"scheme": "Muse", "menu": menu, "darkmode": False,
                "vendors": {"internal": "local", "plugins": "local"}, "motion": {"enable": False}}
    if theme == "fluid":
        menu = [{"key": "home", "link": "/"}, {"key": "archive", "link": "/archives/"},
                {"key": "tag", "link": "/tags/"}]
        menu += [{"key": s, "name": t, "link": f"/{s}/"} for t, s, _ in b.pages]
        return {"navbar": {"menu": menu, "blog_title": b.title}, "search": {"enable": False},
                "web_analytics": {"enable": False}, "footer": {"statistics": {"enable": False}}}
    raise ValueError(theme)


def build(name: str, out: Path, tools) -> dict:
    c = CONF[name]
    theme = c["theme"]
    b = blog(name, **c["blog"])
    src = out.parent / (name + ".src")
    shutil.rmtree(src, ignore_errors=True)
    (src / "source" / "_posts").mkdir(parents=True)
    deps = {p: "*" for p in PLUGINS + ["hexo", f"hexo-theme-{theme}"]}
    (src / "package.json").write_text(json.dumps({"name": name, "private": True, "dependencies": deps,
                                                  "hexo": {"version": "8.1.2"}}, indent=1))
    (src / "node_modules").symlink_to(tools.npm / "node_modules")
    (src / "scripts").mkdir()
    shutil.copy(Path(__file__).with_name("hexo") / "farm-order.js", src / "scripts")
    cats = {k.slug: k for k in b.categories}
    config = {
        "title": b.title, "subtitle": "", "description": f"{b.title}, a blog", "author": b.authors[0],
        "language": "en", "timezone": "UTC", "url": "http://127.0.0.1:8000", "root": "/",
        "permalink": c["permalink"], "pretty_urls": {"trailing_index": True, "trailing_html": True},
        "source_dir": "source", "public_dir": "public", "tag_dir": "tags", "archive_dir": "archives",
        "category_dir": "categories", "new_post_name": ":title.md", "default_layout": "post",
        "render_drafts": False, "post_asset_folder": False, "relative_link": False,
        "future": True, "syntax_highlighter": "", "date_format": "YYYY-MM-DD", "time_format": "HH:mm:ss",
        "updated_option": "date",
        "category_map": {k.title: k.slug for k in b.categories},
        "tag_map": {}, "default_category": "uncategorized",
        "per_page": c["per_page"], "pagination_dir": "page",
        "index_generator": {"path": "", "per_page": c["per_page"], "order_by": "-date"},
        "category_generator": {"per_page": c["per_page"], "order_by": "-date"},
        "tag_generator": {"per_page": c["per_page"], "order_by": "-date"},
        "archive_generator": {"per_page": 20, "yearly": True, "monthly": True, "daily": False,
                              "order_by": "-date"},
        "theme": theme,
    }
    (src / "_config.yml").write_text(_yaml(config) + "\n")
    (src / f"_config.{theme}.yml").write_text(_yaml(_theme_config(theme, b, c)) + "\n")

    def chain(slug: str) -> list[str]:
        names = []
        while slug:
            names.insert(0, cats[slug].title)
            slug = cats[slug].parent
        return names

    for p in b.posts:
        fm = {"title": p.title, "date": p.date.strftime("%Y-%m-%d %H:%M:%S"),
              "updated": p.date.strftime("%Y-%m-%d %H:%M:%S"),
              "categories": [chain(p.category)], "tags": p.tags, "author": p.author}
        body = p.summary + "\n\n<!-- more -->\n\n" + "\n\n".join(p.body)
        (src / "source" / "_posts" / f"{p.slug}.md").write_text(f"---\n{_yaml(fm)}\n---\n\n{body}\n")
    for title, slug, body in b.pages:
        d = src / "source" / slug
        d.mkdir()
        fm = {"title": title, "date": "2024-01-01 00:00:00", "updated": "2024-01-01 00:00:00",
              "comments": False}
        (d / "index.md").write_text(f"---\n{_yaml(fm)}\n---\n\n" + "\n\n".join(body) + "\n")
    if c["cats"] == "page" or theme == "fluid":
        for kind in ("categories", "tags"):
            d = src / "source" / kind
            d.mkdir()
            extra = {"type": kind} if theme == "next" else {"layout": kind}
            fm = {"title": kind.capitalize(), "date": "2024-01-01 00:00:00", **extra, "comments": False}
            (d / "index.md").write_text(f"---\n{_yaml(fm)}\n---\n")

    seed = Path(__file__).with_name("hexo") / "seed-random.cjs"  # repeatable ids and colours
    env = {"SOURCE_DATE_EPOCH": "1704067200", "TZ": "UTC", "NODE_OPTIONS": f"--require {seed}"}
    tools.run(tools.node_bin("hexo"), "generate", "--silent", cwd=src, env=env)
    shutil.rmtree(out)
    shutil.copytree(src / "public", out)
    # Landscape writes each post's random database id (warehouse cuid) into its share link's
    # data-id attribute; replace it by a hash of the post's URL so that builds are byte-identical
    for f in out.rglob("*.html"):
        t = f.read_text()
        if 'data-id="cuid' in t:
            f.write_text(re.sub(r'(data-url="([^"]*)" data-id=")cuid[\w-]+"',
                                lambda m: m[1] + hashlib.sha1(m[2].encode()).hexdigest()[:25] + '"', t))

    # the truth, from the content model and the configured URLs
    def cat_url(slug: str) -> str:
        parts = []
        while slug:
            parts.insert(0, cats[slug].slug)
            slug = cats[slug].parent
        return url_of("categories/" + "/".join(parts) + "/index.html")

    def post_url(p) -> str:
        path = (c["permalink"].replace(":year", f"{p.date:%Y}").replace(":month", f"{p.date:%m}")
                .replace(":day", f"{p.date:%d}").replace(":title", p.slug))
        return url_of(path + "index.html" if path.endswith("/") else path)

    home = url_of("index.html")
    edges = [[home, url_of(f"{slug}/index.html")] for _, slug, _ in b.pages]
    if c["cats"]:
        top = home
        if c["cats"] == "page":
            top = url_of("categories/index.html")
            edges.append([home, top])
        used = {p.category for p in b.posts}
        # a category is a node when it has posts (Hexo makes no page for an empty category)
        live = set()
        for s in used:
            while s:
                live.add(s)
                s = cats[s].parent
        for k in b.categories:
            if k.slug in live:
                edges.append([cat_url(k.parent) if k.parent else top, cat_url(k.slug)])
        edges += [[cat_url(p.category), post_url(p)] for p in b.posts]
        method = ("Blog.categories (parent categories) and Post.category (innermost category) of the "
                  "content model, category URLs from category_map; standalone pages from the menu config")
    else:
        edges += [[home, post_url(p)] for p in b.posts]
        method = ("categories are not in the site's menu: every post hangs from the paginated blog index "
                  "(home); standalone pages from the menu config")
    not_in_tree = [url_of(str(f.relative_to(out))) for f in sorted(out.rglob("*.html"))
                   if f.relative_to(out).parts[0] in ("tags", "archives", "links", "404.html")
                   or (not c["cats"] and f.relative_to(out).parts[0] == "categories")]
    versions = {"hexo": "8.1.2", THEMES[theme].split()[0]: THEMES[theme].split()[1]}
    return {"root": home, "edges": edges,
            "meta": {"not_in_tree": not_in_tree, "truth_method": method, "theme": THEMES[theme],
                     "versions": versions}}
