"""The page analysis's XPaths are linear in the page (issue 29, item 1). Two forms cost
libxml2 time in N squared on a page of N matching elements:

* a step to the parent (``//@id/..``, ``//a[...]/..``, ``/parent::*``): libxml2 merges
  the parents found one by one, each compared with every one already kept;
* a positional predicate followed by another (``following-sibling::*[1][self::a]``):
  the position is not used to stop the axis, every following sibling is read.

Each rewritten XPath selects what the old one selected, on small pages made to hit
every branch; and no XPath of the analysis modules uses either form (the XPaths are
read from the modules, so a new one is checked too). Nothing here is timed."""
from __future__ import annotations

import re
from types import ModuleType

import pytest
from lxml import etree

from skeleton.entropy import terms
from skeleton.hierarchy import evidence
from skeleton.sew import links
from skeleton.web import dom
from skeleton.web.dom import parse_html
from skeleton.urlrules import actions, canonical_link, content, language

_UPPER, _LOWER = evidence._UPPER, evidence._LOWER
#: (old XPath, new XPath)
REWRITTEN = [
    ("//a[@href][following-sibling::*[1][self::a[@href]]]", evidence.SEPARATED_XPATH),
    ("//a[@href][not(preceding-sibling::*[1])]/..", actions.LINK_FIRST_XPATH),
    ('//@itemtype[contains(., "BreadcrumbList")]/parent::*[@itemscope]', evidence.MICRODATA_XPATH),
    ('//@class[contains(., "rumb") or contains(., "md-path")]/..'
     ' | //@id[contains(., "rumb")]/..'
     f' | //@aria-label[contains(translate(., "{_UPPER}", "{_LOWER}"), "crumb")]/..'
     ' | //@typeof[contains(., "BreadcrumbList")]/..', evidence.CRUMB_XPATH),
    ("//@rel/.. | //@accesskey/..", evidence.UP_XPATH),
    ("//@aria-current/..", evidence.ARIA_CURRENT_XPATH),
    ('//@aria-current/.. | //@class[contains(., "ctive") or contains(., "urrent")]/..',
     evidence._marked_xpath(("active", "current")).path),
    ('(//main | //@role[. = "main"]/.. | //@id[. = "content" or . = "main"]/..)[1]', content.MAIN_XPATH),
    ("//@class[contains(., 'author') or contains(., 'byline')]/..", actions._BYLINE_CANDIDATES.path),
    ("(//@aria-label | //@aria-labelledby)/parent::*[not(self::a)]", actions._NAMED.path),
    ("//@id/..", actions._WITH_ID.path),
]

PAGES = [
    '<p>Home: <a href="/">Home</a> » <a href="/a/">A</a> » <a href="/a/b/">B</a></p>'
    '<div><a href="/x">x</a><a href="/y">y</a><span>s</span><a href="/z">z</a><a>no href</a></div>',
    '<nav class="breadcrumb" aria-label="Breadcrumb"><ol><li><a href="/">Home</a></li>'
    '<li id="crumbs" typeof="BreadcrumbList"><a href="/docs/">Docs</a></li></ol></nav>'
    '<div class="md-path"><a href="/m">m</a></div><span aria-label="BREADCRUMBS">b</span>',
    '<div itemscope itemtype="https://schema.org/BreadcrumbList"><span itemtype="BreadcrumbList">x</span>'
    '<a href="/1" rel="up">Up</a><a href="/2" accesskey="u" rel="next">2</a><link rel="up" href="/p"></div>',
    '<ul><li class="active"><a href="/a" aria-current="page">A</a><ul><li class="current">'
    '<a href="/a/b" class="inactive">B</a></li></ul></li><li aria-current="false"><i>i</i><a href="/c">C</a></li></ul>',
    '<main id="main"><p>text</p></main><div role="main" id="content">c</div>',
    '<div id="content"><p class="byline author vcard">By <a href="/au">Au</a></p></div>'
    '<aside aria-label="Archive"><a href="/2024" aria-label="2024">2024</a></aside>'
    '<nav aria-labelledby="h t"><h2 id="h">Tags</h2><span id="t">x</span><a href="/t">t</a></nav>',
    "<div>" + "".join(f'<a href="/p{i}" id="i{i}" rel="x">P {i}</a> » ' for i in range(50)) + "</div>",
    "<ul>" + "".join(f'<li class="active" aria-label="l"><a href="/q{i}">Q</a><ul><li><a href="/r{i}">R</a>'
                     '</li></ul></li>' for i in range(30)) + "</ul>",
    "<p>No links at all.</p>",
]


@pytest.mark.parametrize("old,new", REWRITTEN, ids=[new[:40] for _, new in REWRITTEN])
@pytest.mark.parametrize("body", PAGES, ids=range(len(PAGES)))
def test_rewritten_xpaths_select_what_the_old_ones_selected(old: str, new: str, body: str) -> None:
    root = parse_html(f"<html><body>{body}</body></html>".encode())
    assert etree.XPath(new)(root) == etree.XPath(old)(root)


def test_the_pages_hit_every_rewritten_xpath() -> None:
    roots = [parse_html(f"<html><body>{body}</body></html>".encode()) for body in PAGES]
    for _, new in REWRITTEN:
        assert any(etree.XPath(new)(root) for root in roots), new


#: a parent step in the path itself (in a predicate, ``..`` is one node's parent)
PARENT_STEP = re.compile(r"/\.\.|parent::|ancestor")
#: a positional predicate followed by another, anywhere
POSITION_THEN_PREDICATE = re.compile(r"\[(?:1|position\(\) ?= ?1)\]\[")
MODULES: list[ModuleType] = [evidence, actions, content, language, canonical_link, links, dom, terms]


def _outside_predicates(xpath: str) -> str:
    depth, out = 0, []
    for char in xpath:
        depth += char == "["
        if not depth:
            out.append(char)
        depth -= char == "]"
    return "".join(out)


def quadratic(xpath: str) -> bool:
    """Does this whole-document XPath use a form that costs libxml2 N squared?"""
    return bool(PARENT_STEP.search(_outside_predicates(xpath)) or POSITION_THEN_PREDICATE.search(xpath))


def _page_xpaths(module: ModuleType) -> list[str]:
    found = []
    for name, value in vars(module).items():
        if isinstance(value, etree.XPath):
            found.append(value.path)
        elif isinstance(value, str) and name.endswith("_XPATH"):
            found.append(value)
    return found


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_no_page_xpath_uses_a_quadratic_form(module: ModuleType) -> None:
    # relative XPaths (``ancestor::article[1]``) run from one element: its depth
    whole = [x for x in _page_xpaths(module) if x.lstrip("(").startswith("/")]
    assert [x for x in whole if quadratic(x)] == []


def test_the_check_catches_the_old_forms() -> None:
    for old, new in REWRITTEN:
        assert quadratic(old) and not quadratic(new), old
    assert not quadratic(evidence.LABELLED_XPATH)  # ``..`` in a predicate: one parent
