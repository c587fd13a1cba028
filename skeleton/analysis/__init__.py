"""A page's analysis and the crawl over pages, above the algorithms they combine.

:mod:`.page` analyses one parsed page (:func:`.page.analyse_page`): leaf and
canonical-link rules (:mod:`skeleton.urlrules`), evidence and offers
(:mod:`skeleton.hierarchy`), navigation detection (:mod:`skeleton.sew`,
:mod:`skeleton.navobjects`) and the links followed. The spider runs it on each
response; :mod:`.offline` runs it breadth-first over an in-memory site
(FINDSKELETON, SEW Section 3.4) for training (:mod:`.training`, SEW Section 4.2),
the offline benchmarks and the tests, so what they measure is what the crawl does.
Pure: no Scrapy, Twisted or Redis imports. (Not to be confused with
:mod:`skeleton.analyses`, the switches of the optional per-page analyses.)
"""
