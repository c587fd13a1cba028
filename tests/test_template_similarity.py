"""The same-template check of the template benchmark (``skeleton.template.similarity``)."""
from __future__ import annotations

from helpers import FIXTURES
from lxml import etree

from skeleton.web.dom import parse_html
from skeleton.template.similarity import chrome, chrome_similarity, frame_root, same_template

PAGES = FIXTURES / "chrome"


def page(name: str) -> frozenset[str]:
    return chrome(parse_html((PAGES / name).read_bytes()))


def test_a_page_type_flag_on_body_does_not_change_the_template() -> None:
    # the same frame, <body id="index-page" class="homepage"> against <body id="manual-page">
    home, reference = page("home.html"), page("reference.html")
    assert chrome_similarity(home, reference) == 1.0
    assert same_template(home, reference)


def test_the_content_slot_is_not_chrome() -> None:
    home = page("home.html")
    assert "div#header/ul.menu" in home and "div#footer/p.copyright" in home
    assert "div#content" in home
    assert not any(p.startswith("div#content/") for p in home)  # h1, table#toc: content
    assert not any(p.startswith(("head", "html")) for p in home)


def test_a_single_wrapper_is_descended() -> None:
    assert page("wrapped.html") == page("home.html")
    root = parse_html((PAGES / "wrapped.html").read_bytes())
    assert frame_root(root).get("id") == "wrapper"


def test_another_generator_is_another_template() -> None:
    assert chrome_similarity(page("home.html"), page("other.html")) == 0.0
    assert not same_template(page("reference.html"), page("other.html"))


def test_bad_pages_have_an_empty_chrome() -> None:
    assert chrome(None) == frozenset()
    assert chrome(etree.Comment("x")) == frozenset()
    assert chrome(parse_html(b"<html><body></body></html>")) == frozenset()
    assert chrome_similarity(frozenset(), frozenset()) == 0.0
    deep = b"<html><body>" + b"<div>" * 5000 + b"<a href='x'>x</a>" + b"</div>" * 5000 + b"</body></html>"
    assert chrome(parse_html(deep)) == frozenset()  # one wrapper after another down to the link
    many = b"<html><body><ul>" + b"".join(b"<li><a href='p%d.html'>p</a></li>" % i
                                          for i in range(10_000)) + b"</ul><p>x</p></body></html>"
    assert chrome(parse_html(many)) >= {"ul", "p"}
