"""What the API (and the chat pages) read from a project's graph, as plain typed functions.

Every function takes a Project the caller already checked membership for (kg.tenancy), and
reads only that project's graph scope. The lists are read a page at a time: the graph filters,
orders and cuts them (kg.reading.stored_pages), and callers paginate them like any list.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.urls import reverse

from kg.graph import ContradictionRecord, EdgeRecord, NodeRecord, store
from kg.graph.records import ListedNode
from kg.graph.records import NodeRef as StoredNodeRef
from kg.models import Episode, Project
from kg.ontology import NODE_TYPES, RELATIONS
from kg.pipeline.confidence import explain
from kg.reading.context import QUESTIONS, Gap, artifact_context
from kg.reading.stored_pages import StoredRows
from kg.tenancy import projects_for_user

EXCERPT_MARGIN = 120
# What a view names a node by: a whole node, or what a list reads of one.
Named = NodeRecord | StoredNodeRef


class ResourceNotFound(LookupError):
    """Not in this project (or not visible to the caller): the API answers 404."""


class NodeNotFound(ResourceNotFound):
    pass


class ContradictionNotFound(ResourceNotFound):
    pass


class ContradictionAlreadyResolved(ValueError):
    pass


class UnknownFilter(ValueError):
    """A filter value outside what the ontology knows; the message lists what is allowed."""


class NotOneOfTheTwo(ValueError):
    """An answer's `keep` names neither statement of the contradiction."""


@dataclass(frozen=True)
class NodeRef:
    number: int
    type: str
    label: str


@dataclass(frozen=True)
class EvidenceItem:
    episode_number: int
    episode_uid: str
    quote: str
    start: int
    end: int
    valid_at: str
    author: str
    kind: str
    source_ref: dict
    excerpt: str
    message_url: str


@dataclass(frozen=True)
class EdgeView:
    uid: str
    relation: str
    direction: str  # out | in, seen from the node asked about ("" in project-wide lists)
    source: NodeRef
    target: NodeRef
    confidence: int
    valid_at: str
    invalid_at: str | None
    valid: bool
    quotes: list[str]


@dataclass(frozen=True)
class ContradictionView:
    uid: str
    subject: str
    status: str
    a: NodeRef
    b: NodeRef
    quote_a: str
    quote_b: str
    opened_at: str
    resolved_at: str | None
    resolution: str
    question: str
    # What the answer decided (node numbers) and the message that answered.
    kept: int | None = None
    superseded: int | None = None
    answer_message: int | None = None


@dataclass(frozen=True)
class NodeTrail:
    """One node with everything that backs it: the evidence trail, edges and contradictions."""

    node: NodeRecord
    evidence: list[EvidenceItem]
    confidence_explanation: str
    edges: list[EdgeView] = field(default_factory=list)
    contradictions: list[ContradictionView] = field(default_factory=list)

    @property
    def sources(self) -> int:
        return len({e.episode_uid for e in self.node.evidence})


def author_name(user) -> str:
    """How a user is named as an episode's author."""
    return (user.get_full_name() or user.get_username())[:200]


def message_url(project: Project, episode_number: int) -> str:
    """The stable page of a message: the whole message in the research view, its quotes
    marked (built from the URL's name, never stored)."""
    return reverse("research:message", args=[project.slug, episode_number])


def _ref(node: Named) -> NodeRef:
    return NodeRef(number=node.number, type=node.type, label=node.label)


def list_project_nodes(
    project: Project,
    node_type: str | None = None,
    valid: bool | None = None,
    min_confidence: int | None = None,
) -> StoredRows[ListedNode]:
    if node_type and node_type not in NODE_TYPES:
        raise UnknownFilter(f"unknown node type {node_type!r}; use one of: {', '.join(NODE_TYPES)}")
    scope = project.graph_scope
    query = store.NodeListQuery(type=node_type or "", valid=valid, low=min_confidence)
    return StoredRows(
        lambda: store.count_listed_nodes(scope, query),
        lambda skip, limit: store.node_page(scope, query, skip, limit),
    )


def node_trail(project: Project, number: int) -> NodeTrail:
    scope = project.graph_scope
    node = store.node_by_number(scope, number)
    if node is None:
        raise NodeNotFound(f"node #{number} not found in project {project.slug!r}")
    episodes = {
        str(e.uid): e
        for e in Episode.objects.filter(project=project, uid__in=node.episode_uids).only(
            "uid", "number", "kind", "author", "source_ref", "content"
        )
    }
    evidence = [_evidence_item(project, e, episodes.get(e.episode_uid)) for e in node.evidence]
    # Only the node's own edges and contradictions, and the nodes at their other ends.
    node_edges = store.edges_of_node(scope, node.uid)
    ends = {uid for edge in node_edges for uid in (edge.source, edge.target)}
    neighbours: dict[str, NodeRecord] = {n.uid: n for n in store.node_summaries(scope, ends)}
    edges = [
        _edge_view(edge, neighbours, "out" if edge.source == node.uid else "in")
        for edge in node_edges
        if edge.source in neighbours and edge.target in neighbours
    ]
    contradictions = [
        _contradiction_view(project, record, {a.uid: a, b.uid: b})
        for record, a, b in store.contradictions_of_node(scope, node.uid)
    ]
    open_count = sum(1 for c in contradictions if c.status == "open")
    return NodeTrail(
        node=node,
        evidence=evidence,
        confidence_explanation=explain(
            node.evidence, open_count, node.confirmed_by, node.status == "rejected"
        ),
        edges=edges,
        contradictions=contradictions,
    )


def _evidence_item(project: Project, evidence, episode: Episode | None) -> EvidenceItem:
    content = episode.content if episode else ""
    start = max(0, evidence.start - EXCERPT_MARGIN)
    end = min(len(content), evidence.end + EXCERPT_MARGIN)
    return EvidenceItem(
        episode_number=evidence.episode_number,
        episode_uid=evidence.episode_uid,
        quote=evidence.quote,
        start=evidence.start,
        end=evidence.end,
        valid_at=evidence.valid_at,
        author=episode.author if episode else evidence.author,
        kind=episode.kind if episode else "",
        source_ref=episode.source_ref if episode else {},
        excerpt=content[start:end],
        message_url=message_url(project, evidence.episode_number),
    )


def _edge_view(edge: EdgeRecord, nodes: dict[str, Named], direction: str = "") -> EdgeView:
    return EdgeView(
        uid=edge.uid,
        relation=edge.relation,
        direction=direction,
        source=_ref(nodes[edge.source]),
        target=_ref(nodes[edge.target]),
        confidence=edge.confidence,
        valid_at=edge.valid_at,
        invalid_at=edge.invalid_at,
        valid=edge.invalid_at is None,
        quotes=[e.quote for e in edge.evidence],
    )


def list_project_edges(
    project: Project, relation: str | None = None, valid: bool | None = None
) -> StoredRows[EdgeView]:
    if relation and relation not in RELATIONS:
        raise UnknownFilter(
            f"unknown relation {relation!r}; use one of: {', '.join(sorted(RELATIONS))}"
        )
    scope = project.graph_scope

    def page(skip: int, limit: int) -> list[EdgeView]:
        return [
            _edge_view(edge, {source.uid: source, target.uid: target})
            for edge, source, target in store.edge_page(scope, relation or "", valid, skip, limit)
        ]

    return StoredRows(lambda: store.count_edges(scope, relation or "", valid), page)


def _question(project: Project, a: Named, b: Named) -> str:
    texts = QUESTIONS.get(project.language, QUESTIONS["en"])
    return texts["contradiction"].format(a=a.label, b=b.label)


def _contradiction_view(
    project: Project, record: ContradictionRecord, nodes: dict[str, Named]
) -> ContradictionView:
    a, b = nodes[record.a], nodes[record.b]
    return ContradictionView(
        uid=record.uid,
        subject=record.subject,
        status=record.status,
        a=_ref(a),
        b=_ref(b),
        quote_a=record.quote_a,
        quote_b=record.quote_b,
        opened_at=record.opened_at,
        resolved_at=record.resolved_at,
        resolution=record.resolution,
        question=_question(project, a, b),
        kept=_number_of(record.kept, a, b),
        superseded=_number_of(record.superseded, a, b),
        answer_message=record.answer_number,
    )


def _number_of(uid: str, a: Named, b: Named) -> int | None:
    return next((n.number for n in (a, b) if uid and n.uid == uid), None)


CONTRADICTION_STATUSES = ("open", "resolved")


def list_project_contradictions(
    project: Project, status: str | None = None
) -> StoredRows[ContradictionView]:
    if status and status not in CONTRADICTION_STATUSES:
        raise UnknownFilter(f"unknown status {status!r}; use open or resolved")
    scope = project.graph_scope

    def page(skip: int, limit: int) -> list[ContradictionView]:
        return [
            _contradiction_view(project, record, {a.uid: a, b.uid: b})
            for record, a, b in store.contradiction_page(scope, status or "", skip, limit)
        ]

    return StoredRows(lambda: store.count_contradictions(scope, status or ""), page)


def contradiction(project: Project, uid: str) -> ContradictionView:
    found = store.contradiction_by_uid(project.graph_scope, uid)
    if found is None:
        raise ContradictionNotFound(f"contradiction {uid!r} not found in project {project.slug!r}")
    record, a, b = found
    return _contradiction_view(project, record, {a.uid: a, b.uid: b})


def resolve_contradiction(
    project: Project,
    uid: str,
    answer: str,
    author: str,
    *,
    keep: int | str | None = None,
    enqueue: bool = True,
) -> Episode:
    """Record the answer as an episode that resolves an open contradiction: the statement kept
    (`keep`, a node number, or the one the answer sides with) stays valid, the other is
    superseded by it with the answer as evidence.

    A resolved contradiction keeps its first answer: a second one is refused.
    """
    from kg.pipeline.contradictions import (
        ContradictionClosed,
        UnknownStatement,
        resolve_with_answer,
    )

    # An empty answer is refused by record_episode before anything is written.
    try:
        return resolve_with_answer(project, uid, answer, author, keep=keep, enqueue=enqueue)
    except ContradictionClosed as exc:
        raise ContradictionAlreadyResolved(str(exc)) from None
    except UnknownStatement as exc:
        raise NotOneOfTheTwo(str(exc)) from None
    except LookupError:
        raise ContradictionNotFound(
            f"contradiction {uid!r} not found in project {project.slug!r}"
        ) from None


def project_gaps(project: Project) -> list[Gap]:
    return artifact_context(project).gaps


class TaskBackendUnavailable(RuntimeError):
    pass


@dataclass(frozen=True)
class TaskStatus:
    id: str
    state: str
    ready: bool
    successful: bool | None
    error: str


# Apps that start tasks for users say which project a task id belongs to (kg imports none of
# them): the chat's replies, the PRD generations.
TaskProjectFinder = Callable[[str], Project | None]
_task_finders: list[TaskProjectFinder] = []


def register_task_finder(finder: TaskProjectFinder) -> None:
    if finder not in _task_finders:
        _task_finders.append(finder)


def task_status(task_id: str, user) -> TaskStatus:
    """A task's state from the result backend, for a member of the project it works for;
    any other id (unknown, or another project's) is not found."""
    from celery.result import AsyncResult

    from config.celery import app

    project = next((p for find in _task_finders if (p := find(task_id)) is not None), None)
    if project is None or not projects_for_user(user).filter(pk=project.pk).exists():
        raise ResourceNotFound(f"no task {task_id} of your projects")
    result = AsyncResult(task_id, app=app)
    try:
        state = result.state
        ready = state in {"SUCCESS", "FAILURE", "REVOKED"}
        failure = result.result if state == "FAILURE" else None
    except Exception as exc:  # redis/kombu errors differ by backend; all mean "cannot tell"
        raise TaskBackendUnavailable(f"the task result backend is unavailable: {exc}") from exc
    return TaskStatus(
        id=task_id,
        state=state,
        ready=ready,
        successful=(state == "SUCCESS") if ready else None,
        error=f"{type(failure).__name__}: {failure}"[:300] if failure is not None else "",
    )
