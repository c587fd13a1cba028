"""Collections mapped to logical sections (Carchiolo et al., Sections 2.1, 2.2).

* document information: the collection rooted by ``<head>``;
* interactive: a collection with ``<form>``, ``<input>``, ``<select>`` (or
  ``<textarea>``, ``<button>``);
* header: a collection in the first third of the page whose keywords meet the
  ``<title>``'s or the page URL's; the one nearest to the beginning;
* footer: a collection in the last third with a ``mailto:`` link or copyright,
  privacy, legal or terms wording; the one nearest to the end;
* index: links dominate: at most ``INDEX_WORDS_PER_LINK`` words of text outside
  the links per link;
* logical data: the other collections with text.

Collections with neither text nor links (an ``<hr>`` separator) are no
section.

Readings of Section 2.2 where it is not explicit: the header and footer
candidates are looked for only in the first and last third of the collections
(the paper picks the candidate "nearest to the beginning"/"end" and says the
header "is generally placed near to the beginning"); that the footer "can also
contain the same information of the header" is read as a possibility, not as a
criterion (on a short page the data section repeats the title's words); the
index/data split compares words outside links with the number of links, the
paper giving no ratio. Every function here is iterative and never raises on odd markup.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit

from lxml import etree

from skeleton.entropy.terms import SKIPPED_TAGS, count_terms, tokenize
from skeleton.web.urls import resolve

from .collections import Collection, page_collections
from .primary import primary_nodes

__all__ = ["SECTION_TYPES", "INDEX_WORDS_PER_LINK", "MAX_SECTION_TERMS", "MAX_SECTION_LINKS",
           "Section", "page_sections", "section_records"]

SECTION_TYPES = ("document_information", "header", "footer", "index", "logical_data", "interactive")
#: A collection is an index when its text outside links has at most this many
#: words per link (Section 2.2: words of text compared with the number of links).
INDEX_WORDS_PER_LINK = 3.0
#: Keywords kept per section (the most frequent terms) and links kept per section.
MAX_SECTION_TERMS = 30
MAX_SECTION_LINKS = 1000
#: Header and footer are looked for in this first and last share of the collections.
EDGE_SHARE = 1 / 3
_FOOTER = re.compile(r"©|&copy;|\(c\)|copyright|all rights reserved|privacy|legal|terms of|"
                     r"disclaimer|webmaster|imprint|licen[cs]e", re.I)
_URL_NOISE = frozenset({"html", "htm", "php", "asp", "aspx", "index", "www", "com", "org", "net"})
_FORM_TAGS = ("form", "input", "select", "textarea", "button")


@dataclass
class Section:
    """A logical section of a page: its type, XPath, keywords and links."""

    type: str
    xpath: str
    terms: dict[str, int] = field(default_factory=dict)
    links: list[str] = field(default_factory=list)
    words: int = 0

    def record(self) -> dict:
        """JSON-safe form stored with the page item."""
        return {"type": self.type, "xpath": self.xpath, "terms": sorted(self.terms),
                "links": self.links}


@dataclass
class _Facts:
    collection: Collection
    text: str
    link_words: int
    words: int
    links: list[str]
    mailto: bool
    form: bool
    head: bool


def _texts(el: etree._Element) -> tuple[list[str], list[str]]:
    """(all text pieces, text pieces inside links) of a subtree, iteratively."""
    pieces: list[str] = []
    in_links: list[str] = []
    anchors = 0
    for event, node in etree.iterwalk(el, events=("start", "end")):
        tag = node.tag if isinstance(node.tag, str) else ""
        if event == "start":
            if tag == "a":
                anchors += 1
            if node.text and tag not in SKIPPED_TAGS:
                pieces.append(node.text)
                if anchors:
                    in_links.append(node.text)
            if tag == "img" and node.get("alt"):
                pieces.append(node.get("alt"))
        else:
            if tag == "a":
                anchors -= 1
            if node is not el and node.tail:
                pieces.append(node.tail)
                if anchors:
                    in_links.append(node.tail)
    return pieces, in_links


def _facts(collection: Collection, page_url: str) -> _Facts:
    pieces: list[str] = []
    in_links: list[str] = []
    links: list[str] = []
    mailto = form = False
    for member in collection.members:
        texts, linked = _texts(member)
        pieces += texts
        in_links += linked
        for el in member.iter():
            tag = el.tag if isinstance(el.tag, str) else ""
            if tag == "a" and el.get("href") is not None:
                href = el.get("href") or ""
                mailto = mailto or href.strip().lower().startswith("mailto:")
                url = resolve(href, page_url)
                if url and len(links) < MAX_SECTION_LINKS:
                    links.append(url)
            elif tag in _FORM_TAGS:
                form = True
    text = " ".join(" ".join(pieces).split())
    words, link_words = len(text.split()), len(" ".join(in_links).split())
    head = collection.single and collection.root.tag == "head"
    return _Facts(collection, text, link_words, words, list(dict.fromkeys(links)), mailto, form, head)


def _xpath(collection: Collection) -> str:
    tree = collection.root.getroottree()
    if collection.single:
        return tree.getpath(collection.root)
    members = collection.members
    parents = {id(m.getparent()) for m in members}
    first = members[0]
    if len(parents) == 1 and first.getparent() is not None:
        same = [c for c in first.getparent() if c.tag == first.tag]
        start, end = same.index(first) + 1, same.index(members[-1]) + 1
        return f"{tree.getpath(first.getparent())}/{first.tag}[position() >= {start} and position() <= {end}]"
    return " | ".join(tree.getpath(m) for m in members)


def _identity_terms(root: etree._Element, page_url: str, stop: frozenset[str]) -> set[str]:
    title = " ".join(str(root.xpath("string(//title)")).split())
    try:
        path = unquote(urlsplit(page_url).netloc + " " + urlsplit(page_url).path)
    except ValueError:
        path = ""
    words = {t for t in tokenize(title) + tokenize(path) if t not in stop and len(t) > 2}
    return words - _URL_NOISE


def page_sections(root: etree._Element | None, page_url: str,
                  stop: frozenset[str] = frozenset()) -> list[Section]:
    """The logical sections of a page in document order ([] for no page)."""
    if root is None:
        return []
    facts = [_facts(c, page_url) for c in page_collections(primary_nodes(root))]
    types: list[str | None] = [None] * len(facts)
    edge = max(1, round(len(facts) * EDGE_SHARE))
    identity = _identity_terms(root, page_url, stop)
    for i, f in enumerate(facts):
        if f.head:
            types[i] = "document_information"
        elif f.form:
            types[i] = "interactive"
    for i, f in enumerate(facts[:edge]):
        if types[i] is None and f.words and identity & set(tokenize(f.text)):
            types[i] = "header"
            break
    for i in range(len(facts) - 1, len(facts) - 1 - edge, -1):
        f = facts[i]
        if i >= 0 and types[i] is None and (f.mailto or (f.words and _FOOTER.search(f.text))):
            types[i] = "footer"
            break
    out = []
    for f, kind in zip(facts, types):
        if kind is None:
            if f.links and f.words - f.link_words <= INDEX_WORDS_PER_LINK * len(f.links):
                kind = "index"
            elif f.words:
                kind = "logical_data"
            else:
                continue
        terms = Counter(count_terms(f.text, stop)).most_common(MAX_SECTION_TERMS)
        out.append(Section(kind, _xpath(f.collection), dict(terms), f.links, f.words))
    return out


def section_records(root: etree._Element | None, page_url: str,
                    stop: frozenset[str] = frozenset()) -> list[dict]:
    """``page_sections`` as JSON-safe dicts (``type``, ``xpath``, ``terms``, ``links``)."""
    return [s.record() for s in page_sections(root, page_url, stop)]
