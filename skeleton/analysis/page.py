"""One page's analysis, as the crawl and the offline FINDSKELETON both run it.

:func:`analyse_page` takes plain data (the page's parsed tree and URLs, the crawl's
base and link filter, its language, the LinkSetDup context and a detector) and
returns a :class:`PageAnalysis`: why the page is a leaf, the page it declares
itself a copy of (its canonical link), its evidence, navigation sets, followed
links, offers and declared places. It fetches nothing, stores nothing and counts
nothing: the spider (:mod:`skeleton.spiders.skeleton`) turns the result into
requests, an item and stats; the offline loop (:mod:`.offline`) into the next
pages of its queue and a :class:`.offline.PageResult`.

The steps, in order (SEW Section 3.4 plus the rules of one page, one node,
:mod:`skeleton.urlrules`): the page's title and language; its leaf reason (a page
in another language, a form page); its canonical link (the page's node URL); its
evidence of its place (:mod:`skeleton.hierarchy.evidence`); its navigation links
(a detector, SEW's by default, or every link: the ``bfs`` baseline); why the page
itself says not to follow some (:func:`skeleton.urlrules.links.link_skip_reasons`);
the links followed (:func:`skeleton.sew.edges.followed_links`); the offers they make
(:mod:`skeleton.hierarchy.offers`); the places the evidence declares that no
followed link reaches. :func:`skeleton.budget.checkpoint` between the steps: the
caller's deadline (:func:`skeleton.budget.within`) cuts a slow page.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from skeleton.budget import checkpoint
from skeleton.hierarchy.evidence import declared_places, page_evidence
from skeleton.hierarchy.offers import page_offers, repeated_sets
from skeleton.hierarchy.pagination import is_later_page
from skeleton.navobjects.detector import PageDetector
from skeleton.sew.detect import Detection, NavLink
from skeleton.sew.edges import followed_links
from skeleton.sew.links import extract_links, unparsable_links
from skeleton.sew.nesting import directory_index, folder_holds, section_folder
from skeleton.urlrules.actions import action_reason
from skeleton.urlrules.canonical_link import canonical_link
from skeleton.urlrules.content import main_element
from skeleton.urlrules.language import page_language
from skeleton.urlrules.links import leaf_reason, link_skip_reasons
from skeleton.urlrules.skip import SKIP_REASON, skipped
from skeleton.web.dom import page_title
from skeleton.web.urls import in_scope, same_host, split_url, trap_reason

__all__ = ["PLACE_EVIDENCE", "UNPARSABLE_REASON", "Followed", "LinkFilter", "PageAnalysis", "analyse_page",
           "later_page_items", "scope_filter"]

#: the evidence that names a page's own places (its ancestors, the menu trail to it),
#: not items it lists (:func:`skeleton.hierarchy.evidence.page_evidence`)
PLACE_EVIDENCE = ("crumbs", "above", "up", "filed", "trail")

#: why a link whose href cannot be read as a URL is skipped; counted as ``skeleton/REASON``
UNPARSABLE_REASON = "links/unparsable"

#: URL -> why the crawl does not request it (out of its scope, a trap, ...), or None
LinkFilter = Callable[[str], str | None]
#: a followed link: ``(url, text, parent, level)`` (:func:`skeleton.sew.edges.followed_links`)
Followed = tuple[str, str, str, int]


@dataclass(frozen=True)
class PageAnalysis:
    """What one page says about the tree. ``url`` is the page's node: the page its
    canonical link names (``declared``), else its own URL. A ``leaf`` page
    (``"language"``, ``"form"``) has no links, evidence nor offers."""

    url: str
    title: str = ""
    #: the language the page declares (primary subtag), "" for none
    lang: str = ""
    #: the crawl's language for the pages below (the home page's when none was given)
    language: str | None = None
    #: why the page is a leaf and no node (:func:`skeleton.urlrules.links.leaf_reason`)
    leaf: str | None = None
    #: the other page of the crawl its canonical link names (then ``url``)
    declared: str | None = None
    #: the page's evidence of its place (:func:`skeleton.hierarchy.evidence.page_evidence`)
    evidence: dict[str, list[str]] = field(default_factory=dict)
    #: the detector's result; None for a leaf and for the ``bfs`` baseline
    detection: Detection | None = None
    #: the hrefs that cannot be read as URLs, one per link (skipped)
    unparsable: tuple[str, ...] = ()
    #: the links followed, in order
    followed: list[Followed] = field(default_factory=list)
    #: why each skipped link is skipped, one reason per link
    skipped: list[str] = field(default_factory=list)
    #: child URL -> offer (:func:`skeleton.hierarchy.offers.page_offers`)
    offers: dict[str, Any] = field(default_factory=dict)
    #: the places the evidence declares (:func:`skeleton.hierarchy.evidence.declared_places`)
    #: that no followed link reaches and the crawl may request
    places: list[str] = field(default_factory=list)

    @property
    def is_navigation(self) -> bool:
        """Does the page hold navigation: accepted navigation sets, or (``bfs``) any
        link followed."""
        return bool(self.detection.nav_sets) if self.detection is not None else bool(self.followed)


def scope_filter(scope: str, skip_actions: bool = True, skip: Sequence[re.Pattern[str]] = ()) -> LinkFilter:
    """The crawl's filter of the URLs it may request: ``links/unparsable``,
    ``filtered/not_http``, ``filtered/offsite`` (another host or port),
    ``filtered/out_of_scope`` (outside the directory of ``scope``, the base URL),
    ``trap/KIND`` (:func:`skeleton.web.urls.trap_reason`), ``skipped/user`` (a URL
    one of the user's ``skip`` patterns matches, :mod:`skeleton.urlrules.skip`) and,
    with ``skip_actions``, ``skipped/action/KIND`` (an action URL: cart, login, ...),
    else None."""
    def reason(url: str) -> str | None:
        parts = split_url(url)
        if parts is None:
            return UNPARSABLE_REASON
        if not url or parts.scheme not in ("http", "https"):
            return "filtered/not_http"
        if not same_host(url, scope):
            return "filtered/offsite"
        if not in_scope(url, scope):
            return "filtered/out_of_scope"
        trap = trap_reason(url)
        if trap:
            return f"trap/{trap}"
        if skipped(url, skip):
            return SKIP_REASON
        action = action_reason(url) if skip_actions else None
        return f"skipped/{action}" if action else None

    return reason


def later_page_items(page: str, evidence: dict[str, list[str]], raw: Sequence[NavLink],
                     followed: Sequence[Followed], links: Callable[[], Sequence[Any]],
                     context: Sequence[set[str]]) -> list[NavLink]:
    """The items of a later page of a listing (``page/2/``, ``?page=3``: a page whose
    pager links its first page, :func:`skeleton.hierarchy.pagination.is_later_page`)
    when its main content follows none (``followed``: its pager links, its own places
    and the index pages of the folders holding it at most; a footer or sidebar set
    outside the main content may be followed): the links of its main content
    (``links()``, called only for a later page; a sidebar's links are no items) that are in no
    set of the crawl's LinkSetDup ``context`` (menus, template blocks), in none of
    its navigation sets (``raw``: followed or skipped already), no pager link, no
    place of its own, not the page and no index page of a folder below the
    listing's own (a sub-section, a year's archive: its first page lists those), in
    document order. A listing's last page holding one or two
    items makes no link set (SEW's sets have at least ``min_nl`` links), and its items
    would be reached from no page. Empty for any other page. One pass over ``links()``
    (:class:`skeleton.sew.links.LinkNode` objects)."""
    pager = [url for url in evidence.get("pager") or () if isinstance(url, str)]
    firsts = [first for first in pager if is_later_page(page, first)]
    if not firsts:
        return []
    below = [folder for first in firsts if (folder := directory_index(first)) is not None]
    own = {page, *pager, *(url for name in PLACE_EVIDENCE for url in evidence.get(name) or ())}
    main = links()
    blocking = {entry[0] for entry in followed if entry[0] not in own and not folder_holds(entry[0], page)}
    if blocking and any(link.url in blocking for link in main):
        return []  # its main content follows a set: that is its listing
    own.update(link.url for link in raw)
    shown = set().union(*context) if context else set()
    items: dict[str, NavLink] = {}
    for link in main:
        url = link.url
        if url and url not in own and url not in shown and url not in items and not _sub_listing(url, below):
            items[url] = NavLink(url, link.sec_name, page)
    return list(items.values())


def _sub_listing(url: str, folders: Sequence[str]) -> bool:
    """Is ``url`` the index page of a folder below one of ``folders`` (a listing's own
    folders: a sub-section, a year's archive, found on the listing's first page), or
    a name without extension there (``/archives/2024``)?"""
    folder = directory_index(url)
    if folder is None:
        parts = split_url(url)
        if parts is None or "." in parts.path.rsplit("/", 1)[-1]:
            return False  # a file (``/archives/post.html``) is an item
        folder = section_folder(url)
    return any(folder != top and folder.startswith(top) for top in folders)


def analyse_page(root: Any, url: str, base: str, skip: LinkFilter, *,
                 detector: PageDetector | None = None,
                 known: Sequence[set[str]] = (), template: Sequence[set[str]] = (),
                 language: str | None = None, home: bool = False, aliases: Sequence[str] = (),
                 skip_actions: bool = True, url_rules: bool = True,
                 attributes: str | None = None) -> PageAnalysis:
    """Analyse the page ``url`` (canonical) whose parsed tree is ``root`` (None: a page
    that could not be read; its detection still runs, over no links).

    ``base``: the crawl's home URL (canonical links, detection); ``skip``: the
    crawl's filter of the URLs it may request (:func:`scope_filter`); ``detector``:
    the page's navigation detection (``(root, url, base, known, template) ->
    Detection``: SEW's, or :func:`skeleton.navobjects.detector.make_detector`'s)
    with the LinkSetDup context ``known`` and ``template`` (None: every link is
    followed, the ``bfs`` baseline);
    ``language``: the crawl's language (None or "": not decided; the page's own
    when it is the ``home`` page); ``aliases``: the page's other URLs (the URLs
    that redirected to it), never followed; ``skip_actions``: the action rules
    (``SKELETON_SKIP_ACTIONS``); ``url_rules`` false reads the page as SEW alone
    does (no leaf, canonical link nor link rules: an offline comparison);
    ``attributes``: the page's :func:`skeleton.web.dom.attribute_text`, when the
    caller has it."""
    rules = url_rules and root is not None
    own = page_language(root, attributes) if rules else ""
    language = language or (own if home and rules else None)
    title = page_title(root)
    leaf = leaf_reason(root, url, own, language, skip_actions) if rules else None
    if leaf:
        return PageAnalysis(url, title, own, language, leaf)
    checkpoint()  # skeleton.budget: between the steps, and in their loops
    declared = canonical_link(root, url, base, attributes) if rules else None
    page = declared or url
    evidence = page_evidence(root, url, attributes) if root is not None else {}
    checkpoint()
    detection = None
    if detector is not None:
        detection = detector(root, url, base, list(known), list(template))
        # the context the detection ran with (the crawl's detector reads it from the store)
        known, template = detection.known or known, detection.template or template
        raw = detection.nav_links(url)
        unparsable = tuple(detection.unparsable)
        nav_sets = detection.nav_sets
        menus = repeated_sets(known, (link.url for link in detection.page_links if link.url))
        if menus:  # the ancestors' sets the page repeats (a site menu: :mod:`skeleton.hierarchy.innermost`)
            evidence = {**evidence, "menus": menus}
    else:
        every = extract_links(root, url)
        unparsable = tuple(unparsable_links(every, url))
        dropped = set(unparsable)  # counted once, as unparsable
        raw = [NavLink(link.url, link.sec_name, url) for link in every if link.url or link.href not in dropped]
        nav_sets = []
    checkpoint()
    reasons = link_skip_reasons(((link.url, link.text) for link in raw), root, url, language,
                                skip_actions, attributes) if rules else {}
    own_urls = (url, *aliases)
    followed, skipped = followed_links(raw, page, lambda u: reasons.get(u) or skip(u), own_urls)
    items = later_page_items(page, evidence, raw, followed,
                             lambda: extract_links(main_element(root, attributes), url),
                             (*known, *template)) if detection is not None and root is not None else []
    if items:
        # the page's controls are read from all its links (a facet panel is one whole)
        pairs = [(link.url, link.sec_name) for link in detection.page_links if link.url]  # type: ignore[union-attr]
        more = link_skip_reasons(pairs, root, url, language, skip_actions, attributes) if rules else {}
        added, not_added = followed_links(items, page, lambda u: more.get(u) or skip(u), own_urls)
        followed, skipped = followed + added, skipped + not_added
    checkpoint()
    offers = page_offers(page, nav_sets, followed)
    linked = {link for link, _, _, _ in followed} | {page, *own_urls}
    places = [place for place in declared_places(evidence) if place not in linked and not skip(place)]
    return PageAnalysis(page, title, own, language, None, declared, evidence, detection, unparsable,
                        followed, skipped, offers, places)
