"""The project's Scrapy middlewares."""
