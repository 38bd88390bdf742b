"""What a Celery worker does when it starts and stops.

At start: its id goes into the environment (pool processes inherit it, so episodes record the
worker they run on), a heartbeat thread records it as alive and watches for a dead worker or a
broker that lost its queue (kg.pipeline.recovery.RecoveryWatch), and the graph's constraints and
indexes are created (in the background, retried until the graph answers). At stop: the
heartbeat stops and the worker leaves the set of live workers.
"""

from __future__ import annotations

import logging
import os
import secrets
import threading

from celery import signals

from kg.pipeline.recovery import WORKER_ID_ENV, RecoveryWatch, WorkerHeartbeat, worker_id

logger = logging.getLogger("groundwork.worker")

_heartbeat: WorkerHeartbeat | None = None
GRAPH_SETUP_PAUSES_SECONDS = (1, 2, 5, 10, 30, 60)


@signals.worker_init.connect
def _name_worker(**_kwargs) -> None:
    # A start token too: a restarted container has the same host name and often the same
    # process id, and must not pass for the worker that died in it.
    os.environ[WORKER_ID_ENV] = f"{os.uname().nodename}:{os.getpid()}:{secrets.token_hex(3)}"


@signals.worker_ready.connect
def _worker_ready(**_kwargs) -> None:
    global _heartbeat
    _heartbeat = WorkerHeartbeat(worker_id(), watch=RecoveryWatch()).start()
    threading.Thread(target=set_up_graph_until_done, name="graph-setup", daemon=True).start()


@signals.worker_shutdown.connect
def _worker_shutdown(**_kwargs) -> None:
    global _heartbeat
    if _heartbeat is not None:
        _heartbeat.stop()
        _heartbeat = None
    os.environ.pop(WORKER_ID_ENV, None)


def set_up_graph_until_done() -> None:
    from kg.graph import GraphUnavailable
    from kg.graph.store import ensure_indexes

    for pause in (*GRAPH_SETUP_PAUSES_SECONDS, None):
        try:
            ensure_indexes()
            return
        except GraphUnavailable as exc:
            if pause is None:
                logger.error("graph constraints and indexes not created: %s", exc)
                return
            logger.warning("graph not ready for its constraints (%s); again in %ss", exc, pause)
            threading.Event().wait(pause)
