"""benchmarks/declared_skip.py: every site's declarations are patterns ``-a skip`` takes."""
from __future__ import annotations

import pytest

from benchmarks.declared_skip import DECLARED
from skeleton.urlrules.skip import parse_skip

START = "http://127.0.0.1:8000/"


@pytest.mark.parametrize("site", sorted(DECLARED))
def test_each_declaration_parses_and_leaves_the_start_url(site: str) -> None:
    for skip in DECLARED[site]:
        assert len(parse_skip(skip, START)) == len(skip.split())
