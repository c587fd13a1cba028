"""Files written atomically, with one-line errors (pure: no Scrapy, no Redis; below
every package, so that the model files of :mod:`skeleton.sew` and
:mod:`skeleton.navobjects` and every export, :mod:`skeleton.exports`, are written alike).

:func:`write_atomic` writes into a temporary file in the target's directory,
flushes it to disk and renames it onto the target (``os.replace``): readers see
the old file or the new one, never a part; a symbolic link at the target is
replaced by the file, not written through; on any failure the temporary file is
removed and the previous file is left as it was. The new file gets the previous
file's permissions, else the usual ones (0666 less the umask).

:func:`check_output` tells early, before the work, whether a path can be written
(its directory exists, it is not a directory, the directory is writable), so that
a long command fails at once. Both raise :class:`OutputError`, whose text is one
line ``cannot write PATH: reason``; the commands turn it into a usage error (one
``error:`` line, exit code 2: :func:`skeleton.cli.output_errors`).
"""
from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import IO

__all__ = ["OutputError", "Data", "check_output", "write_atomic"]

#: what an export writes: bytes, text, or a function that writes text to the file it is given
Data = bytes | str | Callable[[IO[str]], None]


class OutputError(Exception):
    """An output file that cannot be written: ``cannot write PATH: reason``."""

    def __init__(self, path: str | os.PathLike[str], reason: str) -> None:
        super().__init__(f"cannot write {os.fspath(path)}: {reason}")


def _reason(exc: OSError) -> str:
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if exc.errno == errno.EISDIR:
        return "is a directory"
    if exc.errno == errno.ENOENT:
        return "no such directory"
    return exc.strerror.lower() if exc.strerror else str(exc)


def check_output(path: str | os.PathLike[str], make_dirs: bool = False) -> Path:
    """``path`` if a file can be written there, else :class:`OutputError`. With
    ``make_dirs`` (the writer creates missing directories) the nearest existing
    ancestor must be a writable directory instead of the parent."""
    target = Path(path)
    if target.is_dir():
        raise OutputError(path, "is a directory")
    directory = target.parent
    if make_dirs:
        while not os.path.lexists(directory) and directory != directory.parent:
            directory = directory.parent
    if not directory.exists():
        raise OutputError(path, f"no such directory {directory}")
    if not directory.is_dir():
        raise OutputError(path, f"{directory} is not a directory")
    if not os.access(directory, os.W_OK | os.X_OK):
        raise OutputError(path, f"permission denied (directory {directory})")
    return target


def _mode(target: Path) -> int:
    """The previous file's permissions, else 0666 less the umask."""
    try:
        info = target.lstat()
        if stat.S_ISREG(info.st_mode):
            return stat.S_IMODE(info.st_mode)
    except OSError:
        pass
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _sync_directory(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_atomic(path: str | os.PathLike[str], data: Data, encoding: str = "utf-8") -> None:
    """Write ``data`` (bytes, text, or a function that writes text to the file it
    is given) to ``path`` atomically. An ``OSError`` of the file system is an
    :class:`OutputError`; an error of the writing function is raised as it is.
    Either way the temporary file is gone and the previous file is intact."""
    target = check_output(path)
    directory = target.parent
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise OutputError(path, _reason(exc)) from None
    try:
        with (open(fd, "wb") if isinstance(data, bytes)
              else open(fd, "w", encoding=encoding, newline="")) as out:
            os.fchmod(fd, _mode(target))
            if isinstance(data, (bytes, str)):
                out.write(data)
            else:
                data(out)
            out.flush()
            os.fsync(fd)
        os.replace(tmp, target)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise OutputError(path, _reason(exc)) from None
        raise
    _sync_directory(directory)

