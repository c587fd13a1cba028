"""The generated site of the throughput benchmark, served slowly on 127.0.0.1.

Home -> ``sections`` sections -> ``categories`` categories each -> ``articles``
articles each, every page with a top menu (home and sections) and a footer link
to an About page.
"""
from __future__ import annotations

import http.server
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Shape", "build_site", "serve", "serve_html"]

WORDS = ("river garden market bicycle library harbour festival museum school bakery "
         "theatre orchard bridge station meadow workshop").split()


@dataclass(frozen=True)
class Shape:
    sections: int = 6
    categories: int = 7
    articles: int = 7


def _title(*numbers: int) -> str:
    words = [WORDS[(sum(numbers) * 7 + i * 3 + n) % len(WORDS)] for i, n in enumerate(numbers * 3)]
    return " ".join(["The", *words[:7], "story", "-".join(map(str, numbers))]).capitalize()


def _page(title: str, prefix: str, items: list[tuple[str, str]], sections: int) -> str:
    menu = "".join(f'<li><a href="{prefix}s{s}/index.html">Section {s}</a></li>'
                   for s in range(sections))
    listing = "".join(f'<li><a href="{href}">{text}</a><br><span class="date">2024</span></li>'
                      for href, text in items)
    body = ("Our town's neighbours write about everyday life, small events and practical "
            "matters, every week. ") * 4
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>'
            f'</head><body><nav><ul class="menu"><li><a href="{prefix}index.html">Home</a></li>'
            f'{menu}</ul></nav><div id="content"><h1>{title}</h1><p>{body}</p>'
            f'<ul class="articles">{listing}</ul></div><footer><p><a href="{prefix}about.html">'
            f"About</a></p></footer></body></html>")


def build_site(shape: Shape = Shape()) -> dict[str, bytes]:
    """Path -> HTML (1 + S + S*C + S*C*A pages, plus the About page)."""
    n = shape.sections
    pages = {"/about.html": _page("About", "", [], n), "/index.html": _page("Home", "", [], n)}
    for s in range(n):
        cats = [(f"c{c}/index.html", _title(s, c)) for c in range(shape.categories)]
        pages[f"/s{s}/index.html"] = _page(f"Section {s}", "../", cats, n)
        for c in range(shape.categories):
            arts = [(f"a{a}.html", _title(s, c, a)) for a in range(shape.articles)]
            pages[f"/s{s}/c{c}/index.html"] = _page(_title(s, c), "../../", arts, n)
            for a in range(shape.articles):
                pages[f"/s{s}/c{c}/a{a}.html"] = _page(_title(s, c, a), "../../", [], n)
    return {path: html.encode() for path, html in pages.items()}


def serve_html(render: Callable[[str], bytes | None], port: int = 0, bind: str = "127.0.0.1",
               keep_alive: bool = False) -> http.server.ThreadingHTTPServer:
    """Serve the HTML ``render(path)`` gives (None: 404) on ``bind``:``port`` (0: a
    free port) from a background thread; returns the server (``server_port``,
    ``shutdown()``). ``keep_alive``: HTTP/1.1 persistent connections."""
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1" if keep_alive else "HTTP/1.0"

        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            body = render(self.path)
            if body is None:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    httpd = http.server.ThreadingHTTPServer((bind, port), Handler)
    httpd.daemon_threads = True
    httpd.request_queue_size = 128
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def serve(pages: dict[str, bytes], delay: float,
          gate: threading.Event) -> http.server.ThreadingHTTPServer:
    """The site on 127.0.0.1 (a free port); a request waits for ``gate``, then
    ``delay`` seconds, before it is answered."""
    def render(path: str) -> bytes | None:
        gate.wait(timeout=300)
        time.sleep(delay)
        path = path.split("?")[0]
        return pages.get(path + "index.html" if path.endswith("/") else path)

    return serve_html(render)
