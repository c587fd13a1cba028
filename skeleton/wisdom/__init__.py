"""WISDOM: intra-page informative structure mining (Kao, Ho and Chen, 2004).

Pure functions over lxml trees (no Scrapy, Twisted or Redis), one module per
concept of the paper:

* :mod:`tokens` - the default tokenizer, the entropy middleware's terms (Section 3.1);
* :mod:`page` - the one pass over a page that WISDOM and the entropy counts share;
* :mod:`features` - ALEN, CLEN, API and term weights per node (Section 3.1);
* :mod:`sii` - the structure information index (Section 3.1.3);
* :mod:`coverage` - the information coverage tree and CII (Sections 3.1.1, 3.2.1);
* :mod:`constraints` - parameters and type constraints (Sections 3.2.2, 4.4);
* :mod:`mib` - k-MIB (Section 3.2.2);
* :mod:`merging` - DSTM, k-CSTM and condensing (Section 3.3);
* :mod:`structure` - :func:`informative_blocks`, the whole pipeline;
* :mod:`batch_entropy` - EN and W over a batch of pages (Section 3.1);
* :mod:`evaluation` - the paper's IC and SNC measures (Section 4.1).
"""
from skeleton.wisdom.batch_entropy import batch_entropy, batch_weights
from skeleton.wisdom.constraints import ARTICLE, TOC, WisdomParams
from skeleton.wisdom.structure import Block, InformativeStructure, informative_blocks
from skeleton.wisdom.tokens import tokenize

__all__ = ["ARTICLE", "TOC", "WisdomParams", "Block", "InformativeStructure",
           "informative_blocks", "batch_entropy", "batch_weights", "tokenize"]
