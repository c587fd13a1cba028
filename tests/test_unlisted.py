"""A candidate that neither lists a page nor is named by it
(``skeleton.hierarchy.scoring.unlisted``) is that page's parent only when nothing else
is: the root, whose URL folder holds every page of a flat site, no longer takes the
pages a section page lists from it (tomcat10's Tribes pages)."""
from __future__ import annotations

import pytest

from helpers import feature_row, root_loving_model

from skeleton.analysis.offline import find_skeleton, skeleton_edges
from skeleton.hierarchy import resolve, scoring
from skeleton.hierarchy.scoring import UNLISTED, model_weights, unlisted
from skeleton.sew.model import load_model

H = "http://127.0.0.1:8000/"
#: a section page and the pages it lists, in a folder that has no index page
TOPICS = ["membership", "transport", "interceptors", "setup"]
WORDS = "Members of a group find each other by multicast and send messages through the channel. " * 4


@pytest.mark.parametrize("values, expected", [
    ({}, True),  # a candidate only because its URL folder holds the child
    ({"offered": 1.0}, False),  # a page offers it as the child's parent
    ({"named": 1.0}, False),  # the child's breadcrumb, up link or filing names it
    ({"offered": 1.0, "named": 1.0}, False),
])
def test_unlisted_is_neither_offered_nor_named(values: dict, expected: bool) -> None:
    assert unlisted(feature_row(folder=1.0, **values)) is expected


def test_the_penalty_is_taken_from_the_models_weight() -> None:
    listed, folder_only = model_weights([feature_row(offered=1.0, folder=1.0), feature_row(folder=1.0)], root_loving_model())
    assert listed - folder_only == pytest.approx(UNLISTED, abs=1e-5)


def _site() -> dict[str, bytes]:
    def page(title: str, main: str) -> bytes:
        return (f"<html><head><title>{title}</title></head><body><header><a href='/'>Server</a>"
                "<nav><ul><li><a href='/tribes/introduction.html'>Clustering</a></li>"
                "<li><a href='/config.html'>Configuration</a></li></ul></nav></header>"
                f"<main><h1>{title}</h1><p>{WORDS}</p>{main}</main></body></html>").encode()

    own = "".join(f'<li><a href="/tribes/{t}.html">{t.capitalize()}</a></li>' for t in TOPICS)
    site = {H: page("Server", ""), f"{H}config.html": page("Configuration", ""),
            f"{H}tribes/introduction.html": page("Clustering", f"<h2>Topics</h2><ul>{own}</ul>")}
    for topic in TOPICS:
        site[f"{H}tribes/{topic}.html"] = page(topic.capitalize(), "")
    return site


def _tree(monkeypatch: pytest.MonkeyPatch, penalty: float) -> dict[str, str]:
    monkeypatch.setattr(scoring, "UNLISTED", penalty)
    # the section lists its folder's pages (skeleton.hierarchy.folder_listings): switched
    # off, so that the penalty alone is measured
    monkeypatch.setattr(resolve, "folder_listing_parents", lambda *args: {})
    pages = list(find_skeleton(H, _site().get, load_model()))
    edges = skeleton_edges(pages, root_loving_model().to_dict())
    return {child.removeprefix(H): parent.removeprefix(H) for parent, child in edges}


def test_a_section_listing_wins_over_the_root_that_only_holds_the_folder(
        monkeypatch: pytest.MonkeyPatch) -> None:
    without = _tree(monkeypatch, 0.0)
    assert without["tribes/setup.html"] == ""  # the model alone: the root, the pages' folder parent
    tree = _tree(monkeypatch, UNLISTED)
    assert tree["tribes/introduction.html"] == ""
    for topic in TOPICS:
        assert tree[f"tribes/{topic}.html"] == "tribes/introduction.html", topic
