"""Step 6, contradictions: opposing active statements on the same subject.

Two active nodes of one type with the same subject and opposite stances (e.g. "price is the
main factor" vs "price does not matter") become a CONTRADICTS link, open until a user answers.
"""

from __future__ import annotations

import uuid

from kg.graph import ContradictionRecord, GraphScope, NodeRecord

NAMESPACE = uuid.UUID("5b0c1b52-7f0e-4a51-9a55-2f1b8f3f0c11")


def contradiction_uid(scope: GraphScope, a: str, b: str) -> str:
    first, second = sorted((a, b))
    return str(uuid.uuid5(NAMESPACE, f"{scope.project}:contradicts:{first}:{second}"))


def find_contradictions(
    scope: GraphScope, touched: list[NodeRecord], active: list[NodeRecord], at: str
) -> list[ContradictionRecord]:
    found: dict[str, ContradictionRecord] = {}
    for node in touched:
        if not node.subject or node.stance not in {"positive", "negative"}:
            continue
        for other in active:
            if (
                other.uid != node.uid
                and other.type == node.type
                and other.invalid_at is None
                and other.subject == node.subject
                and other.stance
                and other.stance != node.stance
            ):
                a, b = sorted((node, other), key=lambda n: n.number)
                uid = contradiction_uid(scope, a.uid, b.uid)
                found[uid] = ContradictionRecord(
                    uid=uid,
                    a=a.uid,
                    b=b.uid,
                    subject=node.subject,
                    quote_a=a.evidence[0].quote if a.evidence else "",
                    quote_b=b.evidence[0].quote if b.evidence else "",
                    opened_at=at,
                )
    return list(found.values())


class ContradictionClosed(ValueError):
    """The contradiction was already resolved; its first answer stands."""


def resolve_with_answer(
    project, contradiction_uid: str, answer: str, author: str, *, enqueue: bool = True
):
    """Record a user's answer as an episode and mark the contradiction resolved by it.

    Returns the new episode. The answer goes through the pipeline like any message, so what it
    says becomes evidence too; the contradiction's resolution cites the episode number.
    """
    from django.db import transaction

    from kg.episodes import EpisodeInput, record_episode
    from kg.graph import store
    from kg.graph.records import graph_time
    from kg.pipeline.ingest import refresh_confidence
    from kg.pipeline.locks import project_lock
    from kg.pipeline.revision import graph_changed

    scope = project.graph_scope
    # Under the project lock, like every graph write, and conditional on the contradiction
    # being still open: of two answers, the first stands and the second is refused.
    with project_lock(project.pk) as lease, transaction.atomic():
        known = {c.uid: c for c in store.list_contradictions(scope)}
        if contradiction_uid not in known:
            raise LookupError(
                f"contradiction {contradiction_uid!r} not found in project {project.slug}"
            )
        if known[contradiction_uid].status != "open":
            resolution = known[contradiction_uid].resolution
            raise ContradictionClosed(
                f"contradiction {contradiction_uid!r} was already resolved ({resolution})"
            )
        # Recorded in the same transaction: a refused answer leaves no episode behind.
        episode = record_episode(
            project,
            EpisodeInput(content=answer, author=author, source_ref={"resolves": contradiction_uid}),
            enqueue=enqueue,
        )
        lease.check()
        resolved = store.resolve_contradiction(
            scope,
            contradiction_uid,
            graph_time(episode.valid_at),
            f"episode #{episode.number}: {answer[:500]}",
        )
        if not resolved:
            raise ContradictionClosed(f"contradiction {contradiction_uid!r} was already resolved")
        refresh_confidence(scope, [known[contradiction_uid].a, known[contradiction_uid].b])
    graph_changed(project, sender=type(project))
    return episode
