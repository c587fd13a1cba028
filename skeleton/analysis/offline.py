"""FINDSKELETON (SEW Section 3.4, Figure 4) over an in-memory site.

The crawler analyses one response at a time; this function runs the same
analysis (:func:`.page.analyse_page`) over a ``fetch(url) -> bytes | None``
callable, breadth-first, and is what training, the offline benchmarks, tests and
quick experiments use. Each page records its offers and
evidence as the crawl's pipeline does, and :func:`skeleton_edges` resolves the
tree from them as ``scrapy tree`` does (:mod:`skeleton.hierarchy.resolve`).
Below the root every page is detected with the root's LinkSetDup context, as
in the crawl, so detection does not depend on which parent found a page.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from skeleton.hierarchy.aliases import apply_aliases
from skeleton.hierarchy.offers import kept_offers, origin_of
from skeleton.hierarchy.resolve import FAILED_REASON, resolve_tree
from skeleton.sew.detect import Detection, detect_in_links, detect_navigation
from skeleton.sew.links import LinkNode
from skeleton.sew.model import SEWModel
from skeleton.urlrules.actions import action_path
from skeleton.urlrules.duplicates import compare_variants, content_fingerprint, learned_rules
from skeleton.urlrules.slash import SLASH_DIFF, bare_url, slash_vote, with_slash
from skeleton.urlrules.tracking import strip_tracking
from skeleton.web.dom import parse_html
from skeleton.web.frames import parse_with_frames
from skeleton.web.urls import canonical, in_scope

from skeleton.navobjects.detector import PageDetector

from .page import analyse_page, scope_filter

__all__ = ["NOT_FOUND_STATUS", "PageResult", "find_skeleton", "fetch_count", "page_records", "skeleton_edges"]

#: the ``status`` of a page ``fetch`` answers with None (no file): the crawl's Not Found
NOT_FOUND_STATUS = "404"


@dataclass
class PageResult:
    url: str
    depth: int
    title: str
    is_navigation: bool
    nav_links: list[tuple[str, str, int]]  # (parent, child, child depth)
    #: child URL -> offer (:mod:`skeleton.hierarchy.offers`)
    offers: dict = field(default_factory=dict)
    #: the page's own evidence of its place (:mod:`skeleton.hierarchy.evidence`)
    evidence: dict = field(default_factory=dict)
    #: why the page is no node ("form", "language"), as the spider records it
    reason: str | None = None
    #: other URLs found to be pages the crawl knows (alias -> URL): the page's own
    #: URL when its canonical link names another, stripped and duplicate variants;
    #: a URL mapped to itself withdraws an earlier page's alias (a slash guessed wrong)
    aliases: dict = field(default_factory=dict)
    #: False for a redirect the crawl knew without asking (a learned trailing slash)
    fetched: bool = True
    #: of a page that failed (``reason`` ``failed``): ``"404"`` for a URL ``fetch`` has
    #: no page for, as the crawl records a Not Found
    status: str | None = None


def find_skeleton(base_url: str, fetch: Callable[[str], bytes | str | None], model: SEWModel,
                  max_depth: int | None = None, max_pages: int | None = None,
                  scope: str | None = None,
                  links_of: Callable[[str], list[LinkNode]] | None = None,
                  detector: PageDetector | None = None, frames: bool = True,
                  context: str = "root", menu: set[str] | frozenset[str] = frozenset(),
                  menu_min_depth: int = 2, url_rules: bool = True,
                  language: str | None = None, skip: Sequence[re.Pattern[str]] = ()) -> Iterator[PageResult]:
    """Yield every page the SEW crawl fetches, in breadth-first order.

    ``links_of(url)``, when given, replaces fetching and parsing (pages' link
    nodes cached by the caller, or a redirect's target URL as ``fetch`` gives it;
    titles are then left empty). ``detector``, when
    given, replaces SEW's detection: ``detector(root, url, base_url, known,
    template) -> Detection`` (e.g. ``skeleton.navobjects.make_detector``). With
    ``frames``, a page's same-site frames are read as part of it (:mod:`skeleton.web.frames`), as
    the crawl's frames middleware does. ``context="path"`` detects each page with
    its breadth-first ancestors' navigation sets instead of the root's (SEW's
    LinkSetDup as in the paper; it depends on which parent found a page first,
    and is kept to compare the two). ``menu`` (a site's template menu) is added to
    the template sets of pages at ``menu_min_depth`` and deeper, as the crawl's
    ``-a template_menu`` does. With ``url_rules`` (the crawl's defaults), the rules of
    one page, one node apply as in the crawl (:mod:`skeleton.urlrules`): tracking
    parameters and learned variants are stripped before a page is queued, a
    canonical link renames a page (the page is not analysed again under its own
    URL), action, nofollow, view and language-copy links are not followed, and form
    pages and pages in another ``language`` (default: the base page's) are leaves. A
    link the user's ``skip`` patterns match is not followed, as with the crawl's
    ``-a skip`` (:mod:`skeleton.urlrules.skip`).
    ``fetch`` may answer a redirect with the target's URL (a ``str``): the page is then
    recorded with the target as its alias and the target is fetched, as the crawl's
    redirect middleware records it (:mod:`skeleton.hierarchy.aliases`). Each redirect
    and each answer to a bare URL votes on whether the site adds the trailing slash
    (:mod:`skeleton.urlrules.slash`); once it does, a bare URL is redirected to its
    slashed form without a fetch (a result with ``fetched`` False), as the crawl's
    slash middleware does, and a guess ``fetch`` answers with None is fetched again
    as linked, its alias withdrawn. Any other URL ``fetch`` answers with None is
    recorded as the crawl records a Not Found: ``reason`` ``failed``, ``status``
    ``NOT_FOUND_STATUS`` (no node of the tree)."""
    base_url = canonical(base_url)  # as the spider does with -a base
    scope = scope or base_url
    queue: list[tuple[str, int, list[set[str]], list[set[str]]]] = [(base_url, 0, [], [])]
    seen = {base_url}
    fingerprints: dict[str, str] = {}
    waiting: dict[str, list[tuple[str, str, tuple[str, ...], str]]] = {}
    votes: Counter[str] = Counter()
    forms: set[str] = set()
    guessed: dict[str, str] = {}  # a slashed guess queued -> the bare URL it stands for
    as_linked: set[str] = set()  # bare URLs whose guess failed: fetched as they are
    rules = learned_rules({})
    # the action rules read each link with its text
    skip_link = scope_filter(scope, skip_actions=False, skip=skip)

    def sew_detector(root: Any, page: str, home: str, known: list[set[str]],
                     template: list[set[str]]) -> Detection:
        return detect_navigation(root, page, model, known, home, template)

    for url, depth, known, template in queue:
        if max_pages is not None and max_pages <= 0:
            return
        if max_pages is not None:
            max_pages -= 1
        shown = [*template, set(menu)] if menu and depth >= menu_min_depth else template
        if url_rules and rules.slash and url not in as_linked and bare_url(url):
            target = canonical(with_slash(url))  # the redirect the site was learned to make
            if target not in seen:
                seen.add(target)
                guessed[target] = url
                queue.append((target, depth, known, template))
            yield PageResult(url, depth, "", False, [], {}, {}, None, {url: target}, fetched=False)
            continue
        source = links_of(url) if links_of is not None else fetch(url)
        linked = guessed.pop(url, None)
        if linked is not None and source is None:  # the site does not add the slash here
            votes[SLASH_DIFF] += 1
            rules = learned_rules(votes)
            as_linked.add(linked)
            queue.append((linked, depth, known, template))
            yield PageResult(url, depth, "", False, [], {}, {}, None, {url: linked, linked: linked})
            continue
        if linked is None and url_rules and source:
            vote = slash_vote(url, source if isinstance(source, str) else url, isinstance(source, str))
            if vote:
                votes[vote] += 1
                rules = learned_rules(votes)
        if source is None and links_of is None:  # Not Found: recorded as the crawl records it
            yield PageResult(url, depth, "", False, [], {}, {}, FAILED_REASON, {}, status=NOT_FOUND_STATUS)
            continue
        if isinstance(source, str):  # a redirect: the page is its target's alias
            target = canonical(source)
            if target and in_scope(target, scope) and target not in seen:
                seen.add(target)
                queue.append((target, depth, known, template))
            yield PageResult(url, depth, "", False, [], {}, {}, None, {url: target} if target else {})
            continue
        if links_of is not None:
            root = None
            nodes = source

            def detect(_root: Any, page: str, home: str, known: list[set[str]],
                       template: list[set[str]]) -> Detection:
                return detect_in_links(nodes, page, home, model, known, template)
        else:
            root = (parse_with_frames(source, url, fetch) if frames else parse_html(source)) if source else None
            detect = detector or sew_detector
        found = analyse_page(root, url, base_url, skip_link, detector=detect, known=known, template=shown,
                             language=language, home=depth == 0, url_rules=url_rules)
        language = found.language if depth == 0 and language is None else language
        aliases: dict[str, str] = {}
        if found.leaf or found.declared:
            if found.leaf == "form":
                forms.add(action_path(url))
            if found.declared:
                aliases[url] = found.declared
                if found.declared not in seen:
                    seen.add(found.declared)
                    queue.append((found.declared, depth, known, template))
            yield PageResult(url, depth, found.title, False, [], {}, {}, found.leaf, aliases)
            continue
        if url_rules and root is not None:
            fingerprint = content_fingerprint(root)
            if fingerprint:
                variants = compare_variants(url, fingerprint, fingerprints, waiting.pop(url, []))
                for candidate in variants.pending:
                    waiting.setdefault(candidate.url, []).append(
                        (url, candidate.kind, candidate.names, fingerprint))
                votes.update(variants.votes)
                aliases.update(variants.aliases)
                fingerprints[url] = fingerprint
                rules = learned_rules(votes)
        detection = found.detection
        edges = [(parent, child, depth + level) for child, _, parent, level in found.followed]
        if url_rules:  # queued under the URL the crawl requests; the link's URL is an alias
            for _, child, _ in edges:
                cleaned = rules.clean(strip_tracking(child))
                if cleaned != child:
                    aliases[child] = canonical(cleaned) or cleaned
        yield PageResult(url, depth, found.title, found.is_navigation, edges, found.offers, found.evidence,
                         None, aliases)
        # the ancestors the page declares are fetched too (as the spider does)
        declared = [(url, place, depth + 1) for place in found.places]
        if max_depth is not None and depth >= max_depth:
            continue
        if depth == 0 or context == "path":
            child_known, child_template = detection.context_for_children(known)
        if depth == 0:
            root_context = child_known, child_template
        elif context == "root":
            child_known, child_template = root_context
        for _, child, child_depth in edges + declared:
            if max_depth is not None and child_depth > max_depth:
                continue
            child = aliases.get(child, child)
            if url_rules and action_path(child) in forms:
                continue
            if child not in seen:
                seen.add(child)
                queue.append((child, child_depth, child_known, child_template))


def fetch_count(pages: list[PageResult]) -> int:
    """The requests an offline crawl made: its results, less the redirects it knew
    without asking (``fetched`` False)."""
    return sum(1 for page in pages if page.fetched)


def page_records(pages: list[PageResult]) -> tuple[dict[str, dict], dict[str, list[dict]]]:
    """The page records and offers (child -> offers) of an offline crawl, as the
    crawl's pipeline stores them in Redis (no offer to the root; each child keeps
    :func:`skeleton.hierarchy.offers.kept_offers`), with the pages' aliases applied
    as the crawl applies ``:aliases`` (:func:`skeleton.hierarchy.aliases.apply_aliases`)."""
    records = {p.url: {"evidence": p.evidence, "reason": p.reason, **({"status": p.status} if p.status else {}),
                       "nav_links": [{"url": child} for _, child, _ in p.nav_links]}
               for p in pages if p.url not in p.aliases}
    offers: dict[str, list[dict]] = {}
    aliases: dict[str, str] = {}
    root = pages[0].url if pages else ""
    for page in pages:
        aliases.update(page.aliases)
        for child, offer in page.offers.items():
            if child != root:  # offers to the root are never stored
                offers.setdefault(child, []).append(offer)
    aliases = {alias: url for alias, url in aliases.items() if alias != url}
    origin = origin_of(root)
    offers = {child: kept_offers(child, made, origin) for child, made in offers.items()}
    if not pages or not aliases:
        return records, offers
    _, records, offers = apply_aliases(pages[0].url, records, offers, aliases)
    return records, offers


def skeleton_edges(pages: Iterator[PageResult] | list[PageResult],
                   edge_model: Mapping[str, Any] | None = None) -> list[tuple[str, str]]:
    """The tree (:func:`skeleton.hierarchy.resolve.resolve_tree`) of the fetched
    pages, as sorted ``(parent, child)`` edges, scored by ``edge_model`` (a SEW
    model's ``edges``; None: the shortest-path rule)."""
    pages = list(pages)
    if not pages:
        return []
    records, offers = page_records(pages)
    tree = resolve_tree(pages[0].url, records, offers, edge_model)
    return sorted((edge["parent"], child) for child, edge in tree.items())

