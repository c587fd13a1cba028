"""Evidence the site gives about a page's place: what one parsed page says about
where it sits in its site's hierarchy.

The kinds of evidence, each a list of absolute URLs read from one page:

* ``breadcrumb``: the page's breadcrumb trail, outermost (home) first: schema.org
  ``BreadcrumbList`` in JSON-LD, then in microdata, then breadcrumb markup
  (``aria-label``/class/id containing "crumb", MkDocs Material's ``md-path``,
  RDFa ``typeof="BreadcrumbList"``), then Sphinx's relbar (``div.related
  li.nav-item``), then a plain-text trail (sibling links joined by one separator
  such as "»" or ">", starting at a site's home: phpBB, older CMS and news
  portals), then an unmarked list trail (a list of single links from home
  through nesting folder indexes, ending in the page's own ``h1`` as text):
  the first source that gives any URL wins.
  A markup trail that names places after its last link as text only (MkDocs'
  readthedocs theme: "Docs » Section » Page", the section unlinked) is kept apart
  as ``above``: its last link is an ancestor, not the parent.
* ``up_links``: the page's declared parent: ``rel="up"`` on ``link``/``a``,
  ``accesskey="u"`` (DocBook, Texinfo, gtk-doc, Sphinx), and an ``a`` whose text
  is "Up" in a navigation header/footer.
* ``highlighted_trail``: the items the page's own menus and sidebars mark as
  current (``aria-current``, class tokens in ``CURRENT_CLASS_TOKENS``), outermost
  (shallowest in the DOM) first.
* ``filed_under``: the sections a single article declares it is filed in: links
  with a ``rel`` token "category" (WordPress's "Posted in" ``rel="category tag"``),
  when they sit in one article (on a listing every excerpt has its own: none);
  without such links, the first link after a label of ``FILED_LABELS`` ("In
  <a>DevOps</a>.", "Posted in", "Category:", in several languages) that is the
  whole text before it in its element, with at most one word after it and no
  fragment in its URL, when the page has exactly one such label (a listing's excerpts have one each: none).
* ``pager_links``: the other pages of the listing the page is a page of (its
  pager's numbers, arrows, next/previous links;
  :func:`skeleton.hierarchy.pagination.is_pager_link`), in document order.

Contract of every function: ``root`` is an lxml tree root from
``skeleton.web.dom.parse_html`` (``None`` gives ``[]``); URLs are resolved against
``page_url`` with ``skeleton.web.urls.resolve`` (canonical, fragment-free; like the
rest of the project it does not read ``<base href>``), http(s) only, with a host
and a valid port, de-duplicated keeping the first occurrence, without the page's
own URL, at most ``MAX_URLS``. Nothing raises: an unparsable ``href`` or broken
JSON-LD is skipped. Pure: lxml, the standard library and Scrapy's list of file extensions only (the ``extruct``
package was considered: its microdata reader needs ``lxml.html`` elements, which
``parse_html`` does not make, and it brings rdflib, html5lib, mf2py and more).
"""
from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import Any

from lxml import etree

from skeleton.budget import checkpoint

from ..web.files import is_file_url
from ..web.dom import attribute_text
from ..web.urls import resolve, split_url
from ..sew.nesting import INDEX_NAMES, directory_index
from .pagination import PAGER_RELS, URL_PAGER_WORDS, is_pager_link, is_pager_text

__all__ = [
    "MAX_URLS", "MAX_MARKED", "MAX_CRUMB_LINKS", "CRUMB_MARKER", "CRUMB_CONTAINER_TAGS", "CRUMB_CLASS_TOKENS",
    "CURRENT_CLASS_TOKENS", "MARKED_ITEM_TAGS", "NAV_PANEL_CLASSES",
    "breadcrumb", "up_links", "highlighted_trail", "filed_under", "pager_links", "page_evidence",
    "declared_places",
]

#: Most URLs one function returns.
MAX_URLS = 20
#: Most elements marked as current that ``highlighted_trail`` examines.
MAX_MARKED = 200
#: A breadcrumb container with more links than this is a page region that merely
#: mentions breadcrumbs in a class (``with-breadcrumbs``): the next match is tried.
MAX_CRUMB_LINKS = 20
#: Substring (lower-case) of an ``aria-label``, class or id naming a breadcrumb
#: container: ``breadcrumb``, ``breadcrumbs``, ``bread-crumbs``, ``crumbs``.
CRUMB_MARKER = "crumb"
#: Elements that can hold a breadcrumb trail.
CRUMB_CONTAINER_TAGS = frozenset({"nav", "ol", "ul", "div", "p", "span", "section", "header", "td"})
#: A breadcrumb whose last link is followed by this many entries with text and no link
#: (the page's own entry and at least one place named as text only) names an ancestor
#: with its last link, not the parent: its links are evidence ``above``, not ``crumbs``.
CRUMB_GAP_ITEMS = 2
#: Exact class tokens of breadcrumb containers that do not say "crumb".
CRUMB_CLASS_TOKENS = frozenset({"md-path"})  # MkDocs Material: nav.md-path > ol.md-path__list
#: Class tokens (compared lower-case, exactly) that mark a menu item as current.
CURRENT_CLASS_TOKENS = frozenset({
    "active", "current", "selected", "is-active", "is-current", "is-selected",
    "active-trail", "menu-item--active-trail", "uk-active",  # Drupal, UIkit
    "current-menu-item", "current-menu-ancestor", "current-menu-parent",  # WordPress
    "current_page_item", "current_page_ancestor", "current_page_parent",
    "current-page-ancestor", "current-cat", "current-cat-parent", "current-cat-ancestor",
    "md-nav__item--active", "md-nav__link--active", "md-tabs__item--active",  # MkDocs Material
})
#: Elements besides ``a`` whose current-marking class names a menu item (its own
#: link is taken). ``div``/``ul`` are left out: tab panes, carousel slides and
#: sublists carry ``active`` too and their first link is not the item's.
MARKED_ITEM_TAGS = frozenset({"li", "dt", "dd", "td", "th", "span", "strong", "b"})
#: Classes of navigation headers/footers whose "Up" link names the parent (DocBook
#: XSL; Texinfo and gtk-doc mark theirs with rel="up"/accesskey="u").
NAV_PANEL_CLASSES = frozenset({"navheader", "navfooter"})

_UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_LOWER = "abcdefghijklmnopqrstuvwxyz"

# XPaths. A test on an attribute's value costs libxml2 about 0.4 us per attribute
# (a copy of the value), several ms on a large page, so each value test runs only
# after a pre-check on the lower-cased text of all the page's attribute values (one
# pass, ``_Page.mentions``), tests as few values as it can, and leaves the exact
# tests (tokens, case) to Python on the few elements found. The pre-checks' text
# is skeleton.web.dom.attribute_text, shared with the link rules of
# skeleton.urlrules.actions.
#: JSON-LD scripts (pre-check: "ld+json"; their text is checked for "BreadcrumbList"
#: before parsing).
JSONLD_XPATH = '//script[contains(@type, "ld+json")]'
#: Microdata BreadcrumbList scopes (pre-check: "breadcrumblist").
MICRODATA_XPATH = '//*[@itemscope][@itemtype[contains(., "BreadcrumbList")]]'
#: Candidate breadcrumb containers in document order, outer before inner
#: (pre-check: "crumb", "md-path", "breadcrumblist"). "rumb" lets "Breadcrumb" in.
CRUMB_XPATH = (
    '//*[@class[contains(., "rumb") or contains(., "md-path")]'
    ' or @id[contains(., "rumb")]'
    f' or @aria-label[contains(translate(., "{_UPPER}", "{_LOWER}"), "{CRUMB_MARKER}")]'
    ' or @typeof[contains(., "BreadcrumbList")]]'
)
#: Sphinx relbar (classic, pydoctheme, ...): the ``li.nav-item`` links of the first
#: ``div.related`` (pre-check: "related").
SPHINX_RELBAR_XPATH = (
    '(//div[contains(concat(" ", normalize-space(@class), " "), " related ")])[1]'
    '//li[contains(concat(" ", normalize-space(@class), " "), " nav-item ")]/a/@href'
)
#: Candidate declared parents: elements with rel or accesskey.
UP_XPATH = "//*[@rel or @accesskey]"
#: ... and the links of DocBook navigation header/footer divs (pre-check: their classes).
UP_PANEL_XPATH = UP_XPATH + ' | //div[contains(@class, "navheader") or contains(@class, "navfooter")]//a'
#: Elements with aria-current.
ARIA_CURRENT_XPATH = "//*[@aria-current]"
#: the candidate pager links: anchors and ``link`` elements with a ``rel``
PAGER_XPATH = "//a[@href] | //link[@href][@rel]"
#: separators of a plain-text breadcrumb ("Home » Forum » Topic"); "|" and "·" join menus
CRUMB_SEPARATORS = frozenset({"»", "›", ">", "→", "::"})
#: the page's own name, which an unmarked trail's last item repeats (:func:`_list_trail_crumbs`)
H1_XPATH = "(//h1)[1]"
#: the longest name or trail entry read, in characters
TRAIL_NAME_CHARS = 200
#: an unmarked trail has at least this many links (home and a section)
TRAIL_MIN_LINKS = 2
#: a link followed by a sibling link: the start of a possible plain-text trail
SEPARATED_XPATH = "//a[@href][following-sibling::*[1]/self::a[@href]]"
#: links that may declare the page's category (``rel`` tokens are checked in Python)
FILED_XPATH = '//a[@href][contains(@rel, "ategory")] | //link[@href][contains(@rel, "ategory")]'
#: the ``rel`` token of a link to the section a page is filed in
FILED_REL = "category"
#: labels (lower case, without a trailing colon) that, as the whole text before a
#: link in its element, say the page is filed in the link's section
FILED_LABELS = frozenset({
    "in", "posted in", "filed in", "filed under", "published in", "category", "categories",
    "categorized as", "categorised as",
    "dans", "publié dans", "catégorie", "catégories", "rubrique",
    "kategorie", "kategorien", "veröffentlicht in", "abgelegt unter",
    "en", "publicado en", "categoría", "categorías", "categoria", "categorias", "publicado em", "em",
    "pubblicato in", "categorie", "gepubliceerd in", "categorieën", "kategoria",
    "рубрика", "категория", "категории", "в",
})
#: a label's link: the first element of its parent, with text before it
LABELLED_XPATH = "//a[@href][not(preceding-sibling::*[1])][normalize-space(../text()[1])]"
#: a link alone at the start of its element, whose label may be the element before it
#: (Hexo NexT: ``<span>In</span> <span><a>Workflow</a></span>``)
LABEL_BEFORE_XPATH = "//a[@href][not(preceding-sibling::*[1])][not(normalize-space(../text()[1]))]"
#: a label element holds at most this many characters of text
LABEL_MAX_CHARS = 40
#: words allowed after a labelled link in its element ("In <a>DevOps</a>.", "in <a>A</a> and")
FILED_TAIL_WORDS = 1
#: Pre-check word -> the XPath substring finding it in a class whatever the case of
#: its first letter ("Active"): every token of ``CURRENT_CLASS_TOKENS`` has one.
_CURRENT_MARKERS = {"active": "ctive", "current": "urrent", "selected": "elected"}


@lru_cache(maxsize=8)
def _marked_xpath(markers: tuple[str, ...]) -> etree.XPath:
    """Elements with aria-current or a class containing one of ``markers``."""
    tests = " or ".join(f'contains(., "{_CURRENT_MARKERS[marker]}")' for marker in markers)
    return etree.XPath(f"//*[@aria-current or @class[{tests}]]")


_JSONLD = etree.XPath(JSONLD_XPATH)
_MICRODATA = etree.XPath(MICRODATA_XPATH)
_CRUMB_CONTAINERS = etree.XPath(CRUMB_XPATH)
_CONTAINER_HREFS = etree.XPath(".//a/@href", smart_strings=False)
_SPHINX_RELBAR = etree.XPath(SPHINX_RELBAR_XPATH, smart_strings=False)
_UP = etree.XPath(UP_XPATH)
_UP_PANEL = etree.XPath(UP_PANEL_XPATH)
_ARIA_CURRENT = etree.XPath(ARIA_CURRENT_XPATH)
_PAGER = etree.XPath(PAGER_XPATH)
_FILED = etree.XPath(FILED_XPATH)
_LABELLED = etree.XPath(LABELLED_XPATH)
_LABEL_BEFORE = etree.XPath(LABEL_BEFORE_XPATH)
_WORD = re.compile(r"\w+")
_SEPARATED = etree.XPath(SEPARATED_XPATH)
_H1 = etree.XPath(H1_XPATH)
_ARTICLE = etree.XPath("ancestor::article[1]")
#: a marked item's own link: its first link not inside a list nested in the item
_LIST_DEPTH = etree.XPath("count(ancestor-or-self::ul | ancestor-or-self::ol)")
_OWN_LINK = etree.XPath("(descendant::a[@href][not(@hreflang)][count(ancestor::ul | ancestor::ol) = $n])[1]/@href",
                        smart_strings=False)


def _prop(name: str) -> etree.XPath:
    return etree.XPath(f'descendant-or-self::*[contains(concat(" ", normalize-space(@itemprop), " "), " {name} ")]')


_LIST_ITEMS = _prop("itemListElement")
_ITEM_PROP = _prop("item")
_URL_PROP = _prop("url")
_POSITION_PROP = _prop("position")

#: JSON-LD text that is not JSON: HTML comment or CDATA wrappers, ``//`` comment lines
_JSON_WRAPPER = re.compile(r"^\s*(?:<!--|<!\[CDATA\[)|(?:-->|\]\]>)\s*$")
_JSON_LINE_COMMENT = re.compile(r"^\s*//.*$", re.M)
#: JSON nodes walked per script in search of a BreadcrumbList
_MAX_JSON_NODES = 10_000
#: control characters (not tab, CR, LF, which URL parsers drop): such an href is skipped
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
#: characters that cannot be in a host name
_BAD_HOST = re.compile(r"[\x00-\x20\x7f<>\"\\^`{|}]")
_HTTP = ("http://", "https://")


def _tokens(value: str | None) -> list[str]:
    return value.lower().split() if value else []


class _Page:
    """One page's tree and URL, with its own canonical URL and, computed on first
    use, the lower-cased text of all its attribute values (the pre-checks)."""

    __slots__ = ("root", "url", "own", "_attributes", "crumb_gap")

    def __init__(self, root: etree._Element, page_url: str, attributes: str | None = None) -> None:
        self.root = root
        self.url = page_url if isinstance(page_url, str) else ""
        self.own = _absolute(self.url, self.url)
        self._attributes = attributes
        #: the breadcrumb names places between its last link and the page as text only
        self.crumb_gap = False

    def mentions(self, *words: str) -> bool:
        """Does any attribute value contain one of ``words`` (lower-case)?"""
        if self._attributes is None:
            self._attributes = attribute_text(self.root)
        return any(word in self._attributes for word in words)


# --- URLs ---------------------------------------------------------------------

def _host(url: str) -> str:
    parts = split_url(url)
    return (parts.hostname or "").lower() if parts is not None else ""


@lru_cache(maxsize=8192)
def _valid(url: str) -> bool:
    """An http(s) URL with a plausible host and a port in range (parsable:
    :func:`skeleton.web.urls.split_url`)."""
    if not url.startswith(_HTTP):
        return False
    parts = split_url(url)
    if parts is None:
        return False
    host = parts.hostname
    return bool(host) and not _BAD_HOST.search(host)


def _absolute(href: str, page_url: str) -> str:
    """The canonical absolute URL of ``href`` on ``page_url``, or '' when unusable."""
    href = href.strip()
    if _CONTROL.search(href):
        return ""
    if href[:8].lower().startswith(_HTTP) and not href.split("//", 1)[1][:1].strip("/?#"):
        return ""  # 'http://' or 'http:///x': no host
    url = resolve(href, page_url)  # '' for an unparsable href, never an exception
    return url if url and _valid(url) else ""


def _clean(hrefs: Iterable[Any], page: _Page) -> list[str]:
    """Absolute, valid, distinct URLs of ``hrefs`` on the page's own host (a site's
    evidence names its own pages: an "Edit on GitHub" link in a breadcrumb does
    not count, nor a file such as Sphinx's "View page source" ``.rst.txt``), without
    the page itself, at most ``MAX_URLS``. Non-strings are skipped."""
    urls: list[str] = []
    seen = {page.own}
    host = _host(page.own)
    for href in hrefs:
        checkpoint()
        if not isinstance(href, str):
            continue
        url = _absolute(href, page.url)
        if url and url not in seen and _host(url) == host and not is_file_url(url):
            seen.add(url)
            urls.append(url)
            if len(urls) >= MAX_URLS:
                break
    return urls


# --- schema.org BreadcrumbList ------------------------------------------------

def _position(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return None
    try:
        number = float(value)
    except (ValueError, OverflowError):
        return None
    return number if math.isfinite(number) else None


def _node_url(value: Any) -> Any:
    """The URL a schema.org value names: a string, or a node's ``@id``/``url``/``id``."""
    if isinstance(value, list):
        return next((url for url in map(_node_url, value) if url), None)
    if isinstance(value, dict):
        return next((value[key] for key in ("@id", "url", "id") if isinstance(value.get(key), str)), None)
    return value if isinstance(value, str) else None


def _ordered(entries: list[tuple[Any, Any]]) -> list[Any]:
    """The URLs of (position, url) entries, by position when every entry has one,
    else in the given order."""
    positions = [_position(position) for position, _ in entries]
    if all(position is not None for position in positions):
        order = sorted(range(len(entries)), key=lambda i: (positions[i], i))
        return [entries[i][1] for i in order]
    return [url for _, url in entries]


def _jsonld_list_urls(crumbs: dict[str, Any]) -> list[Any]:
    elements = crumbs.get("itemListElement")
    if isinstance(elements, dict):
        elements = [elements]
    if not isinstance(elements, list):
        return []
    entries = []
    for element in elements:
        if isinstance(element, dict):
            url = _node_url(element.get("item")) or _node_url(element.get("url"))
            entries.append((element.get("position"), url))
        elif isinstance(element, str):
            entries.append((None, element))
    return _ordered(entries)


def _is_breadcrumb_list(node: dict[str, Any]) -> bool:
    types = node.get("@type")
    types = types if isinstance(types, list) else [types]
    return any(isinstance(kind, str) and kind.endswith("BreadcrumbList") for kind in types)


def _json_nodes(data: Any) -> Iterator[dict[str, Any]]:
    """The JSON objects of ``data`` in document order (``@graph``, lists and nested
    values alike), at most ``_MAX_JSON_NODES``."""
    stack = [data]
    walked = 0
    while stack and walked < _MAX_JSON_NODES:
        value = stack.pop()
        walked += 1
        if isinstance(value, dict):
            yield value
            stack.extend(reversed(list(value.values())))
        elif isinstance(value, list):
            stack.extend(reversed(value))


def _load_json(text: str) -> Any:
    """The JSON value of a script's text (tolerating comment/CDATA wrappers and
    ``//`` comment lines), or None."""
    for attempt in (text, _JSON_LINE_COMMENT.sub("", _JSON_WRAPPER.sub("", text.strip()))):
        try:
            return json.loads(attempt, strict=False)
        except (ValueError, RecursionError):
            continue
    return None


def _jsonld_crumbs(page: _Page) -> list[str]:
    if not page.mentions("ld+json"):
        return []
    for script in _JSONLD(page.root):
        text = script.text or ""
        if "BreadcrumbList" not in text:
            continue
        for node in _json_nodes(_load_json(text)):
            if _is_breadcrumb_list(node):
                urls = _clean(_jsonld_list_urls(node), page)
                if urls:
                    return urls
    return []


def _microdata_value(element: etree._Element) -> str | None:
    """The URL a microdata ``item``/``url`` property element gives: an item's
    ``itemid`` or ``url`` property, else the element's href/content/src."""
    if element.get("itemscope") is not None:
        if element.get("itemid"):
            return element.get("itemid")
        nested = [prop for prop in _URL_PROP(element) if prop is not element]
        if nested:
            return _microdata_value(nested[0])
    for name in ("href", "content", "src"):
        if element.get(name):
            return element.get(name)
    return None


def _microdata_crumbs(page: _Page) -> list[str]:
    if not page.mentions("breadcrumblist"):
        return []
    for scope in _MICRODATA(page.root):
        entries = []
        for element in _LIST_ITEMS(scope):
            if element is scope:
                continue
            found = _ITEM_PROP(element) or _URL_PROP(element)
            position = _POSITION_PROP(element)
            value = (position[0].get("content") or position[0].xpath("string()")) if position else None
            entries.append((value, _microdata_value(found[0]) if found else None))
        urls = _clean(_ordered(entries), page)
        if urls:
            return urls
    return []


def _is_crumb_container(element: etree._Element) -> bool:
    if element.tag not in CRUMB_CONTAINER_TAGS:
        return False
    classes = _tokens(element.get("class"))
    return (any(CRUMB_MARKER in value for value in (element.get("class", "").lower(),
                                                     element.get("id", "").lower(),
                                                     element.get("aria-label", "").lower()))
            or any(token in CRUMB_CLASS_TOKENS for token in classes)
            or "BreadcrumbList" in element.get("typeof", ""))


def _markup_crumbs(page: _Page) -> list[str]:
    if not page.mentions(CRUMB_MARKER, *CRUMB_CLASS_TOKENS, "breadcrumblist"):
        return []
    for container in _CRUMB_CONTAINERS(page.root):
        if not _is_crumb_container(container):
            continue
        hrefs = _CONTAINER_HREFS(container)
        if 0 < len(hrefs) <= MAX_CRUMB_LINKS:
            urls = _clean(hrefs, page)
            if urls:
                page.crumb_gap = _unlinked_after_last_link(container) >= CRUMB_GAP_ITEMS
                return urls
    return []


def _unlinked_after_last_link(container: etree._Element) -> int:
    """How many items of a breadcrumb container (its ``li``, else its child elements)
    after the last one holding a link have text but no link: the page's own entry,
    and the places between the last link and the page that the trail names as text
    only (MkDocs' readthedocs theme links no section). One pass over the container."""
    items = list(container.iter("li")) or [el for el in container if isinstance(el.tag, str)]
    last = -1
    for i, item in enumerate(items):
        if (item.tag == "a" and item.get("href") is not None) or any(
                a.get("href") is not None for a in item.iter("a")):
            last = i
    return sum(1 for item in items[last + 1:] if "".join(item.itertext()).strip())


def _is_home(href: str | None, page: _Page) -> bool:
    """Does ``href`` point to a site's home (path ``/`` or an index file there)?"""
    parts = split_url(_absolute(href or "", page.url))
    if parts is None:
        return False
    path = parts.path
    name = path.rsplit("/", 1)[-1]
    return path.count("/") == 1 and (not name or name.lower() in INDEX_NAMES)


def _separator_crumbs(page: _Page) -> list[str]:
    """The first run of two or more sibling links joined by one separator each
    (``CRUMB_SEPARATORS``) whose first link is a site's home."""
    done: set[int] = set()
    for first in _SEPARATED(page.root):
        checkpoint()
        # no separator after it: no run (the cheap test first, on a page of links)
        if id(first) in done or (first.tail or "").strip() not in CRUMB_SEPARATORS \
                or not _is_home(first.get("href"), page):
            continue
        run = [first]
        while (run[-1].tail or "").strip() in CRUMB_SEPARATORS and len(run) <= MAX_CRUMB_LINKS:
            following = run[-1].getnext()
            if following is None or following.tag != "a" or following.get("href") is None:
                break
            run.append(following)
        done.update(id(a) for a in run)
        if len(run) >= 2:
            urls = _clean((a.get("href") for a in run), page)
            if urls:
                return urls
    return []


def _last_item(trail: etree._Element) -> etree._Element | None:
    """The list's last child element when it is an ``li`` (comments skipped)."""
    last = trail[-1] if len(trail) else None
    while last is not None and not isinstance(last.tag, str):
        last = last.getprevious()
    return last if last is not None and last.tag == "li" else None


def _list_trail_crumbs(page: _Page) -> list[str]:
    """An unmarked breadcrumb: the first list whose items each hold one link and
    nothing else but separators, except its last, which names the page as text
    only (the page's first ``h1``); its first link is a site's home, and the
    others are folder indexes whose folders nest (``/a/``, then ``/a/b/``): the
    URL folders agree that the links are the page's ancestors. One pass over the
    lists; a list's items are read only when its last item's text, read no
    further than the page's name, is that name."""
    heads = _H1(page.root)
    name = _short_text(heads[0], TRAIL_NAME_CHARS).casefold() if heads else ""
    if not name:
        return []
    for trail in page.root.iter("ul", "ol"):
        checkpoint()
        last = _last_item(trail)
        if last is None or _short_text(last, len(name)).casefold() != name \
                or any(a.get("href") is not None for a in last.iter("a")):
            continue
        items = [li for li in trail if li.tag == "li"]
        if not TRAIL_MIN_LINKS < len(items) <= MAX_CRUMB_LINKS + 1:
            continue
        hrefs = []
        for item in items[:-1]:
            links = [a for a in item.iter("a") if a.get("href") is not None]
            text = _short_text(item, TRAIL_NAME_CHARS)
            label = _short_text(links[0], TRAIL_NAME_CHARS) if len(links) == 1 else ""
            if not label or text.replace(label, "", 1).strip() not in ("", *CRUMB_SEPARATORS):
                break
            hrefs.append(links[0].get("href"))
        else:
            if not _is_home(hrefs[0], page):
                continue
            # the folders the other links are the indexes of (None: no folder index)
            urls = [_absolute(href, page.url) for href in hrefs[1:]]
            folders = [directory_index(url) if url else None for url in urls]
            if all(folders) and folders[0] != "/" and all(
                    b.startswith(a) and b != a for a, b in zip(folders, folders[1:])):  # type: ignore[union-attr]
                return _clean(hrefs, page)
    return []


def _breadcrumb(page: _Page) -> list[str]:
    return (_jsonld_crumbs(page) or _microdata_crumbs(page) or _markup_crumbs(page)
            or (_clean(_SPHINX_RELBAR(page.root), page) if page.mentions("related") else [])
            or _separator_crumbs(page) or _list_trail_crumbs(page))


def _is_up(element: etree._Element) -> bool:
    if element.tag not in ("a", "link"):
        return False
    if "up" in _tokens(element.get("rel")):
        return True
    if element.tag != "a":
        return False
    if (element.get("accesskey") or "").strip().lower() == "u":
        return True
    return ("".join(element.itertext()).strip().lower() == "up"
            and any(NAV_PANEL_CLASSES.intersection(_tokens(ancestor.get("class")))
                    for ancestor in element.iterancestors()))


def _up_links(page: _Page) -> list[str]:
    candidates = _UP_PANEL if page.mentions(*NAV_PANEL_CLASSES) else _UP
    return _clean((element.get("href") for element in candidates(page.root) if _is_up(element)), page)


def _own_link(element: etree._Element) -> str | None:
    """The link of a marked element: its ``href`` for an ``a``, else its first link
    not inside a list nested in it."""
    if element.tag == "a":
        # a language switcher's current language is a copy of the page, not a place
        return None if element.get("hreflang") is not None else element.get("href")
    links = _OWN_LINK(element, n=_LIST_DEPTH(element))
    return links[0] if links else None


def _is_marked(element: etree._Element) -> bool:
    current = element.get("aria-current")
    if current is not None and current.strip().lower() not in ("", "false"):
        return True
    if element.tag != "a" and element.tag not in MARKED_ITEM_TAGS:
        return False
    return any(token in CURRENT_CLASS_TOKENS for token in _tokens(element.get("class")))


def _highlighted_trail(page: _Page) -> list[str]:
    markers = tuple(marker for marker in _CURRENT_MARKERS if page.mentions(marker))
    candidates = _marked_xpath(markers) if markers else _ARIA_CURRENT
    found: list[tuple[int, int, str]] = []
    for element in candidates(page.root):
        checkpoint()
        if not _is_marked(element):
            continue
        href = _own_link(element)
        if href:
            found.append((sum(1 for _ in element.iterancestors()), len(found), href))
        if len(found) >= MAX_MARKED:
            break
    found.sort()
    return _clean((href for _, _, href in found), page)


# --- filed under ------------------------------------------------------------------

def _filed_under(page: _Page) -> list[str]:
    if page.mentions(FILED_REL):
        links = [element for element in _FILED(page.root)
                 if FILED_REL in {token.lower() for token in _tokens(element.get("rel"))}]
        # one article's "Posted in"; on a listing every excerpt has its own: no evidence
        if len({id(a[0]) if (a := _ARTICLE(element)) else None for element in links}) > 1:
            return []
        if links:
            return _clean((element.get("href") for element in links), page)
    labelled = [element for element in _LABELLED(page.root) if checkpoint() or _is_filed_label(element)]
    labelled += [element for element in _LABEL_BEFORE(page.root) if checkpoint() or _is_label_before(element)]
    return _clean([labelled[0].get("href")], page) if len(labelled) == 1 else []


def _is_label_before(link: etree._Element) -> bool:
    """Is ``link`` alone in its element (at most ``FILED_TAIL_WORDS`` words beside it),
    linking a page, and that element's previous sibling a label of ``FILED_LABELS``
    and nothing else (Hexo NexT's ``<span>In</span> <span><a>Workflow</a></span>``)?
    A label holds no link: a menu's "Categories" item before its "Tags" is none.
    Each element is read as the label of at most one link, and only its first
    ``LABEL_MAX_CHARS`` characters: linear in the page."""
    parent = link.getparent()
    label = parent.getprevious() if parent is not None else None
    if label is None or not isinstance(label.tag, str) or "#" in (link.get("href") or ""):
        return False
    if _short_text(label).lower().rstrip(":").strip() not in FILED_LABELS:
        return False
    if label.tag == "a" or next(label.iter("a"), None) is not None:  # a menu item is no label
        return False
    beside = len(_WORD.findall(link.tail or "")) + len(_WORD.findall(parent.tail or ""))
    return beside <= FILED_TAIL_WORDS and all(not len(_WORD.findall(e.tail or "")) for e in link.itersiblings())


def _short_text(element: etree._Element, limit: int = LABEL_MAX_CHARS) -> str:
    """The element's text, whitespace collapsed, or "" when it is longer than
    ``limit`` characters (read no further)."""
    text = ""
    for piece in element.itertext():
        text += piece
        if len(text) > 2 * limit:
            return ""
    text = " ".join(text.split())
    return text if len(text) <= limit else ""


def _is_filed_label(link: etree._Element) -> bool:
    """Is ``link`` the first link after a ``FILED_LABELS`` label that is the whole
    text before it in its element, with at most ``FILED_TAIL_WORDS`` words after it,
    linking a page, not a place in one (``#``)?"""
    parent = link.getparent()
    label = " ".join((parent.text or "").split()).lower().rstrip(":").strip() if parent is not None else ""
    return (label in FILED_LABELS and len(_WORD.findall(link.tail or "")) <= FILED_TAIL_WORDS
            and "#" not in (link.get("href") or ""))  # a place in a page ("In <a>§2</a>") is no section


# --- pager ------------------------------------------------------------------------

def _pager_links(page: _Page) -> list[str]:
    hrefs = []
    for element in _PAGER(page.root):
        checkpoint()
        rels = _tokens(element.get("rel"))
        text = ""
        if element.tag == "a":
            text = element.text or "" if not len(element) else " ".join(element.itertext())
            text = text.strip() or element.get("aria-label") or element.get("title") or ""
        href = element.get("href") or ""
        if not (PAGER_RELS.intersection(rels) or is_pager_text(text)
                or any(word in href.lower() for word in URL_PAGER_WORDS)):
            continue
        url = _absolute(href, page.url)
        if url and is_pager_link(page.own, url, text, rels):
            hrefs.append(url)
    return _clean(hrefs, page)


# --- public ----------------------------------------------------------------------

def breadcrumb(root: etree._Element | None, page_url: str) -> list[str]:
    """URLs of the page's breadcrumb trail, outermost (home) first, without the page
    itself. Sources in order of preference, the first giving any URL wins: JSON-LD
    ``BreadcrumbList`` (ordered by ``position``), microdata ``BreadcrumbList``, the
    links of the first breadcrumb markup container with 1 to ``MAX_CRUMB_LINKS``
    links, the Sphinx relbar, a plain-text trail from home, an unmarked list trail
    (:func:`_list_trail_crumbs`)."""
    return [] if root is None else _breadcrumb(_Page(root, page_url))


def up_links(root: etree._Element | None, page_url: str) -> list[str]:
    """URLs the page declares as its 'up' (parent) page, in document order: ``link``
    or ``a`` with a ``rel`` token "up", ``a`` with ``accesskey`` "u", and an ``a``
    whose trimmed text is "Up" inside a navigation header/footer
    (``NAV_PANEL_CLASSES``). All case-insensitive."""
    return [] if root is None else _up_links(_Page(root, page_url))


def highlighted_trail(root: etree._Element | None, page_url: str) -> list[str]:
    """URLs of the items highlighted as current in the page's own menus/sidebars,
    outermost first, without the page itself. An element is marked by ``aria-current``
    (other than "false" or empty) or, for an ``a`` or a ``MARKED_ITEM_TAGS`` element,
    by a class token in ``CURRENT_CLASS_TOKENS`` (case-insensitive); its URL is the
    ``a``'s ``href`` or the item's own link (not one of a nested sublist). Outermost =
    fewest ancestors, ties in document order. At most ``MAX_MARKED`` marked elements
    are examined."""
    return [] if root is None else _highlighted_trail(_Page(root, page_url))


def filed_under(root: etree._Element | None, page_url: str) -> list[str]:
    """URLs of the sections the page declares it is filed in, in document order:
    ``a``/``link`` elements with a ``rel`` token "category" (case-insensitive), when
    all of them sit in one ``article`` (or none does): on a listing, where each
    excerpt names its own category, the page declares nothing."""
    return [] if root is None else _filed_under(_Page(root, page_url))


def pager_links(root: etree._Element | None, page_url: str) -> list[str]:
    """URLs of the other pages of the listing this page is a page of, in document
    order: links (``a``, ``link``) whose text is a page number, arrows or a
    next/previous word, or whose ``rel`` is next/prev/first/last, and whose URL
    differs from the page's only in a page number
    (:func:`skeleton.hierarchy.pagination.is_pager_link`)."""
    return [] if root is None else _pager_links(_Page(root, page_url))


def page_evidence(root: etree._Element | None, page_url: str,
                  attributes: str | None = None) -> dict[str, list[str]]:
    """``{"crumbs": breadcrumb(...), "up": up_links(...), "trail": highlighted_trail(...),
    "filed": filed_under(...), "pager": pager_links(...)}`` with the empty lists left
    out; a breadcrumb whose last link is followed by places named as text only
    (``CRUMB_GAP_ITEMS``) is ``"above"`` instead of ``"crumbs"`` (ancestors, not the
    parent) (one pre-check pass shared by them: ``attributes``, the page's
    :func:`skeleton.web.dom.attribute_text` when the caller has it)."""
    if root is None:
        return {}
    page = _Page(root, page_url, attributes)
    crumbs = _breadcrumb(page)
    evidence = {"crumbs": [] if page.crumb_gap else crumbs, "above": crumbs if page.crumb_gap else []}
    for name, find in (("up", _up_links), ("trail", _highlighted_trail), ("filed", _filed_under),
                       ("pager", _pager_links)):
        checkpoint()  # skeleton.budget: between the passes
        evidence[name] = find(page)
    return {name: urls for name, urls in evidence.items() if urls}


def declared_places(evidence: dict[str, list[str]]) -> list[str]:
    """The pages a page's evidence declares as its places, to be fetched even when
    no navigation set links them: its ancestors (a section index only the breadcrumb
    names: breadcrumb entries, up links and ``filed`` sections) and the other pages
    of the listing it is a page of (``pager``: the items of a section's listing that
    runs over several pages are the section's children), de-duplicated in that
    order. The highlighted trail is left out: it is made of menu links, followed
    anyway."""
    seen: dict[str, None] = {}
    for name in ("crumbs", "above", "up", "filed", "pager"):
        for url in evidence.get(name) or ():
            if isinstance(url, str):
                seen.setdefault(url, None)
    return list(seen)
