"""The project's Scrapy commands (``COMMANDS_MODULE``)."""
