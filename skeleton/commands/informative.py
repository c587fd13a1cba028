"""``scrapy informative``: every crawled page's WISDOM blocks, recomputed with the
crawl's final term entropies (the second pass of issue 3).

In the crawl, a page's blocks use the weights known when it arrived (early pages
see few pages' statistics). This command reads what the crawl kept in Redis: the
pages' bodies (``:page_html``, ``SKELETON_KEEP_PAGES``), the term statistics
(``:entropy``, with n = the pages counted) and the pages' terms (``:page_terms``,
for API), reparses each kept page and writes one JSON line per page, in URL order:
``{"url", "blocks": [...]}`` with the blocks as the items carry them. Linked pages
the crawl never counted fall back to ``SKELETON_WISDOM_MISSING_PAGE``; a crawl that
kept its pages without their terms (``SKELETON_KEEP_PAGES=True`` without WISDOM) has
them cut from the kept pages; a crawl run
without the entropy middleware uses ``SKELETON_WISDOM_DEFAULT_WEIGHT`` for every
term. Use the crawl's stop-word settings (``SKELETON_ENTROPY_LANGUAGE`` ...), since
terms are cut again from the kept pages.
"""
from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from typing import IO, Any

from scrapy.exceptions import UsageError

from skeleton.cli import CRAWL, OUTPUT, SkeletonCommand
from skeleton.commands._recorded import recorded_crawl
from skeleton.exports.output import write_output
from skeleton.entropy.statistics import weight
from skeleton.middlewares.entropy import configured_stop_words
from skeleton.store.entropy import EntropyStore, every_kept_terms
from skeleton.middlewares.informative import DEFAULT_WEIGHT
from skeleton.store.kept import has_kept_pages, kept_pages
from skeleton.store.keys import CrawlKeys
from skeleton.web.dom import parse_html
from skeleton.wisdom import WisdomParams, informative_blocks
from skeleton.wisdom.features import MISSING_PAGE_POLICIES
from skeleton.wisdom.page import scan_page

__all__ = ["Command", "final_blocks"]


def final_blocks(server: Any, keys: CrawlKeys, stop: frozenset[str], params: WisdomParams,
                 default_weight: float = DEFAULT_WEIGHT) -> Iterator[dict[str, Any]]:
    """``{"url", "blocks"}`` of every kept page of the crawl, in URL order, with
    the final weights W = 1 - EN over all the pages counted. The linked pages'
    terms (API) are the crawl's ``:page_terms``; a crawl that kept its pages but
    not their terms (a default crawl with ``SKELETON_KEEP_PAGES``) has them cut
    from the kept pages, in a first pass."""
    store = EntropyStore(server, keys, keep_page_terms=False)
    n = store.page_count()
    weights = {term: weight(stats, n) for term, stats in store.scan()} if n else None
    linked = {url: frozenset(counts) for url, counts in every_kept_terms(server, keys)}
    if not linked:
        linked = {url: frozenset(scan_page(parse_html(body, encoding), stop=stop).counts())
                  for url, body, _, encoding in kept_pages(server, keys)}
    for url, body, final, encoding in kept_pages(server, keys):
        root = parse_html(body, encoding)
        page_text = scan_page(root, stop=stop)
        lookup = (weights if weights is not None
                  else dict.fromkeys(page_text.terms(), default_weight))
        structure = informative_blocks(root, final, lookup, linked.get, params, text=page_text)
        yield {"url": url, "blocks": structure.rows()}


class Command(SkeletonCommand):
    """Recompute every crawled page's informative blocks with the final entropies

    Recompute the WISDOM TOC and article blocks of every page a crawl kept (the only or most
    recently started crawl unless --crawl is given) with the crawl's final term entropies;
    write JSON lines {"url", "blocks"}.
    """

    usage = "[--crawl ID] [-o FILE]"
    options = (CRAWL, OUTPUT)

    def execute(self, args: list[str], opts: argparse.Namespace) -> None:
        assert self.settings is not None
        settings = self.settings
        missing = settings.get("SKELETON_WISDOM_MISSING_PAGE") or "anchor"
        if missing not in MISSING_PAGE_POLICIES:
            raise UsageError(f"SKELETON_WISDOM_MISSING_PAGE must be one of {MISSING_PAGE_POLICIES}")
        try:
            stop = configured_stop_words(settings)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        params = WisdomParams(missing_page=missing)
        default = min(1.0, max(0.0, settings.getfloat("SKELETON_WISDOM_DEFAULT_WEIGHT", DEFAULT_WEIGHT)))
        with recorded_crawl(settings, opts.crawl) as (server, keys):
            if not has_kept_pages(server, keys):
                raise UsageError(f"crawl {keys.crawl!r} kept no pages: crawl with "
                                 "-s SKELETON_KEEP_PAGES=True (or -a analyses=wisdom)")
            def write(out: IO[str]) -> None:
                for row in final_blocks(server, keys, stop, params, default):
                    out.write(json.dumps(row, ensure_ascii=False) + "\n")

            write_output(opts.output, write)  # a file: all or nothing, no partial file
