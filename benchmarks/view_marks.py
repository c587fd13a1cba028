"""Check: does any link the view rules mark point to a true node?

For every labelled site (the corpus sites and ``tests/sites``), every HTML file is
parsed and :func:`skeleton.urlrules.actions.view_links` asked which of its links
are views (by markup: ``rel="tag"``, hCard and class-named bylines, WordPress tag
clouds; by label: "tags:", a "Tags" heading, a block whose ARIA name is a label). Printed per site: the distinct URLs marked, how
many by label, and how many of them are nodes of the site's truth (each one a
page the crawl would wrongly never fetch through that link).

    python benchmarks/view_marks.py
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.corpus import corpus_sites, fixture_sites  # noqa: E402
from skeleton.web.dom import parse_html  # noqa: E402
from skeleton.analysis.training import load_truth, page_id  # noqa: E402
from skeleton.urlrules.actions import view_links  # noqa: E402

BASE = "http://127.0.0.1:8000/"


def main() -> None:
    for cs in corpus_sites() + fixture_sites():
        if not cs.serve_dir.exists():
            continue
        root_url, truth, _ = load_truth(cs.truth)
        nodes = {page_id(c) for _, c in truth} | {page_id(root_url)}
        marked: set[tuple[str, str]] = set()
        for folder, _, files in os.walk(cs.serve_dir):
            for name in files:
                if name.endswith((".html", ".htm")):
                    path = os.path.join(folder, name)
                    with open(path, "rb") as f:
                        root = parse_html(f.read())
                    url = BASE + os.path.relpath(path, cs.serve_dir)
                    marked.update(view_links(root, url).items())
        wrong = sorted(u for u, _ in marked if page_id(u) in nodes)
        print(f"{cs.name:18} marked {len(marked):4} ({sum(k == 'label' for _, k in marked)} by label)  "
              f"true nodes among them {len(wrong)} {wrong[:3]}")


if __name__ == "__main__":
    main()
