"""Default crawl ids: bases whose slugs collide get distinct default ids, one
base always the same id."""
from __future__ import annotations

import re
from hypothesis import given, settings
from hypothesis import strategies as st

from skeleton.redis_keys import crawl_id_for, valid_crawl_id
from skeleton.sew.urls import canonical

#: bases the former default ids mixed up, in groups that shared one id
COLLIDING = [
    ["http://h/a_b/", "http://h/a-b/", "http://h/a/b/", "http://h/a+b/"],
    ["http://host:8000/en/", "http://host/8000/en/", "http://host-8000/en/"],
    ["http://h/docs/", "https://h/docs/"],
    ["http://h/" + "d" * 180 + "/one/", "http://h/" + "d" * 180 + "/two/"],
    ["http://h/p/?lang=en", "http://h/p/?lang=fr", "http://h/p/"],
]


def test_the_bases_that_shared_a_default_id_get_distinct_ids() -> None:
    for group in COLLIDING:
        for mode in ("sew", "bfs"):
            ids = [crawl_id_for(base, mode) for base in group]
            assert len(set(ids)) == len(group), group
            assert all(valid_crawl_id(crawl) for crawl in ids)
    # the two modes of one site are two crawls, side by side
    assert crawl_id_for("http://h/docs/", "sew") != crawl_id_for("http://h/docs/", "bfs")


def test_default_ids_are_readable_and_follow_the_canonical_base() -> None:
    crawl = crawl_id_for("http://127.0.0.1:8000/en/index.html")
    assert re.fullmatch(r"127\.0\.0\.1-8000-en-[0-9a-f]{10}", crawl)
    # one canonical base, one id, whoever computes it (the spider canonicalizes first)
    for same in ("http://127.0.0.1:8000/en/", " http://127.0.0.1:8000/en/#top",
                 "HTTP://127.0.0.1:8000/en/index.html"):
        assert crawl_id_for(same) == crawl
    assert re.fullmatch(r"127\.0\.0\.1-8000-en-bfs-[0-9a-f]{10}",
                        crawl_id_for("http://127.0.0.1:8000/en/", "bfs"))
    assert "secret" not in crawl_id_for("http://user:secret@h/x/")
    long = crawl_id_for("http://h/" + "x" * 500 + "/", "bfs")
    # room is left for the timestamp skeleton.recrawl appends
    assert valid_crawl_id(long) and valid_crawl_id(long + "-20260102T030405Z")


_SEGMENT = st.text(alphabet="ab_-.+:%2", min_size=1, max_size=4)
_BASES = st.builds(
    lambda scheme, host, port, segments, query: (
        f"{scheme}://{host}{port}/" + "".join(f"{s}/" for s in segments) + query),
    st.sampled_from(["http", "https"]), st.sampled_from(["h", "h-1", "H"]),
    st.sampled_from(["", ":8000", ":80"]), st.lists(_SEGMENT, max_size=4),
    st.sampled_from(["", "?a=1", "?a=2&b=1"]))


@settings(max_examples=300, deadline=None)
@given(_BASES, _BASES, st.sampled_from(["sew", "bfs"]))
def test_different_canonical_bases_never_share_a_default_id(one: str, two: str, mode: str) -> None:
    first, second = crawl_id_for(one, mode), crawl_id_for(two, mode)
    assert valid_crawl_id(first) and valid_crawl_id(second)
    assert (first == second) == ((canonical(one) or one) == (canonical(two) or two))
