"""The spider's hook: a page item's logical sections, switched on by the setting
``SKELETON_SCHEMA_ENABLED`` or ``-a analyses=schema`` (:mod:`skeleton.analyses`;
default off). Settings are read duck-typed (``getbool``, ``get``), so this module
imports no Scrapy."""
from __future__ import annotations

from typing import Any

from lxml import etree

from skeleton.analyses import enabled
from skeleton.entropy.terms import DEFAULT_LANGUAGE, stop_words

from .sections import section_records

__all__ = ["SETTING", "item_sections", "page_sections"]

SETTING = "SKELETON_SCHEMA_ENABLED"


def item_sections(settings: Any, root: etree._Element | None, page_url: str) -> list[dict] | None:
    """The page's section records, or None when the schema is switched off
    (``settings`` None: a library call, computed)."""
    if settings is not None and not enabled(settings, "schema"):
        return None
    return page_sections(settings, root, page_url)


def page_sections(settings: Any, root: etree._Element | None, page_url: str) -> list[dict]:
    """The page's section records, whatever the switch (``scrapy schema`` over the
    pages a crawl kept), with the stop words of ``SKELETON_ENTROPY_LANGUAGE``."""
    language = (settings.get("SKELETON_ENTROPY_LANGUAGE") if settings is not None else None)
    try:
        stop = stop_words(language or DEFAULT_LANGUAGE)
    except ValueError:
        stop = stop_words(DEFAULT_LANGUAGE)
    return section_records(root, page_url, stop)
