"""Jekyll 4.3 (Debian) with the minima 2.5.1 theme (Debian jekyll-theme-minima).

Three sites:

* ``jekyll-minima-paginated``: a blog; minima's header lists the standalone pages
  (``header_pages``), the home page lists the posts, paginated by jekyll-paginate (Debian
  ruby-jekyll-paginate). minima 2.5.1's own ``home`` layout lists ``site.posts`` without a
  paginator, so this site carries a small override of that layout (``jekyll/home-paginated.html``,
  minima's markup with ``paginator.posts`` and older/newer links). Jekyll makes no category
  pages: every post hangs from the home page whose pagination files it.
* ``jekyll-minima-archives``: a blog whose category, tag and year pages are made by
  jekyll-archives (Debian ruby-jekyll-archives); minima has no layout for them, so the site
  carries a small ``archive`` layout (``jekyll/archive.html``, minima's post-list markup). The
  header lists a Topics page (its Markdown lists the category pages), About and Contact.
  Posts hang from their category page; tag and year pages are not nodes.
* ``jekyll-minima-docs``: a manual as plain Jekyll pages (``path/index.md``), the header lists
  the top-level sections (``header_pages``), every section page's Markdown lists its children.

The truth is read from the content model written into the sources: the post list and the
category of each post, the permalink pattern of the config, the header pages, the doc tree.
"""
from __future__ import annotations

import shutil
from pathlib import Path

from farm import content
from farm.check import url_of

FAMILY = "jekyll"
KIND = "docs+blog"
GENERATOR = "Jekyll 4.3.1 (Debian)"
APT = ["jekyll", "jekyll-theme-minima", "ruby-jekyll-paginate", "ruby-jekyll-archives",
       "ruby-jekyll-feed", "ruby-jekyll-seo-tag"]
SITES = {
    "jekyll-minima-paginated": "Jekyll 4.3.1 with minima 2.5.1 (Debian): a blog of 64 posts in 6 "
                               "categories (no category pages), home lists the posts paginated by "
                               "jekyll-paginate 1.1.0 (8 a page; a small home-layout override, minima's "
                               "markup with paginator.posts), header: About, Contact, Projects",
    "jekyll-minima-archives": "Jekyll 4.3.1 with minima 2.5.1 (Debian) and jekyll-archives 2.2.1: a blog "
                              "of 72 posts, category/tag/year archive pages (a small archive layout of "
                              "ours in minima's markup), header: Topics (lists the category pages), "
                              "About, Contact; home lists every post (no excerpts)",
    "jekyll-minima-docs": "Jekyll 4.3.1 with minima 2.5.1 (Debian): a manual as nested pages, header "
                          "lists the top-level sections, each section page lists its children, depth 3",
}
HERE = Path(__file__).resolve().parent / "jekyll"
VERSIONS = {"jekyll": "4.3.1", "minima": "2.5.1", "jekyll-paginate": "1.1.0",
            "jekyll-archives": "2.2.1", "jekyll-feed": "0.17.0", "jekyll-seo-tag": "2.8.0"}


def _yaml_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _config(src: Path, title: str, extra: str, excerpts: bool = True) -> None:
    (src / "_config.yml").write_text(
        f"title: {_yaml_str(title)}\n"
        "description: A synthetic site of the skeleton training farm.\n"
        "baseurl: \"\"\nurl: \"http://127.0.0.1:8000\"\n"
        f"timezone: UTC\nfuture: true\ntheme: minima\nshow_excerpts: {'true' if excerpts else 'false'}\n"
        "markdown: kramdown\n"
        "exclude: [Gemfile, Gemfile.lock]\n" + extra)


def _post_file(src: Path, p: content.Post, cats: dict[str, str]) -> None:
    fm = (f"---\nlayout: post\ntitle: {_yaml_str(p.title)}\n"
          f"date: {p.date:%Y-%m-%d %H:%M:%S} +0000\n"
          f"categories: [{p.category}]\ntags: [{', '.join(p.tags)}]\n"
          f"author: {_yaml_str(p.author)}\n---\n\n")
    body = p.summary + "\n\n" + "\n\n".join(p.body) + "\n"
    (src / "_posts" / f"{p.date:%Y-%m-%d}-{p.slug}.md").write_text(fm + body)


def _post_url(p: content.Post) -> str:
    # Jekyll's default permalink style "date": /:categories/:year/:month/:day/:title:output_ext
    return url_of(f"{p.category}/{p.date:%Y/%m/%d}/{p.slug}.html")


def _page(src: Path, rel: str, title: str, permalink: str, body: str, layout: str = "page") -> None:
    f = src / rel
    f.parent.mkdir(parents=True, exist_ok=True)
    f.write_text(f"---\nlayout: {layout}\ntitle: {_yaml_str(title)}\npermalink: {permalink}\n---\n\n{body}\n")


def _jekyll(src: Path, out: Path, tools) -> None:
    dest = src.parent / (src.name + ".out")
    shutil.rmtree(dest, ignore_errors=True)
    tools.run("jekyll", "build", "--quiet", "-s", str(src), "-d", str(dest), cwd=src,
              env={"JEKYLL_ENV": "production", "SOURCE_DATE_EPOCH": "1735689600", "LC_ALL": "C.UTF-8"})
    shutil.copytree(dest, out, dirs_exist_ok=True)
    shutil.rmtree(dest, ignore_errors=True)


def _blog_site(name: str, out: Path, tools) -> dict:
    paginated = name == "jekyll-minima-paginated"
    b = content.blog(name, posts=64 if paginated else 72, categories=6 if paginated else 7,
                     tags=14, pages=3 if paginated else 2)
    src = out.parent / (name + ".src")
    shutil.rmtree(src, ignore_errors=True)
    (src / "_posts").mkdir(parents=True)
    cats = {c.slug: c.title for c in b.categories}
    for p in b.posts:
        _post_file(src, p, cats)
    header = []
    for title, slug, body in b.pages:
        _page(src, f"{slug}.md", title, f"/{slug}/", "\n\n".join(body))
        header.append(f"{slug}.md")
    root = url_of("index.html")
    edges, not_in_tree = [], []
    if paginated:
        (src / "_layouts").mkdir()
        shutil.copy(HERE / "home-paginated.html", src / "_layouts" / "home.html")
        (src / "index.html").write_text("---\nlayout: home\nlist_title: Latest posts\n---\n")
        extra = ("plugins: [jekyll-feed, jekyll-seo-tag, jekyll-paginate]\n"
                 "paginate: 8\npaginate_path: \"/page:num/\"\n")
        edges += [[root, _post_url(p)] for p in b.posts]
        method = ("jekyll-paginate files every post on the home page and its /pageN/ pages, Jekyll makes no "
                  "category pages: post -> home; header_pages of _config.yml (About, Contact, Projects) -> home")
    else:
        (src / "_layouts").mkdir()
        shutil.copy(HERE / "archive.html", src / "_layouts" / "archive.html")
        (src / "index.md").write_text("---\nlayout: home\nlist_title: All posts\n---\n")
        extra = ("plugins: [jekyll-feed, jekyll-seo-tag, jekyll-archives]\n"
                 "jekyll-archives:\n  enabled: [categories, tags, year]\n  layout: archive\n"
                 "  permalinks:\n    category: /category/:name/\n    tag: /tag/:name/\n    year: /:year/\n")
        used = [c for c in b.categories if any(p.category == c.slug for p in b.posts)]
        lines = [f"- [{c.title}](/category/{c.slug}/)" for c in used]
        _page(src, "topics.md", "Topics", "/topics/",
              "The posts of this blog by topic.\n\n" + "\n".join(lines))
        header.insert(0, "topics.md")
        topics = url_of("topics/index.html")
        edges.append([root, topics])
        for c in used:
            edges.append([topics, url_of(f"category/{c.slug}/index.html")])
        edges += [[url_of(f"category/{p.category}/index.html"), _post_url(p)] for p in b.posts]
        not_in_tree += [url_of(f"tag/{t}/index.html") for t in sorted({t for p in b.posts for t in p.tags})]
        not_in_tree += [url_of(f"{y}/index.html") for y in sorted({p.date.year for p in b.posts})]
        method = ("jekyll-archives category pages (config: /category/:name/) file each post under its one "
                  "category (front matter categories); the header's Topics page lists the category pages; "
                  "home lists every post too, but the innermost listing is the category; tag and year "
                  "archive pages are not nodes")
    edges += [[root, url_of(f"{slug}/index.html")] for _, slug, _ in b.pages]
    _config(src, b.title, extra + "header_pages:\n" + "".join(f"  - {h}\n" for h in header), excerpts=paginated)
    _jekyll(src, out, tools)
    return {"root": root, "edges": edges,
            "meta": {"not_in_tree": not_in_tree, "truth_method": method, "theme": "minima 2.5.1 (Debian)",
                     "versions": VERSIONS}}


def _docs_site(name: str, out: Path, tools) -> dict:
    tree = content.doc_tree(name, sections=(5, 7), pages=(3, 6), depth=3, branch_share=0.45)
    src = out.parent / (name + ".src")
    shutil.rmtree(src, ignore_errors=True)
    src.mkdir(parents=True)

    def url(n: content.DocNode) -> str:
        return url_of(f"{n.path}/index.html" if n.path else "index.html")

    for n in tree.walk():
        body = "\n\n".join(n.body)
        if n.children:
            body += "\n\n## In this section\n\n" + "\n".join(f"- [{c.title}](/{c.path}/)" for c in n.children)
        if n.path:
            _page(src, f"{n.path}/index.md", n.title, f"/{n.path}/", body)
        else:
            (src / "index.md").write_text(f"---\nlayout: home\ntitle: {_yaml_str(n.title)}\n---\n\n{body}\n")
    _config(src, tree.title, "plugins: [jekyll-feed, jekyll-seo-tag]\nheader_pages:\n"
            + "".join(f"  - {c.path}/index.md\n" for c in tree.children))
    _jekyll(src, out, tools)
    return {"root": url(tree), "edges": [[url(p), url(c)] for p, c in tree.edges()],
            "meta": {"truth_method": "the doc tree written as nested pages: header_pages of _config.yml are "
                     "the top-level sections, each section page's Markdown lists its children",
                     "theme": "minima 2.5.1 (Debian)", "versions": VERSIONS}}


def build(name: str, out: Path, tools) -> dict:
    if name == "jekyll-minima-docs":
        return _docs_site(name, out, tools)
    return _blog_site(name, out, tools)
