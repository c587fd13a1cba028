"""informative_blocks end to end, JSON output, and bad input (issue 3)."""
from __future__ import annotations

import json
import math

import lxml.html
from lxml import etree

from skeleton.web.dom import parse_html
from skeleton.wisdom import WisdomParams, informative_blocks

URL = "http://news.test/index.html"
COMMON = {"home", "news", "sports", "contact", "copyright", "rights", "reserved"}


def weight(term):
    return 0.0 if term in COMMON else 0.7


PAGE = """<html><head><title>x</title><script>var a = "home news";</script></head><body>
<div id="header"><a href="/home.html">Home</a> | <a href="/news.html">News</a> | <a href="/sports.html">Sports</a></div>
<div id="columns">
 <div id="left"><ul>
  <li><a href="/a/election.html">Election results reshape parliament coalition</a></li>
  <li><a href="/a/drought.html">Drought threatens harvest across northern provinces</a></li>
  <li><a href="/a/vaccine.html">Vaccine trial reports promising antibody response</a></li>
  <li><a href="/a/railway.html">Railway strike disrupts commuter traffic nationwide</a></li>
 </ul></div>
 <div id="story">
  <h1>Parliament coalition talks continue after election</h1>
  <p>Negotiators from three parties met again on Tuesday to discuss budget priorities and ministerial posts.</p>
  <p>Analysts expect agreement before autumn, although disputes over taxation remain unresolved today.</p>
  <p>Regional governors urged lawmakers to protect infrastructure funding for rural railway lines.</p>
 </div>
</div>
<div id="footer">Copyright news home. All rights reserved. <a href="/contact.html">Contact</a></div>
</body></html>"""
TERMS = {"http://news.test/a/election.html": {"election": 3, "parliament": 2, "coalition": 2},
         "http://news.test/a/drought.html": {"drought": 2, "harvest": 1, "provinces": 1},
         "http://news.test/a/vaccine.html": {"vaccine": 4, "trial": 1, "antibody": 1},
         "http://news.test/a/railway.html": {"railway": 2, "strike": 2, "commuter": 1}}


def test_clear_page_gives_exactly_the_toc_and_article_blocks():
    root = parse_html(PAGE)
    result = informative_blocks(root, URL, weight, TERMS.get)
    assert [(b.xpath, b.origin) for b in result.toc] == [("/html/body/div[2]/div[1]/ul", "mib")]
    assert [(b.xpath, b.origin) for b in result.article] == [("/html/body/div[2]/div[2]", "mib")]
    toc, article = result.toc[0], result.article[0]
    assert toc.anchors == 4 and toc.kind == "toc"
    assert toc.index == round(toc.score / 4, 6) and toc.index >= 1.25
    assert article.anchors == 0 and article.kind == "article"
    assert article.text_length == sum(len(" ".join(p.xpath("string()").split()))
                                      for p in root.xpath("//div[@id='story']/*"))
    data = json.loads(json.dumps(result.to_dict()))
    assert data["url"] == URL and data["toc"][0]["xpath"] == toc.xpath
    assert set(data["article"][0]) == {"xpath", "kind", "origin", "anchors", "text_length",
                                       "anchor_text_length", "score", "index", "removed"}


def test_without_crawl_information_the_blocks_are_found_from_anchor_terms():
    result = informative_blocks(parse_html(PAGE), URL, weight)  # page_terms=None
    assert [b.xpath for b in result.toc] == ["/html/body/div[2]/div[1]/ul"]


def test_menu_only_page_has_no_toc_block():
    html = "<html><body>" + PAGE.split('<div id="header">')[1].split("</div>")[0] + "</body></html>"
    result = informative_blocks(parse_html(html), URL, weight, TERMS.get)
    assert result.toc == []


def _assert_clean(result):
    text = json.dumps(result.to_dict())
    for block in result.toc + result.article:
        assert math.isfinite(block.score) and math.isfinite(block.index)
    assert "NaN" not in text and "Infinity" not in text


def test_bad_inputs_never_raise():
    cases = [None, parse_html("<p></p>"), lxml.html.fromstring("<div><img src='a.png'></div>"),
             parse_html("<html><body><script>x()</script></body></html>"),
             parse_html("<p>no links at all, only words</p>"),
             parse_html('<p><a href="/x.html">one link</a></p>'),
             parse_html("<p>" + "\u6f22\u5b57\u306e\u6587\u66f8" * 2000 + "</p><p>\u0627\u0644\u0639\u0631\u0628\u064a\u0629</p>"),
             parse_html("<p>" + "lorem ipsum " * 200_000 + "</p>"),
             etree.ElementTree(lxml.html.fromstring("<div><a href='x'>a</a></div>"))]
    for root in cases:
        _assert_clean(informative_blocks(root, URL, weight))
    assert not informative_blocks(None, URL, weight)
    assert not informative_blocks(parse_html("<p></p>"), URL, weight)


def test_ten_thousand_links():
    links = "".join(f'<li><a href="/p{i}.html">entry topic{i % 97} item</a></li>' for i in range(10_000))
    result = informative_blocks(parse_html(f"<html><body><ul>{links}</ul></body></html>"), URL, weight,
                                lambda url: {"entry": 1, "item": 1})
    _assert_clean(result)
    assert result.toc and result.toc[0].anchors <= 10_000


def test_five_thousand_nested_levels():
    root = etree.Element("html")
    el = etree.SubElement(root, "body")
    for _ in range(5_000):
        el = etree.SubElement(el, "div")
    el.text = "deep informative words here"
    a = etree.SubElement(el, "a", href="/x.html")
    a.text = "deep link"
    result = informative_blocks(root, URL, weight)
    _assert_clean(result)
    assert result.article and result.article[0].xpath.count("/div") >= 5_000


def test_params_are_validated():
    for bad in (dict(k=-1), dict(toc_feature="clen"), dict(cstm_levels=-2)):
        try:
            WisdomParams(**bad)
        except ValueError:
            continue
        raise AssertionError(bad)
