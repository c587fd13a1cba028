"""Action links: links into forms and accounts, which a skeleton crawl never follows.

A link is an **action** when its URL or its text says so, in one of several
languages (:data:`ACTION_URL_PATTERNS`, :data:`ACTION_TEXTS`): cart, wishlist,
login and account, compare, report, share and search links (a search's results
re-list what the site files elsewhere). URL patterns match a whole
path segment or query parameter name, alone or with one word before or after it
(``/cart/add.html``, ``ucp-login.html``, ``?add-to-cart=12``), never a substring of
a word or a long slug (``register-to-vote.html``); a text
matches when the link's whole text is one of the phrases (``Log in``, ``In den
Warenkorb``) or starts with an "add to" phrase, so a chapter titled "Remote login"
is no action. ``rel="nofollow"`` links are skipped too (:func:`nofollow_urls`),
unless the page also links the same URL without it, and so are links the page
marks as views with an HTML link type (:func:`view_urls`: ``rel="tag"``,
``"author"``, ``"archives"``, ``"search"``; not ``rel="category tag"``), with
byline or tag cloud markup, or with a label (:func:`view_links`: the links after
"tags:", under a "Tags" heading or in a block named "Archive" for assistive
technology, in several languages, :data:`VIEW_LABELS`).

A fetched page that **answers with a form only** (:func:`form_only`: a password
field, or a form with little text around it) is an action page: it is no node, its
links are not followed, and the crawl skips every later link to the same path
(:mod:`skeleton.middlewares.variants`).
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from urllib.parse import unquote

from lxml import etree

from skeleton.hierarchy.pagination import is_pager_text
from skeleton.web.dom import attribute_text
from skeleton.web.urls import resolve, split_url

from .content import main_element, main_text

__all__ = ["ACTION_URL_PATTERNS", "ACTION_TEXTS", "ACTION_TEXT_PREFIXES", "FORM_PAGE_MAX_TEXT",
           "NOFOLLOW_RELS", "VIEW_RELS", "FILED_RELS", "action_reason", "url_action", "text_action",
           "VIEW_LABELS", "rel_marked_urls", "nofollow_urls", "view_links", "view_urls", "form_only",
           "action_path"]

#: kind -> regular expression over the lower-case path and query names, matching whole tokens
ACTION_URL_PATTERNS: dict[str, str] = {
    "cart": r"cart|add[-_]?to[-_]?cart|addtocart|basket|add[-_]?to[-_]?basket|checkout|warenkorb|kasse|panier"
            r"|carrito|carrello|winkelwagen|koszyk|korzina|kosik",
    "wishlist": r"wish[-_]?list|add[-_]?to[-_]?wishlist|merkzettel|wunschliste|liste[-_]?de[-_]?souhaits"
                r"|lista[-_]?de[-_]?deseos|verlanglijst",
    "login": r"login|log[-_]?in|logon|signin|sign[-_]?in|signup|sign[-_]?up|register|registration|logout"
             r"|log[-_]?out|signout|sign[-_]?out|my[-_]?account|useraccount|ucp|anmelden|abmelden|einloggen"
             r"|registrieren|connexion|deconnexion|inscription|iniciar[-_]?sesion|accedi|registrati"
             r"|inloggen|uitloggen|logowanie|zaloguj|special:userlogin|return[-_]?to|returnto",
    "compare": r"compare|add[-_]?to[-_]?compare|vergleich|vergleichen|comparer|comparar|confronta",
    "report": r"report[-_]?abuse|reportabuse|abuse[-_]?report|report[-_]?(?:item|post|comment|listing|this)"
              r"|flag[-_]?(?:item|post|comment)",
    "share": r"share|sharer|share[-_]?this|tell[-_]?a[-_]?friend|email[-_]?a[-_]?friend|send[-_]?to[-_]?friend",
    "search": r"search|suche|zoeken|buscar",
}
#: kind -> link texts (compared case-folded, whitespace-normalized, whole text)
ACTION_TEXTS: dict[str, frozenset[str]] = {
    "cart": frozenset({"add to cart", "add to basket", "add to bag", "cart", "basket", "view cart",
                       "shopping cart", "checkout", "in den warenkorb", "warenkorb", "zur kasse",
                       "ajouter au panier", "panier", "añadir al carrito", "carrito",
                       "aggiungi al carrello", "carrello", "in winkelwagen", "winkelwagen",
                       "do koszyka", "koszyk", "в корзину", "корзина", "カートに入れる", "加入购物车",
                       "购物车"}),
    "wishlist": frozenset({"add to wishlist", "add to wish list", "wishlist", "wish list",
                           "merkzettel", "auf den merkzettel", "wunschliste",
                           "ajouter à la liste de souhaits", "lista de deseos"}),
    "login": frozenset({"log in", "login", "log on", "sign in", "sign up", "register", "log out",
                        "logout", "sign out", "my account", "create account", "create an account",
                        "anmelden", "abmelden", "einloggen", "registrieren", "mein konto",
                        "se connecter", "connexion", "déconnexion", "s'inscrire", "mon compte",
                        "iniciar sesión", "cerrar sesión", "registrarse", "mi cuenta", "accedi",
                        "esci", "registrati", "inloggen", "uitloggen", "zaloguj", "войти",
                        "выйти", "регистрация", "ログイン", "登录", "注册"}),
    "compare": frozenset({"compare", "add to compare", "vergleichen", "comparer", "comparar"}),
    "report": frozenset({"report", "report abuse", "report this item", "report this post",
                         "report this comment", "melden", "signaler", "denunciar", "segnala"}),
    "share": frozenset({"share", "share this", "tweet", "email this", "teilen", "partager",
                        "compartir", "condividi", "delen"}),
}
#: text starts that make an action whatever follows ("Add to cart – $12")
ACTION_TEXT_PREFIXES: dict[str, tuple[str, ...]] = {
    "cart": ("add to cart", "add to basket", "add to bag", "in den warenkorb", "ajouter au panier",
             "añadir al carrito", "aggiungi al carrello"),
    "wishlist": ("add to wishlist", "add to wish list"),
    "share": ("share on ", "share via ", "teilen auf ", "partager sur ", "compartir en "),
}
#: ``rel`` tokens of links never followed
NOFOLLOW_RELS = frozenset({"nofollow"})
#: ``rel`` tokens (HTML link types) of links to views: tag, author, archive and
#: search pages re-list what the site files elsewhere
VIEW_RELS = frozenset({"tag", "author", "archives", "search"})
#: labels of a block of links to views (compared case-folded, whitespace-normalized,
#: without trailing punctuation): a post's tags ("tags: <a>..</a> <a>..</a>"), a tag
#: cloud, keyword, archive and author lists, in several languages
VIEW_LABELS = frozenset({
    "tags", "tag", "tagged", "tagged with", "tagged as", "keywords", "labels", "tag cloud",
    "archive", "archives", "blog archive", "authors",
    "étiquettes", "mots-clés", "mots clés", "nuage de tags", "auteurs",
    "schlagwörter", "schlagworte", "stichwörter", "stichworte", "autoren",
    "archiv", "etiquetas", "palabras clave", "archivo", "archivos", "autores", "etichette", "parole chiave", "archivio",
    "autori", "trefwoorden", "archief", "tagi", "słowa kluczowe", "метки", "теги", "ключевые слова",
    "タグ", "标签",
})
#: ``rel`` tokens that make a link a section's, whatever else it says
FILED_RELS = frozenset({"category"})
#: a page whose main text outside its forms is shorter than this, with a form of
#: two fields or more, answers with a form only
FORM_PAGE_MAX_TEXT = 80
#: a form with at least this many fields (input, select, textarea) is a real form
FORM_MIN_FIELDS = 2

_URL_RES = {kind: re.compile(rf"^(?:[a-z0-9]+[-_])?(?:{pattern})$|^(?:{pattern})[-_][a-z0-9]+$")
            for kind, pattern in ACTION_URL_PATTERNS.items()}
_EXTENSION = re.compile(r"\.[a-z0-9]{1,5}$")
_SPACES = re.compile(r"\s+")
#: URLs (and link texts) whose action kind is remembered: a site's menus repeat them
#: on every page
CACHED_URLS = 16384
_STRIP = " \t\n\r.:…!?»«›‹→←|•·-–—()[]{}<>\"'"
_REL_A = etree.XPath('//a[@href][@rel]')
#: the class WordPress writes on every tag cloud link
TAG_CLOUD_CLASS = "tag-cloud-link"
_TAG_CLOUD = f"contains(concat(' ', normalize-space(@class), ' '), ' {TAG_CLOUD_CLASS} ')"
#: parts of a class name (split at ``-`` and ``_``) that mark a post's byline
BYLINE_CLASS_PARTS = frozenset({"author", "authors", "byline"})
_TAG_CLOUD_A = etree.XPath(f"//a[@href][{_TAG_CLOUD}]")
_BYLINE_CANDIDATES = etree.XPath("//*[@class[contains(., 'author') or contains(., 'byline')]]")
_CLASS_PARTS = re.compile(r"[-_\s]+")
_ALL_A = etree.XPath("//a[@href]")
#: elements whose first child element is a link (a label may stand before it); a
#: predicate on the parent, not ``//a[...]/..``: libxml2 merges the parents of the
#: links one by one, each checked against all those kept (N squared, issue 29)
LINK_FIRST_XPATH = "//*[a[@href][not(preceding-sibling::*[1])]]"
_LINK_FIRST = etree.XPath(LINK_FIRST_XPATH)
_HEADINGS = etree.XPath("//h1 | //h2 | //h3 | //h4 | //h5 | //h6")
_HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
#: elements named for assistive technology (WAI-ARIA ``aria-label``/``aria-labelledby``)
_NAMED = etree.XPath("//*[@aria-label or @aria-labelledby][not(self::a)]")
_WITH_ID = etree.XPath("//*[@id]")
_PLAIN_A = etree.XPath('//a[@href][not(@rel)]/@href', smart_strings=False)
_PASSWORD = etree.XPath('.//input[translate(@type, "PASWORD", "pasword") = "password"]')
_FORMS = etree.XPath(".//form")
_FIELDS = etree.XPath('.//input[not(translate(@type, "HIDENSUBMT", "hidensubmt") = "hidden")'
                      ' and not(translate(@type, "HIDENSUBMT", "hidensubmt") = "submit")]'
                      ' | .//select | .//textarea')


def _normal(text: str) -> str:
    text = unicodedata.normalize("NFKC", text or "")
    return _SPACES.sub(" ", text).strip(_STRIP).casefold()


def _url_tokens(url: str) -> list[str]:
    """The lower-case path segments (without extension) and query parameter names;
    none for an unparsable URL."""
    parts = split_url(url)
    if parts is None:
        return []
    tokens = [_EXTENSION.sub("", seg) for seg in unquote(parts.path).lower().split("/") if seg]
    tokens += [pair.split("=", 1)[0].lower() for pair in parts.query.split("&") if pair]
    return tokens


@lru_cache(maxsize=CACHED_URLS)
def url_action(url: str) -> str | None:
    """The action kind the URL says, or None: a path segment (without extension) or a
    query parameter name that is an action word, alone or with one word before or
    after it (``cart``, ``ucp-login.html``, ``report-abuse``, ``?add-to-cart=``), so
    ``register-to-vote.html`` is no action. None for an unparsable URL."""
    tokens = _url_tokens(url)
    for kind, pattern in _URL_RES.items():
        if any(pattern.match(token) for token in tokens):
            return kind
    return None


@lru_cache(maxsize=CACHED_URLS)
def text_action(text: str) -> str | None:
    """The action kind a link's text says, or None."""
    norm = _normal(text)
    if not norm:
        return None
    for kind, texts in ACTION_TEXTS.items():
        if norm in texts:
            return kind
    for kind, prefixes in ACTION_TEXT_PREFIXES.items():
        if norm.startswith(prefixes):
            return kind
    return None


def action_reason(url: str, text: str = "") -> str | None:
    """Why a link is an action (``"action/cart"``, ...), or None."""
    kind = url_action(url) or text_action(text)
    return f"action/{kind}" if kind else None


def rel_marked_urls(root: etree._Element | None, page_url: str, rels: frozenset[str],
                    keep: frozenset[str] = frozenset(), attributes: str | None = None) -> frozenset[str]:
    """The URLs the page links only from ``a`` elements whose ``rel`` has a token in
    ``rels`` and none in ``keep`` (canonical, absolute): a URL the page also links
    without such a ``rel`` is not one. ``attributes``: the page's
    :func:`skeleton.web.dom.attribute_text`, if the caller has it (a page none of
    whose attribute values holds a token of ``rels`` has none)."""
    if root is None:
        return frozenset()
    text = attribute_text(root) if attributes is None else attributes
    if not any(rel in text for rel in rels):
        return frozenset()
    marked: set[str] = set()
    plain: set[str] = set()
    for a in _REL_A(root):
        url = resolve(a.get("href") or "", page_url)
        if url:
            tokens = set((a.get("rel") or "").lower().split())
            (marked if tokens & rels and not tokens & keep else plain).add(url)
    if not marked:
        return frozenset()
    plain.update(filter(None, (resolve(href, page_url) for href in _PLAIN_A(root))))
    return frozenset(marked - plain)


def nofollow_urls(root: etree._Element | None, page_url: str,
                  attributes: str | None = None) -> frozenset[str]:
    """The URLs the page links only with ``rel="nofollow"`` (canonical, absolute)."""
    return rel_marked_urls(root, page_url, NOFOLLOW_RELS, attributes=attributes)


def _accessible_names(root: etree._Element) -> list[tuple[etree._Element, str]]:
    """The page's named elements with their names: ``aria-label``, else the text of
    the elements ``aria-labelledby`` names (ids in the same document)."""
    named = _NAMED(root)
    ids: dict[str, etree._Element] = {}
    if any(el.get("aria-label") is None for el in named):
        for el in _WITH_ID(root):
            ids.setdefault(el.get("id"), el)
    out = []
    for el in named:
        label = el.get("aria-label")
        if label is None:
            label = " ".join(" ".join(ids[i].itertext()) for i in el.get("aria-labelledby", "").split()[:4]
                             if i in ids)
        out.append((el, label))
    return out


def _labelled_anchors(root: etree._Element) -> list[etree._Element]:
    """The links of the blocks the page labels as views (:func:`view_links`)."""
    blocks = [el for el in _LINK_FIRST(root) if _normal(el.text or "") in VIEW_LABELS]
    blocks += [el for el, name in _accessible_names(root) if _normal(name) in VIEW_LABELS]
    for heading in _HEADINGS(root):
        if _normal(" ".join(heading.itertext())) in VIEW_LABELS:
            for sibling in heading.itersiblings():
                if sibling.tag in _HEADING_TAGS:
                    break
                blocks.append(sibling)
    return [a for block in blocks for a in block.iter("a") if a.get("href")]


def view_links(root: etree._Element | None, page_url: str,
               attributes: str | None = None) -> dict[str, str]:
    """URL -> how the page marks it as a view (``"rel"`` or ``"label"``), for the
    URLs the page links only as views. Marked by markup (``"rel"``): ``rel`` ``tag``,
    ``author``, ``archives`` or ``search`` (HTML link types), unless ``category``
    too (WordPress's ``rel="category tag"`` names the post's section), the links of
    a post's byline (an element whose class name has a part in
    :data:`BYLINE_CLASS_PARTS`: the hCard ``vcard author`` of Pelican and WordPress
    themes, MkDocs Material's ``md-post__authors``) and the
    links of a WordPress tag cloud (class ``tag-cloud-link``, which WordPress itself
    writes on every tag cloud link, whatever the theme). Marked by a label
    (``"label"``, :data:`VIEW_LABELS`): the links of an element whose whole text
    before its first link (its first child element) is a label ("tags: <a>..</a>
    <a>..</a>", as Pelican writes a post's tags), of the elements that follow a
    heading whose whole text is a label, up to the next heading (a "Tags" widget),
    and of an element whose accessible name (WAI-ARIA ``aria-label``, or the text
    of the elements its ``aria-labelledby`` names) is a label (MkDocs Material's
    "Archive" and "Authors" sidebars). A URL the page also links unmarked is none,
    unless that link is a step in reading order (a next/previous link or a page
    number: "Next: 2025" names a neighbour, not a section). ``attributes``: the
    page's :func:`skeleton.web.dom.attribute_text`, if the caller has it (the markup
    tests run only when their words are in it)."""
    if root is None:
        return {}
    text = attribute_text(root) if attributes is None else attributes
    labelled = set(_labelled_anchors(root))
    rels = any(rel in text for rel in VIEW_RELS) and any(
        set((a.get("rel") or "").lower().split()) & VIEW_RELS for a in _REL_A(root))
    markup = set(_TAG_CLOUD_A(root)) if TAG_CLOUD_CLASS in text else set()
    if any(part in text for part in BYLINE_CLASS_PARTS):
        markup |= _byline_anchors(root)
    if not (labelled or rels or markup):
        return {}
    kinds: dict[str, str] = {}
    plain: set[str] = set()
    for a in _ALL_A(root):
        url = resolve(a.get("href") or "", page_url)
        if not url:
            continue
        tokens = set((a.get("rel") or "").lower().split())
        if (tokens & VIEW_RELS and not tokens & FILED_RELS) or a in markup:
            kinds[url] = "rel"
        elif a in labelled:
            kinds.setdefault(url, "label")
        elif not _sequential(a):
            plain.add(url)
    return {url: kind for url, kind in kinds.items() if url not in plain}


def _byline_anchors(root: etree._Element) -> set[etree._Element]:
    """The links inside elements whose class names a byline (a class name with a
    part in :data:`BYLINE_CLASS_PARTS`: ``author``, ``post-author``,
    ``md-post__authors``, ``byline``)."""
    anchors: set[etree._Element] = set()
    for element in _BYLINE_CANDIDATES(root):
        if BYLINE_CLASS_PARTS.intersection(_CLASS_PARTS.split((element.get("class") or "").lower())):
            anchors.update(a for a in element.iter("a") if a.get("href"))
    return anchors


def _sequential(a: etree._Element) -> bool:
    """Is the link a step in the site's reading order ("Next: 2025", "« Previous",
    a page number), which names a neighbour, not a section?"""
    text = a.get("aria-label") or " ".join(a.itertext())
    return is_pager_text(text)


def view_urls(root: etree._Element | None, page_url: str) -> frozenset[str]:
    """The URLs the page links only as views, by markup or by label
    (:func:`view_links`)."""
    return frozenset(view_links(root, page_url))


def form_only(root: etree._Element | None) -> bool:
    """Does the page answer with a form only: a password field in its main content,
    or a form of ``FORM_MIN_FIELDS`` fields or more with less than
    ``FORM_PAGE_MAX_TEXT`` characters of text outside its forms?"""
    if root is None or next(root.iter("form", "input"), None) is None:
        return False  # no field anywhere (most pages): no main element to look for
    main = main_element(root)
    if _PASSWORD(main):
        return True
    forms = _FORMS(main)
    if not forms or max(len(_FIELDS(form)) for form in forms) < FORM_MIN_FIELDS:
        return False
    return len(main_text(main)) < FORM_PAGE_MAX_TEXT


def action_path(url: str) -> str:
    """The URL without its query: the path a form page is remembered by."""
    return url.split("?", 1)[0].split("#", 1)[0]
