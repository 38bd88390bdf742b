"""Under the project lock: re-validate a proposal against the current state and write deltas.

No model call happens here. An episode loads only what it can touch: the nodes its proposal
names (by uid, index seeks), the candidates of a mention that was "new" when proposed (a twin
may have been written since), the edge between two nodes it relates, a functional relation's
other values from the same source, the edges into a value that may lose its last open edge,
and the opposite opinions on a subject it speaks about. Records are read without their
evidence: the copy this process kept of the version they carry is used, else it is read once
(kg.pipeline.evidence_cache); episodes integrated in one hold of the lease take the nodes the
ones before them read or wrote from the hold (`Hold`). New evidence is appended to the stored
lists, and the count of independent sources is kept item by item, so an episode's cost does
not grow with how much was said before. Confidence goes with the nodes' write, unless a
contradiction may open here (then it is a field write after). The writes are a handful of
round trips: the nodes with their mentions, the edges of each relation. The result depends
only on the proposal and the state it meets, so replaying the recorded proposals in the
recorded order rebuilds the same graph.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from django.db import transaction

from kg.graph import EdgeRecord, Evidence, NodeRecord, SupersessionRecord, store
from kg.graph.records import add_evidence, graph_time
from kg.models import Correction, Episode, Project
from kg.ontology import RELATIONS, OntologyError, check_relation
from kg.pipeline import candidates, evidence_cache
from kg.pipeline.confidence import (
    SourceCount,
    answer_fingerprint,
    confidence_of,
    passage_fingerprints,
)
from kg.pipeline.contradictions import find_contradictions
from kg.pipeline.evidence_cache import KeptEvidence
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
    open_contradictions: dict[str, int] = field(default_factory=dict)  # as loaded, by uid
    new_edge_evidence: list[tuple[str, Evidence]] = field(default_factory=list)
    # Records are loaded without their evidence; it is added (kept, else read) for the records
    # that need it, with the count of its independent sources, by uid.
    versions: dict[str, str | None] = field(default_factory=dict)
    sources: dict[str, SourceCount] = field(default_factory=dict)
    # The records given their evidence (from this process's copy, or read), with its version:
    # what the episode does not write goes back to the copy as it was.
    given: dict[str, str | None] = field(default_factory=dict)
    hold: Hold | None = None


class Hold:
    """What one hold of the project lease knows of the project's stores, carried from one
    episode to the next: every writer of the project's nodes (and of the candidate index)
    holds the lease and checks it just before writing, so while it is held nothing changes
    them but the episodes integrated in it. A node known here (as it was written or read,
    without its evidence: its version and its open contradictions with it; None: known not
    to be in the graph) is not read again; the candidate index rows likewise (`filed`).
    Kept for one hold only; forgotten whole when an episode's integration fails.
    """

    def __init__(self, project: Project) -> None:
        self.project = project
        self.filed = candidates.FiledNodes(project)
        self.nodes: dict[str, tuple[NodeRecord, str | None, int] | None] = {}

    def read_ahead(self, named: Iterable[str]) -> None:
        """Know the nodes (graph and index) a run of episodes names or would create: a round
        trip to each for the run instead of one per episode."""
        uids = sorted(set(named))
        self.filed.read(uids)
        self._read(self.project.graph_scope, [u for u in uids if u not in self.nodes])

    def _read(self, scope, uids: list[str]) -> list[tuple[NodeRecord, str | None, int]]:
        rows = store.nodes_without_evidence(scope, uids) if uids else []
        for uid in uids:
            self.nodes[uid] = None
        for node, version, open_contradictions in rows:
            self.nodes[node.uid] = (_bare(node), version, open_contradictions)
        return rows

    def load(self, state: _Touched, scope, uids: list[str]) -> None:
        """The nodes into the state: the ones known from here, the others read (and known)."""
        unknown = []
        for uid in uids:
            if uid not in self.nodes:
                unknown.append(uid)
            elif (known := self.nodes[uid]) is not None:
                _put(state, _bare(known[0]), known[1], known[2])
        for node, version, open_contradictions in self._read(scope, unknown):
            _put(state, node, version, open_contradictions)

    def written(self, state: _Touched, uids: Iterable[str], versions: dict[str, str]) -> None:
        """The nodes as this episode left them in the graph (written, or their confidence or
        open contradictions changed)."""
        for uid in uids:
            node = state.nodes[uid]
            version = versions.get(uid, state.versions.get(uid))
            self.nodes[uid] = (_bare(node), version, state.open_contradictions.get(uid, 0))

    def forget(self) -> None:
        self.filed.forget()
        self.nodes.clear()


def _bare(node: NodeRecord) -> NodeRecord:
    """A copy of the node without its evidence (as read without it)."""
    fields = {
        name: list(value) if isinstance(value, list) else value
        for name, value in node.__dict__.items()
        if name != "evidence"
    }
    return NodeRecord.model_construct(**fields, evidence=[])


def _put(state: _Touched, node: NodeRecord, version: str | None, open_contradictions: int) -> None:
    state.nodes[node.uid] = node
    state.versions[node.uid] = version
    state.open_contradictions[node.uid] = open_contradictions


def evidence_at(episode: Episode, quote: str, start: int, end: int) -> Evidence:
    """The evidence of a quote of the episode (its words at start:end), as the graph keeps it."""
    return Evidence(
        episode_uid=str(episode.uid),
        episode_number=episode.number,
        quote=quote,
        start=start,
        end=end,
        valid_at=graph_time(episode.valid_at),
        author=episode.author,
        passages=passage_fingerprints(episode.content, start, end)
        + [f for f in [answer_fingerprint(episode.author, episode.content, start, end)] if f],
    )


def _load(state: _Touched, scope, uids) -> None:
    """Bring the nodes not loaded yet into the state (without their evidence), with their
    open contradictions: as the hold knows them, else read."""
    missing = sorted({u for u in uids if u and u not in state.nodes})
    if state.hold is not None:
        state.hold.load(state, scope, missing)
        return
    for node, version, open_contradictions in store.nodes_without_evidence(scope, missing):
        _put(state, node, version, open_contradictions)


def _with_evidence(state: _Touched, scope, uids) -> None:
    """Give the loaded nodes among `uids` their evidence: the copy this process kept of the
    version they carry, else read (one round trip for all)."""
    _give_evidence(
        state,
        scope,
        uids,
        state.nodes,
        lambda unread: store.node_evidence(scope, [r.uid for r in unread]),
    )


def _edges_with_evidence(state: _Touched, scope, uids) -> None:
    """The same for loaded edges."""
    _give_evidence(
        state, scope, uids, state.edges, lambda unread: store.edge_evidence(scope, unread)
    )


def _give_evidence(state: _Touched, scope, uids, records: dict, read) -> None:
    unread = []
    for uid in sorted(set(uids)):
        if uid in state.sources or uid not in records:
            continue
        found = evidence_cache.take(scope.project, uid, state.versions.get(uid))
        if found is None:
            unread.append(records[uid])
        else:
            records[uid].evidence, state.sources[uid] = found.evidence, found.sources
            state.given[uid] = state.versions.get(uid)
    for uid, (version, evidence) in read(unread).items():
        records[uid].evidence, state.sources[uid] = evidence, SourceCount(evidence)
        state.given[uid] = version


def _load_edges(state: _Touched, scope, **which) -> None:
    for edge, version in store.edges_without_evidence(scope, **which):
        if edge.uid not in state.edges:
            state.edges[edge.uid] = edge
            state.versions[edge.uid] = version


def _add(state: _Touched, record: NodeRecord | EdgeRecord, evidence: Evidence) -> bool:
    if not add_evidence(record, evidence):
        return False
    state.sources[record.uid].add(evidence)
    return True


def integrate(
    episode: Episode,
    proposal: Proposal,
    check_lease: Callable[[], None] = lambda: None,
    before_writes: Callable[[], Callable[[], None]] = lambda: lambda: None,
    corrections: list[Correction] | None = None,
    hold: Hold | None = None,
) -> Integration:
    """`corrections`: the project's, when read already in this hold of the lease; `hold`:
    what this hold knows of the graph's nodes and the candidate index (kept up to date,
    forgotten when the integration fails)."""
    try:
        return _integrate(episode, proposal, check_lease, before_writes, corrections, hold)
    except Exception:
        if hold is not None:
            hold.forget()
        raise


def _integrate(
    episode: Episode,
    proposal: Proposal,
    check_lease: Callable[[], None],
    before_writes: Callable[[], Callable[[], None]],
    corrections: list[Correction] | None,
    hold: Hold | None,
) -> Integration:
    project = episode.project
    scope = project.graph_scope
    at = graph_time(episode.valid_at)
    # What the project's corrections taught (under the lease).
    proposal = steer(episode, proposal, corrections)
    state = _Touched(hold=hold)
    result = Integration()
    wanted = {p.target_uid for p in proposal.nodes}
    for edge in proposal.edges:
        wanted |= {edge.source.uid, edge.target.uid}
    _load(state, scope, wanted)

    # The candidates of every mention that is new here (proposed so, or its node is gone), read
    # from the index and loaded from the graph together: the index is not written before the
    # episode's writes, so what it returns does not depend on the order they are settled in.
    unknown = [i for i, p in enumerate(proposal.nodes) if _known_node(state, p) is None]
    found = candidates.candidates_for_many(
        project, [(proposal.nodes[i].type, proposal.nodes[i].label) for i in unknown]
    )
    pools = dict(zip(unknown, found, strict=True))
    _load(state, scope, [n.uid for pool in pools.values() for n in pool])

    created_here: list[NodeRecord] = []
    merged_into: list[NodeRecord] = []
    local: dict[tuple[str, ...], str] = {}
    settled: list[tuple[NodeRecord, Evidence]] = []
    for i, proposed in enumerate(proposal.nodes):
        node, decision = _settle(state, proposed, pools.get(i, []), created_here)
        if node is None:
            key = node_key(proposed.label)
            node = NodeRecord(
                uid=_new_node_uid(scope, episode, proposed.type, key),
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
            state.sources[node.uid] = SourceCount()
            created_here.append(node)
        else:
            key = node_key(proposed.label)
            if key != node.key and key not in node.alias_keys:
                node.aliases.append(proposed.label)
                node.alias_keys.append(key)
            node.valid_at = min(node.valid_at, at)
            merged_into.append(node)
        settled.append((node, evidence_at(episode, proposed.quote, proposed.start, proposed.end)))
        state.touched.add(node.uid)
        local[tuple(proposed.key)] = node.uid
        result.decisions.append(
            Decision(proposed.type, proposed.label, *decision, node)  # type: ignore[arg-type]
        )
    _with_evidence(state, scope, state.touched)
    for node, evidence in settled:
        if _add(state, node, evidence):
            state.new_evidence.append((node.uid, evidence))

    give_back: Callable[[], None] = lambda: None  # noqa: E731
    try:
        # One commit for the numbers given to the new nodes and the index entries (none at all
        # when the episode only adds evidence to nodes filed as they are). The index before the
        # graph: an episode integrated after a crash mid-write finds the nodes the graph
        # already has, never makes twins of them (a node indexed but not written is loaded as
        # missing, so proposed anew).
        with transaction.atomic():
            numbers = allocate_numbers(episode, [n.uid for n in created_here])
            for node in created_here:
                node.number = numbers[node.uid]
                result.created.append(node.number)
            result.merged = [node.number for node in merged_into]
            partners, involved = _relate_and_weigh(state, episode, proposal, local, result)
            check_lease()  # the fencing check: nothing is written by a holder that lost the lock
            touched = [state.nodes[u] for u in sorted(state.touched)]
            candidates.index_nodes(project, touched, hold.filed if hold else None)
        # The place in the order, just before the graph writes (one statement of its own); it
        # is given back when the first write fails, as nothing of the episode is in the graph.
        give_back = before_writes()
        written = store.append_node_changes(scope, touched, state.new_evidence)
    except Exception:
        give_back()
        raise
    _keep(scope, state, written, state.nodes)
    edges = [state.edges[u] for u in sorted(state.touched_edges)]
    written_edges = store.append_edge_changes(scope, edges, state.new_edge_evidence)
    _keep(scope, state, written_edges, state.edges)
    _give_back_unwritten(scope, state, written.keys() | written_edges.keys())
    opened = 0
    for contradiction in partners:
        if store.open_contradiction(scope, contradiction):
            opened += 1
    for supersession in state.supersessions:  # after the nodes: both ends must exist
        store.write_supersession(scope, supersession)
    if partners:
        # Confidence after the contradictions: a field write, for the nodes this episode
        # touched and the other ends of contradictions it saw.
        counts = store.open_contradiction_counts(scope, sorted(involved))
        for uid in involved:
            if uid in state.nodes:
                state.open_contradictions[uid] = counts.get(uid, 0)
                _set_node_confidence(state, uid)
        store.set_confidence(
            scope, {uid: state.nodes[uid].confidence for uid in involved if uid in state.nodes}
        )
    result.contradictions = opened
    if hold is not None:
        hold.written(state, state.touched | {u for u in involved if u in state.nodes}, written)
    return result


def _relate_and_weigh(
    state: _Touched,
    episode: Episode,
    proposal: Proposal,
    local: dict[tuple[str, ...], str],
    result: Integration,
) -> tuple[list, set[str]]:
    """The episode's edges and the contradictions it opens, with the confidence of what it
    touched; returns the contradictions and every node they involve."""
    project = episode.project
    scope = project.graph_scope
    _relate(state, scope, episode, proposal, local)
    partners = _contradictions(state, scope, project, graph_time(episode.valid_at), result)
    involved = state.touched | {c.a for c in partners} | {c.b for c in partners}
    _load(state, scope, involved)
    _with_evidence(state, scope, involved)  # superseded values closed here, partners

    _edges_with_evidence(state, scope, state.touched_edges)
    for uid in state.touched_edges:
        state.edges[uid].confidence = confidence_of(state.sources[uid].count)
    result.edges = len(state.touched_edges)
    # Confidence is written with the nodes when no contradiction can open here: the counts
    # loaded with them are the counts after the writes (every writer holds the lease).
    if not partners:
        for uid in state.touched:
            _set_node_confidence(state, uid)
    return partners, involved


def _new_node_uid(scope, episode: Episode, node_type: str, key: str) -> str:
    return str(uuid.uuid5(NAMESPACE, f"{scope.project}:{node_type}:{key}:{episode.uid}"))


def nodes_named(episode: Episode, proposal: Proposal) -> set[str]:
    """The uids of the nodes integrating a proposal most likely touches: the ones it names,
    and the ones it would create (read ahead for a run of episodes, a hint only)."""
    scope = episode.project.graph_scope
    uids = {p.target_uid for p in proposal.nodes if p.target_uid}
    uids |= {_new_node_uid(scope, episode, p.type, node_key(p.label)) for p in proposal.nodes}
    for edge in proposal.edges:
        uids |= {u for u in (edge.source.uid, edge.target.uid) if u}
    return uids


def _set_node_confidence(state: _Touched, uid: str) -> None:
    node = state.nodes[uid]
    node.confidence = confidence_of(
        state.sources[uid].count,
        state.open_contradictions.get(uid, 0),
        len(node.confirmed_by),
        node.status == "rejected",
    )


def _keep(scope, state: _Touched, versions: dict[str, str], records: dict) -> None:
    """What was written is kept as the version it was written with: not read back."""
    for uid, version in versions.items():
        record = records[uid]
        evidence_cache.keep(
            scope.project, uid, version, KeptEvidence(record.evidence, state.sources[uid])
        )


def _give_back_unwritten(scope, state: _Touched, written: set[str]) -> None:
    """The evidence given to records the episode did not write, back to the copy unchanged."""
    for uid, version in state.given.items():
        record = state.nodes.get(uid) or state.edges.get(uid)
        if uid not in written and version and record is not None:
            evidence_cache.keep(
                scope.project, uid, version, KeptEvidence(record.evidence, state.sources[uid])
            )


def _known_node(state: _Touched, proposed: ProposedNode) -> NodeRecord | None:
    """The loaded node a proposed mention names, if it may take it as it is."""
    node = state.nodes.get(proposed.target_uid) if proposed.target_uid else None
    # A correction may send a mention to a closed node: a rejected one keeps it, hidden.
    if node is not None and (node.invalid_at is None or proposed.method == STEERED):
        return node
    return None


def _settle(state, proposed: ProposedNode, pool: list[NodeRecord], created_here: list[NodeRecord]):
    """The node a proposed mention is, re-checked now; None to create it."""
    node = _known_node(state, proposed)
    if node is not None:
        return node, (proposed.method, proposed.score, proposed.compared)
    # Proposed as new (or its node is gone): what was written since may already hold it. Only
    # the certain rungs of the ladder apply here; the model is never asked under the lock.
    mention = Mention(
        proposed.type, proposed.label, proposed.quote, proposed.stance, proposed.value
    )
    found = {n.uid: n for n in pool}
    found |= {n.uid: n for n in created_here if n.type == proposed.type}
    # Indexed before a failed write: not in the graph, so not loaded, and no match.
    found = {uid: node for uid, node in found.items() if uid in state.nodes}
    decision = resolve_candidate(mention, list(found.values()), lambda m, n: False)
    if decision.node is None:
        return None, ("new", decision.score, decision.compared)
    node = state.nodes.get(decision.node.uid)
    if node is None:
        return None, ("new", decision.score, decision.compared)
    return node, (decision.method, decision.score, decision.compared)


def _edge_uid(scope, relation: str, source: str, target: str) -> str:
    return str(uuid.uuid5(NAMESPACE, f"{scope.project}:{relation}:{source}:{target}"))


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
        evidence = evidence_at(episode, proposed.quote, proposed.start, proposed.end)
        wanted.append((proposed.relation, a.uid, b.uid, evidence))
    if not wanted:
        return
    _load_edges(
        state,
        scope,
        between=[(s, t) for _, s, t, _ in wanted],
        from_by_relation=[(s, r) for r, s, _, _ in wanted if RELATIONS[r].functional],
    )
    uids = [_edge_uid(scope, relation, s, t) for relation, s, t, _ in wanted]
    _edges_with_evidence(state, scope, uids)
    for uid, (relation, source, target, evidence) in zip(uids, wanted, strict=True):
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
            state.sources[uid] = SourceCount()
        edge.valid_at = min(edge.valid_at, evidence.valid_at)
        if _add(state, edge, evidence):
            state.new_edge_evidence.append((uid, evidence))
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
    _load_edges(state, scope, into=[edge.target])
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
        _with_evidence(state, scope, others)  # a contradiction quotes each side's first words
        active = [state.nodes[u] for u in sorted(set(others)) if u in state.nodes]
        for contradiction in find_contradictions(scope, [node], active, at):
            found[contradiction.uid] = contradiction
    return [found[uid] for uid in sorted(found)]
