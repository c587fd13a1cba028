"""The evidence tree: offers, candidate edge features, the arborescence, resolution."""
from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import networkx as nx
import pytest

from skeleton.hierarchy.arborescence import MAX_IN_EDGES, best_tree, tree_depths
from skeleton.hierarchy.features import FEATURES, candidate_edges
from skeleton.hierarchy.offers import MAX_OFFERS, offer_key, page_offers, section_folder, set_signature
from skeleton.hierarchy.resolve import resolve_tree
from skeleton.hierarchy.scoring import EdgeModel, EdgeModelError, edge_weights, site_weights, train_edge_model
from skeleton.sew.links import LinkNode
from skeleton.sew.model import load_model

H = "http://h/"


def link(n: int, url: str, text: str = "x") -> LinkNode:
    return LinkNode(n, url, url, None, text, 3, ("html", "body", "ul", "li", "a"), (), "text")  # type: ignore[arg-type]


# -- arborescence ----------------------------------------------------------------------------

def test_best_tree_is_the_maximum_spanning_arborescence_on_random_graphs() -> None:
    """Splitting by strongly connected components gives networkx's optimum on the whole graph."""
    rnd = random.Random(7)
    for trial in range(40):
        n = rnd.randint(2, 12)
        nodes = [f"n{i}" for i in range(n)]
        edges = {}
        for i in range(1, n):
            edges[(nodes[rnd.randrange(i)], nodes[i])] = rnd.random()
        for _ in range(rnd.randint(0, 3 * n)):
            a, b = rnd.sample(nodes, 2)
            if b != "n0":
                edges[(a, b)] = rnd.random()
        weighted = [(p, c, w) for (p, c), w in edges.items()]
        ours = best_tree("n0", weighted)
        graph = nx.DiGraph()
        graph.add_weighted_edges_from(weighted)
        full = nx.maximum_spanning_arborescence(graph, attr="weight")
        assert len(ours) == n - 1
        ours_weight = sum(edges[(p, c)] for c, p in ours.items())
        best_weight = sum(edges[e] for e in full.edges())
        if max(len([1 for (_, c) in edges if c == x]) for x in nodes[1:]) <= MAX_IN_EDGES:
            assert ours_weight == pytest.approx(best_weight)
        # a tree: every chain of parents reaches the root
        for child in ours:
            seen, node = set(), child
            while node != "n0":
                assert node not in seen
                seen.add(node)
                node = ours[node]


def test_best_tree_spans_cycles_with_log_probability_weights() -> None:
    """Weights are log p, from about -30 to 0: every reachable page still gets a parent."""
    rnd = random.Random(11)
    for _ in range(30):
        n = rnd.randint(5, 30)
        nodes = [f"n{i:02d}" for i in range(n)]
        edges = [(nodes[rnd.randrange(i)], nodes[i], -rnd.uniform(0, 30)) for i in range(1, n)]
        edges += [(a, b, -rnd.uniform(0, 0.5)) for a, b in (rnd.sample(nodes[1:], 2) for _ in range(3 * n))]
        tree = best_tree("n00", edges)
        assert set(tree) == set(nodes[1:])
        assert set(tree_depths("n00", tree)) == set(nodes)


def test_best_tree_spans_the_component_networkx_alone_cannot() -> None:
    """A component from a real crawl (URLs renamed, super-root 'r'), on which
    networkx's maximum_spanning_arborescence raises 'No maximum spanning arborescence'."""
    edges = json.loads((Path(__file__).parent / "data" / "arborescence_branching_case.json").read_text())
    graph = nx.DiGraph()
    graph.add_weighted_edges_from(edges)
    with pytest.raises(nx.NetworkXException):
        nx.maximum_spanning_arborescence(graph, attr="weight")
    tree = best_tree("r", [tuple(e) for e in edges])
    assert set(tree) == set(graph) - {"r"}
    assert set(tree_depths("r", tree)) == set(graph)


def test_best_tree_breaks_cycles_and_ties_by_url() -> None:
    # a and b offer each other with high weights; only the root's edges enter the cycle
    edges = [("r", "a", 0.1), ("r", "b", 0.2), ("a", "b", 5.0), ("b", "a", 5.0)]
    assert best_tree("r", edges) == {"b": "r", "a": "b"}
    ties = [("r", "x", 1.0), ("r", "y", 1.0), ("y", "z", 1.0), ("x", "z", 1.0)]
    assert best_tree("r", ties)["z"] == "x"
    assert best_tree("r", reversed(ties)) == best_tree("r", ties)


def test_best_tree_leaves_out_unreachable_pages_and_edges_into_the_root() -> None:
    tree = best_tree("r", [("r", "a", 1.0), ("a", "r", 9.0), ("q", "z", 1.0), ("a", "a", 3.0)])
    assert tree == {"a": "r"}
    assert tree_depths("r", {"a": "r", "b": "a"}) == {"r": 0, "a": 1, "b": 2}


# -- offers ----------------------------------------------------------------------------------

def test_page_offers_describe_the_list_each_link_comes_from() -> None:
    menu = [link(i, f"{H}{name}/") for i, name in enumerate(["a", "b", "c"])]
    names = ["Apple", "Banana", "Cherry", "Date", "Fig", "Grape", "Kiwi", "Lemon"]
    index = [link(10 + i, f"{H}x/{n.lower()}.html", n) for i, n in enumerate(names)]
    followed = [(l.url, l.sec_name, H, 1) for l in menu + index] + [(f"{H}a/sub.html", "s", f"{H}a/", 2)]
    offers = page_offers(H, [menu, index], followed)
    a, apple, loose = offers[f"{H}a/"], offers[f"{H}x/apple.html"], offers[f"{H}a/sub.html"]
    assert (a["size"], a["alpha"], a["pos"], a["from"], a["parent"]) == (3, 0, 0.0, H, H)
    assert (apple["size"], apple["alpha"], apple["dirs"]) == (8, 1, 0.125)
    assert a["dirs"] == 1.0 and a["sig"] == set_signature(l.url for l in menu)
    assert (loose["parent"], loose["level"], loose["size"]) == (f"{H}a/", 2, 1)


def test_offer_bound_order_prefers_nested_and_short_lists() -> None:
    short = {"from": H, "parent": H, "level": 1, "size": 4}
    menu = {"from": H, "parent": H, "level": 1, "size": 400}
    nested = {"from": H, "parent": H + "a", "level": 2, "size": 400}
    assert sorted([menu, nested, short], key=offer_key) == [short, menu, nested]
    assert MAX_OFFERS >= 8


@pytest.mark.parametrize(("url", "folder"), [
    ("http://h/en/mod/", "/en/mod/"), ("http://h/en/mod/index.html", "/en/mod/"),
    ("http://h/category/devops.html", "/category/devops/"), ("http://h/archives.html", "/archives/"),
    ("http://h/shop/shoes", "/shop/shoes/"), ("http://[::1", "/")])
def test_section_folder(url: str, folder: str) -> None:
    assert section_folder(url) == folder


# -- features, scoring, resolution ------------------------------------------------------------

def _site():
    """Home lists 'latest' (a shortcut to a post) and two sections; each section lists its posts;
    the post names its section in its breadcrumb."""
    home, news, blog = H, H + "news/", H + "blog/"
    post, other = H + "blog/post.html", H + "news/item.html"
    pages = {home: {}, news: {}, blog: {},
             post: {"evidence": {"crumbs": [home, blog]}, "nav_links": [{"url": blog}]},
             other: {"evidence": {"crumbs": [home, news]}}}
    offers = {
        news: [{"from": home, "parent": home, "level": 1, "size": 2, "dirs": 1.0, "sig": "m"}],
        blog: [{"from": home, "parent": home, "level": 1, "size": 2, "dirs": 1.0, "sig": "m"}],
        post: [{"from": home, "parent": home, "level": 1, "size": 2, "dirs": 1.0, "sig": "latest"},
               {"from": blog, "parent": blog, "level": 1, "size": 1, "dirs": 1.0, "sig": "b"}],
        other: [{"from": news, "parent": news, "level": 1, "size": 1, "dirs": 1.0, "sig": "n"},
                {"from": home, "parent": home, "level": 1, "size": 2, "dirs": 1.0, "sig": "latest"}],
    }
    return home, pages, offers


def test_candidate_edges_have_one_row_per_offered_parent() -> None:
    home, pages, offers = _site()
    cands = candidate_edges(home, pages, offers)
    assert cands.edges == sorted(cands.edges, key=lambda e: (e[1], e[0]))
    assert len(cands.edges) == 6 and all(len(r) == len(FEATURES) for r in cands.rows)
    row = dict(zip(FEATURES, cands.rows[cands.edges.index((H + "blog/", H + "blog/post.html"))]))
    assert (row["named"], row["has_named"], row["backlink"], row["url_under"], row["contradicted"]) == (1, 1, 1, 1, 0)
    row = dict(zip(FEATURES, cands.rows[cands.edges.index((H, H + "blog/post.html"))]))
    assert (row["named"], row["named_any"], row["contradicted"], row["gap"]) == (0, 1, 1, 0)


def test_a_shortcut_list_on_the_home_page_does_not_steal_a_sections_child() -> None:
    """The shipped model hangs the post from its section, which its breadcrumb names,
    while the shortest-path rule hangs it from the home page's shortcut."""
    home, pages, offers = _site()
    shortest = resolve_tree(home, pages, offers, None)
    assert shortest[H + "blog/post.html"]["parent"] == home
    tree = resolve_tree(home, pages, offers, load_model(None).edges)
    assert tree[H + "blog/post.html"] == {"parent": H + "blog/", "depth": 2}
    assert tree[H + "news/item.html"] == {"parent": H + "news/", "depth": 2}


def test_resolution_ignores_the_order_of_pages_and_offers() -> None:
    home, pages, offers = _site()
    model = load_model(None).edges
    expected = resolve_tree(home, pages, offers, model)
    for perm in itertools.permutations(list(offers)):
        shuffled = {k: list(reversed(offers[k])) for k in perm}
        assert resolve_tree(home, dict(reversed(list(pages.items()))), shuffled, model) == expected


def test_a_page_whose_best_parent_was_not_fetched_hangs_from_the_next_best() -> None:
    home, pages, offers = _site()
    del pages[H + "blog/"]
    tree = resolve_tree(home, pages, offers, load_model(None).edges)
    assert tree[H + "blog/post.html"]["parent"] == home
    assert resolve_tree(H + "missing", pages, offers, None) == {}


def test_train_edge_model_learns_from_labelled_rows() -> None:
    rows = [[0.0] * len(FEATURES) for _ in range(20)]
    named = FEATURES.index("named")
    for i, row in enumerate(rows):
        row[named] = float(i % 2)
    model = train_edge_model(rows, [i % 2 for i in range(20)])
    w = edge_weights([rows[0], rows[1]], model)
    assert w[1] > w[0] and all(x <= 0 for x in w)
    with pytest.raises(EdgeModelError):
        train_edge_model(rows, [0] * 20)
    with pytest.raises(EdgeModelError):
        edge_weights(rows, {**model, "features": ["other"]})


def test_candidates_the_model_scores_alike_are_told_apart_by_the_shortest_path_rule() -> None:
    """A site-wide sidebar offers every page of a section from every other: the
    model cannot tell those offers apart, the section's shallowest page wins."""
    blank = [0.0] * len(FEATURES)
    gap, dist, named = (FEATURES.index(f) for f in ("gap", "dist", "named"))
    learned = [[*blank[:named], float(i % 2), *blank[named + 1:]] for i in range(20)]
    model = train_edge_model(learned, [i % 2 for i in range(20)])
    near = [*blank]
    near[dist] = 3.0
    far = [*blank]
    far[dist], far[gap] = 4.0, 1.0
    w_near, w_far = edge_weights([near, far], model)
    assert w_near > w_far and w_near - w_far < 1e-5
    # ... and never outweighs what the model does tell apart
    named_far = [*far]
    named_far[named] = 1.0
    w_named, w_near = edge_weights([named_far, near], model)
    assert w_named > w_near
    # in the tree: pages "a" .. "d" (the shallowest, last by URL) offer each other
    # through one sidebar
    edges = [("r", "x", 0.0), ("x", "d", -5.0)]
    for p in "abcd":
        for c in "abcd":
            if p != c:
                edges.append((p, c, edge_weights([near if p == "d" else far], model)[0] - 5.0))
    tree = best_tree("r", edges)
    assert {tree[c] for c in "abc"} == {"d"}


def test_the_stored_trees_score_as_scikit_learn_does() -> None:
    import numpy as np
    from sklearn.ensemble import GradientBoostingClassifier

    from skeleton.hierarchy.scoring import LEARNING_RATE, N_TREES, TREE_DEPTH

    rng = np.random.default_rng(0)
    x = rng.normal(size=(300, len(FEATURES)))
    x[:, 1] = rng.integers(0, 3, 300)
    y = (x[:, 0] + 0.5 * x[:, 1] + rng.normal(size=300) > 0.7).astype(int)
    stored = json.loads(json.dumps(train_edge_model(x.tolist(), y.tolist())))  # plain JSON
    clf = GradientBoostingClassifier(n_estimators=N_TREES, max_depth=TREE_DEPTH,
                                     learning_rate=LEARNING_RATE, random_state=0).fit(x, y)
    ours = EdgeModel.from_dict(stored).log_odds(x.tolist())
    assert np.allclose(ours, clf.decision_function(x), atol=1e-6)


def test_weighted_stored_trees_score_as_scikit_learn_does() -> None:
    import numpy as np
    from sklearn.ensemble import GradientBoostingClassifier

    from skeleton.hierarchy.scoring import LEARNING_RATE, N_TREES, TREE_DEPTH

    rng = np.random.default_rng(1)
    x = rng.normal(size=(240, len(FEATURES)))
    y = (x[:, 0] + rng.normal(size=240) > 0.3).astype(int)
    sites = ["big"] * 200 + ["small"] * 40
    stored = json.loads(json.dumps(train_edge_model(x.tolist(), y.tolist(), sites=sites)))
    clf = GradientBoostingClassifier(n_estimators=N_TREES, max_depth=TREE_DEPTH, learning_rate=LEARNING_RATE,
                                     random_state=0).fit(x, y, sample_weight=site_weights(sites))
    assert np.allclose(EdgeModel.from_dict(stored).log_odds(x.tolist()), clf.decision_function(x), atol=1e-6)
    with pytest.raises(EdgeModelError, match="site of every row"):
        train_edge_model(x.tolist(), y.tolist(), sites=sites[1:])


def test_every_site_weighs_the_same_in_the_edge_model() -> None:
    """One large site whose named parents are wrong, three small ones whose named
    parents are right: row by row the large site wins, site by site the three do."""
    named = FEATURES.index("named")

    def site(n: int, named_is_true: bool) -> tuple[list[list[float]], list[int]]:
        rows = [[0.0] * len(FEATURES) for _ in range(n)]
        for i, row in enumerate(rows):
            row[named] = float(i % 2)
        return rows, [int((i % 2 == 1) == named_is_true) for i in range(n)]

    parts = [site(200, False)] + [site(20, True) for _ in range(3)]
    rows = [r for x, _ in parts for r in x]
    labels = [v for _, y in parts for v in y]
    sites = ["large"] * 200 + [f"small-{k}" for k in range(3) for _ in range(20)]
    assert site_weights(sites).sum() == pytest.approx(len(sites))
    assert site_weights(sites)[0] * 200 == pytest.approx(site_weights(sites)[-1] * 20)
    name_row, plain_row = [0.0] * len(FEATURES), [0.0] * len(FEATURES)
    name_row[named] = 1.0
    by_rows = EdgeModel.from_dict(train_edge_model(rows, labels)).log_odds([name_row, plain_row])
    by_sites = EdgeModel.from_dict(train_edge_model(rows, labels, sites=sites)).log_odds([name_row, plain_row])
    assert by_rows[0] < by_rows[1]
    assert by_sites[0] > by_sites[1]


def test_an_edge_model_of_another_kind_is_refused() -> None:
    linear = {"features": list(FEATURES), "mean": [0.0] * len(FEATURES), "scale": [1.0] * len(FEATURES),
              "coef": [1.0] * len(FEATURES), "intercept": 0.0}
    with pytest.raises(EdgeModelError, match="retrain"):
        edge_weights([[0.0] * len(FEATURES)], linear)


def test_a_model_file_with_an_unusable_edge_score_is_refused(tmp_path) -> None:
    from dataclasses import asdict

    from scrapy.exceptions import UsageError

    from skeleton.sew.model import save_model
    from skeleton.spiders.arguments import parse_arguments

    model = load_model(None)
    tree = model.edges["trees"][0]
    model.edges = {**model.edges, "trees": [{**tree, "left": tree["left"][:-1]}]}
    path = tmp_path / "model.json"
    path.write_text(json.dumps(asdict(model)))
    with pytest.raises(UsageError, match="model has an unusable edge score"):  # the crawl checks it
        parse_arguments(base="http://h/", model=str(path))
    save_model(load_model(None), path)  # the shipped model round-trips
    assert load_model(path).edges == load_model(None).edges


def test_a_failed_page_is_a_node_under_the_page_that_offered_it_and_loses_no_page() -> None:
    """A failed page (no offers, evidence or links of its own) is placed by the offers
    of the pages that linked it; a page filed under it by its own breadcrumb stays in
    the tree, under it. A URL answered Not Found is no node."""
    home, pages, offers = _site()
    blog, item = H + "blog/", H + "news/item.html"
    for url, status in ((blog, "500"), (item, "404")):
        pages[url] = {"url": url, "title": "", "reason": "failed", "status": status,
                      "nav_links": [], "evidence": {}}
    offers = {child: [o for o in offered if o["from"] not in (blog, item)]
              for child, offered in offers.items()}
    tree = resolve_tree(home, pages, offers, load_model(None).edges)
    assert set(tree) == set(pages) - {home, item}  # a URL the site answered Not Found is no page
    assert tree[blog] == {"parent": home, "depth": 1}
    pages[item]["status"] = "503"  # failing with another status: a node
    tree = resolve_tree(home, pages, offers, load_model(None).edges)
    assert set(tree) == set(pages) - {home}
    # no breadcrumb of its own: under one of the pages that offered it
    assert tree[item]["parent"] in {o["from"] for o in offers[item]}
    assert tree[H + "blog/post.html"] == {"parent": blog, "depth": 2}
