"""The Lua offer store of the tree pipeline, on a real (embedded) Redis server."""
from __future__ import annotations

import json
import random
from types import SimpleNamespace

import pytest
from scrapy.signalmanager import SignalManager

from skeleton.crawl_settings import SETTING, CrawlSettings
from skeleton.hierarchy.offers import MAX_OFFERS, folder_holds, kept_offers, offer_key, pack_offer, unpack_offers
from skeleton.items import PageItem
from skeleton.pipelines.tree import TreePipeline
from skeleton.store.records import RECORD_SCRIPT
from skeleton.store.keys import CrawlKeys
from skeleton.hierarchy.scoring import EdgeModelError
from skeleton.store.tree import (crawl_edges, load_hash, pack_record, resolve_recorded_tree, stored_offers,
                                 unpack_record)

ROOT = "http://s/"


def offer(frm: str, parent: str, size: int = 3, level: int = 1) -> dict:
    return {"from": frm, "parent": parent, "level": level, "size": size, "sig": frm}


def apply(script, keys: CrawlKeys, page: str, offers: dict[str, dict], bound: int = MAX_OFFERS) -> int:
    args = [ROOT, page, pack_record({"url": page}), bound, "0", ""]
    for child, o in sorted(offers.items()):
        args += [child, *pack_offer(o, "http://s", child)]
    return script(keys=[keys.pages, keys.offers], args=args)[0]  # children whose offers changed


def stored(client, keys: CrawlKeys) -> dict[str, list[tuple[str, str]]]:
    return {child: sorted((o["from"], o["parent"]) for o in offers)
            for child, offers in stored_offers(client, keys, ROOT).items()}


@pytest.fixture
def script(redis_client):
    return redis_client.register_script(RECORD_SCRIPT)


def _pages() -> dict[str, dict[str, dict]]:
    """Offering page -> its offers (child -> offer): a, b, c offer each other and d."""
    return {
        ROOT: {"http://s/a": offer(ROOT, ROOT), "http://s/b": offer(ROOT, ROOT),
               "http://s/a/1": offer(ROOT, "http://s/a", 5, 2)},
        "http://s/a": {"http://s/a/1": offer("http://s/a", "http://s/a"), ROOT: offer("http://s/a", "http://s/a"),
                       "http://s/b": offer("http://s/a", "http://s/a", 10)},
        "http://s/b": {"http://s/a/1": offer("http://s/b", "http://s/b", 40)},
    }


def test_every_offer_is_kept_and_none_to_the_root(redis_client, script) -> None:
    keys = CrawlKeys("test-offers-all")
    redis_client.delete(*keys.all())
    for page, offers in _pages().items():
        apply(script, keys, page, offers)
    assert stored(redis_client, keys) == {
        "http://s/a": [(ROOT, ROOT)],
        "http://s/b": [(ROOT, ROOT), ("http://s/a", "http://s/a")],
        "http://s/a/1": [(ROOT, "http://s/a"), ("http://s/a", "http://s/a"), ("http://s/b", "http://s/b")]}
    assert redis_client.hget(keys.pages, "http://s/b") is not None


def test_any_order_gives_the_same_offers_and_applying_twice_changes_nothing(redis_client, script) -> None:
    rng = random.Random(3)
    expected = None
    for i in range(12):
        keys = CrawlKeys(f"test-offers-order-{i}")
        redis_client.delete(*keys.all())
        items = list(_pages().items())
        rng.shuffle(items)
        for page, offers in items:
            apply(script, keys, page, offers)
        raw = redis_client.hgetall(keys.offers)
        expected = expected or raw
        assert raw == expected
        assert sum(apply(script, keys, page, offers) for page, offers in items) == 0
        assert redis_client.hgetall(keys.offers) == expected
        redis_client.delete(*keys.all())


def kept_in_any_order(client, script, child: str, offers: dict[str, dict], bound: int, trials: int,
                      seed: int) -> set[tuple[tuple[str, str], ...]]:
    """The ``(from, parent)`` pairs ``child`` keeps when each page's offer (page ->
    offer) arrives in ``trials`` random orders: one tuple if the order never matters."""
    rng = random.Random(seed)
    results = set()
    for trial in range(trials):
        keys = CrawlKeys(f"test-offers-order-{seed}-{trial}")
        client.delete(*keys.all())
        order = list(offers.items())
        rng.shuffle(order)
        for page, o in order:
            apply(script, keys, page, {child: o}, bound=bound)
        results.add(tuple(stored(client, keys)[child]))
        client.delete(*keys.all())
    return results


def test_the_bound_keeps_nested_and_short_lists_whatever_the_order(redis_client, script) -> None:
    child = "http://s/x"
    offers = {f"http://s/p{i:02d}": offer(f"http://s/p{i:02d}", f"http://s/p{i:02d}", size=100 - i)
              for i in range(10)}
    offers["http://s/toc"] = offer("http://s/toc", "http://s/entry", size=500, level=2)
    results = kept_in_any_order(redis_client, script, child, offers, bound=4, trials=5, seed=5)
    kept = sorted(offers.values(), key=offer_key)[:4]
    assert results == {tuple(sorted((o["from"], o["parent"]) for o in kept))}
    assert all(o["level"] == 1 for o in kept)  # the level-2 TOC offer of a list of 500 goes first


def test_pipeline_stores_offers_not_in_the_feed_and_resolves_the_tree(redis_client, redis_settings) -> None:
    crawler = SimpleNamespace(settings={**redis_settings, SETTING: CrawlSettings(ROOT, "test-offers-pipeline")},
                              signals=SignalManager())
    pipeline = TreePipeline(crawler, redis_client)
    keys = pipeline.keys
    redis_client.delete(*keys.all())
    for page, offers in [*_pages().items(), ("http://s/a/1", {})]:
        item = PageItem(url=page, found_from=None, found_depth=0, title=page, is_navigation=True,
                        confidence=0.9, candidates=2, reason=None, nav_links=[], evidence={},
                        offers=offers)
        assert pipeline.process_item(item) is item
        assert "offers" not in item  # stored in Redis, not exported
        pipeline.flush()  # as the scheduler asks before it acks the page's lease
        assert unpack_record(redis_client.hget(keys.pages, page))["title"] == page
    tree = resolve_recorded_tree(redis_client, keys, ROOT, None)
    assert {c: e["parent"] for c, e in tree.items()} == {
        "http://s/a": ROOT, "http://s/b": ROOT, "http://s/a/1": "http://s/a"}
    assert tree["http://s/a/1"]["depth"] == 2


def test_the_bound_keeps_the_offers_of_the_folders_holding_the_child_as_the_offline_crawl(
        redis_client, script) -> None:
    # a whole-tree sidebar: 40 pages offer the child from a short list; its section
    # /docs/guide/ offers it from a longer listing and sorts after most of them
    child = "http://s/docs/guide/intro"
    pages = {f"http://s/a{i:02d}.html": offer(f"http://s/a{i:02d}.html", f"http://s/a{i:02d}.html", size=5)
             for i in range(40)}
    pages["http://s/docs/guide/"] = offer("http://s/docs/guide/", "http://s/docs/guide/", size=9)
    pages["http://s/docs/guide/other"] = offer("http://s/docs/guide/other", "http://s/docs/guide/other", size=5)
    results = kept_in_any_order(redis_client, script, child, pages, bound=8, trials=4, seed=7)
    kept = kept_offers(child, pages.values(), "http://s", bound=8)
    assert results == {tuple(sorted((o["from"], o["parent"]) for o in kept))}
    assert ("http://s/docs/guide/", "http://s/docs/guide/") in results.pop()
    # a sibling page's folder does not hold the child; the home page's holds every page
    assert not folder_holds("http://s/docs/guide/other", child)
    assert folder_holds("http://s/", child) and folder_holds("http://s/docs/guide/index.html", child)
    assert folder_holds("http://s/category/devops.html", "http://s/category/devops/post.html")
    assert not folder_holds(child, child) and not folder_holds("http://t/", child)


def test_offers_stored_before_the_place_letter_are_read() -> None:
    line = "0100003/ /a\t" + json.dumps([1, 3, 0.0, 0, 0, 0.5, 0.0, "x"])
    assert unpack_offers(line, "http://s") == [{"from": "http://s/", "parent": "http://s/a", "level": 1, "size": 3,
                                                 "pos": 0.0, "toc": 0, "alpha": 0, "dirs": 0.5, "inside": 0.0,
                                                 "sig": "x"}]


def test_bad_stored_offers_are_skipped_and_a_bad_edge_model_is_one_error(redis_client) -> None:
    good = {"from": ROOT, "parent": ROOT + "a", "level": 1, "size": 3, "sig": "x"}
    line = "\t".join(pack_offer(good, "http://s"))
    raw = "\n".join([line, "0100003/ /a\t{not json", "junk", "0100003/ /b\t[1,2]", "short\t[]"])
    assert unpack_offers(raw.encode(), "http://s") == [good]
    assert unpack_offers(None) == []
    keys = CrawlKeys("test-offers-bad-model")
    redis_client.delete(*keys.all())
    redis_client.hset(keys.meta, mapping={"base": ROOT, "edge_model": json.dumps({"features": ["x"]})})
    with pytest.raises(EdgeModelError, match="unusable edge model"):
        crawl_edges(redis_client, keys, {ROOT: {}})
    redis_client.delete(*keys.all())


def test_the_offline_crawl_stores_what_the_pipeline_stores() -> None:
    # benchmarks and training read page_records: no offer to the root, each child
    # bounded by kept_offers, as the Lua script above keeps them
    from skeleton.analysis.offline import PageResult, page_records

    pages = [PageResult(ROOT, 0, "home", True, [], offers={"http://s/x": offer(ROOT, ROOT, size=50)})]
    for i in range(MAX_OFFERS + 6):
        url = f"http://s/p{i:02d}"
        pages.append(PageResult(url, 1, url, True, [], offers={"http://s/x": offer(url, url, size=5),
                                                               ROOT: offer(url, url)}))
    records, offers = page_records(pages)
    assert ROOT not in offers
    kept = {o["from"] for o in offers["http://s/x"]}
    assert len(kept) == MAX_OFFERS and ROOT in kept  # the home page's folder holds every page
    assert kept == {o["from"] for o in kept_offers("http://s/x", [p.offers["http://s/x"] for p in pages], "http://s")}
