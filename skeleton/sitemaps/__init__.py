"""The site's own sitemap, read as a report (issue 31, item 2), never as a parent.

* :mod:`~skeleton.sitemaps.files`: sitemap files and ``robots.txt`` ``Sitemap:``
  lines read (pure: Scrapy's :class:`scrapy.utils.sitemap.Sitemap` parser, gzip,
  the crawl's scope);
* :mod:`~skeleton.sitemaps.coverage`: the sitemap compared with the pages the
  navigation reached (pure): orphans and pages missing from the sitemap;
* the spider's requests and callbacks: :mod:`skeleton.spiders.sitemaps`; what is
  kept in Redis: :mod:`skeleton.store.sitemap`.
"""
