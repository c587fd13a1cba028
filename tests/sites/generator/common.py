"""Shared page chrome, text helpers, the Site model and check() for the test-site
generator (see ../build.py)."""
from __future__ import annotations

import html
import json
import os
import posixpath
import random
import re
import shutil
import unicodedata
from html.parser import HTMLParser
from urllib.parse import quote, unquote, urldefrag, urljoin, urlsplit

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # tests/sites
BASE = "http://127.0.0.1:8000/"
EXT = "http://www.example.com"
MONTHS = ["January", "February", "March", "April", "May", "June", "July",
          "August", "September", "October", "November", "December"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
            "Saturday", "Sunday"]

# --------------------------------------------------------------- helpers


def url(path):
    """Truth URL of a site path (which may carry a ?query)."""
    p, sep, q = path.partition("?")
    return BASE + quote(p) + sep + q


def esc(text):
    """Escape text for element content or a double-quoted attribute."""
    return html.escape(text, quote=False).replace('"', "&quot;")


def slug(text):
    """ASCII slug: 'Café & Bar' -> 'cafe-bar'."""
    t = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", t.lower()).strip("-")


def rel(frm, to):
    """Relative, percent-encoded href from page `frm` to page `to`."""
    p, sep, q = to.partition("?")
    start = posixpath.dirname(frm) or "."
    return quote(posixpath.relpath(p, start)) + sep + q


def root(to):
    """Root-relative, percent-encoded href to page `to`."""
    p, sep, q = to.partition("?")
    return "/" + quote(p) + sep + q


def pretty(to):
    """Root-relative 'pretty' href: dir/index.html -> /dir/."""
    p = root(to)
    return p[: -len("index.html")] if p.endswith("/index.html") else p


def fmt_date(d):
    return f"{MONTHS[d.month - 1]} {d.day}, {d.year}"


WORDS = """the a of and to in for on with at by from new local public city
council plan report data service project system network season market price
growth energy water school family community research quality support design
early late river region board policy future change group level open small
large simple modern common recent careful quiet clear strong better several
often still usually always never also however because while although people
users members teams visitors residents students results changes options
questions details steps weeks months years days evening morning summer
winter spring autumn works helps shows makes keeps brings needs offers
includes describes explains improves reduces remains becomes""".split()


def sentence(rng, lo=8, hi=16):
    words = [rng.choice(WORDS) for _ in range(rng.randint(lo, hi))]
    return " ".join(words).capitalize() + "."


def paragraph(rng, lo=3, hi=5):
    return " ".join(sentence(rng) for _ in range(rng.randint(lo, hi)))


def html5(title, body, css="", lang="en", head=""):
    """A plain HTML5 document (utf-8)."""
    return (f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n'
            f'<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{esc(title)}</title>\n{head}"
            f"<style>{css}</style>\n</head>\n{body}\n</html>\n")


class Site:
    """Pages of one site, its true edges and its pages outside the tree."""

    def __init__(self, name, kind, description, seed, encoding="utf-8"):
        self.name = name
        self.kind = kind
        self.description = description
        self.encoding = encoding
        self.rng = random.Random(seed)
        self.pages = {}        # site path -> html text
        self.edges = []        # (parent path, child path)
        self.outside = []      # paths (maybe with ?query) not in the tree

    def add(self, path, text):
        if path in self.pages:
            raise ValueError(f"{self.name}: page {path} written twice")
        self.pages[path] = text

    def edge(self, parent, child):
        self.edges.append((parent, child))

    def out(self, path):
        if path not in self.outside:
            self.outside.append(path)

    def truth(self):
        return {"root": url("index.html"),
                "edges": [[url(p), url(c)] for p, c in self.edges],
                "meta": {"site": self.name, "kind": self.kind,
                         "description": self.description,
                         "not_in_tree": [url(p) for p in self.outside]}}

    def write(self):
        folder = os.path.join(HERE, self.name)
        if os.path.isdir(folder):
            shutil.rmtree(folder)
        for path, text in sorted(self.pages.items()):
            full = os.path.join(folder, *path.split("/"))
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "wb") as fh:
                fh.write(text.encode(self.encoding))
        with open(folder + ".truth.json", "w", encoding="utf-8") as fh:
            json.dump(self.truth(), fh, indent=1)
            fh.write("\n")


# ----------------------------------------------------------------- check


class _Hrefs(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.hrefs = []
        self.next = []  # hrefs with rel="next": the next page of a paginated listing

    def handle_starttag(self, tag, attrs):
        if tag in ("a", "area", "link"):
            a = dict(attrs)
            for key, value in attrs:
                if key == "href" and value is not None:
                    self.hrefs.append(value.strip())
                    if "next" in (a.get("rel") or "").lower().split():
                        self.next.append(value.strip())


def _decode(data):
    m = re.search(rb"charset=[\"']?([\w-]+)", data[:2048], re.I)
    return data.decode(m.group(1).decode() if m else "utf-8")


def _norm(u):
    """Canonical URL: no fragment, percent-encoded path, dir/ -> dir/index.html."""
    parts = urlsplit(urldefrag(u)[0])
    path = quote(unquote(parts.path))
    if path.endswith("/"):
        path += "index.html"
    query = "?" + parts.query if parts.query else ""
    return f"{parts.scheme}://{parts.netloc}{path}{query}"


def _file_of(u):
    """Site path of a truth/normalised URL (query dropped)."""
    return unquote(urlsplit(u).path)[1:]


REDIRECTS = "_redirects"  # Netlify-style rules "FROM TO [STATUS]", see ../server.py


def _file_url(f):
    """Truth URL of a site file: 'dir/page.html@id=3' is the page 'dir/page.html?id=3'
    (../server.py answers PATH?QUERY from the file PATH@QUERY)."""
    head, sep, name = f.rpartition("/")
    if "@" in name:
        name, _, query = name.partition("@")
        return url(head + sep + name + "?" + query)
    return url(f)


def _page_file(u, files):
    """Site file answering the normalised URL u: PATH@QUERY if there is one, else
    PATH (the query ignored, as by a static server); None if neither exists."""
    path, query = _file_of(u), urlsplit(u).query
    if query and f"{path}@{query}" in files:
        return f"{path}@{query}"
    return path if path in files else None


def _resolver(folder, files):
    """href URL -> normalised URL of the page the server finally answers: follows
    the site's _redirects rules (exact path) and /dir -> /dir/ as ../server.py does."""
    rules = {}
    if os.path.isfile(os.path.join(folder, REDIRECTS)):
        with open(os.path.join(folder, REDIRECTS), encoding="utf-8") as fh:
            for line in fh:
                fields = line.split("#", 1)[0].split()
                if len(fields) >= 2:
                    rules.setdefault(fields[0], fields[1])
    dirs = set()
    for f in files:
        d = posixpath.dirname(f)
        while d:
            dirs.add(d)
            d = posixpath.dirname(d)

    def resolve(u):
        u = urldefrag(u)[0]
        for _ in range(10):
            parts = urlsplit(u)
            to = rules.get(parts.path) or rules.get(unquote(parts.path))
            if to is not None:
                u = urljoin(BASE, to)
            elif not parts.path.endswith("/") and unquote(parts.path)[1:] in dirs:
                u = parts._replace(path=parts.path + "/").geturl()
            else:
                break
        return _norm(u)
    return resolve


def _external(href):
    return href.startswith(("mailto:", "javascript:", "tel:", EXT))


def page_links(folder, path, problems, resolve=_norm, nexts=None):
    """Normalised internal URLs linked from one page (file `path`); the rel="next"
    ones are also added to the set `nexts` if one is given."""
    with open(os.path.join(folder, *path.split("/")), "rb") as fh:
        parser = _Hrefs()
        parser.feed(_decode(fh.read()))
    found = set()
    for href in parser.hrefs:
        if _external(href) or href.startswith("#"):
            continue
        if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", href) or href.startswith("//"):
            problems.append(f"{path}: absolute link {href}")
            continue
        found.add(resolve(urljoin(_file_url(path), href)))
    if nexts is not None:
        nexts.update(resolve(urljoin(_file_url(path), h)) for h in parser.next
                     if not _external(h) and not h.startswith("#"))
    return found


def _site_files(folder):
    files = set()
    for dirpath, _, names in os.walk(folder):
        for n in names:
            full = os.path.relpath(os.path.join(dirpath, n), folder)
            files.add(full.replace(os.sep, "/"))
    files.discard(REDIRECTS)
    return files


def _check_tree(truth, files, problems):
    """Tree shape; returns (parent map, node set, depth)."""
    rt = truth["root"]
    if rt != url("index.html"):
        problems.append(f"root is {rt}")
    parent = {}
    for p, c in truth["edges"]:
        if c in parent:
            problems.append(f"{c} has two parents")
        parent[c] = p
    if rt in parent:
        problems.append("root has a parent")
    nodes = {rt} | set(parent) | set(parent.values())
    depth = 0
    for n in nodes:
        f = _page_file(n, files)
        if f is None or _file_url(f) != n or "#" in n:
            problems.append(f"tree node {n} is not an existing file (or PATH@QUERY file)")
        seen, x = set(), n
        while x != rt and x in parent and x not in seen:
            seen.add(x)
            x = parent[x]
        if x != rt:
            problems.append(f"{n} does not lead up to the root")
        depth = max(depth, len(seen))
    return parent, nodes, depth


def check(name):
    """Verify a generated site against its truth; raise on any problem."""
    folder = os.path.join(HERE, name)
    with open(folder + ".truth.json", encoding="utf-8") as fh:
        truth = json.load(fh)
    problems = []
    files = _site_files(folder)
    resolve = _resolver(folder, files)
    nexts = {f: set() for f in files}
    links = {f: page_links(folder, f, problems, resolve, nexts[f]) for f in files}
    parent, nodes, depth = _check_tree(truth, files, problems)

    def listing(p):
        """Links of page p and of the pages its rel="next" chain paginates to."""
        out, todo, seen = set(), [_page_file(p, files)], set()
        while todo:
            f = todo.pop()
            if f is None or f in seen:
                continue
            seen.add(f)
            out |= links[f]
            todo += [_page_file(t, files) for t in nexts[f]]
        return out
    for p, c in truth["edges"]:
        if c not in listing(p):
            problems.append(f"parent {p} (or its rel=next pages) does not link its child {c}")
    nit = truth["meta"]["not_in_tree"]
    for u in nit:
        if u in nodes or _page_file(u, files) is None:
            problems.append(f"not_in_tree {u} is a tree node or missing")
    for f, targets in links.items():
        for t in targets:
            if not t.startswith(BASE) or _page_file(t, files) is None:
                problems.append(f"{f}: broken link {t}")
    listed = nodes | set(nit)
    for f in files:
        if _file_url(f) not in listed:
            problems.append(f"{f} is neither in the tree nor in not_in_tree")
    seen, todo = {"index.html"}, ["index.html"]
    while todo:
        for t in links[todo.pop()]:
            f = _page_file(t, files)
            if f is not None and f not in seen:
                seen.add(f)
                todo.append(f)
    problems += [f"{f} unreachable from index.html" for f in files - seen]
    if problems:
        raise AssertionError(f"{name}: {len(problems)} problems:\n  "
                             + "\n  ".join(sorted(problems)[:40]))
    return {"pages": len(files), "tree_nodes": len(nodes),
            "edges": len(truth["edges"]), "depth": depth,
            "not_in_tree": len(nit)}
