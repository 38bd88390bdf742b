"""Step 6, contradictions: opposing active statements on the same subject.

Two active nodes of one type with the same subject and opposite stances (e.g. "price is the
main factor" vs "price does not matter") become a CONTRADICTS link, open until a user answers.
The same subject word is not enough: when both statements narrow it, the narrowed subjects must
mean the same ("speed of payout matters" does not oppose "delivery speed does not matter";
kg.language.meaning.same_subject).
"""

from __future__ import annotations

import re
import uuid

from kg.graph import ContradictionRecord, GraphScope, NodeRecord
from kg.language.meaning import same_subject

SUBJECT_QUOTES = 3  # quotes read for how a statement narrows its subject
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
                and same_subject(_said(node), _said(other), node.subject)
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


def _said(node: NodeRecord) -> list[str]:
    """A statement's label and the first words it was quoted from."""
    return [node.label, *(e.quote for e in node.evidence[:SUBJECT_QUOTES])]


class ContradictionClosed(ValueError):
    """The contradiction was already resolved; its first answer stands."""


class UnknownStatement(ValueError):
    """`keep` names neither of the contradiction's two statements."""


ANSWER_QUOTE_CHARS = 300  # the answer's words the decision quotes (from its start, verbatim)
_NUMBER = re.compile(r"#(\d+)\b")
# A negation in the answer sides with the statement of negative stance ("price does not
# matter"), none with the positive one; used only when the answer names neither statement.
_NEGATION = re.compile(
    r"\b(?:not|no|never|hardly|barely|nothing|none|neither|nor|cannot)\b|n't\b"
    r"|(?<![а-яё])(?:не|нет|ни|никогда|вовсе не)(?![а-яё])",
    re.IGNORECASE,
)
_SPACES = re.compile(r"\s+")


def _plain(text: str) -> str:
    return _SPACES.sub(" ", text.casefold()).strip(" .!?,;:")


def kept_by_answer(answer: str, a: NodeRecord, b: NodeRecord) -> NodeRecord:
    """Which of two opposing statements the answer keeps, when the user did not say it with a
    choice: the one it names by number (#12), else the one whose words it repeats, else the
    one whose stance it shares (a negation sides with the negative statement)."""
    numbers = {int(n) for n in _NUMBER.findall(answer)}
    named = [n for n in (a, b) if n.number in numbers]
    if len(named) == 1:
        return named[0]
    text = _plain(answer)
    repeated = [n for n in (a, b) if _plain(n.label) and _plain(n.label) in text]
    if len(repeated) == 1:
        return repeated[0]
    stance = "negative" if _NEGATION.search(answer) else "positive"
    shared = [n for n in (a, b) if n.stance == stance]
    return shared[0] if len(shared) == 1 else max((a, b), key=lambda n: n.number)


def _chosen(keep: int | str, a: NodeRecord, b: NodeRecord) -> NodeRecord:
    for node in (a, b):
        if str(keep) in (node.uid, str(node.number), f"#{node.number}"):
            return node
    raise UnknownStatement(
        f"keep must be #{a.number} or #{b.number}, the two statements that disagree"
    )


def answer_quote(answer: str) -> str:
    """The answer's own words for the decision's citation: whole, or its start cut at a word."""
    if len(answer) <= ANSWER_QUOTE_CHARS:
        return answer
    cut = answer.rfind(" ", 0, ANSWER_QUOTE_CHARS)
    return answer[: cut if cut > 0 else ANSWER_QUOTE_CHARS].rstrip()


def resolve_with_answer(
    project,
    contradiction_uid: str,
    answer: str,
    author: str,
    *,
    keep: int | str | None = None,
    enqueue: bool = True,
):
    """Record a user's answer as an episode and let it decide the contradiction.

    The statement kept is `keep` (a node number or uid of one of the two) or, without it, the
    one the answer sides with (kept_by_answer). The other statement stops being valid at the
    answer's time and is SUPERSEDED_BY the kept one, with the answer episode as the evidence;
    the contradiction is resolved, citing the episode. Returns the new episode. The answer goes
    through the pipeline like any message, so what it says becomes evidence too.
    """
    from django.db import transaction

    from kg.graph import store
    from kg.ledger.episodes import EpisodeInput, record_episode
    from kg.pipeline.confidence import refresh_confidence
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
        record = known[contradiction_uid]
        if record.status != "open":
            raise ContradictionClosed(
                f"contradiction {contradiction_uid!r} was already resolved ({record.resolution})"
            )
        nodes = {n.uid: n for n in store.nodes_by_uids(scope, [record.a, record.b])}
        if record.a not in nodes or record.b not in nodes:
            raise LookupError(
                f"contradiction {contradiction_uid!r} not found in project {project.slug}"
            )
        a, b = nodes[record.a], nodes[record.b]
        kept = _chosen(keep, a, b) if keep not in (None, "") else kept_by_answer(answer, a, b)
        lost = b if kept is a else a
        # Recorded in the same transaction: a refused answer leaves no episode behind.
        episode = record_episode(
            project,
            EpisodeInput(
                content=answer,
                author=author,
                source_ref={"resolves": contradiction_uid, "keeps": kept.uid},
            ),
            enqueue=enqueue,
        )
        lease.check()
        if not apply_answer(project, record, kept, lost, episode):
            raise ContradictionClosed(f"contradiction {contradiction_uid!r} was already resolved")
        refresh_confidence(scope, [record.a, record.b])
    graph_changed(project, sender=type(project))
    return episode


def apply_answer(project, record, kept: NodeRecord, lost: NodeRecord, episode) -> bool:
    """The graph side of an answer (under the project lock): `lost` stops being valid at the
    answer's time, SUPERSEDED_BY `kept` with the answer as its evidence, and the contradiction is
    resolved with what was decided. False when the contradiction was not open any more."""
    from kg.graph import SupersessionRecord, store
    from kg.graph.records import graph_time
    from kg.pipeline.candidates import index_nodes

    scope = project.graph_scope
    at = graph_time(episode.valid_at)
    quote = answer_quote(episode.content)
    # The losing statement first, the resolution last: a failure in between leaves the
    # contradiction open, and answering again converges (both writes are idempotent).
    if lost.invalid_at is None or lost.invalid_at > at:
        lost.invalid_at = at
        store.write_node_changes(scope, [lost], [])
        index_nodes(project, [lost])
    store.write_answer_supersession(
        scope,
        SupersessionRecord(
            old=lost.uid,
            new=kept.uid,
            relation=f"answer in message #{episode.number}",
            at=at,
            episode_uid=str(episode.uid),
            episode_number=episode.number,
            quote=quote,
        ),
    )
    return store.resolve_contradiction(
        scope,
        record.uid,
        at,
        f"episode #{episode.number}: {episode.content[:500]}",
        kept=kept.uid,
        superseded=lost.uid,
        answer_episode=str(episode.uid),
        answer_number=episode.number,
        answer_quote=quote,
    )


def replay_answer(project, episode) -> bool:
    """kg_rebuild: an answer episode decides its contradiction again, as recorded in its source
    reference (which contradiction, which statement it kept), when the replayed graph holds
    that contradiction open with both statements. False when there is nothing to decide."""
    from kg.graph import store
    from kg.pipeline.confidence import refresh_confidence
    from kg.pipeline.locks import project_lock

    ref = episode.source_ref or {}
    uid, kept_uid = ref.get("resolves"), ref.get("keeps")
    if not uid or not kept_uid:
        return False  # answered before decisions were recorded: nothing to replay
    scope = project.graph_scope
    with project_lock(project.pk) as lease:
        record = next((c for c in store.list_contradictions(scope) if c.uid == uid), None)
        if record is None or record.status != "open" or kept_uid not in (record.a, record.b):
            return False
        nodes = {n.uid: n for n in store.nodes_by_uids(scope, [record.a, record.b])}
        if len(nodes) != 2:
            return False
        lost_uid = record.b if kept_uid == record.a else record.a
        lease.check()
        decided = apply_answer(project, record, nodes[kept_uid], nodes[lost_uid], episode)
        refresh_confidence(scope, [record.a, record.b])
    return decided
