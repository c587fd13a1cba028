"""The type and range of every setting the crawl reads, checked before it starts.

A setting Scrapy or a component cannot read (``-s CONCURRENT_REQUESTS=abc``,
``-s ROBOTSTXT_OBEY=maybe``, ``-s LOG_LEVEL=LOUD``) would otherwise end the crawl
with a traceback when the component is built, exit code 1, and a container
restarted forever; a value out of range (``DOWNLOAD_TIMEOUT=-1``) would make
every request fail. :func:`check_setting_types` reads each setting of the table
the way its reader does (``getbool``, ``getint``, ``getfloat``: settings are read
duck-typed, this module imports no Scrapy) and raises :class:`SettingTypeError`
with one line naming every setting that does not fit, its value and what is
expected; ``scrapy crawl`` prints it as its error line, exit code 2
(:mod:`skeleton.commands.crawl`).

The table (:func:`setting_types`) is :data:`SCRAPY_SETTING_TYPES`, Scrapy's
settings the crawl reads, and the project's ``SKELETON_*`` settings whose
default in :mod:`skeleton.settings` is a boolean or a number (plus
``SKELETON_KEEP_PAGES``, a boolean unset by default), narrowed by
:data:`PROJECT_SETTING_TYPES` (integers with a minimum). A setting that is unset
(None) is not checked; neither is an empty ``SKELETON_*`` value (read as unset).
The value of a setting whose name suggests a secret is never shown.
"""
from __future__ import annotations

import enum
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from skeleton.redact import redact_url

__all__ = ["LOG_LEVELS", "PROJECT_SETTING_TYPES", "SCRAPY_SETTING_TYPES", "SECRET_WORDS", "Kind", "SettingType",
           "SettingTypeError", "check_setting_types", "project_setting_types", "setting_error",
           "setting_types", "shown_value"]

#: Scrapy's log level names (``LOG_LEVEL``, ``-L``), as the message lists them
LOG_LEVELS = ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG")
#: other names Python's logging accepts for a level (not listed in the message)
LOG_LEVEL_ALIASES = ("FATAL", "WARN", "NOTSET")
#: a setting whose name holds one of these never has its value shown
SECRET_WORDS = ("PASSWORD", "TOKEN", "SECRET")
#: the project's own settings: an empty value is read as unset
PROJECT_PREFIX = "SKELETON_"
#: shown instead of a secret setting's value
HIDDEN = "its value (hidden)"


class Kind(enum.Enum):
    """How a setting is read: Scrapy's ``getbool``, ``getint``, ``getfloat``, or a
    log level name."""

    BOOLEAN = "boolean"
    INTEGER = "integer"
    NUMBER = "number"
    LOG_LEVEL = "log level"
    CHOICE = "choice"


@dataclass(frozen=True)
class SettingType:
    """What a setting's value must be: its kind and, for a count or a time, the
    smallest value allowed (``exclusive``: the minimum itself is not)."""

    kind: Kind
    minimum: float | None = None
    exclusive: bool = False
    #: an empty string is read as unset (the project's settings)
    empty_is_unset: bool = False
    #: the values a ``CHOICE`` setting takes (compared lower-case)
    choices: tuple[str, ...] = ()

    def expected(self) -> str:
        """What the value must be, as the error message says it."""
        if self.kind is Kind.BOOLEAN:
            return "a boolean (True/False, 1/0)"
        if self.kind is Kind.LOG_LEVEL:
            return f"one of {', '.join(LOG_LEVELS)}"
        if self.kind is Kind.CHOICE:
            return f"one of {', '.join(self.choices)}"
        noun = "an integer" if self.kind is Kind.INTEGER else "a number"
        if self.minimum is None:
            return noun
        bound = int(self.minimum) if self.minimum == int(self.minimum) else self.minimum
        return f"{noun} {'>' if self.exclusive else '>='} {bound}"


COUNT = SettingType(Kind.INTEGER, minimum=0)
AT_LEAST_ONE = SettingType(Kind.INTEGER, minimum=1)
SIZE = SettingType(Kind.INTEGER, minimum=0)
SECONDS = SettingType(Kind.NUMBER, minimum=0)
POSITIVE = SettingType(Kind.NUMBER, minimum=0, exclusive=True)
BOOLEAN = SettingType(Kind.BOOLEAN)

#: Scrapy's settings the crawl reads (Scrapy's components and the project's code)
SCRAPY_SETTING_TYPES: dict[str, SettingType] = {
    # concurrency: no request would ever be downloaded (per domain) or leased with 0
    "CONCURRENT_REQUESTS": AT_LEAST_ONE,
    "CONCURRENT_REQUESTS_PER_DOMAIN": AT_LEAST_ONE,
    "CONCURRENT_REQUESTS_PER_IP": COUNT,
    "CONCURRENT_ITEMS": AT_LEAST_ONE,
    # downloads: a timeout of 0 cancels every request at once
    "DOWNLOAD_TIMEOUT": POSITIVE,
    "DOWNLOAD_DELAY": SECONDS,
    "RANDOMIZE_DOWNLOAD_DELAY": BOOLEAN,
    "DOWNLOAD_MAXSIZE": SIZE,
    "DOWNLOAD_WARNSIZE": SIZE,
    "RETRY_ENABLED": BOOLEAN,
    "RETRY_TIMES": COUNT,
    "REDIRECT_ENABLED": BOOLEAN,
    "REDIRECT_MAX_TIMES": COUNT,
    "METAREFRESH_ENABLED": BOOLEAN,
    "METAREFRESH_MAXDELAY": SECONDS,
    "COOKIES_ENABLED": BOOLEAN,
    "ROBOTSTXT_OBEY": BOOLEAN,
    "HTTPCACHE_ENABLED": BOOLEAN,
    "DEPTH_LIMIT": COUNT,
    # AutoThrottle: a target concurrency of 0 or less turns it off
    "AUTOTHROTTLE_ENABLED": BOOLEAN,
    "AUTOTHROTTLE_START_DELAY": SECONDS,
    "AUTOTHROTTLE_MAX_DELAY": SECONDS,
    "AUTOTHROTTLE_TARGET_CONCURRENCY": POSITIVE,
    "AUTOTHROTTLE_DEBUG": BOOLEAN,
    "CLOSESPIDER_PAGECOUNT": COUNT,
    "CLOSESPIDER_TIMEOUT": SECONDS,
    "CLOSESPIDER_ITEMCOUNT": COUNT,
    "CLOSESPIDER_ERRORCOUNT": COUNT,
    # the shared scheduler and dupefilter (skeleton.store)
    "SCHEDULER_PERSIST": BOOLEAN,
    "SCHEDULER_FLUSH_ON_START": BOOLEAN,
    "DUPEFILTER_DEBUG": BOOLEAN,
    "LOG_ENABLED": BOOLEAN,
    "LOG_LEVEL": SettingType(Kind.LOG_LEVEL),
}


#: the project's settings whose type is narrower than their default's (an integer, a bound)
PROJECT_SETTING_TYPES: dict[str, SettingType] = {
    # seconds; 0: no budget (skeleton.budget)
    "SKELETON_ANALYSIS_BUDGET": SettingType(Kind.NUMBER, minimum=0, empty_is_unset=True),
    # the sitemap's bounds (skeleton.spiders.sitemaps): 0 files or URLs would read nothing
    "SKELETON_SITEMAP_MAX_FILES": SettingType(Kind.INTEGER, minimum=1, empty_is_unset=True),
    "SKELETON_SITEMAP_MAX_URLS": SettingType(Kind.INTEGER, minimum=1, empty_is_unset=True),
    # rendering (skeleton.middlewares.render): when pages are rendered
    "SKELETON_RENDER": SettingType(Kind.CHOICE, empty_is_unset=True, choices=("off", "js", "auto")),
    # seconds; a negative page load or settling time means nothing
    "SKELETON_RENDER_TIMEOUT": SettingType(Kind.NUMBER, minimum=0, empty_is_unset=True),
    "SKELETON_RENDER_SETTLE": SettingType(Kind.NUMBER, minimum=0, empty_is_unset=True),
}


class SettingTypeError(ValueError):
    """Settings the crawl cannot read; the message is one line naming each."""


class ReadableSettings(Protocol):
    """The part of Scrapy's ``BaseSettings`` the check reads."""

    def get(self, name: str, default: Any = None) -> Any: ...
    def getbool(self, name: str, default: bool = False) -> bool: ...
    def getint(self, name: str, default: int = 0) -> int: ...
    def getfloat(self, name: str, default: float = 0.0) -> float: ...


def project_setting_types(defaults: Mapping[str, Any],
                          booleans: Iterable[str] = ()) -> dict[str, SettingType]:
    """The ``SKELETON_*`` settings of a settings module's ``defaults`` whose default
    is a boolean (read with ``getbool``) or a number (``getfloat``), and ``booleans``
    (settings unset by default); an empty value of them is read as unset."""
    types = {name: SettingType(Kind.BOOLEAN if isinstance(value, bool) else Kind.NUMBER,
                               empty_is_unset=True)
             for name, value in defaults.items()
             if name.startswith(PROJECT_PREFIX) and isinstance(value, (bool, int, float))}
    types.update({name: SettingType(Kind.BOOLEAN, empty_is_unset=True) for name in booleans})
    return types


def setting_types() -> dict[str, SettingType]:
    """Every setting the crawl's check reads: Scrapy's and the project's."""
    from skeleton import settings as project_settings
    from skeleton.store.kept import KEEP_SETTING

    return {**SCRAPY_SETTING_TYPES,
            **project_setting_types(vars(project_settings), booleans=(KEEP_SETTING,)),
            **PROJECT_SETTING_TYPES}


def shown_value(name: str, value: Any) -> str:
    """``value`` as an error message shows it: never a secret (a setting named
    like a password, a token or a secret; a URL's credentials)."""
    if any(word in name.upper() for word in SECRET_WORDS):
        return HIDDEN
    if isinstance(value, str) and "://" in value:
        return repr(redact_url(value))
    return repr(value)


def _fits(settings: ReadableSettings, name: str, expected: SettingType) -> bool:
    """Can the setting's reader read it, and is it in range?"""
    if expected.kind is Kind.LOG_LEVEL:
        value = settings.get(name)
        if isinstance(value, int) and not isinstance(value, bool):
            return value >= 0  # Python's logging takes a number too
        return isinstance(value, str) and value in LOG_LEVELS + LOG_LEVEL_ALIASES
    if expected.kind is Kind.CHOICE:
        value = settings.get(name)
        return isinstance(value, str) and value.strip().lower() in expected.choices
    try:
        if expected.kind is Kind.BOOLEAN:
            settings.getbool(name)
            return True
        number: float = (settings.getint(name) if expected.kind is Kind.INTEGER
                         else settings.getfloat(name))
    except (TypeError, ValueError):
        return False
    if expected.minimum is None:
        return True
    if not math.isfinite(number):
        return False
    return number > expected.minimum if expected.exclusive else number >= expected.minimum


def setting_error(settings: ReadableSettings, name: str, expected: SettingType) -> str | None:
    """What is wrong with one setting, as ``setting NAME must be ..., not VALUE``;
    None when it is unset or fits."""
    value = settings.get(name)
    if value is None or (value == "" and expected.empty_is_unset):
        return None
    if _fits(settings, name, expected):
        return None
    return f"setting {name} must be {expected.expected()}, not {shown_value(name, value)}"


def check_setting_types(settings: ReadableSettings,
                        types: Mapping[str, SettingType] | None = None) -> None:
    """Raise :class:`SettingTypeError` naming, in one line, every setting of
    ``types`` (default: :func:`setting_types`) that its reader cannot read or
    that is out of range."""
    table = setting_types() if types is None else types
    errors = [error for name in sorted(table)
              if (error := setting_error(settings, name, table[name])) is not None]
    if errors:
        raise SettingTypeError("; ".join(errors))
