"""``scrapy diff OLD NEW``: what changed in the skeleton between two crawls in Redis.

As text (default), JSON (``--json`` or ``--format json``), or a picture
(``--format html|svg``, or the suffix of ``-o FILE``): one diagram of both trees
(:func:`skeleton.diff.marked_tree`), the added, removed and moved pages and
sections coloured in the same view, with a legend (:func:`skeleton.exports.formats.diff_export`)."""
from __future__ import annotations

import argparse
from typing import Any

from scrapy.exceptions import UsageError

from skeleton.cli import OUTPUT, SkeletonCommand, format_option, json_option, option
from skeleton.commands._recorded import check_crawl, redis_client
from skeleton.store.tree import stored_pages
from skeleton.commands.tree import crawl_tree
from skeleton.diff import Skeleton, diff_skeletons, render_diff, tree_parents
from skeleton.exports.formats import DIFF, diff_export
from skeleton.exports.output import write_output
from skeleton.store.keys import CrawlKeys

__all__ = ["Command", "load_skeleton", "load_skeleton_tree"]


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


class Command(SkeletonCommand):
    """Compare the skeletons of two crawls

    Compare the skeleton trees of two crawls recorded in Redis (crawl ids OLD and NEW): pages
    added, removed, moved to another parent, and navigation pages that became content pages
    or the reverse; as text, JSON, or a picture (--format html or svg): one diagram of both
    trees, added, removed and moved sections coloured.
    """

    usage = "OLD NEW [--json | --format text|json|html|svg] [-o FILE] [--exit-code]"
    options = (json_option("print the changes as JSON (--format json)"),
               format_option(DIFF, "output format (default: text, or the one FILE's suffix names: .json, "
                                   ".html, .svg)"),
               OUTPUT,
               option("--exit-code", action="store_true",
                      help="exit with status 1 if the skeletons differ (as diff(1))"))

    def check_arguments(self, args: list[str], opts: argparse.Namespace) -> None:
        if len(args) != 2:
            raise UsageError("give two crawl ids: scrapy diff OLD NEW")

    def execute(self, args: list[str], opts: argparse.Namespace) -> None:
        assert self.settings is not None
        fmt = self.output_format(opts)
        with redis_client(self.settings) as server:
            (old, old_tree), (new, new_tree) = (load_skeleton_tree(server, crawl) for crawl in args)
        diff = diff_skeletons(old, new)
        report = f"skeleton of {args[0]} ({len(old.parents)} pages) -> {args[1]} " \
                 f"({len(new.parents)} pages)\n" + render_diff(diff, new)
        write_output(opts.output, diff_export(fmt, (args[0], args[1]), diff, (old_tree, new_tree), report))
        if opts.exit_code and diff.changed:
            self.exitcode = 1
