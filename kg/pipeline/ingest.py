"""episode_ingest: the whole pipeline for one episode, idempotent (a retry converges).

extract (outside the lock: the slow model call) → under the project lock: resolve each
candidate → relate (in-episode relations + RelationDiscoverer) → time (functional relations)
→ contradictions → confidence → one write per kind of record → mark the episode processed.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass, field

from rapidfuzz import fuzz

from kg.graph import (
    EdgeRecord,
    EpisodeStub,
    Evidence,
    GraphScope,
    NodeRecord,
    SupersessionRecord,
    store,
)
from kg.graph.records import graph_time
from kg.llm import call_llm
from kg.llm.prompts import relation_discovery, resolution
from kg.models import Episode, EpisodeProcessing, ProcessingStatus, ResolutionDecision
from kg.ontology import RELATIONS, OntologyError, check_relation
from kg.pipeline.confidence import confidence_from
from kg.pipeline.contradictions import find_contradictions
from kg.pipeline.evidence import locate_quote
from kg.pipeline.extract import ExtractionOutcome, extract_episode
from kg.pipeline.locks import project_lock
from kg.pipeline.resolve import Mention, resolve_candidate
from kg.pipeline.revision import graph_changed
from kg.pipeline.temporal import place_functional_edge

logger = logging.getLogger("groundwork.pipeline")
NAMESPACE = uuid.UUID("0f7d3c1e-2a44-4b8e-9d7e-6a1c5e2b9f10")


@dataclass
class IngestReport:
    episode: int
    skipped: bool = False
    created: list[int] = field(default_factory=list)
    merged: list[int] = field(default_factory=list)
    edges: int = 0
    dropped: int = 0
    contradictions: int = 0


class _ProjectState:
    """What the project's graph holds, loaded once under the lock and updated in memory."""

    def __init__(self, scope: GraphScope) -> None:
        self.scope = scope
        self.nodes: dict[str, NodeRecord] = {n.uid: n for n in store.list_nodes(scope)}
        self.edges: dict[str, EdgeRecord] = {e.uid: e for e in store.list_edges(scope)}
        self.contradictions = {c.uid: c for c in store.list_contradictions(scope)}
        self.next_number = max((n.number for n in self.nodes.values()), default=0) + 1
        self.touched_nodes: set[str] = set()
        self.touched_edges: set[str] = set()
        self.supersessions: list[SupersessionRecord] = []

    def of_type(self, node_type: str) -> list[NodeRecord]:
        return [n for n in self.nodes.values() if n.type == node_type]


def episode_ingest(episode_id: int, *, force: bool = False) -> IngestReport:
    """Run the pipeline for one episode. `force` reprocesses (used by kg_rebuild)."""
    episode = Episode.objects.select_related("project__organization").get(pk=episode_id)
    processing, _ = EpisodeProcessing.objects.get_or_create(episode=episode)
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
    _set_status(processing, ProcessingStatus.RUNNING, stage="extract", attempt=True)
    try:
        outcome = extract_episode(episode)
        _set_status(processing, ProcessingStatus.RUNNING, stage="resolve")
        with project_lock(episode.project_id):
            report = _integrate(episode, scope, outcome)
            store.mark_episode_processed(scope, str(episode.uid))
    except Exception as exc:
        _set_status(processing, ProcessingStatus.FAILED, error=f"{type(exc).__name__}: {exc}")
        raise
    _set_status(processing, ProcessingStatus.DONE)
    graph_changed(episode.project_id, sender=Episode)
    return report


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
    processing.save()


def _evidence(episode: Episode, quote: str, start: int, end: int) -> Evidence:
    return Evidence(
        episode_uid=str(episode.uid),
        episode_number=episode.number,
        quote=quote,
        start=start,
        end=end,
        valid_at=graph_time(episode.valid_at),
        author=episode.author,
    )


def _add_evidence(record: NodeRecord | EdgeRecord, evidence: Evidence) -> None:
    if not any(
        e.episode_uid == evidence.episode_uid and e.start == evidence.start for e in record.evidence
    ):
        record.evidence.append(evidence)
        record.evidence.sort(key=lambda e: (e.valid_at, e.episode_number, e.start))


def _integrate(episode: Episode, scope: GraphScope, outcome: ExtractionOutcome) -> IngestReport:
    state = _ProjectState(scope)
    report = IngestReport(episode=episode.number, dropped=len(outcome.dropped))
    at = graph_time(episode.valid_at)
    uid_by_key: dict[tuple[str, str], str] = {}
    new_uids: list[str] = []

    for accepted in outcome.nodes:
        candidate = accepted.candidate
        mention = Mention(
            candidate.type, candidate.label, candidate.quote, candidate.stance, candidate.value
        )
        decision = resolve_candidate(
            mention, state.of_type(candidate.type), lambda m, n: _confirm(episode, m, n)
        )
        evidence = _evidence(episode, accepted.span.text, accepted.span.start, accepted.span.end)
        if decision.node is None:
            node = NodeRecord(
                uid=str(
                    uuid.uuid5(
                        NAMESPACE, f"{scope.project}:{candidate.type}:{mention.key}:{episode.uid}"
                    )
                ),
                number=state.next_number,
                type=candidate.type,
                label=candidate.label.strip(),
                key=mention.key,
                aliases=[],
                alias_keys=[],
                valid_at=at,
                subject=candidate.subject,
                stance=candidate.stance,
                value=candidate.value,
            )
            state.next_number += 1
            state.nodes[node.uid] = node
            new_uids.append(node.uid)
            report.created.append(node.number)
        else:
            node = decision.node
            if mention.key != node.key and mention.key not in node.alias_keys:
                node.aliases.append(candidate.label.strip())
                node.alias_keys.append(mention.key)
            node.valid_at = min(node.valid_at, at)
            report.merged.append(node.number)
        _add_evidence(node, evidence)
        state.touched_nodes.add(node.uid)
        uid_by_key[accepted.key] = node.uid
        _log_decision(
            episode,
            candidate.type,
            candidate.label,
            decision.method,
            decision.score,
            decision.compared,
            node,
        )

    for relation in outcome.relations:
        source, target = uid_by_key.get(relation.source), uid_by_key.get(relation.target)
        if source and target and source != target:
            _add_edge(
                state,
                episode,
                relation.relation,
                source,
                target,
                _evidence(episode, relation.span.text, relation.span.start, relation.span.end),
            )
    for edge in _discover(episode, state, new_uids):
        _add_edge(state, episode, edge[0], edge[1], edge[2], edge[3])

    touched = [state.nodes[u] for u in state.touched_nodes]
    active = [n for n in state.nodes.values() if n.invalid_at is None]
    new_contradictions = [
        c
        for c in find_contradictions(scope, touched, active, at)
        if c.uid not in state.contradictions
    ]
    for contradiction in new_contradictions:
        state.contradictions[contradiction.uid] = contradiction
        state.touched_nodes.update({contradiction.a, contradiction.b})
    report.contradictions = len(new_contradictions)

    _refresh_confidence(state)
    report.edges = len(state.touched_edges)
    store.write_nodes(scope, [state.nodes[u] for u in sorted(state.touched_nodes)])
    store.write_edges(scope, [state.edges[u] for u in sorted(state.touched_edges)])
    for contradiction in new_contradictions:
        store.write_contradiction(scope, contradiction)
    for supersession in state.supersessions:  # after the nodes: both ends must exist
        store.write_supersession(scope, supersession)
    return report


def _add_edge(
    state: _ProjectState,
    episode: Episode,
    relation: str,
    source: str,
    target: str,
    evidence: Evidence,
) -> None:
    a, b = state.nodes.get(source), state.nodes.get(target)
    if a is None or b is None:
        return
    try:
        check_relation(relation, a.type, b.type)
    except OntologyError:
        return
    uid = str(uuid.uuid5(NAMESPACE, f"{state.scope.project}:{relation}:{source}:{target}"))
    edge = state.edges.get(uid)
    if edge is None:
        edge = EdgeRecord(
            uid=uid, relation=relation, source=source, target=target, valid_at=evidence.valid_at
        )
        state.edges[uid] = edge
    edge.valid_at = min(edge.valid_at, evidence.valid_at)
    _add_evidence(edge, evidence)
    state.touched_edges.add(uid)
    change = place_functional_edge(edge, list(state.edges.values()))
    for changed in change.edges:
        state.touched_edges.add(changed.uid)
        _close_superseded_target(state, changed)
    state.supersessions.extend(change.supersessions)


def _close_superseded_target(state: _ProjectState, edge: EdgeRecord) -> None:
    """The value of a functional relation (e.g. a product's market) that no open edge holds
    any more is itself no longer valid."""
    if not edge.invalid_at or not RELATIONS[edge.relation].functional:
        return
    target = state.nodes[edge.target]
    incoming = [e for e in state.edges.values() if e.target == target.uid]
    if incoming and all(e.invalid_at for e in incoming):
        target.invalid_at = max(e.invalid_at for e in incoming if e.invalid_at)
        state.touched_nodes.add(target.uid)


DISCOVERY_CANDIDATES = 60  # existing nodes shown to the RelationDiscoverer at most


def _discovery_candidates(
    episode: Episode, state: _ProjectState, new_nodes: list[NodeRecord]
) -> list[NodeRecord]:
    """Existing active nodes that could link to a new one, those the message echoes first.

    Only types that form an allowed pair with a new node's type are offered, ranked by how
    closely their label appears in the message, so the prompt stays small in big projects.
    """
    new_uids = {n.uid for n in new_nodes}
    new_types = {n.type for n in new_nodes}
    partner_types: set[str] = set()
    for relation in RELATIONS.values():
        for source, target in relation.pairs:
            if source in new_types:
                partner_types.add(target.value)
            if target in new_types:
                partner_types.add(source.value)
    candidates = [
        n
        for n in state.nodes.values()
        if n.uid not in new_uids and n.invalid_at is None and n.type in partner_types
    ]
    text = episode.content.lower()
    scored = sorted(
        candidates,
        key=lambda n: (-fuzz.partial_ratio(n.label.lower(), text), n.number),
    )
    return scored[:DISCOVERY_CANDIDATES]


def _discover(episode: Episode, state: _ProjectState, new_uids: list[str]):
    """RelationDiscoverer: edges between this episode's new nodes and existing nodes."""
    new_nodes = [state.nodes[u] for u in new_uids]
    existing = _discovery_candidates(episode, state, new_nodes) if new_nodes else []
    if not new_nodes or not existing:
        return []
    by_number = {n.number: n for n in state.nodes.values()}
    brief = relation_discovery.NodeBrief
    request = relation_discovery.DiscoveryRequest(
        text=episode.content,
        new_nodes=[
            brief(number=n.number, type=n.type, label=n.label, aliases=n.aliases) for n in new_nodes
        ],
        existing_nodes=[
            brief(number=n.number, type=n.type, label=n.label, aliases=n.aliases) for n in existing
        ],
    )
    answer = call_llm(
        relation_discovery.OPERATION, request, project=episode.project, episode=episode
    ).value
    found = []
    for proposal in answer.edges:
        source, target = by_number.get(proposal.source), by_number.get(proposal.target)
        span = locate_quote(proposal.quote, episode.content)
        if source is None or target is None or span is None:
            continue  # unknown number or invented quote: never written
        if source.uid not in new_uids and target.uid not in new_uids:
            continue
        found.append(
            (
                proposal.relation,
                source.uid,
                target.uid,
                _evidence(episode, span.text, span.start, span.end),
            )
        )
    return found


def _confirm(episode: Episode, mention: Mention, node: NodeRecord) -> bool:
    request = resolution.ResolutionRequest.about(mention, node, episode.project.language)
    return call_llm(
        resolution.OPERATION, request, project=episode.project, episode=episode
    ).value.same


def _refresh_confidence(state: _ProjectState) -> None:
    open_by_node: dict[str, int] = {}
    for c in state.contradictions.values():
        if c.status == "open":
            for uid in (c.a, c.b):
                open_by_node[uid] = open_by_node.get(uid, 0) + 1
    for uid in list(state.touched_nodes):
        node = state.nodes[uid]
        node.confidence = confidence_from(node.evidence, open_by_node.get(uid, 0))
    for uid in state.touched_edges:
        edge = state.edges[uid]
        edge.confidence = confidence_from(edge.evidence)


def _log_decision(episode, node_type, label, method, score, compared, node: NodeRecord) -> None:
    # Append-only: a reprocessing records its own decision; the earlier one stays as it was.
    ResolutionDecision.objects.create(
        episode=episode,
        node_type=node_type,
        candidate_label=label[:500],
        project=episode.project,
        method=method,
        score=score,
        compared_label=compared[:500],
        node_uid=node.uid,
        node_number=node.number,
    )


def refresh_confidence(scope: GraphScope, uids: list[str]) -> None:
    """Recompute the confidence of some nodes (after a contradiction on them is resolved)."""
    nodes = store.nodes_by_uids(scope, uids)
    open_contradictions = [c for c in store.list_contradictions(scope) if c.status == "open"]
    for node in nodes:
        touching = sum(node.uid in (c.a, c.b) for c in open_contradictions)
        node.confidence = confidence_from(node.evidence, touching)
    store.write_nodes(scope, nodes)
