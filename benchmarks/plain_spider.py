"""The plain Scrapy spider of ``benchmarks/lean.py``: follows every link in scope.

Run outside the project (no ``scrapy.cfg`` above the working directory), so Scrapy's
defaults apply: the in-memory scheduler and dupefilter, no item pipelines, no
skeleton middlewares; the scheduler and dupefilter are also named here, in case a
project's settings are found anyway. The start request goes through the dupefilter
too, so each page is fetched once. Arguments: ``start_url`` and
``prefix`` (the scope: an absolute URL is followed when it starts with it, as the
skeleton crawl keeps to the base URL's host and directory). Yields requests only.

    cd /tmp && python -m scrapy runspider /path/to/benchmarks/plain_spider.py \\
        -a start_url=http://127.0.0.1:PORT/index.html -a prefix=http://127.0.0.1:PORT/
"""
from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import scrapy
from scrapy.http import Response, TextResponse


class PlainSpider(scrapy.Spider):
    name = "plain"
    custom_settings = {"SCHEDULER": "scrapy.core.scheduler.Scheduler",
                       "DUPEFILTER_CLASS": "scrapy.dupefilters.RFPDupeFilter"}

    def __init__(self, start_url: str, prefix: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.start_url = start_url
        self.prefix = prefix

    async def start(self) -> AsyncIterator[scrapy.Request]:
        # filtered as any other request (start_urls are not): a link back to the start
        # page does not fetch it a second time
        yield scrapy.Request(self.start_url, callback=self.parse)

    def parse(self, response: Response) -> Iterator[scrapy.Request]:
        if not isinstance(response, TextResponse):  # a PDF or an image: no links to read
            return
        for href in response.css("a::attr(href)").getall():
            try:
                url = response.urljoin(href)
            except ValueError:  # an href that is no URL ("http://[::1")
                continue
            if url.startswith(self.prefix):
                yield scrapy.Request(url, callback=self.parse)
