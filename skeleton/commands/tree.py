"""``scrapy tree``: print or save the skeleton tree of a crawl recorded in Redis."""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from skeleton.commands._output import check_output_option, closed_stdout_ok, write_output
from skeleton.commands._recorded import no_arguments, recorded_crawl
from skeleton.store.keys import META_BASE, CrawlKeys
from skeleton.store.meta import fetched_count, meta_fields
from skeleton.tree import build_tree, failed_status, render_csv, render_text
from skeleton.exports.diagram import to_svg
from skeleton.exports.graphml import to_graphml
from skeleton.exports.html import to_html
from skeleton.exports.sitemap import MAX_URLS, sitemap_files, sitemap_urls
from skeleton.hierarchy.scoring import EdgeModelError
from skeleton.hierarchy.aliases import final_url
from skeleton.store.sitemap import sitemap_report
from skeleton.store.tree import crawl_edges, stored_aliases, stored_pages

__all__ = ["Command", "FORMATS", "crawl_tree", "load_crawl_tree", "load_crawl_pages_tree"]

FORMATS = ("json", "text", "csv", "graphml", "sitemap", "html", "svg")
#: the format an output file's suffix names, when --format is not given
SUFFIX_FORMATS = {"txt": "text", "csv": "csv", "graphml": "graphml", "xml": "sitemap", "html": "html",
                  "htm": "html", "svg": "svg", "json": "json"}


def crawl_tree(server: Any, keys: CrawlKeys,
               pages: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """The nested tree of a recorded crawl's fetched ``pages``, from its base URL
    along the resolved tree (stored when the crawl finished, else resolved now from
    every page's offers); a usage error if the root page was not fetched."""
    root = final_url(meta_fields(server, keys, META_BASE)[0], stored_aliases(server, keys))
    try:
        edges = crawl_edges(server, keys, dict(pages))
    except EdgeModelError as exc:
        raise UsageError(str(exc)) from None
    tree = build_tree(root, pages, edges)
    if tree is None:
        raise UsageError(f"crawl {keys.crawl!r} has no fetched root page ({root or 'no base URL'})")
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


class Command(ScrapyCommand):
    requires_project = True
    default_settings = {"LOG_ENABLED": False}

    def syntax(self) -> str:
        return "[--crawl ID] [-o FILE] [--format json|text|csv|graphml|sitemap|html|svg]"

    def short_desc(self) -> str:
        return "Print the skeleton tree of a crawl"

    def long_desc(self) -> str:
        return ("Print the skeleton tree of a crawl recorded in Redis (the only or most "
                "recently started crawl unless --crawl is given): JSON, an indented outline, CSV "
                "(one row per page), GraphML (networkx, Gephi), a sitemap.xml (split with an "
                "index past 50,000 URLs), one self-contained HTML page to browse and search (an "
                "outline beside a diagram) or the diagram alone as a static SVG.")

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--crawl", help="crawl id (default: the most recent crawl)")
        parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE, not stdout")
        parser.add_argument("--format", choices=FORMATS, default=None,
                            help="output format (default: json, or the one FILE's suffix names: "
                                 ".txt, .csv, .graphml, .xml (sitemap), .html, .svg, .json)")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        with closed_stdout_ok():
            self._run(args, opts)

    def _run(self, args: list[str], opts: argparse.Namespace) -> None:
        no_arguments(args)
        check_output_option(opts.output)
        assert self.settings is not None
        crawl, tree, pages = load_crawl_pages_tree(self.settings, opts.crawl)
        suffix = Path(opts.output or "").suffix.lower().lstrip(".")
        fmt = opts.format or SUFFIX_FORMATS.get(suffix, "json")
        if fmt == "sitemap":
            self._sitemaps(opts.output, tree, pages)
            return
        if fmt == "json":
            out = json.dumps(tree, indent=1, ensure_ascii=False) + "\n"
        elif fmt == "csv":
            out = render_csv(tree, pages)
        elif fmt == "graphml":
            out = to_graphml(tree, pages)
        elif fmt == "html":
            out = to_html(tree, crawl)
        elif fmt == "svg":
            out = to_svg(tree, f"Skeleton of {tree['url']} (crawl {crawl})")
        else:
            out = render_text(tree)
        if opts.output:
            write_output(opts.output, out)
        else:
            sys.stdout.write(out)

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
