"""The pruning heuristics of SEW Section 3.2.2, applied by PRUNELINKSET (Figure 2).

Each takes a link set (link nodes in document order) and returns the links kept:
a subset, or the empty list when the whole set is discarded.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterable, Sequence
from functools import lru_cache
from math import sqrt
from statistics import fmean

from .links import LinkNode
from ..web.urls import URLType

__all__ = [
    "INDEX_REDUNDANCY", "DISDIFF_MIN_GAP", "DATE_SHARE", "MAX_DATE_NAME", "is_date_name",
    "ph_index", "ph_date", "ph_deep_link", "ph_buttons", "ph_anchor", "ph_link_dup", "ph_style", "ph_dis_diff",
    "ph_max_num_word", "ph_link_set_dup", "jaccard",
]

#: Index: a link set is an index when more than this share of its links lead
#: into the middle of a page (a fragment) or repeat a target already in the set.
INDEX_REDUNDANCY = 0.5

#: Date: a link set is a chronological archive when more than this share of its
#: SecNames are dates or periods.
DATE_SHARE = 0.5
#: no longer SecName is a date ("31 December 1999 (1234)" has 24 characters)
MAX_DATE_NAME = 40
#: month names and their abbreviations (English, German, French, Spanish, Italian,
#: Dutch, Portuguese), lower case, accents kept
_MONTHS = frozenset("""
january february march april may june july august september october november december
jan feb mar apr jun jul aug sep sept oct nov dec
januar februar märz maerz mai juni juli oktober dezember jän okt dez
janvier février fevrier mars avril juin juillet août aout septembre octobre novembre décembre decembre
janv févr fevr avr juil déc
enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre diciembre
ene abr dic
gennaio febbraio aprile maggio giugno luglio settembre ottobre dicembre
giu lug ott
januari februari maart mei augustus
mrt
janeiro fevereiro março marco maio junho julho setembro outubro novembro dezembro
fev
""".split())
#: a date or period: day, month and year tokens only, with a year or a month name
_DATE_TOKEN = re.compile(r"[^\W_]+")
_YEAR = re.compile(r"(?:1[89]|20)\d\d")

#: the file names that stand for their folder (``a/index.html`` is ``a/``)
INDEX_FILES = frozenset({"index.html", "index.htm", "index.php", "default.htm", "default.aspx"})

#: DisDiff never splits at a gap of fewer link numbers than this.
DISDIFF_MIN_GAP = 4


def _largest_group(links: Sequence[LinkNode], key: Callable[[LinkNode], Hashable],
                   rest: list[list[LinkNode]] | None = None) -> list[LinkNode]:
    groups: dict[Hashable, list[LinkNode]] = {}
    for link in links:
        groups.setdefault(key(link), []).append(link)
    if not groups:
        return []
    # ties go to the group that appears first (dicts keep insertion order)
    largest = max(groups.values(), key=len)
    if rest is not None:
        rest.extend(g for g in groups.values() if g is not largest)
    return largest


def ph_index(links: Sequence[LinkNode]) -> list[LinkNode]:
    """Index (beyond the paper): drop the whole set when most of its links are
    redundant, i.e. point into the middle of a page (``page.html#term``) or repeat
    a target met earlier in the set. Back-of-the-book indexes, glossaries and
    module indexes look so; tables of contents and menus name each page once.
    Kept as navigation, an index would hang deep pages from itself."""
    seen: set[str] = set()
    redundant = 0
    for link in links:
        target = link.url or link.href
        if (("#" in link.href and not _names_its_page(link.href)) or target in seen):
            redundant += 1
        seen.add(target)
    return [] if redundant > INDEX_REDUNDANCY * len(links) else list(links)


def _names_its_page(href: str) -> bool:
    """Does the fragment of ``href`` name the page itself, its last path segment
    without an extension (``2025/deploy/#deploy``, ``deploy.html#deploy``, as
    blog themes link a post's title)? Such a link leads to the top of the page, not
    into its middle."""
    path, _, fragment = href.partition("#")
    path = path.split("?", 1)[0].rstrip("/")
    segment = path.rsplit("/", 1)[-1]
    if segment.lower() in INDEX_FILES:
        segment = path.rsplit("/", 2)[-2] if path.count("/") >= 1 else ""
    return bool(fragment) and fragment.lower() == segment.split(".", 1)[0].lower()


def is_date_name(sec_name: str) -> bool:
    """Whether a SecName names only a date or period ("September 2023",
    "2023-09-30", "Mar 2024 (4)", "2023"): its words are all month names or
    numbers of at most four digits, and one is a month name or a year."""
    return len(sec_name) <= MAX_DATE_NAME and _is_date_name(sec_name)


@lru_cache(maxsize=1 << 12)
def _is_date_name(sec_name: str) -> bool:
    tokens = _DATE_TOKEN.findall(sec_name.lower())
    if not tokens:
        return False
    dated = False
    for token in tokens:
        if token in _MONTHS or _YEAR.fullmatch(token):
            dated = True
        elif not (token.isdigit() and len(token) <= 4):
            return False
    return dated


def ph_date(links: Sequence[LinkNode]) -> list[LinkNode]:
    """Date (beyond the paper): drop the whole set when most of its SecNames are
    dates or periods. A blog's monthly archive, a news site's date archive and a
    calendar order the same pages by time, not by subject; taken for navigation,
    they give every post a second, shorter path than its category."""
    allowed = (1.0 - DATE_SHARE) * len(links)  # reaching this many non-dates keeps the set
    others = 0
    for link in links:
        if not is_date_name(link.sec_name):
            others += 1
            if others >= allowed:
                return list(links)
    return []


def ph_deep_link(links: Sequence[LinkNode]) -> list[LinkNode]:
    """DeepLink (beyond the paper): drop links into the middle of another page
    (``page.html#section``). Navigation leads to pages; deep links come from
    indexes, glossaries and "see also" notes, and would hang pages from them. A
    fragment that names its page (:func:`_names_its_page`) leads to its top."""
    return [link for link in links
            if "#" not in link.href or link.href.startswith("#") or _names_its_page(link.href)]


def ph_buttons(links: Sequence[LinkNode]) -> list[LinkNode]:
    """Buttons (beyond the paper): drop the icon buttons of a set that also has
    links to pages: pseudo-links (``javascript:``, ``mailto:``: URL type *other*)
    without a SecName. A menu's colour toggle or search icon is no entry of it, and
    its ``OTHER_NUM_DIR`` levels would make the whole menu's VarURLNumDir absurd. A
    pseudo-link with words ("live ticker", "Contact" as ``mailto:``) stays: it
    marks prose and footers, which are no navigation."""
    kept = [link for link in links if link.url_type is not URLType.OTHER or link.sec_name.strip()]
    return kept if kept else list(links)


def ph_anchor(links: Sequence[LinkNode], rest: list[list[LinkNode]] | None = None) -> list[LinkNode]:
    """Anchor: keep the largest group of links with the same anchor type (text,
    image, or a bare number: see :func:`.links.sec_name`); the other groups go to
    ``rest`` when given."""
    return _largest_group(links, lambda link: link.anchor, rest)


def ph_link_dup(links: Sequence[LinkNode]) -> list[LinkNode]:
    """LinkDup: of links with the same SecName or URL, keep the first."""
    names: set[str] = set()
    urls: set[str] = set()
    kept = []
    for link in links:
        name = link.sec_name.lower()
        key = link.url or link.href
        if (name and name in names) or key in urls:
            continue
        names.add(name)
        urls.add(key)
        kept.append(link)
    return kept


def ph_style(links: Sequence[LinkNode], rest: list[list[LinkNode]] | None = None) -> list[LinkNode]:
    """Style: keep the largest cluster of links with the same presentation along the
    path; the other clusters go to ``rest`` when given."""
    return _largest_group(links, lambda link: link.style, rest)


def ph_dis_diff(links: Sequence[LinkNode], z: float,
                positions: Sequence[int] | None = None) -> list[LinkNode]:
    """DisDiff: if one gap between consecutive link positions is statistically larger
    than the rest (more than ``z`` deviations above their mean), split there and keep
    the first part.

    ``positions`` default to the link numbers. :func:`.candidates.prune_link_set`
    passes numbers that count only links at the set's depth or shallower, so that
    the entries of a nested table of contents (deeper links between two entries of
    the same list) do not look like a gap between two link sets."""
    if len(links) < 3:
        return list(links)
    pos = list(positions) if positions is not None else [link.number for link in links]
    gaps = [b - a for a, b in zip(pos, pos[1:])]
    cut = max(range(len(gaps)), key=gaps.__getitem__)
    rest = gaps[:cut] + gaps[cut + 1:]
    mean = fmean(rest)
    deviation = sqrt(fmean([(g - mean) ** 2 for g in rest]))
    limit = mean + z * max(deviation, 1.0)
    if gaps[cut] >= DISDIFF_MIN_GAP and gaps[cut] > limit:
        return list(links[: cut + 1])
    return list(links)


def ph_max_num_word(links: Sequence[LinkNode], max_words: float) -> list[LinkNode]:
    """MaxNumWord: discard the set when its mean SecName word count is >= ``max_words``."""
    if links and fmean(link.words for link in links) >= max_words:
        return []
    return list(links)


def jaccard(a: set[str], b: set[str]) -> float:
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


def ph_link_set_dup(links: Sequence[LinkNode], known: Iterable[set[str]],
                    min_jaccard: float) -> list[LinkNode]:
    """LinkSetDup: discard the set when it is (nearly: Jaccard >= ``min_jaccard``) one
    of the navigation link sets already discovered on the page's ancestors."""
    urls = {link.url for link in links if link.url}
    for seen in known:
        if urls and jaccard(urls, seen) >= min_jaccard:
            return []
    return list(links)
