"""Pure algorithms of the SEW paper (Liu, Ng and Lim, *An Automated Algorithm for
Extracting Website Skeleton*, 2004): no Scrapy, Twisted or Redis imports here.

Modules follow the paper's concepts: :mod:`.links` (link nodes, Section 3.2.1),
:mod:`.heuristics` (pruning heuristics, Section 3.2.2), :mod:`.candidates`
(GENCANLINKSETS, Figure 2), :mod:`.features` (Section 3.3.1), :mod:`.selection`
(SELECTNAVLINKSET, Figure 3), :mod:`.detect` (one page), :mod:`.model` (the trained
parameters, Section 4.2) and :mod:`.evaluation` (Section 4.2's measures plus edge
measures). Imports nothing from ``skeleton`` but :mod:`skeleton.web` (and
:mod:`skeleton.budget`, :mod:`skeleton.output`): the crawl loop and the training that
use the URL rules and the hierarchy live above, in :mod:`skeleton.analysis`.
"""
