"""Nested tables of contents: skeleton.sew.nesting (and Detection.nav_links using it)."""
from __future__ import annotations

from skeleton.sew.detect import Detection
from skeleton.web.dom import parse_html
from skeleton.sew.links import LinkNode, extract_links
from skeleton.sew.nesting import (common_chain, directory_hosts, directory_index, folder_holds, is_nested, misplaced_hosts,
                                  nest_link_sets)

PAGE = "http://example.org/book/index.html"


def by_name(html: str) -> dict[str, LinkNode]:
    return {link.sec_name: link for link in extract_links(parse_html(html.encode()), PAGE)}


def parents(link_sets) -> dict[str, str]:
    names = {link.number: link.sec_name for s in link_sets for link in s}
    return {names[number]: host.sec_name for number, host in nest_link_sets(link_sets).items()}


UL_TOC = """<html><body><div class="toc"><ul>
  <li><a href="ch1/index.html">Chapter 1</a>
    <ul><li><a href="ch1/s1.html">1.1</a></li><li><a href="ch1/s2.html">1.2</a></li></ul></li>
  <li><a href="ch2/index.html">Chapter 2</a></li>
  <li><a href="ch3/index.html">Chapter 3</a>
    <ul><li><a href="ch3/s1.html">3.1</a></li><li><a href="ch3/s2.html">3.2</a></li>
        <li><a href="ch3/s3.html">3.3</a></li></ul></li>
</ul></div></body></html>"""

DL_TOC = """<html><body><div class="toc"><dl>
  <dt><a href="pt1/index.html">Part I</a></dt>
  <dd><dl>
    <dt><a href="pt1/ch1.html">1. Intro</a></dt>
    <dt><a href="pt1/ch2.html">2. Setup</a></dt>
  </dl></dd>
  <dt><a href="pt2/index.html">Part II</a></dt>
  <dd><dl>
    <dt><a href="pt2/ch3.html">3. Usage</a></dt>
    <dd><dl><dt><a href="pt2/ch3/a.html">3.1 Basics</a></dt><dt><a href="pt2/ch3/b.html">3.2 More</a></dt></dl></dd>
    <dt><a href="pt2/ch4.html">4. API</a></dt>
  </dl></dd>
</dl></div></body></html>"""


def test_two_level_ul_toc() -> None:
    links = by_name(UL_TOC)
    outer = [links[n] for n in ("Chapter 1", "Chapter 2", "Chapter 3")]
    inner = [links[n] for n in ("1.1", "1.2", "3.1", "3.2", "3.3")]
    assert inner[0].depth == outer[0].depth + 2
    assert is_nested(inner, outer)
    assert not is_nested(outer, inner)
    assert parents([outer, inner]) == {
        "1.1": "Chapter 1", "1.2": "Chapter 1",
        "3.1": "Chapter 3", "3.2": "Chapter 3", "3.3": "Chapter 3"}


def test_nest_link_sets_does_not_depend_on_the_order_of_the_sets() -> None:
    links = by_name(UL_TOC)
    outer = [links[n] for n in ("Chapter 1", "Chapter 2", "Chapter 3")]
    inner = [links[n] for n in ("1.1", "1.2", "3.1", "3.2", "3.3")]
    assert parents([inner, outer]) == parents([outer, inner])


def test_docbook_dl_toc() -> None:
    links = by_name(DL_TOC)
    parts = [links["Part I"], links["Part II"]]
    chapters = [links[n] for n in ("1. Intro", "2. Setup", "3. Usage", "4. API")]
    assert parts[0].depth + 2 == chapters[0].depth  # dl/dt/a vs dl/dd/dl/dt/a
    assert is_nested(chapters, parts)
    assert not is_nested(parts, chapters)
    assert parents([parts, chapters]) == {
        "1. Intro": "Part I", "2. Setup": "Part I", "3. Usage": "Part II", "4. API": "Part II"}


def test_docbook_dl_toc_third_level_inside_one_branch() -> None:
    # the second level lies in one <dd> only: its container is deeper than the first's
    links = by_name(DL_TOC)
    parts = [links["Part I"], links["Part II"]]
    chapters = [links[n] for n in ("3. Usage", "4. API")]
    sections = [links["3.1 Basics"], links["3.2 More"]]
    assert parents([parts, chapters, sections]) == {
        "3. Usage": "Part II", "4. API": "Part II", "3.1 Basics": "3. Usage", "3.2 More": "3. Usage"}


def test_docbook_dl_toc_three_levels() -> None:
    links = by_name(DL_TOC)
    parts = [links["Part I"], links["Part II"]]
    chapters = [links[n] for n in ("1. Intro", "2. Setup", "3. Usage", "4. API")]
    sections = [links["3.1 Basics"], links["3.2 More"]]
    assert parts[0].depth < chapters[0].depth < sections[0].depth
    assert is_nested(sections, chapters) and is_nested(sections, parts)
    assert parents([parts, chapters, sections]) == {
        "1. Intro": "Part I", "2. Setup": "Part I",
        "3. Usage": "Part II", "4. API": "Part II",
        "3.1 Basics": "3. Usage", "3.2 More": "3. Usage"}


def test_three_level_ul_toc() -> None:
    links = by_name("""<html><body><ul>
      <li><a href="c1/">C1</a><ul>
        <li><a href="c1/s1/">S1</a><ul><li><a href="c1/s1/x.html">X</a></li><li><a href="c1/s1/y.html">Y</a></li></ul></li>
        <li><a href="c1/s2/">S2</a></li></ul></li>
      <li><a href="c2/">C2</a><ul><li><a href="c2/s3/">S3</a></li></ul></li>
      </ul></body></html>""")
    level1 = [links["C1"], links["C2"]]
    level2 = [links["S1"], links["S2"], links["S3"]]
    level3 = [links["X"], links["Y"]]
    assert parents([level1, level2, level3]) == {
        "S1": "C1", "S2": "C1", "S3": "C2", "X": "S1", "Y": "S1"}


def test_two_unrelated_menus_are_not_nested() -> None:
    links = by_name("""<html><body>
      <ul id="top"><li><a href="a.html">A</a></li><li><a href="b.html">B</a></li><li><a href="c.html">C</a></li></ul>
      <div id="side"><div><ul><li><a href="x.html">X</a></li><li><a href="y.html">Y</a></li></ul></div></div>
      </body></html>""")
    top = [links[n] for n in "ABC"]
    side = [links[n] for n in "XY"]
    assert top[0].depth < side[0].depth
    assert not is_nested(side, top)
    assert nest_link_sets([top, side]) == {}


def test_a_deeper_list_before_the_outer_list_is_not_nested() -> None:
    # the deeper list lies in the same container but before the outer list's first link
    links = by_name("""<html><body><ul>
      <li><ul><li><a href="x.html">X</a></li><li><a href="y.html">Y</a></li></ul></li>
      <li><a href="a.html">A</a></li><li><a href="b.html">B</a></li></ul></body></html>""")
    outer, deeper = [links["A"], links["B"]], [links["X"], links["Y"]]
    assert deeper[0].depth > outer[0].depth
    assert not is_nested(deeper, outer)
    assert nest_link_sets([outer, deeper]) == {}


def test_a_single_link_does_not_host_a_nested_set() -> None:
    links = by_name(UL_TOC)
    assert not is_nested([links["1.1"], links["1.2"]], [links["Chapter 1"]])


def test_common_chain_is_the_lowest_common_ancestor_path() -> None:
    links = by_name(UL_TOC)
    c1, c2 = links["Chapter 1"], links["Chapter 2"]
    # html, body, div, ul (then different li)
    assert common_chain([c1, c2]) == c1.chain[:4] == c2.chain[:4]
    assert common_chain([c1]) == c1.chain
    assert common_chain([links["1.1"], links["1.2"]]) == links["1.1"].chain[:6]


def test_nav_links_hang_nested_entries_from_their_chapter() -> None:
    links = by_name(UL_TOC)
    outer = [links[n] for n in ("Chapter 1", "Chapter 2", "Chapter 3")]
    inner = [links[n] for n in ("1.1", "1.2", "3.1", "3.2", "3.3")]
    nav = Detection(nav_sets=[inner, outer]).nav_links(PAGE)
    base = "http://example.org/book/"
    assert [(n.url[len(base):], n.parent[len(base):]) for n in nav] == [
        ("ch1/", "index.html"), ("ch2/", "index.html"), ("ch3/", "index.html"),
        ("ch1/s1.html", "ch1/"), ("ch1/s2.html", "ch1/"),
        ("ch3/s1.html", "ch3/"), ("ch3/s2.html", "ch3/"), ("ch3/s3.html", "ch3/")]


# --- directory indexes (beyond the paper) -----------------------------------

MENU = """<html><body><ul class="menu">
  <li><a href="getting-started.html">Getting Started</a></li>
  <li><a href="user-guide/">User Guide</a></li>
  <li><a href="user-guide/install.html">Installation</a></li>
  <li><a href="user-guide/deep/config.html">Configuration</a></li>
  <li><a href="dev/index.html">Developer Guide</a></li>
  <li><a href="dev/api.html">API</a></li>
  <li><a href="other/page.html">Other</a></li>
</ul></body></html>"""


def test_directory_index() -> None:
    assert directory_index("http://h/a/") == "/a/"
    assert directory_index("http://h/a/index.html") == "/a/"
    assert directory_index("http://h/a/index.htm") == "/a/"
    assert directory_index("http://h/a/page.html") is None


def test_flat_menu_pages_hang_from_their_section_index() -> None:
    page = "http://example.org/index.html"
    links = extract_links(parse_html(MENU.encode()), page)
    nav = Detection(nav_sets=[links]).nav_links(page)
    base = "http://example.org/"
    assert [(n.url[len(base):], n.parent[len(base):]) for n in nav] == [
        ("getting-started.html", "index.html"), ("user-guide/", "index.html"),
        ("user-guide/install.html", "user-guide/"), ("user-guide/deep/config.html", "user-guide/"),
        ("dev/", "index.html"), ("dev/api.html", "dev/"), ("other/page.html", "index.html")]


def test_directory_hosts_ignore_the_current_directory_and_above() -> None:
    # the same menu seen from a page of the user guide: /user-guide/ is the page's
    # own directory and /dev/ is not below it, so nothing is re-hung
    page = "http://example.org/user-guide/install.html"
    links = extract_links(parse_html(MENU.replace('href="', 'href="../').encode()), page)
    assert directory_hosts([links], page) == {}
    # seen from the home page, every section index hosts its pages
    home = "http://example.org/"
    links = extract_links(parse_html(MENU.encode()), home)
    assert {links[i].sec_name: h.sec_name for i, h in directory_hosts([links], home).items()} == {
        "Installation": "User Guide", "Configuration": "User Guide", "API": "Developer Guide"}


def test_directory_hosts_stay_within_one_set() -> None:
    # a "Topics" drop-down of categories beside a "Tags" entry linking categories/ (the
    # tags and categories index): two sets; the categories are the page's own
    home = "http://example.org/"
    html = """<ul><li><a href="#">Topics</a><div><a href="categories/cat_a/">A</a><a href="categories/cat_b/">B</a>
        </div></li><li><a href="archive.html">Archive</a></li><li><a href="categories/">Tags</a></li></ul>"""
    links = extract_links(parse_html(html.encode()), home)
    topics = [link for link in links if link.sec_name in ("A", "B")]
    menu = [link for link in links if link.sec_name in ("Archive", "Tags")]
    assert directory_hosts([topics, menu], home) == {}
    # in one flat list, the section's index still hosts its pages
    assert {links[i].sec_name: h.sec_name for i, h in directory_hosts([topics + menu], home).items()} == {
        "A": "Tags", "B": "Tags"}


# --- sub-menus that open from a label (beyond the paper) ---------------------

#: Bootstrap's nested drop-down as MkDocs' default themes print it: each sub-menu opens
#: from a label that is no page (``href="#"``) and lists its section's index first
DROPDOWN = """<html><body><ul class="nav navbar-nav">
 <li class="nav-item"><a href="./">Home</a></li>
 <li class="dropdown"><a href="#">Canvas</a><ul class="dropdown-menu">
  <li><a href="canvas/">Canvas</a></li>
  <li><a href="canvas/secure/">Secure</a></li>
  <li class="dropdown-submenu"><a href="#">Export</a><ul class="dropdown-menu">
   <li><a href="canvas/export/">Export</a></li>
   <li><a href="canvas/export/audit/">Audit</a></li>
   <li><a href="canvas/export/report/">Report</a></li></ul></li>
  <li><a href="canvas/tune/">Tune</a></li>
  <li class="dropdown-submenu"><a href="#">Extend</a><ul class="dropdown-menu">
   <li><a href="canvas/extend/">Extend</a></li>
   <li><a href="canvas/extend/build/">Build</a></li></ul></li>
 </ul></li>
 <li class="dropdown"><a href="#">Topics</a><ul class="dropdown-menu">
  <li><a href="topics/red/">Red</a></li><li><a href="topics/blue/">Blue</a></li></ul></li>
 <li class="nav-item"><a href="topics/">All topics</a></li>
</ul></body></html>"""


def _dropdown_sets(page: str) -> list[list[LinkNode]]:
    """The two sets SEW takes from the menu (as on the MkDocs sites): the drop-downs'
    items with the first label, and the sub-menus' items."""
    links = {(link.sec_name, bool(link.url)): link for link in extract_links(parse_html(DROPDOWN.encode()), page)}
    top = [links[k] for k in (("Canvas", True), ("Secure", True), ("Export", False), ("Tune", True),
                              ("Red", True), ("Blue", True))]
    deep = [links[(name, True)] for name in ("Export", "Audit", "Report", "Extend", "Build")]
    bar = [links[("Home", True)], links[("Topics", False)], links[("All topics", True)]]
    return [bar, top, deep]


def test_folder_holds_reads_the_folder_a_page_names() -> None:
    assert folder_holds("http://h/a/", "http://h/a/b/")
    assert folder_holds("http://h/a/index.html", "http://h/a/b.html")
    assert folder_holds("http://h/a.html", "http://h/a/b.html")
    assert not folder_holds("http://h/a/", "http://h/a/")
    assert not folder_holds("http://h/a/x/", "http://h/a/y/")
    assert not folder_holds("", "http://h/a/")


def test_a_sub_menu_hangs_from_its_index_not_from_the_entry_before_its_label() -> None:
    page = "http://example.org/"
    sets = _dropdown_sets(page)
    names = {link.number: link.sec_name for s in sets for link in s}
    by_order = nest_link_sets(sets)
    # document order alone hangs the sub-menus from their label or the entry before it
    assert {names[n]: h.sec_name for n, h in by_order.items()
            if names[n] in ("Audit", "Build", "Extend")} == {"Audit": "Export", "Build": "Tune", "Extend": "Tune"}
    fixed = {names[n]: h.url[len(page):] for n, h in misplaced_hosts(sets, by_order, page).items()}
    assert fixed["Audit"] == fixed["Report"] == "canvas/export/"
    assert fixed["Build"] == "canvas/extend/"
    assert fixed["Export"] == fixed["Extend"] == "canvas/"
    nav = {n.url[len(page):]: n.parent[len(page):] for n in Detection(nav_sets=sets).nav_links(page)}
    assert nav["canvas/export/audit/"] == "canvas/export/"
    assert nav["canvas/extend/"] == "canvas/"
    assert nav["canvas/tune/"] == "canvas/"


def test_a_labels_own_list_keeps_its_host_without_its_index() -> None:
    # "Topics" lists topic pages; the topics/ index is another entry of the menu: the
    # label's list is the page's own, as in a flat menu
    page = "http://example.org/"
    sets = _dropdown_sets(page)
    names = {link.number: link.sec_name for s in sets for link in s}
    fixed = {names[n] for n in misplaced_hosts(sets, nest_link_sets(sets), page)}
    assert not fixed & {"Red", "Blue", "All topics"}


# A collapsible sidebar group (VitePress): the group's head link sits in a <div> of its own,
# its items in a sibling <div>; a sub-group inside it is a <section> of the same shape. The
# heads are in no accepted set (a head's path differs from the items'), so document order
# hung the items from the entry printed before the group.
GROUPED = """<html><body><nav class="sidebar"><section class="group">
  <div class="item"><a href="/buffer/">Buffer</a></div>
  <div class="items">
    <div class="entry"><div class="item"><a href="/buffer/a">A</a></div></div>
    <div class="entry"><div class="item"><a href="/buffer/b">B</a></div></div>
    <section class="entry"><div class="item"><a href="/buffer/sub/"><h3>Sub</h3></a></div>
      <div class="items">
        <div class="entry"><div class="item"><a href="/buffer/sub/x">X</a></div></div>
        <section class="entry"><div class="item"><a href="/buffer/sub/deep/"><h4>Deep</h4></a></div>
          <div class="items"><div class="entry"><div class="item"><a href="/buffer/sub/deep/p">P</a></div></div>
            <div class="entry"><div class="item"><a href="/buffer/sub/deep/q">Q</a></div></div></div></section>
        <div class="entry"><div class="item"><a href="/buffer/sub/y">Y</a></div></div>
        <div class="entry"><div class="item"><a href="/buffer/z">Z</a></div></div>
      </div></section>
    <div class="entry"><div class="item"><a href="/buffer/c">C</a></div></div>
  </div></section></nav></body></html>"""


def test_a_group_hangs_from_its_own_head_link_when_the_folders_agree() -> None:
    page = extract_links(parse_html(GROUPED.encode()), "http://example.org/buffer/")
    links = {link.sec_name: link for link in page}
    items = [links[n] for n in ("A", "B", "C")]
    inner = [links[n] for n in ("X", "Y", "Z")]
    names = {link.number: link.sec_name for link in page}
    plain = {names[n]: host.sec_name for n, host in nest_link_sets([items, inner]).items()}
    assert plain == {"X": "B", "Y": "B", "Z": "B"}  # document order: the entry before the group
    grouped = {names[n]: host.sec_name for n, host in nest_link_sets([items, inner], page).items()}
    # X and Y (after the nested "Deep" group too) hang from the group's head; Z lies in the
    # group but not in its folder: its host stays
    assert grouped == {"X": "Sub", "Y": "Sub", "Z": "B"}
    # a nested link's parent is a page the page offers: here the head is in the page's
    # own listing, outside the sidebar
    listing = extract_links(parse_html(GROUPED.replace(
        "</nav>", '</nav><main><ul><li><a href="/buffer/sub/">Sub</a></li><li><a href="/buffer/a">A</a>'
        "</li></ul></main>").encode()), "http://example.org/buffer/")
    own = [link for link in listing if link.chain[:3] != page[0].chain[:3]]
    again = {link.sec_name: link for link in listing[:len(page)]}
    detection = Detection(nav_sets=[[again[n] for n in ("A", "B", "C")], [again[n] for n in ("X", "Y", "Z")], own],
                          page_links=listing)
    parents_of = {n.url.rsplit("/buffer/", 1)[-1]: n.parent.rsplit("/buffer/", 1)[-1]
                  for n in detection.nav_links("http://example.org/buffer/")}
    assert parents_of["sub/x"] == parents_of["sub/y"] == "sub/"
    assert parents_of["z"] == "b"
