"""Lektor: the project Lektor's own quickstart generates (its bundled templates, models and
stylesheet, "Add Basic Blog"), filled with a synthetic blog and built with ``lektor build``.

The quickstart's layout has a fixed menu: Welcome (home), Blog, Projects, About; the blog
model paginates its posts (``[pagination]``, blog/page/N/). There are no categories in this
template: the posts are filed by the blog's listing. The truth is read from Lektor's own
database (``lektor/truthdump.py`` walks ``pad.root`` and each record's children).
"""
from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

from farm.check import url_of
from farm.content import blog

FAMILY = "lektor"
KIND = "blog"
GENERATOR = "Lektor 3.3.14"
HERE = Path(__file__).resolve().parent / "lektor"

SITES = {
    "lektor-quickstart": "Lektor 3.3.14 with the project its quickstart generates (bundled templates "
                         "and style, basic blog): menu Welcome / Blog / Projects / About; 55 blog posts "
                         "under blog/<slug>/, listed 10 per page on blog/ and blog/page/N/ (full posts, "
                         "title links); no categories or tags",
    "lektor-quickstart-long": "Lektor 3.3.14, the same quickstart project with its blog model set to 25 "
                              "posts per page: 105 posts, blog/page/2..5/",
}

CONFIG = {
    "lektor-quickstart": dict(posts=55, per_page=None),
    "lektor-quickstart-long": dict(posts=105, per_page=25),
}

QUICKSTART = """
import sys
from lektor.quickstart import Generator
Generator("project").run({"project_name": sys.argv[2], "project_slug": sys.argv[3],
    "project_path": sys.argv[1], "with_blog": True, "this_year": 2025, "today": "2025-01-01",
    "author_name": sys.argv[4]}, sys.argv[1])
"""


def _lr(fields: dict) -> str:
    return "\n---\n".join(f"{k}: {v}" if "\n" not in v else f"{k}:\n\n{v}" for k, v in fields.items()) + "\n"


def build(name: str, out: Path, tools) -> dict:
    cfg = CONFIG[name]
    b = blog(name, posts=cfg["posts"], categories=1, tags=3, authors=2, pages=3)
    work = Path(tempfile.mkdtemp(prefix=name + ".src."))
    try:
        proj = work / "project"
        tools.run(tools.bin("python"), "-c", QUICKSTART, str(proj), b.title, name, b.authors[0], cwd=work)
        content = proj / "content"
        shutil.rmtree(content / "blog" / "first-post")
        if cfg["per_page"]:
            ini = proj / "models" / "blog.ini"
            ini.write_text(ini.read_text().replace("per_page = 10", f"per_page = {cfg['per_page']}"))
        for p in b.posts:
            d = content / "blog" / p.slug
            d.mkdir()
            (d / "contents.lr").write_text(_lr({
                "title": p.title, "pub_date": p.date.strftime("%Y-%m-%d"), "author": p.author,
                "body": "\n\n".join([p.summary, *p.body])}))
        # The layout's menu names /projects and /about: the quickstart's two pages.
        pages = {slug: (title, body) for title, slug, body in b.pages}
        for slug in ("projects", "about"):
            title, body = pages[slug]
            (content / slug / "contents.lr").write_text(_lr({"title": title, "body": "\n\n".join(body)}))
        (content / "contents.lr").write_text(_lr({"title": f"Welcome to {b.title}!",
                                                   "body": "\n\n".join(b.pages[0][2][:1])}))
        env = {"SOURCE_DATE_EPOCH": "1735689600", "TZ": "UTC", "LEKTOR_DEV": ""}
        tools.run(tools.bin("lektor"), "--project", str(proj), "build", "--output-path", str(work / "out"),
                  cwd=proj, env=env)
        dump = work / "truth.json"
        tools.run(tools.bin("python"), str(HERE / "truthdump.py"), str(proj), str(dump), cwd=proj)
        model = json.loads(dump.read_text())
        shutil.copytree(work / "out", out, dirs_exist_ok=True, ignore=shutil.ignore_patterns(".lektor"))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    def u(rec: dict) -> str:
        return url_of(rec["url_path"].lstrip("/") + "index.html")

    home = u(model)
    edges = []
    for top in model["children"]:  # the layout's menu: Blog, Projects, About = the root's children
        edges.append([home, u(top)])
        edges += [[u(top), u(c)] for c in top["children"]]
    return {"root": home, "edges": edges,
            "meta": {"not_in_tree": [],
                     "truth_method": "Read from Lektor's own database (truthdump.py walks pad.root and each "
                                     "record's children, read-only): home -> the root's child records, which "
                                     "are exactly the quickstart layout's menu entries (Blog, Projects, About); "
                                     "blog -> every post (the blog model's children, listed by its paginated "
                                     "listing blog/, blog/page/N/). The template has no categories or tags.",
                     "theme": "Lektor 3.3.14 quickstart project templates (bundled with Lektor)",
                     "lektor_model": {"blog_per_page": next(c["per_page"] for c in model["children"]
                                                            if c["paginated"])},
                     "versions": {"lektor": "3.3.14", "mistune": "0.8.4"}}}
