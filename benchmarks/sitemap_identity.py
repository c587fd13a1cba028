"""Would the site's sitemap help node identity? (issue 31, item 2)

For every labelled site with a sitemap (the corpus, ``../shared/corpus``; the training
farm, ``~/.cache/skeleton-farm/sites``; the fixtures), the sitemap files are read from
the site's folder as the crawl reads them (``robots.txt`` ``Sitemap:`` lines, then
``sitemap.xml``, ``sitemap_index.xml``, ``sitemapindex.xml``, ``sitemap-index.xml``;
indexes followed, gzip inflated: :mod:`skeleton.sitemaps.files`) and their URLs compared
with the site's true tree, whose nodes are named as the crawl names them
(:func:`skeleton.web.urls.canonical`). A generator writes its configured site URL
(``https://example.com/``) while the site is served on 127.0.0.1: a listed URL on
another origin is put on the served one by its path (counted as ``rebased``).

Per site, each distinct sitemap URL is one of:

* ``exact``: the crawl's node URL, verbatim;
* ``canonical``: the same node once read as the crawl reads a link (``dir/index.html``
  is ``dir/``, query order, escapes): what ``scrapy status`` matches;
* ``loose``: the same node only by a looser identity (scheme, a trailing slash, an
  index file name, an ``.html`` suffix: :func:`skeleton.sitemaps.coverage.loose_key`),
  which the crawl does not apply;
* ``orphan``: no node of the tree.

and ``missing`` counts the tree's nodes the sitemap does not list at any level. Node
identity: ``split`` counts the groups of tree nodes that share a loose key (one page
under two URLs in the tree), ``arbitrated`` those of which the sitemap lists exactly
one (a sitemap could pick the URL).

    python benchmarks/sitemap_identity.py [--write]
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.corpus import CorpusSite, commit, corpus_sites, family_of, farm_sites, fixture_sites  # noqa: E402
from skeleton.analysis.training import load_truth  # noqa: E402
from skeleton.web.urls import canonical  # noqa: E402
from skeleton.sitemaps.coverage import loose_key  # noqa: E402
from skeleton.sitemaps.files import INDEX, read_sitemap, robots_sitemaps, sitemap_body  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results" / "sitemap_identity.json"
TABLE = Path(__file__).resolve().parent / "results" / "sitemap_identity.md"
COMMAND = "python benchmarks/sitemap_identity.py --write"
#: where a site's sitemaps are looked for, after robots.txt's lines
DEFAULT_NAMES = ("sitemap.xml", "sitemap_index.xml", "sitemapindex.xml", "sitemap-index.xml")
#: sitemap files read per site at most (as SKELETON_SITEMAP_MAX_FILES)
MAX_FILES = 50


def _local(folder: Path, url: str) -> Path | None:
    """The file of ``folder`` a sitemap URL names by its path."""
    path = urlsplit(url).path.lstrip("/")
    candidate = folder / path
    return candidate if path and candidate.is_file() else None


def sitemap_urls(folder: Path) -> tuple[list[str], int]:
    """The page URLs the sitemaps in ``folder`` list (indexes followed), and the
    number of sitemap files read."""
    queue: list[Path] = []
    robots = folder / "robots.txt"
    if robots.is_file():
        for url in robots_sitemaps(robots.read_bytes(), "http://127.0.0.1:8000/robots.txt"):
            local = _local(folder, url)
            if local is not None:
                queue.append(local)
    queue += [folder / name for name in DEFAULT_NAMES if (folder / name).is_file()]
    seen: set[Path] = set()
    urls: list[str] = []
    while queue and len(seen) < MAX_FILES:
        path = queue.pop(0)
        if path in seen:
            continue
        seen.add(path)
        body = sitemap_body(path.read_bytes(), 50 * 1024 * 1024)
        found = read_sitemap(body or b"", "http://127.0.0.1:8000/" + path.relative_to(folder).as_posix())
        if found.kind == INDEX:
            queue += [p for p in (_local(folder, loc) for loc, _ in found.entries) if p is not None]
        elif found.kind:
            urls += [loc for loc, _ in found.entries]
    return list(dict.fromkeys(urls)), len(seen)


def _rebase(url: str, origin: tuple[str, str]) -> tuple[str, bool]:
    parts = urlsplit(url)
    if (parts.scheme, parts.netloc) == origin:
        return url, False
    return urlunsplit((origin[0], origin[1], parts.path or "/", parts.query, "")), True


def measure(site: CorpusSite) -> dict | None:
    """The comparison of one site (None: no sitemap, or an empty one)."""
    if not site.serve_dir.is_dir():
        return None
    listed, files = sitemap_urls(site.serve_dir)
    if not listed:
        return None
    root, edges, _ = load_truth(site.truth)
    tree = {canonical(url) for url in [root, *(child for _, child in edges)]} - {""}
    origin = urlsplit(site.start_url)[:2]
    by_loose: dict[str, set[str]] = {}
    for url in tree:
        by_loose.setdefault(loose_key(url), set()).add(url)
    counts = {"exact": 0, "canonical": 0, "loose": 0, "orphan": 0}
    matched: set[str] = set()
    named: set[str] = set()  # tree nodes the sitemap names verbatim or canonically
    rebased = 0
    for raw in listed:
        url, moved = _rebase(raw, origin)
        rebased += moved
        if url in tree:
            counts["exact"] += 1
            matched.add(url)
            named.add(url)
        elif canonical(url) in tree:
            counts["canonical"] += 1
            matched.add(canonical(url))
            named.add(canonical(url))
        elif by_loose.get(loose_key(url)):
            counts["loose"] += 1
            matched |= by_loose[loose_key(url)]
        else:
            counts["orphan"] += 1
    split = [group for group in by_loose.values() if len(group) > 1]
    return {"site": site.name, "family": family_of(site), "files": files, "sitemap_urls": len(listed),
            "rebased": rebased, "tree_urls": len(tree), **counts, "missing": len(tree - matched),
            "split": len(split), "arbitrated": sum(1 for group in split if len(group & named) == 1)}


def render(results: dict) -> str:
    lines = ["| site | family | files | sitemap URLs | exact | canonical only | loose only | orphans | "
             "tree nodes | missing | split nodes | arbitrated |", "|" + "---|" * 12]
    for r in results["sites"]:
        lines.append(f"| {r['site']} | {r['family']} | {r['files']} | {r['sitemap_urls']} | {r['exact']} | "
                     f"{r['canonical']} | {r['loose']} | {r['orphan']} | {r['tree_urls']} | {r['missing']} | "
                     f"{r['split']} | {r['arbitrated']} |")
    t = results["total"]
    lines.append(f"| **all** ({t['sites']} sites with a sitemap of {t['sites_checked']}) | | {t['files']} | "
                 f"{t['sitemap_urls']} | {t['exact']} | {t['canonical']} | {t['loose']} | {t['orphan']} | "
                 f"{t['tree_urls']} | {t['missing']} | {t['split']} | {t['arbitrated']} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help=f"write {RESULTS.name} and {TABLE.name}")
    args = ap.parse_args()
    sites = [*corpus_sites(), *farm_sites(), *fixture_sites()]
    rows = [row for row in map(measure, sites) if row is not None]
    keys = ("files", "sitemap_urls", "rebased", "tree_urls", "exact", "canonical", "loose", "orphan", "missing",
            "split", "arbitrated")
    total = {"sites": len(rows), "sites_checked": len(sites), **{k: sum(r[k] for r in rows) for k in keys}}
    out = {"commit": commit(), "command": COMMAND, "sites": rows, "total": total}
    if args.write:
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text(json.dumps(out, indent=1) + "\n")
        TABLE.write_text(render(out))
        print(f"wrote {RESULTS} and {TABLE}")
    print(render(out))


if __name__ == "__main__":
    main()
