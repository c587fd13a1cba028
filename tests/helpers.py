"""Helpers for the tests: paths, quiet HTTP handler, running Scrapy commands."""
from __future__ import annotations

import http.server
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).resolve().parent / "fixtures"


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves a directory without logging every request to stderr."""

    def log_message(self, format: str, *args: object) -> None:
        pass


def scrapy_env(**extra: str) -> dict[str, str]:
    """Environment for running the project's Scrapy commands from any directory."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "SCRAPY_PROJECT")}
    env["SCRAPY_SETTINGS_MODULE"] = "skeleton.settings"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env.update(extra)
    return env


#: Settings that make test crawls fast: localhost needs no politeness delay.
FAST = ["-s", "AUTOTHROTTLE_ENABLED=False", "-s", "DOWNLOAD_DELAY=0", "-s", "LOG_LEVEL=INFO"]


def run_scrapy(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m scrapy ARGS`` in ``cwd``; returns the finished process."""
    return subprocess.run([sys.executable, "-m", "scrapy", *args], cwd=cwd, env=scrapy_env(**env),
                          capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL)
