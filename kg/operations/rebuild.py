"""kg_rebuild: the graph is derived data; drop it and replay the ledger.

Episodes are replayed in the order they were first integrated (EpisodeIntegration.order), each
from its recorded proposal, so the rebuilt graph is the original one and no model call is made,
also for a project that several workers built concurrently. Episodes never integrated follow,
in valid_at order; their model answers come from the recorded calls where the prompt matches.
A user's answer to a contradiction decides it again (kept statement, superseded one) just
before the answer itself is replayed. Corrections (kg.corrections) are applied again between
the episodes, where they were made.
The candidate index is cleared with the graph and refilled as the episodes are replayed.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db.models import F

from kg.corrections import CorrectionReplay
from kg.graph import store
from kg.models import Episode, Project
from kg.pipeline.candidates import clear_index
from kg.pipeline.contradictions import replay_answer
from kg.pipeline.ingest import episode_ingest
from kg.pipeline.locks import project_lock, replay_lock, replaying
from kg.pipeline.revision import graph_changed


def rebuild_project_graph(
    project: Project, progress: Callable[[int, int], None] | None = None
) -> int:
    # One replay of a project at a time; a correction asks for the project's lease, then
    # whether a replay runs (kg.corrections): the replay starts once the one in hand is written.
    with replay_lock(project.pk):
        with project_lock(project.pk):
            pass
        with replaying(project.pk):
            return _replay(project, progress)


def _replay(project: Project, progress: Callable[[int, int], None] | None) -> int:
    scope = project.graph_scope
    store.delete_project_graph(scope)
    clear_index(project)
    graph_changed(project)  # an empty graph is a change too, even with no episode to replay
    store.ensure_indexes()
    episodes = list(
        Episode.objects.filter(project=project)
        .order_by(F("integration__order").asc(nulls_last=True), "valid_at", "number")
        .values_list("pk", "source_ref", "integration__order")
    )
    corrections = CorrectionReplay(project)  # each replayed where it was made
    for done, (episode_id, source_ref, order) in enumerate(episodes, start=1):
        corrections.before(order)
        if (source_ref or {}).get("resolves"):
            # An answer decided its contradiction before it was integrated itself.
            replay_answer(project, Episode.objects.get(pk=episode_id))
        episode_ingest(episode_id, force=True)
        if progress:
            progress(done, len(episodes))
    corrections.before(None)
    return len(episodes)
