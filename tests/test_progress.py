"""The crawl's progress (skeleton.extensions.progress): the pure parts of the line and
of the bar, the bar's log handler, and real crawls of the tiny site with stderr a
pseudo-terminal (a live tqdm bar, erased before the summary) or a pipe (the lines).

Nothing here asserts a duration: the crawls only last a few progress intervals."""
from __future__ import annotations

import fcntl
import functools
import io
import logging
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path
from typing import Any

import pytest
from helpers import FIXTURES, SlowHandler, run_scrapy, scrapy_env
from scrapy.settings import Settings
from tqdm import tqdm

from skeleton.extensions import progress as progress_module
from skeleton.extensions.progress import (BarHandler, CrawlProgress, bar_postfix, bar_total, progress_line,
                                          shows_bar)
from skeleton.store.keys import CrawlKeys

SITE = FIXTURES / "tinysite"
STATS = {"skeleton/pages": 420, "skeleton/nav_pages": 380, "skeleton/failed_pages": 3}
#: a short interval and a small delay: the crawl lasts several intervals
CRAWL = ["-s", "AUTOTHROTTLE_ENABLED=False", "-s", "DOWNLOAD_DELAY=0.1", "-s", "SKELETON_PROGRESS_INTERVAL=0.2"]
#: one draw of the bar: a carriage return, the percentage, the bar, pages done / total
BAR = re.compile(r"\r *\d+%\|[^\r\n]*\| *(\d+)/(\d+) pages \[")
#: the numbers after the bar's time, with the crawl's (read from Redis)
POSTFIX = re.compile(r"\d+ navigation, \d+ failed, \d+/min; \d+ queued, \d+ in flight, 1 worker\]")
#: a progress line (the lines, not the bar)
LINE = re.compile(r"\[skeleton\.progress\] INFO: crawl \S+: \d+ pages \(.*\), \d+ pages/min; \d+ queued, ")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


# -- the pure parts ---------------------------------------------------------------

def test_the_progress_line_is_unchanged() -> None:
    assert progress_line("docs-1a2b", STATS, 1250.4, (1200, 16, 2)) == (
        "crawl docs-1a2b: 420 pages (380 navigation, 3 failed), 1250 pages/min; 1200 queued, 16 in flight, 2 workers")
    assert progress_line("docs-1a2b", {}, 0.0, (0, 0, 1)) == (
        "crawl docs-1a2b: 0 pages (0 navigation, 0 failed), 0 pages/min; 0 queued, 0 in flight, 1 worker")
    assert progress_line("docs-1a2b", STATS, 60.0, None) == (
        "crawl docs-1a2b: 420 pages (380 navigation, 3 failed), 60 pages/min")


def test_the_bar_postfix_holds_the_lines_numbers_but_the_pages() -> None:
    assert bar_postfix(STATS, 1250.4, (1200, 16, 2)) == (
        "380 navigation, 3 failed, 1250/min; 1200 queued, 16 in flight, 2 workers")
    assert bar_postfix({}, 0.0, (0, 1, 1)) == "0 navigation, 0 failed, 0/min; 0 queued, 1 in flight, 1 worker"
    # Redis did not answer: this worker's numbers only, as in the line
    assert bar_postfix(STATS, 59.6, None) == "380 navigation, 3 failed, 60/min"


def test_the_bar_total_is_the_pages_the_queue_and_the_requests_in_flight() -> None:
    assert bar_total(420, (1200, 16, 2)) == 1636
    assert bar_total(0, (0, 0, 1)) == 0
    assert bar_total(420, None) is None  # not known: the bar keeps its last total


class _Stream(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def test_the_bar_is_shown_when_scrapy_logs_to_a_terminal_only(tmp_path: Path) -> None:
    terminal, pipe = _Stream(True), _Stream(False)
    to_terminal = logging.StreamHandler(terminal)
    assert shows_bar(True, to_terminal, terminal)
    assert not shows_bar(False, to_terminal, terminal)  # SKELETON_PROGRESS_BAR=False
    assert not shows_bar(True, logging.StreamHandler(pipe), pipe)  # a pipe, a file, Docker logs
    assert not shows_bar(True, logging.StreamHandler(pipe), terminal)  # logs go elsewhere
    assert not shows_bar(True, logging.NullHandler(), terminal)  # --nolog
    assert not shows_bar(True, None, terminal)  # no root handler (LOG_INSTALL_ROOT_HANDLER=False)
    assert not shows_bar(True, to_terminal, None)  # no stderr at all (pythonw)
    to_file = logging.FileHandler(tmp_path / "crawl.log", delay=True)  # LOG_FILE
    to_file.stream = terminal  # type: ignore[assignment]
    assert not shows_bar(True, to_file, terminal)


def _handler(stream: io.StringIO) -> logging.StreamHandler[Any]:
    """A handler as Scrapy's root handler: a level, a format, a filter."""
    handler = logging.StreamHandler(stream)
    handler.setLevel(logging.INFO)
    handler.setFormatter(logging.Formatter("%(levelname)s [%(name)s] %(message)s"))
    handler.addFilter(lambda record: "secret" not in record.getMessage())
    return handler


def test_the_bar_handler_writes_scrapys_records_above_the_bar() -> None:
    stream = _Stream(True)
    bar = tqdm(file=stream, total=10, leave=False, bar_format="{n}/{total} pages")
    log = logging.getLogger("skeleton.tests.bar")
    log.propagate = False
    bar_handler = BarHandler(_handler(stream))
    log.addHandler(bar_handler)
    try:
        bar.n = 3
        bar.refresh()
        before = len(stream.getvalue())
        log.debug("below the handler's level")
        log.info("a secret")
        assert len(stream.getvalue()) == before  # the level and the filter are the handler's
        log.warning("slow %s", "server")
        written = stream.getvalue()[before:]
        # the bar erased, the record on its own line in the handler's format, the bar again
        assert written.startswith("\r") and "\rWARNING [skeleton.tests.bar] slow server\n" in written
        assert written.endswith("\r3/10 pages")
    finally:
        log.removeHandler(bar_handler)
        bar.close()


def test_the_bar_takes_the_place_of_scrapys_root_handler_until_it_is_closed(monkeypatch) -> None:
    stream = _Stream(True)
    scrapy_handler = _handler(stream)
    monkeypatch.setattr(progress_module, "get_scrapy_root_handler", lambda: scrapy_handler)

    class Crawler:
        settings = Settings()

    extension = CrawlProgress(Crawler(), None, CrawlKeys("docs-1a2b"), 5.0)  # type: ignore[arg-type]
    logging.root.addHandler(scrapy_handler)
    try:
        extension._open_bar(scrapy_handler)
        assert scrapy_handler not in logging.root.handlers
        assert [h for h in logging.root.handlers if isinstance(h, BarHandler)]
        assert "pages [" in stream.getvalue()  # drawn at once
        extension._close_bar()
        extension._close_bar()  # spider_closed, then engine_stopped: closed once
        assert scrapy_handler in logging.root.handlers
        assert not [h for h in logging.root.handlers if isinstance(h, BarHandler)]
        assert stream.getvalue().endswith("\r")  # erased, the cursor at the start of its line
    finally:
        logging.root.removeHandler(scrapy_handler)
        for handler in [h for h in logging.root.handlers if isinstance(h, BarHandler)]:
            logging.root.removeHandler(handler)


# -- real crawls ------------------------------------------------------------------

def crawl_on_a_terminal(base: str, cwd: Path, *args: str, interrupt: bool = False) -> tuple[int, str]:
    """``scrapy crawl skeleton`` with stderr a pseudo-terminal of 160 columns; its
    exit code and all it wrote there. With ``interrupt``, Ctrl-C once the bar shows
    a page."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 160, 0, 0))
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "scrapy", "crawl", "skeleton", "-a", f"base={base}index.html", *CRAWL, *args],
            cwd=cwd, env=scrapy_env(), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=slave)
    finally:
        os.close(slave)
    chunks: list[bytes] = []
    deadline = time.monotonic() + 180  # a safety only
    try:
        while time.monotonic() < deadline:
            if select.select([master], [], [], 0.5)[0]:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # EIO: every writer closed the terminal
                    break
                if not chunk:
                    break
                chunks.append(chunk)
                if interrupt and re.search(r"\| *[1-9]\d*/\d+ pages \[", b"".join(chunks).decode("utf-8", "replace")):
                    process.send_signal(signal.SIGINT)
                    interrupt = False
            elif process.poll() is not None:
                break
        else:
            process.kill()
    finally:
        os.close(master)
    return process.wait(timeout=60), b"".join(chunks).decode("utf-8", "replace")


def screen(raw: str) -> list[str]:
    """The lines a terminal shows after ``raw``: a carriage return takes the cursor
    back to the start of the line, the next characters overwrite what is there."""
    lines = []
    for text in ANSI.sub("", raw).split("\n"):
        cells: list[str] = []
        column = 0
        for char in text:
            if char == "\r":
                column = 0
                continue
            if column < len(cells):
                cells[column] = char
            else:
                cells.append(char)
            column += 1
        lines.append("".join(cells).rstrip())
    return [line for line in lines if line.strip()]


def check_ends_with_the_summary(lines: list[str], reason: str = "finished") -> None:
    assert "[skeleton.progress] INFO: crawl " in lines[-1] and f" {reason}: " in lines[-1], lines[-3:]
    assert "tree of " in lines[-1] and "see it with `scrapy tree --crawl " in lines[-1]


def check_bar_then_summary(raw: str, reason: str = "finished") -> None:
    """The bar was drawn, redrawn in place, never garbled, erased when the spider
    closed; the summary is the last line on the screen."""
    assert "Traceback" not in raw, raw[-3000:]
    # this worker's pages out of the known total, then the crawl's numbers
    draws = [(int(done), int(total)) for done, total in BAR.findall(raw)]
    assert len(draws) >= 2, raw[-3000:]
    assert all(done <= total for done, total in draws)
    assert [done for done, _ in draws] == sorted(done for done, _ in draws)
    assert POSTFIX.search(raw), raw[-3000:]
    assert not LINE.search(raw)  # the bar replaces the progress lines
    # closed when the spider closes: never drawn again after Scrapy's stats nor the summary
    last_draw = max(match.start() for match in BAR.finditer(raw))
    assert last_draw < raw.rindex("Dumping Scrapy stats") < raw.rindex("[skeleton.progress] INFO: crawl ")
    lines = screen(raw)
    # nothing of the bar is left on the screen: neither erased bars nor log lines
    # written after a bar (every log line starts its own line)
    assert not [line for line in lines if "pages [" in line or "%|" in line], lines
    records = [line for line in lines if re.search(r"\] (DEBUG|INFO|WARNING|ERROR): ", line)]
    assert records and all(re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \[", line) for line in records), records
    assert any(f"Closing spider ({reason})" in line for line in records)  # logged while the bar was shown
    check_ends_with_the_summary(lines, reason)


def test_on_a_terminal_a_crawl_shows_a_bar_erased_before_its_summary(serve, tmp_path: Path) -> None:
    code, raw = crawl_on_a_terminal(serve(SITE), tmp_path)
    assert code == 0, raw[-3000:]
    check_bar_then_summary(raw)


class Slower(SlowHandler):
    delay = 0.5


def test_a_crawl_stopped_by_ctrl_c_leaves_the_terminal_clean(serve, tmp_path: Path) -> None:
    # a slow site: the crawl is still running, for seconds, when the bar shows its first page
    base = serve(handler=functools.partial(Slower, directory=str(SITE)))
    code, raw = crawl_on_a_terminal(base, tmp_path, interrupt=True)
    assert code == 0, raw[-3000:]
    assert "Received SIGINT, shutting down gracefully" in raw
    check_bar_then_summary(raw, "shutdown")


def test_on_a_pipe_a_crawl_writes_the_progress_lines_and_no_bar(serve, tmp_path: Path) -> None:
    done = run_scrapy(["crawl", "skeleton", "-a", f"base={serve(SITE)}index.html", *CRAWL], tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "\r" not in done.stderr and not BAR.search(done.stderr) and "%|" not in done.stderr
    assert LINE.search(done.stderr), done.stderr[-3000:]
    check_ends_with_the_summary(done.stderr.splitlines())


@pytest.mark.parametrize("setting", ["SKELETON_PROGRESS_BAR=False", "LOG_FILE=crawl.log"])
def test_on_a_terminal_the_bar_can_be_left_out(serve, tmp_path: Path, setting: str) -> None:
    code, raw = crawl_on_a_terminal(serve(SITE), tmp_path, "-s", setting)
    assert code == 0, raw[-3000:]
    assert not BAR.search(raw) and "%|" not in raw, raw[-3000:]
    log = (tmp_path / "crawl.log").read_text("utf-8") if setting.startswith("LOG_FILE") else raw
    assert LINE.search(log), log[-3000:]
    check_ends_with_the_summary(screen(log))
