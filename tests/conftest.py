"""Shared fixtures: local HTTP sites, project settings, running Scrapy commands."""
from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from helpers import SiteHandler


@pytest.fixture
def serve() -> Iterator[Callable[..., str]]:
    """``serve(directory)`` or ``serve(handler=HandlerClass)`` starts a threaded
    HTTP server on 127.0.0.1 (a free port) and returns its root URL; servers stop
    after the test. A directory is served by ``SiteHandler`` (tests/sites/server.py:
    ``_redirects`` rules and ``PATH@QUERY`` pages on top of a static server)."""
    servers: list[tuple[http.server.ThreadingHTTPServer, threading.Thread]] = []

    def start(directory: Path | None = None,
              handler: type[http.server.BaseHTTPRequestHandler] | None = None) -> str:
        if handler is None:
            handler = functools.partial(SiteHandler, directory=str(directory))
        httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        httpd.daemon_threads = True
        thread = threading.Thread(target=httpd.serve_forever, daemon=True)
        thread.start()
        servers.append((httpd, thread))
        return f"http://127.0.0.1:{httpd.server_port}/"

    yield start
    for httpd, thread in servers:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=10)


@pytest.fixture(autouse=True)
def _no_external_redis(monkeypatch: pytest.MonkeyPatch) -> None:
    """In-process tests use the embedded server unless a test sets REDIS_URL itself."""
    monkeypatch.delenv("REDIS_URL", raising=False)


@pytest.fixture(scope="session")
def redis_settings(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Settings for in-process use of one embedded Redis server for the session."""
    return {"SKELETON_DATA_DIR": str(tmp_path_factory.mktemp("redis-data"))}


@pytest.fixture
def redis_client(redis_settings: dict[str, str]) -> Iterator[object]:
    from skeleton.store.server import connect

    client = connect(redis_settings)
    yield client
    client.close()
