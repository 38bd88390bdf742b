"""episode_ingest: the whole pipeline for one episode, idempotent (a retry converges).

Before the lock (kg.pipeline.proposal): every model call — one extraction that also sees the
existing nodes the message most likely means, and a confirmation only where real ambiguity is
left — resolved into a proposal, recorded with the episode. Under the project lock
(kg.pipeline.integrate): re-validate the proposal against the current state, write deltas,
take the next place in the project's order of integration, and record the episode's outcome
(its resolution decisions, DONE) once its graph writes are made: in the commit that takes the
next episode's place, or alone, just after the lock is given back, when none follows in the
same hold. The lock is held for the writes only, never for a model call.

An episode whose outcome is recorded is done: it is never integrated again unless forced
(kg_rebuild). One whose writes were made but whose outcome was not recorded (a worker killed
between the two) is integrated again by its retry, from its recorded proposal and at the place
it took, as after a crash mid-write.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from itertools import takewhile

from django.db import connection, transaction
from django.db.models import Case, F, QuerySet, Value, When
from django.utils import timezone

from kg.graph import EpisodeStub, store
from kg.graph.records import graph_time
from kg.ledger.episodes import IMPORT_TASK_STRIDE, queue_ingest
from kg.ledger.search_index import index_episodes
from kg.models import (
    Episode,
    EpisodeIntegration,
    EpisodeProcessing,
    ProcessingStatus,
    ResolutionDecision,
)
from kg.pipeline import retry_policy, taught
from kg.pipeline.batch import BULK_KINDS, messages_per_batch, proposals_for
from kg.pipeline.integrate import Decision, Hold, integrate, nodes_named
from kg.pipeline.locks import (
    WAIT_SECONDS,
    Lease,
    LockBusy,
    holding,
    named_lock,
    replayed_elsewhere,
)
from kg.pipeline.proposal import recorded_proposals
from kg.pipeline.read_ahead import read_ahead
from kg.pipeline.recovery import claim_episode, record_gave_up, worker_id
from kg.pipeline.revision import graph_changed

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
    episode = Episode.objects.select_related("project__organization", "processing").get(
        pk=episode_id
    )
    if episode.kind in BULK_KINDS and not force:
        return _ingest_in_order(episode)
    return _ingest(episode, force=force)


# --- imports in their order ----------------------------------------------------------------------
# The same file gives the same graph however workers are scheduled, killed or restarted: the
# imported messages of a project are proposed and integrated in episode-number order, each
# batch proposed against the graph as every earlier message left it — exactly what a
# sequential `kg_ingest --sync` does. One worker at a time holds the project's import turn
# and works through the unfinished messages before its own; the tasks of the later ones wait
# for their turn (reading their run ahead meanwhile with the offline rules: kg.pipeline.
# read_ahead), or find their message done. A turn is a lease: its holder's death frees it
# within seconds. The model calls of an import are therefore made one batch at a time per
# project (eight messages a call; offline, a task's run of 32); projects still proceed in parallel.
ORDER_POLL_SECONDS = 0.05
AHEAD_SECONDS = 20.0  # how long a turn's holder goes on past its own message
# Runs a waiting task reads ahead: its own, then the ones after it, which the holder reaches
# while going on past its own message (their tasks may not have a worker process yet).
READ_AHEAD_RUNS = 4


def _ingest_in_order(episode: Episode) -> IngestReport:
    status = _status_of(episode)
    runs_read = 0
    if status == ProcessingStatus.PENDING:
        # Its task may wait a while for the turn: should this worker die meanwhile, the sweep
        # re-queues the episode at once (its turn then drives through the run before it).
        claim_episode(episode.pk)
    while True:
        if status == ProcessingStatus.DONE:
            return IngestReport(episode=episode.number, skipped=True)
        try:
            turn = Lease(f"import-order:{episode.project_id}").acquire(wait_seconds=0)
        except LockBusy:  # another worker is working through the import: wait for our turn
            if runs_read < READ_AHEAD_RUNS:  # meanwhile, runs read ahead (offline engine)
                last = episode.number + runs_read * IMPORT_TASK_STRIDE
                read_ahead(_run_ending_at(episode.project_id, last))
                runs_read += 1
            else:
                time.sleep(ORDER_POLL_SECONDS)
            status = _status(episode)
            continue
        with holding(turn):
            return _ingest_through(episode, turn)


def _run_ending_at(project_id: int, last: int) -> list[Episode]:
    """The unfinished imported messages of the run of IMPORT_TASK_STRIDE ending at number
    `last` (a task's run ends at its message: kg.ledger.episodes.queue_ingest), without a
    recorded proposal, in order."""
    return list(
        _imports_not_done(project_id).filter(
            number__gt=last - IMPORT_TASK_STRIDE, number__lte=last, integration__isnull=True
        )
    )


def _imports_not_done(project_id: int) -> QuerySet[Episode]:
    """The project's imported messages not done, in order, each with its project."""
    return (
        Episode.objects.filter(project_id=project_id, kind__in=BULK_KINDS)
        .exclude(processing__status=ProcessingStatus.DONE)
        .select_related("project__organization")
        .order_by("number")
    )


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
        if report is not None and time.monotonic() > ahead_until:
            return report
        # A batch's messages are taken up together: marked running, their graph stubs written
        # and their recorded proposals read in one round trip each, the revision moved once.
        size = messages_per_batch()
        window = _unfinished_imports(episode.project_id, after, size)
        if report is None:
            window = _up_to(episode, window, size)
        if not window:
            return report  # type: ignore[return-value]  (set before the turn goes ahead)
        outcome = _ingest_episodes(window)
        if episode.pk in outcome.reports:
            report = outcome.reports[episode.pk]
            ahead_until = time.monotonic() + AHEAD_SECONDS
        after = max(after, outcome.reached)
        failed, error = outcome.failed, outcome.error
        if failed is None or error is None:
            continue
        if failed.pk == episode.pk:
            raise error  # its own failure is raised to its task
        transient = retry_policy.is_transient(error)
        record_gave_up(failed.pk, retry_policy.describe(error), transient=transient)
        if transient and report is None:
            raise error
        if transient:
            return report
        logger.warning("imported episode %s failed; the import goes on: %s", failed.pk, error)


def _unfinished_imports(project_id: int, after: int, limit: int) -> list[Episode]:
    """The first `limit` imported messages numbered above `after` neither done nor failed for
    good (FAILED with no retry due), in order."""
    return list(
        _imports_not_done(project_id)
        .filter(number__gt=after)
        .exclude(processing__status=ProcessingStatus.FAILED, processing__retry_at__isnull=True)
        .select_related("processing")[:limit]
    )


def _up_to(episode: Episode, window: list[Episode], size: int) -> list[Episode]:
    """The window cut after `episode`, which is in it at its place once the window reaches it
    (whatever its state: its own task runs it)."""
    before = [e for e in window if e.number < episode.number]
    if len(before) == len(window) and len(window) == size:
        return before  # its place is further on
    own = next((e for e in window if e.pk == episode.pk), None)
    if own is None:  # finished meanwhile, or failed for good: its state read afresh
        own = Episode.objects.select_related("project__organization", "processing").get(
            pk=episode.pk
        )
    return [*before, own]


def _status_of(episode: Episode) -> str | None:
    try:
        return episode.processing.status
    except EpisodeProcessing.DoesNotExist:
        return None


def _status(episode: Episode) -> str | None:
    return (
        EpisodeProcessing.objects.filter(episode=episode).values_list("status", flat=True).first()
    )


# --- the pipeline for a run of episodes ----------------------------------------------------------


@dataclass
class _Outcome:
    reports: dict[int, IngestReport] = field(default_factory=dict)  # by episode id
    reached: int = 0  # the number of the last episode finished or failed
    failed: Episode | None = None  # the episode the run stopped at, with its error
    error: Exception | None = None


def _ingest(episode: Episode, *, force: bool = False) -> IngestReport:
    outcome = _ingest_episodes([episode], force=force)
    if outcome.error is not None:
        raise outcome.error
    return outcome.reports[episode.pk]


def _ingest_episodes(episodes: Sequence[Episode], *, force: bool = False) -> _Outcome:
    """Run the pipeline for episodes of one project, one after the other, in the order given;
    stop at the first that fails (marked FAILED with its reason; the ones after it are left
    pending). An episode done already is skipped unless `force`.

    What does not depend on the order is done for all of them at once: they are marked running,
    their graph stubs written and their recorded proposals read in one round trip each, and the
    project's revision moves once at the end. Each is then proposed where it has no recorded
    proposal (at its turn: against the graph as the episodes before it left it, with the rest
    of its batch), and the episodes proposed are integrated one after the other in one hold of
    the project lease, their outcomes recorded together after it. The nodes they name are
    read once for the hold, and what each episode writes is carried to the next
    (kg.pipeline.integrate.Hold); the writes themselves stay one episode's at a time.
    """
    outcome = _Outcome()
    todo = []
    for episode in episodes:
        if not force and _status_of(episode) == ProcessingStatus.DONE:
            outcome.reports[episode.pk] = IngestReport(episode=episode.number, skipped=True)
            outcome.reached = max(outcome.reached, episode.number)
        else:
            todo.append(episode)
    if not todo:
        return outcome
    project_id = todo[0].project_id
    changed = False
    current = todo[0]
    written: list[tuple[Episode, Sequence[Decision]]] = []  # outcomes not recorded yet
    try:
        proposals = recorded_proposals(todo)
        # Recorded before the first call to any other server: an outage leaves a trace.
        _mark_running(todo, proposed=set(proposals))
        index_episodes(todo)  # the ledger's full-text index (idempotent)
        scope = todo[0].project.graph_scope
        store.upsert_episode_stubs(
            scope,
            [
                EpisodeStub(uid=str(e.uid), number=e.number, valid_at=graph_time(e.valid_at))
                for e in todo
            ],
        )
        place = 0
        while place < len(todo):
            current = todo[place]
            if current.pk not in proposals:  # made now and recorded (imports in batches)
                made = proposals_for(current)
                proposals.update(made)
                _mark_stage([e.pk for e in todo[place:] if e.pk in made], "resolve")
            # The episodes proposed from here on are integrated in one hold of the lease, one
            # after the other; their outcomes are recorded together once it is given back.
            run = list(takewhile(lambda e: e.pk in proposals, todo[place:]))
            with _project_lease(project_id) as lease:
                held_from = time.perf_counter()
                corrections = taught.project_corrections(project_id)
                # The nodes the run names or would create, read once for the hold (graph and
                # index): no one else writes them while it is held.
                hold = Hold(run[0].project)
                hold.read_ahead(uid for e in run for uid in nodes_named(e, proposals[e.pk]))
                for episode in run:
                    current = episode
                    proposal = proposals[episode.pk]
                    # The place is taken (committed) just before the first graph write: a
                    # worker killed after writing leaves the place its writes were made at,
                    # and its retry keeps it (integrating again what it wrote changes nothing).
                    done = integrate(
                        episode,
                        proposal,
                        lease.check,
                        before_writes=lambda e=episode: _take_place_in_order(e),
                        corrections=corrections,
                        hold=hold,
                    )
                    changed = True
                    written.append((episode, done.decisions))
                    outcome.reports[episode.pk] = IngestReport(
                        episode=episode.number,
                        created=done.created,
                        merged=done.merged,
                        edges=done.edges,
                        dropped=proposal.dropped,
                        contradictions=done.contradictions,
                    )
                    outcome.reached = max(outcome.reached, episode.number)
                # How long one project waits on another's writes (benchmarks read it).
                logger.debug(
                    "project %s: %d episodes integrated in one hold of its lease, %.1f ms",
                    project_id,
                    len(run),
                    (time.perf_counter() - held_from) * 1000,
                )
            # The outcomes are recorded after the lease is given back, in one commit: the
            # writes are made and the places taken, and no later episode depends on the record.
            _record_done(written)
            written = []
            place += len(run)
    except Exception as exc:
        _record_done(written)  # their writes are made: done, whatever befell the next one
        outcome.failed, outcome.error = current, exc
        outcome.reached = max(outcome.reached, current.number)
        _record_failed(current, f"{type(exc).__name__}: {exc}")
        _leave_pending([e.pk for e in todo if e.pk not in outcome.reports and e is not current])
    finally:
        if changed:
            graph_changed(project_id, sender=Episode)
    return outcome


def _mark_running(episodes: Sequence[Episode], proposed: set[int]) -> None:
    """Mark the episodes running on this worker, one more attempt each: at the resolve stage
    where a proposal is recorded, else at extraction."""
    ids = [e.pk for e in episodes]
    stage = (
        Case(When(episode_id__in=proposed, then=Value("resolve")), default=Value("extract"))
        if proposed
        else Value("extract")
    )
    rows = EpisodeProcessing.objects.filter(episode_id__in=ids)
    fields = {
        "status": ProcessingStatus.RUNNING,
        "stage": stage,
        "error": "",
        "attempts": F("attempts") + 1,
        "retry_at": None,
        "worker": worker_id(),
        "updated_at": timezone.now(),
    }
    if rows.update(**fields) < len(ids):  # an episode recorded before processing rows existed
        EpisodeProcessing.objects.bulk_create(
            [EpisodeProcessing(episode_id=pk) for pk in ids], ignore_conflicts=True
        )
        rows.update(**fields)


def _mark_stage(episode_ids: list[int], stage: str) -> None:
    EpisodeProcessing.objects.filter(episode_id__in=episode_ids).update(
        stage=stage, updated_at=timezone.now()
    )


def _record_done(outcomes: Sequence[tuple[Episode, Sequence[Decision]]]) -> None:
    """The episodes' outcomes in one commit: DONE, with their decisions. Once only: an outcome
    recorded already (in a commit that failed after it) is not logged twice. Part of the
    commit it is called in (no savepoint of its own): a failure there fails that commit."""
    if not outcomes:
        return
    with transaction.atomic(savepoint=False):
        finished = _finish([episode.pk for episode, _ in outcomes])
        _log_decisions([(e, decisions) for e, decisions in outcomes if e.pk in finished])


def _finish(episode_ids: list[int]) -> set[int]:
    """DONE, in one statement; returns the episodes that were not DONE already. Raw SQL: it
    runs on the import's hot path, where composing the ORM's statement costs more than running
    it."""
    table = connection.ops.quote_name(EpisodeProcessing._meta.db_table)
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    ids = ", ".join(["%s"] * len(episode_ids))
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET status = %s, stage = '', error = '', updated_at = %s "  # noqa: S608
            f"WHERE episode_id IN ({ids}) AND status <> %s RETURNING episode_id",
            [ProcessingStatus.DONE.value, now, *episode_ids, ProcessingStatus.DONE.value],
        )
        return {row[0] for row in cursor.fetchall()}


def _record_failed(episode: Episode, error: str) -> None:
    EpisodeProcessing.objects.filter(episode=episode).update(
        status=ProcessingStatus.FAILED, stage="", error=error[:4000], updated_at=timezone.now()
    )


def _leave_pending(episode_ids: list[int]) -> None:
    """Episodes marked running that were not reached: pending again, the attempt not made."""
    if episode_ids:
        EpisodeProcessing.objects.filter(
            episode_id__in=episode_ids, status=ProcessingStatus.RUNNING
        ).update(
            status=ProcessingStatus.PENDING,
            stage="",
            attempts=F("attempts") - 1,
            worker="",
            updated_at=timezone.now(),
        )


def ingest_recorded_episodes(episodes: Sequence[Episode], *, sync: bool = False) -> list[Episode]:
    """Run the pipeline for episodes recorded without queueing (`enqueue=False`): a file's, an
    export's. Imported messages are extracted several per model call (kg.pipeline.batch).

    With `sync`, in this process, one episode after another: a failure is recorded on its
    episode and the others go on. Otherwise queued for the workers once the current
    transaction commits (kg.ledger.episodes.queue_ingest: one task per run of imported
    messages, each working through the run in order).
    Returns the episodes that failed (always empty when queued).
    """
    if not sync:
        queue_ingest(episodes)
        return []
    failed = []
    done: set[int] = set()
    for i, episode in enumerate(episodes):
        if episode.pk in done:  # done by an earlier one's turn (it goes on past its own)
            continue
        try:
            episode_ingest(episode.pk)
        except Exception as exc:  # kept, marked failed with the reason; the rest go on
            logger.warning("episode %s failed: %s", episode.pk, exc)
            failed.append(episode)
        done |= _done_among([e.pk for e in episodes[i + 1 : i + 1 + DONE_LOOKAHEAD]])
    return failed


# How many of the next episodes `ingest_recorded_episodes` asks the state of at once.
DONE_LOOKAHEAD = 500


def _done_among(episode_ids: list[int]) -> set[int]:
    if not episode_ids:
        return set()
    return set(
        EpisodeProcessing.objects.filter(
            episode_id__in=episode_ids, status=ProcessingStatus.DONE
        ).values_list("episode_id", flat=True)
    )


# How often a writer waiting for its project's lease asks again. The lease is held for a few
# milliseconds per episode (the writes only), so the lock's own backoff (up to 250 ms between
# tries) would leave it free most of the time a writer sleeps.
LEASE_POLL_SECONDS = 0.005


@contextmanager
def _project_lease(project_id: int) -> Iterator[Lease]:
    """The project's lease (kg.pipeline.locks.project_lock's name), asked for every
    LEASE_POLL_SECONDS for up to WAIT_SECONDS; held, renewed and released by the lock. While
    another process replays the project's graph (kg_rebuild, an undo) the lease is given back
    and asked for again: a run written into a graph half replayed would be lost or doubled."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        with ExitStack() as stack:
            try:
                lease = stack.enter_context(named_lock(f"project-lock:{project_id}", timeout=0))
            except LockBusy:
                lease = None
            if lease is not None and not replayed_elsewhere(project_id):
                yield lease
                return
        if time.monotonic() > deadline:
            raise LockBusy(f"project {project_id} stayed busy for {WAIT_SECONDS} s")
        time.sleep(LEASE_POLL_SECONDS)


def _take_place_in_order(episode: Episode) -> Callable[[], None]:
    """The next place in the project's order of integration (under the lock, before the graph
    is written), in one statement. An episode that has a place keeps it: a retry after a crash
    mid-write (its writes were seen by the episodes after it) and a rebuild replaying the
    recorded order. Returns what gives a place taken here back (its first graph write failed)."""
    table = connection.ops.quote_name(EpisodeIntegration._meta.db_table)
    order = connection.ops.quote_name("order")
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET {order} = (SELECT COALESCE(MAX({order}), 0) + 1 "  # noqa: S608
            f"FROM {table} WHERE project_id = %s) WHERE episode_id = %s AND {order} IS NULL "
            f"RETURNING {order}",
            [episode.project_id, episode.pk],
        )
        taken = cursor.fetchone()
    if taken is None:
        return lambda: None

    def give_back() -> None:
        EpisodeIntegration.objects.filter(episode=episode).update(order=None)

    return give_back


# Rows of one INSERT: well within SQLite's limit on a statement's parameters.
DECISIONS_PER_STATEMENT = 80
_DECISION_COLUMNS = (
    "project_id",
    "episode_id",
    "node_type",
    "candidate_label",
    "method",
    "score",
    "compared_label",
    "node_uid",
    "node_number",
    "created_at",
)


def _log_decisions(outcomes: Sequence[tuple[Episode, Sequence[Decision]]]) -> None:
    # Append-only: a reprocessing records its own decisions; the earlier ones stay as they were.
    # Raw multi-row INSERTs (the ORM's bulk_create builds a model instance per row).
    rows = [(episode, d) for episode, decisions in outcomes for d in decisions]
    if not rows:
        return
    table = connection.ops.quote_name(ResolutionDecision._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(c) for c in _DECISION_COLUMNS)
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    row = "(" + ", ".join(["%s"] * len(_DECISION_COLUMNS)) + ")"
    for start in range(0, len(rows), DECISIONS_PER_STATEMENT):
        chunk = rows[start : start + DECISIONS_PER_STATEMENT]
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {table} ({columns}) VALUES "  # noqa: S608
                + ", ".join([row] * len(chunk)),
                [value for episode, d in chunk for value in _decision_row(episode, d, now)],
            )


def _decision_row(episode: Episode, d: Decision, now) -> list:
    return [
        episode.project_id,
        episode.pk,
        d.node_type,
        d.label[:500],
        d.method,
        d.score,
        d.compared[:500],
        d.node.uid,
        d.node.number,
        now,
    ]
