"""Celery tasks of the kg app. Tasks take ids, call one function, and are idempotent."""

from __future__ import annotations

import socket

from celery import shared_task


@shared_task(name="kg.worker_probe")
def worker_probe() -> dict:
    """Report what a worker can reach: used by tests and operators to prove the round trip."""
    from kg.health import _graph, _sql

    return {"host": socket.gethostname(), "sql": _sql().ok, "graph": _graph().ok}
