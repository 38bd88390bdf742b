"""Projects on a Redis Cluster of three FalkorDB servers: each project's graph lives whole on one
shard, two real workers ingest thirty projects in parallel while a shard is restarted, and every
project's export equals the one a single server gives for the same messages."""

from __future__ import annotations

import os
import secrets
import time
from collections import Counter
from collections.abc import Iterator

import pytest
import redis
from django.conf import settings
from django.db import transaction

from kg.graph import reset_client
from kg.graph.store import project_graph_name
from kg.ledger.episodes import EpisodeInput, record_episode
from kg.models import EpisodeProcessing
from kg.operations.embedded import EmbeddedServer, free_ports
from kg.operations.graph_cluster import form_cluster, slot_ranges
from kg.operations.rebuild import rebuild_project_graph
from kg.reading.export import export_project
from tests.fixtures.services import celery_worker, worker_environment
from tests.kg.pipeline_helpers import at, make_project

PROJECTS = 30
ROLES = ["Couriers", "Florists", "Bakers", "Dispatchers", "Pharmacists", "Tutors"]
PAINS = [
    "lose orders written on paper",
    "wait an hour for the weekly rota",
    "retype every invoice by hand",
    "miss calls while driving between shops",
    "cannot see which parcels are late",
]


def test_slot_ranges_cover_every_slot_once():
    ranges = slot_ranges(3)
    assert ranges[0][0] == 0 and ranges[-1][1] == 16383
    assert all(a[1] + 1 == b[0] for a, b in zip(ranges, ranges[1:], strict=False))
    assert sum(end - start + 1 for start, end in ranges) == 16384
    with pytest.raises(ValueError):
        slot_ranges(0)


@pytest.fixture
def graph_cluster(tmp_path) -> Iterator[list[EmbeddedServer]]:
    password = secrets.token_hex(12)
    shards = [
        EmbeddedServer(
            redis_port=port,
            graph_port=port,
            data_dir=tmp_path / f"shard-{port}",
            persist=True,
            password=password,
            cluster=True,
        )
        for port in free_ports(3)
    ]
    try:
        for shard in shards:
            shard.start()
        form_cluster([s.redis_port for s in shards], password)
        yield shards
    finally:
        for shard in shards:
            shard.stop()


def _statuses(projects) -> Counter:
    return Counter(
        EpisodeProcessing.objects.filter(episode__project__in=projects).values_list(
            "status", flat=True
        )
    )


def _wait_for(projects, count: int, done: int, seconds: float) -> Counter:
    deadline = time.monotonic() + seconds
    statuses: Counter = Counter()
    while time.monotonic() < deadline:
        statuses = _statuses(projects)
        if statuses["done"] + statuses["failed"] >= min(done, count):
            break
        time.sleep(0.3)
    return statuses


@pytest.mark.worker
@pytest.mark.timeout(420)
def test_thirty_projects_on_three_shards_survive_a_shard_restart(
    embedded_server, graph, transactional_db, graph_cluster, tmp_path
):
    redis.Redis.from_url(settings.CELERY_BROKER_URL).flushdb()  # no other test's tasks
    first = graph_cluster[0]
    cluster_uri = f"falkordb://:{first.password}@127.0.0.1:{first.redis_port}"
    single_uri = settings.GRAPH_URI
    projects = [make_project(f"shop-{i:02d}", name=f"Shop {i}") for i in range(PROJECTS)]
    env = worker_environment(GRAPH_URI=cluster_uri, LLM_ENGINE="offline")
    workers = [celery_worker(env, tmp_path / f"worker-{n}.log", f"shard{n}") for n in range(2)]
    try:
        with transaction.atomic():  # queued on commit, as a chat message is
            episodes = [
                record_episode(
                    project,
                    EpisodeInput(
                        content=f"{ROLES[(i + k) % 6]} {PAINS[(i * 2 + k) % 5]}.",
                        valid_at=at(f"2026-03-01T10:{k:02d}:00Z"),
                    ),
                )
                for i, project in enumerate(projects)
                for k in range(2)
            ]
        # A shard stops (its data saved to its append-only file) and comes back mid-import.
        _wait_for(projects, len(episodes), len(episodes) // 3, 180)
        restarted = graph_cluster[1]
        restarted.stop()
        time.sleep(1)
        restarted.start()
        statuses = _wait_for(projects, len(episodes), len(episodes), 300)
    finally:
        for worker in workers:
            os.killpg(worker.pid, 15)
        for worker in workers:
            worker.wait(30)
    logs = "".join((tmp_path / f"worker-{n}.log").read_text(errors="replace") for n in range(2))
    failures = list(
        EpisodeProcessing.objects.filter(
            episode__project__in=projects, status="failed"
        ).values_list("error", flat=True)
    )
    assert statuses["done"] == len(episodes), (dict(statuses), failures, logs[-3000:])

    # Every project's graph is one key on one shard; the keys spread over all three shards.
    keys_of = {
        shard.redis_port: {
            key.decode()
            for key in redis.Redis(port=shard.redis_port, password=shard.password).keys("*")
        }
        for shard in graph_cluster
    }
    holders = Counter()
    for project in projects:
        name = project_graph_name(project.graph_scope)
        owners = [port for port, keys in keys_of.items() if name in keys]
        assert len(owners) == 1, (name, keys_of)
        holders[owners[0]] += 1
    assert len(holders) == 3, holders

    try:
        settings.GRAPH_URI = cluster_uri
        reset_client()
        on_cluster = {p.slug: export_project(p) for p in projects}
    finally:
        settings.GRAPH_URI = single_uri
        reset_client()
    for project in projects:  # the same messages, replayed on the single server
        rebuild_project_graph(project)
        single = export_project(project)
        assert single["nodes"], project.slug
        assert on_cluster[project.slug] == single, project.slug
