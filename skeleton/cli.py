"""The base of the project's ``scrapy`` commands (``tree``, ``status``, ``diff`` ...):
what they share, declared once.

A command is a :class:`SkeletonCommand` subclass that declares rather than codes:

* its help, the class docstring: the first paragraph is the one-line summary
  (``short_desc``, listed by ``scrapy -h``), the rest, its lines joined by spaces, the
  description (``long_desc``; the summary when there is none); ``usage`` is the syntax
  after ``scrapy NAME``;
* ``options``: the options it takes, in the order its help lists them
  (:class:`Option`); the shared ones are :data:`CRAWL` (``--crawl ID``),
  :data:`OUTPUT` (``-o FILE``), :func:`format_option` (``--format``: the choices
  of a :class:`~skeleton.exports.formats.Formats`, from which
  :meth:`SkeletonCommand.output_format` chooses) and :func:`json_option`.

:meth:`SkeletonCommand.run` checks, in this order and before any work, the positional
arguments (:meth:`SkeletonCommand.check_arguments`: none by default) and the ``-o``
file (:func:`~skeleton.files.check_output`), then calls
:meth:`SkeletonCommand.execute`. Every error is a :class:`~scrapy.exceptions.UsageError`,
which Scrapy prints as one ``error:`` line after the usage (exit code 2); an
:class:`~skeleton.files.OutputError` anywhere in the command is one
(:func:`output_errors`). A reader of the output that stops early (``scrapy status |
head``) ends it quietly (:func:`~skeleton.exports.output.closed_stdout_ok`).

Not in ``skeleton.commands``: Scrapy lists every ``ScrapyCommand`` subclass defined
in a module of ``COMMANDS_MODULE`` as a command named after its module.
"""
from __future__ import annotations

import argparse
import inspect
from abc import abstractmethod
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from skeleton.exports.formats import Formats
from skeleton.exports.output import closed_stdout_ok
from skeleton.files import OutputError, check_output

__all__ = ["Option", "option", "CRAWL", "OUTPUT", "format_option", "json_option", "output_errors",
           "SkeletonCommand"]


@dataclass(frozen=True)
class Option:
    """One command-line option: its flags and the keywords of ``add_argument``
    (``formats``: the formats a ``--format`` chooses from)."""

    flags: tuple[str, ...]
    keywords: Mapping[str, Any]
    formats: Formats | None = None

    def add_to(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument(*self.flags, **self.keywords)


def option(*flags: str, **keywords: Any) -> Option:
    """An :class:`Option` (``option("--top", type=int, metavar="N")``)."""
    return Option(flags, keywords)


#: ``--crawl ID``: a crawl recorded in Redis (default: the most recently started or resumed)
CRAWL = option("--crawl", help="crawl id (default: the most recent crawl)")
#: ``-o FILE``: written atomically instead of standard output, checked before the work
OUTPUT = option("-o", "--output", metavar="FILE", help="write to FILE, not stdout")


def format_option(formats: Formats, help: str | None = None) -> Option:
    """``--format``, one of ``formats``' names (given none: chosen by :meth:`SkeletonCommand.output_format`)."""
    return Option(("--format",), {"choices": formats.names, "default": None, "help": help}, formats)


def json_option(help: str) -> Option:
    """``--json``: print JSON."""
    return option("--json", action="store_true", help=help)


@contextmanager
def output_errors() -> Iterator[None]:
    """An :class:`~skeleton.files.OutputError` inside is a usage error (one line)."""
    try:
        yield
    except OutputError as exc:
        raise UsageError(str(exc)) from None


class SkeletonCommand(ScrapyCommand):
    """A project command: help from the docstring, declared options, checks before the work."""

    requires_project = True
    default_settings: ClassVar[dict[str, Any]] = {"LOG_ENABLED": False}
    #: the syntax after ``scrapy NAME``
    usage: ClassVar[str] = ""
    #: the command's own options, in help order
    options: ClassVar[tuple[Option, ...]] = ()

    def _help(self) -> list[str]:
        paragraphs = inspect.cleandoc(self.__doc__ or "").split("\n\n")
        return [" ".join(paragraph.split()) for paragraph in paragraphs]

    def syntax(self) -> str:
        return self.usage

    def short_desc(self) -> str:
        return self._help()[0]

    def long_desc(self) -> str:
        return " ".join(self._help()[1:]) or self.short_desc()

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        for each in self.options:
            each.add_to(parser)

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        with closed_stdout_ok(), output_errors():
            self.check_arguments(args, opts)
            if getattr(opts, "output", None):
                check_output(opts.output)
            self.execute(args, opts)

    def check_arguments(self, args: list[str], opts: argparse.Namespace) -> None:
        """A usage error for wrong positional arguments (the default: any)."""
        if args:
            raise UsageError(f"unexpected arguments: {' '.join(args)}")

    def output_format(self, opts: argparse.Namespace) -> str:
        """The format to write: ``--json`` (which a ``--format`` other than json
        contradicts), ``--format``, else what ``-o FILE``'s suffix names, else the default
        (those of the command's :func:`format_option`)."""
        formats = next(each.formats for each in self.options if each.formats is not None)
        given = opts.format
        if getattr(opts, "json", False):
            if given not in (None, "json"):
                raise UsageError(f"--json and --format {given} disagree: give one")
            return "json"
        return formats.choose(given, getattr(opts, "output", None))

    @abstractmethod
    def execute(self, args: list[str], opts: argparse.Namespace) -> None:
        """The command's work, after the checks."""
