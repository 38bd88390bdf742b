"""Every Cypher statement Groundwork runs, in one place.

Rules (checked by tests/kg/test_cypher_lint.py with Neo4j's own parser, and run against
FalkorDB by the graph tests):
- values are always parameters ($name), never built into the text;
- every statement is scoped by $project;
- relationship types come only from kg.ontology (EDGE_UPSERT is generated from it);
- nothing database-specific: no APOC, no temporal values (times are ISO-8601 strings).
"""

from __future__ import annotations

from kg.graph.records import EdgeRecord, NodeRecord
from kg.ontology import RELATIONS

# Indexes: Neo4j 5 and FalkorDB share this syntax (without IF NOT EXISTS, which FalkorDB
# lacks; the client treats "already exists" as success).
INDEXES: tuple[str, ...] = (
    "CREATE INDEX FOR (n:Entity) ON (n.uid)",
    "CREATE INDEX FOR (n:Entity) ON (n.project)",
    "CREATE INDEX FOR (e:Episode) ON (e.uid)",
    "CREATE INDEX FOR (e:Episode) ON (e.project)",
    "CREATE INDEX FOR (v:NodeVector) ON (v.uid)",
    "CREATE INDEX FOR (x:EvidenceItem) ON (x.key)",
    "CREATE INDEX FOR (x:EvidenceItem) ON (x.node)",
    "CREATE INDEX FOR (x:EvidenceItem) ON (x.project)",
)

# Uniqueness: (label, property) pairs no two nodes may share. Neo4j takes the statement below;
# FalkorDB has no Cypher for constraints (its client uses GRAPH.CONSTRAINT CREATE).
UNIQUE_PROPERTIES: tuple[tuple[str, str], ...] = (("Entity", "uid"), ("Episode", "uid"))
NEO4J_UNIQUE_CONSTRAINT: dict[tuple[str, str], str] = {
    ("Entity", "uid"): (
        "CREATE CONSTRAINT entity_uid_unique IF NOT EXISTS FOR (n:Entity) REQUIRE n.uid IS UNIQUE"
    ),
    ("Episode", "uid"): (
        "CREATE CONSTRAINT episode_uid_unique IF NOT EXISTS FOR (e:Episode) REQUIRE e.uid IS UNIQUE"
    ),
}
# A plain index on the same property blocks a Neo4j constraint: found and dropped first.
NEO4J_PLAIN_INDEXES = """
SHOW INDEXES YIELD name, labelsOrTypes, properties, owningConstraint
WHERE owningConstraint IS NULL AND labelsOrTypes = [$label] AND properties = [$property]
RETURN name
"""

PING = "RETURN 1 AS ok"

# Episode stubs (what mentions link to), several in one round trip.
EPISODES_UPSERT = """
UNWIND $rows AS row
MERGE (e:Episode {uid: row.uid})
SET e.project = $project, e.org = $org, e.number = row.number, e.valid_at = row.valid_at
RETURN count(e) AS written
"""

NODE_MAX_NUMBER = """
MATCH (n:Entity {project: $project})
RETURN coalesce(max(n.number), 0) AS number
"""


# An edge's evidence (and a node's written before evidence records, below) is kept in three
# properties, read in this order: `evidence`, a JSON list
# written whole (`row.whole`); `evidence_more`, the items appended since, and `evidence_last`,
# the latest of those. The two appended parts are lists of strings, each string the items of
# one write as JSON items followed by ", " (kg.graph.records reads them back as one list). An
# append (`row.items`) is added to `evidence_last`; once its strings would pass $recent_chars
# they are moved onto `evidence_more` (the one write that copies the long part, once per
# $recent_chars appended) and the new items start it again. So appending costs the new items,
# not the whole list.
# Lists, not one growing string: FalkorDB's string `+` loses bytes where a 512-byte string
# takes part (with a left operand that long, the right one and the left's last byte are lost;
# an append onto a part of that size lost a whole write's items). `[] + part` reads a part
# stored as one string by earlier versions as a list of that one string, so such graphs go on
# without a migration.
# FalkorDB evaluates every branch of a CASE, so the long part is named only in a FOREACH that
# runs when it changes. Every write stamps the record with a new `version`, which a reader
# that keeps evidence it read compares, instead of reading the evidence again.
def _parts(var: str, name: str) -> str:
    """A part of appended evidence as a list of strings (null: empty; a string: one)."""
    return f"([] + coalesce({var}.{name}, []))"


def _evidence_before(var: str) -> str:
    """Whether the latest items are moved on by this write (`fold`), read before it changes."""
    return (
        f"row.items IS NOT NULL AND reduce(chars = size(row.items), part IN "
        f"{_parts(var, 'evidence_last')} | chars + size(part)) > $recent_chars AS fold"
    )


def _evidence_moved(var: str) -> str:
    """The long properties, written only where they change: a whole list, or the latest items
    moved onto the others."""
    return (
        f"FOREACH (_ IN CASE WHEN row.whole IS NOT NULL THEN [1] ELSE [] END | "
        f"SET {var}.evidence = row.whole, {var}.evidence_more = null)\n"
        f"FOREACH (_ IN CASE WHEN fold THEN [1] ELSE [] END | "
        f"SET {var}.evidence_more = {_parts(var, 'evidence_more')} + "
        f"{_parts(var, 'evidence_last')})"
    )


def _last_written(var: str) -> str:
    return (
        f"CASE WHEN row.whole IS NOT NULL THEN null "
        f"WHEN row.items IS NULL THEN {var}.evidence_last "
        f"WHEN fold THEN [row.items] "
        f"ELSE {_parts(var, 'evidence_last')} + [row.items] END"
    )


# A node's evidence is kept as records, one EvidenceItem per item (episode, quote, offsets),
# found by the node's uid (`node`) and sorted by `order` (the item's time, episode number and
# place, as one string): an append MERGEs the new items only, a page is read by `order` from
# where the last one ended. The node keeps the counts (`evidence_count`, and `episodes`, the
# distinct episodes) and the keys of a few representative items (`evidence_sample`). Why
# records in the graph and not an SQL table, with the figures: kg.graph.evidence.
# An item keeps its fields as one JSON string (`json`), read back whole: a reader of thousands
# of items then takes one string each (returning each field as a column of its own was ten times
# slower at 50,000). It is sent as the list [key, order, json], not as a map: FalkorDB's Bolt
# listener fails on requests over about 4 KB (kg.graph.client).

# Nodes upserted, each with the evidence items and the mentions a change added, in one round
# trip (a node without new mentions is still upserted: its row ends at the UNWIND, after the
# SET). `episodes` is set where the writer counted it again (`row.recount`: a node written
# whole, or items of an earlier episode arrived late), else raised by the episodes the appended
# items are the first from (`row.episodes`, counted by the writer). Graphs written before the
# count kept the episodes' uids in a list, `episode_uids`, whose size starts it.
# A node written before evidence records keeps its list in properties (as edges do, above)
# until it is written whole (`row.whole`), which writes every item as a record and clears them.
# Every item a write touches is stamped with the write's version: a whole write then deletes
# the node's items it did not stamp (EVIDENCE_ITEMS_PRUNE), in one pass over them.
NODES_UPSERT_WITH_MENTIONS = """
UNWIND $rows AS row
MERGE (n:Entity {uid: row.uid})
SET n += row.props, n.project = $project, n.org = $org, n.version = row.version,
    n.evidence_count = row.count, n.evidence_sample = row.sample,
    n.episodes = CASE WHEN row.recount THEN row.episodes
      ELSE coalesce(n.episodes, size(coalesce(n.episode_uids, [])), 0) + row.episodes END
FOREACH (_ IN CASE WHEN row.whole THEN [1] ELSE [] END |
  SET n.evidence = null, n.evidence_more = null, n.evidence_last = null)
FOREACH (item IN row.items |
  MERGE (x:EvidenceItem {key: item[0]})
  SET x.order = item[1], x.json = item[2], x.node = row.uid, x.project = $project,
      x.org = $org, x.written = row.version)
WITH n, row
UNWIND row.mentions AS mention
MATCH (e:Episode {uid: mention.episode, project: $project})
MERGE (n)-[m:MENTIONED_IN]->(e)
SET m.quote = mention.quote, m.start = mention.start, m.end = mention.end
RETURN count(m) AS linked
"""

EVIDENCE_ITEMS_PRUNE = """
UNWIND $rows AS row
MATCH (x:EvidenceItem {node: row.uid})
WHERE x.project = $project AND x.written <> row.version
DELETE x
RETURN count(*) AS deleted
"""

# Every item of the given nodes (unordered: the reader sorts), and of a whole project.
EVIDENCE_ITEMS_BY_NODES = """
UNWIND $uids AS uid
MATCH (x:EvidenceItem {node: uid})
WHERE x.project = $project
RETURN uid AS uid, collect(x.json) AS items
"""

EVIDENCE_ITEMS_BY_PROJECT = """
MATCH (x:EvidenceItem {project: $project})
RETURN x.node AS uid, collect(x.json) AS items
"""

EVIDENCE_ITEMS_BY_KEYS = """
UNWIND $keys AS key
MATCH (x:EvidenceItem {key: key})
WHERE x.project = $project
RETURN x.json AS item
ORDER BY x.order
"""

# One page of a node's items in order, from after the `order` the previous page ended at
# ($after null: the first page). Cut before anything is returned: a value returned is made for
# every row the ORDER BY sees.
EVIDENCE_PAGE = """
MATCH (x:EvidenceItem {node: $uid})
WHERE x.project = $project AND ($after IS NULL OR x.order > $after)
WITH x
ORDER BY x.order
LIMIT $limit
RETURN x.json AS item, x.order AS order
"""

# What a node keeps of its evidence: the counts and the keys of its representative items, and
# its list as written before evidence records (null on a node written since).
NODE_EVIDENCE_SUMMARY = """
MATCH (n:Entity {uid: $uid})
WHERE n.project = $project
RETURN n.evidence_count AS count, n.episodes AS episodes, n.evidence_sample AS sample,
       n.evidence AS evidence, n.evidence_more AS evidence_more,
       n.evidence_last AS evidence_last
"""


NODES_BY_PROJECT = """
MATCH (n:Entity {project: $project})
RETURN properties(n) AS props
ORDER BY n.number
"""

NODES_BY_TYPE = """
MATCH (n:Entity {project: $project})
WHERE n.type = $type
RETURN properties(n) AS props
ORDER BY n.number
"""

# UNWIND + MATCH by uid: one index seek per uid, whatever the project's size.
NODES_BY_UIDS = """
UNWIND $uids AS uid
MATCH (n:Entity {uid: uid})
WHERE n.project = $project
RETURN properties(n) AS props
ORDER BY n.number
"""

# The nodes an episode can touch, without their evidence (kept by the reader, or read with
# NODES_EVIDENCE_BY_UIDS), with their evidence's version and the number of open
# contradictions on each (what their confidence is computed with), in one round trip.
_node_fields = ", ".join(
    f"{name}: n.{name}" for name in NodeRecord.model_fields if name != "evidence"
)
NODES_WITHOUT_EVIDENCE_BY_UIDS = f"""
UNWIND $uids AS uid
MATCH (n:Entity {{uid: uid}})
WHERE n.project = $project
OPTIONAL MATCH (n)-[c:CONTRADICTS]-(:Entity)
WHERE c.status = $open
WITH n, count(c) AS open
RETURN {{{_node_fields}}} AS props, n.version AS version, open
"""

# Open nodes of a type whose label or an alias holds the words (a person picking one, e.g. the
# node to merge): without evidence, best confidence first.
NODES_NAMED_LIKE = f"""
MATCH (n:Entity {{project: $project}})
WHERE n.type = $type AND n.invalid_at IS NULL AND NOT n.uid IN $exclude
  AND (toLower(n.label) CONTAINS $words
       OR any(alias IN coalesce(n.aliases, []) WHERE toLower(alias) CONTAINS $words))
RETURN {{{_node_fields}}} AS props
ORDER BY n.confidence DESC, n.number
LIMIT $limit
"""

NODES_EVIDENCE_BY_UIDS = """
UNWIND $uids AS uid
MATCH (n:Entity {uid: uid})
WHERE n.project = $project
RETURN n.uid AS uid, n.version AS version, n.evidence AS evidence,
       n.evidence_more AS evidence_more, n.evidence_last AS evidence_last
"""

NODES_SET_CONFIDENCE = """
UNWIND $rows AS row
MATCH (n:Entity {uid: row.uid})
WHERE n.project = $project
SET n.confidence = row.confidence
RETURN count(n) AS written
"""

OPEN_CONTRADICTION_COUNTS = """
UNWIND $uids AS uid
MATCH (n:Entity {uid: uid})
WHERE n.project = $project
OPTIONAL MATCH (n)-[c:CONTRADICTS]-(:Entity)
WHERE c.status = $open
RETURN uid AS uid, count(c) AS open
"""

# The edges an episode can touch, reached from their end nodes by uid (index seeks), never by
# scanning the project: the edge between two nodes, a functional relation's other values from
# the same source, and what points at a value that may lose its last open edge. Each whole, or
# without its evidence (the pipeline keeps what it read; EDGES_EVIDENCE_BY_UIDS reads it).
_return_edge_whole = (
    "RETURN r.relation AS relation, a.uid AS source, b.uid AS target, properties(r) AS props"
)
_return_edge_without_evidence = (
    "RETURN r.relation AS relation, a.uid AS source, b.uid AS target, "
    "{"
    + ", ".join(
        f"{name}: r.{name}"
        for name in EdgeRecord.model_fields
        if name not in {"evidence", "relation", "source", "target"}
    )
    + "} AS props, r.version AS version"
)
_match_edges_between = """
UNWIND $pairs AS pair
MATCH (a:Entity {uid: pair.source})-[r]->(b:Entity {uid: pair.target})
WHERE a.project = $project AND b.project = $project
  AND r.uid IS NOT NULL AND r.relation IS NOT NULL
"""
_match_edges_from_by_relation = """
UNWIND $rows AS row
MATCH (a:Entity {uid: row.source})-[r]->(b:Entity)
WHERE a.project = $project AND b.project = $project
  AND r.uid IS NOT NULL AND r.relation = row.relation
"""
_match_edges_into_nodes = """
UNWIND $uids AS uid
MATCH (a:Entity)-[r]->(b:Entity {uid: uid})
WHERE a.project = $project AND b.project = $project
  AND r.uid IS NOT NULL AND r.relation IS NOT NULL
"""
EDGES_BETWEEN = _match_edges_between + _return_edge_whole
EDGES_FROM_BY_RELATION = _match_edges_from_by_relation + _return_edge_whole
EDGES_INTO_NODES = _match_edges_into_nodes + _return_edge_whole
EDGES_WITHOUT_EVIDENCE_BETWEEN = _match_edges_between + _return_edge_without_evidence
EDGES_WITHOUT_EVIDENCE_FROM_BY_RELATION = (
    _match_edges_from_by_relation + _return_edge_without_evidence
)
EDGES_WITHOUT_EVIDENCE_INTO_NODES = _match_edges_into_nodes + _return_edge_without_evidence

EDGES_EVIDENCE_BY_UIDS = """
UNWIND $rows AS row
MATCH (a:Entity {uid: row.source})-[r]->(:Entity)
WHERE a.project = $project AND r.uid = row.uid
RETURN r.uid AS uid, r.version AS version, r.evidence AS evidence,
       r.evidence_more AS evidence_more, r.evidence_last AS evidence_last
"""

NODE_BY_NUMBER = """
MATCH (n:Entity {project: $project, number: $number})
RETURN properties(n) AS props
"""

NODES_BY_EPISODE = """
MATCH (n:Entity {project: $project})-[:MENTIONED_IN]->(e:Episode {uid: $episode})
RETURN properties(n) AS props
ORDER BY n.number
"""

# The valid nodes of the given types said in the same messages as the given nodes (a bounded
# read of what may answer their questions), most shared messages first.
NODES_SAID_WITH = """
MATCH (n:Entity {project: $project})-[:MENTIONED_IN]->(e:Episode)<-[:MENTIONED_IN]-(m:Entity)
WHERE n.uid IN $uids AND m.project = $project AND NOT m.uid IN $uids
  AND m.type IN $types AND m.invalid_at IS NULL
WITH m.uid AS uid, count(DISTINCT e) AS shared
RETURN uid
ORDER BY shared DESC, uid
LIMIT $limit
"""

# A node's mentions of episodes whose evidence left it (a person split it off into a node of
# its own, which links them anew).
MENTIONS_DELETE = """
MATCH (n:Entity {uid: $uid})-[m:MENTIONED_IN]->(e:Episode)
WHERE n.project = $project AND e.uid IN $episodes
DELETE m
"""

# Every node's mentions, by the episodes they link: written with the evidence items, separately
# from them, so a check can compare the two.
MENTIONED_EPISODES_BY_NODE = """
MATCH (n:Entity {project: $project})-[:MENTIONED_IN]->(e:Episode)
RETURN n.uid AS uid, collect(e.uid) AS episodes
"""

NODE_COUNT = """
MATCH (n:Entity {project: $project})
RETURN count(n) AS count
"""

# Bounded reads for documents that show the top of each type (the PRD): valid at $moment (null
# = now), ordered by priority — confidence, then corroboration (distinct episodes), then
# recency (the newest valid_at) — so the database, not the caller, cuts the list.
NODES_TOP_BY_TYPE = """
MATCH (n:Entity {project: $project})
WHERE n.type = $type
  AND ($moment IS NULL OR n.valid_at <= $moment)
  AND (n.invalid_at IS NULL OR ($moment IS NOT NULL AND n.invalid_at > $moment))
RETURN properties(n) AS props
ORDER BY n.confidence DESC, coalesce(n.episodes, size(coalesce(n.episode_uids, []))) DESC,
         n.valid_at DESC, n.number
LIMIT $limit
"""

NODE_COUNTS_BY_TYPE = """
MATCH (n:Entity {project: $project})
WHERE n.type IN $types
  AND ($moment IS NULL OR n.valid_at <= $moment)
  AND (n.invalid_at IS NULL OR ($moment IS NOT NULL AND n.invalid_at > $moment))
RETURN n.type AS type, count(n) AS count, sum(n.confidence) AS confidence
"""

# Undirected from each given node by uid (index seeks): an edge between two given nodes comes
# back twice; the caller keeps one per uid.
EDGES_OF_NODES = """
UNWIND $uids AS uid
MATCH (a:Entity {uid: uid})-[r]-(b:Entity)
WHERE a.project = $project AND b.project = $project
  AND r.uid IS NOT NULL AND r.relation IS NOT NULL
RETURN r.relation AS relation, startNode(r).uid AS source, endNode(r).uid AS target,
       properties(r) AS props
"""


def _edge_upsert(graph_type: str) -> str:
    return f"""
UNWIND $rows AS row
MATCH (a:Entity {{uid: row.source, project: $project}})
MATCH (b:Entity {{uid: row.target, project: $project}})
MERGE (a)-[r:{graph_type} {{uid: row.uid}}]->(b)
WITH r, row, {_evidence_before("r")}
{_evidence_moved("r")}
SET r += row.props, r.project = $project, r.org = $org, r.version = row.version,
    r.evidence_last = {_last_written("r")}
RETURN count(r) AS written
"""


# One statement per ontology relation: relationship types cannot be parameters in Cypher.
EDGE_UPSERT: dict[str, str] = {
    name: _edge_upsert(relation.graph_type) for name, relation in RELATIONS.items()
}

# A person's correction moved an edge onto another node (kg.corrections): the old one goes.
EDGES_DELETE = """
UNWIND $rows AS row
MATCH (a:Entity {uid: row.source})-[r]->(:Entity)
WHERE a.project = $project AND r.uid = row.uid
DELETE r
"""

EDGES_BY_PROJECT = """
MATCH (a:Entity {project: $project})-[r]->(b:Entity {project: $project})
WHERE r.uid IS NOT NULL AND r.relation IS NOT NULL
RETURN r.relation AS relation, a.uid AS source, b.uid AS target, properties(r) AS props
ORDER BY r.valid_at, r.uid
"""

EDGES_BY_NODE = """
MATCH (a:Entity {project: $project})-[r]-(b:Entity {project: $project})
WHERE a.uid = $uid AND r.uid IS NOT NULL AND r.relation IS NOT NULL
RETURN r.relation AS relation, startNode(r).uid AS source, endNode(r).uid AS target,
       properties(r) AS props
ORDER BY r.valid_at, r.uid
"""

CONTRADICTION_UPSERT = """
MATCH (a:Entity {uid: $a, project: $project})
MATCH (b:Entity {uid: $b, project: $project})
MERGE (a)-[c:CONTRADICTS {uid: $uid}]->(b)
SET c += $props, c.project = $project, c.org = $org
RETURN c.uid AS uid
"""

# Opens a contradiction once: a second episode seeing the same pair never reopens or rewrites
# one that a user already resolved.
CONTRADICTION_OPEN = """
MATCH (a:Entity {uid: $a, project: $project})
MATCH (b:Entity {uid: $b, project: $project})
MERGE (a)-[c:CONTRADICTS {uid: $uid}]->(b)
ON CREATE SET c += $props, c.project = $project, c.org = $org
RETURN c.uid AS uid, c.opened_at AS opened_at
"""

CONTRADICTIONS_BY_PROJECT = """
MATCH (a:Entity {project: $project})-[c:CONTRADICTS]->(b:Entity {project: $project})
RETURN a.uid AS a, b.uid AS b, properties(c) AS props
ORDER BY c.opened_at, c.uid
"""

CONTRADICTION_RESOLVE = """
MATCH (:Entity {project: $project})-[c:CONTRADICTS {uid: $uid}]->(:Entity {project: $project})
WHERE coalesce(c.status, $open) = $open
SET c.status = 'resolved', c.resolved_at = $resolved_at, c.resolution = $resolution,
    c.kept = $kept, c.superseded = $superseded, c.answer_episode = $answer_episode,
    c.answer_number = $answer_number, c.answer_quote = $answer_quote
RETURN c.uid AS uid
"""

SUPERSEDED_UPSERT = """
MATCH (a:Entity {uid: $old, project: $project})
MATCH (b:Entity {uid: $new, project: $project})
MERGE (a)-[s:SUPERSEDED_BY {relation: $relation}]->(b)
SET s.at = $at, s.project = $project, s.org = $org
RETURN s.at AS at
"""

# A statement superseded by a user's answer to a contradiction: the answer is its evidence.
SUPERSEDED_BY_ANSWER = """
MATCH (a:Entity {uid: $old, project: $project})
MATCH (b:Entity {uid: $new, project: $project})
MERGE (a)-[s:SUPERSEDED_BY {relation: $relation}]->(b)
SET s.at = $at, s.project = $project, s.org = $org, s.episode_uid = $episode_uid,
    s.episode_number = $episode_number, s.quote = $quote
RETURN s.at AS at
"""

SUPERSESSIONS_BY_PROJECT = """
MATCH (a:Entity {project: $project})-[s:SUPERSEDED_BY]->(b:Entity {project: $project})
RETURN a.uid AS old, b.uid AS new, s.relation AS relation, s.at AS at,
       s.episode_uid AS episode_uid, s.episode_number AS episode_number, s.quote AS quote
ORDER BY s.at
"""

SUPERSESSION_DELETE = """
MATCH (a:Entity {project: $project, uid: $old})-[s:SUPERSEDED_BY]->(b:Entity {uid: $new})
WHERE b.project = $project
DELETE s
"""

PROJECT_DELETE = """
MATCH (n {project: $project})
DETACH DELETE n
"""

# Organization scope, used by org memory: only nodes of the given organization's projects.
ORG_NODES_BY_TYPE = """
MATCH (n:Entity {org: $org})
WHERE n.type = $type AND n.project IN $projects
RETURN properties(n) AS props
ORDER BY n.project, n.number
"""


# --- pages: bounded reads where a person waits ------------------------------------------------
# A list a person pages through (the research view, the admin's node list, the API's lists) is
# filtered, ordered and cut by the database: SKIP/LIMIT after an ORDER BY that ends on a unique
# key, so a page is the same on Neo4j and FalkorDB and pages never overlap. Only the page's
# rows travel, without the nodes' evidence; counts are aggregates, not lists.
# The filters of a node list; a parameter left empty ('' / null / false) filters nothing.
_node_list_filter = """
WHERE ($type = '' OR n.type = $type)
  AND ($valid IS NULL OR ($valid AND n.invalid_at IS NULL)
       OR (NOT $valid AND n.invalid_at IS NOT NULL))
  AND ($low IS NULL OR n.confidence >= $low)
  AND ($high IS NULL OR n.confidence <= $high)
  AND ($words = '' OR toLower(n.label) CONTAINS $words
       OR any(alias IN coalesce(n.aliases, []) WHERE toLower(alias) CONTAINS $words))
"""
# Nodes in an open contradiction, found from the contradictions (few) rather than the nodes.
_match_contradicted_nodes = """
MATCH (n:Entity {project: $project})-[c:CONTRADICTS]-(:Entity)
WHERE c.status = $open
WITH DISTINCT n
"""
# The page's nodes (ordered by number, unique in a project), each with how many episodes back
# it and how many open contradictions it is in: the latter counted for the page's rows only.
_node_page_tail = f"""
WITH n ORDER BY n.number SKIP $skip LIMIT $limit
OPTIONAL MATCH (n)-[c:CONTRADICTS]-(:Entity)
WHERE c.status = $open
WITH n, count(c) AS open
RETURN {{{_node_fields}}} AS props,
       coalesce(n.episodes, size(coalesce(n.episode_uids, [])), 0) AS sources, open
ORDER BY n.number
"""
NODES_PAGE = "MATCH (n:Entity {project: $project})" + _node_list_filter + _node_page_tail
NODES_PAGE_CONTRADICTED = (
    _match_contradicted_nodes + _node_list_filter.replace("WHERE", "WITH n WHERE", 1)
) + _node_page_tail
NODES_MATCHED_COUNT = (
    "MATCH (n:Entity {project: $project})" + _node_list_filter + "RETURN count(n) AS count"
)
NODES_MATCHED_COUNT_CONTRADICTED = (
    _match_contradicted_nodes
    + _node_list_filter.replace("WHERE", "WITH n WHERE", 1)
    + "RETURN count(n) AS count"
)
# A project's nodes counted by type, and how many of each are no longer valid.
NODE_TOTALS = """
MATCH (n:Entity {project: $project})
RETURN n.type AS type, count(n) AS count,
       sum(CASE WHEN n.invalid_at IS NULL THEN 0 ELSE 1 END) AS stale
ORDER BY type
"""
CONTRADICTED_NODE_COUNT = _match_contradicted_nodes + "RETURN count(n) AS count"

# Edges, with the number, type and label of both ends (what a list shows of them).
_edge_list_match = """
MATCH (a:Entity {project: $project})-[r]->(b:Entity {project: $project})
WHERE r.uid IS NOT NULL AND r.relation IS NOT NULL
  AND ($relation = '' OR r.relation = $relation)
  AND ($valid IS NULL OR ($valid AND r.invalid_at IS NULL)
       OR (NOT $valid AND r.invalid_at IS NOT NULL))
"""
EDGES_PAGE = (
    _edge_list_match
    + """WITH a, r, b ORDER BY r.valid_at, r.uid SKIP $skip LIMIT $limit
RETURN r.relation AS relation, a.uid AS source, b.uid AS target, properties(r) AS props,
       {number: a.number, type: a.type, label: a.label} AS source_node,
       {number: b.number, type: b.type, label: b.label} AS target_node
ORDER BY r.valid_at, r.uid
"""
)
EDGES_MATCHED_COUNT = _edge_list_match + "RETURN count(r) AS count"

# Contradictions, with both statements' number, type and label; or one by uid, or a node's.
_contradiction_return = """
RETURN a.uid AS a, b.uid AS b, properties(c) AS props,
       {number: a.number, type: a.type, label: a.label} AS a_node,
       {number: b.number, type: b.type, label: b.label} AS b_node
"""
_contradiction_list_match = """
MATCH (a:Entity {project: $project})-[c:CONTRADICTS]->(b:Entity {project: $project})
WHERE $status = '' OR coalesce(c.status, $open) = $status
"""
CONTRADICTIONS_PAGE = (
    _contradiction_list_match
    + "WITH a, c, b ORDER BY c.opened_at, c.uid SKIP $skip LIMIT $limit"
    + _contradiction_return
    + "ORDER BY c.opened_at, c.uid\n"
)
CONTRADICTIONS_MATCHED_COUNT = _contradiction_list_match + "RETURN count(c) AS count"
CONTRADICTION_BY_UID = (
    """
MATCH (a:Entity {project: $project})-[c:CONTRADICTS {uid: $uid}]->(b:Entity {project: $project})
"""
    + _contradiction_return
)
CONTRADICTIONS_OF_NODE = (
    """
MATCH (a:Entity {project: $project})-[c:CONTRADICTS]->(b:Entity {project: $project})
WHERE a.uid = $uid OR b.uid = $uid
"""
    + _contradiction_return
    + "ORDER BY c.opened_at, c.uid\n"
)
SUPERSESSIONS_OF_NODE = """
MATCH (a:Entity {project: $project})-[s:SUPERSEDED_BY]->(b:Entity {project: $project})
WHERE a.uid = $uid OR b.uid = $uid
RETURN a.uid AS old, b.uid AS new, s.relation AS relation, s.at AS at,
       s.episode_uid AS episode_uid, s.episode_number AS episode_number, s.quote AS quote
ORDER BY s.at
"""
# Nodes by uid without their evidence (the ends of a node's edges, its contradictions).
NODE_SUMMARIES_BY_UIDS = f"""
UNWIND $uids AS uid
MATCH (n:Entity {{uid: uid}})
WHERE n.project = $project
RETURN {{{_node_fields}}} AS props,
       coalesce(n.episodes, size(coalesce(n.episode_uids, [])), 0) AS sources
ORDER BY n.number
"""


# --- node vectors ------------------------------------------------------------------------------
# Each node's meaning, as the sentence encoder's vector of its label and aliases
# (kg.language.encoder), is kept on a NodeVector beside it (same uid, project and type), not on
# the node: every node read returns its properties, and 512 numbers would ride along with each.
# The two servers index and search vectors with different procedures, so these statements come
# in two dialects (the client's `dialect`); values are parameters all the same. The Neo4j ones
# pass its linter; the FalkorDB ones (vecf32, db.idx.vector.*) run against the embedded server
# in the graph tests. The index is searched for the $k nearest of every project, then narrowed
# to the project and type: $k is larger than the answer so that the narrowing leaves enough.
VECTOR_DIMENSIONS = 512
FALKOR_PROBE = "RETURN vecf32([1.0]) AS probe"  # fails on Neo4j: no vecf32 there
FALKOR_VECTOR_INDEX = (
    "CREATE VECTOR INDEX FOR (v:NodeVector) ON (v.embedding) "
    f"OPTIONS {{dimension: {VECTOR_DIMENSIONS:d}, similarityFunction: 'cosine'}}"
)
NEO4J_VECTOR_INDEX = (
    "CREATE VECTOR INDEX node_vectors IF NOT EXISTS FOR (v:NodeVector) ON (v.embedding) "
    f"OPTIONS {{indexConfig: {{`vector.dimensions`: {VECTOR_DIMENSIONS:d}, "
    "`vector.similarity_function`: 'cosine'}}"
)


# The vector is cleared before it is set: FalkorDB (4.16) keeps a stored vecf32 when it is set
# to another vecf32 directly, and a node whose names grew would keep its old meaning.
def _vectors_set(vector: str) -> str:
    return f"""
UNWIND $rows AS row
MERGE (v:NodeVector {{uid: row.uid}})
SET v.project = $project, v.org = $org, v.type = row.type, v.embedding = null
WITH v, row
SET v.embedding = {vector}
RETURN count(v) AS written
"""


FALKOR_NODE_VECTORS_SET = _vectors_set("vecf32(row.vector)")
NEO4J_NODE_VECTORS_SET = _vectors_set("row.vector")

# The nearest active nodes of a type, for several asked vectors in one statement ($asked: a
# list of {type, vector}): each one's best $limit, as `found` in the row of its place `i`.
# FalkorDB scores by cosine distance, Neo4j by (1 + cosine) / 2; both are returned as the cosine.
_nearest_tail = """
WITH i, node AS v, score
WHERE v.project = $project AND v.type = $asked[i].type
MATCH (n:Entity {uid: v.uid})
WHERE n.project = $project AND n.invalid_at IS NULL AND coalesce(n.status, '') = ''
WITH i, n.uid AS uid, SIMILARITY AS similarity, n.number AS number
ORDER BY i, similarity DESC, number
RETURN i, collect({uid: uid, similarity: similarity})[..$limit] AS found
"""
FALKOR_NEAREST_NODES = (
    "UNWIND range(0, size($asked) - 1) AS i "
    "CALL db.idx.vector.queryNodes('NodeVector', 'embedding', $k, vecf32($asked[i].vector)) "
    "YIELD node, score" + _nearest_tail.replace("SIMILARITY", "1 - score")
)
NEO4J_NEAREST_NODES = (
    "UNWIND range(0, size($asked) - 1) AS i "
    "CALL db.index.vector.queryNodes('node_vectors', $k, $asked[i].vector) YIELD node, score"
    + _nearest_tail.replace("SIMILARITY", "2 * score - 1")
)


def dialect_statement(name: str, dialect: str) -> str:
    """The statement `name` (e.g. "NEAREST_NODES") in the server's dialect."""
    prefix = "FALKOR_" if dialect == "falkordb" else "NEO4J_"
    return globals()[prefix + name]


def neo4j_statements() -> dict[str, str]:
    """Every statement Neo4j runs (all but FalkorDB's dialect), for Neo4j's linter."""
    return {name: s for name, s in all_statements().items() if not name.startswith("FALKOR_")}


def all_statements() -> dict[str, str]:
    """Every statement by name."""
    statements: dict[str, str] = {}
    for name, value in globals().items():
        if name.isupper() and isinstance(value, str):
            statements[name] = value
    for i, statement in enumerate(INDEXES):
        statements[f"INDEXES[{i}]"] = statement
    for relation, statement in EDGE_UPSERT.items():
        statements[f"EDGE_UPSERT[{relation}]"] = statement
    return statements
