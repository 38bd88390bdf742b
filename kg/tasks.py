"""Celery tasks of the kg app. Tasks take ids, call one function, and are idempotent."""

from __future__ import annotations

import socket
from dataclasses import asdict

from celery import shared_task

from kg.graph import GraphUnavailable


@shared_task(name="kg.worker_probe")
def worker_probe() -> dict:
    """Report what a worker can reach: used by tests and operators to prove the round trip."""
    from kg.health import graph_state, sql_state

    return {"host": socket.gethostname(), "sql": sql_state().ok, "graph": graph_state().ok}


@shared_task(
    name="kg.episode_ingest",
    bind=True,
    autoretry_for=(ConnectionError, TimeoutError, GraphUnavailable),
    retry_backoff=True,
    max_retries=5,
)
def episode_ingest_task(self, episode_id: int) -> dict:
    """Run the pipeline for one episode; safe to retry (the pipeline is idempotent)."""
    from kg.pipeline.ingest import episode_ingest

    return asdict(episode_ingest(episode_id))
