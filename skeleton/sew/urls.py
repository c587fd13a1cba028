"""URL classification and hygiene.

The five URL types of SEW Section 3.3.1 (relative, absolute, cross-site, anchor,
other), directory levels for VarURLNumDir and containment for URLContain, plus
the canonical form and spider-trap checks the crawler applies to every link.
"""
from __future__ import annotations

import posixpath
import re
from functools import lru_cache
from enum import Enum
from urllib.parse import urljoin, urlsplit, urlunsplit

from w3lib.url import canonicalize_url, url_query_cleaner

__all__ = [
    "DIRECTORY_INDEXES", "OTHER_NUM_DIR", "MAX_URL_LENGTH", "MAX_REPEATED_SEGMENTS", "SESSION_PARAMS",
    "URLType", "url_type", "resolve", "canonical", "num_dirs", "directory", "shared_dirs", "section_dirs", "contained",
    "in_scope", "trap_reason", "normalize_page",
]

#: Index page names a web server serves for their directory's URL (``dir/``).
DIRECTORY_INDEXES = ("index.html", "index.htm")

#: SEW Section 3.3.1: the number of directory levels given to *other* URLs.
OTHER_NUM_DIR = 1000
#: Spider-trap limits: longest URL followed, most repetitions of one path segment.
MAX_URL_LENGTH = 512
MAX_REPEATED_SEGMENTS = 2
#: Query parameters that carry session ids; dropped from canonical URLs.
SESSION_PARAMS = ("sid", "sessionid", "session_id", "phpsessid", "jsessionid", "sessid",
                  "zenid", "osCsid", "s")
_SESSION_NAMES = frozenset(name.lower() for name in SESSION_PARAMS)
_SESSION_PATH = re.compile(r";(jsessionid|sessionid|sid)=[^/?#]*", re.I)
_FOLLOWABLE_SCHEMES = ("http", "https")
#: an http(s) URL that canonicalization leaves as it is: lower-case scheme, no
#: query, fragment, escapes, ';' parameters or characters needing escapes
_PLAIN_HREF = re.compile(r"^[A-Za-z0-9._~/\-]+$")
_PLAIN_URL = re.compile(r"^https?://[a-z0-9.\-]+(:[0-9]+)?/[A-Za-z0-9._~/\-]*$")


class URLType(str, Enum):
    RELATIVE = "relative"
    ABSOLUTE = "absolute"
    CROSS_SITE = "cross-site"
    ANCHOR = "anchor"
    OTHER = "other"


def url_type(href: str, page_url: str) -> URLType:
    """Classify a raw ``href`` as in SEW Section 3.3.1."""
    href = href.strip()
    if href.startswith("#"):
        return URLType.ANCHOR
    if ":" not in href and not href.startswith("//"):
        if not href:
            return URLType.ANCHOR
        return URLType.ABSOLUTE if href.startswith("/") else URLType.RELATIVE
    parts = urlsplit(href)
    if parts.scheme and parts.scheme.lower() not in _FOLLOWABLE_SCHEMES:
        return URLType.OTHER
    if parts.netloc or href.startswith("//"):
        same = parts.netloc.lower() == urlsplit(page_url).netloc.lower()
        return URLType.ABSOLUTE if same else URLType.CROSS_SITE
    if href.startswith("/"):
        return URLType.ABSOLUTE
    if not href:
        return URLType.ANCHOR
    return URLType.RELATIVE


@lru_cache(maxsize=64)
def _prefixes(page_url: str) -> tuple[str, str]:
    """(scheme://host, scheme://host/dir/) of a page URL, for fast joins."""
    parts = urlsplit(page_url)
    origin = f"{parts.scheme}://{parts.netloc}"
    return origin, origin + directory(page_url)


def resolve(href: str, page_url: str) -> str:
    """Absolute canonical URL of ``href`` on ``page_url``, or '' if not http(s)."""
    href = href.strip()
    if not href or href.startswith("#"):
        return ""
    plain = href.split("#", 1)[0]
    if plain and _PLAIN_HREF.match(plain) and "//" not in plain:
        origin, folder = _prefixes(page_url)
        return _resolve_plain(plain, origin if plain.startswith("/") else folder, origin)
    if href[:8].lower().startswith(("http://", "https://")):
        # urljoin reads only the base's scheme here: cached across pages
        return _resolve_other(href, page_url.split(":", 1)[0] + "://h/")
    return _resolve_other(href, page_url)


@lru_cache(maxsize=65536)
def _resolve_plain(plain: str, prefix: str, origin: str) -> str:
    """A plain relative or root-relative href under ``prefix`` (the page's folder or
    origin), canonical. Cached: menus repeat the same hrefs on every page of a folder."""
    joined = prefix + plain
    if "/." in "/" + plain:  # dot segments: normalize the path as urljoin does
        path = posixpath.normpath(joined[len(origin):])
        if plain.endswith(("/", "/.", "/..")) or plain in (".", ".."):
            path = path.rstrip("/") + "/"
        joined = origin + path
    return canonical(joined)


@lru_cache(maxsize=65536)
def _resolve_other(href: str, base: str) -> str:
    try:
        absolute = urljoin(base, href)
        scheme = urlsplit(absolute).scheme.lower()
    except ValueError:
        return ""
    if scheme not in _FOLLOWABLE_SCHEMES:
        return ""
    return canonical(absolute)


def _directory_alias(url: str) -> str:
    """``dir/index.html`` -> ``dir/`` (no query): one page, one URL."""
    if url.endswith(DIRECTORY_INDEXES) and "?" not in url:
        head, _, name = url.rpartition("/")
        if name.lower() in DIRECTORY_INDEXES and "//" in head:
            return head + "/"
    return url


def canonical(url: str) -> str:
    """Canonical form: no fragment, no session ids, sorted query, normalized escapes,
    and a directory's index page named by its directory (``dir/index.html`` is
    ``dir/``, which a web server answers with the same page)."""
    url = url.split("#", 1)[0]
    if _PLAIN_URL.match(url) and "/." not in url:
        return _directory_alias(url)  # nothing else to normalize: the common case, kept fast
    try:
        url = _SESSION_PATH.sub("", url)
        query = urlsplit(url).query
        if query:
            names = {pair.split("=", 1)[0] for pair in query.split("&")}
            drop = [n for n in names if n.lower() in _SESSION_NAMES]
            if drop:
                url = url_query_cleaner(url, drop, remove=True, unique=False, keep_fragments=False)
        return _directory_alias(canonicalize_url(url, keep_fragments=False))
    except (ValueError, UnicodeError):
        return ""


@lru_cache(maxsize=8192)
def directory(url: str) -> str:
    """The directory part of a URL's path ('/a/b/' for '/a/b/c.html')."""
    path = urlsplit(url).path or "/"
    return path if path.endswith("/") else posixpath.dirname(path).rstrip("/") + "/"


def num_dirs(url: str, base_dir: str = "/") -> int:
    """Directory levels of ``url`` below ``base_dir`` (VarURLNumDir), ``OTHER_NUM_DIR``
    for non-http URLs."""
    if not url:
        return OTHER_NUM_DIR
    path = directory(url)
    if path.startswith(base_dir):
        path = path[len(base_dir):]
    return len([seg for seg in path.split("/") if seg])


def shared_dirs(url: str, other: str) -> int:
    """How many leading directory segments the paths of two URLs share (0 on
    different hosts): the tree's tie-break between parents at the same depth."""
    a, b = urlsplit(url), urlsplit(other)
    if a.netloc.lower() != b.netloc.lower():
        return 0
    count = 0
    for x, y in zip(directory(url).split("/")[1:-1], directory(other).split("/")[1:-1]):
        if x != y:
            break
        count += 1
    return count


def section_dirs(parent: str, child: str) -> int:
    """The tree's tie-break between parents at the same depth: the directories
    ``child`` shares with ``parent`` when ``parent`` is a directory's index page
    (``/en/mod/``, ``/en/mod/index.html``), the section its URL names; 0 for any
    other page, so a "related pages" box on a sibling in the same flat folder
    (``/p/a.html`` -> ``/p/b.html``) does not outrank the section page."""
    path = _split(parent)[1]
    name = path.rsplit("/", 1)[-1].lower()
    if "?" in parent or (name and name not in DIRECTORY_INDEXES):
        return 0
    return shared_dirs(parent, child)


def contained(url: str, page_url: str) -> bool:
    """URLContain: is ``url`` under the directory of ``page_url`` (same host)?"""
    if not url:
        return False
    return _netloc(url) == _netloc(page_url) and _path(url).startswith(directory(page_url))


@lru_cache(maxsize=8192)
def _split(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    return parts.netloc, parts.path


def _netloc(url: str) -> str:
    return _split(url)[0]


def _path(url: str) -> str:
    return _split(url)[1]


def in_scope(url: str, base_url: str) -> bool:
    """Same host as the base URL and under the base URL's directory."""
    if not url:
        return False
    a, b = urlsplit(url), urlsplit(base_url)
    return a.netloc.lower() == b.netloc.lower() and a.path.startswith(directory(base_url))


def trap_reason(url: str) -> str | None:
    """Why a URL looks like a spider trap ('url_length', 'repeated_segment'), or None."""
    if len(url) > MAX_URL_LENGTH:
        return "url_length"
    segments = [seg for seg in urlsplit(url).path.split("/") if seg]
    counts: dict[str, int] = {}
    for seg in segments:
        counts[seg] = counts.get(seg, 0) + 1
        if counts[seg] > MAX_REPEATED_SEGMENTS:
            return "repeated_segment"
    return None


def normalize_page(url: str) -> str:
    """Page identity for comparison with a truth tree: ``dir/``, ``dir/index.html``
    and ``./`` are the same page; fragments are dropped."""
    parts = urlsplit(url)
    path = parts.path or "/"
    if path.endswith("/"):
        path += "index.html"
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, ""))
