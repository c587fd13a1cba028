"""The documentation a user reads matches the code: the settings reference names
every SKELETON_* setting the code reads; the README stays a five-minute read (short,
no benchmark table, no commit hash, its test command the one CI runs, its accuracy
line the farm table's figures), and its commands run as written (the quick start
against a local fixture site, every other command line checked against the
command's --help); every relative link of the README and docs/ reaches a file and,
in a markdown page, a heading; every benchmark table is the one
benchmarks/docs_tables.py renders from benchmarks/results, and is where it belongs."""
from __future__ import annotations

import json
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
    assert len(README.splitlines()) <= 150


def test_the_readme_has_no_benchmark_table_and_no_commit_hash() -> None:
    assert "<!-- table:" not in README
    hashes = [word for word in re.findall(r"(?<![\w-])[0-9a-f]{7,40}(?![\w-])", README)
              if re.search(r"\d", word) and re.search(r"[a-f]", word)]
    assert not hashes


def test_the_readme_test_command_is_the_one_ci_runs() -> None:
    ci = (ROOT / ".ci" / "run").read_text("utf-8").strip().splitlines()[-1]
    assert ci.startswith("python3.11 -m venv .venv && ") and ci.endswith("-m pytest -q")
    assert ci in _code_blocks(README)[0].splitlines()


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def test_the_readme_accuracy_line_gives_the_farm_tables_figures() -> None:
    rendered = _docs_tables().render("farm")
    total = next(line for line in rendered.splitlines() if line.startswith("| **all** |"))
    cells = [cell.strip().strip("*") for cell in total.strip("|").split("|")]
    sites, mean, bfs, folder, below = cells[1], cells[2], cells[4], cells[5], cells[6]
    families = sum(1 for line in rendered.splitlines() if line.startswith("| ") and "---" not in line) - 2
    section = README.split("## Accuracy", 1)[1].split("\n## ", 1)[0]
    text = " ".join(section.split())
    for figure in (f"mean edge F1 over {sites} labelled sites of {families} generator families is {mean}",
                   f"against {bfs} for an SEO crawler's breadth-first tree and {folder} for the URL-folder tree",
                   f"loses to one of them on {_count(int(below), 'site')}"):
        assert figure in text, figure
    assert "(docs/benchmarks/accuracy.md)" in text
    rows = json.loads((ROOT / "benchmarks" / "results" / "farm.json").read_text("utf-8"))["rows"]
    under = sum(1 for row in rows if row["ours"]["edge_f1"] < 0.85)
    over = sum(1 for row in rows if row["fetched_per_true"] > 1.3)
    assert (f"{_count(under, 'site')} score{'s' if under == 1 else ''} under 0.85, and "
            f"{_count(over, 'site')} fetch{'es' if over == 1 else ''} more than 1.3 pages") in text
    sites = json.loads((ROOT / "benchmarks" / "results" / "corpus.json").read_text("utf-8"))["sites"]
    mean = sum(site["sew"]["edges"]["all"]["f1"] for site in sites.values()) / len(sites)
    assert f"real crawls, the mean is {mean:.3f}" in text
    pairs = json.loads((ROOT / "benchmarks" / "results" / "leave_two_out.json").read_text("utf-8"))["summary"]
    assert (f"the mean is {pairs['pair_mean']:.3f} and {_count(len(pairs['sites_under_bar']), 'site')} "
            "(all blogs) fall under 0.85") in text
    views = json.loads((ROOT / "benchmarks" / "results" / "view_prediction.json").read_text("utf-8"))
    held = [p for p in views["prediction"] if p["features"] == "links" and p["training"] == "held out by family"]
    over = {len(p["sites_over"]) for p in held}
    losing = sorted(len(p["sites_losing"]) for p in held)
    assert len(over) == 1 and (f"leaves {over.pop()} of those sites over and stops reaching true pages on "
                               f"{losing[0]} to {losing[-1]} sites") in text
    declared = [r for r in json.loads((ROOT / "benchmarks" / "results" / "declared_skip.json").read_text("utf-8"))["rows"]
                if r["first"]]
    under = sum(r["with"]["fetched_per_true"] <= 1.3 for r in declared)
    worse = sum(r["with"]["edge_f1"] < r["without"]["edge_f1"] for r in declared)
    assert f"{under} of the {len(declared)} sites fetch at most 1.3 pages per true page" in text and worse == 0


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


def _markdown_pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def _prose(text: str) -> str:
    """The text without its fenced code blocks (their brackets are no links)."""
    return re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)


def _anchors(text: str) -> set[str]:
    """The anchors GitHub gives a page's headings."""
    found: set[str] = set()
    for heading in re.findall(r"^#{1,6} (.+)$", _prose(text), re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        n, name = 0, slug
        while name in found:
            n += 1
            name = f"{slug}-{n}"
        found.add(name)
    return found


def test_every_relative_link_of_the_docs_reaches_a_file_and_its_heading() -> None:
    broken = []
    checked = 0
    for page in _markdown_pages():
        text = page.read_text("utf-8")
        for target in re.findall(r"\]\(([^)\s]+)\)", _prose(text)):
            if re.match(r"[a-z][a-z0-9+.-]*:", target):
                continue
            path, _, anchor = target.partition("#")
            dest = (page.parent / path).resolve() if path else page
            where = f"{page.relative_to(ROOT).as_posix()}: ({target})"
            checked += 1
            if not dest.exists():
                broken.append(f"{where}: no such file")
            elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest.read_text("utf-8")):
                broken.append(f"{where}: no heading #{anchor}")
    assert checked >= 50 and not broken, "\n".join(broken)


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
