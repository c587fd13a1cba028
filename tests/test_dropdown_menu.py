"""End to end through the real spider and Redis: a documentation site whose only
navigation is a Bootstrap drop-down menu bar (as MkDocs' default themes print it). Each
section's drop-down lists the section's index first; its sub-sections open from labels
that are no pages (``href="#"``) and list their own index first. Section pages carry no
listing of their own: the menu is the whole structure, and the URL folders agree with it.

Before the drop-down rule (``skeleton.sew.nesting.misplaced_hosts``) the sub-sections and
their pages hung from the entry printed before the label (held out by generator family:
edge F1 0.500 on the farm's ``mkdocs-flatly``)."""
from __future__ import annotations

from pathlib import Path

from helpers import crawl_and_score

TRUTH_HOST = "http://127.0.0.1:8000/"
SECTIONS = {"canvas": ["secure", "tune", "deploy"], "resolver": ["audit", "index-cache"], "process": ["debug"]}
SUBSECTIONS = {"canvas": {"export": ["probe", "record", "archive"], "extend": ["build", "vector"]},
               "resolver": {"carrier": ["source", "stack", "limit"]},
               "process": {"thread": ["header", "viewer"], "engine": ["path", "loop", "wallet"]}}
WORDS = ("The worker reads each record from the queue and writes the result to the store. "
         "A failed step is retried twice before the job is marked as broken. ")


def _title(slug: str) -> str:
    return slug.replace("-", " ").capitalize()


def _menu() -> str:
    """The menu bar, with root-relative links (the same on every page)."""
    out = ['<ul class="nav navbar-nav"><li class="nav-item"><a href="/" class="nav-link">Docs</a></li>']
    for section, pages in SECTIONS.items():
        out.append(f'<li class="nav-item dropdown"><a href="#" class="nav-link dropdown-toggle">{_title(section)}</a>'
                   f'<ul class="dropdown-menu"><li><a href="/{section}/" class="dropdown-item">{_title(section)}</a></li>')
        for page in pages:
            out.append(f'<li><a href="/{section}/{page}/" class="dropdown-item">{_title(page)}</a></li>')
        for sub, leaves in SUBSECTIONS[section].items():
            out.append(f'<li class="dropdown-submenu"><a href="#" class="dropdown-item">{_title(sub)}</a>'
                       f'<ul class="dropdown-menu"><li><a href="/{section}/{sub}/" class="dropdown-item">'
                       f'{_title(sub)}</a></li>')
            out += [f'<li><a href="/{section}/{sub}/{leaf}/" class="dropdown-item">{_title(leaf)}</a></li>'
                    for leaf in leaves]
            out.append("</ul></li>")
        out.append("</ul></li>")
    return "".join(out) + "</ul>"


def build(out: Path) -> dict:
    """Write the site into ``out``; return its truth (corpus format)."""
    menu = _menu()
    edges: list[list[str]] = []

    def page(path: str, title: str, parent: str | None) -> None:
        folder = out / path
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "index.html").write_text(
            f"<!DOCTYPE html><html><head><title>{title}</title></head><body>"
            f'<div class="navbar"><a class="navbar-brand" href="/">Worker docs</a>{menu}</div>'
            f'<div class="container"><div class="col-md-3"><ul class="nav"><li><a href="#intro">Introduction</a>'
            f'</li><li><a href="#usage">Usage</a></li></ul></div><div class="col-md-9" role="main">'
            f'<h1 id="intro">{title}</h1><p>{WORDS * 3}</p><h2 id="usage">Usage</h2><p>{WORDS * 2}</p></div></div>'
            f'<footer><p>Documentation built with a static site generator.</p></footer></body></html>')
        if parent is not None:
            edges.append([TRUTH_HOST + parent + "index.html", TRUTH_HOST + path + "index.html"])

    page("", "Worker docs", None)
    for section, pages in SECTIONS.items():
        page(f"{section}/", _title(section), "")
        for name in pages:
            page(f"{section}/{name}/", _title(name), f"{section}/")
        for sub, leaves in SUBSECTIONS[section].items():
            page(f"{section}/{sub}/", _title(sub), f"{section}/")
            for leaf in leaves:
                page(f"{section}/{sub}/{leaf}/", _title(leaf), f"{section}/{sub}/")
    return {"root": TRUTH_HOST + "index.html", "edges": edges}


def test_drop_down_sub_menus_hang_from_their_index(serve, tmp_path: Path) -> None:
    site = tmp_path / "site"
    score = crawl_and_score(serve(site), build(site), tmp_path)
    assert score["pages"]["all"]["recall"] == 1.0, score["pages"]["all"]
    assert score["edges"]["all"]["f1"] >= 0.95, score["edges"]["all"]


def test_the_home_page_offers_each_sub_menu_under_its_index(tmp_path: Path) -> None:
    """The home page's own offers, before any model chooses among them: a sub-menu's
    pages under its index, the index under its section (document order alone offered
    them under the entry printed before the sub-menu's label)."""
    from skeleton.analysis.offline import find_skeleton
    from skeleton.sew.model import load_model

    site = tmp_path / "site"
    build(site)

    def fetch(url: str) -> bytes | None:
        path = site / url[len(TRUTH_HOST):] / "index.html"
        return path.read_bytes() if path.is_file() else None

    home = next(iter(find_skeleton(TRUTH_HOST, fetch, load_model(), max_pages=1)))
    parents = {child[len(TRUTH_HOST):]: offer["parent"][len(TRUTH_HOST):] for child, offer in home.offers.items()}
    for section, subs in SUBSECTIONS.items():
        for sub, leaves in subs.items():
            assert parents[f"{section}/{sub}/"] == f"{section}/", (sub, parents)
            assert {parents[f"{section}/{sub}/{leaf}/"] for leaf in leaves} == {f"{section}/{sub}/"}
        for page in SECTIONS[section]:
            assert parents[f"{section}/{page}/"] == f"{section}/"
