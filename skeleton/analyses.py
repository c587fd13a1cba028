"""The optional analyses of a crawl, and the switch that turns them on.

The default crawl computes what the skeleton needs: SEW detection, the tree's
evidence and offers, and the term entropy the design names. The other analyses
run when asked, for the whole crawl:

* ``wisdom``: WISDOM's TOC and article blocks on every item (``blocks``;
  :mod:`skeleton.middlewares.informative`), and the pages kept for ``scrapy
  informative``;
* ``blocks``: CHD-HD navigation blocks classified by the SVM on every item
  (``nav_blocks``; :mod:`skeleton.navobjects`);
* ``schema``: the page's logical sections on every item (``sections``), read by
  ``scrapy schema`` (:mod:`skeleton.schema`).

Each has its own setting (:data:`SETTINGS`, default False); ``-a analyses=wisdom,schema``
(or ``all``, ``none``) or the setting ``SKELETON_ANALYSES`` turns them on. Settings
are read duck-typed (``getbool``, ``getlist``): this module imports no Scrapy.
"""
from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Any

__all__ = ["ANALYSES", "SETTINGS", "AnalysesError", "enabled", "parse_analyses"]

#: analysis name -> the setting that switches it (default False)
SETTINGS: dict[str, str] = {
    "wisdom": "SKELETON_WISDOM_ENABLED",
    "blocks": "SKELETON_NAV_BLOCKS_ENABLED",
    "schema": "SKELETON_SCHEMA_ENABLED",
}
ANALYSES = tuple(SETTINGS)
#: the setting listing the analyses to run (a list, or a comma-separated string)
LIST_SETTING = "SKELETON_ANALYSES"


class AnalysesError(ValueError):
    """An analysis name that does not exist (the message names the closest one)."""


def parse_analyses(value: str | Iterable[str] | None) -> frozenset[str]:
    """The analyses named by ``value``: a comma-separated string or a list of names,
    ``all`` (every analysis) or ``none``/empty (no analysis); raises
    :class:`AnalysesError` for an unknown name."""
    if value is None:
        return frozenset()
    names = value.split(",") if isinstance(value, str) else list(value)
    chosen: set[str] = set()
    for raw in names:
        name = str(raw).strip().lower()
        if name in ("", "none"):
            continue
        if name == "all":
            chosen.update(ANALYSES)
            continue
        if name not in SETTINGS:
            close = difflib.get_close_matches(name, [*ANALYSES, "all", "none"], n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise AnalysesError(f"unknown analysis {name!r}{hint}: choose from "
                                f"{', '.join(ANALYSES)}, all or none")
        chosen.add(name)
    return frozenset(chosen)


def enabled(settings: Any, name: str) -> bool:
    """Does the crawl run analysis ``name``? Its own setting (:data:`SETTINGS`) or
    ``SKELETON_ANALYSES`` says so; ``settings`` None (a library call) means no."""
    if settings is None:
        return False
    if settings.getbool(SETTINGS[name], False):
        return True
    listed = settings.get(LIST_SETTING)
    try:
        return name in parse_analyses(listed)
    except AnalysesError:
        return False
