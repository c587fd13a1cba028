"""What rendering costs per page (issue 31, item 1): plain crawl vs ``-a render=js``.

Two sites, each crawled by one worker (embedded Redis, no politeness delay):

* ``spa``: the fixture single-page application (``tests/spa.py``, 25 pages whose
  links a script writes): plain, the crawl reads one page; rendered, all of them;
* ``university``: a static fixture site (``tests/sites/university``): the same
  pages both ways, so the per-page figure is the browser's cost alone.

Figures, medians over ``--repeat`` runs: ``pages`` (pages analysed), ``seconds``
(Scrapy's ``elapsed_time_seconds``: the crawl from its open to its close, the
browser's start and quit included), ``s_per_page`` and, rendered, ``render_s_per_page``
(``skeleton/render/seconds`` over pages rendered: the browser's own time) and the
ratio of rendered to plain seconds per page; ``edge_f1``: the tree against the
site's truth (``scrapy evaluate``): rendering must not change a static site's tree.

    python benchmarks/render_cost.py [--repeat 3] [--write]

The table of docs/benchmarks/cost.md is rendered from the results by
``python benchmarks/docs_tables.py --write``.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from benchmarks.corpus import FIXTURES, commit, serve  # noqa: E402
from spa import build, truth  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results" / "render_cost.json"
PORT = 8791
FAST = ["-s", "AUTOTHROTTLE_ENABLED=False", "-s", "DOWNLOAD_DELAY=0", "-s", "LOG_LEVEL=INFO"]


def median(runs: list[dict], key: str) -> float | None:
    values = sorted(r[key] for r in runs if r.get(key) is not None)
    return round(statistics.median(values), 4) if values else None


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "SCRAPY_PROJECT")}
    env["SCRAPY_SETTINGS_MODULE"] = "skeleton.settings"
    env["PYTHONPATH"] = str(ROOT)
    return env


def edge_f1(cwd: Path, crawl_id: str, truth: Path) -> float:
    """The crawl's tree against the site's truth (``scrapy evaluate``): edge F1."""
    done = subprocess.run([sys.executable, "-m", "scrapy", "evaluate", "--truth", str(truth), "--crawl", crawl_id,
                           "--json"], cwd=cwd, env=_env(), capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise SystemExit(done.stderr[-2000:])
    return json.loads(done.stdout)["edges"]["all"]["f1"]


def crawl(base: str, cwd: Path, crawl_id: str, render: str, truth: Path) -> dict:
    env = _env()
    done = subprocess.run([sys.executable, "-m", "scrapy", "crawl", "skeleton", "-a", f"base={base}index.html",
                           "-a", f"crawl={crawl_id}", "-a", f"render={render}", *FAST], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=900, stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        raise SystemExit(done.stderr[-2000:])

    def stat(name: str) -> float | None:
        found = re.search(rf"'{re.escape(name)}': ([\d.]+)", done.stderr)
        return float(found.group(1)) if found else None

    pages = int(stat("skeleton/pages") or 0)
    seconds = stat("elapsed_time_seconds") or 0.0
    rendered = stat("skeleton/render/pages")
    run = {"pages": pages, "seconds": round(seconds, 3), "s_per_page": round(seconds / pages, 4) if pages else None,
           "edge_f1": edge_f1(cwd, crawl_id, truth)}
    if rendered:
        run["rendered"] = int(rendered)
        run["render_s_per_page"] = round((stat("skeleton/render/seconds") or 0.0) / rendered, 4)
    return run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--write", action="store_true", help=f"write {RESULTS.relative_to(ROOT)}")
    args = ap.parse_args()
    out: dict = {"command": f"python benchmarks/render_cost.py --repeat {args.repeat} --write", "commit": commit(),
                 "repeat": args.repeat, "sites": {}}
    with tempfile.TemporaryDirectory() as tmp:
        sites = {"spa": build(Path(tmp) / "spa"), "university": FIXTURES / "university"}
        for name, folder in sites.items():
            server = serve(folder, PORT)
            try:
                figures: dict = {}
                base = f"http://127.0.0.1:{PORT}/"
                truth_file = Path(tmp) / f"{name}.truth.json"
                truth_file.write_text(json.dumps(truth(base)) if name == "spa" else
                                      (FIXTURES / f"{name}.truth.json").read_text("utf-8")
                                      .replace("http://127.0.0.1:8000/", base), "utf-8")
                for render in ("off", "js"):
                    runs = [crawl(base, Path(tmp), f"{name}-{render}-{i}", render, truth_file)
                            for i in range(args.repeat)]
                    figures[render] = {key: median(runs, key) for key in runs[0]}
                    print(name, render, json.dumps(figures[render]), flush=True)
            finally:
                server.terminate()
                server.wait()
            plain, rendered = figures["off"]["s_per_page"], figures["js"]["s_per_page"]
            figures["ratio"] = round(rendered / plain, 2) if plain and rendered else None
            out["sites"][name] = figures
    print(json.dumps(out, indent=1))
    if args.write:
        RESULTS.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
