"""Hyperlinks as directory paths, hDistance and the link relevance order
(Alarte et al., "Automatic Detection of Webpages that Share the Same Web
Template", Section 3.2, Definitions 1, 2 and 4).

A hyperlink is the sequence of directories of a URL, the resource name
ignored (Definition 1). The first word is the host, so that two links of one
site always share their head and a link to another host has a different head
(the fifth case of Definition 2): ``http://h/research/maths/index.html`` is
``("h", "research", "maths")``. The paper's example hDistance(research/maths/,
www.upv.es/research/) = -2 writes paths without their host; with the host as a
word a link to another host is -3 here. Such links never reach Algorithm 1
(getLinks keeps the key page's domain only, footnote 3 and Section 4), and for
same-host links both writings give the same distance.
"""
from __future__ import annotations

from os.path import commonprefix


from skeleton.web.urls import directory, normalize_page, split_url

__all__ = ["Hyperlink", "hyperlink", "h_distance", "link_rank", "link_less", "same_domain",
           "page_identity"]

Hyperlink = tuple[str, ...]


def hyperlink(url: str) -> Hyperlink:
    """Definition 1: the host then each directory of ``url`` (``()`` for a URL
    without a host or an unparsable one)."""
    parts = split_url(url)
    if parts is None or not parts.netloc:
        return ()
    dirs = [seg for seg in directory(url).split("/") if seg]
    return (parts.netloc.lower(), *dirs)


def _common_prefix(a: Hyperlink, b: Hyperlink) -> int:
    return len(commonprefix([a, b]))


def h_distance(h: Hyperlink, other: Hyperlink) -> int:
    """Definition 2, hDistance(h, h'): 0 for the same directory, +|h1| when
    h' = h h1 (a subdirectory), else -|h1| where h = h0 h1 and h0 is the longest
    common prefix (which is the whole of h when the heads differ)."""
    shared = _common_prefix(h, other)
    if shared == len(h):
        return len(other) - len(h)
    return -(len(h) - shared)


def link_rank(distance: int) -> tuple[int, int]:
    """A sort key for the link relevance preorder (Definition 4): distance 0
    first, then positive distances in increasing order, then negative distances
    from -1 downwards. Equal keys are equal in the preorder."""
    return (0, distance) if distance >= 0 else (1, -distance)


def link_less(hd1: int, hd2: int) -> bool:
    """Definition 4 as written: n1 <_link n2 iff 0 <= hd1 < hd2, or hd2 < hd1 <= 0,
    or hd2 < 0 <= hd1 (n1 is more relevant than n2)."""
    return (0 <= hd1 < hd2) or (hd2 < hd1 <= 0) or (hd2 < 0 <= hd1)


def same_domain(url: str, other: str) -> bool:
    """Both URLs on the same host and port (the paper restricts the search to
    the key page's domain, Section 4); False when either is unparsable."""
    a, b = split_url(url), split_url(other)
    if a is None or b is None:
        return False
    return bool(a.netloc) and a.netloc.lower() == b.netloc.lower()


def page_identity(url: str) -> str:
    """The identity used to compare links: ``dir/`` and ``dir/index.html`` are
    the same page (``skeleton.web.urls.normalize_page``); an unparsable URL is its
    own identity."""
    return normalize_page(url) or url
