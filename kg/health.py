"""The state of every component, for GET /health."""

from __future__ import annotations

import concurrent.futures

from django.conf import settings
from django.db import connection
from pydantic import BaseModel


class ComponentState(BaseModel):
    ok: bool
    detail: str = ""
    server: str = ""
    version: str = ""


class HealthReport(BaseModel):
    ok: bool
    sql: ComponentState
    graph: ComponentState
    broker: ComponentState
    workers: ComponentState
    llm: dict[str, str]


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


def llm_mode() -> dict[str, str]:
    if settings.LLM_ENGINE == "offline":
        return {"mode": "offline", "model": "offline-rules"}
    return {"mode": "openai", "model": settings.LLM_MODEL, "base_url": settings.OPENAI_BASE_URL}


def collect_health() -> HealthReport:
    # The network checks run side by side, each bounded by its own timeout.
    with concurrent.futures.ThreadPoolExecutor(max_workers=3) as pool:
        graph = pool.submit(graph_state)
        broker = pool.submit(broker_state)
        workers = pool.submit(workers_state)
        sql = sql_state()
        states = {"graph": graph.result(), "broker": broker.result(), "workers": workers.result()}
    ok = sql.ok and states["graph"].ok and states["broker"].ok
    return HealthReport(ok=ok, sql=sql, llm=llm_mode(), **states)
