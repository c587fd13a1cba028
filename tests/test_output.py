"""Output files (issue 13, item 9): every command that writes a file (``tree``,
``diff``, ``schema``, ``informative``, ``train -o`` and ``--blocks-output``)
writes it atomically (a temporary file in the target directory, renamed), replaces
a symbolic link rather than writing through it, leaves the previous file intact
and no temporary file behind when writing fails, and reports a missing
directory, a directory target or a file system error in one line, exit code 2;
``scrapy crawl -o`` checks its feed file before crawling."""
from __future__ import annotations

import errno
import functools
import http.server
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import FAST, FIXTURES, ROOT, SiteHandler, run_scrapy, scrapy_env

from skeleton.files import OutputError, check_output, write_atomic
from skeleton.store.server import connect

CRAWL = "out"
OLD = "previous content\n"


# -- the helper ---------------------------------------------------------------------


def leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(".tmp"))


def test_write_atomic_writes_bytes_text_and_a_writer(tmp_path: Path) -> None:
    umask = os.umask(0o022)
    try:
        write_atomic(tmp_path / "a.bin", b"\x00bytes")
        write_atomic(tmp_path / "b.txt", "café\n")
        write_atomic(tmp_path / "c.jl", lambda out: out.writelines(["1\n", "2\n"]))
    finally:
        os.umask(umask)
    assert (tmp_path / "a.bin").read_bytes() == b"\x00bytes"
    assert (tmp_path / "b.txt").read_text("utf-8") == "café\n"
    assert (tmp_path / "c.jl").read_text("utf-8") == "1\n2\n"
    assert {(p.stat().st_mode & 0o777) for p in tmp_path.iterdir()} == {0o644}
    (tmp_path / "b.txt").chmod(0o600)
    write_atomic(tmp_path / "b.txt", "new\n")  # the previous file's permissions stay
    assert (tmp_path / "b.txt").stat().st_mode & 0o777 == 0o600
    assert leftovers(tmp_path) == []


def test_write_atomic_errors_are_one_line(tmp_path: Path) -> None:
    (tmp_path / "adir").mkdir()
    (tmp_path / "afile").write_text("x")
    for path, message in [
        (tmp_path / "missing" / "x.json", f"no such directory {tmp_path / 'missing'}"),
        (tmp_path / "adir", "is a directory"),
        (tmp_path / "afile" / "x.json", f"{tmp_path / 'afile'} is not a directory"),
    ]:
        with pytest.raises(OutputError) as info:
            write_atomic(path, "data")
        assert str(info.value) == f"cannot write {path}: {message}"
    assert (tmp_path / "afile").read_text() == "x" and leftovers(tmp_path) == []
    # Scrapy's feed export creates missing directories: only the nearest existing one counts
    check_output(tmp_path / "new" / "dirs" / "x.jl", make_dirs=True)
    with pytest.raises(OutputError, match="afile is not a directory"):
        check_output(tmp_path / "afile" / "sub" / "x.jl", make_dirs=True)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes anywhere")
def test_write_atomic_permission_denied(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "x.json").write_text(OLD)
    locked.chmod(0o555)
    try:
        with pytest.raises(OutputError, match=r"cannot write .*x\.json: permission denied"):
            write_atomic(locked / "x.json", "data")
    finally:
        locked.chmod(0o755)
    assert (locked / "x.json").read_text() == OLD


def test_write_atomic_replaces_a_symlink_not_its_target(tmp_path: Path) -> None:
    (tmp_path / "target.json").write_text(OLD)
    (tmp_path / "link.json").symlink_to(tmp_path / "target.json")
    write_atomic(tmp_path / "link.json", "new\n")
    assert not (tmp_path / "link.json").is_symlink()
    assert (tmp_path / "link.json").read_text() == "new\n"
    assert (tmp_path / "target.json").read_text() == OLD


def test_write_atomic_failing_mid_write_keeps_the_previous_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "x.jl"
    target.write_text(OLD)

    def half(out) -> None:  # type: ignore[no-untyped-def]
        out.write("first row\n" * 1000)
        raise RuntimeError("the source went away")

    with pytest.raises(RuntimeError, match="went away"):  # the writer's error, as it is
        write_atomic(target, half)
    assert target.read_text() == OLD and leftovers(tmp_path) == []

    def disk_full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(OutputError) as info:
        write_atomic(target, "new content\n")
    assert str(info.value) == f"cannot write {target}: no space left on device"
    assert target.read_text() == OLD and leftovers(tmp_path) == []


# -- the commands -------------------------------------------------------------------

SITES = ROOT / "tests" / "sites"
#: command name -> (arguments, output option); {crawl} is the recorded crawl's id
WRITERS = {
    "tree": (["tree", "--crawl", CRAWL], "-o"),
    "diff": (["diff", CRAWL, CRAWL, "--json"], "-o"),
    "schema": (["schema", "--crawl", CRAWL], "-o"),
    "informative": (["informative", "--crawl", CRAWL], "-o"),
    "train": (["train", "--site", str(SITES / "docs_sidebar.truth.json"), str(SITES / "docs_sidebar")],
              "-o"),
    "train-blocks": (["train", "--blocks", str(FIXTURES / "navobjects")], "--blocks-output"),
}


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[str]]:
    """A crawl of the tiny site recorded in an embedded Redis this process keeps
    running; the settings arguments that point the commands at it."""
    data = tmp_path_factory.mktemp("output-data")
    handler = functools.partial(SiteHandler, directory=str(FIXTURES / "tinysite"))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    settings = ["-s", f"SKELETON_DATA_DIR={data}"]
    try:
        done = run_scrapy(["crawl", "skeleton", "-a", f"base=http://127.0.0.1:{httpd.server_port}/index.html",
                           "-a", "mode=bfs", "-a", "analyses=all", "-a", f"crawl={CRAWL}", *FAST, *settings], data)
        assert done.returncode == 0, done.stderr[-3000:]
    finally:
        httpd.shutdown()
        httpd.server_close()
    client = connect({"SKELETON_DATA_DIR": str(data)})  # the commands attach to this server
    yield settings
    client.close()


def command(name: str, output: str, settings: list[str]) -> list[str]:
    args, option = WRITERS[name]
    return [*args, option, output, *(settings if args[0] != "train" else [])]


def one_error_line(done: subprocess.CompletedProcess[str], line: str) -> None:
    assert done.returncode == 2, done.stderr[-2000:]
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    assert done.stderr.rstrip().splitlines()[-1].endswith(f"error: {line}")


@pytest.mark.parametrize("name", WRITERS)
def test_a_missing_directory_or_a_directory_is_one_error_line(name: str, tmp_path: Path,
                                                               recorded: list[str]) -> None:
    done = run_scrapy(command(name, "missing/out.json", recorded), tmp_path)
    one_error_line(done, "cannot write missing/out.json: no such directory missing")
    (tmp_path / "adir").mkdir()
    done = run_scrapy(command(name, "adir", recorded), tmp_path)
    one_error_line(done, "cannot write adir: is a directory")
    assert not (tmp_path / "missing").exists() and list((tmp_path / "adir").iterdir()) == []


@pytest.mark.parametrize("name", WRITERS)
def test_a_symlink_is_replaced_and_nothing_is_left_behind(name: str, tmp_path: Path,
                                                          recorded: list[str]) -> None:
    (tmp_path / "elsewhere.json").write_text(OLD)
    (tmp_path / "out.json").symlink_to(tmp_path / "elsewhere.json")
    done = run_scrapy(command(name, "out.json", recorded), tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    out = tmp_path / "out.json"
    assert not out.is_symlink() and out.stat().st_size > 0 and out.read_text("utf-8") != OLD
    assert (tmp_path / "elsewhere.json").read_text() == OLD
    assert leftovers(tmp_path) == []


def run_with_file_size_limit(args: list[str], cwd: Path, limit: int) -> subprocess.CompletedProcess[str]:
    """The command in a process that may write no file beyond ``limit`` bytes (a
    disk that fills up mid-write: EFBIG; Python ignores SIGXFSZ)."""
    code = ("import resource, runpy, sys; "
            f"resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit})); "
            "sys.argv[0] = 'scrapy'; runpy.run_module('scrapy', run_name='__main__', alter_sys=True)")
    return subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, env=scrapy_env(),
                          capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("name", WRITERS)
def test_a_failure_mid_write_keeps_the_previous_file(name: str, tmp_path: Path,
                                                     recorded: list[str]) -> None:
    (tmp_path / "out.json").write_text(OLD)
    done = run_with_file_size_limit(command(name, "out.json", recorded), tmp_path, limit=48)
    one_error_line(done, "cannot write out.json: file too large")
    assert (tmp_path / "out.json").read_text() == OLD and leftovers(tmp_path) == []


def test_crawl_checks_its_feed_file_before_crawling(tmp_path: Path) -> None:
    (tmp_path / "adir.jl").mkdir()
    (tmp_path / "afile").write_text("x")
    base = ["crawl", "skeleton", "-a", "base=http://127.0.0.1:9/"]
    for option, path, message in [
        ("-o", "adir.jl", "cannot write adir.jl: is a directory"),
        ("-O", "afile/items.jl", "cannot write afile/items.jl: afile is not a directory"),
        ("-o", f"file://{tmp_path}/adir.jl:jsonlines", f"cannot write {tmp_path}/adir.jl: is a directory"),
    ]:
        done = run_scrapy([*base, option, path], tmp_path)
        one_error_line(done, message)
        assert "Spider opened" not in done.stderr
