"""WISDOM blocks in the crawl and ``scrapy informative``, against the embedded Redis:
items carry blocks pointing at the right elements, each page is parsed once, the
setting turns blocks off, and the second pass uses the final entropies."""
from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
import pytest_twisted
from helpers import FIXTURES, crawl_in_process, project_settings, run_scrapy

from skeleton.store.kept import pack_page, unpack_page
from skeleton.web.dom import parse_html
from skeleton.web.urls import canonical
from skeleton.wisdom import WisdomParams, informative_blocks
from skeleton.wisdom.batch_entropy import batch_weights
from skeleton.wisdom.page import scan_page

SITE = FIXTURES / "tinysite"
#: One in-order fetch at a time: the weights each page sees do not depend on timing.
SERIAL = {"CONCURRENT_REQUESTS": 1}
#: WISDOM runs when asked (skeleton.analyses)
WISDOM = {"SKELETON_ANALYSES": ["wisdom"]}


def html_items(items: list[dict]) -> list[dict]:
    return [i for i in items if i["reason"] is None]


def test_kept_pages_round_trip_and_bad_blobs() -> None:
    body = "<p>café</p>".encode("latin-1")
    assert unpack_page(pack_page(body, "http://h/a", "latin-1")) == (body, "http://h/a", "latin-1")
    assert unpack_page(pack_page(b"", "http://h/b", None)) == (b"", "http://h/b", None)
    for bad in (None, b"", b"not zlib", pack_page(b"x", "u", None)[:-3], 42):
        assert unpack_page(bad) is None


@pytest_twisted.inlineCallbacks
def test_items_carry_blocks_and_each_page_is_parsed_once(serve, redis_settings) -> None:
    base = serve(SITE)
    crawl = f"blocks-{uuid.uuid4().hex[:8]}"
    stats, items = yield crawl_in_process(project_settings({**redis_settings, **SERIAL, **WISDOM}),
                                          base=f"{base}index.html", mode="bfs", crawl=crawl)
    html = html_items(items)
    assert stats["finish_reason"] == "finished" and len(html) == 15
    # the entropy middleware, WISDOM and the spider share one parse per HTML page
    assert stats["skeleton/parse/pages"] == len(html) == stats["skeleton/wisdom/pages"]
    assert all("blocks" in i for i in items)
    assert all(i["blocks"] == [] for i in items if i["reason"] == "non_html")
    assert all(i["blocks"] for i in html)
    guides = next(i for i in items if i["url"] == f"{base}guides/")
    # the list of five guides is the TOC block, the content div the article block
    assert [(b["kind"], b["xpath"]) for b in guides["blocks"]] == [
        ("toc", "/html/body/div/ul"), ("article", "/html/body/div")]
    toc, article = guides["blocks"]
    assert set(toc) == {"kind", "xpath", "anchors", "score"} and toc["anchors"] == 5
    assert set(article) == {"kind", "xpath", "text_length", "score"}
    root = parse_html((SITE / "guides" / "index.html").read_bytes())
    assert root.getroottree().xpath(toc["xpath"])[0].get("class") == "articles"
    assert root.getroottree().xpath(article["xpath"])[0].get("id") == "content"
    assert stats["skeleton/kept_pages/kept"] == len(html)  # WISDOM keeps the pages for `scrapy informative`
    assert stats["skeleton/wisdom/toc_blocks"] + stats["skeleton/wisdom/article_blocks"] == \
        sum(len(i["blocks"]) for i in html)


@pytest_twisted.inlineCallbacks
def test_wisdom_off_gives_no_blocks_and_still_one_parse(serve, redis_settings) -> None:
    base = serve(SITE)
    settings = project_settings(redis_settings)  # the default crawl: WISDOM off
    stats, items = yield crawl_in_process(settings, base=f"{base}index.html", mode="bfs",
                                          crawl=f"noblocks-{uuid.uuid4().hex[:8]}")
    assert items and not any("blocks" in i for i in items)
    assert not any(k.startswith(("skeleton/wisdom/", "skeleton/kept_pages/")) for k in stats)
    assert stats["skeleton/parse/pages"] == len(html_items(items))


@pytest_twisted.inlineCallbacks
def test_wisdom_without_entropy_uses_the_default_weight(serve, redis_settings) -> None:
    base = serve(SITE)
    settings = project_settings({**redis_settings, **SERIAL, **WISDOM, "SKELETON_ENTROPY_ENABLED": False})
    stats, items = yield crawl_in_process(settings, base=f"{base}index.html", mode="bfs",
                                          crawl=f"noentropy-{uuid.uuid4().hex[:8]}")
    html = html_items(items)
    assert stats["skeleton/parse/pages"] == len(html) and all(i["blocks"] for i in html)
    assert "skeleton/entropy/pages" not in stats
    guides = next(i for i in items if i["url"] == f"{base}guides/")
    # every term weighs SKELETON_WISDOM_DEFAULT_WEIGHT: the list of guides is still
    # found, but the menu and the footer links can no longer be told from it
    assert [(b["kind"], b["xpath"]) for b in guides["blocks"]] == [
        ("toc", "/html/body/nav"), ("toc", "/html/body/div/ul"), ("toc", "/html/body/footer"),
        ("article", "/html/body/div"), ("article", "/html/body/footer")]


def direct_final_blocks(base: str) -> dict[str, list[dict]]:
    """Every tinysite page's blocks recomputed from the files, with batch weights
    over all pages and the pages' own terms for API (no Redis)."""
    pages = {canonical(base + p.relative_to(SITE).as_posix()): p for p in sorted(SITE.glob("**/*.html"))}
    roots = {url: parse_html(path.read_bytes()) for url, path in pages.items()}
    texts = {url: scan_page(root) for url, root in roots.items()}
    counts = {url: text.counts() for url, text in texts.items()}
    weights = batch_weights(counts.values())
    return {url: informative_blocks(roots[url], url, weights, counts.get, WisdomParams(),
                                    text=texts[url]).rows() for url in pages}


def same_blocks(a: list[dict], b: list[dict]) -> bool:
    if [{k: v for k, v in x.items() if k != "score"} for x in a] != \
            [{k: v for k, v in x.items() if k != "score"} for x in b]:
        return False
    return all(x["score"] == pytest.approx(y["score"], rel=1e-9, abs=1e-6) for x, y in zip(a, b))


@pytest_twisted.inlineCallbacks
def test_scrapy_informative_recomputes_with_the_final_entropies(
        serve, redis_settings, tmp_path: Path) -> None:
    base = serve(SITE)
    crawl = f"final-{uuid.uuid4().hex[:8]}"
    _, items = yield crawl_in_process(project_settings({**redis_settings, **SERIAL, **WISDOM}),
                                      base=f"{base}index.html", mode="bfs", crawl=crawl)
    in_crawl = {i["url"]: i["blocks"] for i in html_items(items)}
    done = run_scrapy(["informative", "--crawl", crawl, "-o", "final.jsonl",
                       "-s", f"SKELETON_DATA_DIR={redis_settings['SKELETON_DATA_DIR']}"], tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    rows = [json.loads(line) for line in (tmp_path / "final.jsonl").read_text("utf-8").splitlines()]
    final = {r["url"]: r["blocks"] for r in rows}
    assert [r["url"] for r in rows] == sorted(in_crawl) and all(final.values())
    expected = direct_final_blocks(base)
    for url, blocks in final.items():
        assert same_blocks(blocks, expected[url]), url
    # the first page was processed with one page's statistics (every W = 1): the
    # whole body looked like a TOC; with the final entropies it does not
    assert in_crawl[base][0]["xpath"] == "/html/body"
    assert final[base] != in_crawl[base]
    assert [b["xpath"] for b in final[f"{base}guides/"]] == [
        "/html/body/div/ul", "/html/body/div"]


@pytest_twisted.inlineCallbacks
def test_a_default_crawl_that_keeps_its_pages_gets_its_blocks_afterwards(
        serve, redis_settings, tmp_path: Path) -> None:
    """Without WISDOM in the crawl, ``SKELETON_KEEP_PAGES=True`` keeps the pages (not
    their terms); ``scrapy informative`` then cuts the terms from the kept pages and
    gives the blocks a WISDOM crawl's second pass gives."""
    base = serve(SITE)
    crawl = f"kept-{uuid.uuid4().hex[:8]}"
    stats, items = yield crawl_in_process(project_settings({**redis_settings, "SKELETON_KEEP_PAGES": True}),
                                          base=f"{base}index.html", mode="bfs", crawl=crawl)
    html = html_items(items)
    assert not any("blocks" in i for i in items) and "skeleton/wisdom/pages" not in stats
    assert stats["skeleton/kept_pages/kept"] == len(html) == 15 and stats["skeleton/kept_pages/bytes"] > 0
    done = run_scrapy(["informative", "--crawl", crawl, "-o", "final.jsonl",
                       "-s", f"SKELETON_DATA_DIR={redis_settings['SKELETON_DATA_DIR']}"], tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    rows = [json.loads(line) for line in (tmp_path / "final.jsonl").read_text("utf-8").splitlines()]
    assert [r["url"] for r in rows] == sorted(i["url"] for i in html)
    expected = direct_final_blocks(base)
    for row in rows:
        assert row["blocks"] and same_blocks(row["blocks"], expected[row["url"]]), row["url"]


@pytest_twisted.inlineCallbacks
def test_pages_over_the_size_cap_are_not_kept(serve, redis_settings, tmp_path: Path) -> None:
    """A page larger than SKELETON_KEEP_PAGES_MAX_BYTES is counted, not kept: with a
    cap under every tinysite page, nothing is kept and `scrapy informative` says so."""
    base = serve(SITE)
    crawl = f"capped-{uuid.uuid4().hex[:8]}"
    settings = {**redis_settings, "SKELETON_KEEP_PAGES": True, "SKELETON_KEEP_PAGES_MAX_BYTES": 10}
    stats, items = yield crawl_in_process(project_settings(settings), base=f"{base}index.html", mode="bfs",
                                          crawl=crawl)
    assert stats["finish_reason"] == "finished"
    assert stats["skeleton/kept_pages/too_large"] == len(html_items(items)) == 15
    assert "skeleton/kept_pages/kept" not in stats
    done = run_scrapy(["informative", "--crawl", crawl,
                       "-s", f"SKELETON_DATA_DIR={redis_settings['SKELETON_DATA_DIR']}"], tmp_path)
    assert done.returncode != 0 and "kept no pages" in done.stderr


@pytest_twisted.inlineCallbacks
def test_a_default_crawl_keeps_no_pages_and_says_how_to(serve, redis_settings, tmp_path: Path) -> None:
    base = serve(SITE)
    crawl = f"unkept-{uuid.uuid4().hex[:8]}"
    stats, _ = yield crawl_in_process(project_settings(redis_settings), base=f"{base}index.html", mode="bfs",
                                      crawl=crawl)
    assert stats["finish_reason"] == "finished" and not any(k.startswith("skeleton/kept_pages/") for k in stats)
    done = run_scrapy(["informative", "--crawl", crawl,
                       "-s", f"SKELETON_DATA_DIR={redis_settings['SKELETON_DATA_DIR']}"], tmp_path)
    assert done.returncode != 0 and "SKELETON_KEEP_PAGES=True" in done.stderr


def test_scrapy_informative_without_kept_pages(tmp_path: Path, redis_settings) -> None:
    done = run_scrapy(["informative", "--crawl", "never-crawled",
                       "-s", f"SKELETON_DATA_DIR={redis_settings['SKELETON_DATA_DIR']}"], tmp_path)
    assert done.returncode != 0 and "no crawl 'never-crawled'" in done.stderr
