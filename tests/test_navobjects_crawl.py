"""The detector switch in a real crawl (``scrapy crawl skeleton -a detector=...``)."""
from __future__ import annotations

import json
from pathlib import Path

from helpers import FAST, run_scrapy

SITE = Path(__file__).resolve().parent / "sites" / "docs_sidebar"


def crawl(base: str, cwd: Path, *args: str) -> list[dict]:
    done = run_scrapy(["crawl", "skeleton", "-a", f"base={base}index.html", *args, "-O", "pages.jsonl", *FAST], cwd)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    return [json.loads(line) for line in (cwd / "pages.jsonl").read_text("utf-8").splitlines()]


def test_detector_switch_in_a_real_crawl(serve, tmp_path: Path) -> None:
    base = serve(SITE)
    runs = {}
    for name in ("sew", "blocks", "hybrid"):
        cwd = tmp_path / name
        cwd.mkdir()
        # SEW computes navigation blocks when asked; the block detectors always do
        asked = ["-a", "analyses=blocks"] if name == "sew" else []
        pages = crawl(base, cwd, "-a", f"detector={name}", "-a", f"crawl=nav-{name}", *asked)
        runs[name] = {p["url"]: p for p in pages}
        home = runs[name][base]
        assert home["nav_blocks"], name
        assert all(b["class"] in ("nav_menu", "nav_list", "content", "other") and b["links"] > 0
                   and b["xpath"].startswith("/html/body") for b in home["nav_blocks"])
    # the blocks detector follows other links than SEW on this site
    edges = {name: sorted((p["url"], link["url"]) for p in run.values() for link in p["nav_links"])
             for name, run in runs.items()}
    assert edges["blocks"] != edges["sew"]


def test_unknown_detector_is_a_usage_error(tmp_path: Path) -> None:
    done = run_scrapy(["crawl", "skeleton", "-a", "base=http://127.0.0.1:9/", "-a", "detector=magic"], tmp_path)
    assert done.returncode == 2
    assert "detector must be one of sew, blocks, hybrid" in done.stderr


def test_scrapy_train_blocks_writes_a_json_model(tmp_path: Path) -> None:
    from skeleton.navobjects.svm import load_svm

    pages = Path(__file__).resolve().parent / "fixtures" / "navobjects"
    done = run_scrapy(["train", "--blocks", str(pages), "--blocks-output", "blocks.json"], tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert sorted(load_svm(tmp_path / "blocks.json").classes) == ["content", "nav_list", "nav_menu", "other"]
    done = run_scrapy(["train", "--blocks", str(pages)], tmp_path)
    assert done.returncode == 2


def test_nav_blocks_are_off_by_default(serve, tmp_path: Path) -> None:
    base = serve(SITE)
    pages = crawl(base, tmp_path, "-a", "crawl=nav-off")
    by_url = {p["url"]: p for p in pages}
    assert by_url[base]["nav_links"]  # the SEW crawl itself is unchanged
    assert all("nav_blocks" not in p for p in pages)  # not computed, not in the feed
