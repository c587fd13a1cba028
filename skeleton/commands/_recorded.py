"""What the commands reading a crawl recorded in Redis share: the Redis client,
the choice of the crawl (``--crawl ID`` or the most recently started or resumed one) and
the command-line errors, each a :class:`~scrapy.exceptions.UsageError` that
Scrapy prints as one ``error:`` line (exit code 2).

Not a command: Scrapy lists every ``ScrapyCommand`` subclass defined in a module
of ``COMMANDS_MODULE`` as a command named after its module, so this module
defines none.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from scrapy.exceptions import UsageError

from skeleton.redact import redact_text, redact_url
from skeleton.store.keys import META_RESUMED, META_STARTED, CrawlKeys, valid_crawl_id
from skeleton.store.meta import crawl_ids, is_recorded, meta_fields
from skeleton.store.server import StoreError, connect, ping, redis_url

__all__ = ["text", "check_crawl", "pick_crawl", "probe_redis", "redis_client",
           "recorded_crawl"]


def text(value: bytes | str | None) -> str:
    """A Redis reply as text (``""`` for a missing value)."""
    return value.decode("utf-8") if isinstance(value, bytes) else (value or "")




def check_crawl(server: Any, crawl: str) -> str:
    """``crawl`` if it is a recorded crawl id, else a usage error naming the known ones."""
    if valid_crawl_id(crawl) and is_recorded(server, crawl):
        return crawl
    known = ", ".join(crawl_ids(server)) or "none"
    raise UsageError(f"no crawl {crawl!r} recorded (known crawls: {known})")


def pick_crawl(server: Any, crawl: str | None) -> str:
    """The crawl id to read: ``crawl`` if given (and recorded), else the most
    recently started or resumed crawl (ties: the greatest id)."""
    if crawl:
        return check_crawl(server, crawl)
    crawls = crawl_ids(server)
    if not crawls:
        raise UsageError("no crawl recorded yet: run 'scrapy crawl skeleton -a base=URL' first")
    latest = {c: max(meta_fields(server, CrawlKeys(c), META_STARTED, META_RESUMED)) for c in crawls}
    return max(crawls, key=lambda c: (latest[c], c))


def probe_redis(settings: Any, check: Callable[[Any], None] | None = None) -> None:
    """Ping the project's Redis once, without retries, then run ``check(client)``.
    A server that cannot be reached, a malformed ``REDIS_URL`` or a ``ValueError``
    from ``check`` is one ``UsageError`` (one error line), with the URL's
    credentials masked (:mod:`skeleton.redact`)."""
    url = "the embedded server"
    try:
        url = redis_url(settings)
        try:
            client = connect(settings, retries=0)
        except ValueError as exc:  # a malformed URL
            raise UsageError(f"bad REDIS_URL {redact_url(url)}: {redact_text(exc, url)}") from None
        try:
            ping(client)
            if check is not None:
                check(client)
        finally:
            client.close()
    except ValueError as exc:
        raise UsageError(redact_text(exc, url)) from None
    except (StoreError, OSError) as exc:
        raise UsageError(f"cannot reach Redis at {redact_url(url)}: {redact_text(exc, url)}") from None


@contextmanager
def redis_client(settings: Any) -> Iterator[Any]:
    """A client of the project's Redis, closed on exit, after :func:`probe_redis`."""
    probe_redis(settings)
    server = connect(settings)
    try:
        yield server
    finally:
        server.close()


@contextmanager
def recorded_crawl(settings: Any, crawl: str | None) -> Iterator[tuple[Any, CrawlKeys]]:
    """A Redis client and the keys of the crawl :func:`pick_crawl` chooses."""
    with redis_client(settings) as server:
        yield server, CrawlKeys(pick_crawl(server, crawl))
