"""URL rules of "one page, one node": which URLs name the same page, which links are
actions, which pages are language copies. Pure functions over URLs, lxml trees and
plain data; the crawl applies them in :mod:`skeleton.middlewares.variants` and the
spider."""
