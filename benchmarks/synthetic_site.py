"""A large synthetic site for the scale benchmark, rendered on the fly (issue 14).

No page is stored: :meth:`Site.render` builds each page's HTML from its URL path,
deterministically (the same URL always gives the same bytes; every random choice
is seeded by the path), and :func:`serve` answers with it from a threaded
``http.server`` on 127.0.0.1, at once (no delay)::

    python benchmarks/synthetic_site.py --pages 100000 --port P

Shape (:meth:`Shape.for_pages`): home -> sections -> subsections -> categories ->
articles, four navigation levels, with about ``--pages`` distinct pages in all
(:attr:`Shape.total`, within one page of it): S sections of U subsections of C
categories, the articles spread unevenly over the categories (0.35 to 2.3 times
the mean), the mean growing with the site (about sqrt(pages)/3, 8 to 120). A
category lists :data:`PER_PAGE` (40) articles per listing page; the rest are on
``?page=2``, ``?page=3``... (``rel="next"``/``"prev"`` links), pages of their own.
100,000 pages: 10 x 10 x 9 = 900 categories of 36 to 237 articles (mean 108), 1 to
6 listing pages each (1,929 after the first); 10,000 pages: 7 x 6 x 7 = 294
categories of 10 to 71 articles (96 later listing pages); 2,000 pages: 5 x 5 x 5
categories of 5 to 34 articles (no later listing page).

URLs: ``/`` (home), ``/SECTION/``, ``/SECTION/SUB/``, ``/SECTION/SUB/CAT/`` (and
``?page=N``), ``/SECTION/SUB/CAT/HEADLINE-WORDS-ID.html`` (an article; ID is its
global number) and ``/about/``, ``/contact/``, ``/privacy/``. Anything else is a
404 (a wrong slug, a query other than an existing listing page, ``?page=1``).

Every page has a top menu (home and the sections, ``header nav ul``), a
breadcrumb trail (``nav aria-label="breadcrumb"``, ``ol``/``li`` links to every
ancestor, the page itself last and unlinked), a sidebar (``aside nav``: the
current section's subsections with the current subsection's categories nested
under it; on the home page the sections, on a footer page the footer pages) and a
footer with links to about, contact and privacy. Section, subsection and
category pages list their children (``ul`` of links with a teaser each); articles
carry body text. Pages are 10-30 KB of HTML (the last listing page of a category
can be shorter).

Text is drawn from a Zipf-like vocabulary (:data:`VOCABULARY`: 70 English
function words at the top ranks, then about 4,900 generated pseudo-words, weight
1/(rank+1)^1.07), with 12% of the words of a page from its section's topic words
and 8% from its category's, so document frequencies behave like a real site's.
Titles are unique per page (an article's headline carries two words that encode
its number). :meth:`Site.parent` gives the true parent of every page (the
breadcrumb's last link; a listing page's parent is its category).
"""
from __future__ import annotations

import argparse
import bisect
import http.server
import itertools
import random
import re
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from html import escape
from math import ceil
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_site import serve_html  # noqa: E402

__all__ = ["PER_PAGE", "VOCABULARY", "Shape", "Site", "serve"]

SITE_NAME = "Synthetic Gazette"
#: articles per listing page of a category
PER_PAGE = 40
FOOTER = (("about", "About us"), ("contact", "Contact"), ("privacy", "Privacy policy"))
FUNCTION_WORDS = tuple(
    "the of and to a in is that for it as was with on be by at this are from or an have not "
    "but which they were his her their has had we been its one all would there can more will "
    "also who into other about some than only then these them so what when could after over "
    "two new most first may such like our out up said people time year".split())
_ONSETS = ("b bl br c ch cr d dr f fl fr g gl gr h j k l m n p pl pr qu r s sc sh sl sm sn sp "
           "st str t th tr v w wh z").split()
_VOWELS = "a e i o u a e i o ai ea ou ie".split()
_CODAS = ("", "", "", "n", "r", "s", "l", "m", "nd", "st", "nt", "rk", "ck", "ng", "th")


def _vocabulary(size: int = 5000, seed: int = 14) -> tuple[str, ...]:
    """The function words, then generated pseudo-words of 1-3 syllables, ``size`` in all."""
    rng = random.Random(seed)
    words = list(FUNCTION_WORDS)
    seen = set(words)
    while len(words) < size:
        word = "".join(rng.choice(_ONSETS) + rng.choice(_VOWELS) + rng.choice(_CODAS)
                       for _ in range(rng.choice((1, 1, 2, 2, 2, 3))))
        if 3 <= len(word) <= 12 and word not in seen:
            seen.add(word)
            words.append(word)
    return tuple(words)


VOCABULARY = _vocabulary()
#: cumulative Zipf-like weights of :data:`VOCABULARY` (rank r: 1/(r+1)^1.07)
_CUMULATIVE = tuple(itertools.accumulate(1.0 / (r + 1) ** 1.07 for r in range(len(VOCABULARY))))
#: the words that may name things (no function words)
CONTENT = VOCABULARY[len(FUNCTION_WORDS):]
_CONTENT_CUMULATIVE = tuple(itertools.accumulate(
    1.0 / (r + 1) ** 1.07 for r in range(len(FUNCTION_WORDS), len(VOCABULARY))))
ACTIVE = ' class="active"'
#: spreads article numbers over headline word pairs (a prime that divides no vocabulary size)
_SPREAD = 1_000_003
#: cumulative weights of a topic's words (rank r: 1/(r+1)^0.8)
_TOPIC_CUMULATIVE = tuple(itertools.accumulate(1.0 / (r + 1) ** 0.8 for r in range(40)))
_ARTICLE = re.compile(r"^([a-z0-9-]+)-(\d+)\.html$")


@dataclass(frozen=True)
class Shape:
    """Sections x subsections x categories, and the articles of each category (in
    category order: category k is section k // (U*C), subsection k // C % U)."""

    sections: int
    subsections: int
    categories: int
    articles: tuple[int, ...]
    per_page: int = PER_PAGE

    @classmethod
    def for_pages(cls, pages: int, per_page: int = PER_PAGE) -> Shape:
        """The shape of a site of about ``pages`` pages (at least 60)."""
        if pages < 60:
            raise ValueError("a synthetic site has at least 60 pages")
        mean = min(120, max(8, round(pages ** 0.5 / 3)))
        want = pages / (mean + 1 + mean / per_page)  # categories
        s = min(10, max(2, round(want ** (1 / 3))))
        u = min(12, max(2, round((want / s) ** 0.5)))
        c = max(2, round(want / (s * u)))
        k = s * u * c
        budget = pages - (1 + len(FOOTER) + s + s * u + k)  # articles and listing pages after the first
        weights = [0.3 + 1.7 * random.Random(f"weight {i}").random() ** 2 for i in range(k)]
        total_weight = sum(weights)
        articles, spent, cumulative = [], 0, 0.0
        for w in weights:
            cumulative += w
            share = round(budget * cumulative / total_weight) - spent
            n = max(1, share)
            while n > 1 and n + _extra_pages(n, per_page) > share:
                n -= 1
            articles.append(n)
            spent += n + _extra_pages(n, per_page)
        return cls(s, u, c, tuple(articles), per_page)

    @property
    def total(self) -> int:
        """Distinct pages: home, footer pages, sections, subsections, categories, their
        later listing pages and the articles."""
        s, u = self.sections, self.sections * self.subsections
        return (1 + len(FOOTER) + s + u + len(self.articles) + sum(self.articles)
                + sum(_extra_pages(n, self.per_page) for n in self.articles))

    def listing_pages(self, category: int) -> int:
        return max(1, ceil(self.articles[category] / self.per_page))


def _extra_pages(articles: int, per_page: int) -> int:
    return max(0, ceil(articles / per_page) - 1)


def _zipf(rng: random.Random, n: int, *, content: bool = False) -> list[str]:
    if content:
        return rng.choices(CONTENT, cum_weights=_CONTENT_CUMULATIVE, k=n)
    return rng.choices(VOCABULARY, cum_weights=_CUMULATIVE, k=n)


def _topic(seed: str, n: int) -> tuple[str, ...]:
    """``n`` topic words of a section or category (mid-frequency content words)."""
    rng = random.Random(seed)
    return tuple(rng.sample(CONTENT[100:3000], n))


def _name(rng: random.Random, words: int, taken: set[str]) -> str:
    while True:
        name = " ".join(_zipf(rng, words, content=True)).capitalize()
        slug = name.lower().replace(" ", "-")
        if slug not in taken and slug not in {f for f, _ in FOOTER}:
            taken.add(slug)
            return name


@dataclass(frozen=True)
class Node:
    """A section, subsection or category: its path, name and indices."""

    path: str
    name: str
    index: tuple[int, ...]


class Site:
    """The synthetic site of a :class:`Shape`: paths, pages, true parents."""

    def __init__(self, shape: Shape) -> None:
        self.shape = shape
        rng = random.Random("names")
        self.sections: list[Node] = []
        self.subsections: list[list[Node]] = []
        self.categories: list[list[list[Node]]] = []
        self.by_path: dict[str, Node] = {}
        taken: set[str] = set()
        for s in range(shape.sections):
            sec = self._node(f"/{self._slug(_name(rng, 1, taken))}/", (s,))
            self.sections.append(sec)
            subs, cats = [], []
            sub_taken: set[str] = set()
            for u in range(shape.subsections):
                sub = self._node(f"{sec.path}{self._slug(_name(rng, 2, sub_taken))}/", (s, u))
                subs.append(sub)
                cat_taken: set[str] = set()
                cats.append([self._node(f"{sub.path}{self._slug(_name(rng, 2, cat_taken))}/", (s, u, c))
                             for c in range(shape.categories)])
            self.subsections.append(subs)
            self.categories.append(cats)
        self.offsets = tuple(itertools.accumulate(shape.articles, initial=0))

    @staticmethod
    def _slug(name: str) -> str:
        return name.lower().replace(" ", "-")

    def _node(self, path: str, index: tuple[int, ...]) -> Node:
        slug = path.rstrip("/").rpartition("/")[2]
        node = Node(path, slug.replace("-", " ").capitalize(), index)
        self.by_path[path] = node
        return node

    # -- structure ------------------------------------------------------------------

    def category(self, k: int) -> Node:
        s, rest = divmod(k, self.shape.subsections * self.shape.categories)
        u, c = divmod(rest, self.shape.categories)
        return self.categories[s][u][c]

    def category_number(self, node: Node) -> int:
        s, u, c = node.index
        return (s * self.shape.subsections + u) * self.shape.categories + c

    @lru_cache(maxsize=4096)
    def headline(self, article: int) -> str:
        """The article's headline: unique, words 1 and 3 encode its number."""
        n = len(CONTENT)
        rng = random.Random(f"headline {article}")
        words = _zipf(rng, rng.randint(5, 9), content=True)
        pair = (article * _SPREAD) % (n * n)  # a bijection of 0..n*n-1 (gcd(_SPREAD, n) == 1)
        words[0], words[2] = CONTENT[pair // n], CONTENT[pair % n]
        return " ".join(words).capitalize()

    def article_path(self, article: int) -> str:
        k = bisect.bisect_right(self.offsets, article) - 1
        slug = "-".join(self.headline(article).lower().split()[:5])
        return f"{self.category(k).path}{slug}-{article}.html"

    def listing_path(self, k: int, page: int) -> str:
        path = self.category(k).path
        return path if page == 1 else f"{path}?page={page}"

    def paths(self) -> Iterator[str]:
        """Every page's path (with the query of a listing page), in site order."""
        yield "/"
        for slug, _ in FOOTER:
            yield f"/{slug}/"
        for s, sec in enumerate(self.sections):
            yield sec.path
            for u, sub in enumerate(self.subsections[s]):
                yield sub.path
                for cat in self.categories[s][u]:
                    k = self.category_number(cat)
                    for page in range(1, self.shape.listing_pages(k) + 1):
                        yield self.listing_path(k, page)
                    for a in range(self.offsets[k], self.offsets[k + 1]):
                        yield self.article_path(a)

    def locate(self, path: str) -> tuple[str, object] | None:
        """What ``path`` (with its query, if any) names: ``("home", None)``,
        ``("footer", slug)``, ``("section"|"subsection", Node)``, ``("category",
        (Node, page))``, ``("article", number)``; None for no page."""
        parts = urlsplit(path)
        query = parse_qsl(parts.query, keep_blank_values=True)
        route = parts.path
        node = self.by_path.get(route)
        if query:
            if node is None or len(node.index) != 3 or len(query) != 1 or query[0][0] != "page" \
                    or not re.fullmatch(r"[1-9]\d*", query[0][1]):
                return None
            page = int(query[0][1])
            k = self.category_number(node)
            if not 2 <= page <= self.shape.listing_pages(k) or parts.query != f"page={page}":
                return None
            return "category", (node, page)
        if route == "/":
            return "home", None
        if route in {f"/{slug}/" for slug, _ in FOOTER}:
            return "footer", route.strip("/")
        if node is not None:
            kind = ("section", "subsection", "category")[len(node.index) - 1]
            return (kind, (node, 1)) if kind == "category" else (kind, node)
        head, _, leaf = route.rpartition("/")
        match = _ARTICLE.match(leaf)
        if match is None or head + "/" not in self.by_path:
            return None
        article = int(match.group(2))
        if article >= self.offsets[-1] or self.article_path(article) != route:
            return None
        return "article", article

    def parent(self, path: str) -> str | None:
        """The true parent of the page at ``path`` (None for the home page or no page)."""
        found = self.locate(path)
        if found is None or found[0] == "home":
            return None
        kind, what = found
        if kind == "footer":
            return "/"
        if kind == "article":
            return self.article_path_parent(int(what))  # type: ignore[arg-type]
        node = what[0] if kind == "category" else what  # type: ignore[index]
        if kind == "category" and what[1] > 1:  # type: ignore[index]
            return node.path  # type: ignore[union-attr]
        return node.path.rstrip("/").rpartition("/")[0] + "/"  # type: ignore[union-attr]

    def article_path_parent(self, article: int) -> str:
        return self.category(bisect.bisect_right(self.offsets, article) - 1).path

    # -- rendering --------------------------------------------------------------------

    def render(self, path: str) -> bytes | None:
        """The page's HTML, or None (404)."""
        found = self.locate(path)
        if found is None:
            return None
        kind, what = found
        rng = random.Random(f"page {path}")
        if kind == "home":
            html = self._home(rng)
        elif kind == "footer":
            html = self._footer_page(str(what), rng)
        elif kind == "section":
            html = self._section(what, rng)  # type: ignore[arg-type]
        elif kind == "subsection":
            html = self._subsection(what, rng)  # type: ignore[arg-type]
        elif kind == "category":
            html = self._category(*what, rng)  # type: ignore[misc]
        else:
            html = self._article(int(what), rng)  # type: ignore[arg-type]
        return html.encode("utf-8")

    def _text(self, rng: random.Random, n: int, topics: tuple[tuple[str, ...], ...] = ()) -> list[str]:
        """``n`` words: Zipf-like, 12% from the first topic list, 8% from the second."""
        words = _zipf(rng, n)
        for share, topic in zip((0.12, 0.08), topics):
            picks = rng.choices(topic, cum_weights=_TOPIC_CUMULATIVE[:len(topic)], k=int(n * share))
            for i, word in zip(rng.sample(range(n), len(picks)), picks):
                words[i] = word
        return words

    def _paragraphs(self, rng: random.Random, n: int, topics: tuple[tuple[str, ...], ...] = (),
                    headings: bool = False) -> str:
        words = self._text(rng, n, topics)
        out, i, count = [], 0, 0
        while i < len(words):
            size = rng.randint(40, 120)
            chunk, i = words[i:i + size], i + size
            sentences, j = [], 0
            while j < len(chunk):
                k = rng.randint(8, 24)
                sentences.append(" ".join(chunk[j:j + k]).capitalize() + ".")
                j += k
            out.append(f"<p>{' '.join(sentences)}</p>")
            count += 1
            if headings and count % 4 == 0 and i < len(words):
                out.append(f"<h2>{' '.join(_zipf(rng, rng.randint(2, 5), content=True)).capitalize()}</h2>")
        return "\n".join(out)

    def _topics(self, node: Node) -> tuple[tuple[str, ...], ...]:
        section = _topic(f"section {node.index[0]}", 40)
        if len(node.index) < 3:
            return (section,)
        return section, _topic(f"category {node.index}", 15)

    def _teaser(self, rng: random.Random, n: int, topics: tuple[tuple[str, ...], ...]) -> str:
        return " ".join(self._text(rng, n, topics)).capitalize() + "."

    def _date(self, rng: random.Random) -> str:
        return f"20{rng.randint(15, 24)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"

    def _trail(self, path: str) -> list[tuple[str, str]]:
        """(href, text) of the ancestors of a section, subsection or category path."""
        trail = [("/", "Home")]
        parts = path.strip("/").split("/")
        for depth in range(1, len(parts) + 1):
            href = "/" + "/".join(parts[:depth]) + "/"
            trail.append((href, self.by_path[href].name))
        return trail

    def _sidebar(self, node: Node | None) -> str:
        if node is None:
            return ""
        s = node.index[0]
        items = []
        for u, sub in enumerate(self.subsections[s]):
            nested = ""
            if len(node.index) >= 2 and node.index[1] == u:
                nested = "<ul>" + "".join(
                    f'<li{ACTIVE if cat.index == node.index else ""}><a href="{cat.path}">{escape(cat.name)}</a></li>'
                    for cat in self.categories[s][u]) + "</ul>"
            items.append(f'<li><a href="{sub.path}">{escape(sub.name)}</a>{nested}</li>')
        sec = self.sections[s]
        return (f'<aside class="sidebar"><nav aria-label="Section navigation"><h2><a href="{sec.path}">'
                f'{escape(sec.name)}</a></h2><ul class="subnav">{"".join(items)}</ul></nav></aside>')

    def _page(self, title: str, trail: list[tuple[str, str]], current: str, sidebar: str, main: str,
              description: str) -> str:
        menu = "".join(f'<li><a href="{sec.path}">{escape(sec.name)}</a></li>' for sec in self.sections)
        crumbs = ""
        if trail:
            crumbs = ('<nav aria-label="breadcrumb"><ol class="breadcrumb">'
                      + "".join(f'<li><a href="{href}">{escape(text)}</a></li>' for href, text in trail)
                      + f'<li aria-current="page">{escape(current)}</li></ol></nav>')
        footer = "".join(f'<li><a href="/{slug}/">{text}</a></li>' for slug, text in FOOTER)
        return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
                f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
                f"<title>{escape(title)}</title>\n"
                f'<meta name="description" content="{escape(description)}">\n'
                f'<link rel="stylesheet" href="/static/site.css">\n'
                "<style>.site-header{background:#123;color:#fff}.layout{display:flex}"
                ".sidebar{width:260px}.subnav .active>a{font-weight:bold}.teaser{color:#444}"
                ".pagination ul{display:flex;list-style:none}</style>\n</head>\n<body>\n"
                f'<header class="site-header"><a class="brand" href="/">{SITE_NAME}</a>\n'
                f'<nav class="main-menu" aria-label="Main"><ul><li><a href="/">Home</a></li>{menu}</ul></nav>'
                f"</header>\n<div class=\"layout\">\n{sidebar}\n<main id=\"content\">\n{crumbs}\n{main}\n"
                f"</main>\n</div>\n<footer class=\"site-footer\"><ul class=\"footer-links\">{footer}</ul>"
                f"<p>&copy; 2024 {SITE_NAME}. All rights reserved.</p></footer>\n</body>\n</html>\n")

    def _listing(self, rng: random.Random, items: list[tuple[str, str]], teaser_words: int,
                 topics: tuple[tuple[str, ...], ...], css: str) -> str:
        rows = "".join(f'<li><a href="{href}">{escape(text)}</a><p class="teaser">'
                       f"{self._teaser(rng, teaser_words, topics)}</p>"
                       f'<span class="date">{self._date(rng)}</span></li>\n' for href, text in items)
        return f'<ul class="{css}">\n{rows}</ul>'

    def _home(self, rng: random.Random) -> str:
        sidebar = ('<aside class="sidebar"><nav aria-label="Sections"><ul class="subnav">'
                   + "".join(f'<li><a href="{sec.path}">{escape(sec.name)}</a></li>' for sec in self.sections)
                   + "</ul></nav></aside>")
        main = (f"<h1>{SITE_NAME}</h1>\n{self._paragraphs(rng, 900)}\n<h2>Sections</h2>\n"
                + self._listing(rng, [(sec.path, sec.name) for sec in self.sections], 60, (), "sections"))
        return self._page(f"{SITE_NAME}: news and guides", [], "", sidebar, main, self._teaser(rng, 20, ()))

    def _footer_page(self, slug: str, rng: random.Random) -> str:
        name = dict(FOOTER)[slug]
        sidebar = ('<aside class="sidebar"><nav aria-label="About the site"><ul class="subnav">'
                   + "".join(f'<li><a href="/{s}/">{t}</a></li>' for s, t in FOOTER) + "</ul></nav></aside>")
        main = f"<h1>{name}</h1>\n{self._paragraphs(rng, 1600, headings=True)}"
        return self._page(f"{name} - {SITE_NAME}", [("/", "Home")], name, sidebar, main,
                          self._teaser(rng, 20, ()))

    def _section(self, node: Node, rng: random.Random) -> str:
        topics = self._topics(node)
        subs = self.subsections[node.index[0]]
        main = (f"<h1>{escape(node.name)}</h1>\n{self._paragraphs(rng, 600, topics)}\n"
                + self._listing(rng, [(sub.path, sub.name) for sub in subs], 80, topics, "subsections"))
        return self._page(f"{node.name} - {SITE_NAME}", self._trail(node.path)[:-1], node.name,
                          self._sidebar(node), main, self._teaser(rng, 20, topics))

    def _subsection(self, node: Node, rng: random.Random) -> str:
        topics = self._topics(node)
        s, u = node.index
        cats = self.categories[s][u]
        items = [(cat.path, cat.name) for cat in cats]
        main = (f"<h1>{escape(node.name)}</h1>\n{self._paragraphs(rng, 700, topics)}\n"
                + self._listing(rng, items, 80, topics, "categories"))
        sec = self.sections[s]
        return self._page(f"{node.name} - {sec.name} - {SITE_NAME}", self._trail(node.path)[:-1], node.name,
                          self._sidebar(node), main, self._teaser(rng, 20, topics))

    def _category(self, node: Node, page: int, rng: random.Random) -> str:
        topics = self._topics(node)
        k = self.category_number(node)
        pages = self.shape.listing_pages(k)
        first = self.offsets[k] + (page - 1) * self.shape.per_page
        last = min(self.offsets[k + 1], first + self.shape.per_page)
        items = [(self.article_path(a), self.headline(a)) for a in range(first, last)]
        pager = ""
        if pages > 1:
            links = []
            if page > 1:
                links.append(f'<li><a href="{self.listing_path(k, page - 1)}" rel="prev">Previous</a></li>')
            for p in range(1, pages + 1):
                links.append(f'<li aria-current="page">{p}</li>' if p == page else
                             f'<li><a href="{self.listing_path(k, p)}">{p}</a></li>')
            if page < pages:
                links.append(f'<li><a href="{self.listing_path(k, page + 1)}" rel="next">Next</a></li>')
            pager = f'<nav class="pagination" aria-label="Pagination"><ul>{"".join(links)}</ul></nav>'
        s, u, _ = node.index
        sub, sec = self.subsections[s][u], self.sections[s]
        suffix = f" (page {page})" if page > 1 else ""
        intro = self._paragraphs(rng, 300 if page == 1 else 60, topics)
        main = (f"<h1>{escape(node.name)}{suffix}</h1>\n{intro}\n"
                f"{self._listing(rng, items, 25, topics, 'articles')}\n{pager}")
        trail = self._trail(node.path)
        if page == 1:
            trail, current = trail[:-1], node.name
        else:
            current = f"Page {page}"
        return self._page(f"{node.name}{suffix} - {sub.name} - {sec.name} - {SITE_NAME}", trail, current,
                          self._sidebar(node), main, self._teaser(rng, 20, topics))

    def _article(self, article: int, rng: random.Random) -> str:
        k = bisect.bisect_right(self.offsets, article) - 1
        node = self.category(k)
        topics = self._topics(node)
        headline = self.headline(article)
        body = self._paragraphs(rng, rng.randint(1300, 4000), topics, headings=True)
        author = " ".join(_zipf(rng, 2, content=True)).title()
        main = (f'<article><h1>{escape(headline)}</h1>\n<p class="byline">By {author} &middot; '
                f"<time>{self._date(rng)}</time></p>\n{body}\n</article>")
        return self._page(f"{headline} - {SITE_NAME}", self._trail(node.path), headline,
                          self._sidebar(node), main, self._teaser(rng, 25, topics))


def serve(site: Site, port: int = 0, bind: str = "127.0.0.1") -> http.server.ThreadingHTTPServer:
    """Serve ``site`` (HTTP/1.1, keep-alive) on ``bind``:``port`` (0: a free port)
    from a background thread; returns the server (``server_port``, ``shutdown()``)."""
    return serve_html(site.render, port, bind, keep_alive=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=int, default=100_000, help="about this many distinct pages")
    ap.add_argument("--port", type=int, default=0, help="0: a free port")
    ap.add_argument("--bind", default="127.0.0.1")
    opts = ap.parse_args()
    site = Site(Shape.for_pages(opts.pages))
    httpd = serve(site, opts.port, opts.bind)
    shape = site.shape
    print(f"serving {shape.total} pages ({shape.sections} sections x {shape.subsections} subsections x "
          f"{shape.categories} categories, {sum(shape.articles)} articles) on "
          f"http://{opts.bind}:{httpd.server_port}/", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        httpd.shutdown()
    sys.exit(0)


if __name__ == "__main__":
    main()
