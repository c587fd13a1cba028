"""The settings the skeleton spider publishes for the other components.

A crawl's id, base URL, mode and bounds are the spider's ``-a`` arguments, known
only once Scrapy builds the spider, which it does before it freezes the settings
and builds the scheduler, the middlewares, the extensions and the pipelines. The
spider's ``from_crawler`` writes them into these settings once
(:func:`skeleton.spiders.arguments.configure`); every other component reads them
here (:func:`crawl_settings`), never from the spider's attributes. A crawl run by
another spider has none of them: its components switch off (``NotConfigured``).
Imports nothing from the rest of ``skeleton``.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["BASE_SETTING", "BLOCK_MODEL_SETTING", "CRAWL_SETTING", "DEPTH_SETTING", "DETECTOR_SETTING",
           "EDGE_MODEL_SETTING", "MAX_PAGES_SETTING", "MODEL_SETTING", "MODE_SETTING", "CrawlSettings", "crawl_settings", "publish"]

#: the crawl id (its Redis keys: :class:`skeleton.store.keys.CrawlKeys`)
CRAWL_SETTING = "SKELETON_CRAWL_ID"
#: the canonical base URL: the tree's root and the crawl's scope
BASE_SETTING = "SKELETON_BASE"
#: ``sew`` or ``bfs``
MODE_SETTING = "SKELETON_MODE"
#: the depth bound (``-a depth``), unset for none
DEPTH_SETTING = "SKELETON_DEPTH"
#: the page budget over every worker (``-a max_pages``), unset for none
MAX_PAGES_SETTING = "SKELETON_MAX_PAGES"
#: the SEW model's edge score (:mod:`skeleton.hierarchy.scoring`), empty for none
EDGE_MODEL_SETTING = "SKELETON_EDGE_MODEL"
#: the page detector (``-a detector``, :mod:`skeleton.navobjects.detector`), its SEW
#: model file and block model file (``-a model``, ``-a block_model``; unset: the shipped ones)
DETECTOR_SETTING, MODEL_SETTING, BLOCK_MODEL_SETTING = "SKELETON_DETECTOR", "SKELETON_MODEL", "SKELETON_BLOCK_MODEL"


@dataclass(frozen=True)
class CrawlSettings:
    """What the spider published about its crawl."""

    #: :data:`BASE_SETTING`
    base: str
    #: :data:`CRAWL_SETTING`
    crawl: str
    #: :data:`MODE_SETTING`
    mode: str = "sew"
    #: :data:`DEPTH_SETTING`, :data:`MAX_PAGES_SETTING`
    depth: int | None = None
    max_pages: int | None = None
    #: :data:`EDGE_MODEL_SETTING`
    edge_model: dict[str, Any] = field(default_factory=dict)
    #: :data:`DETECTOR_SETTING`, :data:`MODEL_SETTING`, :data:`BLOCK_MODEL_SETTING`
    detector: str = "sew"
    model: str | None = None
    block_model: str | None = None


def publish(settings: Any, crawl: CrawlSettings) -> None:
    """Write ``crawl`` into ``settings`` (Scrapy's, not frozen yet), at the command
    line's priority: no ``-s`` of the same names overrides the spider's arguments."""
    for name, value in ((BASE_SETTING, crawl.base), (CRAWL_SETTING, crawl.crawl), (MODE_SETTING, crawl.mode),
                        (DEPTH_SETTING, crawl.depth), (MAX_PAGES_SETTING, crawl.max_pages),
                        (EDGE_MODEL_SETTING, dict(crawl.edge_model)), (DETECTOR_SETTING, crawl.detector),
                        (MODEL_SETTING, crawl.model), (BLOCK_MODEL_SETTING, crawl.block_model)):
        settings.set(name, value, priority="cmdline")


def crawl_settings(settings: Mapping[str, Any] | Any) -> CrawlSettings | None:
    """The crawl the skeleton spider published in ``settings``, None when there is
    none (another spider, or a component built without one)."""
    crawl, base = settings.get(CRAWL_SETTING), settings.get(BASE_SETTING)
    if not (isinstance(crawl, str) and crawl and isinstance(base, str) and base):
        return None
    depth, max_pages = settings.get(DEPTH_SETTING), settings.get(MAX_PAGES_SETTING)
    return CrawlSettings(base, crawl, str(settings.get(MODE_SETTING) or "sew"),
                         None if depth is None else int(depth), None if max_pages is None else int(max_pages),
                         dict(settings.get(EDGE_MODEL_SETTING) or {}), str(settings.get(DETECTOR_SETTING) or "sew"),
                         settings.get(MODEL_SETTING) or None, settings.get(BLOCK_MODEL_SETTING) or None)
