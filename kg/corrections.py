"""Corrections: a person fixes the graph, and each fix is a ledger event (kg.models.Correction).

Each command checks the author may write the project, takes the project lease, checks the
correction against the graph as it is (refused with the reason, nothing recorded), records it
and applies it, then bumps the project's revision. `apply_correction` is the graph side alone,
deterministic from the recorded correction: kg_rebuild replays it at the place it was made in
the order of integration (`CorrectionReplay`), and reaches the same graph with no model call.
What corrections teach later mentions is in kg.pipeline.taught; an undo (kg.undo) is a later
correction that reverts one. Edges are corrected like nodes: added (citing words of a message),
given another relation or target, re-sourced (another quote cited), removed.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from kg.confirmation import ConfirmationNeeded
from kg.graph import EdgeRecord, Evidence, NodeRecord, SupersessionRecord, store
from kg.graph.records import add_evidence, graph_time
from kg.models import (
    Correction,
    CorrectionAction,
    Episode,
    EpisodeIntegration,
    IndexedNode,
    Project,
    ProjectRevision,
    ResolutionDecision,
    reverted_numbers,
)
from kg.ontology import RELATIONS, OntologyError, check_node_type, check_relation
from kg.pipeline.candidates import exact_matches, index_nodes
from kg.pipeline.confidence import confidence_from
from kg.pipeline.evidence import locate_quote
from kg.pipeline.integrate import NAMESPACE, evidence_at
from kg.pipeline.locks import project_lock, replay_running
from kg.pipeline.resolve import node_key
from kg.pipeline.revision import graph_changed
from kg.tenancy import check_can_write

MAX_LABEL = 500
MAX_NOTE = 2000
MAX_QUOTE = 2000

EDGE_ACTIONS = (
    CorrectionAction.EDIT_EDGE,
    CorrectionAction.REMOVE_EDGE,
    CorrectionAction.ADD_EDGE,
    CorrectionAction.RESOURCE_EDGE,
)
# Actions the page asks to confirm before they are made (kg.confirmation): they close a node
# or move its evidence. The API makes them at once (its clients decide; undo is there too).
ASKS_CONFIRMATION = (CorrectionAction.MERGE, CorrectionAction.SPLIT, CorrectionAction.REJECT)


class CorrectionRefused(ValueError):
    """The correction cannot be made; the message says why. Nothing was recorded."""


class NodeNotFound(LookupError):
    pass


@dataclass(frozen=True)
class CorrectionDone:
    correction: Correction
    node: NodeRecord  # the node the page should show next (the survivor, the split-off one)
    message: str


def author_name(user) -> str:
    if user is None or not getattr(user, "is_authenticated", False):
        return ""
    return (user.get_full_name() or user.get_username()).strip()[:200]


# --- the commands --------------------------------------------------------------------------


def merge_nodes(project: Project, user, survivor: int, absorbed: int, note: str = ""):
    """Node #absorbed joins #survivor: its evidence, edges and names; it closes, pointing to
    the survivor."""

    def decide(scope):
        keep, gone = _node(scope, survivor), _node(scope, absorbed)
        if keep.uid == gone.uid:
            raise CorrectionRefused("a node cannot be merged into itself")
        for node in (keep, gone):
            _refuse_closed(node)
        if keep.type != gone.type:
            raise CorrectionRefused(
                f"#{gone.number} is a {gone.type} and #{keep.number} a {keep.type}: only nodes "
                "of one type merge (retype one first)"
            )
        return keep, {"node_uid": keep.uid, "other_uid": gone.uid, "params": {}}

    return _correct(project, user, CorrectionAction.MERGE, note, decide)


def split_alias(project: Project, user, number: int, alias: str, note: str = ""):
    """The alias, with the evidence that says it, becomes a node of its own."""

    def decide(scope):
        node = _node(scope, number)
        _refuse_closed(node)
        key = node_key(alias)
        names = {node_key(a): a for a in node.aliases}
        if not key or key not in names:
            known = ", ".join(f"“{a}”" for a in node.aliases) or "none"
            raise CorrectionRefused(
                f"“{alias}” is not an alias of #{node.number} (its aliases: {known})"
            )
        moved = _evidence_of_alias(project, node, names[key])
        if not moved:
            raise CorrectionRefused(
                f"no quote of #{node.number} says “{names[key]}”: nothing to split off"
            )
        if len(moved) == len(node.evidence):
            raise CorrectionRefused(
                f"every quote of #{node.number} says “{names[key]}”: rename it instead"
            )
        given = _next_node_number(project)
        new_uid = str(uuid.uuid5(NAMESPACE, f"{scope.project}:split:{node.uid}:{key}:{given}"))
        params = {
            "alias": names[key],
            "type": node.type,
            "new_uid": new_uid,
            "number": given,
            "moved": [[e.episode_uid, e.start] for e in moved],
        }
        return node, {"node_uid": node.uid, "params": params}

    return _correct(project, user, CorrectionAction.SPLIT, note, decide)


def rename_node(project: Project, user, number: int, label: str, note: str = ""):
    """A new label; the old one stays an alias, so later mentions of it still find the node."""

    def decide(scope):
        node = _node(scope, number)
        _refuse_closed(node)
        new = " ".join((label or "").split())
        if not new or len(new) > MAX_LABEL:
            raise CorrectionRefused(f"a label has 1 to {MAX_LABEL} characters")
        key = node_key(new)
        if not key:
            raise CorrectionRefused(f"“{new}” has no word to call a node by")
        if new == node.label:
            raise CorrectionRefused(f"#{node.number} is already called “{new}”")
        for other in exact_matches(project, node.type, new):
            if other.uid != node.uid and key in (other.key, *other.alias_keys):
                raise CorrectionRefused(
                    f"#{other.number} “{other.label}” is already called that: merge the two"
                )
        return node, {"node_uid": node.uid, "params": {"label": new, "old_label": node.label}}

    return _correct(project, user, CorrectionAction.RENAME, note, decide)


def retype_node(project: Project, user, number: int, node_type: str, note: str = ""):
    """Another type, only when every open edge of the node stays inside the ontology."""

    def decide(scope):
        node = _node(scope, number)
        _refuse_closed(node)
        try:
            new = check_node_type((node_type or "").strip()).value
        except OntologyError as exc:
            raise CorrectionRefused(str(exc)) from None
        if new == node.type:
            raise CorrectionRefused(f"#{node.number} is already a {new}")
        edges = [e for e in store.edges_of_node(scope, node.uid) if e.invalid_at is None]
        types = {
            n.uid: n
            for n in store.nodes_by_uids(
                scope, {e.source for e in edges} | {e.target for e in edges}
            )
        }
        for edge in edges:
            source = new if edge.source == node.uid else types[edge.source].type
            target = new if edge.target == node.uid else types[edge.target].type
            try:
                check_relation(edge.relation, source, target)
            except OntologyError as exc:
                other = types[edge.target if edge.source == node.uid else edge.source]
                raise CorrectionRefused(
                    f"#{node.number} cannot become a {new}: its edge “{edge.relation}” with "
                    f"#{other.number} “{other.label}” would leave the ontology ({exc})"
                ) from None
        params = {"type": new, "old_type": node.type, "keys": _keys(node)}
        return node, {"node_uid": node.uid, "params": params}

    return _correct(project, user, CorrectionAction.RETYPE, note, decide)


def reject_node(project: Project, user, number: int, note: str = ""):
    """Not a finding: closed with its open edges, its evidence kept for audit; later mentions
    of its names attach to it, still hidden."""

    def decide(scope):
        node = _node(scope, number)
        _refuse_closed(node)
        params = {"type": node.type, "keys": _keys(node)}
        return node, {"node_uid": node.uid, "params": params}

    return _correct(project, user, CorrectionAction.REJECT, note, decide)


def confirm_node(project: Project, user, number: int, note: str = ""):
    """A person vouches for the node: shown, and counted in its confidence as a source."""
    name = author_name(user)

    def decide(scope):
        node = _node(scope, number)
        _refuse_closed(node)
        if name in node.confirmed_by:
            raise CorrectionRefused(f"#{node.number} is already confirmed by {name}")
        return node, {"node_uid": node.uid, "params": {"by": name}}

    return _correct(project, user, CorrectionAction.CONFIRM, note, decide)


def edit_edge(
    project: Project,
    user,
    number: int,
    edge_uid: str,
    relation: str = "",
    target: int | None = None,
    note: str = "",
):
    """Another relation or another target for an edge of node #number (inside the ontology):
    the edge moves; the old one closes, so later mentions of it stay closed."""

    def decide(scope):
        node = _node(scope, number)
        edge = _edge(scope, node, edge_uid)
        ends = {n.uid: n for n in store.nodes_by_uids(scope, [edge.source, edge.target])}
        source, old_target = ends[edge.source], ends[edge.target]
        new_target = _node(scope, target) if target else old_target
        _refuse_closed(new_target)
        new = (relation or "").strip() or edge.relation
        if new == edge.relation and new_target.uid == old_target.uid:
            raise CorrectionRefused("the edge already says that: change its relation or target")
        if new_target.uid == source.uid:
            raise CorrectionRefused("an edge joins two different nodes")
        try:
            check_relation(new, source.type, new_target.type)
        except OntologyError as exc:
            raise CorrectionRefused(str(exc)) from None
        params = {
            "edge": edge.uid,
            "relation": edge.relation,
            "new_relation": new,
            "new_target": new_target.uid,
        }
        return node, {"node_uid": edge.source, "other_uid": edge.target, "params": params}

    return _correct(project, user, CorrectionAction.EDIT_EDGE, note, decide)


def remove_edge(project: Project, user, number: int, edge_uid: str, note: str = ""):
    """The edge is wrong: closed (its evidence kept), and later mentions of it stay closed."""

    def decide(scope):
        node = _node(scope, number)
        edge = _edge(scope, node, edge_uid)
        params = {"edge": edge.uid, "relation": edge.relation}
        return node, {"node_uid": edge.source, "other_uid": edge.target, "params": params}

    return _correct(project, user, CorrectionAction.REMOVE_EDGE, note, decide)


def add_edge(
    project: Project,
    user,
    number: int,
    relation: str,
    other: int,
    message: int,
    quote: str,
    outgoing: bool = True,
    note: str = "",
):
    """An edge the extraction missed, between node #number and node #other (from #number when
    `outgoing`, else into it), inside the ontology, citing a quote of message #message."""

    def decide(scope):
        node, far = _node(scope, number), _node(scope, other)
        for end in (node, far):
            _refuse_closed(end)
        if node.uid == far.uid:
            raise CorrectionRefused("an edge joins two different nodes")
        source, target = (node, far) if outgoing else (far, node)
        name = (relation or "").strip()
        try:
            check_relation(name, source.type, target.type)
        except OntologyError as exc:
            raise CorrectionRefused(str(exc)) from None
        uid = _edge_uid(scope, name, source.uid, target.uid)
        for edge in store.edges_of_node(scope, source.uid):
            if edge.invalid_at is not None or edge.source != source.uid:
                continue
            if edge.uid == uid:
                raise CorrectionRefused(
                    f"#{source.number} already {name} #{target.number}: re-source that edge"
                )
            if RELATIONS[name].functional and edge.relation == name:
                raise CorrectionRefused(
                    f"#{source.number} {name} one node at a time: change its edge to the "
                    "other node instead"
                )
        evidence = _cited(project, message, quote)
        params = {"edge": uid, "relation": name, "evidence": evidence.model_dump()}
        return node, {"node_uid": source.uid, "other_uid": target.uid, "params": params}

    return _correct(project, user, CorrectionAction.ADD_EDGE, note, decide)


def resource_edge(
    project: Project, user, number: int, edge_uid: str, message: int, quote: str, note: str = ""
):
    """The edge of node #number cites a quote of message #message instead of what it cited
    (the wrong message, words that do not say it); what it cited stays in the ledger."""

    def decide(scope):
        node = _node(scope, number)
        edge = _edge(scope, node, edge_uid)
        evidence = _cited(project, message, quote)
        if [(e.episode_uid, e.start, e.end) for e in edge.evidence] == [
            (evidence.episode_uid, evidence.start, evidence.end)
        ]:
            raise CorrectionRefused("the edge cites exactly that already")
        params = {
            "edge": edge.uid,
            "relation": edge.relation,
            "evidence": evidence.model_dump(),
            "cited": [[e.episode_number, e.quote] for e in edge.evidence],
        }
        return node, {"node_uid": edge.source, "other_uid": edge.target, "params": params}

    return _correct(project, user, CorrectionAction.RESOURCE_EDGE, note, decide)


# --- recording -----------------------------------------------------------------------------


Decide = Callable[..., tuple[NodeRecord, dict]]


def _correct(project: Project, user, action: str, note: str, decide: Decide) -> CorrectionDone:
    check_can_write(user, project)
    note = check_note(note)
    scope = project.graph_scope
    with project_lock(project.pk) as lease, transaction.atomic():
        refuse_during_replay(project)
        node, fields = decide(scope)
        correction = record_correction(project, user, action, note, fields)
        lease.check()
        applied = apply_correction(project, correction)
        # An edge correction changes the edge: the page it was made on shows next.
        shown = node if action in EDGE_ACTIONS else applied or node
    graph_changed(project, sender=Correction)
    return CorrectionDone(correction, shown, _message(correction, node, shown))


def refuse_during_replay(project: Project) -> None:
    """Under the project's lease: no correction meets a graph being replayed (an undo)."""
    if replay_running(project.pk):
        raise CorrectionRefused(
            "the project's graph is being replayed (an undo or a rebuild): try again when it "
            "is done"
        )


def check_note(note: str) -> str:
    note = (note or "").strip()
    if len(note) > MAX_NOTE:
        raise CorrectionRefused(f"the note has {len(note)} characters; the limit is {MAX_NOTE}")
    return note


def record_correction(project: Project, user, action: str, note: str, fields: dict) -> Correction:
    """The next correction of the project in the ledger (under the project lease, in a
    transaction): placed after the last episode integrated."""
    last = Correction.objects.filter(project=project).aggregate(n=Max("number"))["n"]
    after = EpisodeIntegration.objects.filter(project=project).aggregate(n=Max("order"))["n"]
    correction = Correction(
        project=project,
        number=(last or 0) + 1,
        action=action,
        note=note,
        author=user if getattr(user, "is_authenticated", False) else None,
        author_name=author_name(user),
        after_order=after or 0,
        created_at=timezone.now(),
        **fields,
    )
    correction.save()
    return correction


def _message(correction: Correction, node: NodeRecord, shown: NodeRecord) -> str:
    label = correction.get_action_display()
    if correction.action == CorrectionAction.SPLIT:
        return f"“{shown.label}” is now #{shown.number}, split off #{node.number}"
    return f"{label}: done on #{node.number} (correction {correction.number})"


def _node(scope, number: int) -> NodeRecord:
    node = store.node_by_number(scope, int(number))
    if node is None:
        raise NodeNotFound(f"node #{number} not found")
    return node


def _refuse_closed(node: NodeRecord) -> None:
    if node.status == "merged":
        raise CorrectionRefused(f"#{node.number} was merged into another node")
    if node.status == "rejected":
        raise CorrectionRefused(f"#{node.number} was rejected")
    if node.invalid_at is not None:
        raise CorrectionRefused(f"#{node.number} is no longer valid")


def _edge(scope, node: NodeRecord, edge_uid: str) -> EdgeRecord:
    for edge in store.edges_of_node(scope, node.uid):
        if edge.uid == edge_uid:
            if edge.invalid_at is not None:
                raise CorrectionRefused("the edge is already closed")
            return edge
    raise NodeNotFound(f"edge {edge_uid!r} of node #{node.number} not found")


def _edge_uid(scope, relation: str, source: str, target: str) -> str:
    """The uid the pipeline gives an edge (kg.pipeline.integrate): one per relation and ends."""
    return str(uuid.uuid5(NAMESPACE, f"{scope.project}:{relation}:{source}:{target}"))


def _cited(project: Project, message: int, quote: str) -> Evidence:
    """The evidence of `quote` in message #message of the project: its words must be there."""
    episode = Episode.objects.filter(project=project, number=int(message)).first()
    if episode is None:
        raise CorrectionRefused(f"message #{message} is not in this project")
    words = " ".join((quote or "").split())
    if not words or len(words) > MAX_QUOTE:
        raise CorrectionRefused(f"a quote has 1 to {MAX_QUOTE} characters")
    span = locate_quote(words, episode.content)
    if span is None:
        raise CorrectionRefused(f"message #{episode.number} does not say “{words}”")
    return evidence_at(episode, span.text, span.start, span.end)


def _keys(node: NodeRecord) -> list[str]:
    return sorted({node.key, *node.alias_keys} - {""})


def _evidence_of_alias(project: Project, node: NodeRecord, alias: str) -> list[Evidence]:
    """The node's quotes that say the alias: those of messages whose mention of it was
    resolved to this node, and any quote with the alias's words."""
    key = node_key(alias)
    by_decision = {
        str(uid)
        for uid, label in ResolutionDecision.objects.filter(
            project=project, node_uid=node.uid
        ).values_list("episode__uid", "candidate_label")
        if node_key(label) == key
    }
    said = [e for e in node.evidence if key in node_key(e.quote)]
    said_where = {e.episode_uid for e in said}
    chosen = said + [
        e for e in node.evidence if e.episode_uid in by_decision and e.episode_uid not in said_where
    ]
    return sorted(chosen, key=lambda e: (e.valid_at, e.episode_number, e.start))


def _next_node_number(project: Project) -> int:
    """A node number from the project's counter (kg.pipeline.numbering): never reused."""
    counter, _ = ProjectRevision.objects.select_for_update().get_or_create(project=project)
    indexed = IndexedNode.objects.filter(project=project).aggregate(n=Max("number"))["n"]
    number = max(counter.last_node_number, indexed or 0) + 1
    ProjectRevision.objects.filter(project=project).update(last_node_number=number)
    return number


# --- the graph side, live and replayed -----------------------------------------------------


def apply_correction(project: Project, correction: Correction) -> NodeRecord | None:
    """Write what the correction decided (under the project lease). Deterministic from the
    correction and the graph it meets; None when its node is not in the graph (nothing done)."""
    scope = project.graph_scope
    at = graph_time(correction.created_at)
    params = correction.params or {}
    uids = [u for u in (correction.node_uid, correction.other_uid) if u]
    nodes = {n.uid: n for n in store.nodes_by_uids(scope, uids)}
    node = nodes.get(correction.node_uid)
    if node is None:
        return None
    action = correction.action
    if action == CorrectionAction.MERGE:
        other = nodes.get(correction.other_uid)
        return _merge(project, node, other, at) if other else None
    if action == CorrectionAction.SPLIT:
        return _split(project, node, params, at)
    if action in (CorrectionAction.EDIT_EDGE, CorrectionAction.REMOVE_EDGE):
        _correct_edge(project, correction, at)
        return node
    if action == CorrectionAction.ADD_EDGE:
        _add_edge(project, correction)
        return node
    if action == CorrectionAction.RESOURCE_EDGE:
        _resource_edge(project, correction)
        return node
    if action == CorrectionAction.UNDO:
        return node  # an undo acts by what it leaves out of the replay (kg.undo)
    if action == CorrectionAction.RENAME:
        old_key = node.key
        node.label = params["label"]
        node.key = node_key(node.label)
        pairs = [(a, k) for a, k in zip(node.aliases, node.alias_keys, strict=False)]
        pairs = [(a, k) for a, k in pairs if k != node.key]
        if old_key != node.key and old_key not in {k for _, k in pairs}:
            pairs.append((params.get("old_label", old_key), old_key))
        node.aliases, node.alias_keys = [a for a, _ in pairs], [k for _, k in pairs]
    elif action == CorrectionAction.RETYPE:
        node.type = params["type"]
    elif action == CorrectionAction.REJECT:
        node.status = "rejected"
        node.invalid_at = node.invalid_at or at
        closed = []
        for edge in store.edges_of_node(scope, node.uid):
            if edge.invalid_at is None:
                edge.invalid_at = at
                closed.append(edge)
        store.write_edges(scope, closed)
    elif action == CorrectionAction.CONFIRM:
        by = params.get("by", "")
        if by and by not in node.confirmed_by:
            node.confirmed_by.append(by)
    _write_nodes(project, [node])
    return node


def _write_nodes(project: Project, nodes: list[NodeRecord], new_evidence=()) -> None:
    scope = project.graph_scope
    counts = store.open_contradiction_counts(scope, [n.uid for n in nodes])
    for node in nodes:
        node.confidence = confidence_from(
            node.evidence,
            counts.get(node.uid, 0),
            len(node.confirmed_by),
            node.status == "rejected",
        )
    store.write_node_changes(scope, nodes, list(new_evidence))
    index_nodes(project, nodes)


def _merge(project: Project, keep: NodeRecord, gone: NodeRecord, at: str) -> NodeRecord:
    scope = project.graph_scope
    added = [(keep.uid, e) for e in gone.evidence if add_evidence(keep, e)]
    for name, key in [(gone.label, gone.key), *zip(gone.aliases, gone.alias_keys, strict=False)]:
        if key and key != keep.key and key not in keep.alias_keys:
            keep.aliases.append(name)
            keep.alias_keys.append(key)
    keep.valid_at = min(keep.valid_at, gone.valid_at)
    keep.confirmed_by += [p for p in gone.confirmed_by if p not in keep.confirmed_by]
    gone.status, gone.merged_into = "merged", keep.uid
    gone.invalid_at = gone.invalid_at or at

    # The absorbed node's edges move to the survivor (joining an edge it already has).
    moved = [e for e in store.edges_of_node(scope, gone.uid)]
    wanted: dict[str, EdgeRecord] = {}
    for edge in moved:
        source = keep.uid if edge.source == gone.uid else edge.source
        target = keep.uid if edge.target == gone.uid else edge.target
        if source == target:
            continue  # an edge between the two merged nodes means nothing any more
        uid = str(uuid.uuid5(NAMESPACE, f"{scope.project}:{edge.relation}:{source}:{target}"))
        wanted[uid] = edge.model_copy(update={"uid": uid, "source": source, "target": target})
    existing = {
        e.uid: e
        for e in store.edges_between(scope, [(e.source, e.target) for e in wanted.values()])
    }
    written = []
    for uid, edge in sorted(wanted.items()):
        into = existing.get(uid)
        if into is not None:
            for evidence in edge.evidence:
                add_evidence(into, evidence)
            into.valid_at = min(into.valid_at, edge.valid_at)
            if edge.invalid_at is None:
                into.invalid_at = None
            edge = into
        edge.confidence = confidence_from(edge.evidence)
        written.append(edge)
    store.delete_edges(scope, moved)
    store.write_edges(scope, written)
    _write_nodes(project, [keep, gone], added)
    store.write_supersession(
        scope, SupersessionRecord(old=gone.uid, new=keep.uid, relation="merged into", at=at)
    )
    return keep


def _split(project: Project, node: NodeRecord, params: dict, at: str) -> NodeRecord:
    moved_keys = {(uid, int(start)) for uid, start in params.get("moved", [])}
    moved = [e for e in node.evidence if (e.episode_uid, e.start) in moved_keys]
    key = node_key(params["alias"])
    pairs = [(a, k) for a, k in zip(node.aliases, node.alias_keys, strict=False) if k != key]
    node.aliases, node.alias_keys = [a for a, _ in pairs], [k for _, k in pairs]
    node.evidence = [e for e in node.evidence if (e.episode_uid, e.start) not in moved_keys]
    new = NodeRecord(
        uid=params["new_uid"],
        number=int(params["number"]),
        type=node.type,
        label=params["alias"],
        key=key,
        valid_at=min((e.valid_at for e in moved), default=at),
        subject=node.subject,
        stance=node.stance,
        value=node.value,
        evidence=moved,
    )
    _write_nodes(project, [node, new], [(new.uid, e) for e in moved])
    # The episodes only the moved evidence came from mention the new node, not this one.
    kept = {e.episode_uid for e in node.evidence}
    store.unlink_mentions(project.graph_scope, node.uid, {e.episode_uid for e in moved} - kept)
    _follow_split_name(project, node, new, at)
    return new


def _follow_split_name(project: Project, node: NodeRecord, new: NodeRecord, at: str) -> None:
    """A node merged into `node` whose label was just split off lives on in the new node:
    `node` no longer supersedes it, the new one does (the new one is split from `node`, the
    ledger says, and supersedes nothing of it)."""
    scope = project.graph_scope
    absorbed = [
        s.old
        for s in store.list_supersessions(scope)
        if s.new == node.uid and s.relation == "merged into"
    ]
    for old in store.nodes_by_uids(scope, absorbed):
        if old.key != new.key:
            continue
        store.delete_supersession(scope, old.uid, node.uid)
        store.write_supersession(
            scope, SupersessionRecord(old=old.uid, new=new.uid, relation="merged into", at=at)
        )
        old.merged_into = new.uid
        _write_nodes(project, [old])


def _correct_edge(project: Project, correction: Correction, at: str) -> None:
    scope = project.graph_scope
    params = correction.params or {}
    found = [
        e
        for e in store.edges_between(scope, [(correction.node_uid, correction.other_uid)])
        if e.uid == params.get("edge")
    ]
    if not found:
        return
    old = found[0]
    old.invalid_at = old.invalid_at or at
    written = [old]
    if correction.action == CorrectionAction.EDIT_EDGE:
        relation, target = params["new_relation"], params.get("new_target") or old.target
        uid = str(uuid.uuid5(NAMESPACE, f"{scope.project}:{relation}:{old.source}:{target}"))
        existing = {e.uid: e for e in store.edges_between(scope, [(old.source, target)])}
        new = existing.get(uid) or EdgeRecord(
            uid=uid, relation=relation, source=old.source, target=target, valid_at=old.valid_at
        )
        for evidence in old.evidence:
            add_evidence(new, evidence)
        new.invalid_at = None
        new.confidence = confidence_from(new.evidence)
        written.append(new)
    store.write_edges(scope, written)


def _add_edge(project: Project, correction: Correction) -> None:
    scope = project.graph_scope
    params = correction.params or {}
    evidence = Evidence.model_validate(params["evidence"])
    pair = (correction.node_uid, correction.other_uid)
    existing = {e.uid: e for e in store.edges_between(scope, [pair])}
    edge = existing.get(params["edge"]) or EdgeRecord(
        uid=params["edge"],
        relation=params["relation"],
        source=correction.node_uid,
        target=correction.other_uid,
        valid_at=evidence.valid_at,
    )
    add_evidence(edge, evidence)
    edge.invalid_at = None
    edge.confidence = confidence_from(edge.evidence)
    store.write_edges(scope, [edge])


def _resource_edge(project: Project, correction: Correction) -> None:
    scope = project.graph_scope
    params = correction.params or {}
    pair = (correction.node_uid, correction.other_uid)
    found = [e for e in store.edges_between(scope, [pair]) if e.uid == params.get("edge")]
    if not found:
        return
    edge = found[0]
    edge.evidence = [Evidence.model_validate(params["evidence"])]
    edge.confidence = confidence_from(edge.evidence)
    store.write_edges(scope, [edge])


# --- kg_rebuild ----------------------------------------------------------------------------


class CorrectionReplay:
    """Replays a project's corrections between its episodes, where they were made."""

    def __init__(self, project: Project) -> None:
        self.project = project
        ledger = list(Correction.objects.filter(project=project).order_by("number"))
        # An undone correction is left out, and so is the undo: the graph is as if it had
        # never been made, and no episode is taught by it either (kg.pipeline.taught).
        left_out = reverted_numbers(ledger)
        self.pending = [
            c for c in ledger if c.number not in left_out and c.action != CorrectionAction.UNDO
        ]

    def before(self, order: int | None) -> int:
        """Apply the corrections made before the episode at `order` (None: all left)."""
        due = [c for c in self.pending if order is None or c.after_order < order]
        if not due:
            return 0
        self.pending = [c for c in self.pending if c not in due]
        with project_lock(self.project.pk) as lease:
            for correction in due:
                lease.check()
                apply_correction(self.project, correction)
        return len(due)


# --- one entry point for the pages and the API ----------------------------------------------


def _number_field(value, name: str, kind: str = "node") -> int:
    text = str(value if value is not None else "").strip().lstrip("#")
    if not text.isascii() or not text.isdigit() or len(text) > 9:
        raise CorrectionRefused(f"{name} must be a {kind} number")
    return int(text)


def _ask(project: Project, user, number: int, action: str, fields: dict) -> None:
    """What the page asks before a destructive correction (ConfirmationNeeded)."""
    check_can_write(user, project)
    node = _node(project.graph_scope, number)
    here = f"#{node.number} “{node.label}”"
    undo = "The research page can undo it later."
    if action == CorrectionAction.MERGE:
        other = _number_field(fields.get("other"), "the node to merge in")
        gone = _node(project.graph_scope, other)
        raise ConfirmationNeeded(
            f"Merge #{gone.number} “{gone.label}” into {here}?",
            f"#{gone.number} closes; its evidence, edges and names join {here}. {undo}",
            "Yes, merge",
        )
    if action == CorrectionAction.SPLIT:
        alias = str(fields.get("alias") or "").strip()
        raise ConfirmationNeeded(
            f"Split the alias “{alias}” off {here}?",
            f"It becomes a node of its own with the quotes that say it. {undo}",
            "Yes, split",
        )
    raise ConfirmationNeeded(
        f"Reject {here}?",
        "It is not a finding: it closes with its open edges and is hidden; its evidence is "
        f"kept, and later mentions of it attach to it, hidden, without confidence. {undo}",
        "Yes, reject",
    )


def correct(
    project: Project, user, number: int, action: str, fields: dict, confirmed: bool = True
) -> CorrectionDone:
    """Run the correction `action` on node #number with the fields a form or a request sent
    (other, alias, label, type, edge, relation, target, message, quote, direction, note).
    Unless `confirmed`, a destructive one (ASKS_CONFIRMATION) only asks: ConfirmationNeeded."""
    if not confirmed and action in ASKS_CONFIRMATION:
        _ask(project, user, number, action, fields)
    note = str(fields.get("note") or "")
    text = {k: str(fields.get(k) or "").strip() for k in ("alias", "label", "type", "edge")}
    match action:
        case CorrectionAction.MERGE:
            other = _number_field(fields.get("other"), "the node to merge in")
            return merge_nodes(project, user, number, other, note)
        case CorrectionAction.SPLIT:
            return split_alias(project, user, number, text["alias"], note)
        case CorrectionAction.RENAME:
            return rename_node(project, user, number, text["label"], note)
        case CorrectionAction.RETYPE:
            return retype_node(project, user, number, text["type"], note)
        case CorrectionAction.REJECT:
            return reject_node(project, user, number, note)
        case CorrectionAction.CONFIRM:
            return confirm_node(project, user, number, note)
        case CorrectionAction.EDIT_EDGE:
            target = fields.get("target")
            return edit_edge(
                project,
                user,
                number,
                text["edge"],
                str(fields.get("relation") or "").strip(),
                _number_field(target, "the new target") if str(target or "").strip() else None,
                note,
            )
        case CorrectionAction.REMOVE_EDGE:
            return remove_edge(project, user, number, text["edge"], note)
        case CorrectionAction.ADD_EDGE:
            direction = str(fields.get("direction") or "out").strip()
            if direction not in ("out", "in"):
                raise CorrectionRefused("the direction is “out” (from this node) or “in”")
            return add_edge(
                project,
                user,
                number,
                str(fields.get("relation") or "").strip(),
                _number_field(fields.get("other"), "the other end"),
                _number_field(fields.get("message"), "the message cited", "message"),
                str(fields.get("quote") or ""),
                direction == "out",
                note,
            )
        case CorrectionAction.RESOURCE_EDGE:
            return resource_edge(
                project,
                user,
                number,
                text["edge"],
                _number_field(fields.get("message"), "the message cited", "message"),
                str(fields.get("quote") or ""),
                note,
            )
    choices = ", ".join(a for a in CorrectionAction.values if a != CorrectionAction.UNDO)
    raise CorrectionRefused(f"unknown correction {action!r} (one of: {choices})")
