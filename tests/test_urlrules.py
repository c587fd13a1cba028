"""URL rules of "one page, one node": skeleton.urlrules (tracking parameters, duplicate
content, action links, language copies, canonical links)."""
from __future__ import annotations

import pytest
from lxml import etree

from skeleton.web.dom import parse_html
from skeleton.urlrules.actions import (
    action_path, action_reason, form_only, nofollow_urls, text_action, url_action, view_urls,
)
from skeleton.urlrules.canonical_link import canonical_link
from skeleton.urlrules.content import content_text, main_element, main_text
from skeleton.urlrules.duplicates import (
    CLEAN_URL_SUFFIX, MIN_SUPPORT, MIN_TEXT, LearnedRules, Variant, compare_variants, content_fingerprint,
    learned_rules,
    variant_candidates, vote_fields,
)
from skeleton.urlrules.language import (
    hreflang_links, language_copies, page_language, primary_language,
)
from skeleton.urlrules.tracking import is_tracking, query_names, strip_params, strip_tracking

PAGE = "http://ex.com/docs/page.html"
BASE = "http://ex.com/docs/"
LONG_TEXT = ("The quick brown fox jumps over the lazy dog while the committee debates "
             "the finer points of the annual budget and its many appendices. ") * 3


def page(body: str, head: str = "", html_attrs: str = "") -> etree._Element:
    root = parse_html(f"<html{html_attrs}><head>{head}</head><body>{body}</body></html>".encode())
    assert root is not None
    return root


# --- tracking -------------------------------------------------------------------

@pytest.mark.parametrize(("url", "expected"), [
    ("http://ex.com/p?utm_source=x&b=2&utm_medium=y&a=1", "http://ex.com/p?b=2&a=1"),
    ("http://ex.com/p?id=7&fbclid=IwAR0abc", "http://ex.com/p?id=7"),
    ("http://ex.com/post/?share=twitter&nb=1", "http://ex.com/post/"),
    ("http://ex.com/post/?relatedposts_hit=1&relatedposts_origin=9&relatedposts_position=0&x=1",
     "http://ex.com/post/?x=1"),
    ("http://ex.com/dp/B01?pf_rd_p=abc&pf_rd_r=def&th=1", "http://ex.com/dp/B01?th=1"),
    ("http://ex.com/p?UTM_Source=x&Page=2", "http://ex.com/p?Page=2"),
])
def test_strip_tracking_removes_tracking_and_keeps_others_in_order(url: str, expected: str) -> None:
    """Tracking parameters go; the other parameters stay, in their order."""
    assert strip_tracking(url) == expected


@pytest.mark.parametrize("url", [
    "http://ex.com/p?utm_source=x",
    "http://ex.com/p?utm_source=x&fbclid=1&gclid=2",
])
def test_strip_tracking_drops_empty_query_mark(url: str) -> None:
    """A URL left with an empty query loses its '?'."""
    assert strip_tracking(url) == "http://ex.com/p"


@pytest.mark.parametrize("url", [
    "http://ex.com/p", "http://ex.com/p?b=2&a=1", "http://ex.com/p?b=1#frag", "http://ex.com/p?page=3&q=x",
])
def test_strip_tracking_without_tracking_returns_url_unchanged(url: str) -> None:
    """A URL without tracking parameters is returned as it is."""
    assert strip_tracking(url) == url


def test_strip_tracking_keeps_blank_values() -> None:
    """Parameters without value, or with an empty one, survive stripping."""
    assert strip_tracking("http://ex.com/p?b&utm_source=x&a=&c=3") == "http://ex.com/p?b&a=&c=3"


@pytest.mark.parametrize(("name", "expected"), [
    ("utm_source", True), ("UTM_CAMPAIGN", True), ("Fbclid", True), ("FBCLID", True), ("gclid", True),
    ("share", True), ("nb", True), ("relatedposts_hit", True), ("pf_rd_p", True), ("PF_RD_R", True),
    ("page", False), ("id", False), ("q", False), ("utm", False), ("shared", False), ("sort", False),
])
def test_is_tracking_case_insensitive(name: str, expected: bool) -> None:
    """Names and prefixes are compared case-insensitively; other names are not tracking."""
    assert is_tracking(name) is expected


@pytest.mark.parametrize(("url", "expected"), [
    ("http://ex.com/p?b=1&a=2&b=3&c", ["b", "a", "c"]),
    ("http://ex.com/p?z=&y=1", ["z", "y"]),
    ("http://ex.com/p", []),
    ("http://ex.com/p?", []),
])
def test_query_names_in_order_once_each(url: str, expected: list[str]) -> None:
    """Query parameter names in order of first appearance, without repeats."""
    assert query_names(url) == expected


def test_strip_params_exact_names_only() -> None:
    """strip_params removes exactly the given names, nothing similar."""
    url = "http://ex.com/p?sort=a&sorted=b&id=1"
    assert strip_params(url, {"sort"}) == "http://ex.com/p?sorted=b&id=1"
    assert strip_params(url, {"absent"}) == url
    assert strip_params(url, {"sort", "sorted", "id"}) == "http://ex.com/p"


# --- content --------------------------------------------------------------------

def test_main_element_single_article() -> None:
    """The page's single <article> is its main content, even inside <main>."""
    root = page('<nav>menu</nav><main id="m"><article id="a">story</article></main>')
    assert main_element(root).get("id") == "a"


@pytest.mark.parametrize(("body", "expected_id"), [
    ('<div id="x"><main id="m">text</main></div>', "m"),
    ('<div id="x"><div role="main" id="r">text</div></div>', "r"),
    ('<div id="content">text</div>', "content"),
    ('<div id="main">text</div>', "main"),
    ('<main id="m"><article>one</article><article>two</article></main>', "m"),
])
def test_main_element_falls_back_to_main(body: str, expected_id: str) -> None:
    """Without a single <article>: <main>, role="main", #content or #main."""
    assert main_element(page(body)).get("id") == expected_id


def test_main_element_with_the_shared_attribute_text() -> None:
    """With the page's attribute text, role/id values "main" and "content" are still
    found (whole values only: "content-type" is none), and a page with neither
    gets its first <main>, else its body."""
    from skeleton.web.dom import attribute_text

    for body, tag in (('<div id="content"><p>x</p></div>', "div"), ('<div role="main">x</div>', "div"),
                      ("<main>m</main>", "main"), ('<div class="content-type">x</div>', "body")):
        root = page(body, '<meta http-equiv="Content-Type" content="text/html">')
        assert main_element(root, attribute_text(root)).tag == main_element(root).tag == tag


@pytest.mark.parametrize("body", [
    "<div>plain</div>",
    "<article>one</article><article>two</article>",
])
def test_main_element_falls_back_to_body(body: str) -> None:
    """Without an article or main element the body is the main content."""
    assert main_element(page(body)).tag == "body"


def test_main_text_drops_non_content_elements() -> None:
    """Scripts, styles, navigation, sidebars and forms add no text."""
    root = page('<script>var x = 1;</script><style>p {}</style><nav>Home About</nav>'
                '<p>Real  text</p><aside>Related</aside>'
                '<form><label>Name</label><input></form><noscript>enable js</noscript>')
    assert main_text(main_element(root)) == "Real text"


def test_main_text_keeps_tails_after_dropped_elements_in_order() -> None:
    """Text after a dropped element (its tail) is kept, in document order."""
    root = page("<p>one <script>x()</script>two <nav>menu</nav>three <b>four</b> five</p>"
                "<aside>side</aside>six")
    assert main_text(main_element(root)) == "one two three four five six"


def test_main_text_keeps_tails_after_comments_in_order() -> None:
    """A comment adds no text but the text after it stays in place."""
    root = page("<div><p>alpha</p>gamma <b>delta</b></div>")
    div = root.find(".//div")
    comment = etree.Comment(" hidden note ")
    comment.tail = "beta "
    div.insert(1, comment)  # <p>alpha</p>gamma <!-- hidden note -->beta <b>delta</b>
    assert etree.tostring(div) == b"<div><p>alpha</p>gamma <!-- hidden note -->beta <b>delta</b></div>"
    assert main_text(div) == "alpha gamma beta delta"


def test_main_text_deeply_nested_page_does_not_raise() -> None:
    """A page nested 5000 levels deep is read without recursion errors."""
    body = b"<html><body><p>before</p>" + b"<div>" * 5000 + b"deep" + b"</div>" * 5000 + b"</body></html>"
    root = parse_html(body)
    assert root is not None
    text = main_text(main_element(root))
    assert text.startswith("before")


def test_main_text_reads_ten_thousand_levels() -> None:
    """A tree 10000 levels deep (built directly) gives its deepest text and tails."""
    root = etree.Element("html")
    node = etree.SubElement(root, "body")
    for _ in range(10000):
        node = etree.SubElement(node, "div")
    node.text = "deepest"
    node.tail = "after"
    assert main_text(main_element(root)) == "deepest after"


def test_content_text_has_the_words_of_main_text_and_leaves_the_tree_as_it_was() -> None:
    """The words of main_text where the page separates them (dropped elements, nested
    ones too, and comments add none; tails stay in order; ``five<!---->.`` reads
    ``five.``), and the tree serializes as before, tails included."""
    root = page("<p>one <script>x()</script>two <nav>menu <form>f<button>b</button></form> "
                "in</nav>three <b>four</b> five<!-- note -->.</p> <aside>side</aside>six "
                "<noscript>js</noscript>seven")
    before = etree.tostring(root)
    main = main_element(root)
    assert content_text(main).split() == ["one", "two", "three", "four", "five.", "six", "seven"]
    assert main_text(main) == "one two three four five. six seven"
    assert etree.tostring(root) == before


def test_content_text_of_a_dropped_element_is_empty_and_deep_trees_are_read() -> None:
    root = page("<nav id='main'><p>menu text</p></nav>")
    assert content_text(root.find(".//nav")) == ""
    deep = etree.Element("html")
    node = etree.SubElement(deep, "body")
    for _ in range(10000):
        node = etree.SubElement(node, "div")
    node.text, node.tail = "deepest", " after"
    assert content_text(main_element(deep)) == "deepest after"


def test_content_text_puts_the_tree_back_when_serializing_fails(monkeypatch) -> None:
    root = page("<p>one <nav>menu</nav>two</p>")
    before = etree.tostring(root)

    def broken(*args, **kwargs):
        raise MemoryError("serializer")
    monkeypatch.setattr("skeleton.urlrules.content.etree.tostring", broken)
    with pytest.raises(MemoryError):
        content_text(main_element(root))
    monkeypatch.undo()
    assert etree.tostring(root) == before


# --- duplicates: fingerprints ---------------------------------------------------

def _article_page(text: str, nav: str, aside: str, url: str) -> etree._Element:
    return page(f'<nav><a href="/">{nav}</a></nav><article><h1>Title</h1><p>{text}</p>'
                f'<div class="share"><a href="{url}?share=twitter&amp;nb=1">Share</a></div></article>'
                f'<aside><a href="/r">{aside}</a></aside>')


def test_fingerprint_ignores_navigation_sidebars_and_share_links() -> None:
    """Same main text, different nav, sidebar and share links: same fingerprint."""
    a = _article_page(LONG_TEXT, "Home News", "Popular: one", "http://ex.com/a?x=1")
    b = _article_page(LONG_TEXT, "Start Blog Shop", "Trending: two three", "http://ex.com/a?x=2")
    fa, fb = content_fingerprint(a), content_fingerprint(b)
    assert fa is not None
    assert fa == fb


def test_fingerprint_differs_for_different_text() -> None:
    """Different main text gives a different fingerprint."""
    a = _article_page(LONG_TEXT, "Home", "Side", "http://ex.com/a")
    b = _article_page(LONG_TEXT + " One more sentence.", "Home", "Side", "http://ex.com/a")
    assert content_fingerprint(a) is not None
    assert content_fingerprint(a) != content_fingerprint(b)


def test_fingerprint_none_below_min_text() -> None:
    """Less than MIN_TEXT characters of main text: no fingerprint; at MIN_TEXT: one."""
    short = "x" * (MIN_TEXT - 1)
    enough = "x" * MIN_TEXT
    assert content_fingerprint(page(f"<nav>{LONG_TEXT}</nav><p>{short}</p>")) is None
    assert content_fingerprint(page(f"<p>{enough}</p>")) is not None


def test_fingerprint_none_for_no_tree() -> None:
    """No parsed tree: no fingerprint."""
    assert content_fingerprint(None) is None


# --- duplicates: variants and votes -----------------------------------------------

def test_variant_candidates_multi_param() -> None:
    """The URL without its query first, then without each one of its parameters."""
    assert variant_candidates("http://ex.com/p?a=1&b=2&c=3") == [
        Variant("http://ex.com/p", "q", ("a", "b", "c")),
        Variant("http://ex.com/p?b=2&c=3", "q", ("a",)),
        Variant("http://ex.com/p?a=1&c=3", "q", ("b",)),
        Variant("http://ex.com/p?a=1&b=2", "q", ("c",)),
    ]


def test_variant_candidates_single_param() -> None:
    """One parameter: only the URL without query (no segment candidate with a query)."""
    assert variant_candidates("http://ex.com/2024/05/x/amp/?page=2") == [
        Variant("http://ex.com/2024/05/x/amp/", "q", ("page",)),
    ]


@pytest.mark.parametrize(("url", "parent", "segment"), [
    ("http://ex.com/2024/05/x/amp/", "http://ex.com/2024/05/x/", "amp"),
    ("http://ex.com/blog/post/print/", "http://ex.com/blog/post/", "print"),
])
def test_variant_candidates_trailing_segment(url: str, parent: str, segment: str) -> None:
    """A short word as the last path segment gives a segment candidate."""
    assert variant_candidates(url) == [Variant(parent, "s", (segment,))]


def test_variant_candidates_clean_url() -> None:
    """A clean URL (no query, slash or dot at its end) is also compared with the file it
    stands for, after its segment candidate; its comparisons vote for nothing."""
    assert variant_candidates("http://ex.com/2024/05/x/amp") == [
        Variant("http://ex.com/2024/05/x/", "s", ("amp",)),
        Variant("http://ex.com/2024/05/x/amp.html", "h", (CLEAN_URL_SUFFIX,))]
    assert variant_candidates("http://ex.com/user-guide/choosing-your-theme") == [
        Variant("http://ex.com/user-guide/choosing-your-theme.html", "h", (CLEAN_URL_SUFFIX,))]
    assert variant_candidates("http://ex.com/about") == [Variant("http://ex.com/about.html", "h", (".html",))]
    for url in ("http://ex.com/guide/intro.html", "http://ex.com/guide/", "http://ex.com/v1.2", "http://ex.com/"):
        assert all(v.kind != "h" for v in variant_candidates(url)), url
    clean = Variant("http://ex.com/about.html", "h", (CLEAN_URL_SUFFIX,))
    assert vote_fields(clean, True) == vote_fields(clean, False) == []
    same = compare_variants("http://ex.com/about", "f1", {"http://ex.com/about.html": "f1"})
    assert same.aliases == {"http://ex.com/about": "http://ex.com/about.html"} and not same.votes


@pytest.mark.parametrize("url", [
    "http://ex.com/2024/05/a-rather-long-article-slug/",  # a page's name, not a marker
    "http://ex.com/2024/05/",                              # a number, not a word
    "http://ex.com/amp/",                                  # directly below the root
    "http://ex.com/",
])
def test_variant_candidates_no_segment(url: str) -> None:
    """Long slugs, numbers and top-level segments give no candidate."""
    assert variant_candidates(url) == []


def test_vote_fields_same_votes_per_name() -> None:
    """A 'same' comparison votes for each differing parameter."""
    variant = Variant("http://ex.com/p", "q", ("a", "b", "c"))
    assert vote_fields(variant, True) == ["q:a:same", "q:b:same", "q:c:same"]


def test_vote_fields_diff_over_several_names_votes_nothing() -> None:
    """A 'diff' over several parameters does not tell which one changed the page."""
    assert vote_fields(Variant("http://ex.com/p", "q", ("a", "b")), False) == []


@pytest.mark.parametrize(("variant", "expected"), [
    (Variant("http://ex.com/p?b=2", "q", ("a",)), ["q:a:diff"]),
    (Variant("http://ex.com/x/", "s", ("amp",)), ["s:amp:diff"]),
])
def test_vote_fields_diff_over_one_name(variant: Variant, expected: list[str]) -> None:
    """A 'diff' over a single parameter or segment is one vote."""
    assert vote_fields(variant, False) == expected


def test_learned_rules_min_support_same_votes_learn() -> None:
    """MIN_SUPPORT 'same' votes make a parameter irrelevant; fewer do not."""
    rules = learned_rules({"q:sort:same": MIN_SUPPORT, "q:view:same": MIN_SUPPORT - 1})
    assert rules == LearnedRules(frozenset({"sort"}), frozenset())


def test_learned_rules_single_diff_blocks_forever() -> None:
    """One 'diff' vote keeps a parameter however many 'same' votes it has."""
    rules = learned_rules({"q:id:same": 1000, "q:id:diff": 1, "q:ref2:same": 3})
    assert rules.params == frozenset({"ref2"})


def test_learned_rules_zero_diff_count_does_not_block() -> None:
    """A diff counter at zero is no vote."""
    assert learned_rules({"q:sort:same": 2, "q:sort:diff": 0}).params == frozenset({"sort"})


def test_learned_rules_segments() -> None:
    """Segment votes learn segments, kept apart from parameters."""
    rules = learned_rules({"s:amp:same": 2, "s:print:same": 2, "s:print:diff": 1, "q:amp:same": 1})
    assert rules == LearnedRules(frozenset(), frozenset({"amp"}))


def test_learned_rules_ignores_malformed_and_reads_string_counts() -> None:
    """Unknown kinds and nameless fields are skipped; counts may be strings (Redis)."""
    rules = learned_rules({"x:a:same": 5, "q::same": 5, "garbage": 5, "q:lang:same": "2"})
    assert rules == LearnedRules(frozenset({"lang"}), frozenset())


def test_learned_rules_min_support_argument() -> None:
    """The support threshold can be raised."""
    assert learned_rules({"q:a:same": 2}, min_support=3).params == frozenset()
    assert learned_rules({"q:a:same": 3}, min_support=3).params == frozenset({"a"})


@pytest.mark.parametrize(("url", "expected"), [
    ("http://ex.com/p?id=3&sort=asc&view=grid", "http://ex.com/p?id=3"),
    ("http://ex.com/p?sort=asc", "http://ex.com/p"),
    ("http://ex.com/2024/05/x/amp/", "http://ex.com/2024/05/x/"),
    ("http://ex.com/2024/05/x/amp/?sort=1", "http://ex.com/2024/05/x/"),
    ("http://ex.com/2024/05/x/amp/?id=1", "http://ex.com/2024/05/x/amp/?id=1"),
    ("http://ex.com/p?id=3", "http://ex.com/p?id=3"),
    ("http://ex.com/amp/x/", "http://ex.com/amp/x/"),
    ("http://ex.com/blog/post/print/", "http://ex.com/blog/post/print/"),
    ("http://ex.com/amp/", "http://ex.com/amp/"),
])
def test_learned_rules_clean(url: str, expected: str) -> None:
    """clean strips learned parameters and a learned trailing segment, nothing else."""
    rules = LearnedRules(frozenset({"sort", "view"}), frozenset({"amp"}))
    assert rules.clean(url) == expected


def test_empty_learned_rules_clean_nothing() -> None:
    """Rules that learned nothing leave URLs alone."""
    url = "http://ex.com/2024/05/x/amp/?sort=1"
    assert LearnedRules().clean(url) == url


# --- actions --------------------------------------------------------------------

@pytest.mark.parametrize(("path", "kind"), [
    ("/cart/add.html?asin=1", "cart"),
    ("/account/login.html?return_to=x", "login"),
    ("/help/report-abuse.html", "report"),
    ("/ucp-login.html", "login"),
    ("/?add-to-cart=12", "cart"),
    ("/wishlist/add/?item=3", "wishlist"),
    ("/compare/?items=3", "compare"),
    ("/de/warenkorb", "cart"),
    ("/Checkout/", "cart"),
    ("/share/", "share"),
    ("/search.html?q=sale", "search"),
    ("/search.php?do=finduser&u=100", "search"),
    ("/site-search/", "search"),
])
def test_url_action_true(path: str, kind: str) -> None:
    """Action words as a whole segment or parameter name, alone or with one word."""
    assert url_action("http://ex.com" + path) == kind


@pytest.mark.parametrize("path", [
    "/register-to-vote.html",
    "/library/logging.html",
    "/investors/annual-report/",
    "/docs/remote-login-ssh.html",
    "/carts/",
    "/docs/guide.html?q=login",
    "/research/",
    "/docs/search-engine-optimisation.html",
    "/",
])
def test_url_action_false(path: str) -> None:
    """Substrings of words, long slugs and parameter values are no actions."""
    assert url_action("http://ex.com" + path) is None


@pytest.mark.parametrize(("text", "kind"), [
    ("Add to cart – $12", "cart"),
    ("Log in", "login"),
    ("  LOG\n IN  ", "login"),
    ("Sign in »", "login"),
    ("In den Warenkorb", "cart"),
    ("Share on Twitter", "share"),
    ("Compare", "compare"),
])
def test_text_action_true(text: str, kind: str) -> None:
    """Whole action phrases and 'add to'/'share on' starts are actions."""
    assert text_action(text) == kind


@pytest.mark.parametrize("text", ["Remote login", "Compare plans", "Cart racing history", "", "Docs"])
def test_text_action_false(text: str) -> None:
    """Texts that only contain an action word are no actions."""
    assert text_action(text) is None


def test_text_action_long_prefix_text() -> None:
    """An 'Add to cart' link naming a long product is still an action."""
    assert text_action("Add to cart – Stainless Steel Electric Kettle, 1.7 litres") == "cart"


@pytest.mark.parametrize(("url", "text", "expected"), [
    ("http://ex.com/cart/", "", "action/cart"),
    ("http://ex.com/x.html", "Log in", "action/login"),
    ("http://ex.com/cart/", "Log in", "action/cart"),
    ("http://ex.com/docs/", "Docs", None),
])
def test_action_reason(url: str, text: str, expected: str | None) -> None:
    """The reason is 'action/' and the kind the URL (first) or the text says."""
    assert action_reason(url, text) == expected


def test_nofollow_urls_only_nofollow_links() -> None:
    """URLs linked only with rel=nofollow (any case, among other values) are returned."""
    root = page('<a href="/a.html" rel="nofollow">a</a>'
                '<a href="/b.html" rel="nofollow">b</a><a href="/b.html">b again</a>'
                '<a href="c.html" rel="nofollow noopener">c</a>'
                '<a href="/d.html" rel="NoFollow">d</a>'
                '<a href="/e.html" rel="nofollow">e</a><a href="/e.html" rel="noopener">e again</a>'
                '<a href="/f.html" rel="noopener">f</a><a href="/g.html">g</a>')
    assert nofollow_urls(root, PAGE) == frozenset({
        "http://ex.com/a.html", "http://ex.com/docs/c.html", "http://ex.com/d.html"})


def test_nofollow_urls_none() -> None:
    """No tree or no nofollow link: nothing."""
    assert nofollow_urls(None, PAGE) == frozenset()
    assert nofollow_urls(page('<a href="/a.html">a</a>'), PAGE) == frozenset()


@pytest.mark.parametrize(("body", "expected"), [
    # a login page: a password field
    ('<main><h1>Sign in</h1><form><input name="user"><input type="password" name="pw">'
     '<input type="submit"></form></main>', True),
    # a form of two fields or more with little text
    ('<h1>Contact us</h1><form><input name="name"><input name="email"><textarea name="msg"></textarea>'
     '<button>Send</button></form>', True),
    # an article with a comment form and long text
    (f'<article><h1>Story</h1><p>{LONG_TEXT}</p><form><input name="author"><input name="email">'
     f'<textarea name="comment"></textarea><input type="submit"></form></article>', False),
    # a one-field search form
    ('<p>Search</p><form><input type="search" name="q"><input type="submit" value="Go"></form>', False),
    # hidden fields do not count
    ('<form><input type="hidden" name="a"><input type="HIDDEN" name="b"><input name="q"></form>', False),
    # no form at all
    ("<p>Short page</p>", False),
])
def test_form_only(body: str, expected: bool) -> None:
    """A password field, or a real form with little text around it, is a form page."""
    assert form_only(page(body)) is expected


def test_form_only_no_tree() -> None:
    """No tree: no form page."""
    assert form_only(None) is False


@pytest.mark.parametrize(("url", "expected"), [
    ("http://ex.com/login.html?next=/x", "http://ex.com/login.html"),
    ("http://ex.com/login.html?next=/x#top", "http://ex.com/login.html"),
    ("http://ex.com/login.html#top", "http://ex.com/login.html"),
    ("http://ex.com/login.html", "http://ex.com/login.html"),
])
def test_action_path_drops_query(url: str, expected: str) -> None:
    """A form page is remembered by its URL without query (and fragment)."""
    assert action_path(url) == expected


# --- language -------------------------------------------------------------------

@pytest.mark.parametrize(("value", "expected"), [
    ("en-GB", "en"), ("EN_us", "en"), ("de", "de"), (" fr-CA ", "fr"), ("de, en", "de"),
    ("x-default", ""), ("*", ""), ("", ""), (None, ""), ("english", ""),
])
def test_primary_language(value: str | None, expected: str) -> None:
    """The lower-case primary subtag, '' when there is none."""
    assert primary_language(value) == expected


@pytest.mark.parametrize(("html_attrs", "head", "expected"), [
    (' lang="de-AT"', "", "de"),
    (' lang="en"', '<meta http-equiv="content-language" content="fr">', "en"),
    ("", '<meta http-equiv="Content-Language" content="fr-FR">', "fr"),
    ("", "", ""),
])
def test_page_language(html_attrs: str, head: str, expected: str) -> None:
    """<html lang> first, then <meta http-equiv=content-language>, else ''; the same
    with the page's attribute text the spider shares."""
    from skeleton.web.dom import attribute_text

    root = page("<p>x</p>", head, html_attrs)
    assert page_language(root) == page_language(root, attribute_text(root)) == expected


def test_page_language_no_tree() -> None:
    """No tree: no language."""
    assert page_language(None) == ""


HREFLANG_HEAD = ('<link rel="alternate" hreflang="de" href="/de/">'
                 '<link rel="alternate" hreflang="x-default" href="/">'
                 '<link hreflang="fr" href="/fr/">'
                 '<link rel="Alternate" hreflang="es-ES" href="http://ex.com/es/">'
                 '<link rel="alternate" hreflang="en-GB" href="/en/">')
HREFLANG_BODY = '<a hreflang="it" href="/it/">Italiano</a><a hreflang="pt" href="/de/">dup</a>'


def test_hreflang_links() -> None:
    """<link rel=alternate hreflang> and <a hreflang>; a <link> without rel=alternate,
    x-default and later mentions of a URL are ignored."""
    root = page(HREFLANG_BODY, HREFLANG_HEAD)
    assert hreflang_links(root, PAGE) == {
        "http://ex.com/de/": "de", "http://ex.com/es/": "es", "http://ex.com/en/": "en",
        "http://ex.com/it/": "it"}


def test_language_copies_exclude_page_language() -> None:
    """Copies are the hreflang links in any language but the crawl's."""
    root = page(HREFLANG_BODY, HREFLANG_HEAD)
    assert language_copies(root, PAGE, "en") == frozenset({
        "http://ex.com/de/", "http://ex.com/es/", "http://ex.com/it/"})


@pytest.mark.parametrize("language", ["", "any"])
def test_language_copies_none_without_language(language: str) -> None:
    """No language, or 'any': no copies."""
    assert language_copies(page(HREFLANG_BODY, HREFLANG_HEAD), PAGE, language) == frozenset()


# --- canonical_link ---------------------------------------------------------------

def canon(href: str, page_url: str = PAGE, base_url: str = BASE) -> str | None:
    return canonical_link(page("<p>x</p>", f'<link rel="canonical" href="{href}">'), page_url, base_url)


@pytest.mark.parametrize(("href", "page_url", "expected"), [
    ("http://ex.com/docs/a.html", "http://ex.com/docs/a.html?utm_source=x", "http://ex.com/docs/a.html"),
    ("b.html", PAGE, "http://ex.com/docs/b.html"),
    ("/docs/sub/", PAGE, "http://ex.com/docs/sub/"),
    ("http://ex.com/docs/start.html", BASE, "http://ex.com/docs/start.html"),
])
def test_canonical_same_host(href: str, page_url: str, expected: str) -> None:
    """A canonical URL of another page on the crawl's host is returned, also with
    the page's attribute text the spider shares (rel="Canonical" included)."""
    from skeleton.web.dom import attribute_text

    assert canon(href, page_url) == expected
    root = page("<p>x</p>", f'<link rel="Canonical" href="{href}">')
    assert canonical_link(root, page_url, BASE, attribute_text(root)) == expected
    assert canonical_link(root, page_url, BASE, "no such word") is None  # trusted: no XPath


@pytest.mark.parametrize("href", ["https://www.example.org/docs/b.html?x=1#frag",
                                  "https://debian-handbook.info/browse/stable/"])
def test_canonical_on_another_host_is_ignored(href: str) -> None:
    """An off-host canonical (production domain in a staging or packaged copy) is
    ignored: the copy's paths need not be the production's."""
    assert canon(href, "http://127.0.0.1:8000/docs/a.html", "http://127.0.0.1:8000/docs/") is None
    assert canon(href, "http://127.0.0.1:8000/index.html", "http://127.0.0.1:8000/") is None


@pytest.mark.parametrize(("href", "page_url"), [
    (PAGE, PAGE),
    ("page.html", PAGE),
    ("index.html", "http://ex.com/docs/sub/"),
    ("https://www.example.org/docs/page.html", PAGE),
])
def test_canonical_to_itself_is_none(href: str, page_url: str) -> None:
    """A canonical naming the page itself declares nothing."""
    assert canon(href, page_url) is None


def test_canonical_other_scheme_same_host() -> None:
    """A same-host canonical with another scheme is read on the page's scheme."""
    assert canon("https://ex.com/docs/page.html") is None
    assert canon("https://ex.com/docs/b.html") == "http://ex.com/docs/b.html"


@pytest.mark.parametrize(("href", "page_url"), [
    ("http://ex.com/docs/", PAGE),
    ("http://ex.com/docs/index.html", PAGE),
    ("/docs/", "http://ex.com/docs/deep/other.html"),
    ("http://ex.com/docs/", BASE),
    ("index.html", BASE),
])
def test_canonical_to_home_is_none(href: str, page_url: str) -> None:
    """Another page naming the home page, and the home page naming itself: None."""
    assert canon(href, page_url) is None


@pytest.mark.parametrize("href", [
    "http://ex.com/other/a.html",
    "/",
    "http://ex.com/docs/a/a/a/x.html",  # a trap: a repeated segment
])
def test_canonical_out_of_scope_or_trap_is_none(href: str) -> None:
    """A canonical outside the crawl's scope, or a trap, is ignored."""
    assert canon(href) is None


@pytest.mark.parametrize(("href", "page_url", "expected"), [
    # a later page of a listing naming its first page (Hugo's pagination): no alias
    ("http://ex.com/docs/blog/", "http://ex.com/docs/blog/page/2/", None),
    ("/docs/news.html", "http://ex.com/docs/news.html?page=3", None),
    ("/docs/cat/", "http://ex.com/docs/cat/page3/", None),
    # the first page naming a later one, or a page of another listing: still read
    ("http://ex.com/docs/blog/page/2/", "http://ex.com/docs/blog/", "http://ex.com/docs/blog/page/2/"),
    ("http://ex.com/docs/other/", "http://ex.com/docs/blog/page/2/", "http://ex.com/docs/other/"),
])
def test_canonical_of_a_later_listing_page(href: str, page_url: str, expected: str | None) -> None:
    assert canon(href, page_url) == expected


def test_canonical_absent_is_none() -> None:
    """No canonical link, or no tree: None."""
    assert canonical_link(page("<p>x</p>"), PAGE, BASE) is None
    assert canonical_link(None, PAGE, BASE) is None


def test_canonical_only_link_elements() -> None:
    """<a rel=canonical> declares nothing."""
    root = page('<a rel="canonical" href="http://ex.com/docs/b.html">b</a>')
    assert canonical_link(root, PAGE, BASE) is None


def test_canonical_first_link_counts_and_rel_case_insensitive() -> None:
    """The first <link rel=canonical> counts, whatever the case of rel."""
    root = page("<p>x</p>", '<link rel="Canonical" href="/docs/first.html">'
                            '<link rel="canonical" href="/docs/second.html">')
    assert canonical_link(root, PAGE, BASE) == "http://ex.com/docs/first.html"


@pytest.mark.parametrize("url", ["http://ex.com/?add_to_cart=1", "http://ex.com/p?return_to=x",
                                 "http://ex.com/my_account/"])
def test_url_action_with_underscores(url: str) -> None:
    """Action words joined by underscores are actions too."""
    assert url_action(url) is not None


def test_view_urls_are_links_marked_tag_author_archives_or_search() -> None:
    """rel="tag" and rel="author" mark views; rel="category tag" is a section; a URL
    also linked plainly is not a view."""
    root = parse_html(b'<html><body><a rel="tag" href="/tag/x/">x</a><a rel="author" href="/author/a/">A</a>'
                      b'<a rel="category tag" href="/news/">News</a><a rel="tag" href="/tag/y/">y</a>'
                      b'<a href="/tag/y/">y</a></body></html>')
    assert view_urls(root, "http://ex.com/p/") == {"http://ex.com/tag/x/", "http://ex.com/author/a/"}


def test_a_page_labelled_in_another_language_that_names_itself_the_crawl_language_version_is_no_copy() -> None:
    """Apache's English manual labels some pages lang="pt-br" but lists each as the
    hreflang="en" version of itself: not a copy. A real German copy is one."""
    from skeleton.urlrules.links import leaf_reason

    page = "http://ex.com/en/install.html"
    mislabelled = parse_html(b'<html lang="pt-br"><body><a href="../en/install.html" hreflang="en" '
                             b'rel="alternate">English</a><a href="../de/install.html" hreflang="de">'
                             b'Deutsch</a><p>Compiling and installing.</p></body></html>')
    assert leaf_reason(mislabelled, page, "pt", "en") is None
    german = parse_html(b'<html lang="de"><body><a href="/en/" hreflang="en">English</a><p>Hallo</p></body></html>')
    assert leaf_reason(german, "http://ex.com/de/", "de", "en") == "language"
    assert leaf_reason(german, "http://ex.com/de/", "de", "any") is None
    login = parse_html(b'<html lang="en"><body><form><input name="u"><input type="password"></form></body></html>')
    assert leaf_reason(login, page, "en", "en") == "form"
    assert leaf_reason(login, page, "en", "en", skip_actions=False) is None


def test_link_skip_reasons_first_reason_wins() -> None:
    from skeleton.urlrules.links import link_skip_reasons

    root = parse_html(b'<html><head><link rel="alternate" hreflang="de" href="/de/"></head><body>'
                      b'<a rel="nofollow" href="/x/">X</a><a rel="tag" href="/tag/a/">a</a>'
                      b'<a href="/de/">Deutsch</a><a href="/cart/">Basket</a><a href="/ok/">Ok</a></body></html>')
    links = [("http://ex.com/x/", "X"), ("http://ex.com/tag/a/", "a"), ("http://ex.com/de/", "Deutsch"),
             ("http://ex.com/cart/", "Basket"), ("http://ex.com/ok/", "Ok")]
    assert link_skip_reasons(links, root, "http://ex.com/", "en") == {
        "http://ex.com/x/": "skipped/nofollow", "http://ex.com/tag/a/": "skipped/view_rel",
        "http://ex.com/de/": "skipped/language", "http://ex.com/cart/": "skipped/action/cart"}
    assert link_skip_reasons(links, root, "http://ex.com/", "en", skip_actions=False) == {
        "http://ex.com/de/": "skipped/language"}


def test_a_section_named_like_an_action_is_followed() -> None:
    """A docs section called "Report" (its index beside its pages in the menu) is a
    section, not a "Report" button; a "Report" link to a post's report form is one."""
    from skeleton.urlrules.links import link_skip_reasons, section_indexes

    links = [("http://ex.com/report/index.html", "Report"), ("http://ex.com/report/a.html", "A"),
             ("http://ex.com/report/b.html", "B"), ("http://ex.com/posts/5/report/", "Report"),
             ("http://ex.com/report.php?p=5", "Report")]
    assert section_indexes(url for url, _ in links) == {"http://ex.com/report/index.html"}
    assert link_skip_reasons(links, parse_html(b"<p>x</p>"), "http://ex.com/", "en") == {
        "http://ex.com/posts/5/report/": "skipped/action/report",
        "http://ex.com/report.php?p=5": "skipped/action/report"}
    # the URL still decides: a section index whose URL names an action is one
    cart = [("http://ex.com/cart/", "Basket"), ("http://ex.com/cart/a", "A"), ("http://ex.com/cart/b", "B")]
    assert link_skip_reasons(cart, parse_html(b"<p>x</p>"), "http://ex.com/", "en")["http://ex.com/cart/"] \
        == "skipped/action/cart"


def test_links_to_files_are_not_followed() -> None:
    """A post's source (``index.md``), a feed, a PDF: files by their extension, never
    pages of the tree; a page with a dot in a folder name or an .html page is followed."""
    from skeleton.web.files import is_file_url
    from skeleton.urlrules.links import link_skip_reasons

    links = [("http://ex.com/posts/x/index.md", "Source"), ("http://ex.com/feeds/all.atom.xml", "Atom"),
             ("http://ex.com/files/report.PDF?v=2", "Report"), ("http://ex.com/v1.2/", "1.2"),
             ("http://ex.com/posts/x/", "Post"), ("http://ex.com/a.html", "A")]
    assert link_skip_reasons(links, parse_html(b"<p>x</p>"), "http://ex.com/", "en") == {
        "http://ex.com/posts/x/index.md": "skipped/file", "http://ex.com/feeds/all.atom.xml": "skipped/file",
        "http://ex.com/files/report.PDF?v=2": "skipped/file"}
    assert not is_file_url("http://ex.com/") and is_file_url("http://ex.com/_sources/intro.rst.txt#l1")


def test_a_posts_author_card_links_are_views() -> None:
    """hCard bylines (class "vcard author" in Pelican, "author vcard" in WordPress) link
    author pages: views; the same URL linked elsewhere on the page is not."""
    root = parse_html(b'<html><body><address class="vcard author">By <a class="url fn" href="/author/a.html">A</a>'
                      b'</address><span class="author vcard"><a href="/author/b/">B</a></span>'
                      b'<a href="/author/c.html">C</a><div class="vcard author"><a href="/author/c.html">C</a></div>'
                      b'</body></html>')
    assert view_urls(root, "http://ex.com/p.html") == {"http://ex.com/author/a.html", "http://ex.com/author/b/"}


def test_links_in_blocks_labelled_as_views_are_views() -> None:
    """Pelican's "tags: <a>..</a> <a>..</a>", a widget under a "Tags" heading (up to the
    next heading), a French label; links outside the blocks are not views."""
    from skeleton.urlrules.actions import view_links

    root = parse_html('<html><body><p>tags: <a href="/tag/a.html">a</a> <a href="/tag/b.html">b</a></p>'
                      '<p>In <a href="/category/devops.html">DevOps</a>.</p>'
                      '<section><h2>Tags</h2><div><a href="/tag/c/">c</a></div><ul><li><a href="/tag/d/">d</a></li>'
                      '</ul><h2>Sections</h2><ul><li><a href="/news/">News</a></li></ul></section>'
                      '<div>Étiquettes : <a href="/fr/tag/e/">e</a></div></body></html>'.encode())
    assert view_links(root, "http://ex.com/p.html") == {
        "http://ex.com/tag/a.html": "label", "http://ex.com/tag/b.html": "label", "http://ex.com/tag/c/": "label",
        "http://ex.com/tag/d/": "label", "http://ex.com/fr/tag/e/": "label"}


def test_blocks_named_for_assistive_technology_as_views_are_views() -> None:
    """A nav whose aria-labelledby names a label "Archive" (MkDocs Material's blog
    sidebar), a list with aria-label "Authors": views; a nav named "Categories" is
    a real section menu."""
    from skeleton.urlrules.actions import view_links

    root = parse_html(b'<html><body><label id="l1"><span>Archive</span></label>'
                      b'<nav aria-labelledby="l1"><ul><li><a href="/archive/2025/">2025</a></li></ul></nav>'
                      b'<ul aria-label="Authors"><li><a href="/author/tobi/">Tobi</a></li></ul>'
                      b'<nav aria-label="Categories"><a href="/category/news/">News</a></nav>'
                      b'<nav aria-labelledby="missing"><a href="/x/">X</a></nav></body></html>')
    assert view_links(root, "http://ex.com/blog/") == {
        "http://ex.com/archive/2025/": "label", "http://ex.com/author/tobi/": "label"}


def test_a_next_or_previous_link_does_not_unmark_a_view() -> None:
    """A reading-order link ("Next: 2025" in a page footer, a page number) names a
    neighbour, not a section: the view it points to stays a view. A menu link to
    the same URL unmarks it."""
    labelled = '<nav aria-label="Archive"><a href="/archive/2025/">2025</a></nav>'
    footer = '<footer><a href="/archive/2025/" aria-label="Next: 2025"><span>Next</span> 2025</a></footer>'
    menu = '<ul><li><a href="/archive/2025/">Our year</a></li></ul>'
    assert view_urls(parse_html(f"<html><body>{labelled}{footer}</body></html>".encode()),
                     "http://ex.com/p/") == {"http://ex.com/archive/2025/"}
    assert view_urls(parse_html(f"<html><body>{labelled}{footer}{menu}</body></html>".encode()),
                     "http://ex.com/p/") == frozenset()


def test_links_in_a_byline_are_views() -> None:
    """Links inside an element whose class names a byline (a class name part
    "author", "authors" or "byline", as MkDocs Material's md-post__authors) link
    author pages; a class that only contains the letters ("authority") does not."""
    from skeleton.urlrules.actions import view_links

    root = parse_html(b'<html><body><div class="md-post__authors md-typeset"><strong>'
                      b'<a href="/author/sana/">Sana</a></strong></div>'
                      b'<span class="post-byline">by <a href="/people/jo/">Jo</a></span>'
                      b'<div class="authority"><a href="/authority/">Authority</a></div></body></html>')
    assert view_links(root, "http://ex.com/p/") == {
        "http://ex.com/author/sana/": "rel", "http://ex.com/people/jo/": "rel"}


@pytest.mark.parametrize("body", [
    # a heading that often names a real section menu is no label
    '<h2>Topics</h2><ul><li><a href="/tag/x/">x</a></li></ul>',
    # the label is not the whole text before the first link
    '<p>Read the tags of <a href="/tag/x/">x</a></p>',
    # the link is not the block's first element
    '<p>tags: <b>new</b> <a href="/tag/x/">x</a></p>',
    # the same URL linked unlabelled too
    '<p>tags: <a href="/tag/x/">x</a></p><ul><li><a href="/tag/x/">X</a></li></ul>',
])
def test_unlabelled_or_also_plain_links_are_not_views(body: str) -> None:
    assert view_urls(parse_html(f"<html><body>{body}</body></html>".encode()), "http://ex.com/p/") == frozenset()


def test_a_wordpress_tag_cloud_and_rel_tag_mark_one_view_together() -> None:
    """WordPress writes class="tag-cloud-link" on every tag cloud link: a tag linked by
    the post's rel="tag" and by the cloud is a view (each marks the other's link)."""
    from skeleton.urlrules.links import link_skip_reasons

    root = parse_html(b'<html><body><footer>Tagged <a href="/tag/x/" rel="tag">x</a></footer>'
                      b'<section><h2>Topics</h2><div class="tagcloud"><a href="/tag/x/" class="tag-cloud-link">x</a>'
                      b'<a href="/tag/y/" class="tag-cloud-link">y</a></div></section>'
                      b'<p>tags: <a href="/tag/z/">z</a></p><a href="/news/">News</a></body></html>')
    links = [("http://ex.com/tag/x/", "x"), ("http://ex.com/tag/y/", "y"), ("http://ex.com/tag/z/", "z"),
             ("http://ex.com/news/", "News")]
    assert link_skip_reasons(links, root, "http://ex.com/p/", "en") == {
        "http://ex.com/tag/x/": "skipped/view_rel", "http://ex.com/tag/y/": "skipped/view_rel",
        "http://ex.com/tag/z/": "skipped/view_label"}


@pytest.mark.parametrize("href", ["http://[::1", "http://exa mple.com:99999/x", "javascript:alert(1)", ""])
def test_a_malformed_canonical_is_ignored(href: str) -> None:
    """A canonical href that is no usable URL declares nothing, and never raises."""
    root = parse_html(f'<html><head><link rel="canonical" href="{href}"></head><body>x</body></html>'.encode())
    assert canonical_link(root, "http://ex.com/docs/a.html", "http://ex.com/docs/") is None


def test_compare_variants_votes_aliases_and_waits() -> None:
    """The one comparison the crawl and FINDSKELETON share."""
    from skeleton.urlrules.duplicates import compare_variants

    found = compare_variants("http://h/a/?s=1&t=2", "F", {"http://h/a/": "F", "http://h/a/?t=2": "G"})
    assert found.aliases == {"http://h/a/?s=1&t=2": "http://h/a/"}
    assert found.votes == {"q:s:same": 1, "q:t:same": 1, "q:s:diff": 1}
    assert [v.url for v in found.pending] == ["http://h/a/?s=1"]
    waited = compare_variants("http://h/b/", "F", {}, [("http://h/b/amp/", "s", ["amp"], "F"), ("bad",)])
    assert waited.aliases == {"http://h/b/amp/": "http://h/b/"} and waited.votes == {"s:amp:same": 1}


def test_markup_views_and_nofollow_found_through_the_shared_attribute_text() -> None:
    """The markup tests run only when their words are in the page's attribute text
    (lower-cased): upper-case rel tokens, a tag cloud, a byline and nofollow links are
    still found with the text the spider shares, and a page without those words has
    none of them."""
    from skeleton.web.dom import attribute_text
    from skeleton.urlrules.actions import nofollow_urls, view_links

    root = parse_html(b'<html><body><a rel="TAG" href="/t/a/">a</a>'
                      b'<a class="tag-cloud-link x" href="/t/b/">b</a>'
                      b'<p class="post-author">by <a href="/people/jo/">Jo</a></p>'
                      b'<a rel="NoFollow" href="/login">Log in</a><a href="/docs/">Docs</a></body></html>')
    text = attribute_text(root)
    assert "nofollow" in text and "tag-cloud-link" in text and "TAG" not in text
    expected = {"http://ex.com/t/a/": "rel", "http://ex.com/t/b/": "rel", "http://ex.com/people/jo/": "rel"}
    assert view_links(root, "http://ex.com/p/", text) == view_links(root, "http://ex.com/p/") == expected
    assert nofollow_urls(root, "http://ex.com/p/", text) == {"http://ex.com/login"}
    plain = parse_html(b'<html><body><a class="nav" href="/t/a/">a</a></body></html>')
    assert view_links(plain, "http://ex.com/p/", attribute_text(plain)) == {}
    assert attribute_text(None) == ""


def test_sort_and_filter_controls_of_a_listing_are_not_followed():
    from skeleton.urlrules.links import link_skip_reasons

    page = "http://s/tools/"
    links = [("http://s/tools/?sort=price", "price"), ("http://s/tools/?color=red&brand=acme", "red"),
             ("http://s/tools/?page=2", "2"), ("http://s/tools/index.html?sort=name", "name"), ("http://s/tools/saw.html", "Saw"), ("http://s/garden/?sort=a", "a")]
    reasons = link_skip_reasons(links, None, page, None)
    assert reasons == {"http://s/tools/?sort=price": "skipped/control", "http://s/tools/index.html?sort=name": "skipped/control",
                       "http://s/tools/?color=red&brand=acme": "skipped/control"}
    # a front controller names its pages by their query; a page with a query keeps its links
    assert link_skip_reasons([("http://s/index.php?page=about", "About")], None, "http://s/index.php", None) == {}
    assert link_skip_reasons([("http://s/tools/?sort=a", "a")], None, "http://s/tools/?sort=b", None) == {}
    assert link_skip_reasons(links, None, page, None, skip_actions=False) == {}


def test_controls_of_a_later_page_and_numeric_filter_values():
    """A later page of a listing (``?page=2``) links its first page's controls; a
    key whose values are numbers is a filter when the page also links it with a word
    (``size=40`` beside ``size=xl``), and a pager or a record when it never does; the
    folder named without its slash is the same page."""
    from skeleton.urlrules.controls import control_links

    links = ["http://s/tools/index.html?size=40", "http://s/tools/index.html?size=xl",
             "http://s/tools/index.html?size=40&brand=acme", "http://s/tools/index.html?page=3",
             "http://s/tools/index.html?id=12", "http://s/tools/saw.html"]
    controls = {"http://s/tools/index.html?size=40", "http://s/tools/index.html?size=xl",
                "http://s/tools/index.html?size=40&brand=acme"}
    for page in ("http://s/tools/", "http://s/tools", "http://s/tools/index.html?page=2"):
        assert control_links(page, links) == controls, page
    # numbers alone are a pager's or a record's: followed
    assert control_links("http://s/tools/", ["http://s/tools/?size=40", "http://s/tools/?size=44"]) == frozenset()
    # a page named by a word in its query is a page of its own, its links are kept
    assert control_links("http://s/tools/?cat=saws", links) == frozenset()


def test_facets_written_in_the_path_are_controls():
    """Child folders named ``KEY-VALUE`` whose link text is the value, two keys or more
    with two values or more each, are filters of the page's listing, from its first
    page and its later pages alike; sub-sections named for their whole text, and a
    lone key, are followed."""
    from skeleton.urlrules.controls import facet_links
    from skeleton.urlrules.links import link_skip_reasons

    facets = [("http://s/shoes/m-leather/index.html", "leather"), ("http://s/shoes/m-linen/index.html", "Linen"),
              ("http://s/shoes/brand_acme/", "Acme (3)"), ("http://s/shoes/brand_vela/", "vela [12]")]
    sections = [("http://s/shoes/boots/", "Boots"), ("http://s/shoes/running-shoes/", "Running shoes"),
                ("http://s/shoes/api-reference/", "Reference"), ("http://s/shoes/m-leather/care.html", "leather")]
    expected = frozenset(url for url, _ in facets)
    for page in ("http://s/shoes/", "http://s/shoes/index.html", "http://s/shoes/page/2/", "http://s/shoes/page2/"):
        assert facet_links(page, facets + sections) == expected, page
    reasons = link_skip_reasons(facets + sections, None, "http://s/shoes/", None)
    assert reasons == {url: "skipped/control" for url in expected}
    # one key only, or keys of one value each: no facet panel
    assert facet_links("http://s/shoes/", facets[:2] + sections) == frozenset()
    assert facet_links("http://s/shoes/", [facets[0], facets[2]] + sections) == frozenset()
    # another host's folders of the same path are not the page's
    offsite = [(url.replace("http://s/", "http://t/"), text) for url, text in facets]
    assert facet_links("http://s/shoes/", offsite + facets[:1] + facets[2:3]) == frozenset()
    # dated names are no facets: a key of digits only
    dated = [(f"http://s/blog/{year}-{name}/", name.title()) for year in (2023, 2024) for name in ("recap", "plans")]
    assert facet_links("http://s/blog/", dated) == frozenset()
    # another folder's children, and a page that is no folder's index
    assert facet_links("http://s/bags/", facets) == frozenset()
    assert facet_links("http://s/shoes/list.html", facets) == frozenset()
