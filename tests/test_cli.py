"""The base of the commands (skeleton/cli.py, issue 30 item 6): help from the class
docstring, the shared options declared once, the positional arguments and the ``-o``
file checked before the work, every output error one usage error; the formats
(skeleton/exports/formats.py) chosen by --format, then the output file's suffix."""
from __future__ import annotations

import argparse
import importlib
import io
import sys
from pathlib import Path

import pytest
from scrapy.exceptions import UsageError
from scrapy.settings import Settings

from skeleton.cli import CRAWL, OUTPUT, SkeletonCommand, format_option, json_option, output_errors
from skeleton.exports.formats import DIFF, SCHEMA, TERMS, TREE, Formats
from skeleton.files import OutputError

COMMANDS = ("tree", "status", "diff", "crawls", "entropy", "informative", "schema", "evaluate", "train")


class Probe(SkeletonCommand):
    """Do a thing

    First line of the description,
    its second line.

    A second paragraph.
    """

    usage = "[--crawl ID] [-o FILE] [--format a|b]"
    options = (CRAWL, OUTPUT, json_option("print JSON"), format_option(Formats(("a", "b", "json"), "a", {"bee": "b"})))

    def execute(self, args: list[str], opts: argparse.Namespace) -> None:
        self.done = (args, opts)


def _parse(command: SkeletonCommand, *argv: str) -> tuple[list[str], argparse.Namespace]:
    command.settings = Settings()
    parser = argparse.ArgumentParser()
    command.add_options(parser)
    opts, args = parser.parse_known_args(argv)
    return args, opts


def test_the_help_is_the_docstring_and_the_options_come_in_their_order() -> None:
    probe = Probe()
    assert probe.syntax() == "[--crawl ID] [-o FILE] [--format a|b]"
    assert probe.short_desc() == "Do a thing"
    assert probe.long_desc() == "First line of the description, its second line. A second paragraph."
    args, opts = _parse(probe, "--crawl", "c1", "-o", "x.bee")
    assert (opts.crawl, opts.output, opts.json, opts.format) == ("c1", "x.bee", False, None)


def test_the_arguments_and_the_output_file_are_checked_before_the_work(tmp_path: Path) -> None:
    probe = Probe()
    with pytest.raises(UsageError, match="^unexpected arguments: a b$"):
        probe.run(*_parse(probe, "a", "b"))
    with pytest.raises(UsageError, match="is a directory"):
        probe.run(*_parse(probe, "-o", str(tmp_path)))
    assert not hasattr(probe, "done")
    probe.run(*_parse(probe, "-o", str(tmp_path / "x")))
    assert probe.done[0] == []


def test_an_output_error_is_one_usage_error() -> None:
    with pytest.raises(UsageError, match="^cannot write x: no such directory$"):
        with output_errors():
            raise OutputError("x", "no such directory")


def test_the_format_is_given_else_named_by_the_suffix_else_the_default() -> None:
    probe = Probe()
    assert probe.output_format(_parse(probe)[1]) == "a"
    assert probe.output_format(_parse(probe, "-o", "out.BEE")[1]) == "b"
    assert probe.output_format(_parse(probe, "-o", "out.bee", "--format", "a")[1]) == "a"
    assert probe.output_format(_parse(probe, "--json")[1]) == "json"
    assert probe.output_format(_parse(probe, "--json", "--format", "json")[1]) == "json"
    with pytest.raises(UsageError, match="^--json and --format b disagree: give one$"):
        probe.output_format(_parse(probe, "--json", "--format", "b")[1])


@pytest.mark.parametrize(("formats", "output", "expected"), [
    (TREE, None, "json"), (TREE, "t.txt", "text"), (TREE, "t.xml", "sitemap"), (TREE, "t.htm", "html"),
    (TREE, "t.unknown", "json"), (DIFF, None, "text"), (DIFF, "d.SVG", "svg"), (SCHEMA, "s.xml", "graphml"),
    (SCHEMA, "s.graphml", "graphml"), (SCHEMA, "s.json", "json"), (SCHEMA, None, "json"), (TERMS, None, "text"),
])
def test_each_command_names_its_formats(formats: Formats, output: str | None, expected: str) -> None:
    assert formats.choose(None, output) == expected
    assert expected in formats.names


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_is_a_skeleton_command_with_a_summary(name: str) -> None:
    command = importlib.import_module(f"skeleton.commands.{name}").Command()
    assert isinstance(command, SkeletonCommand)
    assert command.short_desc() and "\n" not in command.long_desc() and "  " not in command.long_desc()


def test_a_reader_that_stops_early_ends_the_output_quietly(monkeypatch: pytest.MonkeyPatch) -> None:
    class Closed(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError

    probe = Probe()
    probe.execute = lambda args, opts: sys.stdout.write("x")  # type: ignore[method-assign]
    monkeypatch.setattr("sys.stdout", Closed())
    monkeypatch.setattr("sys.stdout.fileno", lambda: 1, raising=False)
    monkeypatch.setattr("os.open", lambda path, flags: -1)
    monkeypatch.setattr("os.dup2", lambda fd, fd2: None)
    probe.run(*_parse(probe))  # no BrokenPipeError
