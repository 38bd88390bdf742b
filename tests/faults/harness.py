"""A production-shaped installation in processes: broker and graph on their own servers,
Celery workers (with beat) as separate processes, and the means to kill any of them."""

from __future__ import annotations

import datetime as dt
import json
import os
import secrets
import shutil
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
from kg.graph import reset_client, store
from kg.graph.records import graph_time
from kg.models import EpisodeProcessing, Project
from kg.operations.embedded import EmbeddedServer, free_ports
from kg.pipeline.locks import installation_namespace

ROOT = Path(__file__).resolve().parents[2]
GOLD = ROOT / "tests" / "kg" / "gold" / "couriers_en.json"
RESULTS = ROOT / "benchmarks" / "results" / "faults.json"
# The import has 1,000 messages; the default keeps `make faults` near ten minutes on
# two cores (FAULTS_MESSAGES=1000 for the full size).
MESSAGES = int(os.environ.get("FAULTS_MESSAGES", "500"))
STALE_AFTER = 20
SWEEP_EVERY = 5
# config/settings.py's defaults, for the runs that show recovery on production settings.
PRODUCTION_STALE_AFTER = 600
PRODUCTION_SWEEP_EVERY = 60
PRODUCT = "Courier app"


def reset_broker_pool() -> None:
    """Connections to the old broker are dropped; the next send connects to the new one."""
    if app._pool is not None:
        app._pool.force_close_all()
        app._pool = None
    app.amqp._producer_pool = None


def server(tmp: Path, name: str, persist: bool) -> EmbeddedServer:
    """A server of its own, password-protected like the product's."""
    redis_port, graph_port = free_ports(2)
    s = EmbeddedServer(
        redis_port=redis_port,
        graph_port=graph_port,
        data_dir=tmp / name,
        persist=persist,
        password=secrets.token_hex(16),
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
    """An import of n different messages, one a minute: the couriers conversation (markets
    that supersede each other, a contradiction) followed by varied research notes."""
    from benchmarks.write_path import varied_messages

    gold = [m["text"] for m in json.loads(GOLD.read_text(encoding="utf-8"))["messages"]]
    texts = (gold + varied_messages(n))[:n]
    start = dt.datetime(2026, 3, 1, tzinfo=dt.UTC)
    return [
        {"author": f"user{i % 7}", "at": graph_time(start + dt.timedelta(minutes=i)), "text": t}
        for i, t in enumerate(texts)
    ]


def write_jsonl(path: Path, items: list[dict]) -> Path:
    path.write_text("".join(json.dumps(m) + "\n" for m in items), encoding="utf-8")
    return path


@dataclass
class Installation:
    tmp: Path
    broker: EmbeddedServer
    graph: EmbeddedServer
    workers: list[subprocess.Popen] = field(default_factory=list)
    stale_after: int = STALE_AFTER
    sweep_every: int = SWEEP_EVERY

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
            "PIPELINE_STALE_AFTER_SECONDS": str(self.stale_after),
            "PIPELINE_SWEEP_EVERY_SECONDS": str(self.sweep_every),
            "LLM_ENGINE": "offline",
            "DEBUG": "true",  # the development key is refused otherwise
            "OPENAI_API_KEY": "",
            "OPENAI_BASE_URL": "",
        }

    def start_worker(self, *, concurrency: int = 2, as_container: bool = False) -> subprocess.Popen:
        """A worker with its beat. `as_container`: as a container runs it, process id 1 in a
        process namespace of its own (root only; a plain process otherwise), so a restarted
        worker has the host name and process id of the one killed before it."""
        n = len(self.workers)
        namespace = ["unshare", "--pid", "--fork"] if as_container and can_run_as_pid_1() else []
        worker = subprocess.Popen(
            [
                *namespace,
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
                str(concurrency),
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


def can_run_as_pid_1() -> bool:
    return os.geteuid() == 0 and shutil.which("unshare") is not None


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


def unfinished(project: Project) -> list[int]:
    """Episodes not done yet: running, reserved by a worker or waiting in the queue."""
    return list(
        EpisodeProcessing.objects.filter(episode__project=project)
        .exclude(status="done")
        .values_list("episode_id", flat=True)
    )


def running(project: Project) -> list[int]:
    return list(
        EpisodeProcessing.objects.filter(episode__project=project, status="running").values_list(
            "episode_id", flat=True
        )
    )


def wait_episodes_done(episode_ids: list[int], timeout: float) -> float:
    """Seconds until these episodes are all done; raises on timeout."""
    rows = EpisodeProcessing.objects.filter(episode_id__in=episode_ids)
    return wait_until(lambda: rows.filter(status="done").count() == len(episode_ids), timeout)


def requeued(project: Project) -> int:
    """Episodes the stale-work sweep re-queued at least once."""
    return EpisodeProcessing.objects.filter(episode__project=project, requeues__gt=0).count()


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


def order_free_export(project: Project) -> dict:
    """The project's export (kg_export) with what depends on the order episodes were
    integrated in taken out: uids are random, and node numbers are given in the order nodes are
    created, which is the order workers reached the project lease. Nodes are named by (type,
    key), edges and contradictions by their nodes; everything else is compared as it is."""
    from kg.reading.export import export_project

    exported = export_project(project)
    key_of = {n.uid: f"{n.type}:{n.key}" for n in store.list_nodes(project.graph_scope)}

    def evidence(items: list[dict]) -> list:
        return sorted((e["episode_number"], e["quote"], e["start"], e["end"]) for e in items)

    nodes = {
        key_of[n["uid"]]: {
            "label": n["label"],
            "aliases": sorted(n["aliases"]),
            "confidence": n["confidence"],
            "valid_at": n["valid_at"],
            "invalid_at": n["invalid_at"],
            "evidence": evidence(n["evidence"]),
        }
        for n in exported["nodes"]
    }
    edges = sorted(
        (
            e["type"],
            key_of.get(e["source"], e["source"]),
            key_of.get(e["target"], e["target"]),
            e["confidence"],
            e["valid_at"],
            e["invalid_at"],
            evidence(e["evidence"]),
        )
        for e in exported["edges"]
    )
    contradictions = sorted(
        (
            tuple(sorted((key_of.get(c["a"], c["a"]), key_of.get(c["b"], c["b"])))),
            c["subject"],
            c["status"],
            sorted(c["quotes"]),
        )
        for c in exported["contradictions"]
    )
    episodes = [(e["number"], e["valid_at"], e["text"]) for e in exported["episodes"]]
    numbers = {key_of[n["uid"]]: n["number"] for n in exported["nodes"]}
    # Every quote recorded as evidence, with the type of the node it went to: the same whichever
    # node a mention resolved to (a new one, or an existing one it was found to name).
    mentions = sorted(
        (n["type"], *quote) for n in exported["nodes"] for quote in evidence(n["evidence"])
    )
    return {
        "episodes": episodes,
        "mentions": mentions,
        "nodes": nodes,
        "edges": edges,
        "contradictions": contradictions,
        "numbers": numbers,
    }


def difference_examples(got: dict, clean: dict, limit: int = 4) -> list[str]:
    """A few of the differences, for the failure message: what only one side has."""
    out = []
    for part in ("episodes", "mentions", "edges", "contradictions"):
        mine, theirs = set(map(repr, got[part])), set(map(repr, clean[part]))
        out += [f"{part} only after faults: {x}" for x in sorted(mine - theirs)[:limit]]
        out += [f"{part} only in the clean run: {x}" for x in sorted(theirs - mine)[:limit]]
    for key in sorted(set(got["nodes"]) | set(clean["nodes"])):
        if got["nodes"].get(key) != clean["nodes"].get(key) and len(out) < 4 * limit:
            out.append(f"node {key}: {got['nodes'].get(key)} != {clean['nodes'].get(key)}")
    return out


# What must equal the clean run: all of it. Imported messages are proposed and integrated in
# their order whatever happens to the workers (kg.pipeline.ingest's import turn), so the graph
# a faulted import reaches is the one a sequential run reaches, node numbers included.
PARTS = ("episodes", "mentions", "nodes", "edges", "contradictions")


def compare_exports(got: dict, clean: dict) -> dict:
    """Figures of how an export differs from the clean run's, part by part, and how many node
    numbers differ (numbers follow the order of integration)."""
    differing = {
        part: sum(
            1 for k in set(got[part]) | set(clean[part]) if got[part].get(k) != clean[part].get(k)
        )
        if part == "nodes"
        else sum(
            (
                (Counter(map(repr, got[part])) - Counter(map(repr, clean[part])))
                + (Counter(map(repr, clean[part])) - Counter(map(repr, got[part])))
            ).values()
        )
        for part in PARTS
    }
    return {
        "equal_to_clean_sync": {part: not n for part, n in differing.items()},
        "differences_from_clean_sync": {k: v for k, v in differing.items() if v},
        "nodes": len(got["nodes"]),
        "edges": len(got["edges"]),
        "contradictions": len(got["contradictions"]),
        "node_numbers_differing_from_clean": sum(
            1 for k, n in got["numbers"].items() if clean["numbers"].get(k) != n
        ),
    }


RECORDED: dict[str, dict] = {}  # this run's figures, printed at the end of the run


def record_figures(name: str, figures: dict) -> None:
    RECORDED[f"{name}:{connection.vendor}"] = figures
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    results[f"{name}:{connection.vendor}"] = figures
    RESULTS.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n")
    print(f"\n{name}: {json.dumps(figures, sort_keys=True)}")
