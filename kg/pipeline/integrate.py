"""Under the project lock: re-validate a proposal against the current state and write deltas.

No model call happens here. An episode loads only what it can touch: the nodes its proposal
names (by uid, index seeks), the candidates of a mention that was "new" when proposed (a twin
may have been written since), the edge between two nodes it relates, a functional relation's
other values from the same source, the edges into a value that may lose its last open edge,
and the opposite opinions on a subject it speaks about. Evidence is appended to the nodes it
touches; confidence is written as a field for the nodes whose count of open contradictions
changed. The result depends only on the proposal and the state it meets, so replaying the
recorded proposals in the recorded order rebuilds the same graph.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

from kg.graph import EdgeRecord, Evidence, NodeRecord, SupersessionRecord, store
from kg.graph.records import add_evidence, graph_time
from kg.models import Episode
from kg.ontology import RELATIONS, OntologyError, check_relation
from kg.pipeline import candidates
from kg.pipeline.confidence import confidence_from, passage_fingerprints
from kg.pipeline.contradictions import find_contradictions
from kg.pipeline.numbering import allocate_numbers
from kg.pipeline.proposal import Endpoint, Proposal, ProposedNode
from kg.pipeline.resolve import Mention, node_key, resolve_candidate
from kg.pipeline.taught import STEERED, steer
from kg.pipeline.temporal import place_functional_edge

NAMESPACE = uuid.UUID("0f7d3c1e-2a44-4b8e-9d7e-6a1c5e2b9f10")


@dataclass(frozen=True)
class Decision:
    node_type: str
    label: str
    method: str
    score: float | None
    compared: str
    node: NodeRecord


@dataclass
class Integration:
    created: list[int] = field(default_factory=list)
    merged: list[int] = field(default_factory=list)
    edges: int = 0
    contradictions: int = 0
    decisions: list[Decision] = field(default_factory=list)


@dataclass
class _Touched:
    nodes: dict[str, NodeRecord] = field(default_factory=dict)
    touched: set[str] = field(default_factory=set)
    edges: dict[str, EdgeRecord] = field(default_factory=dict)
    touched_edges: set[str] = field(default_factory=set)
    new_evidence: list[tuple[str, Evidence]] = field(default_factory=list)
    supersessions: list[SupersessionRecord] = field(default_factory=list)


def _evidence(episode: Episode, quote: str, start: int, end: int) -> Evidence:
    return Evidence(
        episode_uid=str(episode.uid),
        episode_number=episode.number,
        quote=quote,
        start=start,
        end=end,
        valid_at=graph_time(episode.valid_at),
        author=episode.author,
        passages=passage_fingerprints(episode.content, start, end),
    )


def _load(state: _Touched, scope, uids) -> None:
    missing = sorted({u for u in uids if u and u not in state.nodes})
    for node in store.nodes_by_uids(scope, missing):
        state.nodes[node.uid] = node


def integrate(
    episode: Episode,
    proposal: Proposal,
    check_lease: Callable[[], None] = lambda: None,
    before_writes: Callable[[], Callable[[], None]] = lambda: lambda: None,
) -> Integration:
    project = episode.project
    scope = project.graph_scope
    at = graph_time(episode.valid_at)
    proposal = steer(episode, proposal)  # what the project's corrections taught (under the lease)
    state = _Touched()
    result = Integration()
    wanted = {p.target_uid for p in proposal.nodes}
    for edge in proposal.edges:
        wanted |= {edge.source.uid, edge.target.uid}
    _load(state, scope, wanted)

    created_here: list[NodeRecord] = []
    merged_into: list[NodeRecord] = []
    local: dict[tuple[str, ...], str] = {}
    for proposed in proposal.nodes:
        node, decision = _settle(state, scope, project, proposed, created_here)
        if node is None:
            key = node_key(proposed.label)
            node = NodeRecord(
                uid=str(
                    uuid.uuid5(NAMESPACE, f"{scope.project}:{proposed.type}:{key}:{episode.uid}")
                ),
                number=0,  # allocated below, once every new node of the episode is known
                type=proposed.type,
                label=proposed.label,
                key=key,
                valid_at=at,
                subject=proposed.subject,
                stance=proposed.stance,
                value=proposed.value,
            )
            state.nodes[node.uid] = node
            created_here.append(node)
        else:
            key = node_key(proposed.label)
            if key != node.key and key not in node.alias_keys:
                node.aliases.append(proposed.label)
                node.alias_keys.append(key)
            node.valid_at = min(node.valid_at, at)
            merged_into.append(node)
        evidence = _evidence(episode, proposed.quote, proposed.start, proposed.end)
        if add_evidence(node, evidence):
            state.new_evidence.append((node.uid, evidence))
        state.touched.add(node.uid)
        local[tuple(proposed.key)] = node.uid
        result.decisions.append(
            Decision(proposed.type, proposed.label, *decision, node)  # type: ignore[arg-type]
        )

    numbers = allocate_numbers(episode, [n.uid for n in created_here])
    for node in created_here:
        node.number = numbers[node.uid]
        result.created.append(node.number)
    result.merged = [node.number for node in merged_into]

    _relate(state, scope, episode, proposal, local)
    partners = _contradictions(state, scope, project, at, result)

    for uid in state.touched_edges:
        edge = state.edges[uid]
        edge.confidence = confidence_from(edge.evidence)
    result.edges = len(state.touched_edges)

    check_lease()  # the fencing check: nothing is written by a holder that lost the lock
    # The record of the writes (the place in the order) precedes them; it is given back when
    # the first write fails, as nothing of the episode is in the graph then.
    give_back = before_writes()
    touched = [state.nodes[u] for u in sorted(state.touched)]
    # The index before the graph: an episode integrated after a crash mid-write finds the nodes
    # the graph already has, never makes twins of them (a node indexed but not written is
    # loaded as missing, and so proposed anew).
    try:
        candidates.index_nodes(project, touched)
        store.write_node_changes(scope, touched, state.new_evidence)
    except Exception:
        give_back()
        raise
    store.write_edges(scope, [state.edges[u] for u in sorted(state.touched_edges)])
    opened = 0
    for contradiction in partners:
        opened += store.open_contradiction(scope, contradiction)
    for supersession in state.supersessions:  # after the nodes: both ends must exist
        store.write_supersession(scope, supersession)
    # Confidence after the contradictions: a field write, for the nodes this episode touched
    # and the other ends of contradictions it saw.
    involved = state.touched | {c.a for c in partners} | {c.b for c in partners}
    _load(state, scope, involved)
    counts = store.open_contradiction_counts(scope, sorted(involved))
    store.set_confidence(
        scope,
        {
            uid: confidence_from(
                state.nodes[uid].evidence, counts.get(uid, 0), len(state.nodes[uid].confirmed_by)
            )
            for uid in involved
            if uid in state.nodes
        },
    )
    for uid in involved:
        if uid in state.nodes:
            state.nodes[uid].confidence = confidence_from(
                state.nodes[uid].evidence, counts.get(uid, 0), len(state.nodes[uid].confirmed_by)
            )
    result.contradictions = opened
    return result


def _settle(state, scope, project, proposed: ProposedNode, created_here: list[NodeRecord]):
    """The node a proposed mention is, re-checked now; None to create it."""
    mention = Mention(
        proposed.type, proposed.label, proposed.quote, proposed.stance, proposed.value
    )
    node = state.nodes.get(proposed.target_uid) if proposed.target_uid else None
    # A correction may send a mention to a closed node: a rejected one keeps it, hidden.
    if node is not None and (node.invalid_at is None or proposed.method == STEERED):
        return node, (proposed.method, proposed.score, proposed.compared)
    # Proposed as new (or its node is gone): what was written since may already hold it. Only
    # the certain rungs of the ladder apply here; the model is never asked under the lock.
    pool = {n.uid: n for n in candidates.candidates_for(project, proposed.type, proposed.label)}
    pool |= {n.uid: n for n in created_here if n.type == proposed.type}
    _load(state, scope, list(pool))  # indexed before a failed write: not in the graph, no match
    pool = {uid: node for uid, node in pool.items() if uid in state.nodes}
    decision = resolve_candidate(mention, list(pool.values()), lambda m, n: False)
    if decision.node is None:
        return None, ("new", decision.score, decision.compared)
    _load(state, scope, [decision.node.uid])
    node = state.nodes.get(decision.node.uid)
    if node is None:
        return None, ("new", decision.score, decision.compared)
    return node, (decision.method, decision.score, decision.compared)


def _end_uid(end: Endpoint, local: dict[tuple[str, ...], str]) -> str | None:
    if end.uid:
        return end.uid
    return local.get(tuple(end.local or ()))


def _relate(state: _Touched, scope, episode, proposal: Proposal, local) -> None:
    wanted: list[tuple[str, str, str, Evidence]] = []
    for proposed in proposal.edges:
        source, target = _end_uid(proposed.source, local), _end_uid(proposed.target, local)
        a, b = state.nodes.get(source or ""), state.nodes.get(target or "")
        if a is None or b is None or a.uid == b.uid or a.invalid_at or b.invalid_at:
            continue
        try:
            check_relation(proposed.relation, a.type, b.type)
        except OntologyError:
            continue
        evidence = _evidence(episode, proposed.quote, proposed.start, proposed.end)
        wanted.append((proposed.relation, a.uid, b.uid, evidence))
    if not wanted:
        return
    for edge in store.edges_between(scope, [(s, t) for _, s, t, _ in wanted]):
        state.edges.setdefault(edge.uid, edge)
    functional = [(s, r) for r, s, _, _ in wanted if RELATIONS[r].functional]
    for edge in store.edges_from_by_relation(scope, functional):
        state.edges.setdefault(edge.uid, edge)
    for relation, source, target, evidence in wanted:
        uid = str(uuid.uuid5(NAMESPACE, f"{scope.project}:{relation}:{source}:{target}"))
        edge = state.edges.get(uid)
        if edge is None:
            edge = EdgeRecord(
                uid=uid,
                relation=relation,
                source=source,
                target=target,
                valid_at=evidence.valid_at,
            )
            state.edges[uid] = edge
        edge.valid_at = min(edge.valid_at, evidence.valid_at)
        add_evidence(edge, evidence)
        state.touched_edges.add(uid)
        change = place_functional_edge(edge, list(state.edges.values()))
        for changed in change.edges:
            state.touched_edges.add(changed.uid)
            _close_superseded_target(state, scope, changed)
        state.supersessions.extend(change.supersessions)


def _close_superseded_target(state: _Touched, scope, edge: EdgeRecord) -> None:
    """The value of a functional relation (e.g. a product's market) that no open edge holds
    any more is itself no longer valid."""
    if not edge.invalid_at or not RELATIONS[edge.relation].functional:
        return
    for incoming in store.edges_into(scope, [edge.target]):
        state.edges.setdefault(incoming.uid, incoming)
    _load(state, scope, [edge.target])
    target = state.nodes.get(edge.target)
    if target is None:
        return
    incoming = [e for e in state.edges.values() if e.target == target.uid]
    if incoming and all(e.invalid_at for e in incoming):
        target.invalid_at = max(e.invalid_at for e in incoming if e.invalid_at)
        state.touched.add(target.uid)


def _contradictions(state: _Touched, scope, project, at: str, result: Integration):
    """Opposite opinions on a subject a touched node speaks about, from the index."""
    found = {}
    for uid in sorted(state.touched):
        node = state.nodes[uid]
        if not node.subject or node.stance not in {"positive", "negative"} or node.invalid_at:
            continue
        others = [
            n.uid
            for n in candidates.opinions_on(project, node.type, node.subject)
            if n.subject == node.subject and n.stance and n.stance != node.stance
        ]
        others += [
            u
            for u in state.touched
            if state.nodes[u].type == node.type and state.nodes[u].subject == node.subject
        ]
        _load(state, scope, others)
        active = [state.nodes[u] for u in sorted(set(others)) if u in state.nodes]
        for contradiction in find_contradictions(scope, [node], active, at):
            found[contradiction.uid] = contradiction
    return [found[uid] for uid in sorted(found)]
