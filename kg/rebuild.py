"""kg_rebuild: the graph is derived data; drop it and replay the ledger.

Episodes are replayed in valid_at order; model answers come from the recorded calls (the
gateway's cache by model and prompt hash), so no new model call is paid for what was seen.
"""

from __future__ import annotations

from collections.abc import Callable

from kg.graph import store
from kg.models import Episode, Project
from kg.pipeline.ingest import episode_ingest
from kg.pipeline.revision import graph_changed


def rebuild_project_graph(
    project: Project, progress: Callable[[int, int], None] | None = None
) -> int:
    scope = project.graph_scope
    store.delete_project_graph(scope)
    graph_changed(project)  # an empty graph is a change too, even with no episode to replay
    store.ensure_indexes()
    episodes = list(
        Episode.objects.filter(project=project)
        .order_by("valid_at", "number")
        .values_list("pk", flat=True)
    )
    for done, episode_id in enumerate(episodes, start=1):
        episode_ingest(episode_id, force=True)
        if progress:
            progress(done, len(episodes))
    return len(episodes)
