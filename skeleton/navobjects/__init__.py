"""Navigation objects: CHD-HD hyperlink blocks and their SVM classes (Zhao et al.,
*Navigation Objects Extraction for Better Content Structure Understanding*, WI 2017).

Pure functions over lxml trees: no Scrapy, Twisted or Redis.
"""
from .clustering import Block, chd_hd, cluster_hyperlinks, density_threshold, gap_threshold
from .domtree import IndexedTree, index_tree

__all__ = ["Block", "IndexedTree", "chd_hd", "cluster_hyperlinks", "density_threshold",
           "gap_threshold", "index_tree"]
