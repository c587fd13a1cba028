"""``scrapy crawls``: list the crawls recorded in Redis, or delete one."""
from __future__ import annotations

import argparse
import json
import sys

from scrapy.exceptions import UsageError

from skeleton.cli import SkeletonCommand, json_option, option
from skeleton.commands._recorded import check_crawl, redis_client
from skeleton.store.crawls import crawl_info, delete_crawl, recorded_crawls

__all__ = ["Command"]


def _size(count: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if count < 1024 or unit == "GB":
            return f"{count:.0f} {unit}" if unit == "B" else f"{count:.1f} {unit}"
        count /= 1024  # type: ignore[assignment]
    return str(count)


class Command(SkeletonCommand):
    """List the crawls recorded in Redis, or delete one

    List the crawls recorded in Redis, most recent first: id, base URL, state (running,
    finished, stopped, interrupted), pages, start time and size in Redis. --delete ID deletes
    every key of a crawl (refused while one of its workers is alive, unless --force).
    """

    usage = "[--json] [--delete ID [--force]]"
    options = (json_option("print JSON (one object per crawl)"),
               option("--delete", metavar="ID", help="delete the crawl ID and all its data"),
               option("--force", action="store_true", help="delete even while workers are alive"))

    def execute(self, args: list[str], opts: argparse.Namespace) -> None:
        assert self.settings is not None
        lease = self.settings.getfloat("SKELETON_LEASE_TIMEOUT", 60.0)
        with redis_client(self.settings) as server:
            if opts.delete:
                crawl = check_crawl(server, opts.delete)
                info = crawl_info(server, crawl, lease)
                if info.workers and not opts.force:
                    raise UsageError(f"crawl {crawl!r} has {info.workers} worker(s) alive: stop them "
                                     "first, or give --force")
                deleted = delete_crawl(server, crawl)
                print(f"deleted crawl {crawl} ({deleted} keys, {_size(info.bytes)})")
                return
            crawls = recorded_crawls(server, lease)
        if opts.json:
            print(json.dumps([info.as_dict() for info in crawls], indent=1))
            return
        if not crawls:
            print("no crawl recorded yet: run 'scrapy crawl skeleton -a base=URL' first", file=sys.stderr)
            return
        rows = [("CRAWL", "BASE", "STATE", "PAGES", "STARTED", "SIZE")]
        rows += [(i.crawl, i.base, i.state, str(i.pages), i.started[:19], _size(i.bytes)) for i in crawls]
        widths = [max(len(row[n]) for row in rows) for n in range(len(rows[0]))]
        for row in rows:
            print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
