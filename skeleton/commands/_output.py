"""What the commands writing a file (``-o FILE``) share: the target is checked
before the work and written atomically (:mod:`skeleton.output`); a file that
cannot be written is a :class:`~scrapy.exceptions.UsageError`, which Scrapy
prints as one ``error: cannot write FILE: reason`` line (exit code 2).

Not a command (see :mod:`skeleton.commands._recorded`).
"""
from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO

from scrapy.exceptions import UsageError

from skeleton.output import OutputError, check_output, write_atomic

__all__ = ["check_output_option", "write_output", "closed_stdout_ok"]


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


def check_output_option(path: str | None, make_dirs: bool = False) -> None:
    """A usage error now if ``path`` (an ``-o`` value, None: stdout) cannot be written."""
    if path:
        try:
            check_output(path, make_dirs)
        except OutputError as exc:
            raise UsageError(str(exc)) from None


def write_output(path: str, data: bytes | str | Callable[[IO[str]], None]) -> None:
    """:func:`skeleton.output.write_atomic`, its errors as one usage error line."""
    try:
        write_atomic(path, data)
    except OutputError as exc:
        raise UsageError(str(exc)) from None
