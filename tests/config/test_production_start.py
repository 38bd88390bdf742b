"""Production defaults: DEBUG off unless said, no start with the development key, compose served
over TLS by its proxy out of the box, and `check --deploy` clean with the compose environment."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def compose_environment(**operator: str) -> dict[str, str]:
    """The app's environment in docker-compose.yml (x-app), with ${VAR:-default} resolved from
    what the operator sets (`operator`), else the file's default."""
    app = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["x-app"]
    resolved = {}
    for name, value in app["environment"].items():
        text = re.sub(
            r"\$\{(\w+):[-?]([^}]*)\}",
            lambda found: operator.get(found.group(1), found.group(2)),
            str(value),
        )
        resolved[name] = text
    return resolved


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
    )
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.strip().splitlines()[-1] == "False"


def test_production_start_with_the_development_key_is_refused():
    refused = manage("check")
    assert refused.returncode != 0
    assert "SECRET_KEY is the development key while DEBUG is off" in refused.stderr
    assert manage("check", DEBUG="true").returncode == 0  # a development machine says so


def test_check_deploy_is_clean_with_the_compose_environment():
    key = secrets.token_urlsafe(50)
    result = manage("check", "--deploy", **compose_environment(SECRET_KEY=key))
    assert result.returncode == 0, result.stderr
    output = result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in output, output


def test_compose_serves_its_site_over_tls_through_its_proxy():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    proxy, web = compose["services"]["proxy"], compose["services"]["web"]
    assert "reverse-proxy" in proxy["command"] and "web:8000" in proxy["command"]
    assert "443:443" in proxy["ports"]
    assert "ports" not in web  # the app is reached through the proxy only
    environment = compose_environment(
        SECRET_KEY=secrets.token_urlsafe(50), SITE_ADDRESS="research.example.com"
    )
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
