"""Block classification on the labelled fixture pages, the labels' isolation from
the algorithm, and the detectors (skeleton.navobjects.detector) offline."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from skeleton.navobjects.clustering import chd_hd
from skeleton.navobjects.detector import (CRAWL_DETECTORS, BlockDetection, classify_blocks, load_block_model,
                                          make_detector)
from skeleton.navobjects.labels import CLASSES, NAVIGATION, load_labelled_pages, link_labels, read_labels
from skeleton.navobjects.training import train_block_svm
from skeleton.web.dom import parse_html
from skeleton.analysis.offline import find_skeleton, skeleton_edges
from skeleton.sew.model import load_model
from skeleton.analysis.training import load_labelled_site

ROOT = Path(__file__).resolve().parents[1]
PAGES = ROOT / "tests" / "fixtures" / "navobjects"
PACKAGE = ROOT / "skeleton" / "navobjects"


@pytest.fixture(scope="module")
def pages():
    return list(load_labelled_pages(PAGES))


def test_fixture_pages_cover_every_class(pages) -> None:
    assert len(pages) >= 14
    classes = {label.cls for p in pages for label in p.labels.values()}
    assert classes == set(CLASSES)
    assert all("data-block" not in el.attrib for p in pages for el in p.root.iter() if isinstance(el.tag, str))


def test_classifier_finds_navigation_on_unseen_layouts(pages) -> None:
    """Leave one layout out: trained on the other layouts' pages, the SVM must
    tell navigation hyperlinks from the rest on the held-out layout (measured
    0.88 of the hyperlinks over the seven layouts)."""
    layouts = sorted({p.name.split("-")[0] for p in pages})
    total = right = 0
    for layout in layouts:
        held = [p for p in pages if p.name.startswith(layout + "-")]
        model = train_block_svm((p.root, p.labels) for p in pages if p not in held)
        for p in held:
            page = classify_blocks(p.root, model)
            truth = link_labels(page.tree.link_elements, p.labels)
            for block, cls in zip(page.blocks, page.classes):
                for k in block.links:
                    total += 1
                    right += (cls in NAVIGATION) == (truth[k].cls in NAVIGATION)
    assert right / total >= 0.85


def test_the_algorithm_reads_no_label_and_no_class(pages) -> None:
    for module in ("domtree.py", "clustering.py", "features.py", "svm.py", "detector.py"):
        source = (PACKAGE / module).read_text("utf-8")
        assert "data-block" not in source and "labels" not in re.findall(r"import (\w+)", source)
        if module != "svm.py":  # svm.py reads JSON dicts, no element
            assert not re.search(r"\.get\(\"(?!href)", source), module  # no attribute but href
    raw = (PAGES / "megamenu-0.html").read_bytes()
    marked, stripped = parse_html(raw), parse_html(raw)
    assert read_labels(marked)
    for el in stripped.iter():
        el.attrib.pop("data-block", None)
    t1, b1 = chd_hd(marked)
    t2, b2 = chd_hd(stripped)
    assert b1 == b2 and t1.anchor_texts == t2.anchor_texts


def test_shipped_block_model_classifies_every_block(pages) -> None:
    model = load_block_model()
    assert set(model.classes) == set(CLASSES) and model.gamma == 0.1
    page = classify_blocks(pages[0].root, model)
    assert len(page.classes) == len(page.blocks) > 0
    summaries = page.summaries()
    assert all(s["class"] in CLASSES and s["xpath"].startswith("/html/body") and s["links"] > 0 for s in summaries)


def test_detectors_on_a_page() -> None:
    sew, blocks = load_model(None), load_block_model()
    root = parse_html((PAGES / "docs_toc-0.html").read_bytes())
    for name in CRAWL_DETECTORS + ("hybrid_candidates",):
        detection = make_detector(name, sew, blocks)(root, "http://h/docs.html", "http://h/", [], [])
        assert isinstance(detection, BlockDetection) and detection.nav_blocks
        assert detection.links == 30
    plain = make_detector("sew", sew, None, with_blocks=False)(root, "http://h/docs.html", "http://h/", [], [])
    assert plain.nav_blocks == []
    with pytest.raises(ValueError):
        make_detector("nope", sew, blocks)
    with pytest.raises(ValueError):
        make_detector("blocks", sew, None)


@pytest.mark.parametrize("html", [b"", b"\x00\x01binary", b"<p>no links</p>", b"<a href=x>one</a>",
                                  b"<ul>" + b"".join(b"<li><a href=/%d>L %d</a>" % (i, i) for i in range(10_000))])
def test_detectors_on_bad_pages(html: bytes) -> None:
    sew, blocks = load_model(None), load_block_model()
    root = parse_html(html)
    for name in CRAWL_DETECTORS:
        detection = make_detector(name, sew, blocks)(root, "http://h/p.html", "http://h/", [], [])
        assert detection.links <= 5000


def test_find_skeleton_takes_a_detector() -> None:
    site = load_labelled_site(ROOT / "tests" / "sites" / "docs_sidebar.truth.json", ROOT / "tests" / "sites" / "docs_sidebar")
    sew, blocks = load_model(None), load_block_model()
    base = "http://127.0.0.1:8000/index.html"
    plain = skeleton_edges(find_skeleton(base, site.fetch, sew))
    same = skeleton_edges(find_skeleton(base, site.fetch, sew, detector=make_detector("sew", sew, blocks)))
    assert plain == same and plain
    other = skeleton_edges(find_skeleton(base, site.fetch, sew, detector=make_detector("blocks", sew, blocks)))
    assert other != plain
