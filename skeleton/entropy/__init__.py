"""Term entropy of a crawl (WISDOM Section 3.1): pure term extraction
(:mod:`skeleton.entropy.terms`) and the sufficient statistics from which a
term's entropy and weight are exact at any time (:mod:`skeleton.entropy.statistics`).
No Scrapy, Twisted or Redis here; the Redis glue is
:mod:`skeleton.middlewares.entropy`."""

__all__: list[str] = []
