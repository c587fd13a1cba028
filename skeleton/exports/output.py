"""Where an export goes: a file, written atomically (:mod:`skeleton.files`), or
standard output, whose reader may stop early (``scrapy tree | head``)."""
from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from skeleton.files import Data, write_atomic

__all__ = ["write_output", "closed_stdout_ok"]


def write_output(path: str | None, data: Data) -> None:
    """``data`` written to the file ``path`` (:func:`write_atomic`: all or nothing),
    or to standard output without a path (bytes as they are)."""
    if path:
        write_atomic(path, data)
    elif isinstance(data, bytes):
        sys.stdout.buffer.write(data)
    elif isinstance(data, str):
        sys.stdout.write(data)
    else:
        data(sys.stdout)


@contextmanager
def closed_stdout_ok() -> Iterator[None]:
    """A reader that stops early (``scrapy status | head``) ends the output quietly:
    no ``BrokenPipeError`` traceback. Standard output is pointed at ``os.devnull`` so
    that Python's flush at exit does not fail again (the ``signal`` module's recipe)."""
    try:
        yield
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
