"""Which of a page's links the crawl does not follow, and whether the page is a node at
all: the rules of :mod:`skeleton.urlrules` applied to one parsed page, as the spider and
the offline FINDSKELETON (:mod:`skeleton.analysis.offline`) both apply them."""
from __future__ import annotations

from collections.abc import Iterable

from lxml import etree

from skeleton.budget import checkpoint
from skeleton.sew.nesting import directory_index
from skeleton.web.dom import attribute_text
from skeleton.web.urls import directory

from skeleton.web.files import is_file_url
from .actions import action_reason, form_only, nofollow_urls, view_links
from .controls import control_links, facet_links
from .language import ANY_LANGUAGE, hreflang_links, language_copies

__all__ = ["SECTION_MIN_LINKS", "link_skip_reasons", "leaf_reason", "section_indexes"]

#: a directory index whose folder holds at least this many of the page's other links
#: is a section's front page, whatever its link text says
SECTION_MIN_LINKS = 2


def section_indexes(urls: Iterable[str]) -> frozenset[str]:
    """The URLs among ``urls`` that are a directory's index (``/report/``,
    ``report/index.html``) whose folder holds at least :data:`SECTION_MIN_LINKS` other
    URLs of the list: the front page of a section the page links into. One pass over
    the URLs and their folders (a path has a few)."""
    urls = set(urls)
    below: dict[str, int] = {}
    for url in urls:
        d = directory(url)
        while True:
            below[d] = below.get(d, 0) + 1
            up = directory(d.rstrip("/") or "/")
            if up == d or not d.startswith(up):
                break
            d = up
    return frozenset(url for url in urls
                     if (d := directory_index(url)) is not None and below.get(d, 0) > SECTION_MIN_LINKS)


def link_skip_reasons(links: Iterable[tuple[str, str]], root: etree._Element | None, page_url: str,
                      language: str | None, skip_actions: bool = True,
                      attributes: str | None = None) -> dict[str, str]:
    """URL -> why the page's link ``(url, text)`` is not followed, from the page
    itself: ``skipped/file`` (a file that is no page by its extension,
    :mod:`skeleton.web.files`), ``skipped/language`` (an ``hreflang`` copy in another language than
    ``language``), ``skipped/nofollow``, ``skipped/view_rel`` (``rel="tag"``, ...),
    ``skipped/view_label`` (a block labelled "tags:", ...), ``skipped/control`` (a
    sort or filter control of the page itself, :mod:`.controls`),
    ``skipped/action/KIND`` (URL or text of an action; the text is not read for the
    index page of a folder holding other links of the page, :func:`section_indexes`:
    a docs section called "Report" is no "Report abuse" button); the last five only with
    ``skip_actions``. The first
    reason found for a URL wins. No link, no reading of the page. ``attributes``: the
    page's :func:`skeleton.web.dom.attribute_text`, if the caller has it."""
    links = list(links)
    if not links:
        return {}
    copies = language_copies(root, page_url, language or "")
    checkpoint()
    if skip_actions and attributes is None and root is not None:
        attributes = attribute_text(root)
    nofollow = nofollow_urls(root, page_url, attributes) if skip_actions else frozenset()
    checkpoint()
    views = view_links(root, page_url, attributes) if skip_actions else {}
    controls = (control_links(page_url, (url for url, _ in links)) | facet_links(page_url, links)
                if skip_actions else frozenset())
    checkpoint()
    sections = section_indexes(url for url, _ in links) if skip_actions else frozenset()
    checkpoint()
    reasons: dict[str, str] = {}
    for url, text in links:
        checkpoint()
        if url in reasons:
            continue
        if is_file_url(url):
            reasons[url] = "skipped/file"
        elif url in copies:
            reasons[url] = "skipped/language"
        elif url in nofollow:
            reasons[url] = "skipped/nofollow"
        elif url in views:
            reasons[url] = f"skipped/view_{views[url]}"
        elif url in controls:
            reasons[url] = "skipped/control"
        elif skip_actions:
            action = action_reason(url, "" if url in sections else text)
            if action:
                reasons[url] = f"skipped/{action}"
    return reasons


def leaf_reason(root: etree._Element | None, page_url: str, own_language: str, language: str | None,
                skip_actions: bool = True) -> str | None:
    """``"language"`` when the page declares a language other than the crawl's
    ``language`` (not ``any``) and does not name itself the ``language`` version in
    its own ``hreflang`` links (Apache's English manual labels six pages
    ``lang="pt-br"`` and lists each as the ``hreflang="en"`` version of itself: a
    template's mistake, not a copy); ``"form"`` when it answers with a form only
    (with ``skip_actions``); else None. Such a page is a leaf and no node."""
    if language and language != ANY_LANGUAGE and own_language and own_language != language:
        if hreflang_links(root, page_url).get(page_url) != language:
            return "language"
    if skip_actions and form_only(root):
        return "form"
    return None
