"""The optional analyses switch (skeleton.analyses): names, settings, the spider argument."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers import run_scrapy
from scrapy.settings import Settings

from skeleton.analyses import ANALYSES, AnalysesError, enabled, parse_analyses


@pytest.mark.parametrize(("value", "expected"), [
    (None, set()), ("", set()), ("none", set()), ("wisdom", {"wisdom"}),
    ("Schema, blocks", {"schema", "blocks"}), ("all", set(ANALYSES)), (["wisdom", "all"], set(ANALYSES)),
])
def test_parse_analyses(value: object, expected: set[str]) -> None:
    assert parse_analyses(value) == expected  # type: ignore[arg-type]


def test_an_unknown_analysis_names_the_closest() -> None:
    with pytest.raises(AnalysesError, match="'wisdon'.*did you mean 'wisdom'"):
        parse_analyses("wisdon")


def test_enabled_reads_the_list_and_each_analysis_setting() -> None:
    assert not any(enabled(Settings(), name) for name in ANALYSES)
    assert not enabled(None, "schema")
    listed = Settings({"SKELETON_ANALYSES": "schema,wisdom"})
    assert [enabled(listed, n) for n in ANALYSES] == [True, False, True]
    own = Settings({"SKELETON_NAV_BLOCKS_ENABLED": "True"})
    assert [enabled(own, n) for n in ANALYSES] == [False, True, False]


def test_the_project_settings_run_no_optional_analysis() -> None:
    from scrapy.utils.project import get_project_settings

    settings = get_project_settings()
    assert not any(enabled(settings, name) for name in ANALYSES)


def test_a_bad_analyses_argument_is_one_error_line(tmp_path: Path) -> None:
    done = run_scrapy(["crawl", "skeleton", "-a", "base=http://127.0.0.1:9/", "-a", "analyses=wisdom,shema"],
                      tmp_path)
    assert done.returncode == 2
    assert "unknown analysis 'shema' (did you mean 'schema'?)" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(("setting", "message"), [
    ("SKELETON_KEEP_PAGES=maybe", "setting SKELETON_KEEP_PAGES must be a boolean"),
    ("SKELETON_KEEP_PAGES_MAX_BYTES=lots", "setting SKELETON_KEEP_PAGES_MAX_BYTES must be a number"),
    ("SKELETON_ENTROPY_ENABLED=maybe", "setting SKELETON_ENTROPY_ENABLED must be a boolean"),
])
def test_a_setting_of_the_wrong_type_is_one_error_line(tmp_path: Path, setting: str, message: str) -> None:
    done = run_scrapy(["crawl", "skeleton", "-a", "base=http://127.0.0.1:9/", "-s", setting], tmp_path)
    assert done.returncode == 2 and message in done.stderr, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
