"""What the skeleton spider publishes about its crawl for the other components.

A crawl's id, base URL, mode, bounds and page detector are the spider's ``-a``
arguments, known only once Scrapy builds the spider, which it does before it
freezes the settings and builds the scheduler, the middlewares, the extensions and
the pipelines. The spider's ``from_crawler`` stores them once, as one typed frozen
:class:`CrawlSettings`, in the internal setting :data:`SETTING` (:func:`publish`,
called by :func:`skeleton.spiders.arguments.configure`); every other component
reads them with :func:`crawl_settings`, never from the spider's attributes. A
crawl run by another spider has none: its components switch off
(``NotConfigured``). :data:`SETTING` is no user setting (its leading underscore):
nothing but the spider writes it. Imports nothing from the rest of ``skeleton``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["SETTING", "CrawlSettings", "crawl_settings", "publish"]

#: the internal setting holding the crawl's :class:`CrawlSettings`
SETTING = "_SKELETON_CRAWL"


@dataclass(frozen=True)
class CrawlSettings:
    """The skeleton spider's crawl, as its arguments define it
    (:mod:`skeleton.spiders.arguments`)."""

    #: the canonical base URL: the tree's root and the crawl's scope
    base: str
    #: the crawl id (its Redis keys: :class:`skeleton.store.keys.CrawlKeys`)
    crawl: str
    #: ``sew`` or ``bfs``
    mode: str = "sew"
    #: the depth bound and the page budget over every worker; None for none
    depth: int | None = None
    max_pages: int | None = None
    #: the SEW model's edge score (:mod:`skeleton.hierarchy.scoring`), empty for none
    edge_model: dict[str, Any] = field(default_factory=dict)
    #: the page detector (:mod:`skeleton.navobjects.detector`), its SEW model file
    #: and block model file (None: the shipped ones)
    detector: str = "sew"
    model: str | None = None
    block_model: str | None = None


def publish(settings: Any, crawl: CrawlSettings) -> None:
    """Store ``crawl`` in ``settings`` (Scrapy's, not frozen yet)."""
    settings.set(SETTING, crawl, priority="cmdline")


def crawl_settings(settings: Any) -> CrawlSettings | None:
    """The crawl the skeleton spider published in ``settings``; None when there is
    none (another spider, or no settings)."""
    found = settings.get(SETTING) if settings is not None else None
    return found if isinstance(found, CrawlSettings) else None
