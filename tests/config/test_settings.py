"""Settings come from the environment; a bad value stops start-up naming the variable."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _check(**env: str) -> subprocess.CompletedProcess:
    environment = {
        k: v
        for k, v in os.environ.items()
        if k not in {"OPENAI_API_KEY", "OPENAI_BASE_URL", "LLM_ENGINE"}
    }
    environment.setdefault("DEBUG", "true")  # a development machine, as `make` says
    environment.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("DEBUG", "maybe"),
        ("GRAPH_URI", "ftp://graph.example"),
        ("DATABASE_URL", "mysql://db.example/x"),
        ("LLM_ENGINE", "magic"),
        ("EMBEDDED_REDIS_PORT", "seventy"),
        ("CELERY_BROKER_URL", "amqp://broker"),
    ],
)
def test_invalid_setting_names_the_variable(variable, value):
    result = _check(**{variable: value})
    assert result.returncode != 0
    assert variable in result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("Configuration error:")


def test_llm_engine_follows_the_openai_variables():
    code = "from django.conf import settings; print(settings.LLM_ENGINE)"
    base = {
        k: v
        for k, v in os.environ.items()
        if k not in {"OPENAI_API_KEY", "OPENAI_BASE_URL", "LLM_ENGINE"}
    }
    run = lambda env: subprocess.run(  # noqa: E731
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=ROOT,
        env=base | {"DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "true"} | env,
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout.strip()
    assert run({}) == "offline"
    assert run({"OPENAI_BASE_URL": "http://127.0.0.1:1/v1"}) == "openai"
    assert run({"OPENAI_API_KEY": "k", "LLM_ENGINE": "offline"}) == "offline"
