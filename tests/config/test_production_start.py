"""Production defaults: DEBUG off unless said, no start with the development key or a server
without its password, compose served over TLS by its proxy out of the box (every service with a
healthcheck, its secrets required), and `check --deploy` clean with the compose environment."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
SECRETS = (
    "SECRET_KEY",
    "POSTGRES_PASSWORD",
    "POSTGRES_APP_PASSWORD",
    "NEO4J_PASSWORD",
    "REDIS_PASSWORD",
)


class ComposeRefuses(KeyError):
    """A ${VAR:?message} the operator did not set: compose stops before starting anything."""


def compose_environment(service: str = "worker", **operator: str) -> dict[str, str]:
    """A service's environment in docker-compose.yml (the worker's is the app's,
    x-app-environment; web's adds the tables' owner for its migrations), with ${VAR:-default}
    resolved from what the operator sets (`operator`), else the file's default;
    ${VAR:?message} unset raises ComposeRefuses, as compose does."""
    app = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"][service]

    def resolve(found: re.Match) -> str:
        name, kind, default = found.groups()
        if name in operator:
            return operator[name]
        if kind == "?":
            raise ComposeRefuses(name)
        return default

    return {
        name: re.sub(r"\$\{(\w+):([-?])([^}]*)\}", resolve, str(value))
        for name, value in app["environment"].items()
    }


def operator_secrets(**more: str) -> dict[str, str]:
    passwords = {name: secrets.token_hex(24) for name in SECRETS if name != "SECRET_KEY"}
    return {"SECRET_KEY": secrets.token_urlsafe(50)} | passwords | more


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY"}}
    clean.update(DJANGO_SETTINGS_MODULE="config.settings", **env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_debug_is_off_unless_said():
    shown = manage(
        "shell",
        "-c",
        "from django.conf import settings; print(settings.DEBUG)",
        SECRET_KEY=secrets.token_urlsafe(50),
        # Whatever database the suite runs on (CI's has a well-known password, refused here).
        DATABASE_URL="sqlite:///:memory:",
    )
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.strip().splitlines()[-1] == "False"


def test_production_start_with_the_development_key_is_refused():
    refused = manage("check")
    assert refused.returncode != 0
    assert "SECRET_KEY is the development key while DEBUG is off" in refused.stderr
    assert manage("check", DEBUG="true").returncode == 0  # a development machine says so


def test_check_deploy_is_clean_with_the_compose_environment():
    result = manage("check", "--deploy", **compose_environment(**operator_secrets()))
    assert result.returncode == 0, result.stderr
    output = result.stdout + result.stderr
    # Only the reminder that the HSTS preload list is opt-in is silenced (it is off by default).
    assert "System check identified no issues (1 silenced)." in output, output
    shown = manage(
        "shell",
        "-c",
        "from django.conf import settings as s; "
        "print(s.SILENCED_SYSTEM_CHECKS, s.SECURE_HSTS_PRELOAD)",
        **compose_environment(**operator_secrets()),
    )
    assert shown.stdout.strip().splitlines()[-1] == "['security.W021'] False"
    opted_in = manage(
        "check", "--deploy", **compose_environment(**operator_secrets(SECURE_HSTS_PRELOAD="true"))
    )
    assert "System check identified no issues (0 silenced)." in opted_in.stdout + opted_in.stderr


def test_compose_refuses_to_start_without_its_secrets():
    for missing in SECRETS:
        given = {k: v for k, v in operator_secrets().items() if k != missing}
        with pytest.raises(ComposeRefuses) as refused:
            compose_environment("web", **given)
        assert refused.value.args == (missing,)
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    text = (ROOT / "docker-compose.yml").read_text()
    for name in ("POSTGRES_PASSWORD", "POSTGRES_APP_PASSWORD", "NEO4J_PASSWORD", "REDIS_PASSWORD"):
        assert f"${{{name}:-" not in text  # no silent fallback anywhere in the file
        assert f"${{{name}:?" in text
    assert "--requirepass" in " ".join(services["redis"]["command"])


@pytest.mark.parametrize(
    ("variable", "value", "said"),
    [
        ("DATABASE_URL", "postgres://groundwork@db.internal/groundwork", "DATABASE_URL has no"),
        ("DATABASE_URL", "postgres://groundwork:groundwork@db/groundwork", "well-known password"),
        ("CELERY_BROKER_URL", "redis://redis.internal:6379/1", "CELERY_BROKER_URL has no"),
        ("GRAPH_PASSWORD", "", "GRAPH_PASSWORD is not set"),
        ("GRAPH_PASSWORD", "groundwork-neo4j", "GRAPH_PASSWORD is the well-known"),
        ("CACHE_REDIS_URL", "redis://redis.internal:6379/3", "CACHE_REDIS_URL has no"),
    ],
)
def test_production_settings_refuse_a_server_without_its_password(variable, value, said):
    environment = compose_environment(**operator_secrets()) | {variable: value}
    refused = manage("check", **environment)
    assert refused.returncode != 0
    assert refused.stderr.startswith("Configuration error: DEBUG is off but ")
    assert said in refused.stderr
    assert "Traceback" not in refused.stderr
    # A development machine is not held to it.
    assert manage("check", **(environment | {"DEBUG": "true"})).returncode == 0


def test_every_compose_service_has_a_healthcheck():
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    for name, service in services.items():
        assert service.get("healthcheck", {}).get("test"), name
    assert "/health/live" in " ".join(services["web"]["healthcheck"]["test"])


def test_the_image_installs_the_locked_versions():
    import tomllib

    from packaging.requirements import Requirement

    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "pip install --no-cache-dir -c requirements.lock ." in dockerfile
    pins = {}
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            assert version and re.fullmatch(r"[A-Za-z0-9.+!-]+", version), line
            pins[name.lower().replace("_", "-")] = version
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for dependency in project["dependencies"]:
        requirement = Requirement(dependency)
        name = requirement.name.lower().replace("_", "-")
        assert name in pins, name
        assert requirement.specifier.contains(pins[name]), (name, pins[name])


def test_compose_serves_its_site_over_tls_through_its_proxy():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    proxy, web = compose["services"]["proxy"], compose["services"]["web"]
    assert "reverse-proxy" in proxy["command"] and "web:8000" in proxy["command"]
    assert "443:443" in proxy["ports"]
    assert "ports" not in web  # the app is reached through the proxy only
    environment = compose_environment(**operator_secrets(SITE_ADDRESS="research.example.com"))
    script = (
        "from django.conf import settings as s; print(s.SESSION_COOKIE_SECURE, "
        "s.CSRF_COOKIE_SECURE, s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS > 0, "
        "s.CSRF_TRUSTED_ORIGINS, s.ALLOWED_HOSTS)"
    )
    shown = manage("shell", "-c", script, **environment)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.split("\n")[-2] == (
        "True True True True ['https://research.example.com'] ['research.example.com']"
    )


def test_make_sets_development_values_explicitly():
    makefile = (ROOT / "Makefile").read_text()
    assert "export DEBUG ?= true" in makefile


def test_the_demo_superuser_needs_its_own_password_in_production():
    environment = compose_environment(**operator_secrets()) | {"DATABASE_URL": "sqlite:///:memory:"}
    environment.pop("DEMO_PASSWORD", None)
    refused = manage("seed_demo", **environment)
    assert refused.returncode != 0
    assert "the demo login's default password is public" in refused.stderr
