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
from kg.models import BrokerEpoch, EpisodeProcessing, ProcessingStatus
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
    # The broker's epoch, written and recorded by an earlier sweep: its queue was not lost.
    assert not recovery.broker_restarted()
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


# -- losses recovered at once -----------------------------------------------------------------
def _lose_broker_data() -> None:
    """What a broker restart without persistence leaves: its database empty, queue and epoch."""
    from config.celery import app

    with app.connection_for_write() as conn:
        conn.default_channel.client.delete(app.conf.task_default_queue)
    recovery._broker_redis().delete(recovery._broker_epoch_key())


@pytest.mark.django_db
def test_a_broker_that_lost_its_queue_gets_its_pending_work_back_at_once(
    five_episodes, django_capture_on_commit_callbacks
):
    fresh, held_by_live, running_on_live, done = five_episodes[:4]
    recovery.record_worker_beat("live:1")
    _age(held_by_live, 1, worker="live:1")  # its task was taken before the loss
    _age(running_on_live, 1, status=ProcessingStatus.RUNNING, worker="live:1")
    _age(done, 1, status=ProcessingStatus.DONE)
    with django_capture_on_commit_callbacks():
        assert recovery.sweep_stale_episodes(stale_after=600).requeued == []
    assert not recovery.recovery_due()
    _lose_broker_data()
    assert recovery.recovery_due()  # every worker's heartbeat notices
    with django_capture_on_commit_callbacks() as queued:
        report = recovery.sweep_stale_episodes(stale_after=600)
    # Pending a second, not ten minutes: re-queued at once, as is every pending episode no
    # live worker holds; the live worker's own and the finished one are left alone.
    assert report.broker_restarted
    assert sorted(report.requeued) == sorted([fresh.pk, five_episodes[4].pk])
    assert len(queued) == 2
    assert recovery.broker_epoch_present() and not recovery.recovery_due()
    with django_capture_on_commit_callbacks():
        again = recovery.sweep_stale_episodes(stale_after=600)
    assert (again.broker_restarted, again.requeued) == (False, [])


@pytest.mark.django_db
def test_the_first_sweep_of_an_installation_records_the_epoch_and_requeues_nothing(
    org_project, embedded_server, django_capture_on_commit_callbacks
):
    lock_redis().delete(namespaced_key("workers"))
    _lose_broker_data()  # no epoch anywhere: a new installation, its tasks in the queue
    (pending,) = record_messages(org_project, [{"at": "2026-03-01T10:00:00Z", "text": "Maps."}])
    with django_capture_on_commit_callbacks() as queued:
        report = recovery.sweep_stale_episodes(stale_after=600)
    assert (report.broker_restarted, report.requeued, len(queued)) == (False, [], 0)
    assert BrokerEpoch.objects.get().epoch == (
        recovery._broker_redis().get(recovery._broker_epoch_key()).decode()
    )


@pytest.mark.django_db
def test_a_dead_workers_taken_task_is_requeued_at_once_and_the_worker_forgotten(
    five_episodes, django_capture_on_commit_callbacks, monkeypatch
):
    waiting_for_turn, other = five_episodes[:2]
    monkeypatch.setenv(recovery.WORKER_ID_ENV, "dead:1:ab")
    recovery.claim_episode(waiting_for_turn.pk)
    recovery.record_worker_beat("dead:1:ab", at=timezone.now().timestamp() - 40)
    processing = EpisodeProcessing.objects.get(episode=waiting_for_turn)
    assert (processing.status, processing.worker) == (ProcessingStatus.PENDING, "dead:1:ab")
    assert recovery.recovery_due()
    with django_capture_on_commit_callbacks() as queued:
        report = recovery.sweep_stale_episodes(stale_after=600, backlog=3)
    assert report.requeued == [waiting_for_turn.pk]  # the others wait in the queue
    assert len(queued) == 1
    processing.refresh_from_db()
    assert (processing.worker, processing.requeues) == ("", 1)
    assert recovery.workers_gone(recovery.WORKER_GONE_SECONDS) == set()
    assert not recovery.recovery_due()
    assert EpisodeProcessing.objects.get(episode=other).requeues == 0


@pytest.mark.django_db
def test_the_heartbeat_sweeps_as_soon_as_a_loss_is_noticed(five_episodes):
    import threading

    swept = threading.Event()
    watch = recovery.RecoveryWatch(sweep=swept.set)
    assert not watch.check() and not swept.is_set()
    recovery.record_worker_beat("dead:2:cd", at=timezone.now().timestamp() - 40)
    assert watch.check()
    assert swept.wait(5)
    lock_redis().delete(namespaced_key("workers"))
    swept.clear()
    _lose_broker_data()
    beat = recovery.WorkerHeartbeat("live:3:ef", every=0.05, watch=watch).start()
    try:
        assert swept.wait(5)
    finally:
        beat.stop()
        recovery.broker_restarted()


@pytest.mark.django_db
def test_a_task_waiting_for_the_import_turn_has_claimed_its_message(embedded_server, monkeypatch):
    """While another worker holds the turn, the waiting task's message names its worker: should
    that worker die, the sweep re-queues it without waiting for the deadline."""
    from kg.ledger.episodes import EpisodeInput, record_episode
    from kg.models import EpisodeKind
    from kg.pipeline import ingest

    project = make_project("claimed")
    episodes = [
        record_episode(project, EpisodeInput(content=t, kind=EpisodeKind.IMPORT), enqueue=False)
        for t in ("Salon owners hate double bookings.", "Reminders by text message.")
    ]
    monkeypatch.setenv(recovery.WORKER_ID_ENV, "waiting:1:aa")
    lock_redis().set(namespaced_key(f"lock:import-order:{project.pk}"), "another", px=1000)
    claimed_while_waiting = []
    read_ahead = ingest.read_ahead

    def observed_read_ahead(run):  # runs while the task waits for the turn
        claimed_while_waiting.append(
            EpisodeProcessing.objects.values_list("status", "worker").get(episode=episodes[1])
        )
        return read_ahead(run)

    monkeypatch.setattr(ingest, "read_ahead", observed_read_ahead)
    ingest.episode_ingest(episodes[1].pk)
    assert claimed_while_waiting[0] == (ProcessingStatus.PENDING, "waiting:1:aa")
    assert EpisodeProcessing.objects.filter(status=ProcessingStatus.DONE).count() == 2
