"""A production-shaped installation in processes: broker and graph on their own servers,
Celery workers (with beat) as separate processes, and the means to kill any of them."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.db import connection

from config.celery import app
from kg.embedded import EmbeddedServer, free_port
from kg.graph import reset_client, store
from kg.models import EpisodeProcessing, Project
from kg.pipeline.locks import installation_namespace

ROOT = Path(__file__).resolve().parents[2]
GOLD = ROOT / "tests" / "kg" / "gold" / "couriers_en.json"
RESULTS = ROOT / "benchmarks" / "results" / "faults.json"
MESSAGES = int(os.environ.get("FAULTS_MESSAGES", "150"))
STALE_AFTER = 20
SWEEP_EVERY = 5


def reset_broker_pool() -> None:
    """Connections to the old broker are dropped; the next send connects to the new one."""
    if app._pool is not None:
        app._pool.force_close_all()
        app._pool = None
    app.amqp._producer_pool = None


def server(tmp: Path, name: str, persist: bool) -> EmbeddedServer:
    s = EmbeddedServer(
        redis_port=free_port(), graph_port=free_port(), data_dir=tmp / name, persist=persist
    )
    s.start()
    return s


def restart(s: EmbeddedServer) -> None:
    s.process = None
    s.start(wait_seconds=60)


def kill9(s: EmbeddedServer) -> None:
    s.process.send_signal(signal.SIGKILL)
    s.process.wait()


def messages(n: int = MESSAGES) -> list[dict]:
    base = json.loads(GOLD.read_text(encoding="utf-8"))["messages"]
    out = []
    for i in range(n):
        m = base[i % len(base)]
        out.append(
            {
                "text": m["text"],
                "at": f"2026-03-{1 + i // 1440:02d}T{i // 60 % 24:02d}:{i % 60:02d}:00Z",
            }
        )
    return out


@dataclass
class Installation:
    tmp: Path
    broker: EmbeddedServer
    graph: EmbeddedServer
    workers: list[subprocess.Popen] = field(default_factory=list)

    def wire(self) -> None:
        settings.GRAPH_URI = self.graph.graph_uri
        settings.CELERY_BROKER_URL = self.broker.redis_url(1)
        settings.LOCK_REDIS_URL = self.broker.redis_url(2)
        app.conf.update(broker_url=self.broker.redis_url(1), result_backend=None)
        reset_broker_pool()
        reset_client()
        store.ensure_indexes()

    def env(self) -> dict[str, str]:
        db = connection.settings_dict
        if connection.vendor == "sqlite":
            url = f"sqlite:///{db['NAME']}"
        else:
            url = f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
        return os.environ | {
            "DATABASE_URL": url,
            "GRAPH_URI": self.graph.graph_uri,
            "CELERY_BROKER_URL": self.broker.redis_url(1),
            "CELERY_RESULT_BACKEND": self.broker.redis_url(1),
            "LOCK_REDIS_URL": self.broker.redis_url(2),
            "GROUNDWORK_INSTALLATION": installation_namespace(),
            "PIPELINE_STALE_AFTER_SECONDS": str(STALE_AFTER),
            "PIPELINE_SWEEP_EVERY_SECONDS": str(SWEEP_EVERY),
            "LLM_ENGINE": "offline",
            "DEBUG": "true",  # the development key is refused otherwise
            "OPENAI_API_KEY": "",
            "OPENAI_BASE_URL": "",
        }

    def start_worker(self) -> subprocess.Popen:
        n = len(self.workers)
        worker = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--beat",
                "-s",
                str(self.tmp / f"beat-{n}"),
                "-l",
                "warning",
                "--concurrency",
                "2",
                "-n",
                f"fault{n}@%h",
            ],
            env=self.env(),
            cwd=ROOT,
            start_new_session=True,
            stdout=open(self.tmp / f"worker-{n}.log", "ab"),  # noqa: SIM115  kept for the child
            stderr=subprocess.STDOUT,
        )
        self.workers.append(worker)
        return worker

    def kill_worker(self, worker: subprocess.Popen) -> None:
        os.killpg(worker.pid, signal.SIGKILL)  # the whole container: main process and pool
        worker.wait()

    def stop(self) -> None:
        for worker in self.workers:
            if worker.poll() is None:
                os.killpg(worker.pid, signal.SIGTERM)
                try:
                    worker.wait(20)
                except subprocess.TimeoutExpired:
                    os.killpg(worker.pid, signal.SIGKILL)
        for s in (self.broker, self.graph):
            if s.process is not None and s.process.poll() is None:
                s.stop()


def statuses(project: Project) -> Counter:
    return Counter(
        EpisodeProcessing.objects.filter(episode__project=project).values_list("status", flat=True)
    )


def wait_done(project: Project, total: int, timeout: float) -> float:
    """Seconds until every episode is done (or failed); raises on timeout."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        counts = statuses(project)
        if counts.get("done", 0) + counts.get("failed", 0) >= total:
            return time.monotonic() - started
        time.sleep(1)
    raise AssertionError(f"not finished in {timeout:.0f}s: {dict(statuses(project))}")


def wait_until(predicate, timeout: float) -> float:
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if predicate():
            return time.monotonic() - started
        time.sleep(0.2)
    raise AssertionError("condition not reached")


def duplicate_active_nodes(project: Project) -> int:
    keys = Counter(
        (n.type, n.key) for n in store.list_nodes(project.graph_scope) if n.invalid_at is None
    )
    return sum(c - 1 for c in keys.values() if c > 1)


def graph_summary(project: Project) -> list:
    nodes = sorted(
        (n.type, n.key, n.invalid_at is None) for n in store.list_nodes(project.graph_scope)
    )
    edges = sorted(e.relation for e in store.list_edges(project.graph_scope))
    return [nodes, edges]


def record_figures(name: str, figures: dict) -> None:
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    results[f"{name}:{connection.vendor}"] = figures
    RESULTS.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n")
    print(f"\n{name}: {json.dumps(figures, sort_keys=True)}")
