"""Family portal-forum: sites written by the project's own portal generator (standard library only,
deterministic, seeded by the site name); see farm/families/portal/."""
from __future__ import annotations

from pathlib import Path

from farm.families.portal import forum as _k

FAMILY = "portal-forum"
KIND = "portal"
GENERATOR = "skeleton portal grammar"
SITES = _k.SITES


def build(name: str, out: Path, tools) -> dict:
    return _k.build(name, out)
