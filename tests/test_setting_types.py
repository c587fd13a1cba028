"""Every setting the crawl reads is checked before it starts (skeleton.setting_types):
the validator's table, and ``scrapy crawl`` ending with one error line, exit code 2."""
from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest
from helpers import FAST, ROOT, run_scrapy
from scrapy.settings import Settings

from skeleton.setting_types import (SCRAPY_SETTING_TYPES, Kind, SettingType, SettingTypeError,
                                    check_setting_types, setting_error, setting_types, shown_value)

#: the settings issue 29 names, with their kind
NAMED = {
    "CONCURRENT_REQUESTS": Kind.INTEGER, "CONCURRENT_REQUESTS_PER_DOMAIN": Kind.INTEGER,
    "DOWNLOAD_TIMEOUT": Kind.NUMBER, "DOWNLOAD_DELAY": Kind.NUMBER, "DOWNLOAD_MAXSIZE": Kind.INTEGER,
    "DOWNLOAD_WARNSIZE": Kind.INTEGER, "RETRY_TIMES": Kind.INTEGER, "DEPTH_LIMIT": Kind.INTEGER,
    "CLOSESPIDER_PAGECOUNT": Kind.INTEGER, "CLOSESPIDER_TIMEOUT": Kind.NUMBER,
    "CLOSESPIDER_ITEMCOUNT": Kind.INTEGER, "CLOSESPIDER_ERRORCOUNT": Kind.INTEGER,
    "REDIRECT_MAX_TIMES": Kind.INTEGER, "AUTOTHROTTLE_ENABLED": Kind.BOOLEAN,
    "AUTOTHROTTLE_START_DELAY": Kind.NUMBER, "AUTOTHROTTLE_MAX_DELAY": Kind.NUMBER,
    "AUTOTHROTTLE_TARGET_CONCURRENCY": Kind.NUMBER, "LOG_LEVEL": Kind.LOG_LEVEL,
    "ROBOTSTXT_OBEY": Kind.BOOLEAN, "HTTPCACHE_ENABLED": Kind.BOOLEAN,
}


def error(name: str, value: object) -> str | None:
    return setting_error(Settings({name: value}), name, setting_types()[name])


def test_the_table_has_every_named_setting_with_its_kind() -> None:
    assert {name: SCRAPY_SETTING_TYPES[name].kind for name in NAMED} == NAMED


def test_the_table_has_every_scrapy_setting_the_code_reads_typed() -> None:
    read = set()
    for path in (ROOT / "skeleton").rglob("*.py"):
        read |= set(re.findall(r"\.get(?:bool|int|float)\(\s*[\"']([A-Z_]+)[\"']", path.read_text("utf-8")))
    scrapy = {name for name in read if not name.startswith("SKELETON_")}
    assert scrapy and scrapy <= set(SCRAPY_SETTING_TYPES), scrapy - set(SCRAPY_SETTING_TYPES)


def test_the_project_settings_and_the_test_settings_pass() -> None:
    from scrapy.utils.project import get_project_settings

    settings = get_project_settings()
    check_setting_types(settings)
    settings.setdict(dict(arg.split("=", 1) for arg in FAST[1::2]), priority="cmdline")
    check_setting_types(settings)


@pytest.mark.parametrize(("name", "value"), [
    ("ROBOTSTXT_OBEY", value) for value in (True, False, 1, 0, "1", "0", "True", "False", "true", "false")
] + [
    ("CONCURRENT_REQUESTS", "1"), ("CONCURRENT_REQUESTS", 16), ("RETRY_TIMES", "0"), ("DEPTH_LIMIT", " 3 "),
    ("DOWNLOAD_MAXSIZE", "0"), ("DOWNLOAD_DELAY", "0"), ("DOWNLOAD_DELAY", "0.25"), ("DOWNLOAD_TIMEOUT", "0.5"),
    ("CLOSESPIDER_TIMEOUT", 10), ("AUTOTHROTTLE_TARGET_CONCURRENCY", "2.0"),
    ("LOG_LEVEL", "DEBUG"), ("LOG_LEVEL", "WARNING"), ("LOG_LEVEL", "WARN"), ("LOG_LEVEL", logging.INFO),
    ("SKELETON_KEEP_PAGES", "true"), ("SKELETON_FRAMES_CACHE", "32"),
    ("SKELETON_KEEP_PAGES", ""), ("SKELETON_ENTROPY_ENABLED", None), ("CONCURRENT_REQUESTS", None),
    ("SKELETON_ANALYSIS_BUDGET", "0"), ("SKELETON_ANALYSIS_BUDGET", "0.000001"), ("SKELETON_ANALYSIS_BUDGET", 30),
])
def test_a_value_its_reader_reads_in_range_passes(name: str, value: object) -> None:
    assert error(name, value) is None


@pytest.mark.parametrize(("name", "value", "expected"), [
    ("CONCURRENT_REQUESTS", "abc", "an integer >= 1"),
    ("CONCURRENT_REQUESTS", "0", "an integer >= 1"),
    ("CONCURRENT_REQUESTS", "", "an integer >= 1"),
    ("CONCURRENT_REQUESTS_PER_DOMAIN", "0", "an integer >= 1"),
    ("RETRY_TIMES", "-1", "an integer >= 0"),
    ("DEPTH_LIMIT", "1.5", "an integer >= 0"),
    ("DOWNLOAD_MAXSIZE", "20MB", "an integer >= 0"),
    ("DOWNLOAD_TIMEOUT", "-1", "a number > 0"),
    ("DOWNLOAD_TIMEOUT", "0", "a number > 0"),
    ("DOWNLOAD_DELAY", "nan", "a number >= 0"),
    ("DOWNLOAD_DELAY", "inf", "a number >= 0"),
    ("CLOSESPIDER_TIMEOUT", "soon", "a number >= 0"),
    ("AUTOTHROTTLE_TARGET_CONCURRENCY", "0", "a number > 0"),
    ("ROBOTSTXT_OBEY", "maybe", "a boolean (True/False, 1/0)"),
    ("HTTPCACHE_ENABLED", "yes", "a boolean (True/False, 1/0)"),
    ("LOG_LEVEL", "LOUD", "one of CRITICAL, ERROR, WARNING, INFO, DEBUG"),
    ("LOG_LEVEL", "info", "one of CRITICAL, ERROR, WARNING, INFO, DEBUG"),
    ("LOG_LEVEL", "20", "one of CRITICAL, ERROR, WARNING, INFO, DEBUG"),
    ("SKELETON_KEEP_PAGES", "maybe", "a boolean (True/False, 1/0)"),
    ("SKELETON_ENTROPY_MAX_TERMS", "lots", "a number"),
    ("SKELETON_LEASE_TIMEOUT", "abc", "a number"),
    ("SKELETON_PROGRESS_INTERVAL", "often", "a number"),
    ("SKELETON_ANALYSIS_BUDGET", "-1", "a number >= 0"),
    ("SKELETON_ANALYSIS_BUDGET", "soon", "a number >= 0"),
    ("SKELETON_ANALYSIS_BUDGET", "inf", "a number >= 0"),
])
def test_a_value_its_reader_cannot_read_or_out_of_range_is_named(name: str, value: str, expected: str) -> None:
    assert error(name, value) == f"setting {name} must be {expected}, not {value!r}"


def test_every_wrong_setting_is_named_in_one_line() -> None:
    settings = Settings({"DOWNLOAD_TIMEOUT": "-1", "CONCURRENT_REQUESTS": "abc", "RETRY_TIMES": "2"})
    with pytest.raises(SettingTypeError) as raised:
        check_setting_types(settings)
    assert str(raised.value) == ("setting CONCURRENT_REQUESTS must be an integer >= 1, not 'abc'; "
                                 "setting DOWNLOAD_TIMEOUT must be a number > 0, not '-1'")


def test_a_secret_value_is_never_shown() -> None:
    assert shown_value("SCRAPYD_PASSWORD", "hunter2") == "its value (hidden)"
    assert shown_value("API_TOKEN", "t0k3n") == "its value (hidden)"
    assert shown_value("AWS_SECRET_ACCESS_KEY", "s3cr3t") == "its value (hidden)"
    assert shown_value("REDIS_URL", "redis://:hunter2@host:6379/0") == "'redis://:***@host:6379/0'"
    table = {"SKELETON_API_TOKEN": SettingType(Kind.NUMBER), "REDIS_URL": SettingType(Kind.NUMBER)}
    with pytest.raises(SettingTypeError) as raised:
        check_setting_types(Settings({"SKELETON_API_TOKEN": "t0k3n", "REDIS_URL": "redis://u:hunter2@h/0"}), table)
    message = str(raised.value)
    assert "setting SKELETON_API_TOKEN must be a number, not its value (hidden)" in message
    assert "REDIS_URL" in message and "t0k3n" not in message and "hunter2" not in message


@pytest.mark.parametrize(("name", "bad", "expected", "good"), [
    ("CONCURRENT_REQUESTS", "abc", "an integer >= 1", "8"),
    ("DOWNLOAD_TIMEOUT", "-1", "a number > 0", "30"),
    ("ROBOTSTXT_OBEY", "maybe", "a boolean (True/False, 1/0)", "false"),
    ("LOG_LEVEL", "LOUD", "one of CRITICAL, ERROR, WARNING, INFO, DEBUG", "WARNING"),
])
def test_scrapy_crawl_with_a_wrong_setting_is_one_error_line(tmp_path: Path, name: str, bad: str,
                                                             expected: str, good: str) -> None:
    done = run_scrapy(["crawl", "skeleton", "-a", "base=http://127.0.0.1:9/", "-s", f"{name}={bad}"], tmp_path)
    assert done.returncode == 2, done.stderr[-2000:]
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    errors = [line for line in done.stderr.splitlines() if "error" in line.lower()]
    assert errors == [f"__main__.py: error: setting {name} must be {expected}, not {bad!r}"], done.stderr[-2000:]
    assert not (tmp_path / ".skeleton-data").exists()  # stopped before Redis was touched
    # the valid value passes the check: the crawl goes on to check its arguments
    done = run_scrapy(["crawl", "skeleton", "-a", "base=http://127.0.0.1:9/", "-a", "depth=x",
                       "-s", f"{name}={good}"], tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert "error: depth must be an integer" in done.stderr and "error: setting" not in done.stderr
