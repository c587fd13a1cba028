"""``scrapy entropy``: the most and least informative terms of a crawl (WISDOM
Section 3.1), read from the term statistics the entropy middleware keeps in Redis."""
from __future__ import annotations

import argparse
import heapq
import json
import sys
from typing import Any

from scrapy.exceptions import UsageError

from skeleton.cli import CRAWL, SkeletonCommand, format_option, option
from skeleton.commands._recorded import recorded_crawl
from skeleton.exports.formats import TERMS
from skeleton.entropy.statistics import EMPTY, TermStats, entropy, weight
from skeleton.store.entropy import EntropyStore

__all__ = ["Command", "term_report", "render_report"]

DEFAULT_TOP = 20
_TERM_WIDTH = 24


def _row(term: str, stats: TermStats, n: int) -> dict[str, Any]:
    return {"term": term, "weight": weight(stats, n), "entropy": entropy(stats, n),
            "pages": stats.pages, "count": stats.total}


def term_report(store: EntropyStore, top: int, terms: list[str] | None = None) -> dict[str, Any]:
    """n, vocabulary size, the ``top`` most informative terms (highest W; ties:
    more occurrences first), the ``top`` least informative (lowest W; ties: more
    pages first) and the rows of the requested ``terms``."""
    n = store.page_count()
    report: dict[str, Any] = {"crawl": store.keys.crawl, "pages": n}
    if terms:
        _, stats = store.snapshot(terms)
        report["terms"] = [_row(t, stats.get(t, EMPTY), n) for t in dict.fromkeys(terms)]
        return report
    rows = [_row(term, stats, n) for term, stats in store.scan()]
    report["vocabulary"] = len(rows)
    report["most_informative"] = heapq.nsmallest(
        top, rows, key=lambda r: (-r["weight"], -r["count"], r["term"]))
    report["least_informative"] = heapq.nsmallest(
        top, rows, key=lambda r: (r["weight"], -r["pages"], r["term"]))
    return report


def _table(rows: list[dict[str, Any]]) -> list[str]:
    width = max([_TERM_WIDTH, *(len(r["term"]) for r in rows)])
    lines = [f"  {'term':<{width}} {'weight':>8} {'entropy':>8} {'pages':>7} {'count':>9}"]
    lines += [f"  {r['term']:<{width}} {r['weight']:8.4f} {r['entropy']:8.4f} "
              f"{r['pages']:7d} {r['count']:9d}" for r in rows]
    return lines


def render_report(report: dict[str, Any]) -> str:
    """The report as text tables."""
    lines = [f"crawl {report['crawl']}: {report['pages']} pages counted"
             + (f", {report['vocabulary']} terms" if "vocabulary" in report else "")]
    if "terms" in report:
        lines += _table(report["terms"])
    else:
        lines += ["", "most informative terms (highest weight W = 1 - EN):"]
        lines += _table(report["most_informative"])
        lines += ["", "least informative terms (highest entropy EN):"]
        lines += _table(report["least_informative"])
    return "\n".join(lines) + "\n"


class Command(SkeletonCommand):
    """List the most and least informative terms of a crawl

    List the terms of a crawl (the only or most recently started crawl unless --crawl is
    given) with the highest and the lowest weight W = 1 - EN, their entropy EN over the pages
    counted, page counts and total counts; or, with --term, the given terms.
    """

    usage = "[--crawl ID] [--top N] [--term T ...] [--format text|json]"
    options = (CRAWL,
               option("--top", type=int, default=DEFAULT_TOP, metavar="N",
                      help=f"terms per list (default {DEFAULT_TOP})"),
               option("--term", action="append", metavar="T",
                      help="show this term only (repeatable; lower-cased)"),
               format_option(TERMS))

    def execute(self, args: list[str], opts: argparse.Namespace) -> None:
        if opts.top < 1:
            raise UsageError(f"--top must be at least 1, got {opts.top}")
        assert self.settings is not None
        with recorded_crawl(self.settings, opts.crawl) as (server, keys):
            store = EntropyStore(server, keys)
            terms = [t.strip().lower() for t in opts.term or [] if t.strip()]
            if opts.term and not terms:
                raise UsageError("--term needs a non-empty term")
            report = term_report(store, opts.top, terms or None)
        if self.output_format(opts) == "json":
            sys.stdout.write(json.dumps(report, indent=1, ensure_ascii=False) + "\n")
        else:
            sys.stdout.write(render_report(report))
