"""The artifacts API: membership-checked (404 for other orgs), paginated, the JSON shape."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from artifacts.models import ArtifactVersion, VersionStatus
from artifacts.services import generate_prd
from config.celery import app
from tests.artifacts.invariants import assert_evidence_traced

pytestmark = pytest.mark.django_db

BASE = "/api/projects/couriers"


@pytest.fixture
def api(member) -> APIClient:
    client = APIClient()
    client.force_authenticate(member)
    return client


@pytest.fixture
def eager_celery():
    previous = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager, app.conf.task_eager_propagates = True, True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = previous


def test_anonymous_is_refused(couriers):
    client = APIClient()
    for url in [f"{BASE}/artifacts/", f"{BASE}/prd/versions/", f"{BASE}/prd/versions/1/"]:
        assert client.get(url).status_code in (401, 403)
    assert client.post(f"{BASE}/prd/generate/").status_code in (401, 403)


def test_other_organizations_get_404(couriers, outsider):
    version = generate_prd(couriers.project)
    client = APIClient()
    client.force_authenticate(outsider)

    for url in [
        f"{BASE}/artifacts/",
        f"{BASE}/prd/versions/",
        f"{BASE}/prd/versions/1/",
        f"{BASE}/prd/versions/1/claims/",
        f"{BASE}/prd/versions/1/markdown/",
        f"{BASE}/prd/runs/{version.pk}/",
    ]:
        assert client.get(url).status_code == 404, url
    assert client.post(f"{BASE}/prd/generate/").status_code == 404
    assert ArtifactVersion.objects.count() == 1


def test_generate_returns_task_and_run_then_the_version(
    api, couriers, eager_celery, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(f"{BASE}/prd/generate/", {}, format="json")

    assert response.status_code == 202
    body = response.json()
    run = ArtifactVersion.objects.get()
    assert body == {
        "task_id": run.task_id,
        "version_id": run.pk,
        "status": "pending",
        "status_url": f"{BASE}/prd/runs/{run.pk}/",
    }
    state = api.get(body["status_url"]).json()
    assert state["status"] == "complete" and state["stage"] == "done" and state["version"] == 1

    artifacts = api.get(f"{BASE}/artifacts/").json()
    assert artifacts["count"] == 1
    assert artifacts["results"][0] | {"created_at": None} == {
        "id": run.artifact_id,
        "kind": "prd",
        "created_at": None,
        "versions": 1,
        "latest_version": 1,
    }
    versions = api.get(f"{BASE}/prd/versions/").json()
    assert versions["count"] == 1 and "next" in versions
    summary = versions["results"][0]
    assert summary["number"] == 1 and summary["engine"] == "offline"
    assert summary["counts"]["claims"] > 0 and summary["dropped"] == 0


def test_generate_rejects_a_bad_date(api, couriers):
    response = api.post(f"{BASE}/prd/generate/", {"as_of": "soon"}, format="json")

    assert response.status_code == 400
    assert "as_of" in response.content.decode()
    assert "a date (2026-03-05, the end of that day in UTC)" in response.content.decode()
    assert ArtifactVersion.objects.count() == 0


def test_version_detail_has_the_documented_shape(api, couriers):
    version = generate_prd(couriers.project)

    body = api.get(f"{BASE}/prd/versions/1/").json()

    assert {"version", "language", "sections", "open_questions", "dropped"} <= set(body)
    assert body["version"] == 1 and body["language"] == "en"
    claim = body["sections"][0]["claims"][0]
    assert set(claim) >= {"text", "kind", "citations"}
    citation = claim["citations"][0]
    assert set(citation) >= {
        "node",
        "node_type",
        "confidence",
        "episode",
        "message_number",
        "date",
        "quote",
    }
    assert all(c["citations"] for s in body["sections"] for c in s["claims"])
    question = body["open_questions"][0]
    assert set(question) >= {"text", "kind", "nodes"} and question["kind"] == "contradiction"
    assert body["dropped"] == []
    assert_evidence_traced(version)
    assert api.get(f"{BASE}/prd/versions/5/").status_code == 404


def test_claims_are_paginated_with_citations(api, couriers):
    version = generate_prd(couriers.project)
    total = version.claims.count()

    first = api.get(f"{BASE}/prd/versions/1/claims/").json()
    second = api.get(f"{BASE}/prd/versions/1/claims/?page=2")

    assert first["count"] == total
    assert len(first["results"]) == min(total, 50)
    row = first["results"][0]
    assert set(row) == {
        "id",
        "section",
        "order",
        "text",
        "kind",
        "nodes",
        "flag",
        "edited",
        "citations",
    }
    assert row["citations"][0]["message_number"] >= 1
    assert second.status_code == (200 if total > 50 else 404)


def test_markdown_export(api, couriers):
    version = generate_prd(couriers.project)

    response = api.get(f"{BASE}/prd/versions/1/markdown/")

    assert response.status_code == 200
    assert response["Content-Type"] == "text/markdown; charset=utf-8"
    assert response.content.decode() == version.markdown
    missing = api.get(f"{BASE}/prd/versions/3/markdown/", HTTP_ACCEPT="text/markdown")
    assert missing.status_code == 404


def test_runs_are_scoped_to_their_project(api, couriers, outsider):
    from kg.models import Project

    other = Project.objects.get(slug="globex-app")
    foreign = generate_prd(other)

    assert api.get(f"{BASE}/prd/runs/{foreign.pk}/").status_code == 404
    assert foreign.status == VersionStatus.COMPLETE


def test_openapi_schema_documents_the_endpoints(couriers):
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator(patterns=__import__("artifacts.api").api.router_urls).get_schema(
        request=None, public=True
    )

    paths = schema["paths"]
    assert "/projects/{slug}/prd/versions/{number}/" in paths
    detail = paths["/projects/{slug}/prd/versions/{number}/"]["get"]["responses"]["200"]
    assert detail["content"]["application/json"]["schema"]["$ref"].endswith("VersionDetail")
    generate = paths["/projects/{slug}/prd/generate/"]["post"]["responses"]
    assert "202" in generate
