"""k-MIB (Section 3.2.2), type constraints and expansion (Section 3.3)."""
from __future__ import annotations

import lxml.html
import pytest

from skeleton.wisdom.constraints import ARTICLE, TOC, WisdomParams, satisfies
from skeleton.wisdom.coverage import build_coverage_tree
from skeleton.wisdom.features import extract_features
from skeleton.wisdom.merging import CSTM, DSTM, SKELETON, condense, cstm, dstm, expand, non_singleton_ancestors
from skeleton.wisdom.mib import k_mib
from skeleton.wisdom.sii import structure_information

URL = "http://site.test/index.html"
NOISE = {"click", "here", "share", "subscribe", "login", "cookies"}
RARE = {"scheduler", "preemption", "numa", "latency", "affinity", "hugepages"}


def weight(term):
    if term in NOISE or term in {"home", "news"}:
        return 0.0
    return 0.9 if term not in RARE else 0.6


def build(html, page_terms=None):
    root = lxml.html.fromstring(html)
    return build_coverage_tree(extract_features(root, URL, weight, page_terms))


def ids(tree, nodes):
    return [tree.nodes.elements[i].get("id") for i in nodes]


P = "<p>{0} {0} {0} {0} {0} {0}</p>"
ARTICLE_PAGE = (
    "<html><body>"
    '<div id="wrap">'
    '<div id="main">' + P.format("kernel") + P.format("thread") + P.format("memory") + "</div>"
    '<div id="meta"><p>storage driver</p></div>'
    '<div id="noise"><p>click here share</p></div>'
    "</div>"
    '<div id="other"><p>filesystem</p></div>'
    "</body></html>")


def test_k_mib_descends_to_the_uniform_informative_node():
    tree = build(ARTICLE_PAGE)
    assert ids(tree, k_mib(tree, ARTICLE, WisdomParams())) == ["main"]


def test_k_mib_k_and_st():
    tree = build(ARTICLE_PAGE)
    # k = 3: after main, the next largest uniform informative nodes (the search never
    # enters main): the paragraphs of meta, then of other (a one-child div is passed through)
    paths = [tree.nodes.elements[i].getroottree().getpath(tree.nodes.elements[i])
             for i in k_mib(tree, ARTICLE, WisdomParams(k=3))]
    assert paths == ["/html/body/div[1]/div[1]", "/html/body/div[1]/div[2]/p", "/html/body/div[2]/p"]
    assert k_mib(tree, ARTICLE, WisdomParams(k=0)) == []
    # CLEN_A: main 3 x 41, meta 14, noise 16, wrap 153, other 10
    body, wrap = 1, 2
    assert tree.sii(body, "clen") == pytest.approx(structure_information([153, 10]))  # 0.333
    assert tree.sii(wrap, "clen") == pytest.approx(structure_information([123, 14, 16]))  # 0.574
    assert ids(tree, k_mib(tree, ARTICLE, WisdomParams(st=0.4))) == ["wrap"]
    assert k_mib(tree, ARTICLE, WisdomParams(st=0.3)) == [body]


def test_article_type_constraint_changes_the_answer():
    tree = build(ARTICLE_PAGE)
    main = k_mib(tree, ARTICLE, WisdomParams())[0]
    assert tree.cii(main) == pytest.approx(0.9)
    # CII >= 1 - TC_article: 0.9 passes TC 0.8 (>= 0.2), fails TC 0.05 (>= 0.95)
    assert k_mib(tree, ARTICLE, WisdomParams(tc_article=0.05)) == []


def test_dstm_merges_smaller_qualified_siblings_only():
    tree = build(ARTICLE_PAGE)
    main = k_mib(tree, ARTICLE, WisdomParams())[0]
    params = WisdomParams()
    assert ids(tree, dstm(tree, main, ARTICLE, params)) == ["meta"]  # noise fails CII
    meta = dstm(tree, main, ARTICLE, params)[0]
    assert dstm(tree, meta, ARTICLE, params) == []  # main is larger than meta
    assert not satisfies(tree, meta + 2, ARTICLE, params)  # the noise div


def test_one_cstm_merges_the_ancestor_siblings():
    tree = build(ARTICLE_PAGE)
    main = k_mib(tree, ARTICLE, WisdomParams())[0]
    assert ids(tree, non_singleton_ancestors(tree, main, "clen")) == ["wrap"]
    assert ids(tree, cstm(tree, main, ARTICLE, WisdomParams(), 1)) == ["other"]
    assert cstm(tree, main, ARTICLE, WisdomParams(), 2) == []
    blocks = expand(tree, [main], ARTICLE, WisdomParams())
    assert [(tree.nodes.elements[i].get("id"), origin) for i, origin in blocks] == [
        ("main", SKELETON), ("meta", DSTM), ("other", CSTM)]
    assert ids(tree, [i for i, _ in expand(tree, [main], ARTICLE, WisdomParams(dstm=False, cstm_levels=0))]) == ["main"]


def test_expand_drops_blocks_inside_other_blocks():
    tree = build(ARTICLE_PAGE)
    main = k_mib(tree, ARTICLE, WisdomParams())[0]
    first_p = tree.nodes.children[main][0]
    blocks = expand(tree, [first_p, main], ARTICLE, WisdomParams(dstm=False, cstm_levels=0))
    assert ids(tree, [i for i, _ in blocks]) == ["main"]


def test_condensing_removes_uninformative_subtrees():
    html = ('<html><body><div id="main">' + P.format("kernel") + P.format("thread")
            + '<p id="junk">click here share login subscribe cookies</p>' + "</div></body></html>")
    tree = build(html)
    main = k_mib(tree, ARTICLE, WisdomParams())
    assert ids(tree, main) == ["main"]
    assert ids(tree, condense(tree, main[0], ARTICLE, WisdomParams())) == ["junk"]


MENU = ('<div id="menu"><a href="/home.html">Home</a> <a href="/news.html">News</a> '
        '<a href="/home.html">Home</a> <a href="/news.html">News</a></div>')
TOC_LIST = ('<ul id="toc"><li><a href="/s.html">Scheduler preemption</a></li>'
            '<li><a href="/n.html">NUMA affinity</a></li><li><a href="/h.html">Hugepages latency</a></li></ul>')
PAGES = {"http://site.test/home.html": {"home": 1}, "http://site.test/news.html": {"news": 1},
         "http://site.test/s.html": {"scheduler": 2, "preemption": 1},
         "http://site.test/n.html": {"numa": 1, "affinity": 1},
         "http://site.test/h.html": {"hugepages": 1, "latency": 1}}


def test_toc_type_constraint_separates_menu_from_toc():
    tree = build("<html><body>" + MENU + TOC_LIST + "</body></html>", PAGES.get)
    toc, menu = (tree.nodes.elements.index(tree.nodes.elements[0].get_element_by_id(x)) for x in ("toc", "menu"))
    assert tree.mean_api(toc) == pytest.approx(2 * (1 / 0.4))  # two matched terms of EN 0.4 per anchor
    assert tree.mean_api(menu) == 1.0  # one term of EN 1 per anchor
    no_merge = dict(dstm=False, cstm_levels=0)
    assert ids(tree, k_mib(tree, TOC, WisdomParams(k=2, **no_merge))) == ["toc"]
    assert ids(tree, k_mib(tree, TOC, WisdomParams(k=2, tc_toc=1.0, **no_merge))) == ["toc", "menu"]
    assert k_mib(tree, TOC, WisdomParams(tc_toc=6.0)) == []


def test_toc_with_alen_feature_finds_the_list_without_api():
    tree = build("<html><body>" + TOC_LIST + "<p>plain words only</p></body></html>")
    assert ids(tree, k_mib(tree, TOC, WisdomParams(toc_feature="alen"))) == ["toc"]
