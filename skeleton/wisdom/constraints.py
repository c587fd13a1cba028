"""Parameters and type constraints of WISDOM (paper Sections 3.2.2 and 4.4).

Type constraints (Section 3.2.2) remove pseudo-informative blocks:

* article: CII(N) >= 1 - TC_article (its terms are informative on average);
* TOC: API_A(N) / #anchors in T(N) >= TC_TOC (its anchors are precise on average).

The defaults are the paper's system setting (Section 4.4): k = 1, ST = 0.8,
TC = (0.8, 1.25), merging with DSTM and 1-CSTM.
"""
from __future__ import annotations

from dataclasses import dataclass

from skeleton.wisdom.coverage import CoverageTree

__all__ = [
    "TOC", "ARTICLE", "KINDS", "DEFAULT_K", "DEFAULT_ST", "TC_TOC", "TC_ARTICLE",
    "DEFAULT_CSTM_LEVELS", "CONDENSE_MIN_TERMS", "TOC_FEATURES", "WisdomParams",
    "search_feature", "type_index", "satisfies", "content",
]

TOC = "toc"
ARTICLE = "article"
KINDS = (TOC, ARTICLE)
#: k of k-MIB: at most this many skeleton nodes per block type (Section 4.4: k = 1).
DEFAULT_K = 1
#: ST, the SII threshold of k-MIB (Section 4.4: 0.8).
DEFAULT_ST = 0.8
#: TC_TOC: least mean API of a TOC block (Section 4.2: one term of entropy 0.8).
TC_TOC = 1.25
#: TC_article: an article block needs CII >= 1 - TC_article (Section 4.2).
TC_ARTICLE = 0.8
#: k-CSTM levels applied after DSTM (Section 4.4: 1-CSTM).
DEFAULT_CSTM_LEVELS = 1
#: Condensing judges CII only on sub-trees with at least this many terms: the paper
#: notes (Section 4.2) that CII of a block with few terms is inaccurate.
CONDENSE_MIN_TERMS = 5
#: Search features for TOC blocks: API_A (default) or ALEN_A (Section 4.4, Figure 21).
TOC_FEATURES = ("api", "alen")


@dataclass(frozen=True)
class WisdomParams:
    """Every knob of WISDOM, with the paper's defaults.

    ``missing_page`` is the API policy for linked pages whose terms are unknown
    (see :mod:`skeleton.wisdom.features`).
    """

    k: int = DEFAULT_K
    st: float = DEFAULT_ST
    tc_toc: float = TC_TOC
    tc_article: float = TC_ARTICLE
    toc_feature: str = "api"
    dstm: bool = True
    cstm_levels: int = DEFAULT_CSTM_LEVELS
    condense: bool = True
    missing_page: str = "anchor"

    def __post_init__(self) -> None:
        if self.k < 0 or self.cstm_levels < 0:
            raise ValueError("k and cstm_levels must be >= 0")
        if self.toc_feature not in TOC_FEATURES:
            raise ValueError(f"toc_feature must be one of {TOC_FEATURES}")


def search_feature(kind: str, params: WisdomParams) -> str:
    """The feature f whose f_A and SII(f_A) drive k-MIB for ``kind``."""
    if kind == TOC:
        return params.toc_feature
    if kind == ARTICLE:
        return "clen"
    raise ValueError(f"kind must be one of {KINDS}")


def type_index(tree: CoverageTree, i: int, kind: str) -> float:
    """The value the type constraint bounds: mean API (TOC) or CII (article)."""
    return tree.mean_api(i) if kind == TOC else tree.cii(i)


def satisfies(tree: CoverageTree, i: int, kind: str, params: WisdomParams) -> bool:
    """Does node ``i`` match the type constraint of ``kind`` (and hold such content)?"""
    if kind == TOC:
        return tree.anchors_a[i] > 0 and tree.mean_api(i) >= params.tc_toc
    return tree.clen_a[i] > 0 and tree.cii(i) >= 1.0 - params.tc_article


def content(tree: CoverageTree, i: int, kind: str) -> float:
    """What a block of ``kind`` is made of: anchors (TOC) or context length (article)."""
    return tree.anchors_a[i] if kind == TOC else tree.clen_a[i]
