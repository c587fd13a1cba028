"""``scrapy diff OLD NEW``: what changed in the skeleton between two crawls in Redis."""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from skeleton.commands._output import check_output_option, closed_stdout_ok, write_output
from skeleton.commands._recorded import check_crawl, load_hash, redis_client
from skeleton.commands.tree import crawl_tree
from skeleton.diff import Skeleton, diff_skeletons, render_diff, tree_parents
from skeleton.store.keys import CrawlKeys

__all__ = ["Command", "load_skeleton"]


def load_skeleton(server: Any, crawl: str) -> Skeleton:
    """The skeleton tree of a recorded crawl, with its pages' navigation flags."""
    keys = CrawlKeys(check_crawl(server, crawl))
    pages = {url: r for url, r in load_hash(server, keys.pages).items() if isinstance(r, dict)}
    parents = tree_parents(crawl_tree(server, keys, pages))
    navigation = {url: bool(pages[url].get("is_navigation")) for url in parents}
    return Skeleton(parents, navigation)


class Command(ScrapyCommand):
    requires_project = True
    default_settings = {"LOG_ENABLED": False}

    def syntax(self) -> str:
        return "OLD NEW [--json] [-o FILE] [--exit-code]"

    def short_desc(self) -> str:
        return "Compare the skeletons of two crawls"

    def long_desc(self) -> str:
        return ("Compare the skeleton trees of two crawls recorded in Redis (crawl ids OLD "
                "and NEW): pages added, removed, moved to another parent, and navigation "
                "pages that became content pages or the reverse.")

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--json", action="store_true", help="print the changes as JSON")
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
        with redis_client(self.settings) as server:
            old, new = (load_skeleton(server, crawl) for crawl in args)
        diff = diff_skeletons(old, new)
        if opts.json:
            report = {"old": args[0], "new": args[1], "changed": diff.changed, **diff.as_dict()}
            out = json.dumps(report, indent=1, ensure_ascii=False) + "\n"
        else:
            out = f"skeleton of {args[0]} ({len(old.parents)} pages) -> {args[1]} " \
                  f"({len(new.parents)} pages)\n" + render_diff(diff, new)
        if opts.output:
            write_output(opts.output, out)
        else:
            sys.stdout.write(out)
        if opts.exit_code and diff.changed:
            self.exitcode = 1
