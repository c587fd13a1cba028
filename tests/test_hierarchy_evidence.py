"""Evidence a page gives about its place in the site: skeleton.hierarchy.evidence."""
from __future__ import annotations

import html
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from skeleton.hierarchy.evidence import (
    MAX_URLS, breadcrumb, filed_under, highlighted_trail, page_evidence, up_links,
)
from skeleton.web.dom import parse_html

PAGE = "http://ex.com/docs/guide/page.html"
MALFORMED = ["http://[::1", "http://a:99999/", "http://a:99999999999999999999/",
             "http://ex\x01.com/x", "/a\x01b\x7f", "http://", "javascript:void(0)", "#top", ""]


def page(body: str, head: str = "") -> etree._Element:
    root = parse_html(f"<html><head>{head}</head><body>{body}</body></html>")
    assert root is not None
    return root


def jsonld(data: object) -> str:
    return f'<script type="application/ld+json">{json.dumps(data)}</script>'


def list_item(position: object, item: object, name: str = "x") -> dict:
    return {"@type": "ListItem", "position": position, "name": name, "item": item}


# --- breadcrumb: schema.org ---------------------------------------------------

def test_jsonld_breadcrumb_ordered_by_position() -> None:
    data = {"@context": "https://schema.org", "@type": "BreadcrumbList", "itemListElement": [
        list_item(3, PAGE), list_item(1, "http://ex.com/"), list_item("2", "/docs/")]}
    assert breadcrumb(page("", jsonld(data)), PAGE) == ["http://ex.com/", "http://ex.com/docs/"]


def test_jsonld_graph_and_item_as_node() -> None:
    data = {"@context": "https://schema.org", "@graph": [
        {"@type": "WebPage", "@id": PAGE, "breadcrumb": {"@id": PAGE + "#breadcrumb"}},
        {"@type": ["Thing", "BreadcrumbList"], "@id": PAGE + "#breadcrumb", "itemListElement": [
            list_item(2, {"@id": "http://ex.com/docs/", "name": "Docs"}),
            list_item(1, {"url": "http://ex.com/", "name": "Home"}),
            list_item(3, {"@id": "guide/", "name": "Guide"}),
            {"@type": "ListItem", "position": 4, "name": "Page"}]}]}
    assert breadcrumb(page("", jsonld(data)), PAGE) == [
        "http://ex.com/", "http://ex.com/docs/", "http://ex.com/docs/guide/guide/"]


def test_jsonld_list_of_documents_and_comment_wrapper() -> None:
    data = [{"@type": "Organization", "url": "http://ex.com/"},
            {"@type": "BreadcrumbList", "itemListElement": [list_item(1, "http://ex.com/a/")]}]
    head = f'<script type="application/ld+json"><!--\n{json.dumps(data)}\n--></script>'
    assert breadcrumb(page("", head), PAGE) == ["http://ex.com/a/"]


def test_broken_jsonld_is_ignored() -> None:
    broken = '<script type="application/ld+json">{"@type": "BreadcrumbList", "itemListElement": [</script>'
    body = '<ol class="breadcrumb"><li><a href="/">Home</a></li></ol>'
    assert breadcrumb(page(body, broken), PAGE) == ["http://ex.com/"]
    assert breadcrumb(page("", broken), PAGE) == []


def test_jsonld_without_breadcrumb_list_is_ignored() -> None:
    head = jsonld({"@type": "Article", "url": "http://ex.com/other/", "about": "BreadcrumbList"})
    assert breadcrumb(page("", head), PAGE) == []


MICRODATA = """
<ol itemscope itemtype="https://schema.org/BreadcrumbList">
  <li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem">
    <a itemprop="item" href="../"><span itemprop="name">Docs</span></a>
    <meta itemprop="position" content="2" /></li>
  <li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem">
    <a itemprop="item" href="/"><span itemprop="name">Home</span></a>
    <meta itemprop="position" content="1" /></li>
  <li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem">
    <a itemscope itemtype="https://schema.org/WebPage" itemprop="item"
       itemid="http://ex.com/docs/guide/" href="./"><span itemprop="name">Guide</span></a>
    <meta itemprop="position" content="3" /></li>
  <li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem">
    <span itemprop="name">Page</span><meta itemprop="position" content="4" /></li>
</ol>"""


def test_microdata_breadcrumb() -> None:
    assert breadcrumb(page(MICRODATA), PAGE) == [
        "http://ex.com/", "http://ex.com/docs/", "http://ex.com/docs/guide/"]


def test_microdata_item_with_url_property_and_no_positions() -> None:
    body = """<div itemscope itemtype="http://schema.org/BreadcrumbList">
      <span itemprop="itemListElement" itemscope itemtype="http://schema.org/ListItem">
        <span itemprop="item" itemscope itemtype="http://schema.org/Thing">
          <link itemprop="url" href="/a/"><span itemprop="name">A</span></span></span>
      <span itemprop="itemListElement" itemscope itemtype="http://schema.org/ListItem">
        <a itemprop="url" href="/a/b/">B</a></span></div>"""
    assert breadcrumb(page(body), PAGE) == ["http://ex.com/a/", "http://ex.com/a/b/"]


def test_jsonld_wins_over_microdata_and_markup() -> None:
    head = jsonld({"@type": "BreadcrumbList", "itemListElement": [list_item(1, "/from-jsonld/")]})
    body = MICRODATA + '<nav aria-label="Breadcrumb"><a href="/from-markup/">x</a></nav>'
    assert breadcrumb(page(body, head), PAGE) == ["http://ex.com/from-jsonld/"]
    assert breadcrumb(page(body), PAGE) == [
        "http://ex.com/", "http://ex.com/docs/", "http://ex.com/docs/guide/"]


# --- breadcrumb: markup -------------------------------------------------------

def test_aria_label_breadcrumb_nav() -> None:
    body = """<nav><a href="/elsewhere/">Menu</a></nav>
    <nav aria-label="BreadCrumb"><ol><li><a href="/">Home</a></li><li><a href="../">Docs</a></li>
    <li><a href="page.html" aria-current="page">Page</a></li></ol></nav>"""
    assert breadcrumb(page(body), PAGE) == ["http://ex.com/", "http://ex.com/docs/"]


def test_class_breadcrumb_ol_with_relative_hrefs() -> None:
    body = """<div class="content"><ol class="breadcrumb">
    <li class="breadcrumb-item"><a href="../../index.html">Home</a></li>
    <li class="breadcrumb-item"><a href="../">Docs</a></li>
    <li class="breadcrumb-item"><a href="./">Guide</a></li>
    <li class="breadcrumb-item active">Page</li></ol></div>"""
    assert breadcrumb(page(body), PAGE) == [
        "http://ex.com/", "http://ex.com/docs/", "http://ex.com/docs/guide/"]


def test_a_trail_naming_places_as_text_after_its_last_link_gives_ancestors() -> None:
    # MkDocs' readthedocs theme: "Docs » Section » Page", the section not linked
    gap = """<div role="navigation" aria-label="breadcrumbs navigation"><ul class="wy-breadcrumbs">
    <li><a href="../../index.html" aria-label="Docs"></a></li>
    <li class="breadcrumb-item">Guide</li><li class="breadcrumb-item active">Page</li>
    <li class="wy-breadcrumbs-aside"> </li></ul></div>"""
    ev = page_evidence(page(gap), PAGE)
    assert "crumbs" not in ev and ev["above"] == ["http://ex.com/"]
    # the page's own unlinked entry alone is no gap: the last link is the parent
    plain = gap.replace('<li class="breadcrumb-item">Guide</li>', "")
    ev = page_evidence(page(plain), PAGE)
    assert ev["crumbs"] == ["http://ex.com/"] and "above" not in ev


def test_a_file_in_a_breadcrumb_is_no_place() -> None:
    # sphinx_rtd_theme puts "View page source" (a .rst.txt file) in the breadcrumb's list
    body = """<div role="navigation" aria-label="Page navigation"><ul class="wy-breadcrumbs">
    <li><a href="../index.html">Home</a></li><li><a href="index.html">Guide</a></li>
    <li class="breadcrumb-item active">Page</li>
    <li class="wy-breadcrumbs-aside"><a href="../_sources/guide/page.rst.txt">View page source</a></li>
    </ul></div>"""
    assert breadcrumb(page(body), PAGE) == ["http://ex.com/docs/", "http://ex.com/docs/guide/"]


def test_mkdocs_material_md_path() -> None:
    body = """<nav class="md-path" aria-label="Navigation"><ol class="md-path__list">
    <li class="md-path__item"><a href="../.." class="md-path__link">Home</a></li>
    <li class="md-path__item"><a href="../" class="md-path__link">Docs</a></li></ol></nav>"""
    assert breadcrumb(page(body), PAGE) == ["http://ex.com/", "http://ex.com/docs/"]


def test_rdfa_breadcrumb_and_id() -> None:
    rdfa = '<ol vocab="https://schema.org/" typeof="BreadcrumbList"><li><a href="/r/">R</a></li></ol>'
    assert breadcrumb(page(rdfa), PAGE) == ["http://ex.com/r/"]
    by_id = '<div id="site-crumbs"><a href="/i/">I</a></div>'
    assert breadcrumb(page(by_id), PAGE) == ["http://ex.com/i/"]
    capitals = '<ul class="BreadCrumbs"><li><a href="/c/">C</a></li></ul>'
    assert breadcrumb(page(capitals), PAGE) == ["http://ex.com/c/"]


def test_words_outside_classes_are_no_evidence() -> None:
    body = """<p title="current breadcrumb"><a href="/breadcrumb-guide/" title="active">x</a></p>
    <div class="thumb drumbeat"><a href="/t/">t</a></div>"""
    assert page_evidence(page(body), PAGE) == {}


def test_region_merely_named_crumb_with_many_links_is_skipped() -> None:
    links = "".join(f'<a href="/n{i}/">{i}</a>' for i in range(30))
    body = f'<div class="layout has-breadcrumbs">{links}<ul class="crumbs"><li><a href="/">H</a></li></ul></div>'
    assert breadcrumb(page(body), PAGE) == ["http://ex.com/"]


SPHINX_RELBAR = """<div class="related" role="navigation" aria-label="related navigation">
  <h3>Navigation</h3><ul>
    <li class="right"><a href="../genindex.html" accesskey="I">index</a></li>
    <li class="right"><a href="next.html" accesskey="N">next</a> |</li>
    <li class="nav-item nav-item-0"><a href="../index.html">Project docs</a> &#187;</li>
    <li class="nav-item nav-item-1"><a href="index.html" accesskey="U">Guide</a> &#187;</li>
    <li class="nav-item nav-item-this"><a href="">Page</a></li></ul></div>"""


PHPBB_NAV = """<table><tr><td><span class="nav"><a href="./index.html" class="nav">Board Index</a>
&raquo; <a href="./index.html#c3" class="nav">Software</a> &raquo; <a href="./viewforum-f11.html"
class="nav">Programming</a> &raquo; <a href="./viewforum-f12.html" class="nav">Python</a></span></td></tr></table>"""


def test_plain_text_trail_from_the_home_page() -> None:
    forum = "http://ex.com/viewtopic-t5.html"
    assert breadcrumb(page(PHPBB_NAV), forum) == [
        "http://ex.com/", "http://ex.com/viewforum-f11.html", "http://ex.com/viewforum-f12.html"]
    # the page's own title after the last separator, unlinked
    body = '<p><a href="/">Home</a> &gt; <a href="/news/">News</a> &gt; Storm hits coast</p>'
    assert breadcrumb(page(body), "http://ex.com/news/storm.html") == ["http://ex.com/", "http://ex.com/news/"]


def test_menus_and_trails_not_from_home_are_no_breadcrumb() -> None:
    menu = '<p><a href="/">Home</a> | <a href="/about/">About</a> | <a href="/contact/">Contact</a></p>'
    assert breadcrumb(page(menu), PAGE) == []
    not_home = '<p><a href="/a/">A</a> &raquo; <a href="/a/b/">B</a></p>'
    assert breadcrumb(page(not_home), PAGE) == []
    single = '<p><a href="/">Home</a> &raquo; plain text only</p>'
    assert breadcrumb(page(single), PAGE) == []
    # a marked-up breadcrumb wins over a plain-text trail
    marked = '<nav aria-label="Breadcrumb"><a href="/docs/">Docs</a></nav>'
    assert breadcrumb(page(PHPBB_NAV + marked), PAGE) == ["http://ex.com/docs/"]


SHOP_TRAIL = ('<div class="mt-2"><ul><li><a href="index.html">Front page</a></li>'
              '<li><a href="shoes/index.html">Shoes</a></li><li><a href="shoes/boots/index.html">Boots</a></li>'
              '<li><span>Trail Runner</span></li></ul></div><h1>Trail Runner</h1>')


def test_an_unmarked_list_ending_in_the_page_s_name_with_nesting_folders_is_a_breadcrumb() -> None:
    # no class, id or label says "crumb": the list starts at home, its links are folder
    # indexes whose folders nest, and its last item names the page (its h1) as text
    product = "http://ex.com/trail-runner-p12.html"
    assert breadcrumb(page(SHOP_TRAIL), product) == [
        "http://ex.com/", "http://ex.com/shoes/", "http://ex.com/shoes/boots/"]
    assert page_evidence(page(SHOP_TRAIL), product)["crumbs"][-1] == "http://ex.com/shoes/boots/"
    # separators between the items are allowed; an ol as well
    ol = SHOP_TRAIL.replace("<ul>", "<ol>").replace("</ul>", "</ol>").replace("</a></li>", "</a> &rsaquo;</li>")
    assert breadcrumb(page(ol), product)[-1] == "http://ex.com/shoes/boots/"


@pytest.mark.parametrize("body", [
    # a menu whose current item is its last: the links are no nesting folders
    '<ul><li><a href="/">Home</a></li><li><a href="/about.html">About</a></li>'
    '<li><span>Contact</span></li></ul><h1>Contact</h1>',
    '<ul><li><a href="/">Home</a></li><li><a href="/a/">A</a></li><li><a href="/b/">B</a></li>'
    '<li>Contact</li></ul><h1>Contact</h1>',
    # the last item is not the page's name
    SHOP_TRAIL.replace("<h1>Trail Runner</h1>", "<h1>Another product</h1>"),
    # no h1 at all
    SHOP_TRAIL.replace("<h1>Trail Runner</h1>", ""),
    # the first link is not the home page
    SHOP_TRAIL.replace('href="index.html"', 'href="shop/index.html"'),
    # an item with two links or with more text than its link: a listing, not a trail
    SHOP_TRAIL.replace('>Shoes</a>', '>Shoes</a> <a href="sale/index.html">Sale</a>'),
    SHOP_TRAIL.replace('>Shoes</a>', '>Shoes</a> (124 products)'),
    SHOP_TRAIL.replace('>Shoes</a>', '>Shoes</a>' + " word" * 300),
    # home and the page only: nothing to name
    '<ul><li><a href="/">Home</a></li><li>Boots</li></ul><h1>Boots</h1>',
])
def test_lists_that_are_no_trail_are_no_breadcrumb(body: str) -> None:
    assert breadcrumb(page(body), "http://ex.com/shoes/boots/contact.html") == []


def test_sphinx_relbar_nav_items() -> None:
    root = page(SPHINX_RELBAR + "<p>text</p>" + SPHINX_RELBAR.replace('accesskey="U"', ""))
    assert breadcrumb(root, PAGE) == ["http://ex.com/docs/", "http://ex.com/docs/guide/"]
    assert up_links(root, PAGE) == ["http://ex.com/docs/guide/"]


def test_page_itself_removed_and_duplicates_kept_once() -> None:
    body = """<ol class="breadcrumb"><li><a href="/">Home</a></li><li><a href="/index.html">Home</a></li>
    <li><a href="http://EX.com/docs/guide/page.html#top">Page</a></li></ol>"""
    assert breadcrumb(page(body), PAGE) == ["http://ex.com/"]


def test_malformed_hrefs_are_skipped() -> None:
    links = "".join(f"<li><a href='{href}'>x</a></li>" for href in MALFORMED)
    body = f'<ol class="breadcrumb">{links}<li><a href="/ok/">ok</a></li></ol>'
    assert breadcrumb(page(body), PAGE) == ["http://ex.com/ok/"]
    data = {"@type": "BreadcrumbList", "itemListElement": [
        list_item(i, href) for i, href in enumerate(MALFORMED)] + [list_item(99, "/j/")]}
    assert breadcrumb(page("", jsonld(data)), PAGE) == ["http://ex.com/j/"]


def test_at_most_max_urls() -> None:
    links = "".join(f'<a href="/u{i}/">{i}</a>' for i in range(MAX_URLS + 5))
    data = {"@type": "BreadcrumbList", "itemListElement": [
        list_item(i, f"/u{i}/") for i in range(MAX_URLS + 5)]}
    assert breadcrumb(page("", jsonld(data)), PAGE) == [f"http://ex.com/u{i}/" for i in range(MAX_URLS)]
    assert up_links(page(f'<div class="navheader">{links.replace("<a ", "<a rel=up ")}</div>'), PAGE) == [
        f"http://ex.com/u{i}/" for i in range(MAX_URLS)]


def test_none_root() -> None:
    assert breadcrumb(None, PAGE) == []
    assert up_links(None, PAGE) == []
    assert highlighted_trail(None, PAGE) == []
    assert filed_under(None, PAGE) == []
    assert page_evidence(None, PAGE) == {}


# --- up links -------------------------------------------------------------------

def test_link_rel_up_and_a_rel_tokens() -> None:
    head = '<link rel="Up" href="../index.html"><link rel="upgrade" href="/no/">'
    body = '<a rel="up next" href="/docs/other.html">Other</a><a rel="prev" href="/no2/">p</a>'
    assert up_links(page(body, head), PAGE) == ["http://ex.com/docs/", "http://ex.com/docs/other.html"]


def test_accesskey_u() -> None:
    body = '<a accesskey="U" href="index.html">Guide</a><a accesskey="n" href="next.html">Next</a>'
    assert up_links(page(body), PAGE) == ["http://ex.com/docs/guide/"]


DOCBOOK = """<div class="navheader"><table><tr>
<td><a accesskey="p" href="prev.html">Prev</a></td>
<td><a href="sql-commands.html" title="SQL Commands"> Up </a></td>
<td><a accesskey="h" href="index.html">Home</a></td></tr></table></div>
<div class="refentry"><p><a href="/not-up/">up</a></p></div>
<div class="navfooter"><table><tr><td><a accesskey="u" href="sql-commands.html">Up</a></td></tr></table></div>"""


def test_docbook_navheader_up() -> None:
    assert up_links(page(DOCBOOK), PAGE) == ["http://ex.com/docs/guide/sql-commands.html"]


def test_texinfo_up() -> None:
    body = """<div class="nav-panel"><p>Next: <a href="Two.html" accesskey="n" rel="next">Two</a>,
    Up: <a href="index.html" accesskey="u" rel="up">Top</a></p></div>"""
    assert up_links(page(body), PAGE) == ["http://ex.com/docs/guide/"]


# --- highlighted trail ----------------------------------------------------------

def test_aria_current_in_nested_lists_outer_first() -> None:
    body = """<nav><ul>
      <li><a href="/blog/">Blog</a></li>
      <li class="active"><a href="/docs/">Docs</a>
        <ul><li class="active"><a href="page.html" aria-current="page">Page</a></li>
            <li><a href="other.html">Other</a></li></ul></li>
    </ul></nav>"""
    assert highlighted_trail(page(body), PAGE) == ["http://ex.com/docs/"]


def test_wordpress_menu_classes() -> None:
    body = """<ul class="menu">
      <li class="menu-item"><a href="/about/">About</a></li>
      <li class="menu-item current-menu-ancestor current-menu-parent"><a href="/docs/">Docs</a>
        <ul class="sub-menu">
          <li class="menu-item current-menu-item"><a href="/docs/guide/">Guide</a></li>
          <li class="menu-item"><a href="/docs/api/">API</a></li></ul></li></ul>"""
    assert highlighted_trail(page(body), PAGE) == ["http://ex.com/docs/", "http://ex.com/docs/guide/"]


def test_sphinx_toctree_current() -> None:
    body = """<div class="sphinxsidebar"><ul class="current">
      <li class="toctree-l1"><a class="reference internal" href="../intro.html">Intro</a></li>
      <li class="toctree-l1 current"><a class="reference internal" href="index.html">Guide</a>
        <ul class="current">
          <li class="toctree-l2 current"><a class="current reference internal" href="#">Page</a></li>
          <li class="toctree-l2"><a class="reference internal" href="other.html">Other</a></li></ul></li>
    </ul></div>"""
    assert highlighted_trail(page(body), PAGE) == ["http://ex.com/docs/guide/"]


def test_aria_current_false_and_lookalike_classes_ignored() -> None:
    body = """<ul><li><a aria-current="false" href="/f/">F</a></li>
      <li class="inactive"><a href="/i/">I</a></li>
      <li><a class="currently-open" href="/c/">C</a></li>
      <div class="tab-pane active"><a href="/tab/">T</a></div>
      <li><span aria-current="location"><a href="/loc/">L</a></span></li></ul>"""
    assert highlighted_trail(page(body), PAGE) == ["http://ex.com/loc/"]


def test_marked_item_takes_own_link_not_sublist() -> None:
    body = """<ul><li class="Active"><span><a href="/docs/">Docs</a></span>
        <ul><li><a href="/docs/a/">A</a></li><li><a href="/docs/b/">B</a></li></ul></li>
      <li class="selected"><ul><li><a href="/nested-only/">N</a></li></ul></li></ul>"""
    assert highlighted_trail(page(body), PAGE) == ["http://ex.com/docs/"]


def test_mkdocs_material_nav_active() -> None:
    body = """<nav class="md-nav"><ul class="md-nav__list">
      <li class="md-nav__item md-nav__item--active md-nav__item--nested">
        <a class="md-nav__link" href="../">Docs</a>
        <nav class="md-nav"><ul class="md-nav__list">
          <li class="md-nav__item md-nav__item--active">
            <a class="md-nav__link md-nav__link--active" href="./">Guide</a></li></ul></nav></li></ul></nav>"""
    assert highlighted_trail(page(body), PAGE) == ["http://ex.com/docs/", "http://ex.com/docs/guide/"]


def test_trail_skips_fragments_javascript_and_malformed() -> None:
    links = "".join(f"<li class='current'><a href='{href}'>x</a></li>" for href in MALFORMED)
    assert highlighted_trail(page(f"<ul>{links}</ul>"), PAGE) == []


# --- filed under ----------------------------------------------------------------

POST = """<article class="post"><h1>A post</h1><footer>
<span class="cat-links">Posted in <a href="/cat/photo/" rel="category tag">Photography</a>,
<a href="/cat/travel/" rel="Category">Travel</a></span>
<span class="tags-links">Tagged <a href="/tag/autumn/" rel="tag">autumn</a></span></footer></article>
<aside><a href="/cat/food/">Food</a><a href="/categoryless/" rel="categoryless">x</a></aside>"""


def test_a_single_article_declares_its_categories_not_its_tags() -> None:
    assert filed_under(page(POST), PAGE) == ["http://ex.com/cat/photo/", "http://ex.com/cat/travel/"]
    # a related-posts article beside the post, without category links, changes nothing
    assert filed_under(page(POST + "<article><a href='/other/'>Other</a></article>"), PAGE) == [
        "http://ex.com/cat/photo/", "http://ex.com/cat/travel/"]
    # outside any article (a theme without <article>) the links count too
    body = '<div>Filed under <a rel="category" href="/cat/photo/">Photography</a></div>'
    assert filed_under(page(body), PAGE) == ["http://ex.com/cat/photo/"]


def test_a_listing_of_excerpts_declares_nothing() -> None:
    excerpt = '<article><a href="/p{0}/">P{0}</a> in <a rel="category tag" href="/cat/{0}/">C</a></article>'
    assert filed_under(page(excerpt.format(1) + excerpt.format(2)), PAGE) == []
    assert filed_under(page(excerpt.format(1) + excerpt.format(1)), PAGE) == []
    assert "filed" not in page_evidence(page(excerpt.format(1) + excerpt.format(2)), PAGE)


@pytest.mark.parametrize("body, filed", [
    # Pelican: "In <a>DevOps</a>." under the article
    ('<article><p>In <a href="/category/devops.html">DevOps</a>.</p></article>', ["http://ex.com/category/devops.html"]),
    # MkDocs Material: the metadata item "in <a>Tutorials</a>"
    ('<ul><li><span class="md-ellipsis">\n in \n <a href="../../cat/tutorials/">Tutorials</a></span></li></ul>',
     ["http://ex.com/cat/tutorials/"]),
    # a label with a colon, another language; the first of several categories is the primary one
    ('<p>Catégories : <a href="/cat/a/">A</a>, <a href="/cat/b/">B</a></p>', ["http://ex.com/cat/a/"]),
    ('<div>Posted in <a href="/news/">News</a></div>', ["http://ex.com/news/"]),
    # Hexo NexT: the label in an element of its own, the link alone in the next
    ('<span class="post-meta-item"><i class="far fa-folder"></i> <span class="post-meta-item-text">In</span> '
     '<span itemprop="about"><a href="/categories/workflow/" rel="index"><span>Workflow</span></a></span></span>',
     ["http://ex.com/categories/workflow/"]),
])
def test_a_link_after_a_filed_in_label_is_the_page_s_section(body: str, filed: list[str]) -> None:
    assert filed_under(page(body), PAGE) == filed
    assert page_evidence(page(body), PAGE)["filed"] == filed


@pytest.mark.parametrize("body", [
    # prose: the label is not the whole text before the link, or a sentence goes on after it
    '<p>As described in <a href="/docs/ch2.html">chapter 2</a>.</p>',
    '<p>In <a href="/docs/ch2.html">chapter 2</a> we describe the protocol in detail.</p>',
    # a place in a page (a manual's "In <a>§ 2.1</a>:") is no section
    '<li><p>In <a href="/library/re.html#module-re">re</a>:</p></li>',
    # the link is not the first element after the label
    '<p>In <b>bold</b> <a href="/cat/a/">A</a></p>',
    # a listing: every excerpt has its own label
    '<article><p>In <a href="/cat/a/">A</a></p></article><article><p>In <a href="/cat/b/">B</a></p></article>',
    '<div><p>in <a href="/cat/a/">A</a></p><p>in <a href="/cat/a/">A</a></p></div>',
    # an unknown label
    '<p>Tagged <a href="/tag/x/">x</a></p>',
    # a menu: the item before "Tags" is a link called "Categories", no label
    '<ul><li><a href="/categories/">Categories</a></li><li><a href="/tags/">Tags</a></li></ul>',
    # the label's element names more than the label, or the link is not alone in its element
    '<span>Read more in</span> <span><a href="/cat/a/">A</a></span>',
    '<span>In</span> <span><a href="/cat/a/">A</a> and the related notes on building</span>',
    # one label per excerpt of a listing
    '<span>In</span> <span><a href="/cat/a/">A</a></span><span>In</span> <span><a href="/cat/b/">B</a></span>',
])
def test_prose_places_listings_and_other_labels_declare_no_section(body: str) -> None:
    assert filed_under(page(body), PAGE) == []


def test_rel_category_links_win_over_a_label() -> None:
    body = POST + '<p>In <a href="/cat/other/">Other</a></p>'
    assert filed_under(page(body), PAGE) == ["http://ex.com/cat/photo/", "http://ex.com/cat/travel/"]


# --- page_evidence ----------------------------------------------------------------

def test_page_evidence_omits_empty_lists() -> None:
    body = DOCBOOK + '<ul><li class="active"><a href="/docs/">Docs</a></li></ul>'
    assert page_evidence(page(body), PAGE) == {
        "up": ["http://ex.com/docs/guide/sql-commands.html"], "trail": ["http://ex.com/docs/"]}
    assert page_evidence(page("<p>plain</p>"), PAGE) == {}
    assert page_evidence(page(POST), PAGE)["filed"] == ["http://ex.com/cat/photo/", "http://ex.com/cat/travel/"]


# --- never raises ---------------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(hrefs=st.lists(st.text(), min_size=1, max_size=4),
       position=st.one_of(st.integers(), st.text(), st.floats()))
def test_arbitrary_hrefs_never_raise(hrefs: list[str], position: object) -> None:
    items = "".join(f'<li class="active"><a rel="up" accesskey="u" href="{html.escape(href)}">Up</a></li>'
                    for href in hrefs)
    data = {"@type": "BreadcrumbList", "itemListElement": [
        {"@type": "ListItem", "position": position, "item": href} for href in hrefs]}
    script = jsonld(data).replace("</", "<\\/").replace("<\\/script>", "</script>")
    for root in (page(f'<div class="navheader breadcrumb"><ul>{items}</ul></div>'), page("", script)):
        for function in (breadcrumb, up_links, highlighted_trail):
            urls = function(root, PAGE)
            assert len(urls) == len(set(urls)) <= MAX_URLS
            assert all(url.startswith(("http://", "https://")) and "#" not in url for url in urls)
            assert PAGE not in urls
        assert set(page_evidence(root, PAGE)) <= {"crumbs", "up", "trail"}


def test_evidence_names_only_the_sites_own_pages_and_no_language_copy() -> None:
    html = ('<html><body><ul class="wy-breadcrumbs"><li><a href="../index.html">Docs</a></li>'
            '<li><a href="index.html">API</a></li><li class="wy-breadcrumbs-aside">'
            '<a href="https://github.example/edit/x.rst">Edit on GitHub</a></li></ul>'
            '<ul class="lang"><li><a href="/index.html" hreflang="en" aria-current="true">English</a></li>'
            '<li><a href="/de/index.html" hreflang="de">Deutsch</a></li></ul>'
            '<ul><li class="active"><a href="/api/">API</a></li></ul></body></html>')
    root = parse_html(html)
    page = "http://127.0.0.1:8000/api/x.html"
    assert breadcrumb(root, page) == ["http://127.0.0.1:8000/", "http://127.0.0.1:8000/api/"]
    assert highlighted_trail(root, page) == ["http://127.0.0.1:8000/api/"]
