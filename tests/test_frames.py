"""Frames: a page's same-site <frame>/<iframe> documents read as part of the page."""
from __future__ import annotations

import json
from pathlib import Path

from lxml import etree

from helpers import FAST, FIXTURES, run_scrapy
from skeleton.web.dom import parse_html
from skeleton.analysis.offline import find_skeleton, skeleton_edges
from skeleton.web.frames import (MAX_FRAMES, frame_sources, frame_sources_in_bytes, inline_frames,
                                 parse_frame, parse_with_frames)
from skeleton.sew.links import extract_links
from skeleton.sew.model import load_model
from skeleton.analysis.training import file_fetcher

SITE = FIXTURES / "framesite"
H = "http://h/"

FRAMESET_TREE = {("", "contact.html"), ("", "products/"), ("", "services/"), ("", "welcome.html"),
                 ("products/", "products/hammers.html"), ("products/", "products/planes.html"),
                 ("products/", "products/saws.html"), ("services/", "services/rental.html"),
                 ("services/", "services/repair.html"), ("services/", "services/sharpening.html")}
BOOK_TREE = {("book/", "book/intro.html"), ("book/", "book/forging.html"), ("book/", "book/grinding.html"),
             ("book/forging.html", "book/forging/heat.html"),
             ("book/forging.html", "book/forging/hammering.html"),
             ("book/grinding.html", "book/grinding/stones.html"),
             ("book/grinding.html", "book/grinding/angles.html")}


fetch = file_fetcher(SITE)


def tree(start: str, frames: bool) -> set[tuple[str, str]]:
    pages = list(find_skeleton(H + start, fetch, load_model(None), scope=H + start, frames=frames))
    return {(p[len(H):], c[len(H):]) for p, c in skeleton_edges(pages)}


def test_frame_sources_keep_same_site_frames_once_in_order() -> None:
    root = parse_html(b"""<html><frameset><frame src="nav.html"><frame src="main.html#top">
        <frame src="nav.html"><frame src="http://other.example/ad.html"><frame src="javascript:void(0)">
        <frame src="about:blank"><frame src=""><frame src="page.html"></frameset>
        <body><noscript><iframe src="sub/toc.html"></iframe></noscript></body></html>""")
    assert frame_sources(root, H + "page.html") == [H + "nav.html", H + "main.html", H + "sub/toc.html"]
    assert frame_sources(None, H) == []


def test_frame_sources_are_bounded() -> None:
    body = "".join(f'<iframe src="f{i}.html"></iframe>' for i in range(50)).encode()
    assert len(frame_sources(parse_html(b"<html><body>" + body + b"</body></html>"), H)) == MAX_FRAMES
    assert len(frame_sources_in_bytes(body, H)) == MAX_FRAMES


def test_frame_sources_in_bytes_match_the_parsed_ones() -> None:
    for path in ["index.html", "book/index.html", "book/forging/heat.html", "welcome.html"]:
        body = (SITE / path).read_bytes()
        assert frame_sources_in_bytes(body, H + path) == frame_sources(parse_html(body), H + path)


def test_inline_frames_reads_the_frame_body_with_links_made_absolute() -> None:
    root = parse_html(b'<html><body><p>x</p><iframe src="sub/toc.html"></iframe>tail</body></html>')
    toc = parse_html(b'<html><body><ul><li><a href="a.html">A</a></li><li><a href="../b.html">B</a>'
                     b'</li></ul><iframe src="deeper.html"></iframe></body></html>')
    assert inline_frames(root, H + "page.html", {H + "sub/toc.html": toc}) == 1
    assert [link.url for link in extract_links(root, H + "page.html")] == [H + "sub/a.html", H + "b.html"]
    assert root.xpath("//iframe") == []  # one level only: the frame's own frame is dropped
    assert root.xpath("string(//body)").endswith("tail")


def test_inline_frames_leaves_unread_frames_alone() -> None:
    root = parse_html(b'<html><frameset><frame src="nav.html"><frame src="gone.html"></frameset></html>')
    before = etree.tostring(root)
    assert inline_frames(root, H, {H + "gone.html": None}) == 0
    assert inline_frames(root, H, {}) == 0
    assert inline_frames(None, H, {H + "nav.html": root}) == 0
    assert etree.tostring(root) == before


def test_parse_with_frames_inlines_a_frameset() -> None:
    root = parse_with_frames(fetch(H), H, fetch)
    urls = [link.url for link in extract_links(root, H)]
    assert H + "products/" in urls and H + "contact.html" in urls
    assert extract_links(parse_html(fetch(H)), H) == []  # without frames: no link at all


def test_a_frame_is_parsed_once_and_shared_unchanged() -> None:
    body = b'<html><body><ul><li><a href="a.html">A</a></li><li><a href="b.html">B</a></li></ul></body></html>'
    tree = parse_frame(body)
    assert parse_frame(bytes(body)) is tree  # an equal body, read again: the same tree
    before = etree.tostring(tree)
    pages = []
    for name in ("one", "two"):
        root = parse_html(b'<html><body><iframe src="toc.html"></iframe></body></html>')
        page = H + name + ".html"
        assert inline_frames(root, page, {H + "toc.html": parse_frame(body)}) == 1
        pages.append([link.url for link in extract_links(root, page)])
    assert pages == [[H + "a.html", H + "b.html"]] * 2  # both pages get the whole frame
    assert etree.tostring(tree) == before


def test_parse_with_frames_survives_missing_and_binary_frames() -> None:
    def bad(url: str) -> bytes | None:
        return None if url.endswith("nav.html") else b"\x00\x01\x02binary"

    root = parse_with_frames(fetch(H), H, bad)
    assert root is not None and extract_links(root, H) == []


def test_frames_with_control_characters_in_text_are_inlined() -> None:
    page = b'<html><body><iframe src="f.html"></iframe>tail\x01</body></html>'
    frame = b'<html><body>text\x01\x02\x00 <a href="x.html">X</a></body></html>'
    root = parse_with_frames(page, "http://e.org/", lambda url: frame)
    assert [link.url for link in extract_links(root, "http://e.org/")] == ["http://e.org/x.html"]


def test_findskeleton_reads_a_frameset_site() -> None:
    assert tree("", frames=True) == FRAMESET_TREE
    assert tree("", frames=False) == set()


def test_findskeleton_reads_a_table_of_contents_offered_only_in_an_iframe() -> None:
    """mdBook shows its TOC with JavaScript and offers <noscript><iframe src=toc.html>."""
    assert tree("book/", frames=True) == BOOK_TREE
    assert tree("book/", frames=False) == set()


def crawl(base: str, cwd: Path, *settings: str) -> tuple[set[tuple[str, str]], str]:
    done = run_scrapy(["crawl", "skeleton", "-a", f"base={base}", "-O", "pages.jsonl", *FAST,
                       *settings], cwd)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    tree = run_scrapy(["tree"], cwd)
    assert tree.returncode == 0, tree.stderr[-3000:]
    edges, stack = set(), [json.loads(tree.stdout)]
    while stack:
        node = stack.pop()
        for child in node["children"]:
            edges.add((node["url"], child["url"]))
            stack.append(child)
    return edges, done.stderr


def test_crawl_reads_frames_through_the_downloader_middleware(serve, tmp_path: Path) -> None:
    root = serve(SITE)
    edges, log = crawl(root, tmp_path)
    assert {(p[len(root):], c[len(root):]) for p, c in edges} == FRAMESET_TREE
    assert "'skeleton/frames/inlined': 2" in log and "'skeleton/frames/fetched': 2" in log
    (tmp_path / "book").mkdir()
    edges, log = crawl(root + "book/", tmp_path / "book")
    assert {(p[len(root):], c[len(root):]) for p, c in edges} == BOOK_TREE
    # the TOC is downloaded once and read into every page of the book
    assert "'skeleton/frames/fetched': 1" in log and "'skeleton/frames/cached': 7" in log


def test_crawl_without_frames_sees_no_links(serve, tmp_path: Path) -> None:
    root = serve(SITE)
    edges, log = crawl(root, tmp_path, "-s", "SKELETON_FRAMES_ENABLED=False")
    assert edges == set() and "skeleton/frames" not in log


def run(coroutine):
    """Run a coroutine that never really waits (the fake engine answers at once)."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value
    raise AssertionError("the coroutine waited")


class _Stats:
    def __init__(self) -> None:
        self.values: dict[str, int] = {}

    def inc_value(self, key: str, count: int = 1) -> None:
        self.values[key] = self.values.get(key, 0) + count


def _middleware(responses: dict[str, object], max_bytes: int = 1000):
    """A FramesMiddleware whose engine answers from ``responses`` (an exception is raised)."""
    from types import SimpleNamespace

    from skeleton.middlewares.frames import FramesMiddleware

    fetched: list[str] = []

    async def download_async(request):
        fetched.append(request.url)
        answer = responses[request.url]
        if isinstance(answer, Exception):
            raise answer
        return answer

    crawler = SimpleNamespace(stats=_Stats(), engine=SimpleNamespace(download_async=download_async))
    return FramesMiddleware(crawler, max_bytes=max_bytes, cache_size=2), crawler.stats, fetched


def _html(url: str, body: bytes, status: int = 200, ctype: bytes = b"text/html"):
    from scrapy.http import HtmlResponse, Response

    if ctype.startswith(b"text/html"):
        return HtmlResponse(url, status=status, body=body, headers={"Content-Type": ctype})
    return Response(url, status=status, body=body, headers={"Content-Type": ctype})


def test_frames_middleware_keeps_what_it_could_read_and_says_why_not() -> None:
    from scrapy import Request

    from skeleton.middlewares.shared import META_FRAMES

    page = b'<html><body><iframe src="a.html"></iframe><iframe src="b.html"></iframe>' \
           b'<iframe src="c.pdf"></iframe><iframe src="d.html"></iframe></body></html>'
    mw, stats, fetched = _middleware({
        H + "a.html": _html(H + "a.html", b"<html><body><a href='x.html'>X</a></body></html>"),
        H + "b.html": IOError("connection refused"),
        H + "c.pdf": _html(H + "c.pdf", b"%PDF-1.4", ctype=b"application/pdf"),
        H + "d.html": _html(H + "d.html", b"<html>" + b"x" * 2000 + b"</html>"),
    })
    request = Request(H + "page.html")
    response = run(mw.process_response(request, _html(H + "page.html", page)))
    assert response.body == page
    frames = request.meta[META_FRAMES]
    assert frames[H + "a.html"][0].startswith(b"<html>")
    assert frames[H + "b.html"] is None and frames[H + "c.pdf"] is None and frames[H + "d.html"] is None
    assert stats.values == {"skeleton/frames/pages": 1, "skeleton/frames/fetched": 1,
                            "skeleton/frames/failed": 3}
    # a second page framing a.html reads it from the cache (the last 2 frames are kept)
    again = Request(H + "other.html")
    run(mw.process_response(again, _html(H + "other.html", b'<frameset><frame src="d.html">'
                                                                     b'</frameset>')))
    assert fetched.count(H + "d.html") == 1 and stats.values["skeleton/frames/cached"] == 1


def test_frames_middleware_passes_pages_without_frames_and_frame_downloads() -> None:
    from scrapy import Request

    from skeleton.middlewares.frames import META_FRAME_REQUEST

    mw, stats, fetched = _middleware({})
    plain = Request(H + "p.html")
    run(mw.process_response(plain, _html(H + "p.html", b"<html><body>framed text</body></html>")))
    own = Request(H + "f.html", meta={META_FRAME_REQUEST: H})
    run(mw.process_response(own, _html(H + "f.html", b'<iframe src="g.html"></iframe>')))
    offsite = Request(H + "o.html")
    run(mw.process_response(offsite, _html(H + "o.html", b'<iframe src="http://ads.example/"></iframe>')))
    assert fetched == [] and stats.values == {}
