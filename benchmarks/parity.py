"""Does the offline crawl give the tree the real crawl gives, site by site?

Each site is crawled twice with the shipped model: by the real spider (Scrapy, the
pipelines, embedded Redis; the site served on 127.0.0.1:8000) and offline
(:func:`skeleton.analysis.offline.find_skeleton` over the site's files, as training and
every offline benchmark crawl). Both call :func:`skeleton.analysis.page.analyse_page`;
this measures what is left apart from it (the offline loop renames a page by its
canonical link by fetching the named URL, and filters declared places without the
action rule). Reported per site: the edges of each tree, the edges in one and not the
other, and each tree's edge F1 against the truth. Default: the corpus sites.

    python benchmarks/parity.py [--sites NAME ...] [--write]
"""
from __future__ import annotations

import argparse
import csv
import io
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.corpus import commit, corpus_sites, farm_sites, fixture_sites, serve  # noqa: E402
from benchmarks.farm_loo import score  # noqa: E402
from skeleton.analysis.offline import find_skeleton, skeleton_edges  # noqa: E402
from skeleton.analysis.training import load_labelled_site  # noqa: E402
from skeleton.sew.model import load_model  # noqa: E402

PORT = 8000
RESULTS = ROOT / "benchmarks" / "results" / "parity.json"


def scrapy(args: list[str], env: dict, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scrapy", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, check=False)


def real_tree(site, env: dict) -> set[tuple[str, str]]:
    """The real crawl's edges (the shipped model)."""
    crawl = f"parity-{site.name}"
    done = scrapy(["crawl", "skeleton", "-a", f"base={site.start_url}", "-a", f"crawl={crawl}",
                   "-s", "AUTOTHROTTLE_ENABLED=False", "-s", "CONCURRENT_REQUESTS=8", "-s", "LOG_LEVEL=WARNING"],
                  env, ROOT)
    if done.returncode:
        raise SystemExit(f"crawl of {site.name} failed:\n{done.stderr[-2000:]}")
    done = scrapy(["tree", "--crawl", crawl, "--format", "csv"], env, ROOT)
    if done.returncode:
        raise SystemExit(f"tree of {site.name} failed:\n{done.stderr[-2000:]}")
    return {(row["parent"], row["url"]) for row in csv.DictReader(io.StringIO(done.stdout)) if row["parent"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sites", nargs="*", help="site names (corpus, fixtures or farm; default: the corpus)")
    ap.add_argument("--write", action="store_true", help="write results/parity.json")
    args = ap.parse_args()
    every = {s.name: s for s in (*corpus_sites(), *fixture_sites(), *farm_sites()) if s.serve_dir.exists()}
    sites = [every[n] for n in args.sites] if args.sites else [s for s in corpus_sites() if s.serve_dir.exists()]
    model = load_model(None)
    rows = []
    with tempfile.TemporaryDirectory() as work:
        env = {**os.environ, "SKELETON_DATA_DIR": str(Path(work) / "data")}
        env.pop("REDIS_URL", None)
        for site in sites:
            server = serve(site.serve_dir, PORT)
            try:
                real = real_tree(site, env)
            finally:
                server.terminate()
                server.wait()
            labelled = load_labelled_site(site.truth, site.serve_dir, site.name, redirects=True)
            pages = list(find_skeleton(site.start_url, labelled.fetch, model, scope=site.scope))
            offline = set(skeleton_edges(pages, model.edges))
            row = {"site": site.name, "real_edges": len(real), "offline_edges": len(offline),
                   "only_real": len(real - offline), "only_offline": len(offline - real),
                   "identical": real == offline,
                   "real_f1": score(site, site.start_url, {c: p for p, c in real})["edge_f1"],
                   "offline_f1": score(site, pages[0].url, {c: p for p, c in offline})["edge_f1"],
                   "examples": {"only_real": sorted(real - offline)[:3], "only_offline": sorted(offline - real)[:3]}}
            rows.append(row)
            print(f"{site.name:26} real {row['real_edges']:5} offline {row['offline_edges']:5}  only real "
                  f"{row['only_real']:4} only offline {row['only_offline']:4}  edge F1 real {row['real_f1']:.4f} "
                  f"offline {row['offline_f1']:.4f}{'' if row['identical'] else '  DIFFER'}", flush=True)
    if args.write:
        RESULTS.write_text(json.dumps({"commit": commit(), "model": model.meta,
                                       "command": "python benchmarks/parity.py"
                                       + (f" --sites {' '.join(args.sites)}" if args.sites else "") + " --write",
                                       "rows": rows}, indent=1) + "\n")
        print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()
