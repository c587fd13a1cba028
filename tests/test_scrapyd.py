"""Scrapyd end to end: a real Scrapyd on 127.0.0.1, the project deployed with
``scrapyd-deploy`` as an egg, the ``skeleton`` spider scheduled against a local
fixture site with a separate redis-server, and scheduled re-crawls that keep
one tree per crawl id."""
from __future__ import annotations

import functools
import http.server
import shutil
import subprocess
import sys
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from helpers import ROOT, QuietHandler, scrapy_env
from services import FIXTURES, clean_env, expected_tree, redis_server, scrapyd_server

from skeleton.commands.tree import load_crawl_tree
from skeleton.entropy.terms import stop_words
from skeleton.recrawl import Scrapyd, ScrapydError, crawl_id
from skeleton.store.keys import CRAWLS

PROJECT = "skeleton"
#: Job settings: localhost needs no politeness delay.
FAST = {"AUTOTHROTTLE_ENABLED": "False", "DOWNLOAD_DELAY": "0", "LOG_LEVEL": "INFO"}


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("scrapyd")


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    handler = functools.partial(QuietHandler, directory=str(FIXTURES / "tinysite"))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}/"
    httpd.shutdown()
    httpd.server_close()
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def redis_url(work: Path) -> Iterator[str]:
    with redis_server(work / "redis") as url:
        yield url


@pytest.fixture(scope="module")
def scrapyd(work: Path) -> Iterator[str]:
    with scrapyd_server(work / "scrapyd") as url:
        yield url


def project_copy(work: Path, name: str, deploy_url: str | None = None) -> Path:
    """The files ``scrapyd-deploy`` packs, copied so that building leaves no
    ``build/`` or ``*.egg-info`` in the checkout; the repository's scrapy.cfg plus
    a ``[deploy:test]`` target for this test's Scrapyd."""
    copy = work / name
    shutil.copytree(ROOT / "skeleton", copy / "skeleton",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    shutil.copy(ROOT / "setup.py", copy / "setup.py")
    cfg = (ROOT / "scrapy.cfg").read_text("utf-8")
    if deploy_url:
        cfg += f"\n[deploy:test]\nurl = {deploy_url}\nproject = {PROJECT}\n"
    (copy / "scrapy.cfg").write_text(cfg, "utf-8")
    return copy


def deploy(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "scrapyd_client.deploy", *args], cwd=cwd,
                          env=clean_env(), capture_output=True, text=True, timeout=180,
                          stdin=subprocess.DEVNULL)


def test_repository_has_a_default_deploy_target() -> None:
    cfg = (ROOT / "scrapy.cfg").read_text("utf-8")
    assert "[deploy]" in cfg and "project = skeleton" in cfg


def test_the_egg_holds_the_model_and_runs_from_a_zip(work: Path) -> None:
    copy = project_copy(work, "egg-build")
    egg = work / "skeleton.egg"
    done = deploy("--build-egg", str(egg), cwd=copy)
    assert done.returncode == 0, done.stderr[-3000:]
    with zipfile.ZipFile(egg) as archive:
        names = set(archive.namelist())
        entry_points = archive.read("EGG-INFO/entry_points.txt").decode()
    # every data file of the package is in the egg (the model, the stop-word lists)
    data = {path.relative_to(ROOT).as_posix() for path in (ROOT / "skeleton").rglob("*")
            if path.is_file() and path.suffix not in (".py", ".pyc")}
    assert {"skeleton/models/default.json", "skeleton/entropy/stopwords/en.txt"} <= data
    assert data <= names, data - names
    assert "skeleton/settings.py" in names and "skeleton/commands/crawl.py" in names
    assert not any(name.startswith(("tests/", "benchmarks/")) for name in names)
    assert "settings = skeleton.settings" in entry_points
    # Imported from the zip alone, the package finds its default model and the
    # shipped English stop words (not the larger list of the stop-words package).
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import skeleton; "
            "from skeleton.sew.model import load_model; m = load_model(); "
            "from skeleton.entropy.terms import stop_words; "
            "print(skeleton.__file__); print(m.tau); print(sorted(stop_words('en')))")
    run = subprocess.run([sys.executable, "-c", code, str(egg)], cwd=work, env=clean_env(),
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr[-3000:]
    lines = run.stdout.splitlines()
    assert lines[0].startswith(str(egg) + "/")
    assert lines[2] == str(sorted(stop_words("en")))


@pytest.fixture(scope="module")
def deployed(work: Path, scrapyd: str) -> Scrapyd:
    copy = project_copy(work, "deploy", deploy_url=scrapyd)
    done = deploy("test", "-v", "1", cwd=copy)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert '"status": "ok"' in done.stdout
    client = Scrapyd(scrapyd)
    assert client.get("listprojects.json")["projects"] == [PROJECT]
    assert client.get("listspiders.json", project=PROJECT)["spiders"] == ["skeleton", "template"]
    return client


def job_log(work: Path, jobid: str) -> str:
    return (work / "scrapyd" / "logs" / PROJECT / "skeleton" / f"{jobid}.log").read_text("utf-8")


def crawl_tree(redis_url: str, crawl: str) -> dict:
    _, tree, _ = load_crawl_tree({"REDIS_URL": redis_url}, crawl)
    return tree


def test_scrapyd_runs_a_deployed_crawl(work: Path, deployed: Scrapyd, site: str,
                                       redis_url: str) -> None:
    jobid = deployed.schedule(PROJECT, "skeleton", "tiny-once",
                              {**FAST, "REDIS_URL": redis_url},
                              base=f"{site}index.html", crawl="tiny-once")
    assert jobid == "tiny-once"
    deployed.wait(PROJECT, jobid, timeout=180)
    log = job_log(work, jobid)
    assert "'finish_reason': 'finished'" in log and "Traceback" not in log, log[-3000:]
    # the job ran the deployed egg, not this checkout, with the leased queue
    assert str(ROOT) not in log
    assert "joined crawl tiny-once" in log and "crawl tiny-once complete" in log
    assert crawl_tree(redis_url, "tiny-once") == expected_tree("tinysite.tree.json", site)
    client = redis.Redis.from_url(redis_url, socket_timeout=10)
    try:
        assert client.hget("skeleton:tiny-once:meta", "finish_reason") == b"finished"
        assert client.zcard("skeleton:tiny-once:leases") == client.zcard(
            "skeleton:tiny-once:workers") == 0
    finally:
        client.close()


def test_scheduled_recrawls_keep_one_tree_per_run(work: Path, deployed: Scrapyd, site: str,
                                                  redis_url: str) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "skeleton.recrawl", "--scrapyd", deployed.url,
         "--base", f"{site}index.html", "--site", "tiny", "--count", "2", "--interval", "1",
         "--wait", "--job-timeout", "180", *[f"-s{k}={v}" for k, v in FAST.items()],
         "-s", f"REDIS_URL={redis_url}"],
        cwd=work, env=scrapy_env(), capture_output=True, text=True, timeout=400)
    assert run.returncode == 0, run.stderr[-3000:]
    crawls = run.stdout.split()
    assert len(crawls) == 2 and crawls[0] < crawls[1]
    assert all(c.startswith("tiny-20") and c.endswith("Z") for c in crawls)
    client = redis.Redis.from_url(redis_url, socket_timeout=10)
    try:
        known = {c.decode() for c in client.smembers(CRAWLS)}
    finally:
        client.close()
    assert set(crawls) <= known
    expected = expected_tree("tinysite.tree.json", site)
    for crawl in crawls:
        assert crawl_tree(redis_url, crawl) == expected
        log = job_log(work, crawl)
        assert "'finish_reason': 'finished'" in log, log[-3000:]


def test_scrapyd_errors_are_reported(deployed: Scrapyd) -> None:
    with pytest.raises(ScrapydError, match="spider 'nope' not found"):
        deployed.schedule(PROJECT, "nope", "x")
    with pytest.raises(ScrapydError, match="does not know job"):
        deployed.wait(PROJECT, "no-such-job", timeout=5)
    with pytest.raises(ScrapydError, match="failed"):
        Scrapyd("http://127.0.0.1:9/", timeout=5).get("daemonstatus.json")


def test_the_container_healthcheck_asks_scrapyd(scrapyd: str) -> None:
    script = str(ROOT / "docker" / "healthcheck.py")
    for url, status in ((scrapyd, 0), ("http://127.0.0.1:9/", 1)):
        env = clean_env(SCRAPYD_HEALTH_URL=url + "daemonstatus.json")
        done = subprocess.run([sys.executable, script], env=env, timeout=60)
        assert done.returncode == status


def test_scrapyd_with_the_containers_credentials_requires_them(work: Path) -> None:
    """Scrapyd as docker-compose.yml runs it: ``SCRAPYD_USERNAME`` and
    ``SCRAPYD_PASSWORD`` in its environment (Scrapyd 1.6 reads them) guard every
    endpoint, addversion.json first; the healthcheck, the recrawl client and
    ``scrapyd-deploy compose`` (scrapy.cfg's target, credentials from the
    environment) get in with them."""
    import configparser
    from urllib.error import HTTPError
    from urllib.request import urlopen

    user, password = "skeleton", "0123456789abcdef"
    with scrapyd_server(work / "scrapyd-auth", auth=(user, password)) as url:
        for endpoint, data in (("daemonstatus.json", None), ("addversion.json", b"project=x&version=1")):
            with pytest.raises(HTTPError) as refused:
                urlopen(url + endpoint, data=data, timeout=30)
            assert refused.value.code == 401
        with pytest.raises(ScrapydError, match="401"):
            Scrapyd(url, auth=(user, "wrong")).get("daemonstatus.json")
        script = str(ROOT / "docker" / "healthcheck.py")
        health = clean_env(SCRAPYD_HEALTH_URL=url + "daemonstatus.json")
        for credentials, status in (({}, 1), ({"SCRAPYD_USERNAME": user, "SCRAPYD_PASSWORD": "wrong"}, 1),
                                    ({"SCRAPYD_USERNAME": user, "SCRAPYD_PASSWORD": password}, 0)):
            done = subprocess.run([sys.executable, script], env={**health, **credentials}, timeout=60)
            assert done.returncode == status, credentials
        # the repository's [deploy:compose] target, pointed at this Scrapyd
        cfg = configparser.RawConfigParser()
        cfg.read(ROOT / "scrapy.cfg")
        target = dict(cfg["deploy:compose"])
        assert target["username"] == "${SCRAPYD_USERNAME}" and target["password"] == "${SCRAPYD_PASSWORD}"
        copy = project_copy(work, "deploy-auth")
        with (copy / "scrapy.cfg").open("a", encoding="utf-8") as out:
            out.write("\n[deploy:auth]\n" + "".join(
                f"{key} = {url if key == 'url' else value}\n" for key, value in target.items()))
        done = subprocess.run([sys.executable, "-m", "scrapyd_client.deploy", "auth", "-v", "1"], cwd=copy,
                              env=clean_env(SCRAPYD_USERNAME=user, SCRAPYD_PASSWORD=password),
                              capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL)
        assert done.returncode == 0 and '"status": "ok"' in done.stdout, done.stdout + done.stderr[-3000:]
        assert password not in done.stdout + done.stderr
        assert Scrapyd(url, auth=(user, password)).get("listprojects.json")["projects"] == [PROJECT]


def test_crawl_ids_are_valid_and_sortable() -> None:
    from datetime import datetime, timezone

    early = crawl_id("shop", datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc))
    late = crawl_id("shop", datetime(2026, 1, 2, 3, 4, 6, tzinfo=timezone.utc))
    assert early == "shop-20260102T030405Z" and early < late
    with pytest.raises(ValueError, match="invalid crawl id"):
        crawl_id("bad site")
    with pytest.raises(ValueError, match="crawl id must be at most 200 characters, got 201"):
        crawl_id("s" * 184)  # and 17 characters of timestamp
