"""The link-set features: the six of SEW Section 3.3.1, and LinkDensity.

NumWordName, LenName and VarLenName describe the SecNames; URLType,
VarURLNumDir and URLContain describe the URLs of a candidate link set.
LinkDensity (beyond the paper) describes the set's container: the share of its
text that is the links' own text. A menu or a table of contents is almost all
link text; links inside prose, a footer's credits or a "see also" sentence are
not. It is the hyperlink density that CHD-HD (the navigation-objects paper)
builds its blocks on, measured on the lowest common ancestor of the set.
"""
from __future__ import annotations

from collections import Counter
from math import fsum, log1p
from collections.abc import Sequence
from statistics import fmean

from lxml import etree

from .links import LinkNode
from .nesting import common_chain
from ..web.urls import URLType, contained, directory, num_dirs

__all__ = ["FEATURES", "link_set_features", "var_len_name", "link_density", "pvariance"]

FEATURES = ("NumWordName", "LenName", "VarLenName", "URLType", "VarURLNumDir", "URLContain",
            "LinkDensity")


def _chars(text: str) -> int:
    """Characters other than whitespace."""
    return len(text) - sum(map(text.count, (" ", "\n", "\t", "\r", "\xa0")))


def link_density(links: Sequence[LinkNode]) -> float:
    """LinkDensity: non-blank characters of the links' SecNames over those of the
    text of the links' lowest common ancestor (1.0 when the elements are unknown)."""
    first = links[0].element
    if first is None:
        return 1.0
    common = len(common_chain(links))
    node = first.getparent()
    for _ in range(len(first_chain := links[0].chain) - common):
        node = node.getparent() if node is not None else None
    if node is None or not first_chain:
        return 1.0
    total = _chars(etree.tostring(node, method="text", encoding=str, with_tail=False))
    own = sum(_chars(link.sec_name) for link in links)
    return min(1.0, own / total) if total else 1.0


def pvariance(values: Sequence[float]) -> float:
    """Population variance in floats (``statistics.pvariance`` is exact but slow)."""
    mean = fsum(values) / len(values)
    return fsum((v - mean) ** 2 for v in values) / len(values)


def var_len_name(lengths: Sequence[int]) -> float:
    """VarLenName as ``log(1 + variance)`` of the SecName lengths.

    Section 3.3.1 takes the variance itself, and NORMDIST compares it with a
    normal density. The variance of lengths is heavy-tailed: a menu of short names
    has 5, a table of contents of long chapter titles 250. A normal fitted to the
    raw values follows whichever kind dominates the training sets, and rejects
    the other kind outright (Valgrind's manual, whose 13 chapter titles have a
    variance of 248, scored z = 6 once the training sets were cleaned of page
    numbers). On the log scale both kinds stay within reach of the norm."""
    return log1p(pvariance(lengths)) if len(lengths) > 1 else 0.0


def link_set_features(links: Sequence[LinkNode], page_url: str, home_url: str) -> tuple[float, ...]:
    """Feature vector of a non-empty link set, in the order of :data:`FEATURES`.

    * NumWordName: mean number of words of the SecNames;
    * LenName: mean SecName length in characters; VarLenName: its variance, on a
      log scale (``log(1 + variance)``, see :func:`var_len_name`);
    * URLType: share of the links whose URL type is the most common one;
    * VarURLNumDir: variance of directory levels below the homepage's directory
      (``OTHER_NUM_DIR`` for *other* URLs);
    * URLContain: share of the links under the current page's directory;
    * LinkDensity: see :func:`link_density`.
    """
    lengths = [len(link.sec_name) for link in links]
    words = [link.words for link in links]
    types = Counter(link.url_type for link in links)
    home_dir = directory(home_url)
    levels = [num_dirs(link.url or (page_url if link.url_type is URLType.ANCHOR else ""), home_dir)
              for link in links]
    contain = sum(link.url_type is URLType.ANCHOR or contained(link.url, page_url) for link in links)
    n = len(links)
    return (
        fmean(words),
        fmean(lengths),
        var_len_name(lengths),
        types.most_common(1)[0][1] / n,
        pvariance(levels) if n > 1 else 0.0,
        contain / n,
        link_density(links),
    )
