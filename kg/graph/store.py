"""Typed graph functions. Each takes the project scope; records in, records out."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable, Sequence

from kg.graph import cypher
from kg.graph.client import GraphClient, GraphUnavailable, get_client
from kg.graph.records import (
    ContradictionRecord,
    EdgeRecord,
    EpisodeStub,
    Evidence,
    GraphScope,
    NodeRecord,
    ServerInfo,
    SupersessionRecord,
    appended_items,
    evidence_json,
    stored_evidence,
)
from kg.ontology import RELATIONS, OntologyError

# The most characters of evidence appended to a record before they are moved onto the rest of
# its list (kg.graph.cypher's `_evidence_written`): the whole list is written once per this
# many characters appended, not at every append.
logger = logging.getLogger("groundwork.graph")

RECENT_EVIDENCE_CHARS = 16_000
# The vector index is searched across projects and types, then narrowed to one: it is asked
# for this many times the nodes wanted (and at least NEAREST_MIN_K) so that enough remain.
NEAREST_OVERFETCH = 4
NEAREST_MIN_K = 32


def _client(client: GraphClient | None) -> GraphClient:
    return client or get_client()


def _scope_params(scope: GraphScope) -> dict[str, str]:
    return {"project": scope.project, "org": scope.org}


def ensure_indexes(client: GraphClient | None = None) -> dict[str, bool]:
    """Create the uniqueness constraints and indexes; safe to call any number of times.

    Returns each constraint's state (False: not created, e.g. duplicates already stored).
    """
    c = _client(client)
    constraints = {
        f"{label}.{prop}": c.ensure_unique(label, prop) for label, prop in cypher.UNIQUE_PROPERTIES
    }
    for statement in cypher.INDEXES:
        c.run_schema(statement)
    if c.vectors:
        c.run_schema(cypher.dialect_statement("VECTOR_INDEX", c.dialect))
    return constraints


def ping(client: GraphClient | None = None) -> ServerInfo:
    c = _client(client)
    c.run(cypher.PING)
    return c.server_info()


def upsert_episode_stub(scope: GraphScope, stub: EpisodeStub, client: GraphClient | None = None):
    upsert_episode_stubs(scope, [stub], client)


def upsert_episode_stubs(
    scope: GraphScope, stubs: Iterable[EpisodeStub], client: GraphClient | None = None
) -> None:
    rows = [stub.model_dump() for stub in stubs]
    if rows:
        _client(client).run(cypher.EPISODES_UPSERT, rows=rows, **_scope_params(scope))


def max_node_number(scope: GraphScope, client: GraphClient | None = None) -> int:
    rows = _client(client).run(cypher.NODE_MAX_NUMBER, project=scope.project)
    return int(rows[0]["number"]) if rows else 0


def write_nodes(
    scope: GraphScope, nodes: Iterable[NodeRecord], client: GraphClient | None = None
) -> int:
    """Upsert nodes with every mention of their evidence (a graph written whole: a fixture,
    a benchmark's project); the pipeline writes changes (write_node_changes)."""
    nodes = list(nodes)
    new_evidence = [(n.uid, e) for n in nodes for e in n.evidence]
    return write_node_changes(scope, nodes, new_evidence, client)


def write_node_changes(
    scope: GraphScope,
    nodes: Iterable[NodeRecord],
    new_evidence: Iterable[tuple[str, Evidence]],
    client: GraphClient | None = None,
) -> int:
    """Upsert nodes and link only the mentions this change added (not every past one).

    A touched node's evidence property is written whole (the node's props carry it). That is
    safe only because every writer of node evidence holds the project lease and checked it
    just before (kg.pipeline.integrate): the node it read cannot have gained evidence since.
    Writers without the lease write single fields (`set_confidence`), never the props.
    """
    nodes = list(nodes)
    _write_nodes(scope, nodes, new_evidence, set(), client)
    return len(nodes)


def append_node_changes(
    scope: GraphScope,
    nodes: Iterable[NodeRecord],
    new_evidence: Iterable[tuple[str, Evidence]],
    client: GraphClient | None = None,
) -> dict[str, str]:
    """Upsert nodes whose evidence is the stored evidence plus `new_evidence`: where the new
    items sort last (the usual case: a later episode) they are appended to the stored list,
    else the list is written whole. The same precondition as `write_node_changes`: the nodes
    were read under the project lease with their whole evidence. Returns each node's new
    evidence version."""
    nodes = list(nodes)
    new_evidence = list(new_evidence)
    added: dict[str, set[int]] = {}
    for uid, e in new_evidence:
        added.setdefault(uid, set()).add(id(e))
    appending = {n.uid for n in nodes if _added_last(n.evidence, added.get(n.uid, set()))}
    return _write_nodes(scope, nodes, new_evidence, appending, client)


def _added_last(evidence: list[Evidence], added: set[int]) -> bool:
    """True when the added items (by identity) are the last len(added) items of the list."""
    return bool(added) and {id(e) for e in evidence[len(evidence) - len(added) :]} == added


def _evidence_rows(whole: str | None, appended: list[Evidence] | None) -> dict:
    """The evidence of a record's write (kg.graph.cypher's `_evidence_moved`): the list whole,
    or the items appended to it, or (neither) kept as stored."""
    if appended is None:
        return {"whole": whole, "items": None}
    return {"whole": None, "items": appended_items(appended)}


def _write_nodes(
    scope: GraphScope,
    nodes: list[NodeRecord],
    new_evidence: Iterable[tuple[str, Evidence]],
    appending: set[str],
    client: GraphClient | None,
) -> dict[str, str]:
    if not nodes:
        return {}
    mentions: dict[str, list[dict]] = {n.uid: [] for n in nodes}
    added: dict[str, int] = {}
    for uid, e in new_evidence:
        if uid not in mentions:
            raise ValueError(f"evidence for node {uid}, which this change does not write")
        mentions[uid].append(
            {"episode": e.episode_uid, "quote": e.quote, "start": e.start, "end": e.end}
        )
        added[uid] = added.get(uid, 0) + 1
    _write_vectors(scope, nodes, _client(client))
    versions = {n.uid: uuid.uuid4().hex for n in nodes}
    rows = []
    for n in nodes:
        row = {"uid": n.uid, "props": n.to_props(evidence=False), "mentions": mentions[n.uid]}
        row["version"] = versions[n.uid]
        if n.uid in appending:
            tail = n.evidence[len(n.evidence) - added[n.uid] :]
            row |= _evidence_rows(None, tail)
            row["episodes"] = _first_from(tail, n.evidence[: len(n.evidence) - len(tail)])
        else:
            row |= _evidence_rows(evidence_json(n.evidence), None)
            row["episodes"] = len(n.episode_uids)
        rows.append(row)
    _client(client).run(
        cypher.NODES_UPSERT_WITH_MENTIONS,
        rows=rows,
        recent_chars=RECENT_EVIDENCE_CHARS,
        **_scope_params(scope),
    )
    return versions


def _write_vectors(scope: GraphScope, nodes: list[NodeRecord], c: GraphClient) -> None:
    """The vectors of the nodes whose names changed, written before the nodes that say so
    (`vector_of`): a write that fails between the two is repeated whole by its retry."""
    if not c.vectors:
        return
    from kg.language.names import names_key, names_vectors

    keys = {n.uid: names_key(n.names) for n in nodes}
    stale = [n for n in nodes if n.vector_of != keys[n.uid]]
    if not stale:
        return
    vectors = names_vectors([n.names for n in stale])
    rows = [
        {"uid": n.uid, "type": n.type, "vector": vector}
        for n, vector in zip(stale, vectors, strict=True)
    ]
    c.run(
        cypher.dialect_statement("NODE_VECTORS_SET", c.dialect), rows=rows, **_scope_params(scope)
    )
    for n in stale:
        n.vector_of = keys[n.uid]


def keeps_vectors(client: GraphClient | None = None) -> bool:
    """Whether node vectors are written and searched through this connection."""
    return _client(client).vectors


def nearest_nodes(
    scope: GraphScope,
    node_type: str,
    vector: list[float],
    limit: int,
    client: GraphClient | None = None,
) -> list[tuple[str, float]] | None:
    """The active nodes of the type nearest in meaning to `vector`: (uid, cosine), best first.
    None where the connection keeps no vectors (FalkorDB over Bolt) or the index does not
    answer (a graph just created or emptied, whose vector index is still being built)."""
    found = nearest_nodes_many(scope, [(node_type, vector)], limit, client)
    return None if found is None else found[0]


def nearest_nodes_many(
    scope: GraphScope,
    asked: Sequence[tuple[str, list[float]]],
    limit: int,
    client: GraphClient | None = None,
) -> list[list[tuple[str, float]]] | None:
    """`nearest_nodes` of several (node type, vector) at once, in one statement: each one's
    list, in the order asked. None where the graph keeps or answers no vectors."""
    c = _client(client)
    if not c.vectors:
        return None
    if not asked:
        return []
    try:
        rows = c.run(
            cypher.dialect_statement("NEAREST_NODES", c.dialect),
            asked=[{"type": node_type, "vector": vector} for node_type, vector in asked],
            k=max(limit * NEAREST_OVERFETCH, NEAREST_MIN_K),
            limit=limit,
            **_scope_params(scope),
        )
    except GraphUnavailable:
        raise
    except Exception as error:  # the server refused the search itself, not the connection
        logger.warning("vector index not answering (%s): cosines computed in process", error)
        return None
    found: list[list[tuple[str, float]]] = [[] for _ in asked]
    for row in rows:
        found[int(row["i"])] = [(hit["uid"], float(hit["similarity"])) for hit in row["found"]]
    return found


def _first_from(tail: list[Evidence], before: list[Evidence]) -> int:
    """How many episodes the appended items are the first evidence from. The list is in
    valid_at order and an episode's items share its valid_at, so only the items at or after
    the earliest appended one are looked at, not the whole list."""
    since = min(e.valid_at for e in tail)
    seen = set()
    for e in reversed(before):
        if e.valid_at < since:
            break
        seen.add(e.episode_uid)
    return len({e.episode_uid for e in tail} - seen)


def nodes_without_evidence(
    scope: GraphScope, uids: Iterable[str], client: GraphClient | None = None
) -> list[tuple[NodeRecord, str | None, int]]:
    """Nodes by uid with no evidence read: each with the version of its evidence (None when
    written before versions) and the number of open contradictions on it."""
    uids = list(uids)
    if not uids:
        return []
    rows = _client(client).run(
        cypher.NODES_WITHOUT_EVIDENCE_BY_UIDS, uids=uids, project=scope.project, open="open"
    )
    return [
        (_record_without_evidence(NodeRecord, r["props"]), r["version"], int(r["open"]))
        for r in rows
    ]


def node_evidence(
    scope: GraphScope, uids: Iterable[str], client: GraphClient | None = None
) -> dict[str, tuple[str | None, list[Evidence]]]:
    """The evidence of nodes by uid, with its version."""
    uids = list(uids)
    if not uids:
        return {}
    rows = _client(client).run(cypher.NODES_EVIDENCE_BY_UIDS, uids=uids, project=scope.project)
    return {r["uid"]: (r["version"], _evidence_list(r)) for r in rows}


def _evidence_list(row: dict) -> list[Evidence]:
    return stored_evidence(row)


def _record_without_evidence(kind, props: dict):
    # Absent properties come back as nulls from a map projection: the record's defaults stand.
    return kind.model_validate(
        {k: v for k, v in props.items() if v is not None or k == "invalid_at"}
    )


def set_confidence(
    scope: GraphScope, confidences: dict[str, int], client: GraphClient | None = None
) -> None:
    """Write only the confidence field of nodes: their evidence is never rewritten here."""
    if confidences:
        rows = [{"uid": uid, "confidence": value} for uid, value in sorted(confidences.items())]
        _client(client).run(cypher.NODES_SET_CONFIDENCE, rows=rows, project=scope.project)


def open_contradiction_counts(
    scope: GraphScope, uids: Iterable[str], client: GraphClient | None = None
) -> dict[str, int]:
    uids = list(uids)
    if not uids:
        return {}
    rows = _client(client).run(
        cypher.OPEN_CONTRADICTION_COUNTS, uids=uids, project=scope.project, open="open"
    )
    return {r["uid"]: int(r["open"]) for r in rows}


def _edges(rows: list[dict]) -> list[EdgeRecord]:
    return [EdgeRecord.from_row(r["relation"], r["source"], r["target"], r["props"]) for r in rows]


def edges_between(
    scope: GraphScope, pairs: Iterable[tuple[str, str]], client: GraphClient | None = None
) -> list[EdgeRecord]:
    rows = [{"source": s, "target": t} for s, t in sorted(set(pairs))]
    if not rows:
        return []
    return _edges(_client(client).run(cypher.EDGES_BETWEEN, pairs=rows, project=scope.project))


def edges_from_by_relation(
    scope: GraphScope, pairs: Iterable[tuple[str, str]], client: GraphClient | None = None
) -> list[EdgeRecord]:
    """Edges leaving each (source uid, relation)."""
    rows = [{"source": s, "relation": r} for s, r in sorted(set(pairs))]
    if not rows:
        return []
    return _edges(
        _client(client).run(cypher.EDGES_FROM_BY_RELATION, rows=rows, project=scope.project)
    )


def edges_into(
    scope: GraphScope, uids: Iterable[str], client: GraphClient | None = None
) -> list[EdgeRecord]:
    uids = sorted(set(uids))
    if not uids:
        return []
    return _edges(_client(client).run(cypher.EDGES_INTO_NODES, uids=uids, project=scope.project))


def edges_without_evidence(
    scope: GraphScope,
    *,
    between: Iterable[tuple[str, str]] = (),
    from_by_relation: Iterable[tuple[str, str]] = (),
    into: Iterable[str] = (),
    client: GraphClient | None = None,
) -> list[tuple[EdgeRecord, str | None]]:
    """The edges `edges_between`, `edges_from_by_relation` and `edges_into` return, with no
    evidence read: each with the version of its evidence (None when written before versions)."""
    c = _client(client)
    rows: list[dict] = []
    pairs = [{"source": s, "target": t} for s, t in sorted(set(between))]
    if pairs:
        rows += c.run(cypher.EDGES_WITHOUT_EVIDENCE_BETWEEN, pairs=pairs, project=scope.project)
    functional = [{"source": s, "relation": r} for s, r in sorted(set(from_by_relation))]
    if functional:
        rows += c.run(
            cypher.EDGES_WITHOUT_EVIDENCE_FROM_BY_RELATION, rows=functional, project=scope.project
        )
    targets = sorted(set(into))
    if targets:
        rows += c.run(cypher.EDGES_WITHOUT_EVIDENCE_INTO_NODES, uids=targets, project=scope.project)
    found = []
    for r in rows:
        props = r["props"] | {
            "relation": r["relation"],
            "source": r["source"],
            "target": r["target"],
        }
        found.append((_record_without_evidence(EdgeRecord, props), r["version"]))
    return found


def edge_evidence(
    scope: GraphScope, edges: Iterable[EdgeRecord], client: GraphClient | None = None
) -> dict[str, tuple[str | None, list[Evidence]]]:
    """The evidence of edges (found from their source node), with its version."""
    rows = [{"source": e.source, "uid": e.uid} for e in edges]
    if not rows:
        return {}
    found = _client(client).run(cypher.EDGES_EVIDENCE_BY_UIDS, rows=rows, project=scope.project)
    return {r["uid"]: (r["version"], _evidence_list(r)) for r in found}


def open_contradiction(
    scope: GraphScope, record: ContradictionRecord, client: GraphClient | None = None
) -> bool:
    """Open it unless it exists (a resolved one stays resolved); True when this opened it."""
    props = record.model_dump(exclude={"uid", "a", "b"})
    rows = _client(client).run(
        cypher.CONTRADICTION_OPEN,
        uid=record.uid,
        a=record.a,
        b=record.b,
        props=props,
        **_scope_params(scope),
    )
    return bool(rows) and rows[0]["opened_at"] == record.opened_at


def list_nodes(
    scope: GraphScope, node_type: str | None = None, client: GraphClient | None = None
) -> list[NodeRecord]:
    c = _client(client)
    if node_type:
        rows = c.run(cypher.NODES_BY_TYPE, project=scope.project, type=node_type)
    else:
        rows = c.run(cypher.NODES_BY_PROJECT, project=scope.project)
    return [NodeRecord.from_props(r["props"]) for r in rows]


def nodes_by_uids(
    scope: GraphScope, uids: Iterable[str], client: GraphClient | None = None
) -> list[NodeRecord]:
    rows = _client(client).run(cypher.NODES_BY_UIDS, project=scope.project, uids=list(uids))
    return [NodeRecord.from_props(r["props"]) for r in rows]


def nodes_named_like(
    scope: GraphScope,
    node_type: str,
    words: str,
    exclude: Iterable[str] = (),
    limit: int = 20,
    client: GraphClient | None = None,
) -> list[NodeRecord]:
    """Open nodes of the type with `words` in their label or an alias (case aside), without
    their evidence."""
    rows = _client(client).run(
        cypher.NODES_NAMED_LIKE,
        project=scope.project,
        type=node_type,
        words=words.lower(),
        exclude=list(exclude),
        limit=limit,
    )
    return [_record_without_evidence(NodeRecord, r["props"]) for r in rows]


def node_by_number(
    scope: GraphScope, number: int, client: GraphClient | None = None
) -> NodeRecord | None:
    rows = _client(client).run(cypher.NODE_BY_NUMBER, project=scope.project, number=number)
    return NodeRecord.from_props(rows[0]["props"]) if rows else None


def nodes_for_episode(
    scope: GraphScope, episode_uid: str, client: GraphClient | None = None
) -> list[NodeRecord]:
    rows = _client(client).run(cypher.NODES_BY_EPISODE, project=scope.project, episode=episode_uid)
    return [NodeRecord.from_props(r["props"]) for r in rows]


def unlink_mentions(
    scope: GraphScope, node_uid: str, episode_uids: Iterable[str], client: GraphClient | None = None
) -> None:
    """Remove the node's links to episodes its evidence no longer holds an item from."""
    episodes = sorted(set(episode_uids))
    if episodes:
        _client(client).run(
            cypher.MENTIONS_DELETE, uid=node_uid, episodes=episodes, project=scope.project
        )


def mentioned_episodes(scope: GraphScope, client: GraphClient | None = None) -> dict[str, set[str]]:
    """The episodes each node's mentions link to, by node uid (a node's evidence holds an item
    from each of them)."""
    rows = _client(client).run(cypher.MENTIONED_EPISODES_BY_NODE, project=scope.project)
    return {r["uid"]: set(r["episodes"]) for r in rows}


def count_nodes(scope: GraphScope, client: GraphClient | None = None) -> int:
    rows = _client(client).run(cypher.NODE_COUNT, project=scope.project)
    return int(rows[0]["count"]) if rows else 0


def top_nodes_of_type(
    scope: GraphScope,
    node_type: str,
    limit: int,
    moment: str | None = None,
    client: GraphClient | None = None,
) -> list[NodeRecord]:
    """The `limit` highest-priority nodes of a type valid at `moment` (None = now)."""
    rows = _client(client).run(
        cypher.NODES_TOP_BY_TYPE, project=scope.project, type=node_type, limit=limit, moment=moment
    )
    return [NodeRecord.from_props(r["props"]) for r in rows]


def node_totals_by_type(
    scope: GraphScope,
    node_types: Iterable[str],
    moment: str | None = None,
    client: GraphClient | None = None,
) -> dict[str, tuple[int, int]]:
    """(count, sum of confidence) of the nodes of each type valid at `moment` (None = now)."""
    wanted = list(node_types)
    rows = _client(client).run(
        cypher.NODE_COUNTS_BY_TYPE, project=scope.project, types=wanted, moment=moment
    )
    found = {r["type"]: (int(r["count"]), int(r["confidence"] or 0)) for r in rows}
    return {t: found.get(t, (0, 0)) for t in wanted}


def edges_of_nodes(
    scope: GraphScope, uids: Iterable[str], client: GraphClient | None = None
) -> list[EdgeRecord]:
    """Every edge with at least one end among the given nodes (any validity), once each."""
    rows = _client(client).run(cypher.EDGES_OF_NODES, project=scope.project, uids=sorted(uids))
    found: dict[str, EdgeRecord] = {}
    for r in rows:
        if r["props"]["uid"] not in found:
            record = EdgeRecord.from_row(r["relation"], r["source"], r["target"], r["props"])
            found[record.uid] = record
    return [found[uid] for uid in sorted(found, key=lambda u: (found[u].valid_at, u))]


def write_edges(
    scope: GraphScope, edges: Iterable[EdgeRecord], client: GraphClient | None = None
) -> int:
    """Upsert edges with their evidence written whole."""
    return _write_edges(scope, list(edges), None, client)[1]


def append_edge_changes(
    scope: GraphScope,
    edges: Iterable[EdgeRecord],
    new_evidence: Iterable[tuple[str, Evidence]],
    client: GraphClient | None = None,
) -> dict[str, str]:
    """Upsert edges whose evidence is the stored evidence plus `new_evidence` (by edge uid):
    appended where the new items sort last, else written whole; an edge with no new evidence
    keeps its stored evidence. The precondition of `append_node_changes`. Returns each edge's
    new evidence version."""
    added: dict[str, set[int]] = {}
    for uid, e in new_evidence:
        added.setdefault(uid, set()).add(id(e))
    return _write_edges(scope, list(edges), added, client)[0]


def _write_edges(
    scope: GraphScope,
    edges: list[EdgeRecord],
    added: dict[str, set[int]] | None,
    client: GraphClient | None,
) -> tuple[dict[str, str], int]:
    """`added` None: every edge written whole; else the new items of each edge by uid.
    Returns the new evidence version of each edge, and how many edges were written."""
    c = _client(client)
    by_relation: dict[str, list[dict]] = {}
    versions: dict[str, str] = {}
    for edge in edges:
        if edge.relation not in RELATIONS:
            raise OntologyError(f"relation {edge.relation!r} is not in the ontology")
        props = edge.to_props(evidence=False) | {"relation": edge.relation}
        versions[edge.uid] = uuid.uuid4().hex
        row = {"uid": edge.uid, "source": edge.source, "target": edge.target, "props": props}
        row["version"] = versions[edge.uid]
        new = (added or {}).get(edge.uid, set())
        if added is not None and not new:
            row |= _evidence_rows(None, None)  # its stored evidence stands
        elif added is not None and _added_last(edge.evidence, new):
            row |= _evidence_rows(None, edge.evidence[-len(new) :])
        else:
            row |= _evidence_rows(evidence_json(edge.evidence), None)
        by_relation.setdefault(edge.relation, []).append(row)
    written = 0
    for relation, rows in by_relation.items():
        result = c.run(
            cypher.EDGE_UPSERT[relation],
            rows=rows,
            recent_chars=RECENT_EVIDENCE_CHARS,
            **_scope_params(scope),
        )
        written += int(result[0]["written"]) if result else 0
    return versions, written


def delete_edges(
    scope: GraphScope, edges: Iterable[EdgeRecord], client: GraphClient | None = None
) -> None:
    """Delete edges (by source and uid): a correction moved them onto another node."""
    rows = [{"source": e.source, "uid": e.uid} for e in edges]
    if rows:
        _client(client).run(cypher.EDGES_DELETE, rows=rows, project=scope.project)


def list_edges(scope: GraphScope, client: GraphClient | None = None) -> list[EdgeRecord]:
    rows = _client(client).run(cypher.EDGES_BY_PROJECT, project=scope.project)
    return [EdgeRecord.from_row(r["relation"], r["source"], r["target"], r["props"]) for r in rows]


def edges_of_node(
    scope: GraphScope, uid: str, client: GraphClient | None = None
) -> list[EdgeRecord]:
    rows = _client(client).run(cypher.EDGES_BY_NODE, project=scope.project, uid=uid)
    return [EdgeRecord.from_row(r["relation"], r["source"], r["target"], r["props"]) for r in rows]


def write_contradiction(
    scope: GraphScope, record: ContradictionRecord, client: GraphClient | None = None
) -> None:
    props = record.model_dump(exclude={"uid", "a", "b"})
    _client(client).run(
        cypher.CONTRADICTION_UPSERT,
        uid=record.uid,
        a=record.a,
        b=record.b,
        props=props,
        **_scope_params(scope),
    )


def list_contradictions(
    scope: GraphScope, client: GraphClient | None = None
) -> list[ContradictionRecord]:
    rows = _client(client).run(cypher.CONTRADICTIONS_BY_PROJECT, project=scope.project)
    return [
        ContradictionRecord.model_validate(r["props"] | {"a": r["a"], "b": r["b"]}) for r in rows
    ]


def resolve_contradiction(
    scope: GraphScope,
    uid: str,
    resolved_at: str,
    resolution: str,
    client: GraphClient | None = None,
    *,
    kept: str = "",
    superseded: str = "",
    answer_episode: str = "",
    answer_number: int | None = None,
    answer_quote: str = "",
) -> bool:
    """Mark an open contradiction resolved (and what the answer decided); False when it was
    not open any more."""
    rows = _client(client).run(
        cypher.CONTRADICTION_RESOLVE,
        project=scope.project,
        open="open",
        uid=uid,
        resolved_at=resolved_at,
        resolution=resolution,
        kept=kept,
        superseded=superseded,
        answer_episode=answer_episode,
        answer_number=answer_number,
        answer_quote=answer_quote,
    )
    return bool(rows)


def write_answer_supersession(
    scope: GraphScope, record: SupersessionRecord, client: GraphClient | None = None
) -> None:
    """The losing statement of a contradiction superseded by the kept one, the answer its
    evidence."""
    _client(client).run(cypher.SUPERSEDED_BY_ANSWER, **record.model_dump(), **_scope_params(scope))


def write_supersession(
    scope: GraphScope, record: SupersessionRecord, client: GraphClient | None = None
) -> None:
    _client(client).run(cypher.SUPERSEDED_UPSERT, **record.model_dump(), **_scope_params(scope))


def delete_supersession(
    scope: GraphScope, old: str, new: str, client: GraphClient | None = None
) -> None:
    _client(client).run(cypher.SUPERSESSION_DELETE, project=scope.project, old=old, new=new)


def list_supersessions(
    scope: GraphScope, client: GraphClient | None = None
) -> list[SupersessionRecord]:
    rows = _client(client).run(cypher.SUPERSESSIONS_BY_PROJECT, project=scope.project)
    # Links a pipeline wrote carry no answer: their absent fields keep the record's defaults.
    return [
        SupersessionRecord.model_validate({k: v for k, v in r.items() if v is not None})
        for r in rows
    ]


def delete_project_graph(scope: GraphScope, client: GraphClient | None = None) -> None:
    _client(client).run(cypher.PROJECT_DELETE, project=scope.project)


def org_nodes_of_type(
    org: str, projects: list[str], node_type: str, client: GraphClient | None = None
) -> list[tuple[str, NodeRecord]]:
    """Nodes of one type across the given projects of one organization: (project, node)."""
    rows = _client(client).run(cypher.ORG_NODES_BY_TYPE, org=org, projects=projects, type=node_type)
    return [(r["props"]["project"], NodeRecord.from_props(r["props"])) for r in rows]
