"""A page's ``<link rel="canonical">``: the URL the site says names the page.

The node of a page is the URL its canonical link names, when that URL is on the
crawl's site: the page's own URL becomes an alias of it (like a redirect,
:mod:`skeleton.hierarchy.aliases`). Decisions:

* a canonical URL on **another host** (the production domain written into a staging
  copy, a mirror or a packaged copy) is ignored: the copy's paths need not be the
  production's (the Debian handbook names ``https://debian-handbook.info/browse/stable/``
  from a copy served at ``/``; Apache's manual names ``httpd.apache.org/docs/current/``),
  and a wrong guess would rename every page to a URL the copy does not have;
* a canonical on the page's host with **another scheme** (``https`` canonicals on a
  site served over ``http``) is read on the page's own scheme;
* it is ignored when it leaves the crawl's scope (:func:`skeleton.web.urls.in_scope`),
  looks like a trap, or names the crawl's **home page** for another page (a
  template that gives every page the home page's canonical would fold the whole
  site into one node);
* it is ignored on a **later page of a listing** that names the listing's first page
  (Hugo's and other themes' pagination pages ``/blog/page/2/`` declare ``/blog/``):
  the page is no copy of the first, its items are the listing's too, and the
  pagination rules fold it into its head (:mod:`skeleton.hierarchy.pagination`);
* only the first ``<link rel="canonical">`` counts; ``<a rel="canonical">`` is no
  declaration.
"""
from __future__ import annotations

from urllib.parse import urlunsplit

from lxml import etree

from skeleton.hierarchy.pagination import is_later_page
from skeleton.web.urls import canonical, in_scope, resolve, split_url, trap_reason

__all__ = ["CANONICAL_XPATH", "canonical_link"]

CANONICAL_XPATH = ("//link[@href][contains(translate(@rel, 'CANONICAL', 'canonical'), 'canonical')]"
                   "/@href")
_CANONICAL = etree.XPath(CANONICAL_XPATH, smart_strings=False)


def _on_host(url: str, page_url: str) -> str:
    """``url`` on ``page_url``'s scheme when both are on one host, else ``""`` (also
    when either is unparsable)."""
    target, page = split_url(url), split_url(page_url)
    if target is None or page is None:
        return ""
    if target.netloc.lower() != page.netloc.lower():
        return ""
    if target.scheme == page.scheme:
        return url
    return canonical(urlunsplit((page.scheme, page.netloc, target.path or "/", target.query, "")))


def canonical_link(root: etree._Element | None, page_url: str, base_url: str,
                   attributes: str | None = None) -> str | None:
    """The canonical URL the page declares, when it names another page of the
    crawl (see the module's decisions), else None (also when its href, or
    ``page_url``, is unparsable). ``attributes``: the page's
    :func:`skeleton.web.dom.attribute_text`, if the caller has it (no "canonical" in
    it: no canonical link, no XPath)."""
    if root is None or (attributes is not None and "canonical" not in attributes):
        return None
    hrefs = _CANONICAL(root)
    if not hrefs:
        return None
    url = resolve(str(hrefs[0]), page_url)
    if not url:
        return None
    url = _on_host(url, page_url)
    page = canonical(page_url) or page_url
    if not url or url == page:
        return None
    if not in_scope(url, base_url) or trap_reason(url):
        return None
    home = canonical(base_url) or base_url
    if url == home and page != home:
        return None
    if is_later_page(page, url):
        return None
    return url
