"""The site model (Carchiolo et al., Section 3): logical sections as nodes,
physical links (hyperlinks) and logical links between sections whose
keywords correlate.

A section's keywords are its terms whose weight ``weight(term)`` is at least
``KEYWORD_MIN_WEIGHT``: with the crawl's entropy weights (W = 1 - EN), words
spread over every page (the template's) weigh little and are ignored. Keywords
are matched through an inverted file (term -> sections); a term held by more
than ``MAX_POSTINGS`` sections is template-like and skipped (this also bounds
the cost). The correlation degree is C = N_match / N_terms with N_terms the
keyword count of the smaller section (so sections of different sizes compare);
a logical link needs C >= ``LOGICAL_THRESHOLD``, sections of two different
pages, at least ``MIN_KEYWORDS`` keywords each, and not two index sections (the
paper: they "probably carry the same information").

Readings of Section 3 where it is not explicit: N_terms, "the number of
keywords", is taken from the smaller section; the paper's threshold sets "the
minimal correlation for a match" and keywords match only when equal (no
synonyms), so the threshold is applied to C, as issue 5 asks; ``MAX_POSTINGS``
is our bound (a term in more than 100 sections counts in N_terms but makes no
match).

A physical link goes from the section holding the hyperlink to the target
page's first section (its document information, which stands for the page:
hyperlinks point to pages, not to sections). Only crawled pages are targets.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from skeleton.web.urls import normalize_page

__all__ = ["KEYWORD_MIN_WEIGHT", "LOGICAL_THRESHOLD", "MIN_KEYWORDS", "MAX_POSTINGS",
           "SchemaNode", "SchemaEdge", "SiteSchema", "site_schema", "correlation"]

KEYWORD_MIN_WEIGHT = 0.5
LOGICAL_THRESHOLD = 0.5
MIN_KEYWORDS = 3
MAX_POSTINGS = 100


@dataclass(frozen=True)
class SchemaNode:
    id: str
    page: str
    type: str
    xpath: str
    keywords: tuple[str, ...] = ()


@dataclass(frozen=True)
class SchemaEdge:
    source: str
    target: str
    kind: str  # "physical" or "logical"
    weight: float = 1.0


@dataclass
class SiteSchema:
    nodes: list[SchemaNode] = field(default_factory=list)
    edges: list[SchemaEdge] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"nodes": [{"id": n.id, "page": n.page, "type": n.type, "xpath": n.xpath,
                           "keywords": list(n.keywords)} for n in self.nodes],
                "edges": [{"source": e.source, "target": e.target, "kind": e.kind,
                           "weight": e.weight} for e in self.edges]}


def correlation(a: set[str], b: set[str]) -> float:
    """C = N_match / N_terms (N_terms: keywords of the smaller section)."""
    terms = min(len(a), len(b))
    return len(a & b) / terms if terms else 0.0


def _identity(url: str) -> str:
    try:
        return normalize_page(url)
    except ValueError:
        return url


def site_schema(pages: Mapping[str, Sequence[Mapping]],
                weight: Callable[[str], float] = lambda term: 1.0,
                threshold: float = LOGICAL_THRESHOLD) -> SiteSchema:
    """The schema of a site from ``pages``: page URL -> its section records
    (``type``, ``xpath``, ``terms``, ``links``, as ``sections.section_records``
    makes them). Odd records are skipped; no pages give an empty schema."""
    schema = SiteSchema()
    first: dict[str, str] = {}
    keywords: dict[str, set[str]] = {}
    kinds: dict[str, str] = {}
    owner: dict[str, str] = {}
    links: list[tuple[str, Iterable[str]]] = []
    for page in sorted(pages):
        sections = pages[page]
        if not isinstance(sections, (list, tuple)):
            continue
        for i, record in enumerate(sections):
            if not isinstance(record, Mapping):
                continue
            sid = f"{page}#s{i}"
            terms = [t for t in record.get("terms") or [] if isinstance(t, str)]
            kept = {t for t in terms if weight(t) >= KEYWORD_MIN_WEIGHT}
            kind = str(record.get("type") or "")
            schema.nodes.append(SchemaNode(sid, page, kind, str(record.get("xpath") or ""),
                                           tuple(sorted(kept))))
            first.setdefault(_identity(page), sid)
            keywords[sid], kinds[sid], owner[sid] = kept, kind, page
            links.append((sid, [u for u in record.get("links") or [] if isinstance(u, str)]))
    seen: set[tuple[str, str]] = set()
    for sid, urls in links:
        for url in urls:
            target = first.get(_identity(url))
            if target and target != sid and (sid, target) not in seen:
                seen.add((sid, target))
                schema.edges.append(SchemaEdge(sid, target, "physical"))
    schema.edges += _logical_links(keywords, kinds, owner, threshold)
    return schema


def _logical_links(keywords: Mapping[str, set[str]], kinds: Mapping[str, str],
                   owner: Mapping[str, str], threshold: float) -> list[SchemaEdge]:
    postings: dict[str, list[str]] = {}
    for sid, terms in keywords.items():
        if len(terms) >= MIN_KEYWORDS:
            for term in terms:
                postings.setdefault(term, []).append(sid)
    matches: Counter[tuple[str, str]] = Counter()
    for term, sids in postings.items():
        if len(sids) > MAX_POSTINGS:
            continue
        for i, a in enumerate(sids):
            for b in sids[i + 1:]:
                if owner[a] != owner[b] and not (kinds[a] == kinds[b] == "index"):
                    matches[(a, b) if a < b else (b, a)] += 1
    out = []
    for (a, b), count in sorted(matches.items()):
        degree = count / min(len(keywords[a]), len(keywords[b]))
        if degree >= threshold:
            out.append(SchemaEdge(a, b, "logical", round(degree, 4)))
    return out
