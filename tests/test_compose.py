"""docker-compose.yml against the Compose Specification schema (no Docker engine
runs here), and the properties the deployment relies on: a scalable worker, the
healthchecks, no secrets in the files."""
from __future__ import annotations

import configparser
import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from helpers import ROOT

SCHEMA = Path(__file__).resolve().parent / "data" / "compose-spec.json"


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text("utf-8"))


def test_the_vendored_schema_is_the_compose_specification() -> None:
    schema = json.loads(SCHEMA.read_text("utf-8"))
    jsonschema.Draft7Validator.check_schema(schema)
    assert schema["title"] == "Compose Specification"
    assert {"service", "healthcheck", "volume"} <= set(schema["definitions"])


def test_compose_file_is_valid(compose: dict[str, Any]) -> None:
    schema = json.loads(SCHEMA.read_text("utf-8"))
    jsonschema.Draft7Validator(schema).validate(compose)
    assert set(compose["services"]) == {"redis", "scrapyd", "worker"}


def test_the_schema_rejects_a_broken_file(compose: dict[str, Any]) -> None:
    validator = jsonschema.Draft7Validator(json.loads(SCHEMA.read_text("utf-8")))
    broken = json.loads(json.dumps(compose))
    broken["services"]["worker"]["depends_on"] = {"redis": {"condition": "healthy"}}
    assert not validator.is_valid(broken)
    broken = json.loads(json.dumps(compose))
    broken["services"]["worker"]["scale_to"] = 4
    assert not validator.is_valid(broken)


def test_worker_can_be_scaled(compose: dict[str, Any]) -> None:
    worker = compose["services"]["worker"]
    assert "container_name" not in worker and "ports" not in worker
    assert worker["command"][0] == "skeleton-worker"  # docker/worker: scrapy crawl skeleton
    script = (ROOT / "docker" / "worker").read_text("utf-8")
    assert 'scrapy crawl skeleton "$@"' in script and '"$code" -eq 2' in script
    assert "base=${SKELETON_BASE:-}" in worker["command"]
    assert "crawl=${SKELETON_CRAWL:-}" in worker["command"]
    assert worker["environment"]["REDIS_URL"] == "${REDIS_URL:-redis://redis:6379/0}"
    assert worker["depends_on"]["redis"]["condition"] == "service_healthy"


def test_worker_arguments_and_settings_are_known(compose: dict[str, Any]) -> None:
    """Every ``-a NAME=`` of the worker is a spider argument and every ``-s NAME=``
    or environment variable a setting the project or Scrapy knows; none of them
    deletes keys shared with the other workers."""
    import inspect

    from scrapy.settings import Settings

    from skeleton import settings as project
    from skeleton.store.scheduler import check_settings
    from skeleton.spiders.skeleton import SkeletonSpider

    command = compose["services"]["worker"]["command"]
    pairs = list(zip(command[1::2], command[2::2]))
    assert all(flag in ("-a", "-s") for flag, _ in pairs) and len(command) % 2 == 1
    spider_args = set(inspect.signature(SkeletonSpider.__init__).parameters)
    known = set(Settings().attributes) | {k for k in vars(project) if k.isupper()}
    job = {}
    for flag, value in pairs:
        name = value.split("=", 1)[0]
        assert name in (spider_args if flag == "-a" else known), value
        if flag == "-s":
            job[name] = value.split("=", 1)[1]
    for service in ("worker", "scrapyd"):
        assert set(compose["services"][service]["environment"]) <= known | {
            "SCRAPYD_USERNAME", "SCRAPYD_PASSWORD"}
    check_settings(Settings(job))


def test_redis_and_scrapyd_have_healthchecks(compose: dict[str, Any]) -> None:
    redis, scrapyd = compose["services"]["redis"], compose["services"]["scrapyd"]
    assert redis["image"].startswith("redis:")
    assert redis["healthcheck"]["test"] == ["CMD", "redis-cli", "ping"]
    assert any(v.endswith(":/data") for v in redis["volumes"])
    assert scrapyd["healthcheck"]["test"] == ["CMD", "scrapyd-healthcheck"]
    assert scrapyd["environment"]["REDIS_URL"] == "${REDIS_URL:-redis://redis:6379/0}"
    assert scrapyd["depends_on"]["redis"]["condition"] == "service_healthy"
    for service in (redis, scrapyd):
        assert all(port.startswith("127.0.0.1:") for port in service["ports"])
    healthcheck = (ROOT / "docker" / "healthcheck.py").read_text("utf-8")
    assert "daemonstatus.json" in healthcheck


def test_the_image_installs_the_requirements_and_runs_scrapyd() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text("utf-8")
    assert "COPY requirements.txt" in dockerfile and "pip install -r requirements.txt" in dockerfile
    assert 'CMD ["scrapyd"]' in dockerfile
    assert re.search(r"^USER \w+", dockerfile, re.M)
    requirements = (ROOT / "requirements.txt").read_text("utf-8")
    assert re.search(r"^scrapyd==", requirements, re.M)
    # runtime only: tests and training tools are in requirements-dev.txt
    assert not re.search(r"^(pytest|scikit-learn|selenium|hypothesis)==", requirements, re.M | re.I)
    assert "-r requirements.txt" in (ROOT / "requirements-dev.txt").read_text("utf-8")
    assert "requirements-dev" not in dockerfile
    ignored = (ROOT / ".dockerignore").read_text("utf-8").split()
    assert ".env" in ignored and ".git" in ignored
    for source in re.findall(r"^COPY (.+) \S+$", dockerfile, re.M):
        for path in source.split():
            assert (ROOT / path).exists(), path
            assert path.split("/")[0] not in ignored, path


def test_scrapyd_conf_of_the_image() -> None:
    config = configparser.ConfigParser()
    config.read(ROOT / "docker" / "scrapyd.conf")
    scrapyd = config["scrapyd"]
    assert scrapyd["bind_address"] == "0.0.0.0" and scrapyd["http_port"] == "6800"
    for option in ("eggs_dir", "logs_dir", "dbs_dir"):
        assert scrapyd[option].startswith("/var/lib/scrapyd/")


def test_no_secrets_in_the_deployment_files(compose: dict[str, Any]) -> None:
    """Secret-looking variables are only passed through from the environment;
    the ini files and the image set no credentials; no URL carries a password."""
    secretish = re.compile(r"PASSWORD|PASSWD|SECRET|TOKEN|KEY", re.I)
    passed_through = re.compile(r"^\$\{[A-Z0-9_]+(:-)?\}$")
    for name, service in compose["services"].items():
        for key, value in (service.get("environment") or {}).items():
            if secretish.search(key):
                assert passed_through.match(str(value)), f"{name}: {key}"
    for name in ("docker/scrapyd.conf", "scrapy.cfg"):
        text = (ROOT / name).read_text("utf-8")
        assert not re.search(r"^\s*(username|password)\s*=\s*\S", text, re.M), name
    for name in ("docker-compose.yml", "Dockerfile", "docker/scrapyd.conf", "scrapy.cfg"):
        text = (ROOT / name).read_text("utf-8")
        assert not re.search(r"redis://[^@\s]*:[^@\s]*@", text), name
        assert not re.search(r"^\s*ENV\s+\S*(PASSWORD|SECRET|TOKEN)", text, re.M), name


@pytest.mark.parametrize("code,expected", [(2, 0), (1, 1), (0, 0)])
def test_the_worker_script_stops_for_good_on_a_configuration_error(tmp_path, code: int, expected: int) -> None:
    import subprocess

    fake = tmp_path / "scrapy"  # stands for Scrapy: prints its arguments, exits with `code`
    fake.write_text(f'#!/bin/sh\necho "scrapy $*" >&2\nexit {code}\n')
    fake.chmod(0o755)
    done = subprocess.run(["sh", str(ROOT / "docker" / "worker"), "-a", "base="], capture_output=True, text=True,
                          env={"PATH": f"{tmp_path}:/usr/bin:/bin"}, timeout=30)
    assert done.returncode == expected
    assert done.stderr.startswith("scrapy crawl skeleton -a base=")
    assert ("configuration error" in done.stderr) is (code == 2)
