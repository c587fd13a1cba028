"""A listing the URL folders confirm (``skeleton.hierarchy.scoring.folder_confirmed``):
a section page that lists a page on its own page and whose folder holds it is that
page's parent, even when a model trained on other sites prefers the home page's
index of every page (issue 28: "URL folders that agree with the menus are strong
evidence"). Held out by generator family, mkdocs-readthedocs went 0.954 -> 1.000 and
portal-news 0.977 -> 0.994 with it; no site lost, in-sample nothing changed."""
from __future__ import annotations

import pytest

from helpers import feature_row, root_loving_model

from skeleton.analysis.offline import find_skeleton, skeleton_edges
from skeleton.hierarchy import resolve, scoring
from skeleton.hierarchy.scoring import FOLDER_CONFIRMED, folder_confirmed, model_weights
from skeleton.sew.model import load_model

H = "http://127.0.0.1:8000/"
SECTIONS = {"install": ["linux", "macos", "windows"], "tuning": ["memory", "disk", "network"]}
#: this page's breadcrumb names the home page: its own evidence overrules the folders
CRUMBED = "tuning/network"
WORDS = "The daemon keeps its state on disk and replays the journal after a restart. " * 4


CONFIRMED = {"direct": 1.0, "folder": 1.0}


@pytest.mark.parametrize("extra, expected", [
    ({}, True),
    ({"direct": 0.0}, False),  # not listed on the candidate's own page
    ({"folder": 0.0}, False),  # not the child's folder parent
    ({"from_root": 1.0}, False),  # the root's folder holds every page
    ({"coarser": 1.0}, False),  # a blog index whose listing holds a category's
    ({"contradicted": 1.0}, False),  # the child's breadcrumb names another candidate
])
def test_folder_confirmed_needs_every_condition(extra: dict, expected: bool) -> None:
    assert folder_confirmed(feature_row(**{**CONFIRMED, **extra})) is expected


def test_the_bonus_is_added_to_the_models_weight() -> None:
    model = root_loving_model()
    plain, confirmed = model_weights([feature_row(direct=1.0), feature_row(**CONFIRMED)], model)
    assert confirmed - plain == pytest.approx(FOLDER_CONFIRMED, abs=1e-5)


def _site() -> dict[str, bytes]:
    menu = "".join(f'<li><a href="/{s}/">{s.capitalize()}</a></li>' for s in SECTIONS)
    every = "".join(f'<li><a href="/{s}/{p}/">{p.capitalize()}</a></li>' for s, pages in SECTIONS.items()
                    for p in pages)

    def page(title: str, main: str, crumb: str = "") -> bytes:
        return (f"<html><head><title>{title}</title></head><body><header><a href='/'>Daemon</a>"
                f"<nav><ul>{menu}</ul></nav></header>{crumb}<main><h1>{title}</h1><p>{WORDS}</p>{main}"
                "</main><footer><p>Daemon manual.</p></footer></body></html>").encode()

    site = {H: page("Daemon", f"<h2>Every page</h2><ul>{every}</ul>")}
    for section, pages in SECTIONS.items():
        own = "".join(f'<li><a href="/{section}/{p}/">{p.capitalize()}</a></li>' for p in pages)
        site[f"{H}{section}/"] = page(section.capitalize(), f"<h2>In this section</h2><ul>{own}</ul>")
        for name in pages:
            crumb = ('<nav aria-label="breadcrumb"><ol><li><a href="/">Daemon</a></li></ol></nav>'
                     if f"{section}/{name}" == CRUMBED else "")
            site[f"{H}{section}/{name}/"] = page(name.capitalize(), "", crumb)
    return site


def _tree(monkeypatch: pytest.MonkeyPatch, bonus: float) -> dict[str, str]:
    monkeypatch.setattr(scoring, "FOLDER_CONFIRMED", bonus)
    # the menu's sections hold the home page's index too (skeleton.hierarchy.innermost),
    # and each section lists its folder's pages (skeleton.hierarchy.folder_listings):
    # both switched off, so that the bonus alone is measured
    monkeypatch.setattr(resolve, "innermost_parents", lambda *args: {})
    monkeypatch.setattr(resolve, "folder_listing_parents", lambda *args: {})
    site = _site()
    pages = list(find_skeleton(H, site.get, load_model()))
    edges = skeleton_edges(pages, root_loving_model().to_dict())
    return {child.removeprefix(H): parent.removeprefix(H) for parent, child in edges}


def test_a_section_listing_its_folder_wins_over_the_home_index(monkeypatch: pytest.MonkeyPatch) -> None:
    without = _tree(monkeypatch, 0.0)
    assert without["install/linux/"] == ""  # the model alone: the home page's index of every page
    tree = _tree(monkeypatch, FOLDER_CONFIRMED)
    for section, pages in SECTIONS.items():
        assert tree[f"{section}/"] == ""
        for name in pages:
            expected = "" if f"{section}/{name}" == CRUMBED else f"{section}/"
            assert tree[f"{section}/{name}/"] == expected, (section, name)
