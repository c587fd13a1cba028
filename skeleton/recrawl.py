"""Scheduled re-crawls through Scrapyd: ``python -m skeleton.recrawl``.

Each run schedules the ``skeleton`` spider on a Scrapyd server with
``schedule.json``, under a fresh crawl id ``<site>-<UTC timestamp>`` (also used
as the Scrapyd job id), so every run keeps its own tree in Redis and two runs
can be compared with ``scrapy diff OLD NEW``. ``--count 1`` schedules once (for
cron); otherwise the loop schedules every ``--interval`` seconds, ``--count``
times (0: forever). ``--wait`` waits for each job to finish before going on.
Scrapyd credentials come from ``SCRAPYD_USERNAME`` / ``SCRAPYD_PASSWORD``.
Standard library only, so it runs anywhere Python does.
"""
from __future__ import annotations

import argparse
import base64
import json
import logging
import os
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime, timezone
from urllib.error import URLError
from urllib.parse import urlencode, urljoin, urlsplit
from urllib.request import Request, urlopen

from skeleton.redact import redact_text, redact_url
from skeleton.store.keys import crawl_id_error, crawl_id_for

__all__ = ["ScrapydError", "Scrapyd", "crawl_id", "recrawl", "main"]

logger = logging.getLogger(__name__)

SPIDER = "skeleton"


class ScrapydError(RuntimeError):
    """Scrapyd cannot be reached or answered with an error."""


class Scrapyd:
    """A minimal client for Scrapyd's JSON API."""

    def __init__(self, url: str, timeout: float = 30.0,
                 auth: tuple[str, str] | None = None) -> None:
        self.url = url if url.endswith("/") else url + "/"
        self.timeout = timeout
        self.auth = auth

    def _call(self, endpoint: str, params: Iterable[tuple[str, str]], post: bool) -> dict:
        query = urlencode(list(params))
        url = urljoin(self.url, endpoint)
        if post:
            request = Request(url, data=query.encode())
        else:
            request = Request(f"{url}?{query}" if query else url)
        if self.auth:
            token = base64.b64encode(f"{self.auth[0]}:{self.auth[1]}".encode()).decode()
            request.add_header("Authorization", f"Basic {token}")
        try:
            with urlopen(request, timeout=self.timeout) as response:
                answer = json.loads(response.read().decode("utf-8"))
        except (URLError, OSError, ValueError) as exc:
            raise ScrapydError(f"Scrapyd at {redact_url(self.url)}: {endpoint} failed: "
                               f"{redact_text(exc, self.url)}") from None
        if answer.get("status") != "ok":
            raise ScrapydError(f"Scrapyd at {redact_url(self.url)}: {endpoint}: "
                               f"{redact_text(answer.get('message', answer), self.url)}")
        return answer

    def get(self, endpoint: str, **params: str) -> dict:
        return self._call(endpoint, params.items(), post=False)

    def schedule(self, project: str, spider: str, jobid: str,
                 settings: Mapping[str, str] | None = None, **args: str) -> str:
        """Schedule a job; returns its job id."""
        params = [("project", project), ("spider", spider), ("jobid", jobid)]
        params += [("setting", f"{k}={v}") for k, v in (settings or {}).items()]
        params += list(args.items())
        return str(self._call("schedule.json", params, post=True)["jobid"])

    def job_state(self, project: str, jobid: str) -> str | None:
        """'pending', 'running', 'finished', or None if Scrapyd does not know the job."""
        jobs = self.get("listjobs.json", project=project)
        for state in ("pending", "running", "finished"):
            if any(job.get("id") == jobid for job in jobs.get(state, [])):
                return state
        return None

    def wait(self, project: str, jobid: str, timeout: float, poll: float = 0.5) -> None:
        """Wait until the job has finished; ``ScrapydError`` after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            state = self.job_state(project, jobid)
            if state == "finished":
                return
            if state is None:
                raise ScrapydError(f"Scrapyd does not know job {jobid!r} of project {project!r}")
            if time.monotonic() > deadline:
                raise ScrapydError(f"job {jobid!r} still {state} after {timeout:.0f} s")
            time.sleep(poll)


def crawl_id(site: str, when: datetime | None = None) -> str:
    """``<site>-<YYYYmmddTHHMMSSZ>``: one crawl id per run, sortable by time."""
    when = (when or datetime.now(timezone.utc)).astimezone(timezone.utc)
    crawl = f"{site}-{when:%Y%m%dT%H%M%SZ}"
    problem = crawl_id_error(crawl)
    if problem:
        raise ValueError(f"site {site!r} does not make a valid crawl id: {problem}")
    return crawl


def recrawl(client: Scrapyd, base: str, site: str, *, project: str = "skeleton",
            interval: float = 86400.0, count: int = 1, wait: bool = False,
            job_timeout: float = 86400.0, settings: Mapping[str, str] | None = None,
            spider_args: Mapping[str, str] | None = None,
            sleep: Callable[[float], None] = time.sleep,
            on_scheduled: Callable[[str], None] | None = None) -> list[str]:
    """Schedule ``count`` runs (0: forever), ``interval`` seconds apart (start to
    start, or end to start when a run takes longer); returns the crawl ids."""
    crawls: list[str] = []
    while count <= 0 or len(crawls) < count:
        started = time.monotonic()
        crawl = crawl_id(site)
        while crawls and crawl == crawls[-1]:  # two runs within one second
            sleep(0.2)
            crawl = crawl_id(site)
        jobid = client.schedule(project, SPIDER, crawl, settings,
                                base=base, crawl=crawl, **dict(spider_args or {}))
        logger.info("scheduled crawl %s of %s (Scrapyd job %s)", crawl, redact_url(base), jobid)
        crawls.append(crawl)
        if on_scheduled is not None:
            on_scheduled(crawl)
        if wait:
            client.wait(project, jobid, job_timeout)
            logger.info("crawl %s finished", crawl)
        if count <= 0 or len(crawls) < count:
            sleep(max(0.0, interval - (time.monotonic() - started)))
    return crawls


def _has_userinfo(url: str) -> bool:
    """Does ``url`` hold a user name or password (``http://user:pw@host/``)? A URL
    that cannot be split counts as holding one when it has an ``@`` at all."""
    try:
        return "@" in urlsplit(url.strip()).netloc
    except ValueError:
        return "@" in url


def _pairs(values: list[str], what: str) -> dict[str, str]:
    out = {}
    for value in values:
        name, sep, rest = value.partition("=")
        if not sep or not name:
            raise SystemExit(f"error: {what} must be NAME=VALUE, got {value!r}")
        out[name] = rest
    return out


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m skeleton.recrawl", description=__doc__.split("\n\n")[0])
    parser.add_argument("--scrapyd", default=os.environ.get("SCRAPYD_URL", "http://127.0.0.1:6800/"),
                        help="Scrapyd URL (default: $SCRAPYD_URL or http://127.0.0.1:6800/)")
    parser.add_argument("--base", required=True, help="start URL of the site")
    parser.add_argument("--site", help="crawl id prefix (default: derived from --base)")
    parser.add_argument("--project", default="skeleton", help="Scrapyd project (default: skeleton)")
    parser.add_argument("--interval", type=float, default=86400.0,
                        help="seconds between runs (default: 86400)")
    parser.add_argument("--count", type=int, default=1, help="number of runs, 0 for forever (default: 1)")
    parser.add_argument("--wait", action="store_true", help="wait for each job to finish")
    parser.add_argument("--job-timeout", type=float, default=86400.0,
                        help="with --wait: give up after this many seconds (default: 86400)")
    parser.add_argument("-s", "--setting", action="append", default=[], metavar="NAME=VALUE",
                        help="Scrapy setting for the job (e.g. DOWNLOAD_DELAY=2; a REDIS_URL with a "
                             "password belongs in Scrapyd's environment)")
    parser.add_argument("-a", "--arg", action="append", default=[], metavar="NAME=VALUE",
                        help="extra spider argument (e.g. depth=3)")
    return parser


def main(argv: list[str] | None = None) -> int:
    opts = _parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    if opts.interval < 0:
        raise SystemExit("error: --interval must not be negative")
    if _has_userinfo(opts.base):  # the spider refuses it too, after Scrapyd has stored it
        raise SystemExit(f"error: --base must not contain a user name or password, got "
                         f"{redact_url(opts.base)!r}: credentials in the start URL are never stored nor sent")
    site = opts.site or crawl_id_for(opts.base)
    user = os.environ.get("SCRAPYD_USERNAME")
    auth = (user, os.environ.get("SCRAPYD_PASSWORD", "")) if user else None
    client = Scrapyd(opts.scrapyd, auth=auth)
    try:
        crawls = recrawl(client, opts.base, site, project=opts.project, interval=opts.interval,
                         count=opts.count, wait=opts.wait, job_timeout=opts.job_timeout,
                         settings=_pairs(opts.setting, "--setting"),
                         spider_args=_pairs(opts.arg, "--arg"),
                         on_scheduled=lambda crawl: print(crawl, flush=True))
    except (ScrapydError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    logger.info("%d crawl(s) scheduled", len(crawls))
    return 0


if __name__ == "__main__":
    sys.exit(main())
