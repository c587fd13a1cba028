"""``scrapy crawl``, checking spider arguments, settings and Redis before the crawl starts.

A spider class with a ``check_arguments(**spider_args)`` static method gets its
``-a`` arguments checked first, settings that would delete keys shared with
other workers are refused (``SCHEDULER_PERSIST=False``; ``SCHEDULER_FLUSH_ON_START``
while other workers of the crawl are alive), so is a stop-word language with no
list (``SKELETON_ENTROPY_LANGUAGE``), and the Redis server it will use
is pinged once, so a missing or malformed argument, a refused setting or a Redis
that cannot be reached ends the command with one error line (exit code 2)
instead of a traceback from the reactor. So does a local feed file (``-o``/``-O``,
``FEEDS``) that cannot be written (a directory, a file where a directory should
be, a directory without write permission), checked before the crawl rather than
when Scrapy's feed export opens it at the end. A crawl stopped because Redis went
away mid-crawl (:mod:`skeleton.outage`) exits with code 1.
"""
from __future__ import annotations

import argparse
from urllib.parse import unquote, urlsplit
from typing import Any

from scrapy.commands import crawl
from scrapy.exceptions import UsageError

from skeleton import outage
from skeleton.commands._output import check_output_option
from skeleton.commands._recorded import probe_redis
from skeleton.middlewares.entropy import configured_stop_words
from skeleton.redis_keys import CrawlKeys
from skeleton.scheduler import check_settings, refuse_flush

__all__ = ["Command"]


class Command(crawl.Command):
    def _check_redis(self, spider_args: dict[str, Any]) -> None:
        assert self.settings is not None
        try:
            check_settings(self.settings)
            configured_stop_words(self.settings)  # an unknown SKELETON_ENTROPY_LANGUAGE
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        crawl_id = spider_args.get("crawl")
        probe_redis(self.settings, (lambda client: refuse_flush(client, CrawlKeys(crawl_id), self.settings))
                    if crawl_id else None)

    def _check_feeds(self) -> None:
        """Every local feed file can be written (Scrapy creates missing directories)."""
        assert self.settings is not None
        for uri in self.settings.getdict("FEEDS"):
            uri = str(uri)
            parts = urlsplit(uri)
            if parts.scheme == "file":
                path = unquote(parts.path)
            elif not parts.scheme or len(parts.scheme) == 1:  # a plain path
                path = uri
            else:
                continue  # s3://, ftp://, stdout: ... are the storage's business
            check_output_option(path, make_dirs=True)

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        self._check_feeds()
        if len(args) == 1 and self.crawler_process is not None:
            try:
                spidercls = self.crawler_process.spider_loader.load(args[0])
            except KeyError:
                spidercls = None  # Scrapy's own command reports it
            check = getattr(spidercls, "check_arguments", None)
            if callable(check):
                checked = check(**opts.spargs)
                self._check_redis(checked if isinstance(checked, dict) else {})
        super().run(args, opts)
        if outage.any_down():
            self.exitcode = 1
