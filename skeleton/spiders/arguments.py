"""The ``skeleton`` spider's arguments (``-a NAME=VALUE``), parsed and validated into
one typed frozen :class:`SpiderArguments`, and the settings they imply.

Arguments: ``base`` (required, the http(s) start URL; the crawl stays on its host,
under its directory), ``depth`` (pages at this depth are fetched but their links
are not followed), ``max_pages`` (the run's page budget over all its workers,
counted in Redis by ``skeleton.extensions.lifecycle``; a worker also never analyses
more on its own), ``crawl`` (crawl id, default derived from ``base`` and ``mode``:
a readable prefix and a hash, ``skeleton.store.keys.crawl_id_for``; a crawl id
holding an unfinished crawl of another base is refused,
``skeleton.extensions.lifecycle``), ``model`` (a SEW model file, default the
shipped model), ``mode`` (``sew``, or ``bfs``: the baseline that follows every
in-scope link), ``detector`` (``sew``, ``blocks`` or ``hybrid``: see
``skeleton.navobjects.detector``) and ``block_model`` (a block SVM file, default the
shipped one) and ``template_menu`` (off by default; N: before the crawl, find the
site's template menu as the links shared by an N-complete subdigraph from
``base``, and pass it to LinkSetDup on pages at depth 2 and deeper, see
``skeleton.spiders.template_menu``) and ``lang`` (the language mapped: a primary
language subtag such as ``en``, or ``any``; default the home page's language; pages
in another language are leaves outside the tree, see ``skeleton.urlrules.language``);
``analyses`` (the optional analyses switched on, :mod:`skeleton.analyses`);
``render`` (``off``, ``js``: each HTML page read as headless Chromium renders it,
for pages whose links a script writes, or ``auto``: only the pages that run a
script and show no navigation as served; default the setting ``SKELETON_RENDER``,
off; see ``skeleton.middlewares.render``); ``skip`` (regular expressions separated by
white space: a link whose URL path and query one matches is not followed, see
``skeleton.urlrules.skip``).

Every problem is a ``UsageError`` with a one-line message, raised before anything
is stored or fetched.

How the arguments reach the other components: they are known only once Scrapy
builds the spider, which it does before it freezes the settings and builds the
scheduler, the middlewares, the extensions and the pipelines. The spider's
``from_crawler`` calls :func:`configure` once; it writes every setting the
arguments imply (the Redis URL, the queue and dupefilter keys, the crawl id, base
URL, mode, bounds and edge score other components read,
:mod:`skeleton.crawl_settings`, the ack batch of a budgeted run, the analyses and
render switches, the feed fields). Components read settings, never the spider's
attributes.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from difflib import get_close_matches
from typing import Any

from scrapy.exceptions import UsageError
from scrapy.settings import Settings

from skeleton.analyses import SETTINGS as ANALYSIS_SETTINGS
from skeleton.analyses import AnalysesError, parse_analyses
from skeleton.analyses import enabled as analysis_enabled
from skeleton.browser import MISSING, chromium_paths
from skeleton.crawl_settings import CrawlSettings, publish
from skeleton.exports.feed import ANALYSIS_FIELDS, feed_fields
from skeleton.hierarchy.scoring import EdgeModel, EdgeModelError
from skeleton.middlewares.render import RENDER_SETTING, render_mode
from skeleton.navobjects.detector import CRAWL_DETECTORS, PageDetector, load_block_model, make_detector
from skeleton.navobjects.svm import ModelFormatError
from skeleton.redact import redact_url
from skeleton.sew.model import ModelError, SEWModel, load_model
from skeleton.store.keys import CrawlKeys, crawl_id_error, crawl_id_for
from skeleton.store.server import redis_url
from skeleton.urlrules.language import ANY_LANGUAGE, primary_language
from skeleton.urlrules.skip import SkipError, parse_skip
from skeleton.web.urls import canonical, split_url

__all__ = ["MODES", "SPIDER_ARGUMENTS", "SpiderArguments", "base_url",
           "configure", "page_detector", "parse_arguments", "positive_int", "refuse_unknown_arguments"]

MODES = ("sew", "bfs")
#: the skeleton spider's ``-a`` arguments
SPIDER_ARGUMENTS = ("base", "depth", "max_pages", "crawl", "model", "mode", "detector", "block_model",
                    "template_menu", "lang", "analyses", "render", "skip")


@dataclass(frozen=True)
class SpiderArguments:
    """The skeleton spider's arguments, validated (:func:`parse_arguments`)."""

    #: what the other components read (:mod:`skeleton.crawl_settings`): the crawl id,
    #: base URL, mode, bounds, the detector's name and model files
    published: CrawlSettings
    #: the SEW model (None with ``mode=bfs``)
    model: SEWModel | None = None
    #: the page detector (None with ``mode=bfs``; :func:`page_detector`)
    detector: PageDetector | None = None
    template_menu: int | None = None
    lang: str | None = None
    analyses: frozenset[str] = frozenset()
    #: ``off``, ``js`` or ``auto``; None: the setting ``SKELETON_RENDER`` decides
    render: str | None = None
    #: the URLs the user declares the crawl must not fetch (:mod:`skeleton.urlrules.skip`)
    skip: tuple[re.Pattern[str], ...] = ()

    @property
    def keys(self) -> CrawlKeys:
        return CrawlKeys(self.published.crawl)


def refuse_unknown_arguments(spider: str, given: dict[str, Any], known: Iterable[str]) -> None:
    """Raise ``UsageError`` naming the closest known argument for any ``-a`` argument
    that is not one of ``known`` (a typo such as ``depht=1`` would otherwise be
    ignored). Arguments starting with ``_`` pass: Scrapyd adds ``_job``."""
    names = sorted(known)
    for name in given:
        if name.startswith("_") or name in names:
            continue
        close = get_close_matches(name, names, n=1, cutoff=0.5)
        hint = f"did you mean {close[0]!r}? " if close else ""
        raise UsageError(f"unknown argument {name!r} for the {spider} spider: {hint}"
                         f"its arguments are {', '.join(names)}")


def base_url(base: str | None) -> str:
    """The canonical start URL. A base with a user name or password
    (``http://user:pw@host/``) is refused: the crawl would store it in Redis
    (``:meta``, every page URL) and print it in logs, ``scrapy status``,
    ``scrapy crawls``, ``scrapy tree`` and the feeds; Scrapy does not send such
    credentials anyway. Every message shows ``base`` with its secrets masked
    (:func:`skeleton.redact.redact_url`)."""
    if not base:
        raise UsageError("the skeleton spider needs a start URL: -a base=http://host/path/")
    shown = repr(redact_url(base))
    parts = split_url(base.strip())
    if parts is not None and (parts.scheme.lower() not in ("http", "https") or not parts.hostname):
        raise UsageError(f"base must be an absolute http(s) URL, got {shown}")
    if parts is not None and "@" in parts.netloc:
        raise UsageError(f"base must not contain a user name or password, got {shown}: "
                         "credentials in the start URL are never stored nor sent")
    url = canonical(base.strip()) if parts is not None else ""
    if not url:
        raise UsageError(f"base is not a valid URL: {shown}")
    return url


def positive_int(name: str, value: Any, minimum: int) -> int | None:
    """``value`` as an integer of at least ``minimum``; None when it is not given."""
    if value is None or value == "":
        return None
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise UsageError(f"{name} must be an integer, got {value!r}") from None
    if number < minimum:
        raise UsageError(f"{name} must be at least {minimum}, got {number}")
    return number


def _language(value: str | None) -> str | None:
    if value is None or not str(value).strip():
        return None
    if str(value).strip().lower() == ANY_LANGUAGE:
        return ANY_LANGUAGE
    lang = primary_language(str(value))
    if not lang:
        raise UsageError(f"lang must be a language code such as 'en' or 'any', got {value!r}")
    return lang


def _sew_model(path: str | None) -> SEWModel:
    """The SEW model ``path`` names (the shipped one by default), its edge score
    checked (:class:`skeleton.hierarchy.scoring.EdgeModel`)."""
    model = load_model(path)
    if model.edges:
        try:
            EdgeModel.from_dict(model.edges)
        except (EdgeModelError, KeyError, TypeError, ValueError) as exc:
            raise ModelError(f"model has an unusable edge score: {exc}") from None
    return model


def parse_arguments(base: str | None = None, depth: str | int | None = None,
                    max_pages: str | int | None = None, crawl: str | None = None,
                    model: str | None = None, mode: str = "sew", detector: str = "sew",
                    block_model: str | None = None, template_menu: str | int | None = None,
                    lang: str | None = None, analyses: str | None = None,
                    render: str | None = None, skip: str | None = None, **kwargs: Any) -> SpiderArguments:
    """Validated spider arguments; raises ``UsageError`` with a one-line message.
    The detector reads navigation blocks only when something uses them (the CHD-HD
    detectors, or ``analyses=blocks``): :func:`configure` adds them when the
    setting asks for the analysis."""
    refuse_unknown_arguments("skeleton", kwargs, SPIDER_ARGUMENTS)
    url = base_url(base)
    try:
        chosen = parse_analyses(analyses)
    except AnalysesError as exc:
        raise UsageError(str(exc)) from None
    max_depth = positive_int("depth", depth, 0)
    budget = positive_int("max_pages", max_pages, 1)
    try:
        rendering = None if render is None else render_mode(render)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if rendering in ("js", "auto") and chromium_paths() is None:
        raise UsageError(f"render={rendering}: {MISSING}")
    if mode not in MODES:
        raise UsageError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    menu_n = positive_int("template_menu", template_menu, 1)
    language = _language(lang)
    try:
        skipped = parse_skip(skip, url)
    except SkipError as exc:
        raise UsageError(str(exc)) from None
    if menu_n is not None and mode != "sew":
        raise UsageError("template_menu works with mode=sew only")
    crawl = crawl or crawl_id_for(url, mode)
    problem = crawl_id_error(crawl)
    if problem:
        raise UsageError(problem)
    if detector not in CRAWL_DETECTORS:
        raise UsageError(f"detector must be one of {', '.join(CRAWL_DETECTORS)}, got {detector!r}")
    try:
        sew_model = _sew_model(model) if mode == "sew" else None
        published = CrawlSettings(url, crawl, mode, max_depth, budget, dict(getattr(sew_model, "edges", None) or {}),
                                  detector, model, block_model)
        return page_detector(SpiderArguments(published, sew_model, None, menu_n, language, chosen, rendering,
                                             skipped), "blocks" in chosen)
    except (ModelError, ModelFormatError) as exc:
        raise UsageError(str(exc)) from None


def page_detector(arguments: SpiderArguments, with_blocks: bool) -> SpiderArguments:
    """``arguments`` with their page detector (``mode=sew``); with ``detector=sew``
    and ``with_blocks`` false, CHD-HD is skipped and items carry no ``nav_blocks``."""
    if arguments.model is None:
        return arguments
    name = arguments.published.detector
    with_blocks = with_blocks or name != "sew"
    blocks = load_block_model(arguments.published.block_model) if with_blocks else None
    detect = make_detector(name, arguments.model, blocks, with_blocks=with_blocks)
    return replace(arguments, detector=detect)


def configure(settings: Settings, arguments: SpiderArguments) -> SpiderArguments:
    """Write the settings the spider's ``arguments`` imply, before Scrapy freezes
    them and builds the other components, and return the arguments as the crawl
    runs them: every Redis user (scheduler, dupefilter, pipeline, extensions) reads
    the same URL and keys; the crawl id, base URL, mode, bounds and edge score
    (:mod:`skeleton.crawl_settings`); a budgeted run stores each page at once
    (``SKELETON_ACK_BATCH`` 1: its workers count the pages stored); ``-a analyses``
    switches the analyses' settings on, ``-a render`` the rendering middleware; the
    feed fields, unless ``FEED_EXPORT_FIELDS`` chooses them. A detector that skips
    CHD-HD reads the blocks after all when the setting asks for the analysis."""
    settings.set("REDIS_URL", redis_url(settings), priority="cmdline")
    settings.set("SCHEDULER_QUEUE_KEY", arguments.keys.requests, priority="cmdline")
    settings.set("SCHEDULER_DUPEFILTER_KEY", arguments.keys.dupefilter, priority="cmdline")
    publish(settings, arguments.published)
    if arguments.published.max_pages is not None:
        settings.set("SKELETON_ACK_BATCH", 1, priority="spider")
    for name in arguments.analyses:
        settings.set(ANALYSIS_SETTINGS[name], True, priority="spider")
    if arguments.render is not None:
        settings.set(RENDER_SETTING, arguments.render, priority="spider")
    if arguments.model is not None and arguments.published.detector == "sew" \
            and analysis_enabled(settings, "blocks") and "blocks" not in arguments.analyses:
        arguments = page_detector(arguments, with_blocks=True)
    if settings.get("FEED_EXPORT_FIELDS") is None:
        settings.set("FEED_EXPORT_FIELDS", feed_fields(
            [name for name in ANALYSIS_FIELDS if analysis_enabled(settings, name)],
            arguments.published.detector != "sew"), priority="spider")
    return arguments
