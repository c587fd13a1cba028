"""Training the block classifier (paper Sections 4 and 5.4) on labelled blocks.

A training sample is a block found by CHD-HD on a labelled page, with the
features of Section 4.1 and the class most of its hyperlinks carry in the
labels (ties broken in the order of ``labels.CLASSES``): the classifier is
trained on the blocks it will see at prediction time.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence

from lxml import etree

from .clustering import Block, chd_hd
from .features import page_block_features
from .labels import CLASSES, LinkLabel, link_labels
from .svm import BlockSVM, fit_svm

__all__ = ["block_class", "page_training_blocks", "train_block_svm"]

Sample = tuple[tuple[float, float, float], str]


def block_class(block: Block, labels: Sequence[LinkLabel]) -> str:
    """The majority class of a block's hyperlinks."""
    counts = Counter(labels[k].cls for k in block.links)
    return max(CLASSES, key=lambda c: (counts[c], -CLASSES.index(c)))


def page_training_blocks(root: etree._Element | None,
                         labels: dict[etree._Element, LinkLabel]) -> list[Sample]:
    """(features, class) of every CHD-HD block of a labelled page."""
    tree, blocks = chd_hd(root)
    truth = link_labels(tree.link_elements, labels)
    features = page_block_features(tree, blocks)
    return [(f, block_class(b, truth)) for f, b in zip(features, blocks)]


def train_block_svm(pages: Iterable[tuple[etree._Element | None, dict[etree._Element, LinkLabel]]],
                    meta: dict | None = None,
                    log: Callable[[str], None] = lambda m: None) -> BlockSVM:
    """Fit the block SVM on the CHD-HD blocks of labelled pages."""
    samples: list[Sample] = []
    n_pages = 0
    for root, labels in pages:
        samples.extend(page_training_blocks(root, labels))
        n_pages += 1
    counts = Counter(c for _, c in samples)
    log(f"{n_pages} pages, {len(samples)} blocks: " + ", ".join(f"{c} {counts[c]}" for c in CLASSES))
    info = {"pages": n_pages, "blocks": dict(sorted(counts.items())), **(meta or {})}
    return fit_svm([f for f, _ in samples], [c for _, c in samples], meta=info)
