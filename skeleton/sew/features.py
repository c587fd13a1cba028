"""The six link-set features of SEW Section 3.3.1.

NumWordName, LenName and VarLenName describe the SecNames; URLType,
VarURLNumDir and URLContain describe the URLs of a candidate link set.
"""
from __future__ import annotations

from collections import Counter
from math import fsum
from collections.abc import Sequence
from statistics import fmean

from .links import LinkNode
from .urls import URLType, contained, directory, num_dirs

__all__ = ["FEATURES", "link_set_features", "pvariance"]

FEATURES = ("NumWordName", "LenName", "VarLenName", "URLType", "VarURLNumDir", "URLContain")


def pvariance(values: Sequence[float]) -> float:
    """Population variance in floats (``statistics.pvariance`` is exact but slow)."""
    mean = fsum(values) / len(values)
    return fsum((v - mean) ** 2 for v in values) / len(values)


def link_set_features(links: Sequence[LinkNode], page_url: str, home_url: str) -> tuple[float, ...]:
    """Feature vector of a non-empty link set, in the order of :data:`FEATURES`.

    * NumWordName: mean number of words of the SecNames;
    * LenName: mean SecName length in characters; VarLenName: its variance;
    * URLType: share of the links whose URL type is the most common one;
    * VarURLNumDir: variance of directory levels below the homepage's directory
      (``OTHER_NUM_DIR`` for *other* URLs);
    * URLContain: share of the links under the current page's directory.
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
        pvariance(lengths) if n > 1 else 0.0,
        types.most_common(1)[0][1] / n,
        pvariance(levels) if n > 1 else 0.0,
        contain / n,
    )
