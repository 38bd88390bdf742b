"""The state of every component, for GET /health."""

from __future__ import annotations

import concurrent.futures

from django.conf import settings
from django.db import connection
from django.db.models import Q
from pydantic import BaseModel


class ComponentState(BaseModel):
    ok: bool
    detail: str = ""
    server: str = ""
    version: str = ""


class PipelineState(BaseModel):
    """Is the backlog moving: workers seen recently, the oldest waiting work, failures."""

    ok: bool
    detail: str = ""
    workers_seen: dict[str, float] = {}  # worker id -> seconds since its heartbeat
    oldest_pending_seconds: float | None = None
    oldest_running_seconds: float | None = None
    stuck: int = 0  # pending or running past the sweep's deadline
    failed: int = 0


class HealthReport(BaseModel):
    ok: bool
    sql: ComponentState
    graph: ComponentState
    broker: ComponentState
    workers: ComponentState
    llm: dict[str, str]
    pipeline: PipelineState | None = None
    status: str = "ok"  # ok | degraded (the pipeline is stuck) | down (a component is)


def sql_state() -> ComponentState:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return ComponentState(ok=True, server=connection.vendor)
    except Exception as exc:
        return ComponentState(ok=False, server=connection.vendor, detail=str(exc))


def graph_state() -> ComponentState:
    from kg.graph.store import ping

    try:
        info = ping()
    except Exception as exc:  # any failure is "down", never a hang
        return ComponentState(ok=False, detail=str(exc)[:300])
    server, _, version = info.agent.partition("/")
    return ComponentState(ok=True, server=server, version=version, detail=info.address)


def broker_state() -> ComponentState:
    from config.celery import app

    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=3)
        return ComponentState(ok=True, server=app.conf.broker_url.split("://")[0])
    except Exception as exc:
        return ComponentState(ok=False, detail=str(exc)[:300])


def workers_state() -> ComponentState:
    from config.celery import app

    try:
        replies = app.control.inspect(timeout=1.0).ping() or {}
    except Exception as exc:
        return ComponentState(ok=False, detail=str(exc)[:300])
    return ComponentState(
        ok=bool(replies), detail=f"{len(replies)} seen: {', '.join(sorted(replies))}"
    )


def llm_mode(probe: bool = True) -> dict[str, str]:
    if settings.LLM_ENGINE == "offline":
        return {"mode": "offline", "model": "offline-rules"}
    return {
        "mode": "openai",
        "model": settings.LLM_MODEL,
        "base_url": settings.OPENAI_BASE_URL,
        **model_probe_state(probe),
    }


def model_probe_state(probe: bool) -> dict[str, str]:
    """Whether the endpoint answered its probe (remembered; asked now when unknown and `probe`),
    the dialect it takes, and how many of the model's recent answers were rejected."""
    from kg.llm.audit import recent_rejections
    from kg.llm.engines import OpenAIEngine

    engine = OpenAIEngine()
    known = engine.remembered_probe()
    if known is None and probe:
        known = engine.probe()
    state = {"structured_output": settings.LLM_STRUCTURED_OUTPUT}
    if known is None:
        state["probe"] = "not probed yet"
    elif known.answered:
        state.update(probe="answered", dialect=known.dialect)
    else:
        state["probe"] = f"no answer: {known.detail}"
    rejected, answers = recent_rejections(settings.LLM_MODEL)
    state["rejected_answers"] = f"{rejected} of the last {answers}"
    return state


def collect_health() -> HealthReport:
    # The network checks run side by side, each bounded by its own timeout.
    with concurrent.futures.ThreadPoolExecutor(max_workers=3) as pool:
        graph = pool.submit(graph_state)
        broker = pool.submit(broker_state)
        workers = pool.submit(workers_state)
        sql = sql_state()
        states = {"graph": graph.result(), "broker": broker.result(), "workers": workers.result()}
    ok = sql.ok and states["graph"].ok and states["broker"].ok
    pipeline = pipeline_state() if sql.ok else None
    status = "ok" if ok and pipeline and pipeline.ok else ("degraded" if ok else "down")
    return HealthReport(ok=ok, sql=sql, llm=llm_mode(), pipeline=pipeline, status=status, **states)


def pipeline_state() -> PipelineState:
    """Degraded when no worker has beaten for a minute or an episode waits past the deadline."""
    from django.db.models import Min
    from django.utils import timezone

    from kg.models import EpisodeProcessing, ProcessingStatus
    from kg.pipeline.recovery import WORKER_ALIVE_SECONDS, stale_filter, workers_seen

    problems = []
    try:
        seen = workers_seen(WORKER_ALIVE_SECONDS)
    except Exception as exc:  # the lock Redis is down: no worker can be confirmed
        seen = {}
        problems.append(f"worker heartbeats unreadable: {str(exc)[:200]}")
    if not seen:
        problems.append(f"no worker seen in the last {WORKER_ALIVE_SECONDS:.0f}s")
    now = timezone.now()
    rows = EpisodeProcessing.objects
    oldest = rows.filter(status__in=[ProcessingStatus.PENDING, ProcessingStatus.RUNNING]).aggregate(
        pending=Min("updated_at", filter=Q(status=ProcessingStatus.PENDING)),
        running=Min("updated_at", filter=Q(status=ProcessingStatus.RUNNING)),
    )
    stuck = (
        rows.filter(stale_filter(now, settings.PIPELINE_STALE_AFTER_SECONDS))
        .exclude(status=ProcessingStatus.FAILED)
        .count()
    )
    if stuck:
        problems.append(f"{stuck} episode(s) waiting past {settings.PIPELINE_STALE_AFTER_SECONDS}s")

    def age(at) -> float | None:
        return round((now - at).total_seconds(), 1) if at else None

    return PipelineState(
        ok=not problems,
        detail="; ".join(problems),
        workers_seen=seen,
        oldest_pending_seconds=age(oldest["pending"]),
        oldest_running_seconds=age(oldest["running"]),
        stuck=stuck,
        failed=rows.filter(status=ProcessingStatus.FAILED).count(),
    )
