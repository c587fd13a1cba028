"""The project's Scrapy extensions."""
