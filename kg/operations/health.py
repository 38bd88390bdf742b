"""The state of every component, for GET /health.

Every probe over the network runs on a small shared pool of threads and is given at most
PROBE_TIMEOUT_SECONDS: a stalled graph, broker or model endpoint is reported as not answering
instead of holding the request (its thread finishes when its own socket times out; the pool
being bounded, stalled probes cannot pile up threads either).
"""

from __future__ import annotations

import concurrent.futures
import time
from collections.abc import Callable
from typing import TypeVar

from django.conf import settings
from django.db import close_old_connections, connection, transaction
from django.db.models import Q
from pydantic import BaseModel

PROBE_TIMEOUT_SECONDS = 2.0
_probes = concurrent.futures.ThreadPoolExecutor(max_workers=8, thread_name_prefix="health-probe")
T = TypeVar("T")


class ProbeTimedOut(TimeoutError):
    pass


def _in_probe_thread(probe: Callable[[], T]) -> Callable[[], T]:
    def run() -> T:
        try:
            return probe()
        finally:
            close_old_connections()  # a probe thread keeps no database connection open

    return run


def _bounded(future: concurrent.futures.Future, deadline: float):
    try:
        return future.result(timeout=max(0.0, deadline - time.monotonic()))
    except concurrent.futures.TimeoutError:
        future.cancel()
        raise ProbeTimedOut(f"no answer within {PROBE_TIMEOUT_SECONDS:g} s") from None


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
    workers: ComponentState | None = None  # pinged for staff only (it waits for the replies)
    llm: dict[str, str] = {}
    pipeline: PipelineState | None = None
    status: str = "ok"  # ok | degraded (the pipeline is stuck) | down (a component is)


def sql_state() -> ComponentState:
    # On the request's own connection (a probe thread would open another); PostgreSQL is told
    # to give up after the probe's timeout.
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                milliseconds = int(PROBE_TIMEOUT_SECONDS * 1000)
                cursor.execute(f"SET LOCAL statement_timeout = {milliseconds}")
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
    state = {"structured_output": settings.LLM_STRUCTURED_OUTPUT, "probe": "not probed yet"}
    if known is None and probe:
        future = _probes.submit(_in_probe_thread(engine.probe))
        try:
            known = _bounded(future, time.monotonic() + PROBE_TIMEOUT_SECONDS)
        except ProbeTimedOut as exc:
            state["probe"] = str(exc)
    if known is not None and known.answered:
        state.update(probe="answered", dialect=known.dialect)
    elif known is not None:
        state["probe"] = f"no answer: {known.detail}"
    rejected, answers = recent_rejections(settings.LLM_MODEL)
    state["rejected_answers"] = f"{rejected} of the last {answers}"
    return state


def collect_health(*, details: bool = True) -> HealthReport:
    """Every component's state. Without `details` (the anonymous answer) the workers are not
    pinged and the model endpoint is not probed: what is left is cheap."""
    deadline = time.monotonic() + PROBE_TIMEOUT_SECONDS
    probes = {"graph": graph_state, "broker": broker_state, "beats": _worker_beats}
    if details:
        probes["workers"] = workers_state
    futures = {name: _probes.submit(_in_probe_thread(probe)) for name, probe in probes.items()}
    sql = sql_state()
    results: dict = {}
    for name, future in futures.items():
        try:
            results[name] = _bounded(future, deadline)
        except ProbeTimedOut as exc:
            results[name] = ComponentState(ok=False, detail=str(exc)) if name != "beats" else exc
    beats = results.pop("beats")
    ok = sql.ok and results["graph"].ok and results["broker"].ok
    pipeline = pipeline_state(beats) if sql.ok else None
    status = "ok" if ok and pipeline and pipeline.ok else ("degraded" if ok else "down")
    return HealthReport(
        ok=ok,
        sql=sql,
        llm=llm_mode() if details else {},
        pipeline=pipeline,
        status=status,
        **results,
    )


def _worker_beats() -> dict[str, float] | Exception:
    from kg.pipeline.recovery import WORKER_ALIVE_SECONDS, workers_seen

    try:
        return workers_seen(WORKER_ALIVE_SECONDS)
    except Exception as exc:  # the lock Redis is down: no worker can be confirmed
        return exc


def pipeline_state(beats: dict[str, float] | Exception) -> PipelineState:
    """Degraded when no worker has beaten for a minute or an episode waits past the deadline.
    `beats`: the workers seen (worker id -> seconds since its beat), or why they are unknown."""
    from django.db.models import Min
    from django.utils import timezone

    from kg.models import EpisodeProcessing, ProcessingStatus
    from kg.pipeline.recovery import WORKER_ALIVE_SECONDS, stale_filter

    problems = []
    seen = beats if isinstance(beats, dict) else {}
    if isinstance(beats, Exception):
        problems.append(f"worker heartbeats unreadable: {str(beats)[:200]}")
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
