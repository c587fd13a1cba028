"""Synthetic content for the training farm: deterministic topic trees and blogs.

Every farm site renders one of these content models into its generator's own source
format (reST and toctrees, Markdown and a nav config, posts with front matter). The
truth of the site is read from the same model (``DocNode.children``, ``Post.category``),
never from the HTML the generator writes.

Everything is drawn from ``random.Random(seed)``: the same seed gives the same site.
"""
from __future__ import annotations

import datetime as _dt
import random
import re
from dataclasses import dataclass, field

__all__ = ["DocNode", "Category", "Post", "Blog", "Text", "doc_tree", "blog"]

WORDS = (
    "account adapter agent alert archive array audit backup balance batch beacon binary bridge "
    "buffer build bundle cache calendar canvas capture carrier catalog channel checkpoint cipher "
    "client cluster codec column command commit compiler config console container context "
    "contract control cookie counter cursor dashboard daemon database dataset debugger decoder "
    "deploy device digest directory dispatch document domain driver editor element encoder "
    "endpoint engine entry event export extension factory feature field filter firewall folder "
    "format frame gateway graph handler header heap host image import index input instance "
    "interface journal kernel key label layer layout ledger library limit link listener loader "
    "locale lock logger loop manifest mapper market matrix memory message meter method metric "
    "mirror module monitor mount network node notebook object option order output package packet "
    "panel parser partition patch path pattern payload peer pipeline plugin policy pool port "
    "portal printer probe process profile project protocol proxy query queue quota radar record "
    "region registry release relay report request resolver resource response role router rule "
    "runtime sample sandbox scanner schedule schema scope script section sector segment selector "
    "sensor server service session setting shard signal snapshot socket source spider stack "
    "stage storage stream studio subnet switch symbol syntax table target task template tenant "
    "terminal theme thread ticket timer token tracker transfer tunnel update upload vault vector "
    "version viewer volume wallet widget window worker workflow zone"
).split()
VERBS = ("configure deploy inspect migrate monitor tune secure extend install upgrade debug "
         "scale export import schedule build test verify route cache index").split()
FILLER = ("the a this each every its our your their that some any new old main local remote "
          "shared simple quick full basic advanced").split()
GLUE = ("is uses needs keeps sends reads writes holds moves checks starts stops lists builds "
        "loads runs tracks opens closes marks").split()
FIRST = "Ada Ben Chloe Dario Elena Farid Greta Hiro Ines Jonas Kara Liam Mina Noor Omar Pia".split()
LAST = "Abbott Brandt Costa Duval Eriksen Fischer Garcia Haas Ito Jensen Kovac Lund Moreau".split()


class Text:
    """Words, titles and paragraphs from one seeded generator."""

    def __init__(self, seed: int | str) -> None:
        self.rng = random.Random(seed)
        self._used: set[str] = set()

    def word(self) -> str:
        return self.rng.choice(WORDS)

    def title(self, lo: int = 2, hi: int = 4) -> str:
        """A title not given before by this generator (a number is added when needed)."""
        for _ in range(50):
            n = self.rng.randint(lo, hi)
            t = " ".join(w.capitalize() for w in self.rng.sample(WORDS, n))
            if t not in self._used:
                break
        else:
            t = f"{t} {len(self._used)}"
        self._used.add(t)
        return t

    def heading(self) -> str:
        """A how-to style title: "Configure the cache layer"."""
        t = f"{self.rng.choice(VERBS).capitalize()} the {self.word()} {self.word()}"
        while t in self._used:
            t = f"{t} {self.word()}"
        self._used.add(t)
        return t

    def sentence(self) -> str:
        ws = [self.rng.choice(FILLER), self.word(), self.rng.choice(GLUE), self.rng.choice(FILLER),
              self.word()]
        ws += [self.rng.choice(WORDS + FILLER) for _ in range(self.rng.randint(3, 10))]
        s = " ".join(ws)
        return s[0].upper() + s[1:] + "."

    def paragraph(self, lo: int = 3, hi: int = 6) -> str:
        return " ".join(self.sentence() for _ in range(self.rng.randint(lo, hi)))

    def paragraphs(self, lo: int = 2, hi: int = 4) -> list[str]:
        return [self.paragraph() for _ in range(self.rng.randint(lo, hi))]

    def person(self) -> str:
        return f"{self.rng.choice(FIRST)} {self.rng.choice(LAST)}"


def slugify(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


@dataclass
class DocNode:
    """A page of a documentation tree: ``children`` are the pages its toctree or nav
    section lists, in order. ``path`` is the slash-joined slugs from the root (``""``
    for the root), which a family may use for its source file names."""
    title: str
    slug: str
    path: str
    body: list[str]
    children: list["DocNode"] = field(default_factory=list)

    def walk(self):
        yield self
        for c in self.children:
            yield from c.walk()

    def edges(self):
        """(parent, child) node pairs, parents first."""
        for c in self.children:
            yield self, c
            yield from c.edges()


def doc_tree(seed: int | str, sections: tuple[int, int] = (4, 7), pages: tuple[int, int] = (2, 6),
             depth: int = 3, branch_share: float = 0.4, title: str | None = None) -> DocNode:
    """A manual: the root, ``sections`` top-level sections, each with ``pages`` pages, of
    which a share ``branch_share`` are sub-sections with pages of their own, down to
    ``depth`` levels below the root."""
    t = Text(seed)
    root = DocNode(title or f"{t.word().capitalize()} {t.word().capitalize()} Documentation", "",
                   "", t.paragraphs())

    def grow(node: DocNode, level: int, count: tuple[int, int]) -> None:
        for _ in range(t.rng.randint(*count)):
            title_ = t.heading() if level > 1 else t.title(1, 2)
            slug = slugify(title_)
            child = DocNode(title_, slug, f"{node.path}/{slug}".lstrip("/"), t.paragraphs())
            node.children.append(child)
            if level < depth and (level == 1 or t.rng.random() < branch_share):
                grow(child, level + 1, pages)

    grow(root, 1, sections)
    return root


@dataclass
class Category:
    title: str
    slug: str
    parent: str | None = None  # the parent category's slug


@dataclass
class Post:
    title: str
    slug: str
    date: _dt.datetime
    category: str  # the (primary) category's slug
    tags: list[str]
    author: str
    summary: str
    body: list[str]


@dataclass
class Blog:
    title: str
    categories: list[Category]
    tags: list[str]
    authors: list[str]
    posts: list[Post]  # newest first
    pages: list[tuple[str, str, list[str]]]  # standalone pages: (title, slug, body)


def blog(seed: int | str, posts: int = 40, categories: int = 5, subcategories: int = 0,
         tags: int = 12, authors: int = 3, pages: int = 2,
         start: _dt.datetime = _dt.datetime(2024, 1, 8, 9, 30)) -> Blog:
    """A blog: ``posts`` posts over about two years, each in one category (leaf or not),
    with one to three tags and one author; ``subcategories`` child categories spread over
    the top-level ones; ``pages`` standalone pages (About, ...)."""
    t = Text(seed)
    cats = []
    for _ in range(categories):
        title = t.title(1, 2)
        cats.append(Category(title, slugify(title)))
    for i in range(subcategories):
        title = t.title(1, 2)
        cats.append(Category(title, slugify(title), cats[i % categories].slug))
    tag_names = sorted({t.word() for _ in range(tags * 3)})[:tags]
    people = []
    while len(people) < authors:
        p = t.person()
        if p not in people:
            people.append(p)
    out = []
    date = start
    for _ in range(posts):
        date = date + _dt.timedelta(days=t.rng.randint(3, 25), hours=t.rng.randint(0, 8))
        title = t.heading()
        out.append(Post(title, slugify(title), date, t.rng.choice(cats).slug,
                        sorted(t.rng.sample(tag_names, t.rng.randint(1, 3))), t.rng.choice(people),
                        t.sentence(), t.paragraphs(3, 5)))
    out.reverse()
    standalone = [(name, slugify(name), t.paragraphs()) for name in ("About", "Contact", "Projects",
                                                                      "Colophon")[:pages]]
    return Blog(f"The {t.word().capitalize()} {t.word().capitalize()}", cats, tag_names, people, out,
                standalone)
