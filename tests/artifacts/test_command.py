"""`manage.py prd`: generates (or reuses) and prints Markdown or JSON."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command

from artifacts.models import ArtifactVersion
from kg.models import LLMCall

pytestmark = pytest.mark.django_db


def _run(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("prd", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_prints_markdown_and_reports_stages(couriers):
    out, err = _run("--project", "couriers")

    version = ArtifactVersion.objects.get()
    assert out == version.markdown
    assert out.startswith("# PRD — Couriers app")
    assert err.split() == ["context", "writing", "checking", "rendering", "done"]


def test_json_and_reuse(couriers):
    first, _ = _run("--project", "couriers", "--format", "json")
    calls = LLMCall.objects.count()
    second, err = _run("--project", "couriers", "--format", "json")

    body = json.loads(first)
    assert json.loads(second) == body
    assert err.split() == ["done"]  # reused from the revision: no context, no model call
    assert LLMCall.objects.count() == calls
    assert body["version"] == 1
    assert {"version", "language", "sections", "open_questions", "dropped"} <= set(body)
    assert all(c["citations"] for s in body["sections"] for c in s["claims"])


def test_as_of(couriers):
    out, _ = _run("--project", "couriers", "--as-of", "2026-03-04")

    assert "as of 4 March 2026" in out
    assert "Offline mode" not in out


def test_unknown_project_and_bad_date(couriers):
    with pytest.raises(CommandError, match="project 'nope' does not exist"):
        _run("--project", "nope")
    with pytest.raises(CommandError, match="--as-of: 'march' is not an ISO-8601 date or time"):
        _run("--project", "couriers", "--as-of", "march")
    assert ArtifactVersion.objects.count() == 0
