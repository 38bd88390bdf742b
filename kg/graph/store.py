"""Typed graph functions. Each takes the project scope; records in, records out."""

from __future__ import annotations

import bisect
import logging
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.conf import settings

from kg.graph import cypher
from kg.graph import evidence as evidence_records
from kg.graph.client import DEFAULT_GRAPH_NAME, GraphClient, GraphUnavailable, get_client
from kg.graph.evidence import PAGE_SIZE, EvidencePage
from kg.graph.records import (
    ContradictionRecord,
    EdgeRecord,
    EpisodeStub,
    Evidence,
    GraphScope,
    ListedNode,
    NodeRecord,
    NodeRef,
    ServerInfo,
    SupersessionRecord,
    appended_items,
    evidence_json,
    stored_evidence,
)
from kg.installation import installation_namespace
from kg.ontology import RELATIONS, OntologyError

logger = logging.getLogger("groundwork.graph")

# The most characters of evidence appended to an edge before they are moved onto the rest of
# its list (kg.graph.cypher's `_evidence_moved`): the whole list is written once per this
# many characters appended, not at every append. (A node's evidence is records:
# kg.graph.evidence.)
RECENT_EVIDENCE_CHARS = 16_000
# The vector index is searched across projects and types, then narrowed to one: it is asked
# for this many times the nodes wanted (and at least NEAREST_MIN_K) so that enough remain.
NEAREST_OVERFETCH = 4
NEAREST_MIN_K = 32


def _client(client: GraphClient | None) -> GraphClient:
    return client or get_client()


def project_graph_name(scope: GraphScope) -> str:
    """The graph that holds one project, named from the installation and the project's key:
    projects never share a writer or a server's memory, and on a Redis Cluster their graphs
    spread over the shards by key. (A Bolt connection keeps every project in its database.)"""
    base = settings.GRAPH_DATABASE or DEFAULT_GRAPH_NAME
    return f"{base}:{installation_namespace()}:{scope.project}"


def project_graph(scope: GraphScope, client: GraphClient | None) -> GraphClient:
    """The connection on the scope's own graph; its indexes are made the first time this
    process uses it (a new project's graph is created by its first write)."""
    c = _client(client)
    graph = c.for_graph(project_graph_name(scope))
    if not graph.schema_ready:
        ensure_indexes(graph)
        graph.schema_ready = True
    return graph


def forget_project_graphs(client: GraphClient | None = None) -> None:
    """Forget which project graphs have their indexes (after their keys were flushed)."""
    _client(client).forget_graphs()


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
        project_graph(scope, client).run(cypher.EPISODES_UPSERT, rows=rows, **_scope_params(scope))


def max_node_number(scope: GraphScope, client: GraphClient | None = None) -> int:
    rows = project_graph(scope, client).run(cypher.NODE_MAX_NUMBER, project=scope.project)
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
    """Upsert nodes, their evidence written whole (items the list no longer holds are deleted),
    and link only the mentions this change added (not every past one).

    Safe only because every writer of node evidence holds the project lease and checked it
    just before (kg.pipeline.integrate): the node it read cannot have gained evidence since.
    Writers without the lease write single fields (`set_confidence`), never the props.
    """
    nodes = list(nodes)
    _write_nodes(scope, nodes, new_evidence, appending=False, client=client)
    return len(nodes)


def append_node_changes(
    scope: GraphScope,
    nodes: Iterable[NodeRecord],
    new_evidence: Iterable[tuple[str, Evidence]],
    client: GraphClient | None = None,
) -> dict[str, str]:
    """Upsert nodes whose evidence is the stored evidence plus `new_evidence`: only the new
    items are written (kg.graph.evidence), wherever they sort. The same precondition as
    `write_node_changes`: the nodes were read under the project lease with their whole
    evidence (their counts are taken from it). Returns each node's new evidence version."""
    return _write_nodes(scope, list(nodes), list(new_evidence), appending=True, client=client)


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
    *,
    appending: bool,
    client: GraphClient | None,
) -> dict[str, str]:
    """`appending`: each node's new items are written (its other items stand); else its whole
    list, and its items not in it deleted."""
    if not nodes:
        return {}
    mentions: dict[str, list[dict]] = {n.uid: [] for n in nodes}
    added: dict[str, list[Evidence]] = {n.uid: [] for n in nodes}
    for uid, e in new_evidence:
        if uid not in mentions:
            raise ValueError(f"evidence for node {uid}, which this change does not write")
        mentions[uid].append(
            {"episode": e.episode_uid, "quote": e.quote, "start": e.start, "end": e.end}
        )
        added[uid].append(e)
    c = project_graph(scope, client)
    _write_vectors(scope, nodes, c)
    versions = {n.uid: uuid.uuid4().hex for n in nodes}
    rows = []
    for n in nodes:
        row = {"uid": n.uid, "props": n.to_props(evidence=False), "mentions": mentions[n.uid]}
        row |= {"version": versions[n.uid], "whole": not appending, "count": len(n.evidence)}
        row["sample"] = evidence_records.sample_keys(n.uid, n.evidence)
        written = added[n.uid] if appending else n.evidence
        row["items"] = [evidence_records.item_row(n.uid, e) for e in written]
        # The distinct episodes: counted whole, or raised by those the new items are the first
        # from.
        if appending:
            row |= {"recount": False, "episodes": _first_from(written, n.evidence)}
        else:
            row |= {"recount": True, "episodes": len(n.episode_uids)}
        rows.append(row)
    c.run(cypher.NODES_UPSERT_WITH_MENTIONS, rows=rows, **_scope_params(scope))
    # A second statement: a write that fails before it leaves items the list no longer holds
    # until it is repeated (every whole write is: a correction's task, a rebuild).
    if not appending:
        pruned = [{"uid": n.uid, "version": versions[n.uid]} for n in nodes]
        c.run(cypher.EVIDENCE_ITEMS_PRUNE, rows=pruned, project=scope.project)
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
    c = project_graph(scope, client)
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


def _first_from(added: list[Evidence], evidence: list[Evidence]) -> int:
    """How many episodes the added items (among `evidence`, the record's whole list) are the
    first evidence from. The list is in evidence order and an episode's items share its time
    and number, so each episode's items are found by bisection, not by reading the list."""
    new = {(e.episode_uid, e.start) for e in added}
    episodes = {e.episode_uid: (e.valid_at, e.episode_number) for e in added}
    first = 0
    for uid, place in episodes.items():
        at = bisect.bisect_left(evidence, place, key=lambda e: (e.valid_at, e.episode_number))
        while at < len(evidence) and (evidence[at].valid_at, evidence[at].episode_number) == place:
            if evidence[at].episode_uid == uid and (uid, evidence[at].start) not in new:
                break
            at += 1
        else:
            first += 1
    return first


def nodes_without_evidence(
    scope: GraphScope, uids: Iterable[str], client: GraphClient | None = None
) -> list[tuple[NodeRecord, str | None, int]]:
    """Nodes by uid with no evidence read: each with the version of its evidence (None when
    written before versions) and the number of open contradictions on it."""
    uids = list(uids)
    if not uids:
        return []
    rows = project_graph(scope, client).run(
        cypher.NODES_WITHOUT_EVIDENCE_BY_UIDS, uids=uids, project=scope.project, open="open"
    )
    return [
        (_record_without_evidence(NodeRecord, r["props"]), r["version"], int(r["open"]))
        for r in rows
    ]


def node_evidence(
    scope: GraphScope, uids: Iterable[str], client: GraphClient | None = None
) -> dict[str, tuple[str | None, list[Evidence]]]:
    """The evidence of nodes by uid (every item, in order), with its version."""
    uids = list(uids)
    if not uids:
        return {}
    c = project_graph(scope, client)
    rows = c.run(cypher.NODES_EVIDENCE_BY_UIDS, uids=uids, project=scope.project)
    items = evidence_records.items_by_node(c, scope, [r["uid"] for r in rows])
    return {
        r["uid"]: (
            r["version"],
            evidence_records.combined(_evidence_list(r), items.get(r["uid"], [])),
        )
        for r in rows
    }


def node_evidence_page(
    scope: GraphScope,
    uid: str,
    after: str | None = None,
    limit: int = PAGE_SIZE,
    client: GraphClient | None = None,
) -> EvidencePage | None:
    """A page of a node's evidence in order, after the `after` a previous page returned (None:
    the first), with the node's counts and representative items; None when the project has
    no such node. Its cost is the page's, not the node's whole list's."""
    return evidence_records.evidence_page(project_graph(scope, client), scope, uid, after, limit)


def _with_evidence(
    scope: GraphScope, nodes: list[NodeRecord], c: GraphClient, *, whole_project: bool = False
) -> list[NodeRecord]:
    """The nodes given their evidence records (after any list kept in their properties)."""
    if not nodes:
        return nodes
    uids = None if whole_project else [n.uid for n in nodes]
    items = evidence_records.items_by_node(c, scope, uids)
    for n in nodes:
        n.evidence = evidence_records.combined(n.evidence, items.get(n.uid, []))
    return nodes


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
        project_graph(scope, client).run(
            cypher.NODES_SET_CONFIDENCE, rows=rows, project=scope.project
        )


def open_contradiction_counts(
    scope: GraphScope, uids: Iterable[str], client: GraphClient | None = None
) -> dict[str, int]:
    uids = list(uids)
    if not uids:
        return {}
    rows = project_graph(scope, client).run(
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
    return _edges(
        project_graph(scope, client).run(cypher.EDGES_BETWEEN, pairs=rows, project=scope.project)
    )


def edges_from_by_relation(
    scope: GraphScope, pairs: Iterable[tuple[str, str]], client: GraphClient | None = None
) -> list[EdgeRecord]:
    """Edges leaving each (source uid, relation)."""
    rows = [{"source": s, "relation": r} for s, r in sorted(set(pairs))]
    if not rows:
        return []
    return _edges(
        project_graph(scope, client).run(
            cypher.EDGES_FROM_BY_RELATION, rows=rows, project=scope.project
        )
    )


def edges_into(
    scope: GraphScope, uids: Iterable[str], client: GraphClient | None = None
) -> list[EdgeRecord]:
    uids = sorted(set(uids))
    if not uids:
        return []
    return _edges(
        project_graph(scope, client).run(cypher.EDGES_INTO_NODES, uids=uids, project=scope.project)
    )


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
    c = project_graph(scope, client)
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
    found = project_graph(scope, client).run(
        cypher.EDGES_EVIDENCE_BY_UIDS, rows=rows, project=scope.project
    )
    return {r["uid"]: (r["version"], _evidence_list(r)) for r in found}


def open_contradiction(
    scope: GraphScope, record: ContradictionRecord, client: GraphClient | None = None
) -> bool:
    """Open it unless it exists (a resolved one stays resolved); True when this opened it."""
    props = record.model_dump(exclude={"uid", "a", "b"})
    rows = project_graph(scope, client).run(
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
    c = project_graph(scope, client)
    if node_type:
        rows = c.run(cypher.NODES_BY_TYPE, project=scope.project, type=node_type)
    else:
        rows = c.run(cypher.NODES_BY_PROJECT, project=scope.project)
    nodes = [NodeRecord.from_props(r["props"]) for r in rows]
    return _with_evidence(scope, nodes, c, whole_project=not node_type)


def nodes_by_uids(
    scope: GraphScope, uids: Iterable[str], client: GraphClient | None = None
) -> list[NodeRecord]:
    c = project_graph(scope, client)
    rows = c.run(cypher.NODES_BY_UIDS, project=scope.project, uids=list(uids))
    return _with_evidence(scope, [NodeRecord.from_props(r["props"]) for r in rows], c)


def nodes_said_with(
    scope: GraphScope,
    uids: Iterable[str],
    types: Iterable[str],
    limit: int,
    client: GraphClient | None = None,
) -> list[NodeRecord]:
    """At most `limit` valid nodes of `types` said in the messages that name any of `uids`
    (not those nodes themselves), with their evidence; most messages shared first."""
    uids, types = sorted(set(uids)), sorted(set(types))
    if not uids or not types or limit <= 0:
        return []
    c = project_graph(scope, client)
    rows = c.run(cypher.NODES_SAID_WITH, project=scope.project, uids=uids, types=types, limit=limit)
    return nodes_by_uids(scope, [r["uid"] for r in rows], c)


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
    rows = project_graph(scope, client).run(
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
    c = project_graph(scope, client)
    rows = c.run(cypher.NODE_BY_NUMBER, project=scope.project, number=number)
    return _with_evidence(scope, [NodeRecord.from_props(rows[0]["props"])], c)[0] if rows else None


def nodes_for_episode(
    scope: GraphScope, episode_uid: str, client: GraphClient | None = None
) -> list[NodeRecord]:
    c = project_graph(scope, client)
    rows = c.run(cypher.NODES_BY_EPISODE, project=scope.project, episode=episode_uid)
    return _with_evidence(scope, [NodeRecord.from_props(r["props"]) for r in rows], c)


def unlink_mentions(
    scope: GraphScope, node_uid: str, episode_uids: Iterable[str], client: GraphClient | None = None
) -> None:
    """Remove the node's links to episodes its evidence no longer holds an item from."""
    episodes = sorted(set(episode_uids))
    if episodes:
        project_graph(scope, client).run(
            cypher.MENTIONS_DELETE, uid=node_uid, episodes=episodes, project=scope.project
        )


def mentioned_episodes(scope: GraphScope, client: GraphClient | None = None) -> dict[str, set[str]]:
    """The episodes each node's mentions link to, by node uid (a node's evidence holds an item
    from each of them)."""
    rows = project_graph(scope, client).run(
        cypher.MENTIONED_EPISODES_BY_NODE, project=scope.project
    )
    return {r["uid"]: set(r["episodes"]) for r in rows}


def count_nodes(scope: GraphScope, client: GraphClient | None = None) -> int:
    rows = project_graph(scope, client).run(cypher.NODE_COUNT, project=scope.project)
    return int(rows[0]["count"]) if rows else 0


def top_nodes_of_type(
    scope: GraphScope,
    node_type: str,
    limit: int,
    moment: str | None = None,
    client: GraphClient | None = None,
) -> list[NodeRecord]:
    """The `limit` highest-priority nodes of a type valid at `moment` (None = now)."""
    c = project_graph(scope, client)
    rows = c.run(
        cypher.NODES_TOP_BY_TYPE, project=scope.project, type=node_type, limit=limit, moment=moment
    )
    return _with_evidence(scope, [NodeRecord.from_props(r["props"]) for r in rows], c)


def node_totals_by_type(
    scope: GraphScope,
    node_types: Iterable[str],
    moment: str | None = None,
    client: GraphClient | None = None,
) -> dict[str, tuple[int, int]]:
    """(count, sum of confidence) of the nodes of each type valid at `moment` (None = now)."""
    wanted = list(node_types)
    rows = project_graph(scope, client).run(
        cypher.NODE_COUNTS_BY_TYPE, project=scope.project, types=wanted, moment=moment
    )
    found = {r["type"]: (int(r["count"]), int(r["confidence"] or 0)) for r in rows}
    return {t: found.get(t, (0, 0)) for t in wanted}


def edges_of_nodes(
    scope: GraphScope, uids: Iterable[str], client: GraphClient | None = None
) -> list[EdgeRecord]:
    """Every edge with at least one end among the given nodes (any validity), once each."""
    rows = project_graph(scope, client).run(
        cypher.EDGES_OF_NODES, project=scope.project, uids=sorted(uids)
    )
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
    c = project_graph(scope, client)
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
        project_graph(scope, client).run(cypher.EDGES_DELETE, rows=rows, project=scope.project)


def list_edges(scope: GraphScope, client: GraphClient | None = None) -> list[EdgeRecord]:
    rows = project_graph(scope, client).run(cypher.EDGES_BY_PROJECT, project=scope.project)
    return [EdgeRecord.from_row(r["relation"], r["source"], r["target"], r["props"]) for r in rows]


def edges_of_node(
    scope: GraphScope, uid: str, client: GraphClient | None = None
) -> list[EdgeRecord]:
    rows = project_graph(scope, client).run(cypher.EDGES_BY_NODE, project=scope.project, uid=uid)
    return [EdgeRecord.from_row(r["relation"], r["source"], r["target"], r["props"]) for r in rows]


def write_contradiction(
    scope: GraphScope, record: ContradictionRecord, client: GraphClient | None = None
) -> None:
    props = record.model_dump(exclude={"uid", "a", "b"})
    project_graph(scope, client).run(
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
    rows = project_graph(scope, client).run(cypher.CONTRADICTIONS_BY_PROJECT, project=scope.project)
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
    rows = project_graph(scope, client).run(
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
    project_graph(scope, client).run(
        cypher.SUPERSEDED_BY_ANSWER, **record.model_dump(), **_scope_params(scope)
    )


def write_supersession(
    scope: GraphScope, record: SupersessionRecord, client: GraphClient | None = None
) -> None:
    project_graph(scope, client).run(
        cypher.SUPERSEDED_UPSERT, **record.model_dump(), **_scope_params(scope)
    )


def delete_supersession(
    scope: GraphScope, old: str, new: str, client: GraphClient | None = None
) -> None:
    project_graph(scope, client).run(
        cypher.SUPERSESSION_DELETE, project=scope.project, old=old, new=new
    )


def list_supersessions(
    scope: GraphScope, client: GraphClient | None = None
) -> list[SupersessionRecord]:
    rows = project_graph(scope, client).run(cypher.SUPERSESSIONS_BY_PROJECT, project=scope.project)
    # Links a pipeline wrote carry no answer: their absent fields keep the record's defaults.
    return [
        SupersessionRecord.model_validate({k: v for k, v in r.items() if v is not None})
        for r in rows
    ]


def delete_project_graph(scope: GraphScope, client: GraphClient | None = None) -> None:
    graph = project_graph(scope, client)
    graph.run(cypher.PROJECT_DELETE, project=scope.project)
    graph.drop_graph()


def org_nodes_of_type(
    org: str, projects: list[str], node_type: str, client: GraphClient | None = None
) -> list[tuple[str, NodeRecord]]:
    """Nodes of one type across the given projects of one organization: (project, node),
    read from each project's graph in turn (ordered by project, then number)."""
    found: list[tuple[str, NodeRecord]] = []
    for project in sorted(set(projects)):
        graph = project_graph(GraphScope(org=org, project=project), client)
        rows = graph.run(cypher.ORG_NODES_BY_TYPE, org=org, projects=[project], type=node_type)
        nodes = [NodeRecord.from_props(r["props"]) for r in rows]
        _with_evidence(GraphScope(org=org, project=project), nodes, graph)
        found += [(project, node) for node in nodes]
    return found


# --- pages: bounded reads where a person waits (kg.graph.cypher's "pages") ------------------


@dataclass(frozen=True)
class NodeListQuery:
    """Which of a project's nodes a list shows; an empty field filters nothing."""

    type: str = ""
    valid: bool | None = None  # True: still valid; False: closed (stale)
    low: int | None = None  # confidence bounds, inclusive
    high: int | None = None
    words: str = ""  # in the label or an alias, case aside
    contradicted: bool = False  # only nodes in an open contradiction

    def params(self) -> dict:
        return {
            "type": self.type,
            "valid": self.valid,
            "low": self.low,
            "high": self.high,
            "words": self.words.lower(),
            "open": "open",
        }


def node_page(
    scope: GraphScope,
    query: NodeListQuery,
    skip: int,
    limit: int,
    client: GraphClient | None = None,
) -> list[ListedNode]:
    """One page of the project's nodes that `query` accepts, by number, without evidence."""
    statement = cypher.NODES_PAGE_CONTRADICTED if query.contradicted else cypher.NODES_PAGE
    rows = project_graph(scope, client).run(
        statement, project=scope.project, skip=max(skip, 0), limit=max(limit, 0), **query.params()
    )
    return [
        _record_without_evidence(
            ListedNode, r["props"] | {"sources": r["sources"], "open_contradictions": r["open"]}
        )
        for r in rows
    ]


def count_listed_nodes(
    scope: GraphScope, query: NodeListQuery, client: GraphClient | None = None
) -> int:
    """How many of the project's nodes `query` accepts."""
    statement = (
        cypher.NODES_MATCHED_COUNT_CONTRADICTED
        if query.contradicted
        else cypher.NODES_MATCHED_COUNT
    )
    rows = project_graph(scope, client).run(statement, project=scope.project, **query.params())
    return int(rows[0]["count"]) if rows else 0


@dataclass(frozen=True)
class NodeTotals:
    """A project's nodes counted: by type, those no longer valid, those contradicted."""

    by_type: dict[str, int]
    stale: int
    contradicted: int

    @property
    def total(self) -> int:
        return sum(self.by_type.values())


def node_totals(scope: GraphScope, client: GraphClient | None = None) -> NodeTotals:
    c = project_graph(scope, client)
    rows = c.run(cypher.NODE_TOTALS, project=scope.project)
    contradicted = c.run(cypher.CONTRADICTED_NODE_COUNT, project=scope.project, open="open")
    return NodeTotals(
        by_type={r["type"]: int(r["count"]) for r in rows},
        stale=sum(int(r["stale"] or 0) for r in rows),
        contradicted=int(contradicted[0]["count"]) if contradicted else 0,
    )


def node_summaries(
    scope: GraphScope, uids: Iterable[str], client: GraphClient | None = None
) -> list[ListedNode]:
    """Nodes by uid without their evidence (with their count of episodes)."""
    uids = sorted(set(uids))
    if not uids:
        return []
    rows = project_graph(scope, client).run(
        cypher.NODE_SUMMARIES_BY_UIDS, uids=uids, project=scope.project
    )
    return [
        _record_without_evidence(ListedNode, r["props"] | {"sources": r["sources"]}) for r in rows
    ]


def _ref(node: dict, uid: str) -> NodeRef:
    return NodeRef(uid=uid, number=node["number"], type=node["type"], label=node["label"])


def edge_page(
    scope: GraphScope,
    relation: str,
    valid: bool | None,
    skip: int,
    limit: int,
    client: GraphClient | None = None,
) -> list[tuple[EdgeRecord, NodeRef, NodeRef]]:
    """One page of the project's edges (of `relation`, "" any; valid or not, None both) in
    (valid_at, uid) order, each with what a list shows of its two ends."""
    rows = project_graph(scope, client).run(
        cypher.EDGES_PAGE,
        project=scope.project,
        relation=relation,
        valid=valid,
        skip=max(skip, 0),
        limit=max(limit, 0),
    )
    return [
        (
            EdgeRecord.from_row(r["relation"], r["source"], r["target"], r["props"]),
            _ref(r["source_node"], r["source"]),
            _ref(r["target_node"], r["target"]),
        )
        for r in rows
    ]


def count_edges(
    scope: GraphScope, relation: str, valid: bool | None, client: GraphClient | None = None
) -> int:
    rows = project_graph(scope, client).run(
        cypher.EDGES_MATCHED_COUNT, project=scope.project, relation=relation, valid=valid
    )
    return int(rows[0]["count"]) if rows else 0


def _contradictions(rows: list[dict]) -> list[tuple[ContradictionRecord, NodeRef, NodeRef]]:
    return [
        (
            ContradictionRecord.model_validate(r["props"] | {"a": r["a"], "b": r["b"]}),
            _ref(r["a_node"], r["a"]),
            _ref(r["b_node"], r["b"]),
        )
        for r in rows
    ]


def contradiction_page(
    scope: GraphScope, status: str, skip: int, limit: int, client: GraphClient | None = None
) -> list[tuple[ContradictionRecord, NodeRef, NodeRef]]:
    """One page of the project's contradictions (of `status`, "" any) in the order opened."""
    rows = project_graph(scope, client).run(
        cypher.CONTRADICTIONS_PAGE,
        project=scope.project,
        status=status,
        open="open",
        skip=max(skip, 0),
        limit=max(limit, 0),
    )
    return _contradictions(rows)


def count_contradictions(scope: GraphScope, status: str, client: GraphClient | None = None) -> int:
    rows = project_graph(scope, client).run(
        cypher.CONTRADICTIONS_MATCHED_COUNT, project=scope.project, status=status, open="open"
    )
    return int(rows[0]["count"]) if rows else 0


def contradiction_by_uid(
    scope: GraphScope, uid: str, client: GraphClient | None = None
) -> tuple[ContradictionRecord, NodeRef, NodeRef] | None:
    rows = project_graph(scope, client).run(
        cypher.CONTRADICTION_BY_UID, project=scope.project, uid=uid
    )
    found = _contradictions(rows)
    return found[0] if found else None


def contradictions_of_node(
    scope: GraphScope, uid: str, client: GraphClient | None = None
) -> list[tuple[ContradictionRecord, NodeRef, NodeRef]]:
    rows = project_graph(scope, client).run(
        cypher.CONTRADICTIONS_OF_NODE, project=scope.project, uid=uid
    )
    return _contradictions(rows)


def supersessions_of_node(
    scope: GraphScope, uid: str, client: GraphClient | None = None
) -> list[SupersessionRecord]:
    rows = project_graph(scope, client).run(
        cypher.SUPERSESSIONS_OF_NODE, project=scope.project, uid=uid
    )
    return [
        SupersessionRecord.model_validate({k: v for k, v in r.items() if v is not None})
        for r in rows
    ]
