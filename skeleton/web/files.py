"""Links to files that are no pages, told by their URL's extension.

A documentation theme links each page's source (``_sources/intro.rst.txt``,
``posts/x/index.md``), blogs their feeds (``feeds/all.atom.xml``), sites their
downloads (``report.pdf``, ``map.png``). None is a place of the site's tree: the
crawl does not follow such links (``skipped/file``) and a page's evidence names no
such place. The extensions are Scrapy's link extractor's ``IGNORED_EXTENSIONS``
(archives, images, audio, video, office documents) and the text sources and data
files documentation sites and blogs link.
"""
from __future__ import annotations

from scrapy.linkextractors import IGNORED_EXTENSIONS

__all__ = ["FILE_EXTENSIONS", "is_file_url"]

#: extensions of the files that are no pages
FILE_EXTENSIONS = frozenset(IGNORED_EXTENSIONS) | {"txt", "rst", "md", "json", "xml", "atom", "csv"}


def is_file_url(url: str) -> bool:
    """Does the URL name a file that is no page by its extension (``FILE_EXTENSIONS``):
    the last path segment, before any query or fragment, ends with one?"""
    name = url.split("#", 1)[0].split("?", 1)[0].rsplit("/", 1)[-1]
    return "." in name and name.rsplit(".", 1)[1].lower() in FILE_EXTENSIONS
