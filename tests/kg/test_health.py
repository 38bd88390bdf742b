"""GET /health reports every component and never hangs on a stopped graph server."""

from __future__ import annotations

import time

import pytest

from kg.graph import reset_client
from kg.operations.embedded import free_port


@pytest.fixture
def staff_client(client, django_user_model):
    user = django_user_model.objects.create_user("ops", password="pw-ops-1234", is_staff=True)
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_health_reports_every_component(staff_client, embedded_server):
    response = staff_client.get("/health")
    body = response.json()
    assert response.status_code == 200, body
    assert body["ok"] is True
    assert body["sql"]["ok"] is True
    assert body["graph"]["ok"] is True and body["graph"]["server"]
    assert body["broker"]["ok"] is True
    assert body["workers"]["detail"].split(" seen")[0].isdigit()  # how many workers answered
    assert body["llm"]["mode"] == "offline"


@pytest.mark.django_db
@pytest.mark.parametrize("scheme", ["falkordb", "bolt"])
def test_stopped_graph_is_reported_down_quickly(staff_client, embedded_server, settings, scheme):
    settings.GRAPH_URI = f"{scheme}://127.0.0.1:{free_port()}"  # nothing listens there
    settings.GRAPH_TIMEOUT_SECONDS = 2
    reset_client()
    try:
        started = time.monotonic()
        response = staff_client.get("/health")
        elapsed = time.monotonic() - started
    finally:
        settings.GRAPH_URI = embedded_server.graph_uri
        reset_client()
    assert response.status_code == 503
    assert response.json()["graph"]["ok"] is False
    assert elapsed < 20  # bounded by the connection timeouts, not by a hang


@pytest.mark.django_db
def test_others_see_only_the_status(client, django_user_model, embedded_server):
    anonymous = client.get("/health").json()
    member = django_user_model.objects.create_user("pm", password="pw-pm-12345")
    client.force_login(member)
    logged_in = client.get("/health").json()
    for body in (anonymous, logged_in):
        assert set(body) == {"ok", "status"}
        assert body["ok"] is True and body["status"] in {"ok", "degraded"}


def _clear_worker_beats(embedded_server) -> None:
    from kg.pipeline.locks import lock_redis, namespaced_key

    lock_redis().delete(namespaced_key("workers"))


@pytest.mark.django_db
def test_degraded_when_no_worker_was_seen_for_a_minute(staff_client, embedded_server):
    from kg.pipeline.recovery import record_worker_beat

    _clear_worker_beats(embedded_server)
    record_worker_beat("w1:1", at=time.time() - 61)  # seen, then silent for over a minute
    body = staff_client.get("/health").json()
    assert body["ok"] is True
    assert body["status"] == "degraded"
    assert body["pipeline"]["workers_seen"] == {}
    assert "no worker seen" in body["pipeline"]["detail"]

    record_worker_beat("w2:2")
    body = staff_client.get("/health").json()
    assert body["status"] == "ok", body["pipeline"]
    assert list(body["pipeline"]["workers_seen"]) == ["w2:2"]


@pytest.mark.django_db
def test_degraded_when_an_episode_waits_past_the_sweep_deadline(
    staff_client, embedded_server, settings
):
    import datetime as dt

    from django.utils import timezone

    from kg.models import EpisodeProcessing
    from kg.pipeline.recovery import record_worker_beat
    from tests.kg.pipeline_helpers import make_project, record_messages

    _clear_worker_beats(embedded_server)
    record_worker_beat("w1:1")
    settings.PIPELINE_STALE_AFTER_SECONDS = 300
    project = make_project("health")
    fresh, old = record_messages(
        project,
        [
            {"at": "2026-03-01T10:00:00Z", "text": "Couriers hate paper maps."},
            {"at": "2026-03-01T10:01:00Z", "text": "Couriers want offline maps."},
        ],
    )
    body = staff_client.get("/health").json()
    assert body["status"] == "ok" and body["pipeline"]["stuck"] == 0
    assert body["pipeline"]["oldest_pending_seconds"] < 60

    ten_minutes_ago = timezone.now() - dt.timedelta(minutes=10)
    EpisodeProcessing.objects.filter(episode=old).update(updated_at=ten_minutes_ago)
    EpisodeProcessing.objects.filter(episode=fresh).update(status="failed")
    body = staff_client.get("/health").json()
    assert body["status"] == "degraded"
    assert body["pipeline"]["stuck"] == 1
    assert body["pipeline"]["failed"] == 1
    assert body["pipeline"]["oldest_pending_seconds"] >= 600
