"""The logical schema of a site (Carchiolo, Longheu, Malgeri: "Extracting
Logical Schema from the Web").

Pure modules, no Scrapy or Redis: :mod:`.primary` (primary nodes and their
properties), :mod:`.collections` (similar brother subtrees), :mod:`.sections`
(collections mapped to logical sections), :mod:`.site` (sections, physical
and logical links) and :mod:`.hook` (the page item's ``sections`` in the
spider). Its GraphML and JSON are in :mod:`skeleton.exports.schema`.
"""
from .sections import SECTION_TYPES, Section, page_sections, section_records
from .site import SiteSchema, site_schema

__all__ = ["SECTION_TYPES", "Section", "page_sections", "section_records", "SiteSchema", "site_schema"]
