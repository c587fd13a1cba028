"""URL classification and hygiene.

The five URL types of SEW Section 3.3.1 (relative, absolute, cross-site, anchor,
other), directory levels for VarURLNumDir and containment for URLContain, plus
the canonical form and spider-trap checks the crawler applies to every link.

**Unparsable URLs.** A page's hrefs are untrusted text. A URL is *unparsable*
(:func:`split_url` returns None) when ``urlsplit`` rejects it (unbalanced or
invalid IPv6 brackets: ``http://[::1``), its port is not a number in 0..65535
(``http://host:99999/``), or its host is no host name: a forbidden character of
the URL standard (space, control character, ``%``, ``<``, ``|``, ...: ``http://exa
mple.com/``), a label that fails IDNA (``http://xn--/``), or none at all
(``http://:80/``). No function here raises on any string: each returns its
"nothing" value for an unparsable URL (``''`` from :func:`resolve`,
:func:`canonical` and :func:`normalize_page`, ``URLType.OTHER`` from
:func:`url_type`, False, 0, ``OTHER_NUM_DIR``, ``'/'`` or None from the others),
so one malformed href is one skipped link (:func:`unparsable` tells it apart from
a link to a ``mailto:`` or ``javascript:`` URL), never a failed page. Percent
signs without two hex digits and control characters in a path or query are no
reason: they are kept or escaped as browsers do (``%zz`` is a link).
"""
from __future__ import annotations

import ipaddress
import posixpath
import re
from functools import lru_cache
from enum import Enum
from urllib.parse import SplitResult, urljoin, urlsplit, urlunsplit

from w3lib.url import canonicalize_url, url_query_cleaner

__all__ = [
    "DIRECTORY_INDEXES", "OTHER_NUM_DIR", "MAX_URL_LENGTH", "MAX_REPEATED_SEGMENTS", "SESSION_PARAMS",
    "URLType", "url_type", "resolve", "canonical", "directory_alias", "num_dirs", "directory", "shared_dirs", "section_dirs", "contained",
    "same_host", "in_scope", "origin", "DEFAULT_PORTS", "trap_reason", "normalize_page", "MAX_PORT",
    "FORBIDDEN_HOST_CHARS", "split_url", "unparsable",
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
#: resolved hrefs remembered per kind: enough for the menus every page of a folder
#: repeats; a full cache holds about 4 MB (65,536 entries held 30-40 MB each)
RESOLVED_CACHE = 8192
#: ASCII tab and newlines are removed from a URL before it is read (WHATWG URL
#: Standard, basic URL parser; ``urlsplit`` does the same): ``/\r/host`` is ``//host``
_URL_WHITESPACE = str.maketrans("", "", "\t\n\r")
#: the largest TCP port: a URL with a larger (or non-numeric) port is unparsable
MAX_PORT = 65535
#: characters no host name may hold (the URL standard's forbidden domain code
#: points: C0 controls, space, DEL and ``#%/:<>?@[\]^|``)
FORBIDDEN_HOST_CHARS = "".join(map(chr, range(0x21))) + "\x7f#%/:<>?@[\\]^|"
_FORBIDDEN_HOST = re.compile("[" + re.escape(FORBIDDEN_HOST_CHARS) + "]")
#: the label separators IDNA reads in a host name
_IDNA_DOTS = re.compile("[.\u3002\uff0e\uff61]")
_ACE_PREFIX = "xn--"
#: an IPv6 literal authority: the address in brackets, then nothing or a port
_BRACKETED = re.compile(r"\[([^\[\]]*)\](?::[0-9]*)?")
#: an http(s) URL that canonicalization leaves as it is: lower-case scheme, no
#: query, fragment, escapes, ';' parameters or characters needing escapes
_PLAIN_HREF = re.compile(r"^[A-Za-z0-9._~/\-]+$")
_PLAIN_URL = re.compile(r"^https?://([a-z0-9.\-]+)(?::([0-9]{1,5}))?/[A-Za-z0-9._~/\-]*$")


class URLType(str, Enum):
    RELATIVE = "relative"
    ABSOLUTE = "absolute"
    CROSS_SITE = "cross-site"
    ANCHOR = "anchor"
    OTHER = "other"


def _valid_host(host: str) -> bool:
    """Is ``host`` (``SplitResult.hostname``: lower case) a host name a browser
    would look up: no forbidden character, every label IDNA can encode?"""
    if not host or _FORBIDDEN_HOST.search(host):
        return False
    for label in _IDNA_DOTS.split(host):
        try:
            if not label.isascii():
                label.encode("idna")
            elif label.startswith(_ACE_PREFIX):
                label.encode("ascii").decode("idna")  # punycode that does not decode
        except UnicodeError:
            return False
    return True


def _valid_authority(netloc: str, host: str) -> bool:
    """Is the host of ``netloc`` (read by urlsplit as ``host``) an IPv6 literal
    alone in its brackets (``[::1]``, ``[::1]:8080``) or a valid host name?"""
    userinfo, _, authority = netloc.rpartition("@")
    if "[" in userinfo or "]" in userinfo:
        return False
    if "[" in authority or "]" in authority:
        literal = _BRACKETED.fullmatch(authority)
        if literal is None:
            return False
        try:
            ipaddress.IPv6Address(literal.group(1))
        except ValueError:
            return False
        return True
    return _valid_host(host)


@lru_cache(maxsize=16384)
def split_url(url: str) -> SplitResult | None:
    """``urlsplit(url)``, or None when ``url`` is unparsable: ``urlsplit`` rejects
    it (``http://[::1``), its port is not a number up to ``MAX_PORT``, or it has an
    authority whose host is no host name (``FORBIDDEN_HOST_CHARS``, a label that
    fails IDNA, no host at all). Never raises; the functions of this module read a
    URL's parts through it."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError when out of range or not a number
    except ValueError:
        return None
    if parts.netloc and not _valid_authority(parts.netloc, parts.hostname or ""):
        return None
    return parts


def url_type(href: str, page_url: str) -> URLType:
    """Classify a raw ``href`` as in SEW Section 3.3.1. An unparsable ``href``
    (:func:`unparsable`) is ``OTHER``, as a link that leads to no page is."""
    href = href.strip().translate(_URL_WHITESPACE)
    if href.startswith("#"):
        return URLType.ANCHOR
    if ":" not in href and not href.startswith("//"):
        if not href:
            return URLType.ANCHOR
        return URLType.ABSOLUTE if href.startswith("/") else URLType.RELATIVE
    parts = split_url(href)
    if parts is None or unparsable(href, page_url):
        return URLType.OTHER
    if parts.scheme and parts.scheme.lower() not in _FOLLOWABLE_SCHEMES:
        return URLType.OTHER
    if parts.netloc or href.startswith("//"):
        page = split_url(page_url)
        same = page is not None and parts.netloc.lower() == page.netloc.lower()
        return URLType.ABSOLUTE if same else URLType.CROSS_SITE
    if href.startswith("/"):
        return URLType.ABSOLUTE
    if not href:
        return URLType.ANCHOR
    return URLType.RELATIVE


@lru_cache(maxsize=64)
def _prefixes(page_url: str) -> tuple[str, str]:
    """(scheme://host, scheme://host/dir/) of an http(s) page URL, for fast joins;
    ('', '') for any other page URL."""
    parts = split_url(page_url)
    if parts is None or parts.scheme.lower() not in _FOLLOWABLE_SCHEMES or not parts.netloc:
        return "", ""
    origin = f"{parts.scheme}://{parts.netloc}"
    return origin, origin + directory(page_url)


def _has_host(href: str) -> bool:
    """Is ``href`` an http(s) URL with an authority (``http://host...``)? urljoin
    then reads only the base's scheme."""
    head = href[:8].lower()
    if head.startswith("http://"):
        rest = href[7:8]
    elif head.startswith("https://"):
        rest = href[8:9]
    else:
        return False
    return rest not in ("", "/", "?", "#")


def resolve(href: str, page_url: str) -> str:
    """Absolute canonical URL of ``href`` on ``page_url``, or '' if it is not an
    http(s) URL, or ``href`` or ``page_url`` is unparsable (see the module)."""
    href = href.strip()
    if not href or href.startswith("#"):
        return ""
    plain = href.split("#", 1)[0]
    if plain and _PLAIN_HREF.match(plain) and "//" not in plain:
        origin, folder = _prefixes(page_url)
        if not origin:
            return ""
        return _resolve_plain(plain, origin if plain.startswith("/") else folder, origin)
    if _has_host(href):
        # urljoin reads only the base's scheme here: cached across pages
        return _resolve_other(href, page_url.split(":", 1)[0] + "://h/")
    return _resolve_other(href, page_url)


@lru_cache(maxsize=RESOLVED_CACHE)
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


@lru_cache(maxsize=RESOLVED_CACHE)
def _resolve_other(href: str, base: str) -> str:
    try:
        absolute = urljoin(base, href)
    except ValueError:
        return ""
    parts = split_url(absolute)
    if parts is None or parts.scheme.lower() not in _FOLLOWABLE_SCHEMES:
        return ""
    return canonical(absolute)


def unparsable(href: str, page_url: str) -> bool:
    """Is ``href`` on ``page_url`` a link that cannot be read as a URL (see the
    module), so that :func:`resolve` returns '' for it? False for an empty or
    fragment href, for a parsable link to another scheme (``mailto:``, which is
    just not followed) and for every href that resolves to a URL."""
    href = href.strip()
    if not href or href.startswith("#") or resolve(href, page_url):  # resolve() is cached
        return False
    return _unparsable(href, page_url)


@lru_cache(maxsize=4096)
def _unparsable(href: str, page_url: str) -> bool:
    """An href that :func:`resolve` gives '' for: unparsable, or another scheme's?"""
    try:
        absolute = urljoin(page_url, href)
    except ValueError:
        return True
    parts = split_url(absolute)
    # an http(s) URL canonical() refused: no host, or a host that IDNA rejects
    return parts is None or parts.scheme.lower() in _FOLLOWABLE_SCHEMES


def directory_alias(url: str) -> str:
    """``dir/index.html`` -> ``dir/`` (no query): one page, one URL."""
    if url.endswith(DIRECTORY_INDEXES) and "?" not in url:
        head, _, name = url.rpartition("/")
        if name.lower() in DIRECTORY_INDEXES and "//" in head:
            return head + "/"
    return url


def _plain_authority(match: re.Match[str]) -> bool:
    """Is the host and port a ``_PLAIN_URL`` match read valid as it is? (No IDNA
    label to check, a port in range.)"""
    host, port = match.groups()
    return _ACE_PREFIX not in host and (port is None or int(port) <= MAX_PORT)


def canonical(url: str) -> str:
    """Canonical form: no fragment, no session ids, sorted query, normalized escapes,
    and a directory's index page named by its directory (``dir/index.html`` is
    ``dir/``, which a web server answers with the same page). '' when ``url`` is
    unparsable (see the module) or an http(s) URL without a host."""
    url = url.split("#", 1)[0]
    plain = _PLAIN_URL.match(url)
    if plain and "/." not in url and _plain_authority(plain):
        return directory_alias(url)  # nothing else to normalize: the common case, kept fast
    if split_url(url) is None:
        return ""
    try:
        url = _SESSION_PATH.sub("", url)
        query = urlsplit(url).query
        if query:
            names = {pair.split("=", 1)[0] for pair in query.split("&")}
            drop = [n for n in names if n.lower() in _SESSION_NAMES]
            if drop:
                url = url_query_cleaner(url, drop, remove=True, unique=False, keep_fragments=False)
        url = canonicalize_url(url, keep_fragments=False)
    except ValueError:  # UnicodeError (IDNA) is one
        return ""
    parts = split_url(url)
    if parts is None or (parts.scheme in _FOLLOWABLE_SCHEMES and not parts.hostname):
        return ""
    return directory_alias(url)


@lru_cache(maxsize=8192)
def directory(url: str) -> str:
    """The directory part of a URL's path ('/a/b/' for '/a/b/c.html'); '/' for an
    unparsable URL."""
    parts = split_url(url)
    path = (parts.path if parts is not None else "") or "/"
    return path if path.endswith("/") else posixpath.dirname(path).rstrip("/") + "/"


def num_dirs(url: str, base_dir: str = "/") -> int:
    """Directory levels of ``url`` below ``base_dir`` (VarURLNumDir), ``OTHER_NUM_DIR``
    for non-http URLs ('') and unparsable ones."""
    if not url or split_url(url) is None:
        return OTHER_NUM_DIR
    path = directory(url)
    if path.startswith(base_dir):
        path = path[len(base_dir):]
    return len([seg for seg in path.split("/") if seg])


def shared_dirs(url: str, other: str) -> int:
    """How many leading directory segments the paths of two URLs share (0 on
    different hosts, or when either is unparsable): the tree's tie-break between
    parents at the same depth."""
    a, b = split_url(url), split_url(other)
    if a is None or b is None or a.netloc.lower() != b.netloc.lower():
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
    (``/p/a.html`` -> ``/p/b.html``) does not outrank the section page; 0 when
    either URL is unparsable."""
    path = _split(parent)[1]
    name = path.rsplit("/", 1)[-1].lower()
    if "?" in parent or (name and name not in DIRECTORY_INDEXES):
        return 0
    return shared_dirs(parent, child)


def contained(url: str, page_url: str) -> bool:
    """URLContain: is ``url`` under the directory of ``page_url`` (same host)?
    False when either is unparsable."""
    if not url or split_url(url) is None or split_url(page_url) is None:
        return False
    return _netloc(url) == _netloc(page_url) and _path(url).startswith(directory(page_url))


@lru_cache(maxsize=8192)
def _split(url: str) -> tuple[str, str]:
    """(netloc, path) of ``url``; ('', '') when it is unparsable."""
    parts = split_url(url)
    return (parts.netloc, parts.path) if parts is not None else ("", "")


def _netloc(url: str) -> str:
    return _split(url)[0]


def _path(url: str) -> str:
    return _split(url)[1]


#: the port a URL without one is served on, by scheme
DEFAULT_PORTS = {"http": 80, "https": 443}


def _host_port(parts: SplitResult) -> tuple[str, int | None]:
    """(host name, port) of a parsed URL, the port None when it is its scheme's
    default (``http://h:80/`` is ``http://h/``); user info is no part of it."""
    port = parts.port
    if port is not None and port == DEFAULT_PORTS.get(parts.scheme.lower()):
        port = None
    return (parts.hostname or ""), port


def origin(url: str) -> tuple[str, str, int] | None:
    """(scheme, host name, port) of an http(s) URL, lower case, the port its
    scheme's default when it names none (``http://H/`` and ``http://h:80/`` are
    ``("http", "h", 80)``); None for an unparsable URL, another scheme's or one
    without a host."""
    parts = split_url(url) if url else None
    if parts is None or not parts.hostname:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _FOLLOWABLE_SCHEMES:
        return None
    return scheme, parts.hostname, parts.port if parts.port is not None else DEFAULT_PORTS[scheme]


def same_host(url: str, base_url: str) -> bool:
    """Same host and port as the base URL (case-insensitive, a scheme's default
    port written or not), whatever the scheme; False when either is unparsable.
    Tells a link to another site (``filtered/offsite``) from one out of the crawl's
    scope on its own site (Scrapy's ``url_is_from_any_domain`` would also admit
    subdomains, and reads no port)."""
    a, b = split_url(url) if url else None, split_url(base_url)
    return a is not None and b is not None and _host_port(a) == _host_port(b)


def in_scope(url: str, base_url: str) -> bool:
    """Is ``url`` in the crawl's scope: the base URL's scheme, host and port (the
    scheme's default port written or not: :func:`origin`) and a path under the base
    URL's directory? ``https://`` on an ``http://`` base, another port and another
    host name (even one resolving to the same address) are out of it. False when
    either is unparsable or not http(s)."""
    own = origin(url)
    if own is None or own != origin(base_url):
        return False
    a = split_url(url)
    return a is not None and a.path.startswith(directory(base_url))


def trap_reason(url: str) -> str | None:
    """Why a URL looks like a spider trap ('url_length', 'repeated_segment'), or
    None; None too for a short unparsable URL, which has no path to read
    (:func:`in_scope` rejects it)."""
    if len(url) > MAX_URL_LENGTH:
        return "url_length"
    parts = split_url(url)
    segments = [seg for seg in parts.path.split("/") if seg] if parts is not None else []
    counts: dict[str, int] = {}
    for seg in segments:
        counts[seg] = counts.get(seg, 0) + 1
        if counts[seg] > MAX_REPEATED_SEGMENTS:
            return "repeated_segment"
    return None


def normalize_page(url: str) -> str:
    """Page identity for comparison with a truth tree: ``dir/``, ``dir/index.html``
    and ``./`` are the same page; fragments are dropped. '' for an unparsable URL."""
    parts = split_url(url)
    if parts is None:
        return ""
    path = parts.path or "/"
    if path.endswith("/"):
        path += "index.html"
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, ""))
