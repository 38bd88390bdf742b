"""Celery tasks of the kg app. Tasks take ids, call one function, and are idempotent."""

from __future__ import annotations

import logging
import socket
from collections.abc import Callable
from dataclasses import asdict

from celery import shared_task
from celery.signals import task_postrun, task_prerun
from django.db import close_old_connections

from kg.operations import worker_lifecycle  # noqa: F401  (connects the worker's start and stop hooks)

logger = logging.getLogger("groundwork.tasks")


@task_prerun.connect
@task_postrun.connect
def _drop_unusable_connections(sender=None, **kwargs) -> None:
    """Around each task, as Django does around a request: a database connection that failed or
    outlived CONN_MAX_AGE is closed, any other is kept for the next task (CELERY_DB_REUSE_MAX;
    opening one per task costs more than most tasks). Not in eager mode: the caller's
    connection is the caller's."""
    if not getattr(getattr(sender, "request", None), "is_eager", False):
        close_old_connections()


@shared_task(name="kg.worker_probe")
def worker_probe() -> dict:
    """Report what a worker can reach: used by tests and operators to prove the round trip."""
    from kg.operations.health import graph_state, sql_state

    return {"host": socket.gethostname(), "sql": sql_state().ok, "graph": graph_state().ok}


# Its result is never read (the episode's processing row says how it went): not stored.
@shared_task(name="kg.episode_ingest", bind=True, max_retries=None, ignore_result=True)
def episode_ingest_task(self, episode_id: int) -> dict:
    """Run the pipeline for one episode; safe to retry (the pipeline is idempotent).

    A transient failure (an outage of SQL, graph, Redis or the model, a lock not held) is
    retried with spaced, jittered delays; the episode says so while it waits. After the last
    retry, or on any other failure, the episode is FAILED with its reason.
    """
    from kg.pipeline import retry_policy
    from kg.pipeline.ingest import episode_ingest
    from kg.pipeline.recovery import record_gave_up, record_retry

    try:
        return asdict(episode_ingest(episode_id))
    except retry_policy.TRANSIENT_ERRORS as exc:
        reason = retry_policy.describe(exc)
        if self.request.retries < retry_policy.MAX_RETRIES:
            delay = retry_policy.retry_delay(self.request.retries)
            _record(episode_id, lambda: record_retry(episode_id, reason, delay))
            raise self.retry(exc=exc, countdown=delay) from exc
        retries = self.request.retries
        reason = f"gave up after {retries} retries: {reason}"
        _record(episode_id, lambda: record_gave_up(episode_id, reason, transient=True))
        raise
    except Exception as exc:
        reason = retry_policy.describe(exc)
        _record(episode_id, lambda: record_gave_up(episode_id, reason, transient=False))
        raise


def _record(episode_id: int, write: Callable[[], None]) -> None:
    """Record the episode's state; with SQL itself down, the stale-work sweep finds it later."""
    try:
        write()
    except Exception as exc:
        logger.error("episode %s: state not recorded (%s); the sweep will find it", episode_id, exc)


@shared_task(name="kg.source_import")
def source_import_task(import_id: int) -> str:
    """Read and record an uploaded research file kept for a worker (idempotent)."""
    from kg.ledger.sources.background import run_source_import

    return run_source_import(import_id)


@shared_task(name="kg.sweep_stale_episodes")
def sweep_stale_episodes_task() -> dict:
    """Beat: re-queue episodes pending or running past the deadline (kg.pipeline.recovery)."""
    from kg.pipeline.recovery import sweep_stale_episodes

    return asdict(sweep_stale_episodes())


@shared_task(name="kg.rebuild_project", bind=True)
def rebuild_project_task(self, project_id: int) -> dict:
    """Replay one project's graph from its ledger (kg_rebuild --all --workers): idempotent, a
    rebuild drops what it rebuilds. Its result is read by the command that queued it."""
    from kg.operations.rebuild import rebuild_project_by_id

    return asdict(rebuild_project_by_id(project_id, worker=self.request.hostname or ""))
