"""``scrapy crawl``, checking spider arguments, settings and Redis before the crawl starts.

Every setting the crawl reads is checked first, before Scrapy builds its crawler
process (a type or range it cannot read: :mod:`skeleton.setting_types`). A spider
class with a ``check_arguments(**spider_args)`` static method gets its ``-a``
arguments checked next, settings that would delete keys shared with
other workers are refused (``SCHEDULER_PERSIST=False``; ``SCHEDULER_FLUSH_ON_START``
while other workers of the crawl are alive), so is a stop-word language with no
list (``SKELETON_ENTROPY_LANGUAGE``), and the Redis server it will use
is pinged once, and a crawl id holding an unfinished crawl of another base URL is
refused (:func:`skeleton.extensions.lifecycle.refuse_other_base`), so a missing or
malformed argument, a refused setting, a crawl that would mix two sites or a
Redis that cannot be reached ends the command with one error line (exit code 2)
instead of a traceback from the reactor. So does a local feed file (``-o``/``-O``,
``FEEDS``) that cannot be written (a directory, a file where a directory should
be, a directory without write permission), checked before the crawl rather than
when Scrapy's feed export opens it at the end. A crawl stopped because Redis went
away mid-crawl or could not write (:mod:`skeleton.store.outage`), or refused when it opened (another
worker started the crawl id with another base meanwhile), exits with code 1. A
crawl under a default crawl id that is not recorded yet logs where an unfinished
crawl of the same base and mode is recorded, if one is (default ids changed).
"""
from __future__ import annotations

import argparse
import logging
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from scrapy import signals
from scrapy.commands import crawl
from scrapy.exceptions import UsageError

from skeleton.crawl_settings import crawl_settings
from skeleton.store import outage
from skeleton.cli import output_errors
from skeleton.commands._recorded import probe_redis
from skeleton.middlewares.entropy import configured_stop_words
from skeleton.extensions.lifecycle import BASE_MISMATCH, CRAWL_PAGES_STAT, refuse_other_base
from skeleton.spiders.failures import BASE_FAILED_STAT
from skeleton.spiders.skeleton import BASE_REDIRECT_STAT
from skeleton.exports.feed import FEED_FORMATS, fill_feed, tree_positions
from skeleton.hierarchy.aliases import final_url
from skeleton.setting_types import SettingTypeError, check_setting_types
from skeleton.store.keys import META_BASE, META_FINISH_REASON, META_TREE_PAGES, CrawlKeys
from skeleton.store.meta import FINISHED, is_opened, read_meta, unfinished_crawls_of
from skeleton.store.server import connect
from skeleton.store.tree import stored_aliases, stored_tree
from skeleton.files import OutputError, check_output
from skeleton.store.scheduler import check_settings, refuse_flush

__all__ = ["Command"]

logger = logging.getLogger(__name__)


def _local_path(uri: str) -> str | None:
    """The file a feed URI names (a ``file://`` URI or a plain path), else None."""
    parts = urlsplit(uri)
    if parts.scheme == "file":
        return unquote(parts.path)
    return uri if not parts.scheme or len(parts.scheme) == 1 else None  # a drive letter is a path


class OneLine(logging.Filter):
    """Keeps a record's message and drops its traceback: Scrapy's robots.txt
    middleware logs one when a site cannot be reached at all, which the crawl
    reports in one line of its own."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.exc_info, record.exc_text = None, None
        return True


#: loggers whose errors are expected site failures, logged without a traceback
ONE_LINE_LOGGERS = ("scrapy.downloadermiddlewares.robotstxt",)


class Command(crawl.Command):
    #: why the crawl of this command closed (``spider_closed`` reasons)
    reasons: list[str]
    #: the crawlers this command ran (their stats decide the exit code)
    crawlers: list[Any]

    def _create_crawler(self, spidercls: Any) -> Any:
        crawler = super()._create_crawler(spidercls)
        crawler.signals.connect(self._closed, signal=signals.spider_closed)
        self.crawlers.append(crawler)
        return crawler

    def _nothing_crawled(self) -> str | None:
        """Why this run crawled nothing useful, as one error line: the base page
        could not be fetched or redirects out of the crawl's scope, or the crawl
        finished without any page recorded."""
        for crawler in self.crawlers:
            crawl = crawl_settings(crawler.settings)
            if crawl is None:
                continue  # not the skeleton spider: no pages of a crawl to count
            stats = crawler.stats.get_stats() if crawler.stats is not None else {}
            base = crawl.base
            failed = stats.get(BASE_FAILED_STAT)
            if failed:
                return f"could not fetch the base page {base} ({failed}): nothing was crawled"
            target = stats.get(BASE_REDIRECT_STAT)
            if target:
                return (f"the base page {base} redirects to {target}, out of the crawl's scope "
                        f"(scheme, host, port and directory of the base URL): nothing else was "
                        f"crawled; to crawl there, start from -a base={target}")
            if stats.get("finish_reason") == "finished" and not stats.get("skeleton/pages") \
                    and not stats.get(CRAWL_PAGES_STAT):
                return f"the crawl of {base} finished without recording any page"
        return None

    def process_options(self, args: list[str], opts: argparse.Namespace) -> None:
        """Scrapy's options, then every setting the crawl reads is checked
        (:mod:`skeleton.setting_types`) before Scrapy builds its crawler process,
        which configures logging from ``LOG_LEVEL``."""
        super().process_options(args, opts)
        assert self.settings is not None
        try:
            check_setting_types(self.settings)
        except SettingTypeError as exc:
            raise UsageError(str(exc), print_help=False) from None

    def _closed(self, spider: Any, reason: str) -> None:
        self.reasons.append(reason)

    @staticmethod
    def _hint_other_crawls(client: Any, crawl_id: str, base: str, mode: Any) -> None:
        """A crawl under a new default id: say where an unfinished crawl of the same
        base is recorded (default ids changed: they end in a hash of the base)."""
        others = unfinished_crawls_of(client, base, str(mode or "sew"))
        if others:
            logger.warning("starting crawl %s of %s afresh; an unfinished crawl of this base "
                           "is recorded as %s: resume it with -a crawl=%s", crawl_id, base,
                           ", ".join(others), others[-1])

    def _check_redis(self, spider_args: dict[str, Any], default_id: bool = False) -> None:
        assert self.settings is not None
        try:
            check_settings(self.settings)
            configured_stop_words(self.settings)  # an unknown SKELETON_ENTROPY_LANGUAGE
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        crawl_id, base = spider_args.get("crawl"), spider_args.get("base")

        def check(client: Any) -> None:
            keys = CrawlKeys(crawl_id)
            if base:
                refuse_other_base(client, keys, base)
                if default_id and not is_opened(client, keys):
                    self._hint_other_crawls(client, crawl_id, base, spider_args.get("mode"))
            refuse_flush(client, keys, self.settings)

        probe_redis(self.settings, check if crawl_id else None)

    def _uses_redis(self, spidercls: Any) -> bool:
        """Does the spider crawl through the project's Redis scheduler (the
        ``template`` spider's own settings name Scrapy's in-memory one)?"""
        assert self.settings is not None
        custom = getattr(spidercls, "custom_settings", None) or {}
        return str(custom.get("SCHEDULER", self.settings.get("SCHEDULER"))).startswith("skeleton.store")

    def _check_feeds(self) -> None:
        """Every local feed file can be written (Scrapy creates missing directories)."""
        assert self.settings is not None
        for uri in self.settings.getdict("FEEDS"):
            path = _local_path(str(uri))
            if path is not None:  # s3://, ftp://, stdout: ... are the storage's business
                with output_errors():
                    check_output(path, make_dirs=True)

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        self.reasons = []
        self.crawlers: list[Any] = []
        for name in ONE_LINE_LOGGERS:
            logging.getLogger(name).addFilter(OneLine())
        self._check_feeds()
        if len(args) == 1 and self.crawler_process is not None:
            try:
                spidercls = self.crawler_process.spider_loader.load(args[0])
            except KeyError:
                spidercls = None  # Scrapy's own command reports it
            check = getattr(spidercls, "check_arguments", None)
            if callable(check):
                checked = check(**opts.spargs)
                if self._uses_redis(spidercls):
                    # a dict, or the skeleton spider's typed arguments (crawl, base, mode)
                    published = getattr(checked, "published", None)
                    found = checked if isinstance(checked, dict) else vars(published) if published else {}
                    self._check_redis(found, default_id=not opts.spargs.get("crawl"))
        super().run(args, opts)
        if outage.any_down() or BASE_MISMATCH in self.reasons:
            self.exitcode = 1
            return
        failure = self._nothing_crawled()
        if failure:
            logger.error(failure)
            self.exitcode = 1
            return
        self._fill_feeds()

    def _local_feeds(self) -> list[tuple[str, str]]:
        """(path, format) of the crawl's local feed files that can hold the tree."""
        assert self.settings is not None
        feeds = []
        for uri, options in self.settings.getdict("FEEDS").items():
            path, fmt = _local_path(str(uri)), str((options or {}).get("format", ""))
            if path and "%(" not in path and fmt in FEED_FORMATS and Path(path).is_file():
                feeds.append((path, fmt))
        return feeds

    def _fill_feeds(self) -> None:
        """Once this worker has finished the crawl and resolved its tree, write each
        page's parent and depth into the local feed files (:mod:`skeleton.exports.feed`):
        the feed then agrees with ``scrapy tree``. A worker that leaves the crawl to
        others leaves them null."""
        feeds = self._local_feeds()
        crawls = [crawl for crawl in map(crawl_settings, (c.settings for c in self.crawlers)) if crawl is not None]
        if not feeds or len(crawls) != 1 or "finished" not in self.reasons:
            return
        assert self.settings is not None
        keys = CrawlKeys(crawls[0].crawl)
        try:
            server = connect(self.settings, retries=0)
            try:
                meta = read_meta(server, keys)
                if not (meta.get(META_FINISH_REASON) == FINISHED and meta.get(META_TREE_PAGES)):
                    logger.info("feeds keep parent and depth null: the crawl's last worker resolves its tree")
                    return
                positions = tree_positions(final_url(meta.get(META_BASE, ""), stored_aliases(server, keys)),
                                           stored_tree(server, keys))
            finally:
                server.close()
            for path, fmt in feeds:
                fill_feed(path, fmt, positions)
        except (*outage.REDIS_ERRORS, OutputError, ValueError) as exc:
            logger.warning("could not write the tree's parents into the feeds: %s", exc)
