"""Typed graph functions. Each takes the project scope; records in, records out."""

from __future__ import annotations

from collections.abc import Iterable

from kg.graph import cypher
from kg.graph.client import GraphClient, get_client
from kg.graph.records import (
    ContradictionRecord,
    EdgeRecord,
    EpisodeStub,
    Evidence,
    GraphScope,
    NodeRecord,
    ServerInfo,
    SupersessionRecord,
)
from kg.ontology import RELATIONS, OntologyError


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
    return constraints


def ping(client: GraphClient | None = None) -> ServerInfo:
    c = _client(client)
    c.run(cypher.PING)
    return c.server_info()


def upsert_episode_stub(scope: GraphScope, stub: EpisodeStub, client: GraphClient | None = None):
    _client(client).run(cypher.EPISODE_UPSERT, **_scope_params(scope), **stub.model_dump())


def mark_episode_processed(scope: GraphScope, uid: str, client: GraphClient | None = None) -> None:
    _client(client).run(cypher.EPISODE_MARK_PROCESSED, project=scope.project, uid=uid)


def episode_processed(scope: GraphScope, uid: str, client: GraphClient | None = None) -> bool:
    rows = _client(client).run(cypher.EPISODE_PROCESSED, project=scope.project, uid=uid)
    return bool(rows and rows[0]["processed"])


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
    c = _client(client)
    nodes = list(nodes)
    if not nodes:
        return 0
    rows = [{"uid": n.uid, "props": n.to_props()} for n in nodes]
    written = c.run(cypher.NODES_UPSERT, rows=rows, **_scope_params(scope))
    mentions = [
        {"node": uid, "episode": e.episode_uid, "quote": e.quote, "start": e.start, "end": e.end}
        for uid, e in new_evidence
    ]
    if mentions:
        c.run(cypher.NODE_MENTIONS_LINK, rows=mentions, project=scope.project)
    return int(written[0]["written"]) if written else 0


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
    c = _client(client)
    by_relation: dict[str, list[dict]] = {}
    for edge in edges:
        if edge.relation not in RELATIONS:
            raise OntologyError(f"relation {edge.relation!r} is not in the ontology")
        props = edge.to_props() | {"relation": edge.relation}
        by_relation.setdefault(edge.relation, []).append(
            {"uid": edge.uid, "source": edge.source, "target": edge.target, "props": props}
        )
    written = 0
    for relation, rows in by_relation.items():
        result = c.run(cypher.EDGE_UPSERT[relation], rows=rows, **_scope_params(scope))
        written += int(result[0]["written"]) if result else 0
    return written


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
