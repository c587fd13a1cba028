"""Block features (paper Section 4.1): the number of hyperlinks #B, and the mean
B^tm and variance B^tv of the anchor text lengths after the Gaussian smoothing
of CETR (Weninger et al. 2010), sigma = 2 (Section 5.3.2).

The smoothing runs over the text lengths of *all* the page's hyperlinks in
document order ("to the text lengths of hyperlinks in a DOM-tree"), so a link's
smoothed length also reflects its neighbours; a block's mean and variance are
then taken over its own hyperlinks. The kernel is CETR's: weights
exp(-j^2 / (2 sigma^2)) for |j| <= ceil(sigma), normalised to sum 1; at the
ends of the sequence the weights that fall inside it are renormalised. A text
length is the number of characters of the whitespace-collapsed anchor text (an
image-only anchor has length 0, as the paper expects of ads).
"""
from __future__ import annotations

import math
from collections.abc import Sequence

from .clustering import Block
from .domtree import IndexedTree

__all__ = ["SIGMA", "FEATURE_NAMES", "gaussian_kernel", "gaussian_smooth", "block_features",
           "page_block_features"]

#: standard deviation of the Gaussian smoothing (Section 5.3.2)
SIGMA = 2.0
#: the feature vector of a block, in order (Section 4.1)
FEATURE_NAMES = ("links", "text_length_mean", "text_length_variance")


def gaussian_kernel(sigma: float = SIGMA) -> list[float]:
    """CETR's kernel: exp(-j^2 / 2 sigma^2) for j in -ceil(sigma)..ceil(sigma), sum 1."""
    radius = math.ceil(sigma)
    weights = [math.exp(-(j * j) / (2 * sigma * sigma)) for j in range(-radius, radius + 1)]
    total = sum(weights)
    return [w / total for w in weights]


def gaussian_smooth(values: Sequence[float], sigma: float = SIGMA) -> list[float]:
    """The values convolved with :func:`gaussian_kernel` (renormalised at the ends)."""
    kernel = gaussian_kernel(sigma)
    radius = len(kernel) // 2
    n = len(values)
    out = []
    for i in range(n):
        acc = weight = 0.0
        for j in range(max(0, i - radius), min(n, i + radius + 1)):
            w = kernel[j - i + radius]
            acc += w * values[j]
            weight += w
        out.append(acc / weight)
    return out


def block_features(smoothed: Sequence[float], block: Block) -> tuple[float, float, float]:
    """[#B, B^tm, B^tv] of one block over the page's smoothed text lengths."""
    values = smoothed[block.lo:block.hi]
    if not values:
        return (0.0, 0.0, 0.0)
    mean = sum(values) / len(values)
    variance = sum((v - mean) ** 2 for v in values) / len(values)
    return (float(len(values)), mean, variance)


def page_block_features(tree: IndexedTree, blocks: Sequence[Block],
                        sigma: float = SIGMA) -> list[tuple[float, float, float]]:
    """The feature vectors of a page's blocks."""
    smoothed = gaussian_smooth([float(len(t)) for t in tree.anchor_texts], sigma)
    return [block_features(smoothed, b) for b in blocks]
