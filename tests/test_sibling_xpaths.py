"""The XPaths that look for a link with no element before it read one preceding sibling,
not all of them (``preceding-sibling::*`` scanned every sibling of every link: a page of
N sibling links took time in N squared, issue 29). They select what the scanning form
selected."""
from __future__ import annotations

import pytest
from lxml import etree

from skeleton.hierarchy.evidence import LABEL_BEFORE_XPATH, LABELLED_XPATH
from skeleton.web.dom import parse_html
from skeleton.urlrules import actions

PAGES = [
    '<p>In <a href="/c/devops/">DevOps</a>.</p><p><b>x</b><a href="/y">y</a></p>',
    '<div><a href="/a">A</a><a href="/b">B</a><span>s</span><a href="/c">C</a></div>',
    '<ul><li><a href="/1">1</a></li><li>Filed under <a href="/2">two</a> here</li>'
    '<li><i>i</i> <a href="/3">3</a></li></ul>',
    "<div>" + "".join(f'<a href="/p{i}.html">P {i}</a>' for i in range(300)) + "</div>",
]


@pytest.mark.parametrize("body", PAGES)
def test_first_link_xpaths_select_what_the_scanning_form_selected(body: str) -> None:
    root = parse_html(f"<html><body>{body}</body></html>".encode())
    scanning = LABELLED_XPATH.replace("preceding-sibling::*[1]", "preceding-sibling::*")
    assert etree.XPath(LABELLED_XPATH)(root) == etree.XPath(scanning)(root)
    assert actions._LINK_FIRST(root) == etree.XPath("//a[@href][not(preceding-sibling::*)]/..")(root)
    assert "preceding-sibling::*)" not in LABELLED_XPATH
    scanning = LABEL_BEFORE_XPATH.replace("preceding-sibling::*[1]", "preceding-sibling::*")
    assert etree.XPath(LABEL_BEFORE_XPATH)(root) == etree.XPath(scanning)(root)
    assert "preceding-sibling::*)" not in LABEL_BEFORE_XPATH
