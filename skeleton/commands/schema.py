"""``scrapy schema``: export the logical schema of a crawl recorded in Redis.

The page records of ``:pages`` carry each page's logical sections (computed
during a crawl run with ``-a analyses=schema``, :mod:`skeleton.analyses`); a crawl
run without it that kept its pages (``-s SKELETON_KEEP_PAGES=True``) has them
computed now from the kept pages (``:page_html``); keywords are weighted with the
crawl's term entropy (``:entropy``: W = 1 - EN) so that template words make no
logical link. Output: GraphML (``.graphml``/``.xml`` or ``--format graphml``)
or JSON (otherwise).
"""
from __future__ import annotations

import argparse
from typing import Any

from scrapy.exceptions import UsageError

from skeleton.cli import CRAWL, OUTPUT, SkeletonCommand, format_option
from skeleton.commands._recorded import recorded_crawl
from skeleton.exports.formats import SCHEMA
from skeleton.exports.output import write_output
from skeleton.exports.schema import to_graphml, to_json
from skeleton.store.tree import stored_pages
from skeleton.store.entropy import EntropyStore
from skeleton.schema.hook import page_sections
from skeleton.schema.site import SiteSchema, site_schema
from skeleton.web.dom import parse_html
from skeleton.store.kept import kept_pages

__all__ = ["Command", "load_crawl_schema"]


def load_crawl_schema(settings: Any, crawl: str | None) -> tuple[str, SiteSchema]:
    """The crawl id and site schema of a crawl in Redis: the sections its page
    records carry (``-a analyses=schema``), or else those of the pages it kept
    (``SKELETON_KEEP_PAGES``), computed now."""
    with recorded_crawl(settings, crawl) as (server, keys):
        records = stored_pages(server, keys)
        pages = {url: r["sections"] for url, r in records.items()
                 if isinstance(r, dict) and isinstance(r.get("sections"), list)}
        if records and not pages:
            pages = {url: page_sections(settings, parse_html(body, encoding), final)
                     for url, body, final, encoding in kept_pages(server, keys)}
        if records and not pages:
            raise UsageError(f"crawl {keys.crawl!r} has no page sections and kept no pages: the "
                             "schema analysis is off by default; crawl again with -a analyses=schema "
                             "(or -s SKELETON_KEEP_PAGES=True, then run scrapy schema)")
        terms = {t for sections in pages.values() for s in sections if isinstance(s, dict)
                 for t in s.get("terms") or [] if isinstance(t, str)}
        store = EntropyStore(server, keys)
        weights = store.weights(terms) if terms and store.page_count() else {}
    return keys.crawl, site_schema(pages, lambda term: weights.get(term, 1.0))


class Command(SkeletonCommand):
    """Export the logical schema of a crawl (GraphML or JSON)

    Export the site's logical schema (logical sections, physical and logical links) of a
    crawl recorded in Redis (the most recent one unless --crawl is given) as GraphML (Gephi,
    yEd) or JSON.
    """

    usage = "[--crawl ID] [-o FILE] [--format graphml|json]"
    options = (CRAWL, OUTPUT, format_option(SCHEMA, "output format (default: graphml for a .graphml/.xml FILE, "
                                                    "else json)"))

    def execute(self, args: list[str], opts: argparse.Namespace) -> None:
        assert self.settings is not None
        crawl, schema = load_crawl_schema(self.settings, opts.crawl)
        graphml = self.output_format(opts) == "graphml"
        write_output(opts.output, to_graphml(schema) if graphml else to_json(schema, crawl).encode("utf-8"))
