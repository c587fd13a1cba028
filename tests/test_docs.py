"""The documentation a user reads matches the code: the settings reference names
every SKELETON_* setting the code reads; the README stays short, and its commands
run as written (the quick start against a local fixture site, every other command
line checked against the command's --help); every benchmark table is the one
benchmarks/docs_tables.py renders from benchmarks/results, and is where it belongs."""
from __future__ import annotations

import re
import shlex
from pathlib import Path

from helpers import FIXTURES, ROOT, run_scrapy

README = (ROOT / "README.md").read_text("utf-8")


def _code_blocks(text: str) -> list[str]:
    return re.findall(r"```sh\n(.*?)```", text, re.S)


def test_the_settings_reference_names_every_setting_the_code_reads() -> None:
    read = set()
    for path in (ROOT / "skeleton").rglob("*.py"):
        read |= set(re.findall(r"[\"'](SKELETON_[A-Z_]+)[\"']", path.read_text("utf-8")))
    documented = set(re.findall(r"^\| `(SKELETON_[A-Z_]+)` \|", (ROOT / "docs" / "settings.md").read_text("utf-8"),
                                re.M))
    assert read and documented == read


def test_the_readme_is_short() -> None:
    assert len(README.splitlines()) <= 250


def test_the_readme_quick_start_runs_as_written(serve, tmp_path: Path) -> None:
    base = serve(FIXTURES / "tinysite")
    (tmp_path / "scrapy.cfg").write_text("[settings]\ndefault = skeleton.settings\n", "utf-8")
    quick = next(block for block in _code_blocks(README) if block.startswith("scrapy crawl skeleton -a base="))
    commands = [line for line in quick.splitlines() if line.startswith("scrapy ")]
    assert len(commands) >= 3
    for line in commands:
        args = shlex.split(line.replace("https://www.example.org/", base))[1:]
        done = run_scrapy([*args, "-s", "AUTOTHROTTLE_ENABLED=False"] if args[0] == "crawl" else args, tmp_path)
        assert done.returncode == 0, (line, done.stderr[-2000:])


def test_every_command_line_of_the_readme_uses_options_its_command_has(tmp_path: Path) -> None:
    (tmp_path / "scrapy.cfg").write_text("[settings]\ndefault = skeleton.settings\n", "utf-8")
    helps: dict[str, str] = {}
    checked = 0
    for block in _code_blocks(README):
        for line in block.splitlines():
            if not line.startswith("scrapy ") or "crawl skeleton" in line or "crawl template" in line:
                continue
            command = line.split()[1]
            if command not in helps:
                done = run_scrapy([command, "-h"], tmp_path)
                assert done.returncode == 0, line
                helps[command] = done.stdout
            for option in re.findall(r"(?<![\w-])(--?[a-z][\w-]*)", line):
                assert option in helps[command], (line, option)
            checked += 1
    assert checked >= 8


def _docs_tables():  # type: ignore[no-untyped-def]
    import sys

    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from benchmarks import docs_tables

    return docs_tables


def test_every_table_block_of_the_docs_is_what_the_committed_results_give() -> None:
    tables = _docs_tables()
    checked = 0
    for path in tables.docs():
        doc = path.relative_to(ROOT).as_posix()
        for name, block in tables.blocks(path.read_text("utf-8")).items():
            assert name in tables.TABLES, f"{doc}: table:{name} has no renderer in benchmarks/docs_tables.py"
            assert tables.TABLES[name].doc == doc, f"table:{name} belongs in {tables.TABLES[name].doc}"
            assert block == tables.render(name), (
                f"{doc}: table:{name} differs from benchmarks/results (python benchmarks/docs_tables.py --write)")
            checked += 1
    assert checked >= len(tables.TABLES)


def test_every_benchmark_table_has_its_block_in_its_doc() -> None:
    tables = _docs_tables()
    assert "corpus" in tables.TABLES
    for name, spec in tables.TABLES.items():
        text = (ROOT / spec.doc).read_text("utf-8")
        assert text.count(spec.begin()) == 1 and text.count(spec.end()) == 1, \
            f"{spec.doc} must hold table:{name} once, between its markers"
        assert text.index(spec.begin()) < text.index(spec.end())


def test_docs_tables_check_exits_zero_when_the_docs_are_current(capsys) -> None:
    assert _docs_tables().main(["--check"]) == 0
    assert "up to date" in capsys.readouterr().out
