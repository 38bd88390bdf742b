"""Production defaults: DEBUG off unless said, no start with the development key, and
`check --deploy` clean with the production compose environment."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# The app's environment in docker-compose.yml (x-app), with a strong key as the operator sets.
COMPOSE_ENVIRONMENT = {
    "DATABASE_URL": "postgres://groundwork:groundwork@postgres:5432/groundwork",
    "GRAPH_URI": "bolt://neo4j:7687",
    "GRAPH_USER": "neo4j",
    "GRAPH_PASSWORD": "groundwork-neo4j",
    "CELERY_BROKER_URL": "redis://redis:6379/1",
    "LOCK_REDIS_URL": "redis://redis:6379/2",
    "DEBUG": "false",
    "ALLOWED_HOSTS": "localhost",
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


def test_check_deploy_is_clean_with_the_compose_environment():
    result = manage(
        "check", "--deploy", SECRET_KEY=secrets.token_urlsafe(50), **COMPOSE_ENVIRONMENT
    )
    assert result.returncode == 0, result.stderr
    output = result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in output, output


def test_make_sets_development_values_explicitly():
    makefile = (ROOT / "Makefile").read_text()
    assert "export DEBUG ?= true" in makefile
