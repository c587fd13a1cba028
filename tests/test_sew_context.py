"""Detection contexts by id (skeleton.sew.context)."""
from __future__ import annotations

from skeleton.sew.context import CONTEXT_ID_HEX, decode_context, encode_context


def test_a_context_round_trips_and_equal_contexts_share_an_id() -> None:
    known = [{"http://h/b", "http://h/a"}, {"http://h/c"}]
    template = [{"http://h/t"}]
    cid, blob = encode_context(known, template)
    assert len(cid) == CONTEXT_ID_HEX and decode_context(blob) == (known, template)
    assert encode_context([["http://h/a", "http://h/b"], ["http://h/c"]], [["http://h/t"]])[0] == cid
    assert encode_context(list(reversed(known)), template)[0] != cid  # ancestors' order counts


def test_the_empty_context_has_no_id() -> None:
    assert encode_context([], []) == ("", "") == encode_context([set()], [])


def test_bad_blobs_are_no_context() -> None:
    for blob in (None, "", b"", "{", "[]", '{"known": 3, "template": []}', '{"known": []}'):
        assert decode_context(blob) is None
