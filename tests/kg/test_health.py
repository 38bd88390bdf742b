"""GET /health reports every component, answers 503 unless all is well, and never hangs on a
stopped or stalled graph server; anonymous callers get a cheap, shared, rate-limited answer."""

from __future__ import annotations

import socket
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
    from kg.pipeline.recovery import record_worker_beat

    record_worker_beat("w1:1")
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
    response = staff_client.get("/health")
    assert response.status_code == 503  # degraded is not well: a status-code monitor sees it
    body = response.json()
    assert body["ok"] is True
    assert body["status"] == "degraded"
    assert body["pipeline"]["workers_seen"] == {}
    assert "no worker seen" in body["pipeline"]["detail"]

    record_worker_beat("w2:2")
    response = staff_client.get("/health")
    body = response.json()
    assert body["status"] == "ok", body["pipeline"]
    assert response.status_code == 200
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


@pytest.fixture
def stalled_graph(settings, embedded_server):
    """A graph server that takes the connection and never answers (a stopped process behind a
    live socket): the listening socket's backlog completes the handshake, nothing reads."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    settings.GRAPH_URI = f"falkordb://127.0.0.1:{listener.getsockname()[1]}"
    settings.GRAPH_TIMEOUT_SECONDS = 30
    reset_client()
    yield
    listener.close()  # the connections waiting in its backlog are reset: the probe ends
    settings.GRAPH_URI = embedded_server.graph_uri
    reset_client()


@pytest.mark.django_db
def test_a_stalled_graph_is_503_within_the_probe_timeout(staff_client, stalled_graph):
    from django.test import Client

    from kg.operations.health import PROBE_TIMEOUT_SECONDS

    started = time.monotonic()
    response = staff_client.get("/health")
    elapsed = time.monotonic() - started
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "down"
    assert body["graph"] == {
        "ok": False,
        "detail": f"no answer within {PROBE_TIMEOUT_SECONDS:g} s",
        "server": "",
        "version": "",
    }
    assert body["sql"]["ok"] is True and body["broker"]["ok"] is True
    assert elapsed < PROBE_TIMEOUT_SECONDS + 1.5  # not the graph's own 30 s timeout

    started = time.monotonic()
    anonymous = Client().get("/health")
    assert anonymous.status_code == 503
    assert anonymous.json() == {"ok": False, "status": "down"}
    assert time.monotonic() - started < PROBE_TIMEOUT_SECONDS + 1.5


@pytest.mark.django_db
def test_the_anonymous_answer_is_shared_for_a_few_seconds(client, settings, embedded_server):
    from django.core.cache import cache

    from kg.pipeline.recovery import record_worker_beat
    from kg.web.views import PUBLIC_HEALTH_KEY, PUBLIC_HEALTH_SECONDS

    record_worker_beat("w1:1")
    assert client.get("/health").status_code == 200
    assert PUBLIC_HEALTH_SECONDS <= 10
    # The graph stops; callers within the window get the answer already made, at once.
    settings.GRAPH_URI = f"falkordb://127.0.0.1:{free_port()}"
    reset_client()
    try:
        started = time.monotonic()
        assert client.get("/health").json() == {"ok": True, "status": "ok"}
        assert time.monotonic() - started < 0.5
        cache.delete(PUBLIC_HEALTH_KEY)  # the window over
        assert client.get("/health").status_code == 503
    finally:
        settings.GRAPH_URI = embedded_server.graph_uri
        reset_client()


@pytest.mark.django_db
def test_anonymous_health_checks_are_limited_per_address(client, settings, embedded_server):
    settings.HEALTH_CHECKS_PER_MINUTE = 3
    for _ in range(3):
        assert client.get("/health", REMOTE_ADDR="203.0.113.7").status_code != 429
    refused = client.get("/health", REMOTE_ADDR="203.0.113.7")
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) >= 1
    assert client.get("/health", REMOTE_ADDR="198.51.100.9").status_code != 429


@pytest.mark.django_db
def test_liveness_needs_only_the_process_and_its_database(client, embedded_server):
    from kg.pipeline.recovery import record_worker_beat

    _clear_worker_beats(embedded_server)
    record_worker_beat("w1:1", at=time.time() - 61)  # the pipeline is degraded...
    assert client.get("/health").status_code == 503
    live = client.get("/health/live")  # ...the web process itself is fine
    assert live.status_code == 200 and live.json() == {"ok": True}
