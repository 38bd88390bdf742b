"""Recovery: which failures are retried and when, the task's recorded state, the sweep."""

from __future__ import annotations

import datetime as dt
import random

import httpx2 as httpx
import openai
import pytest
import redis
from django.core.management import call_command
from django.db import InterfaceError, OperationalError
from django.utils import timezone

from kg.graph import GraphUnavailable, reset_client
from kg.llm import LLMOutputError
from kg.models import EpisodeProcessing, ProcessingStatus
from kg.operations.embedded import free_port
from kg.pipeline import recovery, retry_policy
from kg.pipeline.locks import LeaseLost, LockBusy, lock_redis, namespaced_key
from tests.kg.pipeline_helpers import make_project, record_messages

_REQUEST = httpx.Request("POST", "http://model.invalid/v1/chat/completions")


def _response(status: int) -> httpx.Response:
    return httpx.Response(status, request=_REQUEST)


@pytest.mark.parametrize(
    "error",
    [
        GraphUnavailable("graph down"),
        redis.exceptions.ConnectionError("Error 111 connecting"),
        redis.exceptions.TimeoutError("Timeout reading"),
        redis.exceptions.BusyLoadingError("Redis is loading the dataset in memory"),
        OperationalError("server closed the connection unexpectedly"),
        InterfaceError("connection already closed"),
        openai.APIConnectionError(request=_REQUEST),
        openai.APITimeoutError(request=_REQUEST),
        openai.RateLimitError("slow down", response=_response(429), body=None),
        openai.InternalServerError("bad gateway", response=_response(502), body=None),
        LockBusy("project-lock:1 stayed locked"),
        LeaseLost("project-lock:1: another holder took the lock"),
    ],
    ids=lambda e: type(e).__name__,
)
def test_outages_are_transient(error):
    assert retry_policy.is_transient(error)


@pytest.mark.parametrize(
    "error",
    [
        ValueError("bad input"),
        LLMOutputError("the model's answer is not valid", None),
        openai.BadRequestError("context too long", response=_response(400), body=None),
        openai.AuthenticationError("bad key", response=_response(401), body=None),
        redis.exceptions.ResponseError("WRONGTYPE"),
    ],
    ids=lambda e: type(e).__name__,
)
def test_faults_of_the_request_are_not_retried(error):
    assert not retry_policy.is_transient(error)


def test_retries_are_spaced_to_outlast_a_restart_with_jitter():
    rng = random.Random(7)
    delays = [retry_policy.retry_delay(n, rng) for n in range(retry_policy.MAX_RETRIES)]
    assert 4 <= delays[0] <= 6  # the first retry is quick
    assert all(later > earlier * 0.7 for earlier, later in zip(delays, delays[1:], strict=False))
    assert delays[-1] >= 240  # minutes, not seconds, once an outage lasts
    assert sum(delays) >= 20 * 60  # the whole policy outlasts a long restart
    draws = {round(retry_policy.retry_delay(5), 3) for _ in range(20)}
    assert len(draws) > 1 and all(72 <= d <= 108 for d in draws)  # 90 s ± 20 %


@pytest.mark.django_db
def test_a_task_that_gives_up_leaves_the_episode_failed_with_its_reason(embedded_server, settings):
    from kg.tasks import episode_ingest_task

    project = make_project("outage")
    (episode,) = record_messages(
        project, [{"at": "2026-03-01T10:00:00Z", "text": "Couriers hate paper maps."}]
    )
    settings.GRAPH_URI = f"falkordb://127.0.0.1:{free_port()}"  # the graph is down throughout
    reset_client()
    try:
        # The last allowed run: the task gives up instead of scheduling another retry.
        result = episode_ingest_task.apply(args=[episode.pk], retries=retry_policy.MAX_RETRIES)
    finally:
        settings.GRAPH_URI = embedded_server.graph_uri
        reset_client()
    assert result.failed()
    processing = EpisodeProcessing.objects.get(episode=episode)
    assert processing.status == ProcessingStatus.FAILED
    assert processing.error.startswith(f"gave up after {retry_policy.MAX_RETRIES} retries: ")
    assert "GraphUnavailable" in processing.error
    assert processing.attempts == 1  # recorded before the first call to the graph
    assert processing.retry_at is not None  # transient: the sweep tries again later


@pytest.mark.django_db
def test_a_scheduled_retry_is_recorded_as_pending_with_its_reason(org_project):
    (episode,) = record_messages(
        org_project, [{"at": "2026-03-01T10:00:00Z", "text": "Couriers hate paper maps."}]
    )
    recovery.record_retry(episode.pk, "GraphUnavailable: graph down", 60)
    processing = EpisodeProcessing.objects.get(episode=episode)
    assert processing.status == ProcessingStatus.PENDING
    assert processing.error == "retrying in 60s after GraphUnavailable: graph down"
    due = (processing.retry_at - timezone.now()).total_seconds()
    assert 55 <= due <= 61


# -- the sweep --------------------------------------------------------------------------------
def _age(episode, seconds: float, **fields) -> None:
    EpisodeProcessing.objects.filter(episode=episode).update(
        updated_at=timezone.now() - dt.timedelta(seconds=seconds), **fields
    )


@pytest.fixture
def five_episodes(org_project, embedded_server):
    lock_redis().delete(namespaced_key("workers"))
    return record_messages(
        org_project,
        [{"at": f"2026-03-01T10:0{i}:00Z", "text": f"Couriers hate map {i}."} for i in range(5)],
    )


@pytest.mark.django_db
def test_the_sweep_requeues_only_what_no_one_works_on(
    five_episodes, django_capture_on_commit_callbacks
):
    fresh, stale_pending, stale_running, waiting_retry, failed_for_good = five_episodes
    _age(stale_pending, 700)
    _age(stale_running, 700, status=ProcessingStatus.RUNNING, worker="w:1")
    _age(
        waiting_retry,
        700,
        retry_at=timezone.now() + dt.timedelta(minutes=5),  # its worker retries it
    )
    _age(failed_for_good, 700, status=ProcessingStatus.FAILED, error="ValueError: bad")
    with django_capture_on_commit_callbacks() as queued:
        report = recovery.sweep_stale_episodes(stale_after=600, max_requeues=3, backlog=0)
    assert sorted(report.requeued) == sorted([stale_pending.pk, stale_running.pk])
    assert len(queued) == 2
    rows = {p.episode_id: p for p in EpisodeProcessing.objects.all()}
    assert rows[stale_running.pk].status == ProcessingStatus.PENDING
    assert rows[stale_running.pk].requeues == 1
    assert rows[fresh.pk].requeues == 0 and rows[waiting_retry.pk].requeues == 0
    assert rows[failed_for_good.pk].status == ProcessingStatus.FAILED


@pytest.mark.django_db
def test_the_tail_of_a_long_import_waiting_in_the_queue_is_left_there(
    five_episodes, django_capture_on_commit_callbacks
):
    """Pending past the deadline is lost work only when nothing is left to deliver it."""
    waiting, moving = five_episodes[:2]
    _age(waiting, 700)
    _age(moving, 700, status=ProcessingStatus.RUNNING, worker="live:1")
    recovery.record_worker_beat("live:1")
    with django_capture_on_commit_callbacks():
        # The broker still holds tasks: the episode waits its turn behind them.
        assert recovery.sweep_stale_episodes(stale_after=600, backlog=40).requeued == []
        # The broker cannot say, and episodes moved within the deadline: still waiting.
        assert recovery.sweep_stale_episodes(stale_after=600, backlog=None).requeued == []
        # The queue is empty: the episode's task is gone (a broker restart, a dead worker's
        # reserved task) and it is re-queued; the live worker's long episode is left to it.
        assert recovery.sweep_stale_episodes(stale_after=600, backlog=0).requeued == [waiting.pk]
    # The broker cannot say and nothing moved for the deadline: re-queued too.
    EpisodeProcessing.objects.update(updated_at=timezone.now() - dt.timedelta(seconds=700))
    with django_capture_on_commit_callbacks():
        report = recovery.sweep_stale_episodes(stale_after=600, backlog=None)
    assert sorted(report.requeued) == sorted(e.pk for e in five_episodes if e != moving)


@pytest.mark.django_db
def test_the_broker_says_how_many_tasks_wait(embedded_server):
    from config.celery import app

    with app.connection_for_write() as conn:
        conn.default_channel.client.delete(app.conf.task_default_queue)
    assert recovery.broker_backlog() == 0
    with app.connection_for_write() as conn:
        producer = conn.Producer()
        for n in range(3):
            producer.publish({"n": n}, routing_key=app.conf.task_default_queue)
    try:
        assert recovery.broker_backlog() == 3
    finally:
        with app.connection_for_write() as conn:
            conn.default_channel.client.delete(app.conf.task_default_queue)


@pytest.mark.django_db
def test_a_dead_workers_episode_is_requeued_without_waiting_for_the_deadline(
    five_episodes, django_capture_on_commit_callbacks
):
    on_dead, on_live = five_episodes[:2]
    recovery.record_worker_beat("dead:1", at=timezone.now().timestamp() - 40)  # six beats
    recovery.record_worker_beat("live:2")
    _age(on_dead, 5, status=ProcessingStatus.RUNNING, worker="dead:1")
    _age(on_live, 5, status=ProcessingStatus.RUNNING, worker="live:2")
    with django_capture_on_commit_callbacks():
        report = recovery.sweep_stale_episodes(stale_after=600)
    assert report.requeued == [on_dead.pk]
    assert report.live_workers == 1


@pytest.mark.django_db
def test_a_transient_failure_is_swept_again_when_due(
    five_episodes, django_capture_on_commit_callbacks
):
    gave_up = five_episodes[0]
    recovery.record_gave_up(
        gave_up.pk, "gave up after 12 retries: GraphUnavailable", transient=True
    )
    with django_capture_on_commit_callbacks():
        assert recovery.sweep_stale_episodes(stale_after=600).requeued == []  # not due yet
        EpisodeProcessing.objects.filter(episode=gave_up).update(retry_at=timezone.now())
        assert recovery.sweep_stale_episodes(stale_after=600).requeued == [gave_up.pk]


@pytest.mark.django_db
def test_after_the_last_requeue_the_episode_fails_with_its_reason(
    five_episodes, django_capture_on_commit_callbacks
):
    stuck = five_episodes[0]
    with django_capture_on_commit_callbacks():
        for round_ in range(3):
            _age(stuck, 700, stage="extract", error="GraphUnavailable: graph down")
            report = recovery.sweep_stale_episodes(stale_after=600, max_requeues=2, backlog=0)
            assert (report.requeued, report.failed) == (
                ([stuck.pk], []) if round_ < 2 else ([], [stuck.pk])
            )
    processing = EpisodeProcessing.objects.get(episode=stuck)
    assert processing.status == ProcessingStatus.FAILED
    assert processing.error.startswith("gave up after 2 re-queues by the stale-work sweep")
    assert "GraphUnavailable: graph down" in processing.error


@pytest.mark.django_db
def test_the_sweep_command_reports_what_it_did(
    five_episodes, capsys, django_capture_on_commit_callbacks
):
    _age(five_episodes[0], 700)
    with django_capture_on_commit_callbacks():
        call_command("kg_sweep", "--stale-after", "600")
    assert "1 re-queued, 0 failed for good" in capsys.readouterr().out
