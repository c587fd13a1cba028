"""``scrapy diff OLD NEW``: what changed in the skeleton between two crawls in Redis.

As text (default), JSON (``--json`` or ``--format json``), or a picture
(``--format html|svg``, or the suffix of ``-o FILE``): one diagram of both trees
(:func:`skeleton.diff.marked_tree`), the added, removed and moved pages and
sections coloured in the same view, with a legend (:func:`skeleton.exports.diagram.to_svg`;
the HTML page is the tree viewer with the text report above it,
:func:`skeleton.exports.html.diff_html`)."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from skeleton.commands._output import check_output_option, closed_stdout_ok, write_output
from skeleton.commands._recorded import check_crawl, redis_client
from skeleton.store.tree import stored_pages
from skeleton.commands.tree import crawl_tree
from skeleton.diff import Skeleton, diff_skeletons, marked_tree, render_diff, tree_parents
from skeleton.exports.diagram import to_svg
from skeleton.exports.html import diff_html
from skeleton.store.keys import CrawlKeys

__all__ = ["Command", "FORMATS", "load_skeleton", "load_skeleton_tree"]

#: the output formats; a picture's also follows the suffix of -o FILE
FORMATS = ("text", "json", "html", "svg")
SUFFIX_FORMATS = {"json": "json", "html": "html", "htm": "html", "svg": "svg"}


def load_skeleton_tree(server: Any, crawl: str) -> tuple[Skeleton, dict[str, Any]]:
    """The skeleton of a recorded crawl, with its pages' navigation flags, and its
    nested tree."""
    keys = CrawlKeys(check_crawl(server, crawl))
    pages = {url: r for url, r in stored_pages(server, keys).items() if isinstance(r, dict)}
    tree = crawl_tree(server, keys, pages)
    parents = tree_parents(tree)
    navigation = {url: bool(pages[url].get("is_navigation")) for url in parents}
    return Skeleton(parents, navigation), tree


def load_skeleton(server: Any, crawl: str) -> Skeleton:
    """The skeleton tree of a recorded crawl, with its pages' navigation flags."""
    return load_skeleton_tree(server, crawl)[0]


class Command(ScrapyCommand):
    requires_project = True
    default_settings = {"LOG_ENABLED": False}

    def syntax(self) -> str:
        return "OLD NEW [--json | --format text|json|html|svg] [-o FILE] [--exit-code]"

    def short_desc(self) -> str:
        return "Compare the skeletons of two crawls"

    def long_desc(self) -> str:
        return ("Compare the skeleton trees of two crawls recorded in Redis (crawl ids OLD "
                "and NEW): pages added, removed, moved to another parent, and navigation "
                "pages that became content pages or the reverse; as text, JSON, or a picture "
                "(--format html or svg): one diagram of both trees, added, removed and moved "
                "sections coloured.")

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--json", action="store_true", help="print the changes as JSON (--format json)")
        parser.add_argument("--format", choices=FORMATS, default=None,
                            help="output format (default: text, or the one FILE's suffix names: .json, "
                                 ".html, .svg)")
        parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE, not stdout")
        parser.add_argument("--exit-code", action="store_true",
                            help="exit with status 1 if the skeletons differ (as diff(1))")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        with closed_stdout_ok():
            self._run(args, opts)

    def _run(self, args: list[str], opts: argparse.Namespace) -> None:
        if len(args) != 2:
            raise UsageError("give two crawl ids: scrapy diff OLD NEW")
        check_output_option(opts.output)
        assert self.settings is not None
        fmt = "json" if opts.json else opts.format or SUFFIX_FORMATS.get(
            Path(opts.output or "").suffix.lower().lstrip("."), "text")
        if opts.json and opts.format not in (None, "json"):
            raise UsageError(f"--json and --format {opts.format} disagree: give one")
        with redis_client(self.settings) as server:
            (old, old_tree), (new, new_tree) = (load_skeleton_tree(server, crawl) for crawl in args)
        diff = diff_skeletons(old, new)
        text = f"skeleton of {args[0]} ({len(old.parents)} pages) -> {args[1]} " \
               f"({len(new.parents)} pages)\n" + render_diff(diff, new)
        title = f"Skeleton changes from {args[0]} to {args[1]}"
        if fmt == "json":
            report = {"old": args[0], "new": args[1], "changed": diff.changed, **diff.as_dict()}
            out = json.dumps(report, indent=1, ensure_ascii=False) + "\n"
        elif fmt == "svg":
            out = to_svg(marked_tree(old_tree, new_tree), title)
        elif fmt == "html":
            out = diff_html(marked_tree(old_tree, new_tree), title, text)
        else:
            out = text
        if opts.output:
            write_output(opts.output, out)
        else:
            sys.stdout.write(out)
        if opts.exit_code and diff.changed:
            self.exitcode = 1
