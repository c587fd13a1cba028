"""Check a farm site's truth against the HTML its generator wrote.

The truth comes from the generator's content model; this only verifies that it fits
the site as served (``tests/sites/server.py`` semantics: ``dir/`` is ``dir/index.html``,
``/x`` with a folder ``x`` is ``/x/``):

* every truth node is a served page (an HTML file);
* every edge's parent links to its child, directly or through a page of its listing's
  pagination (a ``rel="next"`` link, or a link to ``page/N``, ``pageN.html``,
  ``indexN.html``, ``?page=N`` below the parent);
* every node is reached from the root by following links;
* ``meta.not_in_tree`` names no node.

Returns a summary ``{"pages", "nodes", "edges", "depth"}``; raises ``AssertionError``
listing the problems otherwise.
"""
from __future__ import annotations

import re
from collections import deque
from pathlib import Path
from urllib.parse import quote, unquote, urldefrag, urljoin, urlsplit

from lxml import etree, html

__all__ = ["BASE", "url_of", "file_of", "page_links", "check_site"]

BASE = "http://127.0.0.1:8000/"
PAGER = re.compile(r"(/page/?\d+/?|/page\d+\.html|/index\d+\.html|[?&]page=\d+|/\d+/?$)")


def url_of(rel: str) -> str:
    """The truth URL of a file path relative to the served folder."""
    return BASE + quote(rel.replace("\\", "/"), safe="/@:+,;=-._~!$&'()*")


def file_of(url: str, root: Path) -> Path | None:
    """The HTML file the server answers ``url`` with (None: not a page of the site)."""
    if not url.startswith(BASE):
        return None
    parts = urlsplit(url)
    path = unquote(parts.path)[1:]
    if parts.query:
        folder = path == "" or path.endswith("/") or (root / path).is_dir()
        cand = root / (f"{path.rstrip('/')}/index.html" if folder else path).lstrip("/")
        cand = cand.with_name(f"{cand.name}@{unquote(parts.query)}")
        if cand.is_file():
            return cand
    f = root / path
    if path == "" or path.endswith("/") or f.is_dir():
        f = f / "index.html"
    if f.is_file():
        return f
    g = f.with_name(f.name + ".html")  # clean URLs served from NAME.html
    return g if g.is_file() else None


def page_url(f: Path, root: Path) -> str:
    """The URL of a served file: ``PATH@QUERY`` files are ``PATH?QUERY`` pages."""
    rel = str(f.relative_to(root))
    path, at, query = rel.partition("@")
    return url_of(path) + ("?" + query if at else "")


def canonical(url: str, root: Path) -> str | None:
    f = file_of(url, root)
    return page_url(f, root) if f else None


def page_links(f: Path, root: Path) -> tuple[set[str], set[str]]:
    """(links, rel-next links) of one page, as canonical truth URLs."""
    try:
        doc = html.fromstring(f.read_bytes())
    except (etree.ParserError, ValueError):
        return set(), set()
    here = page_url(f, root)
    base = doc.find(".//base[@href]")
    if base is not None:
        here = urljoin(here, base.get("href"))
    out, nexts = set(), set()
    for a in doc.iter("a", "area", "link"):
        href = a.get("href")
        if not href or href.startswith(("mailto:", "javascript:", "tel:")):
            continue
        u = canonical(urldefrag(urljoin(here, href.strip()))[0], root)
        if u is None:
            continue
        rel = (a.get("rel") or "").lower().split()
        if a.tag != "link":
            out.add(u)
        if "next" in rel:
            nexts.add(u)
    return out, nexts


def check_site(truth: dict, root: Path) -> dict:
    problems = []
    edges = [(p, c) for p, c in truth["edges"]]
    nodes = {truth["root"]} | {c for _, c in edges}
    children: dict[str, list[str]] = {}
    for p, c in edges:
        children.setdefault(p, []).append(c)
    if len({c for _, c in edges}) != len(edges):
        problems.append("a child has two parents")
    for n in sorted(nodes):
        if file_of(n, root) is None:
            problems.append(f"node {n} is not served")
    cache: dict[str, tuple[set[str], set[str]]] = {}

    def links(u: str) -> tuple[set[str], set[str]]:
        if u not in cache:
            f = file_of(u, root)
            cache[u] = page_links(f, root) if f else (set(), set())
        return cache[u]

    for p, kids in children.items():
        listing, todo, seen = set(), [p], set()
        while todo:
            u = todo.pop()
            if u in seen or len(seen) > 200:
                continue
            seen.add(u)
            out, nexts = links(u)
            listing |= out
            head = p.rsplit("/", 1)[0] if p.endswith("index.html") else p.rsplit(".", 1)[0]
            todo += [v for v in out | nexts if v in nexts or (v.startswith(head) and PAGER.search(v[len(head):]))]
        for c in kids:
            if c not in listing:
                problems.append(f"parent {p} (or its pagination) does not link its child {c}")
    seen, todo = {truth["root"]}, deque([truth["root"]])
    while todo:
        for v in links(todo.popleft())[0]:
            if v not in seen:
                seen.add(v)
                todo.append(v)
    problems += [f"node {n} is not reached from the root" for n in sorted(nodes - seen)]
    problems += [f"not_in_tree {u} is a node" for u in truth.get("meta", {}).get("not_in_tree", [])
                 if u in nodes]
    if problems:
        raise AssertionError(f"{len(problems)} problems:\n  " + "\n  ".join(problems[:40]))
    depth, frontier = 0, [truth["root"]]
    while frontier:
        frontier = [c for p in frontier for c in children.get(p, [])]
        depth += bool(frontier)
    return {"pages": len(list(root.rglob("*.html"))), "nodes": len(nodes), "edges": len(edges),
            "depth": depth}
