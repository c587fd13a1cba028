"""The offline crawl that training and the benchmarks use (:func:`find_skeleton` and
:func:`skeleton_edges` over the site's files) gives the tree the real crawl gives
(the spider, its pipelines and Redis) on the same site: what the benchmarks measure is
what a user gets. Once, the pipeline kept 24 offers per page and the offline crawl all
of them: on a whole-tree sidebar the real crawl scored 0.889 and the offline 1.000."""
from __future__ import annotations

import csv
import importlib
import io
import shutil
from pathlib import Path

import pytest
from helpers import FAST, ROOT, run_scrapy

from skeleton.analysis.offline import find_skeleton, skeleton_edges
from skeleton.sew.model import load_model
from skeleton.analysis.training import file_fetcher

#: (portal grammar module or None for a fixture of tests/sites, site name)
PARITY_SITES = [("sidebar", "portal-sidebar"), (None, "university")]


@pytest.mark.parametrize(("module", "name"), PARITY_SITES)
def test_the_offline_crawl_gives_the_real_crawls_tree(module: str | None, name: str, serve, tmp_path: Path) -> None:
    site = tmp_path / "site"
    if module:
        site.mkdir()
        importlib.import_module(f"farm.families.portal.{module}").build(name, site)
    else:
        shutil.copytree(ROOT / "tests" / "sites" / name, site)
    base = serve(site)
    cwd = tmp_path / "crawl"
    cwd.mkdir()
    done = run_scrapy(["crawl", "skeleton", "-a", f"base={base}", *FAST], cwd)
    assert done.returncode == 0, done.stderr[-3000:]
    done = run_scrapy(["tree", "--format", "csv"], cwd)
    assert done.returncode == 0, done.stderr[-3000:]
    real = {(row["parent"], row["url"]) for row in csv.DictReader(io.StringIO(done.stdout)) if row["parent"]}
    model = load_model(None)
    pages = list(find_skeleton(base, file_fetcher(site, redirects=True), model))
    offline = set(skeleton_edges(pages, model.edges))
    assert len(real) > 20
    assert real == offline, (sorted(real - offline)[:5], sorted(offline - real)[:5])
