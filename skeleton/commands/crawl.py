"""``scrapy crawl``, checking spider arguments before the crawl starts.

A spider class with a ``check_arguments(**spider_args)`` static method gets its
``-a`` arguments checked first, so a missing or malformed argument ends the
command with one usage error line instead of a traceback from the reactor.
"""
from __future__ import annotations

import argparse

from scrapy.commands import crawl

__all__ = ["Command"]


class Command(crawl.Command):
    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if len(args) == 1 and self.crawler_process is not None:
            try:
                spidercls = self.crawler_process.spider_loader.load(args[0])
            except KeyError:
                spidercls = None  # Scrapy's own command reports it
            check = getattr(spidercls, "check_arguments", None)
            if callable(check):
                check(**opts.spargs)
        super().run(args, opts)
