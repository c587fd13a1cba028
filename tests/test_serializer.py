"""The JSON request serializer used by the scrapy-redis queue."""
from __future__ import annotations

import pytest
import scrapy
from scrapy_redis.queue import FifoQueue

from skeleton.store import serializer


class _Spider(scrapy.Spider):
    name = "serializer-test"

    def parse(self, response, **kwargs):
        yield from ()


def test_round_trip_of_awkward_values() -> None:
    value = {
        "headers": {b"Referer": [b"http://a/"], b"X-Bin": [b"\x00\xff"]},
        "body": b"\x00\x01binary\xff",
        "meta": {"tuple": (1, "two", b"3"), "nested": [{"k": (None, 1.5)}], "n": None},
        "mixed": {1: "int key", b"b": "bytes key", ("t", 1): "tuple key"},
        "tag": {"__skeleton_type__": "bytes", "v": "not really bytes"},
        "text": "üñïçødé", "flag": True, "float": 0.25,
    }
    data = serializer.dumps(value)
    assert isinstance(data, str)
    assert serializer.loads(data) == value
    assert serializer.loads(data.encode()) == value


def test_unsupported_values_are_refused() -> None:
    with pytest.raises(TypeError):
        serializer.dumps({"when": object()})


def test_request_round_trip_through_a_redis_queue(redis_client) -> None:
    spider = _Spider()
    queue = FifoQueue(redis_client, spider, "skeleton:test-serializer:requests", serializer)
    queue.clear()
    request = scrapy.Request(
        "http://127.0.0.1:1/a?b=1", callback=spider.parse, method="POST", body=b"\x00data",
        headers={"Referer": "http://127.0.0.1:1/", "X-Many": ["1", "2"]}, priority=3,
        meta={"skeleton_depth": 2, "skeleton_parent": "http://127.0.0.1:1/",
              "skeleton_known": [[["http://127.0.0.1:1/x"]]], "pair": (1, 2)},
        cb_kwargs={"k": b"v"}, dont_filter=True, flags=["f"])
    queue.push(request)
    copy = queue.pop()
    assert copy is not None and len(queue) == 0
    assert copy.to_dict(spider=spider) == request.to_dict(spider=spider)
    assert copy.body == b"\x00data" and copy.headers.getlist("X-Many") == [b"1", b"2"]
    assert copy.meta["pair"] == (1, 2) and copy.callback == spider.parse
