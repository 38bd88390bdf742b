"""PRD pages: login and membership required; generation runs as a task with visible stages."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from artifacts.models import ArtifactVersion, Stage, VersionStatus
from artifacts.services import generate_prd, start_prd_generation
from artifacts.tasks import generate_prd_task
from config.celery import app

pytestmark = pytest.mark.django_db


@pytest.fixture
def eager_celery():
    """Tasks run in-process when queued (the broker round trip is kg's worker test)."""
    previous = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager, app.conf.task_eager_propagates = True, True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = previous


@pytest.fixture
def alice(client, member):
    client.force_login(member)
    return client


def test_pages_require_login(client, couriers):
    for url in ["/projects/couriers/prd/", "/projects/couriers/prd/1.md"]:
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/login/")
    assert client.post("/projects/couriers/prd/generate").status_code == 302
    assert ArtifactVersion.objects.count() == 0


def test_other_organizations_get_404(client, couriers, outsider):
    version = generate_prd(couriers.project)
    client.force_login(outsider)

    for url in [
        "/projects/couriers/prd/",
        "/projects/couriers/prd/?version=1",
        "/projects/couriers/prd/1.md",
        f"/projects/couriers/prd/runs/{version.pk}/",
        f"/projects/couriers/prd/status/{version.pk}",
    ]:
        assert client.get(url).status_code == 404, url
    assert client.post("/projects/couriers/prd/generate").status_code == 404
    assert ArtifactVersion.objects.count() == 1


def test_page_without_a_version_offers_generation(alice, couriers):
    response = alice.get("/projects/couriers/prd/")

    assert response.status_code == 200
    assert b"No PRD yet" in response.content
    assert b'action="/projects/couriers/prd/generate"' in response.content


def test_page_shows_the_latest_version_with_citations(alice, couriers):
    generate_prd(couriers.project)

    response = alice.get("/projects/couriers/prd/")

    html = response.content.decode()
    assert response.status_code == 200
    assert response.templates[0].name == "artifacts/prd.html"
    assert "groundwork/base.html" in [t.name for t in response.templates]
    assert "Problem: App lags on weak internet." in html
    assert (
        'href="/projects/couriers/research/nodes/4/?episode=2#evidence-2" data-episode="2" '
        'data-node="4"' in html
    )
    assert 'title="pain #4 · App lags on weak internet · confidence 85 · 3 March · ' in html
    assert 'href="/projects/couriers/prd/1.md"' in html
    assert "offline template engine" in html
    assert '<option value="1" selected>' in html


def test_version_selector_and_markdown_download(alice, couriers):
    first = generate_prd(couriers.project)
    e10 = couriers.say("Couriers want a dark theme for night shifts.", "2026-03-20T10:00:00Z")
    couriers.node("feature", "Dark theme", (e10, "a dark theme for night shifts"))
    generate_prd(couriers.project)

    latest = alice.get("/projects/couriers/prd/").content.decode()
    old = alice.get("/projects/couriers/prd/?version=1").content.decode()

    assert "Dark theme" in latest and '<option value="2" selected>' in latest
    assert "Dark theme" not in old and '<option value="1" selected>' in old
    assert alice.get("/projects/couriers/prd/?version=7").status_code == 404
    assert alice.get("/projects/couriers/prd/?version=abc").status_code == 404
    download = alice.get("/projects/couriers/prd/1.md")
    assert download.status_code == 200
    assert download["Content-Type"] == "text/markdown; charset=utf-8"
    assert 'filename="couriers-prd-v1.md"' in download["Content-Disposition"]
    assert download.content.decode() == first.markdown
    assert alice.get("/projects/couriers/prd/9.md").status_code == 404


def test_generate_runs_the_task_and_lands_on_the_prd(
    alice, couriers, eager_celery, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = alice.post("/projects/couriers/prd/generate")

    run = ArtifactVersion.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/projects/couriers/prd/runs/{run.pk}/"
    assert (run.status, run.stage, run.number) == (VersionStatus.COMPLETE, Stage.DONE, 1)
    assert run.task_id

    status = alice.get(f"/projects/couriers/prd/status/{run.pk}").json()
    assert status["status"] == "complete" and status["version"] == 1
    assert status["url"] == "/projects/couriers/prd/?version=1"
    progress = alice.get(response["Location"])
    assert progress.status_code == 302 and progress["Location"] == status["url"]

    # Nothing changed: the second run reuses version 1 and points at it.
    with django_capture_on_commit_callbacks(execute=True):
        again = alice.post("/projects/couriers/prd/generate")
    second = ArtifactVersion.objects.exclude(pk=run.pk).get()
    assert again["Location"] == f"/projects/couriers/prd/runs/{second.pk}/"
    assert second.status == VersionStatus.REUSED and second.same_as == run
    assert alice.get(f"/projects/couriers/prd/status/{second.pk}").json()["version"] == 1


def test_progress_page_polls_a_pending_run(alice, couriers, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as queued:
        run = start_prd_generation(couriers.project)
    assert len(queued) == 1  # the task is queued only once the run is committed

    page = alice.get(f"/projects/couriers/prd/runs/{run.pk}/")
    status = alice.get(f"/projects/couriers/prd/status/{run.pk}").json()

    assert page.status_code == 200
    assert f'data-status-url="/projects/couriers/prd/status/{run.pk}"' in page.content.decode()
    assert status == {
        "id": run.pk,
        "task_id": run.task_id,
        "status": "pending",
        "stage": "queued",
        "stage_label": "Queued",
        "error": "",
        "version": None,
        "url": None,
    }
    listing = alice.get("/projects/couriers/prd/").content.decode()
    assert f'href="/projects/couriers/prd/runs/{run.pk}/"' in listing


def test_generate_with_a_bad_date_explains(alice, couriers):
    response = alice.post("/projects/couriers/prd/generate", {"as_of": "yesterday"})

    assert response.status_code == 400
    assert "is not an ISO-8601 date or time" in response.content.decode()
    assert ArtifactVersion.objects.count() == 0


def test_generate_as_of_a_date(alice, couriers, eager_celery, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        alice.post("/projects/couriers/prd/generate", {"as_of": "2026-03-04"})

    version = ArtifactVersion.objects.get()
    assert version.as_of.isoformat() == "2026-03-04T23:59:59.999999+00:00"
    assert "Offline mode" not in version.markdown  # first said on 8 March
    assert "App lags on weak internet" in version.markdown


def test_task_marks_the_run_failed_on_error(couriers, monkeypatch):
    run = start_prd_generation(couriers.project)

    def broken(*args, **kwargs):
        raise RuntimeError("graph exploded")

    monkeypatch.setattr("artifacts.services.select_context", broken)
    with pytest.raises(RuntimeError):
        generate_prd_task.run(couriers.project.pk, None, run.pk)

    run.refresh_from_db()
    assert run.status == VersionStatus.FAILED
    assert run.error == "RuntimeError: graph exploded"


def test_page_escapes_user_text(alice, project, graph):
    from tests.artifacts.conftest import Research

    r = Research(project)
    e1 = r.say("They said <script>alert(1)</script> loudly.", "2026-03-05T10:00:00Z")
    r.node("pain", "<script>alert(2)</script>", (e1, "<script>alert(1)</script>"))
    generate_prd(project)

    html = alice.get("/projects/couriers/prd/").content.decode()

    assert "<script>alert" not in html
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_admin_is_read_only(client, couriers):
    generate_prd(couriers.project)
    admin = get_user_model().objects.create_superuser("root", "root@example.com", "pw-123456")
    client.force_login(admin)
    version = ArtifactVersion.objects.get()
    claim = version.claims.first()

    assert client.get("/admin/artifacts/artifactversion/").status_code == 200
    assert client.get(f"/admin/artifacts/artifactversion/{version.pk}/change/").status_code == 200
    assert client.get(f"/admin/artifacts/claim/{claim.pk}/change/").status_code == 200
    assert client.get("/admin/artifacts/artifactversion/add/").status_code == 403
    assert client.get(f"/admin/artifacts/claim/{claim.pk}/delete/").status_code == 403
    response = client.post(
        f"/admin/artifacts/claim/{claim.pk}/change/", {"text": "changed", "section": "problem"}
    )
    assert response.status_code == 403
