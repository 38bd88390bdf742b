"""Recovery of the pipeline's work: retries recorded, stale episodes swept, workers seen.

Every episode's processing row says where it is. A task that will retry records when
(`retry_at`); a task that gives up leaves FAILED with its reason and a `retry_at` for the
sweep. The stale-work sweep re-queues what no one is working on: running on a worker that
stopped beating, running past the deadline on no live worker, pending past the deadline once
nothing is left to deliver it (the broker's queue is empty, or no episode moved for the
deadline), a scheduled retry long overdue (its worker died holding it, or the broker lost
it), a transient failure due for another try. A long import is not work lost: its tail waits in
the broker's queue past the deadline and is left there. Each re-queue is counted; after
PIPELINE_MAX_REQUEUES the episode is FAILED with its reason.

Workers write a heartbeat (a sorted set in the lock Redis, member = worker id, score = time)
so /health and the sweep know which workers live. Two losses are recovered without waiting for
the deadline, noticed by every worker at each heartbeat (`RecoveryWatch`), which then sweeps at
once:

- a dead worker: what it ran, and the task it had taken (an episode claimed while its task
  waits for the import turn: `claim_episode`), are re-queued as soon as it has been silent for
  WORKER_GONE_SECONDS; the sweep then forgets it. Its tasks' messages stay unacknowledged in
  the broker, out of every worker's reach for the broker's visibility timeout, so nothing else
  would run them; a worker takes one task per process (CELERY_WORKER_PREFETCH_MULTIPLIER = 1),
  so each task it holds has started and claimed its episode. A worker's id carries a start
  token: a restarted container has the host name and process id of the worker that died in it.
- a broker that lost its data (a restart without persistence, a lost volume): the broker
  epoch, a key the sweep writes into the broker's own Redis database and records in SQL
  (BrokerEpoch), vanishes with the queue. The sweep writes it anew and, finding it differs from
  the one recorded, re-queues every pending episode no live worker holds.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable, Collection
from dataclasses import dataclass, field

import redis
from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from kg.models import BrokerEpoch, EpisodeProcessing, ProcessingStatus
from kg.pipeline.locks import LockBusy, lock_redis, named_lock, namespaced_key
from kg.task_queue import queue_task

logger = logging.getLogger("groundwork.recovery")

HEARTBEAT_EVERY_SECONDS = 5.0
WORKER_ALIVE_SECONDS = 60.0  # /health: no worker seen for this long is a degraded pipeline
# The sweep: a worker silent for six beats died (kill -9, a lost machine); what it was running
# is re-queued at once.
WORKER_GONE_SECONDS = 30.0
WORKER_ID_ENV = "GROUNDWORK_WORKER_ID"
# A scheduled retry is left to its worker for this long past its due time.
RETRY_GRACE_SECONDS = 120.0
# A task that gave up is swept again this long after (an outage has usually ended by then).
GAVE_UP_RETRY_AFTER_SECONDS = 600.0


# -- workers ---------------------------------------------------------------------------------
def worker_id() -> str:
    """The worker process that runs this code: set by the worker's main process at start (its
    pool processes inherit it), else this process."""
    return os.environ.get(WORKER_ID_ENV) or f"{socket.gethostname()}:{os.getpid()}"


def _workers_key() -> str:
    return namespaced_key("workers")


def record_worker_beat(worker: str, at: float | None = None) -> None:
    client = lock_redis()
    now = time.time() if at is None else at
    client.zadd(_workers_key(), {worker: now})
    # Forget workers gone for a day, so the set does not grow with restarts.
    client.zremrangebyscore(_workers_key(), 0, now - 86400)


def forget_worker(worker: str) -> None:
    lock_redis().zrem(_workers_key(), worker)


def workers_seen(within_seconds: float = WORKER_ALIVE_SECONDS) -> dict[str, float]:
    """Worker id → seconds since its last heartbeat, for the workers seen within the window."""
    now = time.time()
    rows = lock_redis().zrangebyscore(_workers_key(), now - within_seconds, "+inf", withscores=True)
    return {member.decode(): round(now - score, 1) for member, score in rows}


def workers_gone(silent_for_seconds: float = WORKER_ALIVE_SECONDS) -> set[str]:
    """Workers that beat once and then stopped (killed, crashed or shut down)."""
    rows = lock_redis().zrangebyscore(_workers_key(), 0, time.time() - silent_for_seconds)
    return {member.decode() for member in rows}


class WorkerHeartbeat:
    """A daemon thread in a worker's main process that records the worker as alive."""

    def __init__(
        self,
        worker: str,
        every: float = HEARTBEAT_EVERY_SECONDS,
        watch: RecoveryWatch | None = None,
    ) -> None:
        self.worker = worker
        self.every = every
        self.watch = watch
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="worker-heartbeat", daemon=True)

    def start(self) -> WorkerHeartbeat:
        self._thread.start()
        return self

    def _run(self) -> None:
        while True:
            try:
                record_worker_beat(self.worker)
            except Exception as exc:  # Redis down: try again at the next beat
                logger.warning("worker heartbeat not recorded: %s", exc)
            if self.watch is not None:
                try:
                    self.watch.check()
                except Exception as exc:
                    logger.warning("recovery not checked: %s", exc)
            if self._stop.wait(self.every):
                return

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        try:
            forget_worker(self.worker)
        except Exception as exc:
            logger.warning("worker %s not removed from the heartbeat set: %s", self.worker, exc)


# -- retries ---------------------------------------------------------------------------------
def record_retry(episode_id: int, reason: str, delay_seconds: float) -> None:
    """The task retries in `delay_seconds`: pending until then, with the reason."""
    EpisodeProcessing.objects.filter(episode_id=episode_id).update(
        status=ProcessingStatus.PENDING,
        stage="retry",
        error=f"retrying in {delay_seconds:.0f}s after {reason}"[:4000],
        retry_at=timezone.now() + dt.timedelta(seconds=delay_seconds),
        updated_at=timezone.now(),
    )


def record_gave_up(episode_id: int, reason: str, *, transient: bool) -> None:
    """The task stops: FAILED with its reason; a transient cause is swept again later."""
    retry_at = (
        timezone.now() + dt.timedelta(seconds=GAVE_UP_RETRY_AFTER_SECONDS) if transient else None
    )
    EpisodeProcessing.objects.filter(episode_id=episode_id).update(
        status=ProcessingStatus.FAILED,
        error=reason[:4000],
        retry_at=retry_at,
        updated_at=timezone.now(),
    )


def claim_episode(episode_id: int) -> None:
    """The task of a pending episode runs on this worker (it may wait a while for the import
    turn): recorded, so the sweep re-queues it at once should the worker die meanwhile (its
    message stays with the broker as unacknowledged, out of every other worker's reach)."""
    EpisodeProcessing.objects.filter(episode_id=episode_id, status=ProcessingStatus.PENDING).update(
        worker=worker_id()
    )


# -- the broker's epoch ----------------------------------------------------------------------
_broker_clients: dict[str, redis.Redis] = {}


def _broker_redis() -> redis.Redis | None:
    """A client of the broker's own Redis database (the one its queue lives in); None for a
    broker that is not Redis."""
    url = settings.CELERY_BROKER_URL
    if not url.startswith(("redis://", "rediss://")):
        return None
    client = _broker_clients.get(url)
    if client is None:
        client = redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=5)
        _broker_clients[url] = client
    return client


def _broker_epoch_key() -> str:
    return namespaced_key("broker-epoch")


def broker_epoch_present() -> bool | None:
    """Whether the broker still holds the epoch the sweep wrote; None when it cannot say."""
    client = _broker_redis()
    if client is None:
        return None
    try:
        return bool(client.exists(_broker_epoch_key()))
    except redis.exceptions.RedisError as exc:
        logger.warning("broker epoch not read: %s", exc)
        return None


def broker_restarted() -> bool:
    """Whether the broker lost its data since the last sweep: its epoch (written here when
    missing) is not the one recorded in SQL. The first sweep of an installation records it and
    finds no loss. One caller of several at once finds it."""
    client = _broker_redis()
    if client is None:
        return False
    key = _broker_epoch_key()
    try:
        client.set(key, f"{time.time():.0f}:{uuid.uuid4().hex}", nx=True)
        current = client.get(key)
    except redis.exceptions.RedisError as exc:
        logger.warning("broker epoch not read: %s", exc)
        return False
    if current is None:  # gone again at once: the next sweep sees it
        return False
    epoch = current.decode()
    with transaction.atomic():
        BrokerEpoch.objects.bulk_create([BrokerEpoch(pk=1, epoch=epoch)], ignore_conflicts=True)
        seen = BrokerEpoch.objects.select_for_update().get(pk=1)
        if seen.epoch == epoch:
            return False
        seen.epoch = epoch
        seen.save()
    return True


# -- the sweep -------------------------------------------------------------------------------
@dataclass
class SweepReport:
    requeued: list[int] = field(default_factory=list)  # episode ids
    failed: list[int] = field(default_factory=list)
    live_workers: int = 0
    broker_restarted: bool = False


def stale_filter(
    now: dt.datetime,
    stale_after: float,
    *,
    live_workers: Collection[str] | None = None,
    pending_undelivered: bool = True,
) -> Q:
    """Episodes no one is working on: what the sweep takes, and what /health calls stuck.

    `live_workers` given, a running episode on one of them is its worker's (a long model
    call), not stale. `pending_undelivered` false: pending episodes are still in the broker's
    queue, on their way to a worker, and are left alone.
    """
    deadline = now - dt.timedelta(seconds=stale_after)
    overdue = now - dt.timedelta(seconds=RETRY_GRACE_SECONDS)
    waiting = Q(retry_at__isnull=True) | Q(retry_at__lt=overdue)
    running = Q(status=ProcessingStatus.RUNNING) & Q(updated_at__lt=deadline)
    if live_workers is not None:
        running &= ~Q(worker__in=list(live_workers))
    stale = running | (
        Q(status=ProcessingStatus.FAILED) & Q(retry_at__isnull=False) & Q(retry_at__lte=now)
    )
    if pending_undelivered:
        stale |= Q(status=ProcessingStatus.PENDING) & Q(updated_at__lt=deadline) & waiting
    return stale


def broker_backlog() -> int | None:
    """Messages waiting in the broker's default queue; None when the broker cannot say."""
    from config.celery import app

    try:
        with app.connection_for_read() as conn:
            conn.ensure_connection(max_retries=1, timeout=3)
            queue = app.conf.task_default_queue
            return int(conn.default_channel.queue_declare(queue=queue).message_count)
    except Exception as exc:
        logger.warning("broker queue length unknown: %s", exc)
        return None


def _nothing_left_to_deliver(now: dt.datetime, stale_after: float, backlog: int | None) -> bool:
    """Pending episodes are lost (not queued) when the broker's queue is empty, or, the broker
    not saying, when no episode moved for the deadline."""
    if backlog is not None:
        return backlog == 0
    moved_since = now - dt.timedelta(seconds=stale_after)
    return not EpisodeProcessing.objects.filter(updated_at__gte=moved_since).exists()


def sweep_stale_episodes(
    *,
    stale_after: float | None = None,
    max_requeues: int | None = None,
    now: dt.datetime | None = None,
    backlog: int | None = -1,
    restarted: bool | None = None,
) -> SweepReport:
    """Re-queue the episodes no one is working on; FAILED after max_requeues re-queues.

    `backlog` is the broker's queue length (read from the broker unless given; None: unknown).
    `restarted`: whether the broker lost its queue (asked of the broker's epoch unless given).
    """
    stale_after = settings.PIPELINE_STALE_AFTER_SECONDS if stale_after is None else stale_after
    max_requeues = settings.PIPELINE_MAX_REQUEUES if max_requeues is None else max_requeues
    now = now or timezone.now()
    restarted = broker_restarted() if restarted is None else restarted
    backlog = broker_backlog() if backlog == -1 else backlog
    live = workers_seen(WORKER_GONE_SECONDS)
    gone = workers_gone(WORKER_GONE_SECONDS)
    # Running on a worker that stopped beating, or a pending episode whose task it had taken:
    # the task died with it (its message is out of reach until the broker's visibility
    # timeout), re-queue it now.
    orphaned = Q(status__in=[ProcessingStatus.RUNNING, ProcessingStatus.PENDING]) & Q(
        worker__in=gone
    )
    report = SweepReport(live_workers=len(live), broker_restarted=restarted)
    stale = stale_filter(
        now,
        stale_after,
        live_workers=live,
        pending_undelivered=_nothing_left_to_deliver(now, stale_after, backlog),
    )
    if restarted:
        # Every queued task is gone with the broker's data: a pending episode is lost unless a
        # live worker holds its task (taken before the loss, or a retry it keeps).
        stale |= Q(status=ProcessingStatus.PENDING) & ~Q(worker__in=list(live))
        logger.warning("the broker lost its queue: pending episodes are queued again")
    candidates = EpisodeProcessing.objects.filter(stale | orphaned).values_list("pk", flat=True)
    for pk in list(candidates):
        with transaction.atomic():
            row = EpisodeProcessing.objects.select_for_update().filter(pk=pk).first()
            if row is None or row.status == ProcessingStatus.DONE:
                continue
            if row.requeues >= max_requeues:
                row.status = ProcessingStatus.FAILED
                row.error = (
                    f"gave up after {row.requeues} re-queues by the stale-work sweep; "
                    f"last state: {row.stage or 'none'}, {row.error or 'no error recorded'}"
                )[:4000]
                row.retry_at = None
                row.save()
                report.failed.append(row.episode_id)
                continue
            row.requeues += 1
            row.status = ProcessingStatus.PENDING
            row.stage = "requeued"
            row.retry_at = None
            row.worker = ""
            row.save()
            episode_id = row.episode_id
            transaction.on_commit(lambda e=episode_id: queue_task("kg.episode_ingest", [e]))
            report.requeued.append(episode_id)
    for worker in gone:  # what it held is re-queued: nothing of it is left to notice
        forget_worker(worker)
    if report.requeued or report.failed:
        logger.warning(
            "stale-work sweep: %d re-queued, %d failed for good",
            len(report.requeued),
            len(report.failed),
        )
    return report


# -- recovery without waiting for the sweep's schedule ---------------------------------------
def recovery_due() -> bool:
    """A loss the sweep should handle now: the broker's epoch is gone, or a worker stopped
    beating (it is forgotten once swept). Two Redis reads: asked at every heartbeat."""
    return broker_epoch_present() is False or bool(workers_gone(WORKER_GONE_SECONDS))


def sweep_now() -> SweepReport | None:
    """The sweep, unless another process runs one (None then)."""
    try:
        with named_lock("stale-sweep", timeout=0):
            return sweep_stale_episodes()
    except LockBusy:
        return None


class RecoveryWatch:
    """Run by a worker's heartbeat: when a loss is noticed, the sweep runs at once in a thread
    of its own (the heartbeat must go on beating), one at a time per process."""

    def __init__(self, sweep: Callable[[], object] = sweep_now) -> None:
        self._sweep = sweep
        self._running = threading.Lock()

    def check(self) -> bool:
        """Start a sweep when one is due and none runs here; true when started."""
        if self._running.locked() or not recovery_due():
            return False
        self._running.acquire()
        threading.Thread(target=self._run, name="recovery-sweep", daemon=True).start()
        return True

    def _run(self) -> None:
        try:
            self._sweep()
        except Exception as exc:  # the beat's sweep and the next heartbeat try again
            logger.warning("recovery sweep failed: %s", exc)
        finally:
            # This thread's database connection is its own: closed, not left to the process.
            connection.close()
            self._running.release()
