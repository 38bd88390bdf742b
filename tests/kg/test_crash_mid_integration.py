"""A worker killed while integrating: the retry and kg_rebuild agree on the episode's place.

The crash is a write to the graph that raises part-way through the episode (as a kill -9
would stop it); the episodes after it see what was written, so the episode's place in the
order of integration is where its writes were made, and a retry keeps it.
"""

from __future__ import annotations

import pytest

from kg.graph import store
from kg.models import EpisodeIntegration
from kg.operations.rebuild import rebuild_project_graph
from kg.pipeline import ingest
from kg.pipeline.ingest import episode_ingest
from kg.reading.export import export_project
from tests.kg.pipeline_helpers import make_project, record_messages

pytestmark = pytest.mark.django_db

MESSAGES = [
    {"at": "2026-04-01T00:00:00Z", "text": "Couriers hate paper maps."},
    {"at": "2026-04-02T00:00:00Z", "text": "Couriers hate paper maps, again and again."},
    {"at": "2026-04-03T00:00:00Z", "text": "Our market is B2B. Couriers hate paper maps."},
]


class Killed(Exception):
    pass


@pytest.mark.parametrize(
    ("module", "write", "place"),
    [
        (store, "append_node_changes", 3),  # nothing written: the place is given back
        (store, "append_edge_changes", 1),  # the nodes (with their confidence), not the edges
        (ingest, "_record_done", 1),  # every graph write made, the outcome not recorded
    ],
)
def test_a_retry_after_a_crash_mid_write_keeps_its_place_and_rebuild_agrees(
    graph, monkeypatch, module, write, place
):
    project = make_project(f"crash-{write.strip('_').replace('_', '-')}", name="Shop")
    first, *later = record_messages(project, MESSAGES)
    real = getattr(module, write)
    crashes = []

    def crash_once(*args, **kwargs):
        if not crashes:
            crashes.append(write)
            raise Killed(write)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, write, crash_once)
    with pytest.raises(Killed):
        episode_ingest(first.pk)
    monkeypatch.setattr(module, write, real)
    taken = EpisodeIntegration.objects.get(episode=first).order
    assert taken == (None if place == 3 else 1)
    for episode in later:  # integrated while the first waits for its retry
        episode_ingest(episode.pk)
    episode_ingest(first.pk)  # the retry
    assert crashes == [write]
    assert EpisodeIntegration.objects.get(episode=first).order == place
    faulted = export_project(project)
    assert faulted["nodes"]

    rebuild_project_graph(project)
    assert export_project(project) == faulted
