"""Navigation link set detection on one page: GENCANLINKSETS then SELECTNAVLINKSET.

An empty result makes the page a content page (a leaf of the skeleton).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from lxml import etree

from skeleton.budget import checkpoint

from .candidates import CandidateParams, gen_candidate_link_sets
from .features import link_set_features
from .links import LinkNode, extract_links
from .model import SEWModel
from .nesting import directory_hosts, misplaced_hosts, nest_link_sets
from .selection import log_confidence, prob, select

#: how many ancestors' navigation link sets LinkSetDup compares with
KNOWN_ANCESTORS = 8

__all__ = ["KNOWN_ANCESTORS", "NavLink", "Detection", "candidate_params", "detect_navigation", "detect_in_links"]


@dataclass(frozen=True, slots=True)
class NavLink:
    """A navigation link: its URL, SecName, and the page it hangs from (the page
    itself, or for a nested table of contents, the URL of the enclosing entry)."""

    url: str
    text: str
    parent: str


@dataclass
class Detection:
    """What SELECTNAVLINKSET decided for a page."""

    nav_sets: list[list[LinkNode]] = field(default_factory=list)
    #: the candidates that were not accepted: the page's template blocks
    rejected_sets: list[list[LinkNode]] = field(default_factory=list)
    #: PROB of the best candidate's combined confidence (0.0 without candidates)
    confidence: float = 0.0
    candidates: int = 0
    links: int = 0
    #: the hrefs of the page's links that cannot be read as URLs, one per link, in
    #: document order (:func:`skeleton.sew.links.unparsable_links`), when the detector
    #: gives them
    unparsable: list[str] = field(default_factory=list)
    #: the page's links in document order, when the detector gives them: a nested
    #: list's group head may be in no accepted set (:func:`.nesting.nest_link_sets`)
    page_links: Sequence[LinkNode] = ()
    #: the LinkSetDup context the detection ran with, when the detector gives it: the
    #: ancestors' navigation URL sets and the template URL sets
    known: Sequence[set[str]] = ()
    template: Sequence[set[str]] = ()

    @property
    def is_navigation(self) -> bool:
        return bool(self.nav_sets)

    def context_for_children(self, known: Sequence[set[str]]) -> tuple[list[set[str]], list[set[str]]]:
        """LinkSetDup context of this page's children: the navigation link sets of
        their ancestors (at most ``KNOWN_ANCESTORS``), and this page's rejected
        candidates, which a child repeating them shows to be template blocks."""
        accepted = (list(known) + _url_sets(self.nav_sets))[-KNOWN_ANCESTORS:]
        return accepted, _url_sets(self.rejected_sets)

    def nav_links(self, page_url: str) -> list[NavLink]:
        """The accepted links that lead to other pages, first occurrence of each URL."""
        hosts = nest_link_sets(self.nav_sets, self.page_links)
        hosts.update(misplaced_hosts(self.nav_sets, hosts, page_url))
        dir_hosts = directory_hosts(self.nav_sets, page_url)
        seen = {page_url}
        out = []
        for link_set in sorted(self.nav_sets, key=lambda s: (s[0].depth, s[0].number)):
            for link in link_set:
                if link.url and link.url not in seen:
                    seen.add(link.url)
                    host = hosts.get(link.number)
                    if host is None or host.url not in seen:
                        host = dir_hosts.get(link.number)
                    parent = host.url if host is not None else page_url
                    out.append(NavLink(link.url, link.sec_name, parent))
        return out


def _url_sets(sets: Sequence[Sequence[LinkNode]]) -> list[set[str]]:
    return [u for u in ({link.url for link in s if link.url} for s in sets) if u]


def candidate_params(model: SEWModel) -> CandidateParams:
    return CandidateParams(model.min_nl, model.max_nl, model.max_num_word,
                           model.disdiff_z, model.linkset_dup_jaccard)


def detect_in_links(links: Sequence[LinkNode], page_url: str, home_url: str,
                    model: SEWModel, known: Sequence[set[str]] = (),
                    template: Sequence[set[str]] = ()) -> Detection:
    candidates = gen_candidate_link_sets(links, candidate_params(model), [*known, *template])
    scores = []
    for candidate in candidates:
        checkpoint()
        scores.append(log_confidence(link_set_features(candidate, page_url, home_url), model))
    chosen = select(scores, model, candidates)
    best = max(scores) if scores else None
    return Detection(
        nav_sets=[candidates[i] for i in chosen],
        rejected_sets=[c for i, c in enumerate(candidates) if i not in set(chosen)],
        confidence=prob(best, model.mu_c, model.sigma_c) if best is not None else 0.0,
        candidates=len(candidates), links=len(links), page_links=links, known=known, template=template)


def detect_navigation(root: etree._Element | None, page_url: str, model: SEWModel,
                      known: Sequence[set[str]] = (), home_url: str | None = None,
                      template: Sequence[set[str]] = ()) -> Detection:
    """Detect the navigation link sets of the page parsed as ``root``.

    ``known`` holds the URL sets of the navigation link sets of the page's
    ancestors (LinkSetDup); ``template`` the URL sets of the parent's rejected
    candidates (a block the parent also shows, and did not take for navigation, is
    template here too); ``home_url`` is the site's base URL (VarURLNumDir).
    """
    links = extract_links(root, page_url)
    return detect_in_links(links, page_url, home_url or page_url, model, known, template)
