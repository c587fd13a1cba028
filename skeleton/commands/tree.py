"""``scrapy tree``: print or save the skeleton tree of a crawl recorded in Redis."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from skeleton.redis_keys import CRAWLS, CrawlKeys, valid_crawl_id
from skeleton.redis_server import connect
from skeleton.tree import build_tree, render_text

__all__ = ["Command", "load_crawl_tree"]


def _text(value: bytes | str | None) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else (value or "")


def _load_hash(server: Any, key: str) -> dict[str, Any]:
    out = {}
    for field, value in server.hscan_iter(key, count=1000):
        try:
            out[_text(field)] = json.loads(value)
        except ValueError:
            continue
    return out


def _pick_crawl(server: Any, crawl: str | None) -> str:
    crawls = sorted(_text(c) for c in server.smembers(CRAWLS))
    if crawl:
        if not valid_crawl_id(crawl) or crawl not in crawls:
            known = ", ".join(crawls) or "none"
            raise UsageError(f"no crawl {crawl!r} recorded (known crawls: {known})")
        return crawl
    if not crawls:
        raise UsageError("no crawl recorded yet: run 'scrapy crawl skeleton -a base=URL' first")
    started = {c: _text(server.hget(CrawlKeys(c).meta, "started")) for c in crawls}
    return max(crawls, key=lambda c: (started[c], c))


def load_crawl_tree(settings: Any, crawl: str | None) -> tuple[str, dict[str, Any], int]:
    """The crawl id, nested tree and number of fetched pages of a crawl in Redis."""
    server = connect(settings)
    try:
        crawl = _pick_crawl(server, crawl)
        keys = CrawlKeys(crawl)
        root = _text(server.hget(keys.meta, "base"))
        pages = _load_hash(server, keys.pages)
        tree = build_tree(root, pages, _load_hash(server, keys.edges))
    finally:
        server.close()
    if tree is None:
        raise UsageError(f"crawl {crawl!r} has no fetched root page ({root or 'no base URL'})")
    return crawl, tree, len(pages)


class Command(ScrapyCommand):
    requires_project = True
    default_settings = {"LOG_ENABLED": False}

    def syntax(self) -> str:
        return "[--crawl ID] [-o FILE] [--format json|text]"

    def short_desc(self) -> str:
        return "Print the skeleton tree of a crawl"

    def long_desc(self) -> str:
        return ("Print the skeleton tree of a crawl recorded in Redis (the only or most "
                "recently started crawl unless --crawl is given), as JSON or as an outline.")

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--crawl", help="crawl id (default: the most recent crawl)")
        parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE, not stdout")
        parser.add_argument("--format", choices=("json", "text"), default=None,
                            help="output format (default: json, or text for a .txt FILE)")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if args:
            raise UsageError(f"unexpected arguments: {' '.join(args)}")
        assert self.settings is not None
        _, tree, _ = load_crawl_tree(self.settings, opts.crawl)
        fmt = opts.format or ("text" if (opts.output or "").endswith(".txt") else "json")
        if fmt == "json":
            out = json.dumps(tree, indent=1, ensure_ascii=False) + "\n"
        else:
            out = render_text(tree)
        if opts.output:
            Path(opts.output).write_text(out, encoding="utf-8")
        else:
            sys.stdout.write(out)
