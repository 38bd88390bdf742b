"""kg_rebuild --all --workers N: every project rebuilt by a real Celery worker, N at a time,
each to the graph a sequential rebuild gives."""

from __future__ import annotations

import io

import pytest
from celery.contrib.testing.worker import start_worker
from django.core.management import CommandError, call_command

from config.celery import app
from kg.pipeline.ingest import episode_ingest
from kg.reading.export import export_project
from tests.kg.pipeline_helpers import make_project, record_messages

MESSAGES = {
    "couriers": [
        "Our market is B2B delivery companies.",
        "Couriers hate paper maps.",
        "Dispatchers use Excel to plan routes.",
        "Couriers lose orders when the app crashes in basements.",
    ],
    "bakery": [
        "Bakery owners order flour by phone every morning.",
        "Owners hate losing the paper order book.",
        "Competitor FlourHub charges a monthly fee.",
    ],
}


def _ingested(slug: str, texts: list[str]):
    project = make_project(slug, name=slug.title())
    messages = [{"at": f"2026-03-0{i + 1}T10:00:00Z", "text": t} for i, t in enumerate(texts)]
    for episode in record_messages(project, messages):
        episode_ingest(episode.pk)
    return project


def _exports(projects) -> dict[str, dict]:
    return {p.slug: export_project(p) for p in projects}


@pytest.mark.worker
def test_rebuild_all_on_two_workers_equals_a_sequential_rebuild(
    embedded_server, graph, transactional_db
):
    projects = [_ingested(slug, texts) for slug, texts in MESSAGES.items()]
    built = _exports(projects)
    assert all(e["nodes"] and e["edges"] for e in built.values())

    sequential_out = io.StringIO()
    call_command("kg_rebuild", "--all", stdout=sequential_out)
    sequential = _exports(projects)
    assert sequential == built
    assert "rebuilt 2 of 2 projects" in sequential_out.getvalue()

    out = io.StringIO()
    with start_worker(
        app,
        pool="threads",
        concurrency=2,
        perform_ping_check=False,
        shutdown_timeout=30,
    ):
        call_command("kg_rebuild", "--all", "--workers", "2", "--timeout", "180", stdout=out)
    report = out.getvalue()
    # Each project was replayed by a worker's task (which names its worker), not in place.
    lines = report.splitlines()
    assert any(line.startswith("rebuilt couriers from 4 episodes in ") for line in lines)
    assert any(line.startswith("rebuilt bakery from 3 episodes in ") for line in lines)
    assert sum(1 for line in lines if " s on " in line) == 2
    assert "rebuilt 2 of 2 projects" in report
    assert _exports(projects) == sequential


def test_workers_go_with_all_and_are_counted(db):
    with pytest.raises(CommandError, match="--workers goes with --all"):
        call_command("kg_rebuild", "--project", "x", "--workers", "2", stdout=io.StringIO())
    with pytest.raises(CommandError, match="1 or more"):
        call_command("kg_rebuild", "--all", "--workers", "-1", stdout=io.StringIO())
    with pytest.raises(CommandError):
        call_command("kg_rebuild", stdout=io.StringIO())
