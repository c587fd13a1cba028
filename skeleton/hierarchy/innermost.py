"""Innermost listings: a page listed by nested sections hangs from the innermost.

The site's truth rule (``shared/corpus/README.md``): a content page's parent is
the section whose own listing files it, and where listings nest (a blog home
listing every post, a category listing some; a category listing its
sub-categories' posts too) the innermost section that lists the page is its
parent. A blog post's parent is its category when the site's menu shows the
categories; a tag or author page lists posts as well, but no menu files it, so it
is a view (:mod:`.views`), not a section.

The scored tree (:mod:`.arborescence`) may hang a post from the coarser listing
(the home page's paginated list, a blog index) when nothing on the post names
its category. :func:`innermost_parents` moves such a page to the innermost
**section** that lists it:

* a page the home page's **site menu** offers: a navigation set of the home page
  that at least ``MENU_SHARE`` of the other pages repeat (:func:`site_menus`; a
  post's category and tag links on the home page's post list are no menu) that
  does not list the page itself and offers at least ``MIN_SECTIONS`` listings
  inside its parent's, or
* a listing that lies inside the listing of such a section that lists it or
  whose URL folder holds it (a sub-category of a category), recursively;

and whose listing lies inside the listing of the page's parent (the parent lists at
least ``NEST_SHARE`` of its pages, and more pages) without holding nearly all of
what the parent's sets that list the same pages hold (an archive of every post, in
the menu too, is no section), nor is one that a set of the parent lists beside the
page (a story beside a story in a "most read" box). A page that a menu of sections
offers (About beside the categories) stays where it is. A page whose own
breadcrumb, up link or declared section names a parent other than its URL folder
stays there (:func:`declared_elsewhere`). Structure only: no word or class name is
read.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Collection, Mapping

from .facts import PageFacts
from .features import INSIDE_MIN, INSIDE_SHARE

__all__ = ["MAX_SECTION_DEPTH", "MENU_LISTINGS_READ", "MENU_SHARE", "MIN_SECTIONS", "NEST_SHARE", "declared_elsewhere",
           "descends", "innermost_parents", "site_menus"]

#: a section's listing lies inside its parent's when the parent lists at least this share
#: of it (a group page also lists its sub-groups' pages, which only deeper pages show)
NEST_SHARE = 0.6
#: a set of the home page is the site menu when at least this share of the other pages repeat it
MENU_SHARE = 0.5
#: a site menu names sections when it offers at least this many listings inside the page's parent's
MIN_SECTIONS = 2
#: the listings of a site menu read to find ``MIN_SECTIONS`` inside a parent's listing
MENU_LISTINGS_READ = 64
#: sections nest at most this deep below the one the home page's menu offers
MAX_SECTION_DEPTH = 8


def site_menus(root: str, pages: Mapping[str, PageFacts | None]) -> set[str]:
    """The signatures of the navigation sets that at least ``MENU_SHARE`` of the
    pages other than ``root`` repeat (``PageFacts.menus``): the site menus. One
    pass over the pages."""
    counts: Counter[str] = Counter()
    others = 0
    for url, facts in pages.items():
        if url != root and facts is not None:
            others += 1
            counts.update(facts.menus)
    return {sig for sig, n in counts.items() if n >= MENU_SHARE * others}


def declared_elsewhere(pages: Mapping[str, PageFacts | None], folders: Mapping[str, str]) -> set[str]:
    """The pages whose own breadcrumb, up link or filed section names a parent other
    than their URL folder's page (``folders``: :func:`.peers.folder_tree`). A
    breadcrumb that only repeats the URL folders (Hugo's JSON-LD trail of a post in
    ``/blog/``) says nothing the URL does not; one that names another page is the
    site's own filing, which :func:`innermost_parents` never overrules."""
    out = set()
    for url, facts in pages.items():
        if facts is not None and (facts.up or facts.filed or facts.crumbs) \
                and not {*facts.up, *facts.filed, *facts.crumbs[-1:]} <= {folders.get(url)}:
            out.add(url)
    return out


def innermost_parents(root: str, parents: Mapping[str, str],
                      listings: Mapping[str, Mapping[str, set[str]]],
                      declared: Collection[str] = (), menus: Collection[str] = (),
                      folders: Mapping[str, str] | None = None) -> dict[str, str]:
    """The pages of the tree ``parents`` (child -> parent, rooted at ``root``) that an
    innermost section lists, each with that section: child -> new parent.

    ``listings`` is the crawl's :func:`.views.listing_items` (page -> the sets of
    its own, ``sig`` -> the pages each lists); ``declared`` holds the pages whose
    own evidence names their parent (:func:`declared_elsewhere`), which are never
    moved; ``menus`` the signatures of the site menus
    (:func:`site_menus`); ``folders`` each page's URL-folder parent
    (:func:`.peers.folder_tree`). Linear in the listings' items: each comparison of a
    section's listing with a parent's reads the section's listing once, and is made
    once per pair of pages."""
    folders = folders or {}
    items: dict[str, Collection[str]] = {}

    def listing(page: str) -> Collection[str]:
        found = items.get(page)
        if found is None:
            sets = list(listings.get(page, {}).values())
            found = items[page] = sets[0] if len(sets) == 1 else set().union(*sets)
        return found

    # the listings: pages that list INSIDE_MIN pages or more
    listings_of_size = {page for page, sets in listings.items() if sum(map(len, sets.values())) >= INSIDE_MIN}
    inside_cache: dict[tuple[str, str], bool] = {}

    # page -> (its sets' sizes, item -> the indexes of the sets that list it)
    set_index: dict[str, tuple[list[int], dict[str, list[int]]]] = {}

    def same_size(large: str, a: Collection[str]) -> int:
        """How many pages the sets of ``large`` that list a page of ``a`` list (set by
        set: a page two of them list counts twice). Reads ``a`` once."""
        found = set_index.get(large)
        if found is None:
            sets = list(listings.get(large, {}).values())
            where: dict[str, list[int]] = defaultdict(list)
            for n, listed in enumerate(sets):
                for item in listed:
                    where[item].append(n)
            found = set_index[large] = ([len(listed) for listed in sets], where)
        sizes, where = found
        return sum(sizes[n] for n in {n for i in a for n in where.get(i, ())})

    def inside(small: str, large: str) -> bool:
        """Does the listing of ``small`` lie inside that of ``large`` (at least
        ``NEST_SHARE`` of its pages, and fewer pages) without holding ``INSIDE_SHARE`` of what
        ``large``'s sets of the same pages list (an archive of every post is no section
        of the home page; a category, one of several, is)?"""
        key = (small, large)
        found = inside_cache.get(key)
        if found is None:
            a, b = listing(small), listing(large)
            found = False
            if INSIDE_MIN <= len(a) < len(b):
                held = sum(1 for i in a if i in b)
                found = NEST_SHARE * len(a) <= held < INSIDE_SHARE * same_size(large, a)
            inside_cache[key] = found
        return found

    # the home page's site menus, by the pages they offer
    menu: dict[str, list[set[str]]] = defaultdict(list)
    for sig, listed in listings.get(root, {}).items():
        if sig not in menus:
            continue
        for page in listed:
            menu[page].append(listed)

    # listing -> the listings that list it, and the page whose URL folder holds it
    # (holding its listing, they are sections above it)
    listers: dict[str, list[str]] = defaultdict(list)
    for page in listings_of_size:
        if page != root:
            for listed in listings[page].values():
                for item in listed:
                    if item in listings_of_size and item != page:
                        listers[item].append(page)
    for page in listings_of_size:
        above = folders.get(page)
        if above is not None and above != root and above != page and above in listings_of_size:
            listers[page].append(above)

    tops_cache: dict[str, frozenset[str]] = {}

    def tops(page: str, depth: int = 0) -> frozenset[str]:
        """The pages a site menu offers that ``page`` is, or lies inside through a
        chain of listings, each listing the one below and holding its listing."""
        found = tops_cache.get(page)
        if found is None:
            tops_cache[page] = frozenset()  # a cycle of listings stops here
            out = {page} if page in menu else set()
            if depth < MAX_SECTION_DEPTH:
                for above in set(listers.get(page, ())):
                    if inside(page, above):
                        out |= tops(above, depth + 1)
            found = tops_cache[page] = frozenset(out)
        return found

    sections_cache: dict[tuple[int, str], int] = {}
    menu_listings: dict[int, list[str]] = {}

    def sections_in(listed: set[str], parent: str) -> int:
        """How many of the first ``MENU_LISTINGS_READ`` listings of the menu set ``listed``
        lie inside ``parent``'s, up to ``MIN_SECTIONS`` (a whole-tree sidebar of
        thousands of pages is read that far, whatever the number of parents)."""
        key = (id(listed), parent)
        found = sections_cache.get(key)
        if found is None:
            pages = menu_listings.get(id(listed))
            if pages is None:
                pages = menu_listings[id(listed)] = sorted(p for p in listed if p in listings_of_size)
            found = 0
            for page in pages[:MENU_LISTINGS_READ]:
                if found >= MIN_SECTIONS:
                    break
                found += inside(page, parent)
            sections_cache[key] = found
        return found

    def section(page: str, leaf: str, parent: str) -> bool:
        # a page above it (or itself) is offered by a site menu that does not list the
        # leaf and offers at least MIN_SECTIONS listings inside the leaf's parent's (an
        # archive of every post alone in the menu is no section)
        return any(leaf not in listed and sections_in(listed, parent) >= MIN_SECTIONS
                   for top in tops(page) for listed in menu[top])

    sections = {page for page in listings_of_size if page != root and page in parents and tops(page)}
    listed_by: dict[str, list[str]] = defaultdict(list)
    for page in sections:
        for listed in listings[page].values():
            for item in listed:
                if item in parents and item not in declared:
                    listed_by[item].append(page)

    # parent -> section -> the parent's sets that list the section (a story beside a
    # story in one list is no section of it)
    beside: dict[str, dict[str, list[set[str]]]] = {}

    def co_listed(page: str, child: str, parent: str) -> bool:
        # a set of the parent lists both: a story beside a story, not a section
        found = beside.get(parent)
        if found is None:
            found = beside[parent] = defaultdict(list)
            for listed in listings.get(parent, {}).values():
                for section in listed:
                    if section in sections:
                        found[section].append(listed)
        return any(child in listed for listed in found.get(page, ()))

    tree = dict(parents)
    moved: dict[str, str] = {}
    for child in sorted(listed_by):
        parent = tree[child]
        if child not in listing(parent) or any(sections_in(listed, parent) >= MIN_SECTIONS
                                               for listed in menu.get(child, ())):
            continue  # a page of a menu of sections is filed by the menu, where it stands
        best: tuple[int, str] | None = None
        for page in listed_by[child]:
            if page in (parent, child) or not inside(page, parent) or not section(page, child, parent) \
                    or co_listed(page, child, parent) or descends(page, child, tree, root):
                continue
            key = (len(listing(page)), page)
            if best is None or key < best:
                best = key
        if best is not None:
            tree[child] = moved[child] = best[1]
    # a sub-section whose parent's listing does not hold its own hangs from the
    # section whose URL folder holds it, when that one's listing does
    for page in sorted(sections):
        parent, above = tree[page], folders.get(page)
        if page in declared or above is None or above in (parent, page) or above not in sections \
                or inside(page, parent) or not inside(page, above) or descends(above, page, tree, root):
            continue
        tree[page] = moved[page] = above
    return moved


def descends(page: str, ancestor: str, tree: Mapping[str, str], root: str) -> bool:
    """Is ``ancestor`` on the path from ``page`` up to ``root`` in ``tree``?"""
    seen = 0
    while page != root and seen <= len(tree):
        if page == ancestor:
            return True
        page = tree.get(page, root)
        seen += 1
    return False
