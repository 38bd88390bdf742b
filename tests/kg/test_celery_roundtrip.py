"""A task goes through the real embedded broker to a real Celery worker and back."""

from __future__ import annotations

import pytest
from celery.contrib.testing.worker import start_worker

from config.celery import app
from kg.tasks import worker_probe


@pytest.mark.worker
def test_task_round_trip_through_real_broker(embedded_server, transactional_db):
    assert app.conf.broker_url == embedded_server.redis_url(1)  # with its password
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        result = worker_probe.delay().get(timeout=30)
    assert result["sql"] is True
    assert result["graph"] is True


@pytest.mark.worker
def test_a_recorded_episode_is_processed_by_the_worker(embedded_server, graph, transactional_db):
    import time

    from django.db import transaction

    from kg.graph import store
    from kg.ledger.episodes import EpisodeInput, record_episode
    from kg.models import EpisodeProcessing
    from tests.kg.pipeline_helpers import make_project

    project = make_project("worker", name="Shop")
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        with transaction.atomic():  # the task is queued only when this commits
            episode = record_episode(project, EpisodeInput(content="Couriers hate paper maps."))
        deadline = time.monotonic() + 60
        status = ""
        while time.monotonic() < deadline and status not in {"done", "failed"}:
            status = EpisodeProcessing.objects.get(episode=episode).status
            time.sleep(0.2)
    assert status == "done"
    assert {n.type for n in store.list_nodes(project.graph_scope)} >= {"segment", "pain"}


def test_parallel_workers_never_create_twins(embedded_server, graph, transactional_db):
    import threading

    from django.db import connection

    from kg.graph import store
    from kg.pipeline.ingest import episode_ingest
    from tests.kg.pipeline_helpers import make_project, record_messages

    project = make_project("twins", name="Shop")
    episodes = record_messages(
        project,
        [
            {"at": "2026-03-01T10:00:00Z", "text": "Couriers hate paper maps."},
            {"at": "2026-03-01T10:00:01Z", "text": "Couriers hate paper maps!"},
        ],
    )
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def work(episode_id: int) -> None:
        try:
            barrier.wait()
            episode_ingest(episode_id)
        except BaseException as exc:  # reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=work, args=(e.pk,)) for e in episodes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    pains = store.list_nodes(project.graph_scope, "pain")
    assert len(pains) == 1
    assert {e.episode_number for e in pains[0].evidence} == {1, 2}


def test_every_queued_task_is_registered_once_django_is_ready():
    """The tasks queued by name (kg.task_queue): a web process that never imported a tasks
    module must still know them, or its first import fails with NotRegistered."""
    import os
    import subprocess
    import sys

    script = (
        "import django; django.setup()\n"
        "from celery import current_app\n"
        "names = ['kg.episode_ingest', 'kg.source_import', 'artifacts.generate_prd',"
        " 'orgmemory.promote_org']\n"
        "print([n for n in names if n not in current_app.tasks])\n"
    )
    shown = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "true"},
    )
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.strip().splitlines()[-1] == "[]"


def test_a_worker_logs_through_the_projects_logging_settings_once():
    import logging
    import os

    root = logging.getLogger()
    before, environ = list(root.handlers), dict(os.environ)
    try:
        # What a worker does at start: with the project's receiver, Celery adds no root handler
        # of its own (which would print every project log line a second time).
        app.log.setup_logging_subsystem(loglevel="INFO")
        assert root.handlers == before
        assert [type(h) for h in logging.getLogger("groundwork").handlers] == [
            logging.StreamHandler
        ]
    finally:  # Celery also leaves its level in the environment, for its forked children
        root.handlers = before
        app.log.already_setup = False
        os.environ.clear()
        os.environ.update(environ)
