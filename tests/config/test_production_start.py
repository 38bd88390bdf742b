"""Production defaults: DEBUG off unless said, no start with the development key, compose
working over plain http://localhost out of the box, and `check --deploy` clean with the compose
environment behind TLS."""

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


# What an operator sets to serve over TLS (as docker-compose.yml's comment says).
TLS = {
    "TLS_ENABLED": "true",
    "SECURE_HSTS_SECONDS": "31536000",
    "CSRF_TRUSTED_ORIGINS": "https://groundwork.example.com",
    "ALLOWED_HOSTS": "groundwork.example.com",
}


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


def test_check_deploy_is_clean_with_the_compose_environment_behind_tls():
    key = secrets.token_urlsafe(50)
    result = manage("check", "--deploy", **compose_environment(SECRET_KEY=key, **TLS))
    assert result.returncode == 0, result.stderr
    output = result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in output, output


def test_compose_out_of_the_box_serves_sign_in_over_plain_http():
    # Secure cookies over http://localhost would never come back: sign-in would fail.
    environment = compose_environment(SECRET_KEY=secrets.token_urlsafe(50))
    script = (
        "from django.conf import settings as s; print(s.SESSION_COOKIE_SECURE, "
        "s.CSRF_COOKIE_SECURE, s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS, "
        "s.CSRF_TRUSTED_ORIGINS)"
    )
    shown = manage("shell", "-c", script, **environment)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.split("\n")[-2] == "False False False 0 ['http://localhost:8000']"
    # and the warnings check --deploy gives there are exactly the ones TLS removes
    deploy = manage("check", "--deploy", **environment)
    warned = set(re.findall(r"security\.(W\d+)", deploy.stdout + deploy.stderr))
    assert warned == {"W004", "W008", "W012", "W016"}, deploy.stderr


def test_make_sets_development_values_explicitly():
    makefile = (ROOT / "Makefile").read_text()
    assert "export DEBUG ?= true" in makefile
