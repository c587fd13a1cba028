"""Scrapy settings of the skeleton project.

Project settings: ``SKELETON_DATA_DIR`` (where the embedded Redis keeps its data,
default the project's ``.scrapy/skeleton``), ``REDIS_URL`` (an external Redis server; also
read from the environment), the term entropy ones (``SKELETON_ENTROPY_*``,
``SKELETON_KEEP_PAGE_TERMS``), the WISDOM ones (``SKELETON_WISDOM_*``,
``SKELETON_KEEP_PAGES*``) and the ``SKELETON_LEASE_*``/``SKELETON_REDIS_*``
settings of workers sharing a crawl (:mod:`skeleton.store.scheduler`). Crawls are polite by default: robots.txt,
AutoThrottle, a named user agent and a download size cap.
"""

BOT_NAME = "skeleton"
SPIDER_MODULES = ["skeleton.spiders"]
NEWSPIDER_MODULE = "skeleton.spiders"
COMMANDS_MODULE = "skeleton.commands"

USER_AGENT = "skeleton/0.1 (website navigation skeleton mapper; Scrapy)"
ROBOTSTXT_OBEY = True
AUTOTHROTTLE_ENABLED = True
AUTOTHROTTLE_START_DELAY = 1.0
AUTOTHROTTLE_MAX_DELAY = 30.0
AUTOTHROTTLE_TARGET_CONCURRENCY = 1.0
CONCURRENT_REQUESTS_PER_DOMAIN = 4
# A crawl is one site: a worker leases no more requests than it can download.
CONCURRENT_REQUESTS = 4
# Items and requests of one response are handled by this many tasks (Scrapy: 100,
# created per response); the tree pipeline is synchronous, so more buy nothing.
CONCURRENT_ITEMS = 8
DOWNLOAD_TIMEOUT = 60
DOWNLOAD_MAXSIZE = 20 * 1024 * 1024
DOWNLOAD_WARNSIZE = 5 * 1024 * 1024
TELNETCONSOLE_ENABLED = False
REMOTE_CONTROL_ENABLED = False
COOKIES_ENABLED = False

# Redis: scrapy-redis' scheduler and dupefilter; keys are set per crawl by the spider.
# Where the embedded Redis keeps its data; None: the project's .scrapy/skeleton
# (skeleton.store.server.default_data_dir), found from any sub-folder.
SKELETON_DATA_DIR = None
REDIS_URL = None
SCHEDULER = "skeleton.store.scheduler.Scheduler"
DUPEFILTER_CLASS = "skeleton.store.dupefilter.SetDupeFilter"
SCHEDULER_PERSIST = True
SCHEDULER_QUEUE_CLASS = "skeleton.store.queue.LeasedFifoQueue"
SCHEDULER_SERIALIZER = "skeleton.store.serializer"
# Many workers (docs/operations.md "Many workers"): lease lifetime without a heartbeat, idle
# time before a worker of a complete crawl exits, Redis retries mid-crawl.
SKELETON_LEASE_TIMEOUT = 60.0
SKELETON_IDLE_CLOSE = 0.0
SKELETON_POLL_INTERVAL = 1.0
SKELETON_REDIS_RETRIES = 5
SKELETON_REDIS_BACKOFF = 0.25
SKELETON_REDIS_BACKOFF_MAX = 8.0
# Seconds a page's analysis may take before it is cut and the page recorded as a
# broken leaf (status analysis_budget); 0: no budget. See skeleton/budget.py.
SKELETON_ANALYSIS_BUDGET = 30.0

ITEM_PIPELINES = {"skeleton.pipelines.tree.TreePipeline": 300}
# The crawl's start and end in Redis (reset or resume, run budget, tree and finish);
# a progress line every SKELETON_PROGRESS_INTERVAL seconds (0: none; a live bar
# instead when Scrapy logs to a terminal, unless SKELETON_PROGRESS_BAR is False) and
# a summary at the end, instead of Scrapy's once-a-minute LogStats line.
EXTENSIONS = {"skeleton.extensions.lifecycle.CrawlLifecycle": 500,
              "skeleton.extensions.progress.CrawlProgress": 510,
              "skeleton.extensions.heap.FrozenHeap": 520,
              "scrapy.extensions.logstats.LogStats": None}
SKELETON_PROGRESS_INTERVAL = 5.0
SKELETON_PROGRESS_BAR = True
# INFO: progress, warnings and the summary; items are logged at DEBUG only.
LOG_LEVEL = "INFO"

# Term entropy (WISDOM Section 3.1): counted per page in Redis before the spider
# sees it (after HttpErrorMiddleware, 50). See skeleton/middlewares/entropy.py.
# Frames (skeleton.middlewares.frames): a page's same-site <frame>/<iframe> documents
# are downloaded and read as part of the page. After decompression (590), before
# the spider sees the response.
DOWNLOADER_MIDDLEWARES = {
    # Scrapy's meta refresh, reading an unparsable <base href> or refresh URL as no
    # refresh (skeleton.middlewares.meta_refresh); listed first: same order as before
    "scrapy.downloadermiddlewares.redirect.MetaRefreshMiddleware": None,
    "skeleton.middlewares.meta_refresh.TolerantMetaRefreshMiddleware": 580,
    "skeleton.middlewares.frames.FramesMiddleware": 580,
    # -a render=js (SKELETON_RENDER): an HTML page's body replaced by the DOM headless
    # Chromium renders (skeleton.middlewares.render); after redirects (600) and
    # decompression (590) on the way in, before frames and meta refresh (580)
    "skeleton.middlewares.render.RenderMiddleware": 585,
    # Scrapy's redirects, not followed out of the crawl's scope (skeleton.middlewares.scope;
    # the meta refresh above too): the page is recorded with reason redirect_offsite
    "scrapy.downloadermiddlewares.redirect.RedirectMiddleware": None,
    "skeleton.middlewares.scope.ScopedRedirectMiddleware": 600,
    # a site that adds the trailing slash to its bare URLs: the redirect answered
    # without a request once learned (skeleton.middlewares.slash); between the
    # redirect (600) and the aliases (650), which follow and record it
    "skeleton.middlewares.slash.TrailingSlashMiddleware": 640,
    # after Redirect (600) and MetaRefresh (580) on the way in: sees every redirect
    "skeleton.middlewares.aliases.RedirectAliasMiddleware": 650,
}
SKELETON_ALIASES_ENABLED = True
SKELETON_FRAMES_ENABLED = True
SKELETON_FRAMES_MAX_BYTES = 2_000_000
SKELETON_FRAMES_CACHE = 64
# Rendering (skeleton.middlewares.render): off | js; seconds a page may take to load
# (0: DOWNLOAD_TIMEOUT) and to settle after its load; no host but the base's resolved
SKELETON_RENDER = "off"
SKELETON_RENDER_TIMEOUT = 0.0
SKELETON_RENDER_SETTLE = 2.0
SKELETON_RENDER_SAME_HOST = True
SPIDER_MIDDLEWARES = {"skeleton.middlewares.variants.UrlVariantsMiddleware": 590,
                      "skeleton.middlewares.entropy.EntropyMiddleware": 600,
                      "skeleton.middlewares.informative.InformativeMiddleware": 610,
                      # pages kept for the analyses run afterwards (SKELETON_KEEP_PAGES)
                      "skeleton.middlewares.kept_pages.KeptPagesMiddleware": 620}
# One page, one node (skeleton.urlrules, skeleton.middlewares.variants): tracking
# parameters stripped, URL variants learned from duplicate content (a parameter is
# irrelevant after MIN_SUPPORT same-content votes and no different one), action
# links, nofollow links and form-only pages skipped.
SKELETON_VARIANTS_ENABLED = True
SKELETON_STRIP_TRACKING = True
SKELETON_LEARN_VARIANTS = True
SKELETON_VARIANTS_MIN_SUPPORT = 2
SKELETON_VARIANTS_REFRESH = 2.0
# Bare URLs (/sport) the site redirects to their folders (/sport/): learned from
# SLASH_SUPPORT such redirects and none served bare, then asked with the slash
SKELETON_LEARN_SLASH = True
SKELETON_SLASH_REFRESH = 2.0
SKELETON_SKIP_ACTIONS = True
# The site's own sitemap (skeleton.spiders.sitemaps), off by default: robots.txt's
# Sitemap: lines and the base folder's sitemap.xml read, their page URLs kept in
# Redis for the orphans report of `scrapy status` and the exports; never a parent.
SKELETON_SITEMAP = False
SKELETON_SITEMAP_MAX_FILES = 50
SKELETON_SITEMAP_MAX_URLS = 50_000
SKELETON_ENTROPY_ENABLED = True
SKELETON_ENTROPY_LANGUAGE = "en"
SKELETON_ENTROPY_STOP_WORDS = None
SKELETON_ENTROPY_MAX_TERMS = 50_000
# SKELETON_KEEP_PAGE_TERMS: unset, the pages' terms are kept when the wisdom analysis runs
# Optional analyses (skeleton.analyses), off by default: the default crawl computes
# what the skeleton needs. -a analyses=wisdom,blocks,schema (or all), this list, or
# each one's own setting turns them on.
SKELETON_ANALYSES: list[str] = []
# Logical schema (skeleton.schema): page items carry their logical sections,
# which ``scrapy schema`` turns into the site schema.
SKELETON_SCHEMA_ENABLED = False
# CHD-HD navigation blocks (skeleton.navobjects) on every item, with detector=sew too.
SKELETON_NAV_BLOCKS_ENABLED = False
# WISDOM blocks on every item (after the entropy middleware, same parse and terms).
# See skeleton/middlewares/informative.py.
SKELETON_WISDOM_ENABLED = False
SKELETON_WISDOM_DEFAULT_WEIGHT = 0.5
SKELETON_WISDOM_MISSING_PAGE = "anchor"
SKELETON_WISDOM_PAGE_CACHE = 5000
# SKELETON_KEEP_PAGES: unset, the pages are kept (compressed, in Redis) when the wisdom
# analysis runs; True keeps them in every crawl, for `scrapy informative` and `scrapy
# schema` afterwards; False never (skeleton.middlewares.kept_pages).
SKELETON_KEEP_PAGES_MAX_BYTES = 2_000_000
FEED_EXPORTERS = {"csv": "skeleton.exports.feed.CsvItemExporter"}
FEED_EXPORT_ENCODING = "utf-8"
