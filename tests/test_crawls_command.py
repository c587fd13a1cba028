"""`scrapy crawls`: the recorded crawls listed (id, base, state, pages, size) and
one deleted with every key it had; output cut short by the reader is no error."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from helpers import FAST, FIXTURES, run_scrapy, scrapy_env

SITE = FIXTURES / "tinysite"


def test_crawls_lists_and_deletes(serve, tmp_path: Path) -> None:
    base = serve(SITE)
    for crawl in ("first", "second"):
        done = run_scrapy(["crawl", "skeleton", "-a", f"base={base}index.html", "-a", f"crawl={crawl}",
                           *FAST], tmp_path)
        assert done.returncode == 0, done.stderr[-2000:]
    listed = json.loads(run_scrapy(["crawls", "--json"], tmp_path).stdout)
    assert [c["crawl"] for c in listed] == ["second", "first"]  # most recent first
    for info in listed:
        assert info["base"] == base and info["state"] == "finished" and info["workers"] == 0
        assert info["pages"] > 10 and info["bytes"] > 1000
    table = run_scrapy(["crawls"], tmp_path).stdout.splitlines()
    assert table[0].split() == ["CRAWL", "BASE", "STATE", "PAGES", "STARTED", "SIZE"]
    assert table[1].split()[:3] == ["second", base, "finished"]
    done = run_scrapy(["crawls", "--delete", "first"], tmp_path)
    assert done.returncode == 0 and done.stdout.startswith("deleted crawl first (")
    assert [c["crawl"] for c in json.loads(run_scrapy(["crawls", "--json"], tmp_path).stdout)] == ["second"]
    check = subprocess.run(
        [sys.executable, "-c", "import sys; from skeleton.store.server import connect\n"
         "c = connect({'SKELETON_DATA_DIR': sys.argv[1]}); print(len(list(c.scan_iter('skeleton:first:*'))))",
         str(tmp_path / ".skeleton-data")], env=scrapy_env(), capture_output=True, text=True, timeout=60)
    assert check.stdout.strip() == "0", check.stderr
    done = run_scrapy(["crawls", "--delete", "first"], tmp_path)
    assert done.returncode == 2 and "no crawl 'first' recorded (known crawls: second)" in done.stderr
    done = run_scrapy(["tree", "--crawl", "first"], tmp_path)
    assert done.returncode == 2


def test_output_cut_short_by_the_reader_is_quiet(serve, tmp_path: Path) -> None:
    base = serve(SITE)
    done = run_scrapy(["crawl", "skeleton", "-a", f"base={base}index.html", *FAST], tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    for command in ("tree --format text", "crawls", "status", "entropy"):
        # `true` has exited long before the command writes: its first write fails
        piped = subprocess.run(f"'{sys.executable}' -m scrapy {command} | true", shell=True,
                               cwd=tmp_path, env=scrapy_env(), capture_output=True, text=True, timeout=120)
        assert "Traceback" not in piped.stderr and "BrokenPipe" not in piped.stderr, piped.stderr
