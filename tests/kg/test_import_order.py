"""Imported messages are integrated in their order, however their tasks are run."""

from __future__ import annotations

import time

import pytest

from kg.ledger import episodes as ledger
from kg.ledger.episodes import EpisodeInput, record_episode, record_new_episodes
from kg.models import EpisodeIntegration, EpisodeKind, EpisodeProcessing, LLMCall, ProcessingStatus
from kg.pipeline import ingest
from kg.pipeline.ingest import episode_ingest
from kg.pipeline.locks import lock_redis, namespaced_key
from kg.pipeline.recovery import record_gave_up
from kg.reading.export import export_project
from tests.kg.pipeline_helpers import make_project

pytestmark = pytest.mark.django_db

MESSAGES = [
    "Salon owners hate double bookings.",
    "The calendar sync is slow on weak internet.",
    "Salon owners want reminders by text message.",
    "Double bookings cost a salon two clients a week.",
]


def _imported(project, texts=MESSAGES):
    return [
        record_episode(project, EpisodeInput(content=t, kind=EpisodeKind.IMPORT), enqueue=False)
        for t in texts
    ]


def _order(episodes) -> list[int | None]:
    rows = dict(
        EpisodeIntegration.objects.filter(episode__in=episodes).values_list("episode_id", "order")
    )
    return [rows.get(e.pk) for e in episodes]


def _status(episode) -> str:
    return EpisodeProcessing.objects.get(episode=episode).status


def test_the_last_message_taken_first_integrates_the_earlier_ones_before_it(
    embedded_server, monkeypatch
):
    monkeypatch.setattr(ingest, "AHEAD_SECONDS", 0.0)  # no going on past its own message
    project = make_project("in-order")
    episodes = _imported(project)
    report = episode_ingest(episodes[2].pk)  # its task ran first
    assert not report.skipped
    assert [_status(e) for e in episodes[:3]] == [ProcessingStatus.DONE] * 3
    assert _status(episodes[3]) == ProcessingStatus.PENDING  # the one after is left to its task
    first = _order(episodes[:3])
    assert first == sorted(first) and None not in first  # places follow the numbers
    assert episode_ingest(episodes[0].pk).skipped  # the earlier tasks find their message done
    episode_ingest(episodes[3].pk)
    order = _order(episodes)
    assert order == sorted(order)


def test_the_holder_of_the_turn_goes_on_past_its_own_message(embedded_server):
    project = make_project("ahead")
    episodes = _imported(project)
    report = episode_ingest(episodes[1].pk)
    assert report.episode == episodes[1].number  # the report is its own message's
    assert [_status(e) for e in episodes] == [ProcessingStatus.DONE] * 4
    assert _order(episodes) == [1, 2, 3, 4]
    assert episode_ingest(episodes[3].pk).skipped  # its task finds it done


def test_the_batches_are_those_of_a_sequential_run(embedded_server):
    """Taken last-first, the messages share one model call as they do taken in order, and the
    graph is the same, numbers included."""
    backwards, forwards = make_project("backwards"), make_project("forwards")
    late, early = _imported(backwards), _imported(forwards)
    episode_ingest(late[-1].pk)
    for episode in early:
        episode_ingest(episode.pk)

    calls = LLMCall.objects.filter(project=backwards)
    assert list(calls.values_list("operation", flat=True)) == ["batch_extraction"]
    prompt = str(calls.get().prompt)
    assert all(text in prompt for text in MESSAGES)

    def shape(project):
        exported = export_project(project)
        return sorted((n["type"], n["label"], n["number"]) for n in exported["nodes"]), sorted(
            (e["type"], len(e["evidence"])) for e in exported["edges"]
        )

    assert shape(backwards) == shape(forwards)
    assert shape(backwards)[0]  # something was extracted: the comparison is not of two voids


def test_an_earlier_message_failed_for_good_is_passed_over(embedded_server):
    project = make_project("passed-over")
    episodes = _imported(project)
    record_gave_up(episodes[0].pk, "ValueError: unreadable", transient=False)
    episode_ingest(episodes[1].pk)
    assert _status(episodes[0]) == ProcessingStatus.FAILED  # left as it was: not retried
    assert _status(episodes[1]) == ProcessingStatus.DONE
    assert _order(episodes[:2]) == [None, 1]


def test_an_earlier_message_waiting_for_a_retry_is_integrated_first(embedded_server):
    project = make_project("retried-first")
    episodes = _imported(project)
    record_gave_up(episodes[0].pk, "GraphUnavailable: restarting", transient=True)
    episode_ingest(episodes[1].pk)
    assert [_status(e) for e in episodes[:2]] == [ProcessingStatus.DONE] * 2
    assert _order(episodes[:2]) == [1, 2]


def test_a_turn_held_by_a_dead_worker_frees_itself(embedded_server):
    """A worker killed holding the import turn leaves its lease, which expires on its own."""
    project = make_project("dead-turn")
    episodes = _imported(project, MESSAGES[:1])
    key = namespaced_key(f"lock:import-order:{project.pk}")
    lock_redis().set(key, "a-dead-worker", px=1500)  # no heartbeat renews it
    started = time.monotonic()
    episode_ingest(episodes[0].pk)
    waited = time.monotonic() - started
    assert _status(episodes[0]) == ProcessingStatus.DONE
    assert waited >= 1.0  # it waited for the turn, and took it once the lease expired


def test_an_import_queues_one_task_per_run_and_each_task_reaches_its_run(
    embedded_server, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(ledger, "IMPORT_TASK_STRIDE", 3)
    monkeypatch.setattr(ingest, "AHEAD_SECONDS", 0.0)  # each task stops at its own message
    project = make_project("strided")
    texts = [f"Clinic managers in town {i} lose a day a week to paper forms." for i in range(7)]
    items = [EpisodeInput(content=t, kind=EpisodeKind.IMPORT) for t in texts]
    with django_capture_on_commit_callbacks() as queued:
        episodes, _ = record_new_episodes(project, items, enqueue=True)
    # The third, sixth and seventh message: the last of each run of three.
    assert [q.args for q in queued] == [(episodes[i].pk,) for i in (2, 5, 6)]
    episode_ingest(episodes[5].pk)  # the second run's task, taken first
    assert [_status(e) for e in episodes] == [ProcessingStatus.DONE] * 6 + [
        ProcessingStatus.PENDING
    ]
    episode_ingest(episodes[6].pk)
    assert _status(episodes[6]) == ProcessingStatus.DONE
    order = _order(episodes)
    assert order == sorted(order) and None not in order


def test_a_chat_message_gets_its_own_task(db, django_capture_on_commit_callbacks):
    project = make_project("chat-queue")
    items = [EpisodeInput(content=f"Note {i} on pricing.") for i in range(3)]
    with django_capture_on_commit_callbacks() as queued:
        episodes, _ = record_new_episodes(project, items, enqueue=True)
    assert [q.args for q in queued] == [(e.pk,) for e in episodes]
