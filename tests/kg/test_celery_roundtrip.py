"""A task goes through the real embedded broker to a real Celery worker and back."""

from __future__ import annotations

import pytest
from celery.contrib.testing.worker import start_worker

from config.celery import app
from kg.tasks import worker_probe


@pytest.mark.worker
def test_task_round_trip_through_real_broker(embedded_server, transactional_db):
    assert app.conf.broker_url.startswith(f"redis://127.0.0.1:{embedded_server.redis_port}/")
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        result = worker_probe.delay().get(timeout=30)
    assert result["sql"] is True
    assert result["graph"] is True
