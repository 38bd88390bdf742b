"""Celery tasks of orgmemory. Tasks take ids, call one function, and are idempotent."""

from __future__ import annotations

import redis
from celery import shared_task

from kg.read_models import GraphUnavailable
from orgmemory import services


@shared_task(
    name="orgmemory.promote_org",
    autoretry_for=(
        ConnectionError,
        TimeoutError,
        GraphUnavailable,
        redis.exceptions.ConnectionError,
    ),
    retry_backoff=True,
    max_retries=5,
)
def promote_org(org_id: int) -> dict | None:
    """Promote shared project insights to the organization; safe to retry."""
    report = services.promote_org_by_id(org_id)
    return report.model_dump() if report is not None else None


@shared_task(name="orgmemory.sweep_all")
def sweep_all() -> int:
    """Hourly (CELERY_BEAT_SCHEDULE): queue promotion for every organization that needs it."""
    return services.sweep_all()
