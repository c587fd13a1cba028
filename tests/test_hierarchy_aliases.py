"""One page, one node: redirects make aliases (skeleton.hierarchy.aliases and the
middleware that records them), through the real spider and Redis too."""
from __future__ import annotations

import json
from pathlib import Path

from scrapy.http import HtmlResponse, Request, Response
from scrapy.utils.test import get_crawler

from helpers import FAST, run_scrapy
from skeleton.hierarchy.aliases import MAX_HOPS, apply_aliases, final_url
from skeleton.middlewares.aliases import RedirectAliasMiddleware, redirect_target
from skeleton.hierarchy.offers import pack_offer
from skeleton.store.keys import CrawlKeys
from skeleton.store.tree import resolve_recorded_tree

B = "http://s.test/"


def offer(origin: str, sig: str = "menu") -> dict:
    return {"from": origin, "parent": origin, "sig": sig, "size": 5, "level": 1}


def test_final_url_follows_chains_and_leaves_loops_alone() -> None:
    aliases = {B + "WORLD": B + "WORLD/", B + "x": B + "y", B + "y": B + "z",
               B + "a": B + "b", B + "b": B + "a"}
    assert final_url(B + "WORLD", aliases) == B + "WORLD/"
    assert final_url(B + "x", aliases) == B + "z"
    assert final_url(B + "a", aliases) == B + "a" and final_url(B + "b", aliases) == B + "b"
    assert final_url(B + "other", aliases) == B + "other"
    long = {f"{B}{i}": f"{B}{i + 1}" for i in range(MAX_HOPS + 5)}
    assert final_url(B + "0", long) == B + "0"


def test_offers_to_an_alias_are_offers_to_the_node() -> None:
    pages = {B: {}, B + "WORLD/": {}, B + "sports/": {}}
    offers = {B + "WORLD": [offer(B)],  # the home page links /WORLD (301 -> /WORLD/)
              B + "WORLD/": [offer(B + "sports/", "bar"), offer(B + "WORLD", "self")]}
    root, pages2, offers2 = apply_aliases(B, pages, offers, {B + "WORLD": B + "WORLD/"})
    assert root == B and set(pages2) == set(pages)
    assert sorted(o["from"] for o in offers2[B + "WORLD/"]) == [B, B + "sports/"]  # no self-offer
    assert B + "WORLD" not in offers2
    # a page recorded under an alias moves to its final URL, unless that has its own record
    _, moved, _ = apply_aliases(B + "old", {B + "old": {"t": 1}, B + "x": {"t": 2}, B + "y": {"t": 3}},
                                {}, {B + "old": B + "new/", B + "x": B + "y"})
    assert moved == {B + "new/": {"t": 1}, B + "y": {"t": 3}}


def test_evidence_names_the_page_a_redirect_leads_to() -> None:
    """A site that links its sections without the slash (``/updates`` -> ``/updates/``):
    the breadcrumb, pager and menu links of a page name the sections' final URLs, in the
    offline resolution and in the recorded one alike."""
    from skeleton.hierarchy.facts import page_facts
    from skeleton.hierarchy.recorded import recorded_facts

    record = {"evidence": {"crumbs": [B, B + "updates"], "pager": [B + "updates/page/3"]},
              "nav_links": [{"url": B + "updates", "text": "News"}]}
    pages = {B: {}, B + "updates/": {}, B + "updates/page/2/": record, B + "updates/page/3/": {}}
    aliases = {B + "updates": B + "updates/", B + "updates/page/3": B + "updates/page/3/"}
    _, moved, _ = apply_aliases(B, pages, {}, aliases)
    facts = page_facts(B + "updates/page/2/", moved[B + "updates/page/2/"])
    assert facts.crumbs == (B, B + "updates/") and facts.pager == (B + "updates/page/3/",)
    assert facts.links == (B + "updates/",)
    assert record["evidence"]["crumbs"] == [B, B + "updates"]  # the record itself is unchanged
    _, recorded, _ = recorded_facts(B, list(pages), list(pages.items()), aliases, [])
    assert recorded[B + "updates/page/2/"] == facts


def test_a_numbered_link_that_redirects_elsewhere_is_no_later_page() -> None:
    """A pager link follows a redirect only to the same URL with a slash or an index
    file: ``/chain/0`` -> ``/chain/20`` is another page, not page 20 of ``/chain/``."""
    from skeleton.hierarchy.aliases import final_evidence, final_urls

    final = final_urls({B + "chain/0": B + "chain/20", B + "news/page/2": B + "news/page/2/",
                        B + "a": B + "a/index.html"})
    evidence = {"pager": [B + "chain/0", B + "news/page/2"], "crumbs": [B + "chain/0", B + "a"], "x": 1}
    assert final_evidence(evidence, final) == {
        "pager": [B + "chain/0", B + "news/page/2/"], "crumbs": [B + "chain/20", B + "a/index.html"], "x": 1}


def test_the_home_page_keeps_a_section_whose_link_redirects(redis_client) -> None:
    keys = CrawlKeys("aliases-test")
    redis_client.delete(*keys.all())
    pages = {B: {"evidence": {}, "nav_links": []}, B + "WORLD/": {"evidence": {}, "nav_links": []},
             B + "WORLD/a.html": {"evidence": {}, "nav_links": []}}
    redis_client.hset(keys.pages, mapping={u: json.dumps(r) for u, r in pages.items()})
    stored = {B + "WORLD": [offer(B)], B + "WORLD/a.html": [offer(B + "WORLD/", "list")]}
    redis_client.hset(keys.offers, mapping={c: "\n".join("\t".join(pack_offer(o, "")) for o in os_)
                                            for c, os_ in stored.items()})
    assert resolve_recorded_tree(redis_client, keys, B, None).get(B + "WORLD/") is None
    redis_client.hset(keys.aliases, B + "WORLD", B + "WORLD/")
    tree = resolve_recorded_tree(redis_client, keys, B, None)
    assert tree[B + "WORLD/"]["parent"] == B and tree[B + "WORLD/a.html"]["parent"] == B + "WORLD/"
    redis_client.delete(*keys.all())


def test_redirect_targets() -> None:
    def response(url: str, status: int = 200, body: bytes = b"", **headers: str) -> Response:
        cls = HtmlResponse if status == 200 else Response
        return cls(url, status=status, body=body, headers=headers, request=Request(url))

    assert redirect_target(B + "WORLD", response(B + "WORLD", 301, Location="/WORLD/"), 100) == B + "WORLD/"
    assert redirect_target(B + "a", response(B + "a", 308, Location="b?utm_x=1#f"), 100) == B + "b?utm_x=1"
    assert redirect_target(B + "a", response(B + "a", 302, Location="http://other.test/a"), 100) is None
    assert redirect_target(B + "a", response(B + "a", 301, Location="/a"), 100) is None  # to itself
    assert redirect_target(B + "a", response(B + "a", 301), 100) is None  # no Location
    assert redirect_target(B + "a", response(B + "a", 404, Location="/b"), 100) is None
    refresh = b'<html><head><meta http-equiv="refresh" content="0; url=/new/"></head></html>'
    assert redirect_target(B + "old", response(B + "old", 200, refresh), 100) == B + "new/"
    slow = refresh.replace(b'"0;', b'"300;')
    assert redirect_target(B + "old", response(B + "old", 200, slow), 100) is None
    assert redirect_target(B + "old", response(B + "old", 200, refresh), -1) is None  # refresh off
    # read as Scrapy's MetaRefreshMiddleware reads it (it caches the first reading)
    hidden = b'<html><head><noscript><meta http-equiv="refresh" content="0; url=/js/"></noscript></head></html>'
    assert redirect_target(B + "old", response(B + "old", 200, hidden), 100) is None
    scripted = response(B + "old", 200, hidden.replace(b"noscript", b"script"))
    assert redirect_target(B + "old", scripted, 100, ignore_tags=()) == B + "js/"


def test_the_middleware_records_aliases_and_survives_a_lost_redis(redis_client) -> None:
    import redis

    crawler = get_crawler()
    crawler.stats.open_spider()
    keys = CrawlKeys("aliases-mw")
    middleware = RedirectAliasMiddleware(crawler, redis_client, keys, 100)
    moved = Response(B + "x", status=301, headers={"Location": "/x/"}, request=Request(B + "x"))
    assert middleware.process_response(Request(B + "x"), moved) is moved
    assert redis_client.hget(keys.aliases, B + "x") == (B + "x/").encode()
    assert crawler.stats.get_value("skeleton/aliases/recorded") == 1
    gone = redis.Redis(host="127.0.0.1", port=1, socket_timeout=0.2, socket_connect_timeout=0.2)
    middleware = RedirectAliasMiddleware(crawler, gone, keys, 100)
    assert middleware.process_response(Request(B + "x"), moved) is moved
    assert crawler.stats.get_value("skeleton/aliases/errors") == 1
    redis_client.delete(keys.aliases)


def test_a_section_linked_without_its_slash_hangs_from_the_home_page(serve, tmp_path: Path) -> None:
    """The home page links ``sec`` (the server answers 301 to ``sec/``) and ``other/``,
    which links ``sec/`` directly: whichever arrives first, ``sec/`` is one node,
    recorded under its final URL, with ``sec`` its alias, under the home page."""
    site = tmp_path / "site"
    (site / "sec").mkdir(parents=True)
    (site / "other").mkdir()
    (site / "index.html").write_text('<html><body><ul><li><a href="sec">Section</a></li>'
                                     '<li><a href="other/">Other</a></li></ul></body></html>')
    (site / "other" / "index.html").write_text('<html><body><a href="../sec/">Section</a></body></html>')
    (site / "sec" / "index.html").write_text('<html><body><a href="a.html">A</a></body></html>')
    (site / "sec" / "a.html").write_text("<html><body><p>A page</p></body></html>")
    base = serve(site)
    cwd = tmp_path / "run"
    cwd.mkdir()
    done = run_scrapy(["crawl", "skeleton", "-a", f"base={base}", "-a", "mode=bfs", "-O", "pages.jsonl",
                       *FAST], cwd)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "skeleton/aliases/recorded" in done.stderr
    urls = [json.loads(line)["url"] for line in (cwd / "pages.jsonl").read_text().splitlines()]
    assert base + "sec/" in urls and base + "sec" not in urls
    tree = run_scrapy(["tree", "--format", "csv"], cwd)
    assert tree.returncode == 0, tree.stderr[-3000:]
    rows = {line.split(",")[0]: line.split(",")[2] for line in tree.stdout.splitlines()[1:]}
    assert rows[base + "sec/"] == base and rows[base + "sec/a.html"] == base + "sec/"
