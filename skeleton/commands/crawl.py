"""``scrapy crawl``, checking spider arguments and Redis before the crawl starts.

A spider class with a ``check_arguments(**spider_args)`` static method gets its
``-a`` arguments checked first, and the Redis server it will use is pinged, so a
missing or malformed argument, or a Redis that cannot be reached, ends the
command with one error line instead of a traceback from the reactor.
"""
from __future__ import annotations

import argparse

import redis
from scrapy.commands import crawl
from scrapy.exceptions import UsageError

from skeleton.redis_server import connect, redis_url

__all__ = ["Command"]


class Command(crawl.Command):
    def _check_redis(self) -> None:
        url = "the embedded server"
        try:
            url = redis_url(self.settings)
            client = connect(self.settings)
            try:
                client.ping()
            finally:
                client.close()
        except (redis.RedisError, OSError) as exc:
            raise UsageError(f"cannot reach Redis at {url}: {exc}") from None

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if len(args) == 1 and self.crawler_process is not None:
            try:
                spidercls = self.crawler_process.spider_loader.load(args[0])
            except KeyError:
                spidercls = None  # Scrapy's own command reports it
            check = getattr(spidercls, "check_arguments", None)
            if callable(check):
                check(**opts.spargs)
                self._check_redis()
        super().run(args, opts)
