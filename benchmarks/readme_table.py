"""The README's accuracy table, generated from ``benchmarks/results/corpus.json``.

``python benchmarks/run_corpus.py`` writes the real-spider leave-one-site-out figures
there; this renders them as the README's table (edge F1 of the skeleton and of the
breadth-first crawl tree per corpus site, and their means) and, with ``--write``,
replaces the block between the README's ``corpus-table`` markers. ``tests/test_docs.py``
checks that the README holds what this renders, so the table is never typed.

    python benchmarks/readme_table.py [--write]
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from statistics import fmean
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "corpus.json"
README = ROOT / "README.md"
BEGIN, END = "<!-- corpus-table:begin -->", "<!-- corpus-table:end -->"


def render(results: dict[str, Any]) -> str:
    """The table block (markers included) of the ``corpus.json`` results."""
    sites = results["sites"]
    sew = {name: site["sew"]["edges"]["all"]["f1"] for name, site in sites.items()}
    bfs = {name: site["bfs"]["edges"]["all"]["f1"] for name, site in sites.items()}
    rows = [BEGIN, "| site | edge F1 | breadth-first crawl tree |", "|---|---:|---:|"]
    rows += [f"| {name} | {sew[name]:.3f} | {bfs[name]:.3f} |" for name in sites]
    rows.append(f"| **mean** | **{fmean(sew.values()):.3f}** | {fmean(bfs.values()):.3f} |")
    rows += ["", f"Generated from `benchmarks/results/corpus.json` (`{results['command']}` at "
             f"{results['commit']}) by `python benchmarks/readme_table.py --write`.", END]
    return "\n".join(rows)


def current_block(text: str) -> str:
    """The README's table block, markers included ('' when absent)."""
    start, end = text.find(BEGIN), text.find(END)
    return text[start:end + len(END)] if start >= 0 and end > start else ""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help="replace the table in README.md")
    args = ap.parse_args()
    block = render(json.loads(RESULTS.read_text("utf-8")))
    print(block)
    if args.write:
        text = README.read_text("utf-8")
        old = current_block(text)
        if not old:
            sys.exit(f"README.md has no {BEGIN} ... {END} block")
        README.write_text(text.replace(old, block), "utf-8")
        print(f"wrote {README}")


if __name__ == "__main__":
    main()
