"""``scrapy status``: progress of a crawl recorded in Redis, running or finished,
the pages that failed for good (``failed pages``, counted in the pages done, and
``failed by status`` in JSON: HTTP status or error kind -> pages), the pages that
redirect out of the crawl's scope (``redirect offsite``, counted in the pages
done; their targets are never requested: :mod:`skeleton.middlewares.scope`), the queue
entries moved aside as dead letters (:mod:`skeleton.store.queue`) and, for a crawl that
read the site's sitemap (``SKELETON_SITEMAP``), the sitemap report
(:func:`skeleton.store.sitemap.sitemap_report`): ``sitemap`` in JSON, ``{"files",
"urls", "matched", "orphans", "missing"}`` (null without a sitemap read), the
orphans (listed, never reached by the navigation) and the pages missing from the
sitemap named one a line in the text form (:data:`SHOWN_URLS` of each at most)."""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from typing import Any

from skeleton.cli import CRAWL, SkeletonCommand, json_option
from skeleton.commands._recorded import recorded_crawl
from skeleton.exports.safe import text_line
from skeleton.store.liveness import workers_alive
from skeleton.store.crawls import crawl_counts
from skeleton.store.keys import (META_BASE, META_DEAD_LETTERS, META_FINISH_REASON, META_FINISHED, META_MODE,
                                 META_RESUMED, META_STARTED)
from skeleton.store.meta import FINISHED, read_meta
from skeleton.store.sitemap import sitemap_report, stored_files

__all__ = ["Command", "SHOWN_URLS", "crawl_status"]

#: URLs of each sitemap list the text form names (JSON names them all)
SHOWN_URLS = 50


def _state(meta: dict[str, str], alive: int) -> str:
    reason = meta.get(META_FINISH_REASON, "")
    if alive:
        return "running"
    if reason == FINISHED:
        return "finished"
    if reason:
        return f"stopped ({reason})"
    return "interrupted (no worker alive)"


def crawl_status(settings: Any, crawl: str | None) -> dict[str, Any]:
    """Counts and metadata of a crawl (the most recent one if ``crawl`` is None)."""
    with recorded_crawl(settings, crawl) as (server, keys):
        meta = read_meta(server, keys)
        alive = workers_alive(server, keys, settings.getfloat("SKELETON_LEASE_TIMEOUT", 60.0))
        counts = crawl_counts(server, keys)
        report = sitemap_report(server, keys)
        sitemap = None if report is None else {"files": len(stored_files(server, keys)), **report.as_dict()}
    failed = counts["failed"]
    return {"crawl": keys.crawl, "base": meta.get(META_BASE, ""), "mode": meta.get(META_MODE, ""),
            "state": _state(meta, alive), "started": meta.get(META_STARTED, ""),
            "resumed": meta.get(META_RESUMED, ""), "finished": meta.get(META_FINISHED, ""),
            "finish_reason": meta.get(META_FINISH_REASON, ""),
            "pages_done": counts["pages"], "failed_pages": len(failed),
            "failed_by_status": dict(sorted(Counter(failed).items())),
            "redirect_offsite": counts["offsite"],
            "queued": counts["queued"], "in_flight": counts["in_flight"],
            "workers_alive": alive, "offered_pages": counts["offered"],
            "dupefilter": counts["dupefilter"], "dupefilter_size": counts["dupefilter_size"],
            "dead_letters": max(int(meta.get(META_DEAD_LETTERS) or 0), counts["dead_kept"]),
            "dead_letters_key": keys.dead, "sitemap": sitemap}


class Command(SkeletonCommand):
    """Show the progress of a crawl

    Show a crawl recorded in Redis (the only or most recently started or resumed crawl unless
    --crawl is given), running or finished: pages done (failed pages among them, by HTTP
    status or error kind, and pages redirecting out of the crawl's scope), requests queued and
    in flight, workers alive, skeleton size, start, last resume and end, and the queue entries
    moved aside as dead letters (bad or foreign entries).
    """

    usage = "[--crawl ID] [--json]"
    options = (CRAWL, json_option("print one JSON object"))

    def execute(self, args: list[str], opts: argparse.Namespace) -> None:
        assert self.settings is not None
        status = crawl_status(self.settings, opts.crawl)
        if opts.json:
            sys.stdout.write(json.dumps(status, ensure_ascii=False) + "\n")
            return
        readable = _readable(status)
        width = max(len(key) for key in readable) + 1
        for key, value in readable.items():
            if value != "":
                sys.stdout.write(f"{key + ':':<{width}} {value}\n")
        sys.stdout.write(_sitemap_lines(status["sitemap"]))


def _readable(status: dict[str, Any]) -> dict[str, Any]:
    """The text form's labels and values (JSON keeps numbers and snake_case keys)."""
    out = {key.replace("_", " "): value for key, value in status.items()
           if key not in ("failed_by_status", "dead_letters_key", "dupefilter_size")
           and (key != "redirect_offsite" or value)}  # shown when some page redirects out
    by_status = status["failed_by_status"]
    if by_status:
        out["failed pages"] = (f"{status['failed_pages']} ("
                               + ", ".join(f"{k}: {n}" for k, n in by_status.items()) + ")")
    out["dupefilter"] = (f"{status['dupefilter_size']} fingerprints" if status["dupefilter"] == "set"
                         else f"bloom filter, {status['dupefilter_size']} bytes"
                         if status["dupefilter"] == "bloom" else "empty")
    if status["dead_letters"]:
        out["dead letters"] = f"{status['dead_letters']} (newest in {status['dead_letters_key']})"
    return out


def _sitemap_lines(sitemap: dict[str, Any] | None) -> str:
    """The text form of the sitemap report: one summary line, then the orphans and
    the pages missing from the sitemap, one URL a line (through ``text_line``)."""
    if sitemap is None:
        return ""
    files = sitemap["files"]
    lines = [f"sitemap: {files} file{'s' if files != 1 else ''}, {sitemap['urls']} URLs in scope, "
             f"{sitemap['matched']} reached by the navigation"]
    for label, urls in (("orphans (in the sitemap, never reached)", sitemap["orphans"]),
                        ("missing from the sitemap (reached, not listed)", sitemap["missing"])):
        if sitemap["urls"]:
            lines.append(f"{label}: {len(urls)}")
            lines.extend(f"  {text_line(url)}" for url in urls[:SHOWN_URLS])
            if len(urls) > SHOWN_URLS:
                lines.append(f"  ... {len(urls) - SHOWN_URLS} more (scrapy status --json)")
    return "\n".join(lines) + "\n"
