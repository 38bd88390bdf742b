"""episode_ingest: the whole pipeline for one episode, idempotent (a retry converges).

Before the lock (kg.pipeline.proposal): every model call — one extraction that also sees the
existing nodes the message most likely means, and a confirmation only where real ambiguity is
left — resolved into a proposal, recorded with the episode. Under the project lock
(kg.pipeline.integrate): re-validate the proposal against the current state, write deltas,
take the next place in the project's order of integration, mark the episode processed. The
lock is held for the writes only, never for a model call.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Max

from kg.graph import EpisodeStub, store
from kg.graph.records import graph_time
from kg.models import (
    Episode,
    EpisodeIntegration,
    EpisodeProcessing,
    ProcessingStatus,
    ResolutionDecision,
)
from kg.pipeline import retry_policy
from kg.pipeline.batch import BULK_KINDS, proposal_for
from kg.pipeline.integrate import Decision, integrate
from kg.pipeline.locks import WAIT_SECONDS, Lease, LockBusy, holding, named_lock
from kg.pipeline.recovery import record_gave_up, worker_id
from kg.pipeline.revision import graph_changed
from kg.task_queue import queue_task

logger = logging.getLogger("groundwork.pipeline")


@dataclass
class IngestReport:
    episode: int
    skipped: bool = False
    created: list[int] = field(default_factory=list)
    merged: list[int] = field(default_factory=list)
    edges: int = 0
    dropped: int = 0
    contradictions: int = 0


def episode_ingest(episode_id: int, *, force: bool = False) -> IngestReport:
    """Run the pipeline for one episode. `force` reprocesses (used by kg_rebuild).

    A recorded proposal (an earlier attempt, or the original run when rebuilding) is
    integrated again as it was: no model call is made twice for one episode. An imported
    message is integrated in the order of its project's imports (`_ingest_in_order`).
    """
    episode = Episode.objects.select_related("project__organization").get(pk=episode_id)
    if episode.kind in BULK_KINDS and not force:
        return _ingest_in_order(episode)
    return _ingest(episode, force=force)


# --- imports in their order ----------------------------------------------------------------------
# The same file gives the same graph however workers are scheduled, killed or restarted: the
# imported messages of a project are proposed and integrated in episode-number order, each
# batch proposed against the graph as every earlier message left it — exactly what a
# sequential `kg_ingest --sync` does. One worker at a time holds the project's import turn
# and works through the unfinished messages before its own; the tasks of the later ones wait
# for their turn, or find their message done. A turn is a lease: its holder's death frees it
# within seconds. The model calls of an import are therefore made one batch at a time per
# project (eight messages a call); projects still proceed in parallel.
ORDER_POLL_SECONDS = 0.05
AHEAD_SECONDS = 20.0  # how long a turn's holder goes on past its own message


def _ingest_in_order(episode: Episode) -> IngestReport:
    while True:
        if _status(episode) == ProcessingStatus.DONE:
            return IngestReport(episode=episode.number, skipped=True)
        try:
            turn = Lease(f"import-order:{episode.project_id}").acquire(wait_seconds=0)
        except LockBusy:  # another worker is working through the import: wait for our turn
            time.sleep(ORDER_POLL_SECONDS)
            continue
        with holding(turn):
            return _ingest_through(episode, turn)


def _ingest_through(episode: Episode, turn: Lease) -> IngestReport:
    """Holding the import turn: the unfinished imported messages before `episode`, in order,
    then `episode`, then the ones after it for up to AHEAD_SECONDS (their own tasks then find
    them done, instead of each taking the turn in its own process).

    A message that fails for good is passed over, as a sequential run passes it; one that fails
    transiently stops the turn there (the order waits for it): before `episode` its error is
    raised, so this task retries; after it, `episode`'s report stands.
    """
    report: IngestReport | None = None
    ahead_until = 0.0
    after = 0  # every imported message numbered up to here is finished or failed for good
    while True:
        turn.check()
        following = _next_unfinished_import(episode.project_id, after)
        if report is None and (following is None or following.number >= episode.number):
            report = _ingest(episode)  # its own failure is raised to its task
            after, ahead_until = episode.number, time.monotonic() + AHEAD_SECONDS
            continue
        if following is None or (report is not None and time.monotonic() > ahead_until):
            return report  # type: ignore[return-value]  (set before the turn goes ahead)
        after = following.number
        try:
            _ingest(following)
        except Exception as exc:
            transient = retry_policy.is_transient(exc)
            record_gave_up(following.pk, retry_policy.describe(exc), transient=transient)
            if transient and report is None:
                raise
            if transient:
                return report
            logger.warning("imported episode %s failed; the import goes on: %s", following.pk, exc)


def _next_unfinished_import(project_id: int, after: int) -> Episode | None:
    """The first imported message numbered above `after` neither done nor failed for good
    (FAILED with no retry due)."""
    return (
        Episode.objects.filter(project_id=project_id, kind__in=BULK_KINDS, number__gt=after)
        .exclude(processing__status=ProcessingStatus.DONE)
        .exclude(processing__status=ProcessingStatus.FAILED, processing__retry_at__isnull=True)
        .select_related("project__organization")
        .order_by("number")
        .first()
    )


def _status(episode: Episode) -> str | None:
    return (
        EpisodeProcessing.objects.filter(episode=episode).values_list("status", flat=True).first()
    )


def _ingest(episode: Episode, *, force: bool = False) -> IngestReport:
    processing, _ = EpisodeProcessing.objects.get_or_create(episode=episode)
    # Recorded before the first call to any server: an outage leaves a trace, never silence.
    _set_status(processing, ProcessingStatus.RUNNING, stage="extract", attempt=True)
    scope = episode.project.graph_scope
    store.upsert_episode_stub(
        scope,
        EpisodeStub(
            uid=str(episode.uid), number=episode.number, valid_at=graph_time(episode.valid_at)
        ),
    )
    if not force and store.episode_processed(scope, str(episode.uid)):
        _set_status(processing, ProcessingStatus.DONE)
        return IngestReport(episode=episode.number, skipped=True)
    try:
        proposal = proposal_for(episode)  # recorded, else made now (imports in batches)
        _set_status(processing, ProcessingStatus.RUNNING, stage="resolve")
        with _project_lease(episode.project_id) as lease:
            # The place is taken (committed) just before the first graph write: a worker killed
            # after writing leaves the place its writes were made at, and its retry keeps it.
            done = integrate(
                episode, proposal, lease.check, before_writes=lambda: _take_place_in_order(episode)
            )
            store.mark_episode_processed(scope, str(episode.uid))
    except Exception as exc:
        _set_status(processing, ProcessingStatus.FAILED, error=f"{type(exc).__name__}: {exc}")
        raise
    with transaction.atomic():  # one commit for the record of the episode's outcome
        _log_decisions(episode, done.decisions)
        _set_status(processing, ProcessingStatus.DONE)
    graph_changed(episode.project_id, sender=Episode)
    return IngestReport(
        episode=episode.number,
        created=done.created,
        merged=done.merged,
        edges=done.edges,
        dropped=proposal.dropped,
        contradictions=done.contradictions,
    )


def ingest_recorded_episodes(episodes: Sequence[Episode], *, sync: bool = False) -> list[Episode]:
    """Run the pipeline for episodes recorded without queueing (`enqueue=False`): a file's, an
    export's. Imported messages are extracted several per model call (kg.pipeline.batch).

    With `sync`, in this process, one episode after another: a failure is recorded on its
    episode and the others go on. Otherwise queued for the workers once the current
    transaction commits, one task per episode; each finds its batch's recorded proposal.
    Returns the episodes that failed (always empty when queued).
    """
    if not sync:
        ids = [e.pk for e in episodes]
        transaction.on_commit(lambda: _enqueue(ids))
        return []
    failed = []
    for episode in episodes:
        try:
            episode_ingest(episode.pk)
        except Exception as exc:  # kept, marked failed with the reason; the rest go on
            logger.warning("episode %s failed: %s", episode.pk, exc)
            failed.append(episode)
    return failed


def _enqueue(episode_ids: list[int]) -> None:
    for episode_id in episode_ids:
        queue_task("kg.episode_ingest", [episode_id])


# How often a writer waiting for its project's lease asks again. The lease is held for a few
# milliseconds per episode (the writes only), so the lock's own backoff (up to 250 ms between
# tries) would leave it free most of the time a writer sleeps.
LEASE_POLL_SECONDS = 0.005


@contextmanager
def _project_lease(project_id: int) -> Iterator[Lease]:
    """The project's lease (kg.pipeline.locks.project_lock's name), asked for every
    LEASE_POLL_SECONDS for up to WAIT_SECONDS; held, renewed and released by the lock."""
    deadline = time.monotonic() + WAIT_SECONDS
    with ExitStack() as stack:
        while True:
            try:
                lease = stack.enter_context(named_lock(f"project-lock:{project_id}", timeout=0))
                break
            except LockBusy:
                if time.monotonic() > deadline:
                    raise
                time.sleep(LEASE_POLL_SECONDS)
        yield lease


def _take_place_in_order(episode: Episode) -> Callable[[], None]:
    """The next place in the project's order of integration (under the lock, before the graph
    is written). An episode that has a place keeps it: a retry after a crash mid-write (its
    writes were seen by the episodes after it) and a rebuild replaying the recorded order.
    Returns what gives a place taken here back (its first graph write failed)."""
    with transaction.atomic():
        row = EpisodeIntegration.objects.select_for_update().get(episode=episode)
        if row.order is not None:
            return lambda: None
        last = EpisodeIntegration.objects.filter(project_id=episode.project_id).aggregate(
            n=Max("order")
        )["n"]
        row.order = (last or 0) + 1
        row.save(update_fields=["order"])

    def give_back() -> None:
        EpisodeIntegration.objects.filter(pk=row.pk).update(order=None)

    return give_back


def _set_status(
    processing: EpisodeProcessing,
    status: str,
    *,
    stage: str = "",
    error: str = "",
    attempt: bool = False,
) -> None:
    processing.status = status
    processing.stage = stage
    processing.error = error[:4000]
    if attempt:
        processing.attempts += 1
        processing.retry_at = None
        processing.worker = worker_id()
    processing.save()


def _log_decisions(episode: Episode, decisions: Sequence[Decision]) -> None:
    # Append-only: a reprocessing records its own decisions; the earlier ones stay as they were.
    ResolutionDecision.objects.bulk_create(
        ResolutionDecision(
            episode=episode,
            node_type=d.node_type,
            candidate_label=d.label[:500],
            project=episode.project,
            method=d.method,
            score=d.score,
            compared_label=d.compared[:500],
            node_uid=d.node.uid,
            node_number=d.node.number,
        )
        for d in decisions
    )
