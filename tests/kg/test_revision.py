"""The per-project revision counter moves with every graph change, and only that project's."""

from __future__ import annotations

import pytest

from kg.graph import store
from kg.ledger.episodes import EpisodeInput, record_episode
from kg.operations.rebuild import rebuild_project_graph
from kg.pipeline.contradictions import resolve_with_answer
from kg.pipeline.ingest import episode_ingest
from kg.pipeline.revision import bump_revision, project_revision
from tests.kg.pipeline_helpers import make_project

pytestmark = pytest.mark.django_db


def test_a_new_project_is_at_revision_zero_and_bumps_count_one_each(org_project):
    assert project_revision(org_project) == 0
    assert bump_revision(org_project) == 1
    assert bump_revision(org_project.pk) == 2
    assert project_revision(org_project.pk) == 2


def test_ingest_moves_the_revision_of_its_project_only(graph):
    first, second = make_project("first"), make_project("second")
    episode = record_episode(
        first, EpisodeInput(content="Couriers hate waiting at the depot."), enqueue=False
    )
    episode_ingest(episode.pk)
    after_ingest = project_revision(first)
    assert after_ingest >= 1
    assert project_revision(second) == 0
    episode_ingest(episode.pk)  # already processed: nothing changed, the revision stays
    assert project_revision(first) == after_ingest
    rebuild_project_graph(first)
    assert project_revision(first) > after_ingest


def test_resolving_a_contradiction_moves_the_revision(graph):
    project = make_project("opinions")
    for text in ("Price is the main factor for us.", "Price does not matter to us at all."):
        episode_ingest(record_episode(project, EpisodeInput(content=text), enqueue=False).pk)
    open_ones = [c for c in store.list_contradictions(project.graph_scope) if c.status == "open"]
    assert open_ones, "the offline engine opens a contradiction on opposite price stances"
    before = project_revision(project)
    resolve_with_answer(project, open_ones[0].uid, "Price matters most.", "pm", enqueue=False)
    assert project_revision(project) == before + 1
