#!/usr/bin/env python3
"""Generate the labelled test websites under tests/sites/.

Every site is a folder of static HTML files, tests/sites/<name>/, plus
tests/sites/<name>.truth.json holding the site's designed navigation tree:

    {"root": URL, "edges": [[parent, child], ...],
     "meta": {"site": name, "kind": ..., "description": ...,
              "not_in_tree": [URL, ...]}}

URLs are http://127.0.0.1:8000/ + the percent-encoded path inside the site
folder (directories written as dir/index.html, no fragment).  Internal tree
nodes are navigation pages, leaves are content pages.  Pages that exist but
are deliberately outside the tree (search, login, tags, archives, legal,
pagination, facet URLs with query strings...) are listed in not_in_tree.

All links in the pages are relative or root-relative, so a site can be served
from its own folder on any port (server.py: http.server plus _redirects rules
and PATH@QUERY files for PATH?QUERY pages).  The only links that
leave a site go to http://www.example.com/..., mailto:, tel: or javascript:.

Usage:
    python tests/sites/build.py            # rebuild every site, then check
    python tests/sites/build.py blog forum # rebuild only these
    python tests/sites/build.py --check    # only run the checks

Standard library only and deterministic: the only randomness is
random.Random(<fixed seed>) per site, so a rebuild gives identical bytes.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "generator"))

from common import HERE, check  # noqa: E402
from news_tables import build_news_tables  # noqa: E402
from shop_megamenu import build_shop_megamenu  # noqa: E402
from university import build_university  # noqa: E402
from blog import build_blog  # noqa: E402
from forum import build_forum  # noqa: E402
from docs_sidebar import build_docs_sidebar  # noqa: E402
from portal_dl import build_portal_dl  # noqa: E402
from news_portal import build_news_portal  # noqa: E402


# ================================================================== main

SITES = {  # name -> (builder, rule for the truth, as stated in README.md)
    "news_tables": (build_news_tables,
                    "home -> the 6 sections of the red section bar -> subsections listed "
                    "under 'In this section' -> the articles each (sub)section page lists. "
                    "Archive pages and the utility/footer pages are outside the tree."),
    "shop_megamenu": (build_shop_megamenu,
                      "home -> categories -> subcategories -> products (the designed shop "
                      "hierarchy, also shown in the mega-menu). page-2.html listings, facet/"
                      "sort URLs (?color=, ?sort=), search URLs and footer/utility pages are "
                      "outside the tree. Page 1 of a subcategory lists all its products (so "
                      "the parent links every child); page-2.html repeats a few of them."),
    "university": (build_university,
                   "home -> the 5 header sections -> departments / research centres / "
                   "admission guides / about and news pages -> programme, people, project "
                   "and guide pages. Two person pages have non-ASCII (percent-encoded) paths."),
    "blog": (build_blog,
             "home -> top-level categories of the category menu -> child categories -> "
             "posts (a post's parent is its one category). Links use /dir/ pretty URLs; "
             "tags, month archives, authors, /page/N/, about/contact/privacy/login are "
             "outside the tree."),
    "forum": (build_forum,
              "index -> forums (category rows are plain text, not nodes) -> subforums -> "
              "topics; a topic's parent is the forum it is posted in. Profiles, topic "
              "page 2+ (-startN), search, memberlist, FAQ, login are outside the tree."),
    "docs_sidebar": (build_docs_sidebar,
                     "home -> sections -> pages -> subpages, i.e. the toctree / sidebar "
                     "hierarchy. search, genindex and py-modindex are outside the tree."),
    "portal_dl": (build_portal_dl,
                  "home -> sections (home tiles) -> topics (section <dl>) -> services "
                  "(topic tiles). News, A-Z, language homes, contact/legal/sign-in pages "
                  "are outside the tree."),
    "news_portal": (build_news_portal,
                    "home -> the 5 header sections -> subsections listed under 'In this "
                    "section' -> articles / products (an article's parent is the one "
                    "(sub)section whose paginated listing files it, items of page/2/ "
                    "included); /culture/ lists its articles and /events/ its 6 event pages "
                    "event.html?id=N (the query makes distinct pages: these URLs are nodes). "
                    "Every other URL variant of a page (tracking and ?share= parameters, "
                    "?p=ID shortlinks, AMP copies, /dir, /dir/index.html, _redirects "
                    "sources) is not a node; tags, authors, month archives, page/N/, "
                    "cart/wishlist/compare/report/login forms, /de/ copies and the footer "
                    "pages are outside the tree. Serve with server.py, not http.server."),
}


def write_readme(stats):
    rows = []
    for name, (_, rule) in SITES.items():
        st = stats[name]
        with open(os.path.join(HERE, name + ".truth.json"), encoding="utf-8") as fh:
            desc = json.load(fh)["meta"]["description"]
        rows.append(f"### `{name}`\n\n{desc}\n\n- pages: {st['pages']} ({st['tree_nodes']} in "
                    f"the tree, {st['edges']} edges, depth {st['depth']}); not_in_tree: "
                    f"{st['not_in_tree']} URLs\n- truth: {rule}\n")
    text = f"""# Labelled test sites

Generated by `build.py` (standard library only, deterministic). Do not edit the
generated folders or `*.truth.json` by hand: change `build.py` and rerun

    python tests/sites/build.py          # rebuild all sites + README, run check()
    python tests/sites/build.py --check  # only verify the files on disk

Each site is served from its own folder (`python tests/sites/server.py
tests/sites/<name> --port 8000`: `python -m http.server` plus the `_redirects`
rules of a site and `PATH?QUERY` pages stored as files `PATH@QUERY`; the other
sites can also be served by `python -m http.server 8000 -d tests/sites/<name>`);
all internal links are relative or root-relative.
`<name>.truth.json` has the format of the dev corpus: `root`, `edges`
(parent, child), `meta.not_in_tree` (pages that exist but are deliberately
outside the tree). URLs are `http://127.0.0.1:8000/` + percent-encoded path,
directories as `dir/index.html` (the blog links to `/dir/`: normalise before
comparing). Internal nodes are navigation pages, leaves are content pages.
External noise links point to `http://www.example.com/`, `mailto:`, `tel:`,
`javascript:` or `#fragments`.

`check(name)` verifies: the truth is a tree rooted at index.html, every node is
an existing file (`PATH?QUERY` nodes: a file `PATH@QUERY`), every child is
linked from its parent's HTML or from a page of the parent's rel="next" chain
(a paginated listing), every internal href resolves to an existing file (as
server.py answers it: `_redirects` rules and `/dir` -> `/dir/` followed, a query
served from `PATH@QUERY` if that file exists, else ignored), every file is
either a tree node or listed in not_in_tree, and every file is reachable by
links from index.html.

{chr(10).join(rows)}"""
    with open(os.path.join(HERE, "README.md"), "w", encoding="utf-8") as fh:
        fh.write(text)


def main(argv):
    only_check = "--check" in argv
    names = [a for a in argv if not a.startswith("--")] or list(SITES)
    unknown = [n for n in names if n not in SITES]
    if unknown:
        raise SystemExit(f"unknown site(s): {', '.join(unknown)}")
    if not only_check:
        for name in names:
            site = SITES[name][0]()
            if site.name != name:
                raise AssertionError(f"builder for {name} made {site.name}")
            site.write()
    stats = {}
    for name in SITES if set(names) == set(SITES) else names:
        stats[name] = check(name)
        print(f"{name:15} " + " ".join(f"{k}={v}" for k, v in stats[name].items()))
    if not only_check and set(names) == set(SITES):
        write_readme(stats)


if __name__ == "__main__":
    main(sys.argv[1:])
