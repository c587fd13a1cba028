"""Resolution from compact facts (skeleton.hierarchy.facts): the tree read from
Redis a batch at a time is the tree of the in-memory path over the same records."""
from __future__ import annotations

import random

import networkx as nx
import pytest

from skeleton.hierarchy.aliases import apply_aliases
from skeleton.hierarchy.arborescence import _components, best_tree
from skeleton.hierarchy.facts import offer_facts, page_facts
from skeleton.hierarchy.features import candidate_edges
from skeleton.hierarchy.recorded import recorded_facts as hierarchy_recorded_facts
from skeleton.hierarchy.recorded import resolve_recorded
from skeleton.hierarchy.offers import pack_offer
from skeleton.hierarchy.resolve import resolve_tree
from skeleton.sew.model import load_model
from skeleton.store import tree as store_tree
from skeleton.store.keys import CrawlKeys
from skeleton.store.tree import (crawl_edges, load_hash, pack_record, recorded_facts, resolve_recorded_tree,
                                 stored_aliases, stored_offers)

B = "http://site.test/"


def _offer(origin: str, parent: str, sig: str, size: int, rng: random.Random, level: int = 1) -> dict:
    return {"from": origin, "parent": parent, "level": level, "size": size, "sig": sig,
            "pos": round(rng.random(), 3), "toc": int(level > 1), "alpha": rng.randint(0, 1),
            "dirs": round(rng.random(), 3), "inside": round(rng.random(), 3)}


def synthetic_crawl(seed: int) -> tuple[dict[str, dict], dict[str, list[dict]], dict[str, str]]:
    """Pages, offers (child -> offers) and aliases of a small site with sections,
    paginated categories, articles, tag views, a form page, a language copy,
    redirects (one chain, one page recorded under its alias) and failed pages."""
    rng = random.Random(seed)
    pages: dict[str, dict] = {}
    offers: dict[str, list[dict]] = {}
    sections = [f"{B}s{i}/" for i in range(4)]
    menu = [B, *sections]

    def page(url: str, crumbs: list[str], pager: list[str] = (), reason: str | None = None) -> None:
        links = [{"url": u, "text": "x"} for u in rng.sample(menu, 3)]
        links.append({"url": "http://elsewhere.test/", "text": "out"})
        evidence = {"crumbs": crumbs + ["http://elsewhere.test/x"] * rng.randint(0, 1), "pager": list(pager)}
        if rng.random() < 0.3:
            evidence["trail"] = crumbs[-1:]
        if rng.random() < 0.1:
            evidence["up"] = [rng.choice(menu)]
        pages[url] = {"url": url, "title": url, "reason": reason, "nav_links": links, "evidence": evidence,
                      "nav_blocks": ["noise"] * 5}

    def offer(child: str, origin: str, sig: str, size: int, parent: str | None = None, level: int = 1) -> None:
        offers.setdefault(child, []).append(_offer(origin, parent or origin, sig, size, rng, level))

    page(B, [])
    tags = [f"{B}tag/t{i}" for i in range(3)]
    for s in sections:
        page(s, [B])
        for m in menu:
            offer(s, m, "menu", len(menu))
        for c in range(3):
            cat = f"{s}c{c}/"
            later = [f"{cat}?page={n}" for n in (2, 3)]
            page(cat, [B, s], pager=later)
            offer(cat, s, f"{s}-cats", 3)
            offer(cat, B, "home-toc", 12, parent=s, level=2)
            for n, url in enumerate(later):
                page(url, [B, s], pager=[cat, *later])
                offer(url, cat, f"{cat}-pager", 3)
            for a in range(rng.randint(2, 6)):
                art = f"{cat}a{a}.html"
                if rng.random() < 0.1:
                    pages[art] = {"url": art, "reason": "failed", "status": "500"}
                else:
                    page(art, [B, s, cat] if rng.random() < 0.7 else [])
                lister = rng.choice([cat, *later])
                offer(art, lister, f"{lister}-list", 8)
                tag = rng.choice(tags)
                offer(art, tag, f"{tag}-list", 6)
                if rng.random() < 0.3:
                    offer(art, B, "latest", 10)
    for t in tags:
        page(t, [B])
        offer(t, B, "home-tags", 3)
    page(B + "login", [], reason="form")
    offer(B + "login", B, "menu", 6)
    page(B + "fr/", [], reason="language")
    offer(B + "fr/", B, "menu", 6)
    # redirects: an old URL the home page links, a chain, a page recorded under its alias
    aliases = {B + "old": B + "s0/", B + "older": B + "old", B + "moved": B + "s3/new.html", B + "s1": B + "s1/"}
    offer(B + "old", B, "home-old", 4)
    offer(B + "older", B + "s2/", "s2-older", 4)
    offer(B + "s1", B + "s0/", "s0-sib", 4, parent=B + "old")
    page(B + "moved", [B, B + "s3/"])
    offer(B + "moved", B + "s3/", "s3-new", 4)
    return pages, offers, aliases


def store(client, keys: CrawlKeys, pages: dict, offers: dict, aliases: dict) -> None:
    client.delete(*keys.all())
    client.hset(keys.pages, mapping={u: pack_record(r) for u, r in pages.items()})
    client.hset(keys.pages, B + "broken", b"\x78not zlib")  # a value that does not decode
    client.hset(keys.offers, mapping={c: "\n".join("\t".join(pack_offer(o, B.rstrip("/"))) for o in os_)
                                      for c, os_ in offers.items()})
    if aliases:
        client.hset(keys.aliases, mapping=aliases)
    client.hset(keys.meta, "base", B)


def in_memory_tree(client, keys: CrawlKeys, model) -> dict:
    """The tree of every record and offer loaded at once: the path before facts."""
    root, pages, offers = apply_aliases(B, load_hash(client, keys.pages), stored_offers(client, keys, B),
                                        stored_aliases(client, keys))
    return resolve_tree(root, pages, offers, model)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("with_aliases", [True, False])
def test_the_tree_read_from_redis_is_the_tree_of_all_records_in_memory(redis_client, monkeypatch, seed,
                                                                        with_aliases) -> None:
    monkeypatch.setattr(store_tree, "SCAN_COUNT", 7)  # many batches
    pages, offers, aliases = synthetic_crawl(seed)
    keys = CrawlKeys(f"facts-test-{seed}")
    store(redis_client, keys, pages, offers, aliases if with_aliases else {})
    for model in (None, load_model(None).edges):
        expected = in_memory_tree(redis_client, keys, model)
        assert len(expected) > 40
        assert resolve_recorded_tree(redis_client, keys, B, model) == expected
        assert resolve_recorded_tree(redis_client, keys, B, model, load_hash(redis_client, keys.pages)) == expected
    tree = crawl_edges(redis_client, keys)
    assert B + "login" not in tree and B + "fr/" not in tree  # no nodes
    assert not any("?page=" in child for child in tree)  # later pages of a listing fold into the first
    if with_aliases:
        assert tree[B + "s3/new.html"]["parent"] == B + "s3/"  # recorded under its alias
        assert B + "old" not in tree and B + "s1" not in tree
    redis_client.delete(*keys.all())


def test_the_facts_keep_what_resolution_reads(redis_client) -> None:
    pages, offers, aliases = synthetic_crawl(0)
    keys = CrawlKeys("facts-test-shape")
    store(redis_client, keys, pages, offers, aliases)
    root, facts, offer_lists = recorded_facts(redis_client, keys, B + "older")
    assert root == B + "s0/"  # the base URL redirected
    assert B + "broken" not in facts and B + "moved" not in facts and B + "s3/new.html" in facts
    art = next(u for u, r in pages.items() if u.endswith(".html") and (r.get("evidence") or {}).get("crumbs"))
    assert facts[art].links and all(u.startswith(B) for u in facts[art].links)  # other sites' links dropped
    assert all(u.startswith(B) for u in facts[art].crumbs)  # a site names its own pages
    assert not facts[B + "login"].node and facts[B].node
    # the offers of an alias are its final page's, renamed
    assert {o.origin for o in offer_lists[B + "s0/"]} >= {B, B + "s2/"}
    assert B + "old" not in offer_lists and B + "older" not in offer_lists
    # one string per URL, however many pages name it
    assert len({id(o.origin) for os_ in offer_lists.values() for o in os_ if o.origin == B}) == 1
    redis_client.delete(*keys.all())


@pytest.mark.parametrize("seed", range(3))
def test_the_tree_of_records_read_one_at_a_time_is_the_tree_in_memory(seed: int) -> None:
    """Pure (no Redis): the records and offers handed over one at a time, in any
    order, give the tree of :func:`apply_aliases` over all of them."""
    pages, offers, aliases = synthetic_crawl(seed)
    rng = random.Random(seed)
    records, offer_items = list(pages.items()), list(offers.items())
    rng.shuffle(records)
    rng.shuffle(offer_items)
    model = load_model(None).edges
    expected = resolve_tree(*apply_aliases(B, pages, offers, aliases), model)
    assert resolve_recorded(B, list(pages), iter(records), aliases, iter(offer_items), model) == expected
    # a record of a URL not listed (stored after the listing) is left out
    late = iter([*records, (B + "late.html", {"url": B + "late.html", "nav_links": []})])
    root, facts, _ = hierarchy_recorded_facts(B, list(pages), late, aliases, iter(offer_items))
    assert root == B and B + "late.html" not in facts


def test_offer_and_page_facts_apply_the_features_defaults() -> None:
    o = offer_facts({"from": B, "parent": B})
    assert (o.level, o.size, o.toc, o.alpha, o.dirs, o.inside, o.sig) == (1, 0, 0, 0, 1.0, 0.0, "")
    assert offer_facts({"parent": B}).origin == ""
    assert page_facts(B, ["not", "a", "record"]) == page_facts(B, {})
    facts = page_facts(B + "a", {"evidence": {"crumbs": [B, "http://x.test/"], "pager": "not a list"},
                                 "nav_links": [{"url": B + "b"}, "junk"]})
    assert facts.crumbs == (B,) and facts.pager == () and facts.links == (B + "b",)


def test_candidate_edges_of_records_are_those_of_their_facts() -> None:
    pages, offers, _ = synthetic_crawl(1)
    cands = candidate_edges(B, pages, offers)
    assert cands.edges == sorted(cands.edges, key=lambda e: (e[1], e[0]))
    assert len(cands.edges) == len(cands.rows) > 50
    assert set(cands.folded) == {u for u in pages if "?page=" in u}
    assert all(child not in cands.folded for child in cands.offers)


def test_components_are_the_strongly_connected_components() -> None:
    rng = random.Random(5)
    for _ in range(30):
        nodes = [f"n{i}" for i in range(rng.randint(1, 25))]
        out = {n: rng.sample(nodes, rng.randint(0, min(3, len(nodes)))) for n in nodes}
        graph = nx.DiGraph()
        graph.add_nodes_from(nodes)
        graph.add_edges_from((n, m) for n, ms in out.items() for m in ms)
        ours = sorted(sorted(c) for c in _components(nodes, out))
        assert ours == sorted(sorted(c) for c in nx.strongly_connected_components(graph))


def test_best_tree_from_a_generator_keeps_each_pages_best_edges() -> None:
    rng = random.Random(9)
    edges = [(f"p{rng.randint(0, 60)}", f"c{i % 40}", rng.random()) for i in range(2000)]
    edges += [("r", f"p{i}", rng.random()) for i in range(61)] + [("r", f"c{i}", -5.0) for i in range(40)]
    assert best_tree("r", iter(edges)) == best_tree("r", list(reversed(edges)))
