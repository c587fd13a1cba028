"""A blog whose home page is a paginated list of ALL posts while category pages (in the menu)
file them: posts hang from their category. Tag, author, month-archive pages are not nodes."""
from __future__ import annotations

from pathlib import Path

from farm.content import blog as make_blog

from .common import TRUTH, story_page
from .grammar import Node, Site, esc, slug

SITES = {
    "portal-blog": "own portal grammar: a blog; the home page paginates all posts, category pages (in the menu) file "
                   "them; tag, author and month-archive pages, Older/Newer pagination are not nodes",
    "portal-blog-2": "own portal grammar: a second blog with sub-categories, other URL and pagination conventions",
}


def build(name: str, out: Path) -> dict:
    two = name.endswith("2")
    s = Site(name)
    rng = s.t.rng
    b = make_blog(name, posts=rng.randint(55, 80), categories=rng.randint(4, 6), subcategories=3 if two else 0,
                  tags=rng.randint(10, 16), authors=rng.randint(2, 4), pages=rng.randint(2, 3))
    s.title = b.title
    root = s.root
    root.title = b.title
    cdir = s.pick("catdir", ["category", "categories", "topics", "c", ""])
    cpre = f"{cdir}/" if cdir else ""
    cats = {}
    for ct in b.categories:
        if ct.parent is None:
            cats[ct.slug] = root.add(Node(ct.title, f"{cpre}{ct.slug}/index.html", "section"))
    for ct in b.categories:
        if ct.parent is not None:
            par = cats[ct.parent]
            cats[ct.slug] = par.add(Node(ct.title, f"{par.path.rsplit('/', 1)[0]}/{ct.slug}/index.html", "section"))
    scheme = s.pick("post_url", ["dated", "dated-dir", "slug-dir", "blog-file", "cat-file"])
    posts = []
    for p in b.posts:
        cat = cats[p.category]
        path = {"dated": f"{p.date:%Y/%m/%d}/{p.slug}.html", "dated-dir": f"{p.date:%Y/%m}/{p.slug}/index.html",
                "slug-dir": f"{p.slug}/index.html", "blog-file": f"blog/{p.slug}.html",
                "cat-file": f"{cat.path.rsplit('/', 1)[0]}/{p.slug}.html"}[scheme]
        posts.append(cat.add(Node(p.title, s.uniq(path), "page", summary=p.summary, body=p.body, date=p.date,
                                  author=p.author, tags=p.tags)))
    for t, sl, body in b.pages:
        root.add(Node(t, f"{sl}/index.html" if s.pretty else f"{sl}.html", "page", body=body))
    tdir, adir = s.pick("tagdir", ["tag", "tags", "label"]), s.pick("authdir", ["author", "authors", "writer"])
    tpath = {t: f"{tdir}/{slug(t)}/index.html" for t in b.tags}
    apath = {a: f"{adir}/{slug(a)}/index.html" for a in b.authors}
    months = sorted({(p.date.year, p.date.month) for p in posts}, reverse=True)
    mpath = {m: f"{m[0]}/{m[1]:02d}/index.html" if scheme not in ("dated-dir",) else f"archive/{m[0]}-{m[1]:02d}/index.html"
             for m in months}
    s.menu = [(s.L("home"), "index.html", [])] + [(n.title, n.path, [(k.title, k.path) for k in n.sections()])
                                                 for n in root.children if n.kind == "section"] + \
             [(n.title, n.path, []) for n in root.children if n.kind == "page"]
    c = s.c

    def side(frm):
        return (f'<div{c("box")}><h3>{esc(s.L("menu"))}</h3><ul>' + "".join(
            f"<li>{s.a(frm, n.path, n.title)}</li>" for n in root.walk() if n.kind == "section") + "</ul></div>"
            f'<div{c("box")}><h3>{esc(s.L("latest"))}</h3><ul>' + "".join(
                f"<li>{s.a(frm, n.path, n.title)}</li>" for n in posts[:5]) + "</ul></div>"
            f'<div{c("box")}><h3>{esc(s.L("tags"))}</h3><p>' + " ".join(s.a(frm, p, t) for t, p in tpath.items()) + "</p></div>"
            f'<div{c("box")}><h3>{esc(s.L("archive"))}</h3><ul>' + "".join(
                f'<li>{s.a(frm, p, s.months()[m[1] - 1].capitalize() + " " + str(m[0]))}</li>' for m, p in mpath.items())
            + "</ul></div>")

    def render(frm, ns):
        out = ""
        for n in ns:
            tag = "article" if s.layout == "html5" else "div"
            out += (f'<{tag}{c("item")}><h2{c("title")}>{s.a(frm, n.path, n.title)}</h2><p{c("meta")}>'
                    f'{esc(s.fmt_date(n.date))} · {esc(s.L("by"))} {s.a(frm, apath[n.author], n.author)} · '
                    f'{s.a(frm, n.parent.path, n.parent.title)}</p><p>{esc(n.summary)}</p>'
                    f'<p>{s.a(frm, n.path, s.L("more"))}</p></{tag}>')
        return out
    per = rng.choice([5, 6, 8, 10])
    hs = s.pick("home_pager", ["older", "dir", "pageN"])
    s.paginate("index.html", b.title, posts, per, root, side=side, render=render, style=hs)
    cs = s.pick("cat_pager", ["dir", "query", "indexN"])
    for cat in root.walk():
        if cat.kind != "section" or cat is root:
            continue
        head = ""
        if cat.sections():
            head = "<ul>" + "".join(f"<li>{s.a(cat.path, k.path, k.title)}</li>" for k in cat.sections()) + "</ul>"
        s.paginate(cat.path, cat.title, cat.leaves(), per, cat, head_html=head, side=side, render=render, style=cs)
    for n in root.children:
        if n.kind == "page":
            s.emit(n.path, n.title, s.paras(n.body), n, side=side(n.path))
    for t, p in tpath.items():
        s.paginate(p, f"{s.L('tags')}: {t}", [n for n in posts if t in n.tags], per, None, side=side, render=render, style=cs)
    for a, p in apath.items():
        s.paginate(p, a, [n for n in posts if n.author == a], per * 2, None, side=side, render=render, style=cs)
    for m, p in mpath.items():
        s.emit(p, f"{s.months()[m[1] - 1].capitalize()} {m[0]}", render(p, [n for n in posts if (n.date.year, n.date.month) == m]),
               None, side=side(p))
    for i, n in enumerate(posts):
        nav = "<p>" + (s.a(n.path, posts[i + 1].path, "« " + posts[i + 1].title) if i + 1 < len(posts) else "") + " " + \
            (s.a(n.path, posts[i - 1].path, posts[i - 1].title + " »") if i else "") + "</p>"
        s.emit(n.path, n.title, story_page(s, n, nav, author_link=apath[n.author], tag_links=[(t, tpath[t]) for t in n.tags]),
               n, side=side(n.path))
    return s.write(out, TRUTH)
