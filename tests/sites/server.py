#!/usr/bin/env python3
"""Serve a test-site folder like ``python -m http.server``, plus two things a
static server cannot do (standard library only):

* **Redirects**: a file ``_redirects`` in the site folder (Netlify format: one
  rule per line ``FROM TO [STATUS]``, blank lines and ``#`` comments ignored,
  STATUS defaults to 301) answers a request whose path (without query) is
  exactly FROM with that status and ``Location: TO``.  Rules apply before any
  file, even one that exists (as Netlify's forced ``301!`` rules do).
  ``_redirects`` itself is answered 404.
* **Query pages**: ``PATH?QUERY`` is answered from the file ``PATH@QUERY``
  when it exists (``/events/event.html?id=3`` -> ``events/event.html@id=3``,
  ``/?p=12`` -> ``index.html@p=12``), always as ``text/html; charset=utf-8``;
  otherwise the query is ignored, as by any static server.

Like http.server, ``/dir`` is answered 301 to ``/dir/`` for a directory; and, for the
clean URLs of generators that link ``/guide/intro`` for ``guide/intro.html``
(Docusaurus, VitePress), a path that is neither a file nor a directory is answered with
the file ``PATH.html`` when it exists, as GitHub Pages and Netlify serve them.

Usage:
    python tests/sites/server.py DIRECTORY [--port 8000] [--bind 127.0.0.1]
"""
from __future__ import annotations

import argparse
import email.utils
import functools
import http.server
import os
from http import HTTPStatus
from pathlib import Path
from urllib.parse import unquote, urlsplit

__all__ = ["LISTEN_BACKLOG", "SiteHandler", "SiteServer", "read_redirects", "serve_forever"]

#: pending connections the listening socket holds (``socketserver`` keeps 5)
LISTEN_BACKLOG = 128

REDIRECTS = "_redirects"


def read_redirects(directory: str | os.PathLike[str]) -> dict[str, tuple[str, int]]:
    """FROM -> (TO, STATUS) of a folder's ``_redirects`` file ({} if there is none)."""
    rules: dict[str, tuple[str, int]] = {}
    try:
        text = Path(directory, REDIRECTS).read_text("utf-8")
    except (FileNotFoundError, IsADirectoryError):
        return rules
    for line in text.splitlines():
        fields = line.split("#", 1)[0].split()
        if len(fields) < 2:
            continue
        status = int(fields[2].rstrip("!")) if len(fields) > 2 else 301
        rules.setdefault(fields[0], (fields[1], status))
    return rules


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Serves a site folder quietly, with ``_redirects`` rules and ``PATH@QUERY`` pages."""

    def log_message(self, format: str, *args: object) -> None:
        pass

    def send_head(self):  # type: ignore[no-untyped-def]
        parts = urlsplit(self.path)
        path = parts.path or "/"
        rules = read_redirects(self.directory)
        rule = rules.get(path) or rules.get(unquote(path))
        if rule is not None:
            target, status = rule
            self.send_response(status)
            self.send_header("Location", target)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        if unquote(path).strip("/") == REDIRECTS:
            self.send_error(HTTPStatus.NOT_FOUND, "File not found")
            return None
        if parts.query:
            page = self._query_file(path, parts.query)
            if page is not None:
                return self._send_file(page, "text/html; charset=utf-8")
        local = self.translate_path(path)
        if not path.endswith("/") and not os.path.exists(local) and os.path.isfile(local + ".html"):
            return self._send_file(local + ".html", "text/html")
        return super().send_head()

    def _query_file(self, path: str, query: str) -> str | None:
        """The file ``PATH@QUERY`` answering ``path?query``, or None."""
        if any(c in query for c in "/\\\0"):
            return None
        local = self.translate_path(path)
        if os.path.isdir(local):
            if not path.endswith("/"):
                return None  # http.server's 301 to dir/ comes first
            local = os.path.join(local, "index.html")
        candidate = f"{local}@{query}"
        return candidate if os.path.isfile(candidate) else None

    def _send_file(self, local: str, ctype: str):  # type: ignore[no-untyped-def]
        try:
            f = open(local, "rb")
        except OSError:
            self.send_error(HTTPStatus.NOT_FOUND, "File not found")
            return None
        try:
            fs = os.fstat(f.fileno())
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-type", ctype)
            self.send_header("Content-Length", str(fs.st_size))
            self.send_header("Last-Modified", email.utils.formatdate(fs.st_mtime, usegmt=True))
            self.end_headers()
            return f
        except BaseException:
            f.close()
            raise


class SiteServer(http.server.ThreadingHTTPServer):
    """A threading server whose listen backlog holds a crawl's connections.

    ``socketserver``'s default backlog is 5: with more concurrent connections than
    that, the kernel drops the extra SYNs and the client resends them after a second,
    so a crawl of 8 connections per host would measure the server's backlog, not the
    crawler."""

    request_queue_size = LISTEN_BACKLOG
    daemon_threads = True


def serve_forever(directory: str | os.PathLike[str], port: int = 8000,
                  bind: str = "127.0.0.1") -> None:
    """Serve ``directory`` on ``bind:port`` until interrupted."""
    handler = functools.partial(SiteHandler, directory=str(directory))
    with SiteServer((bind, port), handler) as httpd:
        try:
            httpd.serve_forever()
        except KeyboardInterrupt:
            pass


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory", help="the site folder to serve")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--bind", default="127.0.0.1")
    args = parser.parse_args(argv)
    if not os.path.isdir(args.directory):
        parser.error(f"not a directory: {args.directory}")
    serve_forever(args.directory, args.port, args.bind)


if __name__ == "__main__":
    main()
