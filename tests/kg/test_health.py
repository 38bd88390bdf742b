"""GET /health reports every component and never hangs on a stopped graph server."""

from __future__ import annotations

import time

import pytest

from kg.embedded import free_port
from kg.graph import reset_client


@pytest.mark.django_db
def test_health_reports_every_component(client, embedded_server):
    response = client.get("/health")
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
def test_stopped_graph_is_reported_down_quickly(client, embedded_server, settings, scheme):
    settings.GRAPH_URI = f"{scheme}://127.0.0.1:{free_port()}"  # nothing listens there
    settings.GRAPH_TIMEOUT_SECONDS = 2
    reset_client()
    try:
        started = time.monotonic()
        response = client.get("/health")
        elapsed = time.monotonic() - started
    finally:
        settings.GRAPH_URI = embedded_server.graph_uri
        reset_client()
    assert response.status_code == 503
    assert response.json()["graph"]["ok"] is False
    assert elapsed < 20  # bounded by the connection timeouts, not by a hang
