"""Template detection by complete subdigraphs (Alarte, Insa, Silva, Tamarit:
"Automatic Detection of Webpages that Share the Same Web Template").

Pure modules, no Scrapy or Redis: :mod:`.hyperlinks` (Definitions 1, 2, 4),
:mod:`.links` (getLinks, Definition 3), :mod:`.sortlinks` (Definition 5,
Algorithm 1), :mod:`.subdigraph` (Algorithm 2), :mod:`.menu` (the template
menu shared by the subdigraph), :mod:`.skeleton_step` (the template menu as a
LinkSetDup signal in FINDSKELETON) and :mod:`.similarity` (the same-template
check of the benchmark).
"""
from .hyperlinks import h_distance, hyperlink, link_less, link_rank
from .links import KeyLink, d_distance, page_links
from .menu import links_fetcher, template_menu
from .sortlinks import sort_links
from .subdigraph import DEFAULT_SIZE, CSResult, find_complete_subdigraph

__all__ = ["h_distance", "hyperlink", "link_less", "link_rank", "KeyLink", "d_distance",
           "page_links", "links_fetcher", "template_menu", "sort_links", "DEFAULT_SIZE",
           "CSResult", "find_complete_subdigraph"]
