"""kg_rebuild: the graph is derived data; drop it and replay the ledger.

Episodes are replayed in the order they were first integrated (EpisodeIntegration.order), each
from its recorded proposal, so the rebuilt graph is the original one and no model call is made,
also for a project that several workers built concurrently. Episodes never integrated follow,
in valid_at order; their model answers come from the recorded calls where the prompt matches.
A user's answer to a contradiction decides it again (kept statement, superseded one) just
before the answer itself is replayed. Corrections (kg.corrections) are applied again between
the episodes, where they were made.
The candidate index is cleared with the graph and refilled as the episodes are replayed.

Projects share nothing a replay writes (each its graph scope, index rows, lease and revision),
so `rebuild_projects_on_workers` replays several at once, one Celery task per project, each in
its own recorded order.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.db.models import F

from kg.corrections import CorrectionReplay
from kg.graph import store
from kg.models import Episode, Project
from kg.pipeline.candidates import clear_index
from kg.pipeline.contradictions import replay_answer
from kg.pipeline.ingest import episode_ingest
from kg.pipeline.locks import project_lock, replay_lock, replaying
from kg.pipeline.revision import graph_changed
from kg.task_queue import queue_task

REBUILD_TASK = "kg.rebuild_project"
# How often the waiting command looks at the tasks it queued.
POLL_SECONDS = 0.2


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


@dataclass(frozen=True)
class ProjectRebuilt:
    """One project's rebuild as its task reported it (error: why it did not finish)."""

    slug: str
    episodes: int = 0
    seconds: float = 0.0
    worker: str = ""
    error: str = ""


def rebuild_project_by_id(project_id: int, worker: str = "") -> ProjectRebuilt:
    """What a worker's rebuild task runs: the project's replay, timed."""
    project = Project.objects.get(pk=project_id)
    started = time.monotonic()
    count = rebuild_project_graph(project)
    return ProjectRebuilt(
        slug=project.slug,
        episodes=count,
        seconds=round(time.monotonic() - started, 3),
        worker=worker,
    )


def rebuild_projects_on_workers(
    projects: Iterable[Project],
    in_flight: int,
    timeout: float | None = None,
    reported: Callable[[ProjectRebuilt], None] | None = None,
) -> list[ProjectRebuilt]:
    """Rebuild the projects on the Celery workers, one task per project and at most
    `in_flight` queued or running at once (the next is queued as one finishes); waits for all.

    Each project is replayed by `rebuild_project_graph` in its recorded order, so a project's
    graph is the one a sequential rebuild gives. A task that fails is reported with its reason
    and the others go on. `timeout` (seconds, None: none) bounds the whole wait.
    """
    if in_flight < 1:
        raise ValueError("at least one rebuild must be allowed in flight")
    waiting = list(projects)
    waiting.reverse()  # popped from the end: queued in the order given
    running: list[tuple[Project, object]] = []
    finished: list[ProjectRebuilt] = []
    deadline = None if timeout is None else time.monotonic() + timeout
    while waiting or running:
        while waiting and len(running) < in_flight:
            project = waiting.pop()
            running.append((project, queue_task(REBUILD_TASK, args=(project.pk,))))
        still: list[tuple[Project, object]] = []
        for project, result in running:
            if not result.ready():
                still.append((project, result))
                continue
            outcome = _outcome(project, result)
            finished.append(outcome)
            if reported:
                reported(outcome)
        running = still
        if running:
            if deadline is not None and time.monotonic() > deadline:
                slugs = ", ".join(p.slug for p, _ in running)
                raise TimeoutError(f"rebuilds not finished in {timeout:g} s: {slugs}")
            time.sleep(POLL_SECONDS)
    return finished


def _outcome(project: Project, result) -> ProjectRebuilt:
    if not result.successful():
        return ProjectRebuilt(slug=project.slug, error=str(result.result) or "the task failed")
    return ProjectRebuilt(**result.get())
