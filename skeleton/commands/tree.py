"""``scrapy tree``: print or save the skeleton tree of a crawl recorded in Redis."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from typing import Any

from scrapy.exceptions import UsageError

from skeleton.cli import CRAWL, OUTPUT, SkeletonCommand, format_option
from skeleton.commands._recorded import recorded_crawl
from skeleton.store.keys import META_BASE, CrawlKeys
from skeleton.store.meta import fetched_count, meta_fields
from skeleton.tree import build_tree, failed_status, not_found_report
from skeleton.exports.formats import TREE, tree_export
from skeleton.exports.output import write_output
from skeleton.exports.sitemap import MAX_URLS, sitemap_files, sitemap_urls
from skeleton.hierarchy.scoring import EdgeModelError
from skeleton.hierarchy.aliases import final_url
from skeleton.store.sitemap import sitemap_report
from skeleton.store.tree import crawl_edges, stored_aliases, stored_pages

__all__ = ["Command", "crawl_tree", "load_crawl_tree", "load_crawl_pages_tree"]


def crawl_tree(server: Any, keys: CrawlKeys,
               pages: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """The nested tree of a recorded crawl's fetched ``pages``, from its base URL
    along the resolved tree (stored when the crawl finished, else resolved now from
    every page's offers), with the URLs the site answered Not Found as the root's
    ``"not_found"`` (:func:`skeleton.tree.not_found_report`; none: no key); a usage
    error if the root page was not fetched."""
    root = final_url(meta_fields(server, keys, META_BASE)[0], stored_aliases(server, keys))
    try:
        edges = crawl_edges(server, keys, dict(pages))
    except EdgeModelError as exc:
        raise UsageError(str(exc)) from None
    tree = build_tree(root, pages, edges)
    if tree is None:
        raise UsageError(f"crawl {keys.crawl!r} has no fetched root page ({root or 'no base URL'})")
    missing = not_found_report(pages)
    if missing:
        tree["not_found"] = missing
    return tree


def load_crawl_tree(settings: Any, crawl: str | None) -> tuple[str, dict[str, Any], int]:
    """The crawl id, nested tree and number of fetched pages of a crawl in Redis:
    the pages the crawl analysed (``:meta`` field ``fetched``: a page fetched under
    two URLs, or twice, counts twice), at least its recorded pages that did not fail."""
    with recorded_crawl(settings, crawl) as (server, keys):
        pages = stored_pages(server, keys)
        try:
            fetched = fetched_count(server, keys)
        except ValueError:
            fetched = 0
        analysed = sum(1 for record in pages.values() if failed_status(record) is None)
        return keys.crawl, crawl_tree(server, keys, pages), max(fetched, analysed)


def load_crawl_pages_tree(settings: Any,
                          crawl: str | None) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """The crawl id, nested tree and page records of a crawl in Redis. A crawl
    that read the site's sitemap (``SKELETON_SITEMAP``) has its report on the
    root: ``"sitemap": {"urls", "matched", "orphans", "missing"}``
    (:func:`skeleton.store.sitemap.sitemap_report`; no node is added)."""
    with recorded_crawl(settings, crawl) as (server, keys):
        pages = stored_pages(server, keys)
        tree = crawl_tree(server, keys, pages)
        report = sitemap_report(server, keys)
        if report is not None:
            tree["sitemap"] = report.as_dict()
        return keys.crawl, tree, pages


class Command(SkeletonCommand):
    """Print the skeleton tree of a crawl

    Print the skeleton tree of a crawl recorded in Redis (the only or most recently started
    crawl unless --crawl is given): JSON, an indented outline, CSV (one row per page), GraphML
    (networkx, Gephi), a sitemap.xml (split with an index past 50,000 URLs), one
    self-contained HTML page to browse and search (an outline beside a diagram) or the
    diagram alone as a static SVG.
    """

    usage = "[--crawl ID] [-o FILE] [--format json|text|csv|graphml|sitemap|html|svg]"
    options = (CRAWL, OUTPUT,
               format_option(TREE, "output format (default: json, or the one FILE's suffix names: .txt, .csv, "
                                   ".graphml, .xml (sitemap), .html, .svg, .json)"))

    def execute(self, args: list[str], opts: argparse.Namespace) -> None:
        assert self.settings is not None
        fmt = self.output_format(opts)
        crawl, tree, pages = load_crawl_pages_tree(self.settings, opts.crawl)
        if fmt == "sitemap":
            self._sitemaps(opts.output, tree, pages)
        else:
            write_output(opts.output, tree_export(fmt, tree, pages, crawl))

    @staticmethod
    def _sitemaps(output: str | None, tree: dict[str, Any], pages: Mapping[str, Any]) -> None:
        """One sitemap, or (past 50,000 URLs) the parts and their index next to ``output``."""
        files = sitemap_files(output or "sitemap.xml", tree["url"], sitemap_urls(tree, pages))
        if not output:
            if len(files) > 1:
                raise UsageError(f"the tree needs {len(files) - 1} sitemaps (over {MAX_URLS} URLs): "
                                 "write them with -o FILE")
            sys.stdout.write(next(iter(files.values())))
            return
        for name, document in files.items():
            write_output(name, document)
