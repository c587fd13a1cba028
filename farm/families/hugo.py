"""Hugo 0.111 (Debian) with the Doks theme (npm @hyas/doks-core 1.6.1 and its Hyas modules).

Hugo ships no theme (``hugo new theme`` in 0.111 writes empty template files), so both sites
use Doks, a third-party Hugo theme published on npm as ``@hyas/doks-core`` with ``@hyas/core``,
``@hyas/seo``, ``@hyas/images`` and ``@hyas/inline-svg`` (pinned in ``hugo.package.json`` and
its lock). They are mounted unchanged into the site with Hugo module mounts from
``node_modules``, as the Doks starter does (in Hugo 0.111 the LAST of a project's mounts wins
for a path, so @hyas/core comes first and doks-core, then the project's own files, after it).
The farm adds only what the Doks *starter project*
would hold (``farm/families/hugo/``): empty custom-script/head partials, ``js/custom.js`` and SCSS slots, and a
compatibility shim ``partials/_funcs/get-page-images.html`` (an embedded partial of later Hugo
releases that @hyas/seo calls; ours returns the front-matter images). Pagination is Hugo's
embedded ``_internal/pagination.html``, which Doks calls.

* ``hugo-doks-docs``: a manual: the top-level sections are the main menu, each section's page
  (Doks ``list.html``) lists every page of its subtree, its sub-sections are the sidebar's
  groups (Doks renders them as unlinked ``<details>``), so each top-level section's
  ``_index.md`` lists its sub-sections in its Markdown; a sub-section's page lists its pages.
* ``hugo-doks-blog``: a blog in Doks's blog layouts: the blog listing paginated (7 a page),
  category/tag/contributor taxonomies, the main menu shows Blog, a "Topics" dropdown of the
  category pages, About and Contact. Posts hang from their category page.

Doks's home page has a hard-coded "get started" button to ``/docs/guides/example-guide/``;
both sites give that path to a page as a Hugo alias (a redirect stub, not a node).
"""
from __future__ import annotations

import shutil
from pathlib import Path

from farm import content
from farm.check import url_of

FAMILY = "hugo"
KIND = "docs+blog"
GENERATOR = "Hugo 0.111.3 extended (Debian)"
APT = ["hugo"]
SITES = {
    "hugo-doks-docs": "Hugo 0.111.3 with the Doks theme (npm @hyas/doks-core 1.6.1, @hyas/core 1.3.1): a "
                      "manual, top-level sections in the main menu, per-section sidebar with the "
                      "sub-sections as groups, section pages listing their pages as cards, breadcrumbs; "
                      "depth 3 (starter-project slots and a Hugo-0.111 shim partial of ours)",
    "hugo-doks-blog": "Hugo 0.111.3 with the Doks theme (npm @hyas/doks-core 1.6.1): a blog of 70 posts, "
                      "categories/tags/contributors taxonomies, paginated blog and category listings "
                      "(Hugo's internal pagination), main menu: Blog, a Topics dropdown of the category "
                      "pages, About, Contact (starter-project slots and a Hugo-0.111 shim partial of ours)",
    "hugo-doks-starter": "Hugo 0.111.3 with the Doks theme (npm @hyas/doks-core 1.6.1), laid out like the "
                         "Doks starter: main menu Docs, Blog, About; docs under /docs/ with a nested "
                         "sidebar (depth 4 from home), a blog of 45 posts without categories, paginated "
                         "(6 a page), tag and contributor pages",
}
HERE = Path(__file__).resolve().parent / "hugo"
VERSIONS = {"hugo": "0.111.3", "@hyas/doks-core": "1.6.1", "@hyas/core": "1.3.1", "@hyas/seo": "2.3.0",
            "@hyas/images": "3.2.0", "@hyas/inline-svg": "1.1.0", "bootstrap": "5.3.9"}
CTA = "docs/guides/example-guide"  # Doks's home-page button

MOUNTS = [
    ("node_modules/@hyas/core/layouts", "layouts"),
    ("node_modules/@hyas/core/assets", "assets"),
    ("node_modules/@hyas/doks-core/layouts", "layouts"),
    ("node_modules/@hyas/doks-core/assets", "assets"),
    ("node_modules/@hyas/doks-core/i18n", "i18n"),
    ("node_modules/@hyas/doks-core/static", "static"),
    ("node_modules/@hyas/seo/layouts", "layouts"),
    ("node_modules/@hyas/images/layouts", "layouts"),
    ("node_modules/@hyas/images/assets", "assets"),
    ("node_modules/@hyas/inline-svg/layouts", "layouts"),
    ("node_modules/bootstrap/scss", "assets/scss/bootstrap/scss"),
    ("assets", "assets"),
    ("layouts", "layouts"),
]


def _q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _config(title: str, main_sections: list[str], section_nav: list[str], menu: str, extra: str = "") -> str:
    mounts = "".join(f'  [[module.mounts]]\n    source = "{s}"\n    target = "{t}"\n' for s, t in MOUNTS)
    return f"""baseURL = "http://127.0.0.1:8000/"
title = {_q(title)}
languageCode = "en-US"
defaultContentLanguage = "en"
enableGitInfo = false
buildFuture = true
enableRobotsTXT = false
{extra}
[params]
  mainSections = [{", ".join(_q(s) for s in main_sections)}]
  description = "A synthetic site of the skeleton training farm."
  [params.seo.schemas]
    type = "Organization"
  [params.doks]
    colorMode = "auto"
    sectionNav = [{", ".join(_q(s) for s in section_nav)}]
    breadcrumbTrail = true
    flexSearch = false
    containerBreakpoint = "lg"
    navbarSticky = true
    toTopButton = false
    headlineHash = true
    scrollSpy = true
    docsVersioning = false
    multilingualMode = false
    lastMod = false
    editPage = false
    relatedPosts = false
    imageList = false
    imageSingle = false
{menu}
[module]
{mounts}"""


def _front(**kw) -> str:
    lines = ["---"]
    for k, v in kw.items():
        if isinstance(v, bool):
            lines.append(f"{k}: {'true' if v else 'false'}")
        elif isinstance(v, list):
            lines.append(f"{k}: [{', '.join(_q(x) for x in v)}]")
        elif isinstance(v, (int, float)):
            lines.append(f"{k}: {v}")
        else:
            lines.append(f"{k}: {_q(v)}")
    return "\n".join(lines + ["---", ""])


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def _hugo(src: Path, out: Path, tools) -> None:
    (src / "node_modules").symlink_to(tools.npm / "node_modules")
    shutil.copytree(HERE, src, dirs_exist_ok=True)
    dest = src / "public"
    tools.run("hugo", "--environment", "development", "--quiet", "--destination", str(dest), cwd=src,
              env={"HUGO_CACHEDIR": str(src / ".hugo_cache"), "TZ": "UTC"})
    shutil.copytree(dest, out, dirs_exist_ok=True)


def _write_docs(c: Path, node: content.DocNode, prefix: str, weight: int, alias_to: content.DocNode) -> None:
    """A doc (sub-)tree as Hugo content: a node with children is a section (``_index.md`` whose
    Markdown lists its sub-sections; Doks's list page lists the pages), a leaf a page."""
    path = f"{prefix}/{node.path}".strip("/")
    extra = {"aliases": ["/" + CTA + "/"]} if node is alias_to else {}
    body = "\n\n".join(node.body)
    subs = [s for s in node.children if s.children]
    if subs:
        body += "\n\n## Topics in this section\n\n" + "\n".join(
            f"- [{s.title}](/{prefix + '/' if prefix else ''}{s.path}/)" for s in subs)
    if node.children:
        _write(c / path / "_index.md", _front(title=node.title, weight=weight, **extra) + body + "\n")
        for w, ch in enumerate(node.children, 1):
            _write_docs(c, ch, prefix, w, alias_to)
    else:
        _write(c / f"{path}.md", _front(title=node.title, weight=weight, **extra) + body + "\n")


def _docs(name: str, out: Path, tools) -> dict:
    starter = name == "hugo-doks-starter"
    if starter:
        tree = content.doc_tree(name, sections=(3, 5), pages=(2, 5), depth=3, branch_share=0.4, title="Docs")
    else:
        tree = content.doc_tree(name, sections=(4, 6), pages=(3, 6), depth=3, branch_share=0.5)
    src = out.parent / (name + ".src")
    shutil.rmtree(src, ignore_errors=True)
    c = src / "content"
    prefix = "docs" if starter else ""

    def url(n: content.DocNode) -> str:
        path = f"{prefix}/{n.path}".strip("/")
        return url_of(f"{path}/index.html" if path else "index.html")

    first_leaf = next(n for n in tree.walk() if not n.children)
    edges = [[url(p), url(ch)] for p, ch in tree.edges()]
    root = url_of("index.html")
    not_in_tree = [url_of(f"{CTA}/index.html"), url_of("404.html")]
    if starter:
        b = content.blog(name, posts=45, categories=4, tags=10, authors=3, pages=1)
        site_title = b.title
        _write(c / "_index.md", _front(title=site_title, lead="Documentation and news of the skeleton farm."))
        tree.slug = "docs"
        for w, ch in enumerate([tree], 1):
            _write_docs(c, ch, prefix, w, first_leaf)
        edges.insert(0, [root, url(tree)])
        _write(c / "blog" / "_index.md", _front(title="Blog"))
        for p in b.posts:
            date = p.date.strftime("%Y-%m-%dT%H:%M:%SZ")
            _write(c / "blog" / f"{p.slug}.md",
                   _front(title=p.title, date=date, lastmod=date, summary=p.summary, tags=p.tags,
                          contributors=[p.author]) + "\n\n".join(p.body) + "\n")
            edges.append([url_of("blog/index.html"), url_of(f"blog/{p.slug}/index.html")])
        edges.insert(1, [root, url_of("blog/index.html")])
        for title, slug, body in b.pages:
            _write(c / f"{slug}.md", _front(title=title, toc=False) + "\n\n".join(body) + "\n")
            edges.append([root, url_of(f"{slug}/index.html")])
        menu = ('[menu]\n  [[menu.main]]\n    name = "Docs"\n    url = "/docs/"\n    weight = 1\n'
                '  [[menu.main]]\n    name = "Blog"\n    url = "/blog/"\n    weight = 2\n'
                + "".join(f'  [[menu.main]]\n    name = {_q(t)}\n    url = "/{s}/"\n    weight = {i}\n'
                          for i, (t, s, _) in enumerate(b.pages, 3)))
        extra = 'paginate = 6\n[taxonomies]\n  tag = "tags"\n  contributor = "contributors"\n'
        _write(src / "hugo.toml", _config(site_title, ["docs", "blog"], ["docs"], menu, extra))
        not_in_tree += [url_of("tags/index.html"), url_of("contributors/index.html")]
        not_in_tree += [url_of(f"tags/{t}/index.html") for t in sorted({t for p in b.posts for t in p.tags})]
        method = ("main menu (config): Docs, Blog, About -> home; the doc tree as Hugo sections under /docs/: "
                  "each section's _index.md lists its sub-sections (the sidebar's groups), its Doks list page "
                  "lists the pages of its subtree, so a page hangs from its innermost section; posts have no "
                  "categories: they hang from the paginated blog listing; tag/contributor pages are not nodes")
    else:
        _write(c / "_index.md", _front(title=tree.title, lead="A manual of the skeleton training farm.")
               + "\n\n".join(tree.body) + "\n")
        for w, ch in enumerate(tree.children, 1):
            _write_docs(c, ch, prefix, w, first_leaf)
        menu = "[menu]\n" + "".join(f'  [[menu.main]]\n    name = {_q(s.title)}\n    url = "/{s.path}/"\n'
                                    f'    weight = {i}\n' for i, s in enumerate(tree.children, 1))
        secs = [s.path for s in tree.children]
        _write(src / "hugo.toml", _config(tree.title, secs, secs, menu, 'disableKinds = ["taxonomy", "term"]'))
        method = ("the doc tree as Hugo sections: main menu (config) = top-level sections; a section's "
                  "_index.md lists its sub-sections (the sidebar's groups), its Doks list page lists the "
                  "pages of its subtree, so a page hangs from its innermost section")
    _hugo(src, out, tools)
    return {"root": root, "edges": edges,
            "meta": {"not_in_tree": not_in_tree, "truth_method": method,
                     "theme": "Doks (@hyas/doks-core 1.6.1, npm)", "versions": VERSIONS}}


def _blog(name: str, out: Path, tools) -> dict:
    b = content.blog(name, posts=70, categories=6, tags=15, authors=4, pages=2)
    src = out.parent / (name + ".src")
    shutil.rmtree(src, ignore_errors=True)
    c = src / "content"
    cat_title = {k.slug: k.title for k in b.categories}
    _write(c / "_index.md", _front(title=b.title, lead="Notes and articles from the skeleton training farm."))
    _write(c / "blog" / "_index.md", _front(title="Blog", aliases=["/" + CTA + "/"]))
    for p in b.posts:
        date = p.date.strftime("%Y-%m-%dT%H:%M:%SZ")
        _write(c / "blog" / f"{p.slug}.md",
               _front(title=p.title, date=date, lastmod=date, summary=p.summary,
                      categories=[cat_title[p.category]], tags=p.tags, contributors=[p.author])
               + "\n\n".join(p.body) + "\n")
    for title, slug, body in b.pages:
        _write(c / f"{slug}.md", _front(title=title, toc=False) + "\n\n".join(body) + "\n")
    used = [k for k in b.categories if any(p.category == k.slug for p in b.posts)]
    menu = ('[menu]\n  [[menu.main]]\n    name = "Blog"\n    url = "/blog/"\n    weight = 1\n'
            '  [[menu.main]]\n    name = "Topics"\n    identifier = "topics"\n    weight = 2\n'
            + "".join(f'  [[menu.main]]\n    name = {_q(k.title)}\n    parent = "topics"\n'
                      f'    url = "/categories/{k.slug}/"\n    weight = {i}\n' for i, k in enumerate(used, 1))
            + "".join(f'  [[menu.main]]\n    name = {_q(t)}\n    url = "/{s}/"\n    weight = {i}\n'
                      for i, (t, s, _) in enumerate(b.pages, 3)))
    extra = ('paginate = 7\n[taxonomies]\n  category = "categories"\n  tag = "tags"\n'
             '  contributor = "contributors"\n')
    _write(src / "hugo.toml", _config(b.title, ["blog"], ["docs"], menu, extra))
    _hugo(src, out, tools)
    root = url_of("index.html")
    edges = [[root, url_of("blog/index.html")]]
    edges += [[root, url_of(f"categories/{k.slug}/index.html")] for k in used]
    edges += [[root, url_of(f"{s}/index.html")] for _, s, _ in b.pages]
    edges += [[url_of(f"categories/{p.category}/index.html"), url_of(f"blog/{p.slug}/index.html")] for p in b.posts]
    not_in_tree = [url_of(f"{CTA}/index.html"), url_of("404.html"), url_of("categories/index.html"),
                   url_of("tags/index.html"), url_of("contributors/index.html")]
    not_in_tree += [url_of(f"tags/{t}/index.html") for t in sorted({t for p in b.posts for t in p.tags})]
    return {"root": root, "edges": edges,
            "meta": {"not_in_tree": not_in_tree,
                     "truth_method": "posts' front-matter categories (one each) -> their category term page, "
                     "which the main menu's Topics dropdown (config) lists; Blog, About, Contact from the "
                     "main menu -> home; the blog listing and its pagination also list every post, but the "
                     "category is the post's own section; tag and contributor pages are not nodes",
                     "theme": "Doks (@hyas/doks-core 1.6.1, npm)", "versions": VERSIONS}}


def build(name: str, out: Path, tools) -> dict:
    return _blog(name, out, tools) if name == "hugo-doks-blog" else _docs(name, out, tools)
