"""Benchmark: one page, one node. Pages fetched, nodes and the fetches each mechanism saves.

For each portal-kind fixture of ``tests/sites`` and the two generator-built corpus
sites (pelican-notmyidea, mkdocs-material): serve the site on 127.0.0.1:8000 with
``tests/sites/server.py`` (redirect rules, query pages), crawl it with
``scrapy crawl skeleton`` and the shipped model, score it with ``scrapy evaluate``;
then crawl it again with one mechanism switched off at a time:

* ``tracking``: ``SKELETON_STRIP_TRACKING=False`` (the list of tracking parameters);
* ``learned``: ``SKELETON_LEARN_VARIANTS=False`` (parameters and segments learned
  from duplicate content);
* ``actions``: ``SKELETON_SKIP_ACTIONS=False`` (action, nofollow and form links);
* ``language``: ``-a lang=any`` (language copies followed);
* ``none``: all four off and ``SKELETON_VARIANTS_ENABLED=False``.

The fetches a mechanism saves are the pages fetched with it off minus the pages
fetched with everything on (the crawl's ``:meta`` ``fetched`` count: every page
analysed, a page fetched under two URLs counts twice). Every crawl must end by
itself (finish reason ``finished``).

The shipped model was trained on these fixtures and the corpus: node and edge F1
here are in-sample; leave-one-site-out figures are in ``docs/corpus-results.md``
and ``docs/hierarchy-results.md``.

    python benchmarks/one_node.py [--sites NAME ...] [--configs all tracking ...]

Writes ``benchmarks/results/one_node.json`` and ``docs/one-node-results.md``; each
site's entry is stamped with the commit it was measured at, and ``--sites`` replaces
only those sites' entries.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.corpus import commit, corpus_sites, fixture_sites, serve  # noqa: E402

PORT = 8000
OUT = ROOT / "benchmarks" / "results" / "one_node.json"
DOC = ROOT / "docs" / "one-node-results.md"
SITES = ["news_portal", "blog", "forum", "shop_megamenu", "news_tables", "portal_dl", "university",
         "pelican-notmyidea", "mkdocs-material"]
CONFIGS: dict[str, tuple[list[str], list[str]]] = {  # name -> (settings, spider arguments)
    "all": ([], []),
    "tracking": (["SKELETON_STRIP_TRACKING=False"], []),
    "learned": (["SKELETON_LEARN_VARIANTS=False"], []),
    "actions": (["SKELETON_SKIP_ACTIONS=False"], []),
    "language": ([], ["lang=any"]),
    "none": (["SKELETON_VARIANTS_ENABLED=False", "SKELETON_SKIP_ACTIONS=False"], ["lang=any"]),
}
#: a crawl that has not ended by itself after this long is stopped and reported
TIMEOUT = 900


def scrapy(*args: str, env: dict, timeout: float | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scrapy", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, check=False, timeout=timeout)


def crawl(site, config: str, env: dict) -> dict:
    settings, spider_args = CONFIGS[config]
    crawl_id = f"one-node-{site.name}-{config}"
    args = ["crawl", "skeleton", "-a", f"base={site.start_url}", "-a", f"crawl={crawl_id}",
            "-s", "AUTOTHROTTLE_ENABLED=False", "-s", "CONCURRENT_REQUESTS=8", "-s", "LOG_LEVEL=WARNING"]
    for setting in settings:
        args += ["-s", setting]
    for arg in spider_args:
        args += ["-a", arg]
    started = time.perf_counter()
    try:
        done = scrapy(*args, env=env, timeout=TIMEOUT)
        ended = done.returncode == 0
    except subprocess.TimeoutExpired:
        ended = False
    seconds = time.perf_counter() - started
    status = scrapy("status", "--crawl", crawl_id, "--json", env=env)
    state = json.loads(status.stdout) if status.returncode == 0 else {}
    scored = scrapy("evaluate", "--crawl", crawl_id, "--truth", str(site.truth), "--json", env=env)
    if scored.returncode:
        raise SystemExit(f"evaluate of {site.name} ({config}) failed:\n{scored.stderr[-2000:]}")
    result = json.loads(scored.stdout)
    return {"pages_fetched": result["pages_fetched"], "fetched_per_true_page": result["fetched_per_true_page"],
            "nodes": result["pages"]["all"]["found"], "true_nodes": result["pages"]["all"]["true"],
            "node_f1": result["pages"]["all"]["f1"], "edge_f1": result["edges"]["all"]["f1"],
            "ended_by_itself": ended and state.get("state") == "finished", "seconds": round(seconds, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sites", nargs="*", default=SITES)
    ap.add_argument("--configs", nargs="*", default=list(CONFIGS))
    ap.add_argument("--out", default=str(OUT))
    args = ap.parse_args()
    known = {s.name: s for s in corpus_sites() + fixture_sites()}
    work = Path(tempfile.mkdtemp(prefix="skeleton-one-node-"))
    env = {**os.environ, "SKELETON_DATA_DIR": str(work / "data")}
    env.pop("REDIS_URL", None)
    results: dict[str, dict] = {}
    for name in args.sites:
        site = known[name]
        server = serve(site.serve_dir, PORT)
        try:
            runs = {config: crawl(site, config, env) for config in args.configs}
        finally:
            server.terminate()
            server.wait()
        if "all" in runs:
            base = runs["all"]["pages_fetched"]
            runs["saved"] = {config: run["pages_fetched"] - base for config, run in runs.items()
                             if config != "all"}
        runs["commit"] = commit()
        results[name] = runs
        a = runs.get("all", {})
        print(f"{name:18} fetched {a.get('pages_fetched')} ({a.get('fetched_per_true_page')}/true) "
              f"node F1 {a.get('node_f1')} edge F1 {a.get('edge_f1')} saved {runs.get('saved')}", flush=True)
    previous = json.loads(Path(args.out).read_text()).get("sites", {}) if Path(args.out).exists() else {}
    merged = {name: results.get(name) or previous[name] for name in dict.fromkeys([*previous, *results])
              if name in results or name in previous}
    out = {"commit": commit(), "model": "shipped skeleton/models/default.json (in-sample on these sites)",
           "command": "python benchmarks/one_node.py", "configs": {k: CONFIGS[k] for k in args.configs},
           "sites": merged}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(out, indent=1) + "\n")
    DOC.write_text(markdown(out))
    print(f"wrote {args.out} and {DOC}")


def markdown(out: dict) -> str:
    configs = [c for c in CONFIGS if c != "all"]
    lines = ["# One page, one node: benchmark results", "",
             f"Generated by `{out['command']}` from `benchmarks/results/one_node.json` (commit "
             f"{out['commit']}; each row's commit in its last column; model: {out['model']}). Pages fetched is every page the crawl analysed "
             "(a page fetched under two URLs counts twice); *saved* is how many more pages the crawl "
             "fetches with that one mechanism off. Bars: fetched per true page at most 1.3, node F1 at "
             "least 0.95, every crawl ends by itself.", "",
             "| site | fetched | true pages | per true page | nodes | node F1 | edge F1 | ended | "
             + " | ".join(f"saved: {c}" for c in configs) + " | commit |",
             "|---|---:|---:|---:|---:|---:|---:|---|" + "---:|" * len(configs) + "---|"]
    for name, runs in out["sites"].items():
        a = runs.get("all")
        if not a:
            continue
        saved = runs.get("saved", {})
        ended = all(r.get("ended_by_itself") for k, r in runs.items() if k not in ("saved", "commit"))
        lines.append(f"| {name} | {a['pages_fetched']} | {a['true_nodes']} | {a['fetched_per_true_page']:.2f} | "
                     f"{a['nodes']} | {a['node_f1']:.3f} | {a['edge_f1']:.3f} | {'yes' if ended else 'NO'} | "
                     + " | ".join(str(saved.get(c, "")) for c in configs) + f" | {runs.get('commit', out['commit'])} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
