"""Headless Chromium through Selenium and Debian's ChromeDriver: the one place the
project starts a browser (the rendering middleware, :mod:`skeleton.middlewares.render`,
and the tests of the HTML viewer).

No browser is downloaded: ``chromium`` and ``chromedriver`` are found on ``PATH``
(Debian: ``apt-get install chromium chromium-driver``; the Docker image has them).
Selenium Manager is never asked for a driver: the ChromeDriver's path is given.
"""
from __future__ import annotations

import shutil
from collections.abc import Iterable
from typing import Any

__all__ = ["FLAGS", "MISSING", "chromium_paths", "start_chromium"]

#: the flags every headless Chromium of the project starts with (a container's
#: /dev/shm is small: ``--disable-dev-shm-usage``; no sandbox as root in Docker)
FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         "--disable-extensions", "--no-first-run", "--mute-audio")
#: why there is no browser, as a skip reason or an error says it
MISSING = ("no Chromium and ChromeDriver here (Debian: apt-get install chromium chromium-driver; "
           ".ci/run installs them)")


def chromium_paths() -> tuple[str, str] | None:
    """``(chromium, chromedriver)`` found on ``PATH``, or None when either is missing."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    driver = shutil.which("chromedriver")
    return (chromium, driver) if chromium and driver else None


def start_chromium(flags: Iterable[str] = ()) -> Any:
    """A new headless Chromium (a Selenium ``WebDriver``), with :data:`FLAGS` and
    ``flags``; raises ``RuntimeError`` (:data:`MISSING`) when there is no browser."""
    paths = chromium_paths()
    if paths is None:
        raise RuntimeError(MISSING)
    from selenium import webdriver

    options = webdriver.ChromeOptions()
    options.binary_location = paths[0]
    for flag in (*FLAGS, *flags):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=paths[1]))
    driver.implicitly_wait(0)
    return driver
