"""The Lua edge rule of the tree pipeline, on a real (embedded) Redis server."""
from __future__ import annotations

import itertools
import json
import random
from types import SimpleNamespace

import pytest

from skeleton.items import PageItem
from skeleton.pipelines.tree import EDGE_SCRIPT, TreePipeline
from skeleton.redis_keys import CrawlKeys
from skeleton.sew.edges import edge_rank
from skeleton.sew.urls import section_dirs

ROOT = "http://s/"


def offered_at(candidate) -> int:
    """The depth of the page offering a candidate: given, or one above it."""
    return candidate[3] if len(candidate) > 3 else candidate[2] - 1


def apply(client, script, keys: CrawlKeys, page: str, candidates) -> int:
    """One item per offering depth, as the pipeline sends them."""
    changed = 0
    for at in sorted({offered_at(c) for c in candidates}):
        args = [ROOT, page, json.dumps({"url": page}), at]
        for child, parent, depth, *_ in (c for c in candidates if offered_at(c) == at):
            args += [child, parent, depth, section_dirs(parent, child)]
        changed += script(keys=[keys.pages, keys.edges], args=args)
    return changed


def edges(client, keys: CrawlKeys) -> dict[str, tuple[str, int]]:
    raw = client.hgetall(keys.edges)
    return {k.decode(): (json.loads(v)["parent"], json.loads(v)["depth"]) for k, v in raw.items()}


CANDIDATES = [
    ("http://s/a", ROOT, 1), ("http://s/a", "http://s/b", 2), ("http://s/b", ROOT, 1),
    ("http://s/c", "http://s/b", 2), ("http://s/c", "http://s/a", 2), ("http://s/c", ROOT, 3),
    ("http://s/d", "http://s/c", 3), ("http://s/d", "http://s/B", 3), ("http://s/d", "http://s/é", 3),
    (ROOT, "http://s/a", 2), ("http://s/e", "http://s/e", 1), ("http://s/f", "http://s/a/", 2),
    ("http://s/f", "http://s/a", 2),
    # same depth: the parent sharing the child's directories wins over a smaller URL
    ("http://s/m/x.html", "http://s/m/index.html", 2), ("http://s/m/x.html", "http://s/a", 2),
    ("http://s/m/x.html", "http://s/n/index.html", 2), ("http://s/m/x.html", "http://s/b", 3),
    # a sibling page in the same folder is no section: the URL decides
    ("http://s/p/y.html", "http://s/p/x.html", 2), ("http://s/p/y.html", "http://s/b", 2),
    # same depth: a nested entry offered by the root wins over a section page's link
    ("http://s/n/z.html", "http://s/n/", 2), ("http://s/n/z.html", "http://s/c", 2, 0),
]
EXPECTED = {"http://s/a": (ROOT, 1), "http://s/b": (ROOT, 1), "http://s/c": ("http://s/a", 2),
            "http://s/d": ("http://s/B", 3), "http://s/f": ("http://s/a", 2),
            "http://s/m/x.html": ("http://s/m/index.html", 2), "http://s/p/y.html": ("http://s/b", 2),
            "http://s/n/z.html": ("http://s/c", 2)}


def test_expected_edges_follow_edge_rank() -> None:
    """The Lua rule and the pure ``edge_rank`` order agree on the fixture."""
    best: dict[str, tuple] = {}
    for candidate in CANDIDATES:
        child, parent, depth = candidate[:3]
        if child not in (ROOT, parent):
            rank = edge_rank(parent, child, depth, offered_at(candidate))
            best[child] = min(best.get(child, rank), rank)
    assert {c: (r[3], r[0]) for c, r in best.items()} == EXPECTED


@pytest.fixture
def script(redis_client):
    return redis_client.register_script(EDGE_SCRIPT)


def test_smallest_depth_then_shallowest_offer_then_section_dirs_then_parent_url(redis_client, script) -> None:
    keys = CrawlKeys("test-edges-rule")
    redis_client.delete(*keys.all())
    for candidate in CANDIDATES:
        apply(redis_client, script, keys, "http://s/page", [candidate])
    assert edges(redis_client, keys) == EXPECTED
    assert redis_client.hget(keys.pages, "http://s/page") is not None


def test_any_order_and_any_grouping_gives_the_same_edges(redis_client, script) -> None:
    rng = random.Random(7)
    orders = [list(p) for p in itertools.islice(itertools.permutations(CANDIDATES[:6]), 0, 720, 97)]
    for _ in range(20):
        shuffled = CANDIDATES[:]
        rng.shuffle(shuffled)
        orders.append(shuffled)
    for i, order in enumerate(orders):
        keys = CrawlKeys(f"test-edges-order-{i}")
        redis_client.delete(*keys.all())
        cut = rng.randrange(len(order) + 1)
        apply(redis_client, script, keys, "http://s/p1", order[:cut])
        apply(redis_client, script, keys, "http://s/p2", order[cut:])
        got = edges(redis_client, keys)
        assert got == {c: e for c, e in EXPECTED.items() if any(x[0] == c for x in order)}
        redis_client.delete(*keys.all())


def test_applying_twice_changes_nothing(redis_client, script) -> None:
    keys = CrawlKeys("test-edges-twice")
    redis_client.delete(*keys.all())
    assert apply(redis_client, script, keys, "http://s/p", CANDIDATES) > 0
    before = redis_client.hgetall(keys.edges)
    assert apply(redis_client, script, keys, "http://s/p", CANDIDATES) == 0
    assert redis_client.hgetall(keys.edges) == before


def test_pipeline_records_pages_and_nested_edges(redis_client, redis_settings) -> None:
    spider = SimpleNamespace(crawl_id="test-edges-pipeline", base=ROOT, mode="sew",
                             max_depth=None, max_pages=None)
    crawler = SimpleNamespace(spider=spider, settings=redis_settings)
    pipeline = TreePipeline(crawler, redis_client)
    keys = pipeline.keys
    redis_client.delete(*keys.all())
    item = PageItem(url="http://s/a", parent=ROOT, depth=1, title="A", is_navigation=True,
                    confidence=0.9, candidates=2, reason=None, nav_links=[
                        {"url": "http://s/a/1", "text": "One", "parent": "http://s/a"},
                        {"url": "http://s/a/1/x", "text": "X", "parent": "http://s/a/1"},
                        {"url": ROOT, "text": "Home", "parent": "http://s/a"}])
    assert pipeline.process_item(item) is item
    assert json.loads(redis_client.hget(keys.pages, "http://s/a")) == dict(item)
    assert edges(redis_client, keys) == {"http://s/a/1": ("http://s/a", 2),
                                         "http://s/a/1/x": ("http://s/a/1", 3)}
