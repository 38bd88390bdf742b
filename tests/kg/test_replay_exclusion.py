"""While one process replays a project's graph (kg_rebuild, an undo), no other writes into it."""

from __future__ import annotations

import threading

from django.db import connection

from kg.models import EpisodeProcessing, ProcessingStatus
from kg.pipeline import ingest
from kg.pipeline.ingest import episode_ingest
from kg.pipeline.locks import replay_lock, replaying
from tests.kg.pipeline_helpers import make_project, record_messages


def _ingest_in_a_thread(episode_id: int, finished: threading.Event) -> threading.Thread:
    def run() -> None:
        try:
            episode_ingest(episode_id)
        finally:
            connection.close()
            finished.set()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def test_a_pipeline_run_waits_while_another_process_replays_the_graph(
    graph, transactional_db, monkeypatch
):
    monkeypatch.setattr(ingest, "LEASE_POLL_SECONDS", 0.05)
    project = make_project("replayed")
    [episode] = record_messages(
        project, [{"text": "Couriers wait twenty minutes at pickup.", "at": "2026-03-01T09:00:00Z"}]
    )
    finished = threading.Event()
    with replay_lock(project.pk):
        thread = _ingest_in_a_thread(episode.pk, finished)
        assert not finished.wait(1.5)  # held off while the replay runs
        status = EpisodeProcessing.objects.get(episode=episode).status
        assert status != ProcessingStatus.DONE
    assert finished.wait(60)
    thread.join()
    assert EpisodeProcessing.objects.get(episode=episode).status == ProcessingStatus.DONE


def test_the_replay_itself_runs_the_pipeline_under_its_own_lock(graph, transactional_db):
    project = make_project("replaying")
    [episode] = record_messages(
        project, [{"text": "Couriers wait twenty minutes at pickup.", "at": "2026-03-01T09:00:00Z"}]
    )
    with replay_lock(project.pk), replaying(project.pk):
        episode_ingest(episode.pk)
    assert EpisodeProcessing.objects.get(episode=episode).status == ProcessingStatus.DONE
