"""The candidate index: which few existing nodes a mention or a message could mean (blocking).

Resolution compares a mention with the nodes this index returns, never with every node of
the type, so its cost does not grow with the project. Each node is filed under block keys:

    k:<normalised key>   for its label and every alias          (exact matches)
    m:<meaning key>      lemmas + codes + negation, per name    (inflection-free matches)
    t:<lemma>            each content lemma of each name         (fuzzy neighbours)
    s:<subject>          an opinion's subject                    (contradiction partners)

A lookup is one SQL statement on PostgreSQL, two on SQLite: for each block a range scan of the
posting index that stops after POSTINGS_PER_BLOCK postings (the newest), so a lemma shared by
thousands of nodes costs no more than a rare one and the work is bounded by blocks x
POSTINGS_PER_BLOCK whatever the project's size; the database sums each node's block weights (a
shared key or meaning key outweighs shared lemmas), and the best MAX_CANDIDATES active nodes
are returned. SQLite ranks the postings alone, then reads the rows of the best only. A rare
block is read whole, so a node that shares a rare key or lemma with the mention is found
however old it is; only among nodes sharing nothing but common lemmas are the newest preferred.

Where it lives: two SQL tables (kg.models.integration), written in the same place and under
the same project lock as the graph. Chosen over
- a graph property with full-text search: Neo4j and FalkorDB have different, incompatible
  full-text procedures, and all Cypher here is portable;
- an in-process structure checked against the revision counter: every worker would hold and
  warm every node of every project it serves, and would need a change feed to catch up;
SQL gives B-tree lookups (cost independent of project size) on SQLite and PostgreSQL alike,
is transactional next to the ledger and the revision counter, and is rebuilt from the graph
with `rebuild_index` (kg_rebuild drops and refills it with the graph).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection, Iterable, Sequence

import numpy as np
from django.db import connection, transaction
from django.db.models import Count, Max, QuerySet

from kg.graph import GraphScope, NodeRecord, store
from kg.language import content_lemmas
from kg.language.encoder import DIMENSIONS, encode_one
from kg.language.meaning import ASK_FROM
from kg.language.names import names_vectors
from kg.models import IndexedNode, IndexPosting, Project
from kg.pipeline.resolve import Mention, matched_exactly, meaning_key, node_key

POSTINGS_PER_BLOCK = 64  # past this many postings a block is common: its newest are read
OPINIONS_PER_SUBJECT = 200  # contradiction partners: the newest opinions on one subject
EXACT_KINDS = ("k:", "m:", "k#", "m#")  # a shared key or meaning key, not one shared lemma
EXACT_WEIGHT = 4
MAX_CANDIDATES = 24
MAX_TEXT_LEMMAS = 60  # a long message is looked up by its first this-many distinct lemmas
BLOCK_CHARS = 200
# How many nodes nearest in meaning a mention is compared with, besides its blocks' best.
NEAREST_BY_MEANING = 8


def _block(kind: str, value: str) -> str:
    block = f"{kind}:{value}"
    if len(block) <= BLOCK_CHARS:
        return block
    return f"{kind}#" + hashlib.sha256(value.encode("utf-8")).hexdigest()


def blocks_of_names(names: Iterable[str]) -> set[str]:
    found: set[str] = set()
    for name in names:
        if not name.strip():
            continue
        found.add(_block("k", node_key(name)))
        meaning = meaning_key(name)
        if meaning:
            found.add(_block("m", meaning))
        found |= {_block("t", lemma) for lemma in content_lemmas(name)}
    return found


def blocks_of_node(node: NodeRecord) -> set[str]:
    blocks = blocks_of_names([node.label, *node.aliases])
    blocks |= {_block("k", key) for key in [node.key, *node.alias_keys] if key}
    if node.subject.strip():
        blocks.add(_block("s", node.subject.strip().lower()))
    return blocks


class NodeBlocks:
    """The same blocking over nodes held in memory, for work that compares the nodes of several
    projects (promotion to the organization): which of the nodes added so far a node could be,
    ranked as the SQL lookup ranks them (summed block weights; per block the newest
    POSTINGS_PER_BLOCK), so each comparison list stays short however many nodes there are.
    Deterministic: ties go to the node added first.

    With `by_meaning`, the nodes nearest in meaning (the sentence encoder's cosine of the
    labels, at least ASK_FROM; at most NEAREST_BY_MEANING) are added after them: the same
    finding in other words or another language shares no block."""

    def __init__(
        self,
        limit: int = MAX_CANDIDATES,
        per_block: int = POSTINGS_PER_BLOCK,
        *,
        by_meaning: bool = False,
    ) -> None:
        self.limit, self.per_block = limit, per_block
        self._nodes: list[tuple[NodeRecord, object]] = []
        self._postings: dict[str, list[int]] = {}
        self._meaning = _MeaningIndex() if by_meaning else None

    def add(self, node: NodeRecord, owner: object) -> None:
        """File a node, with whom it belongs to (a project: `candidates` can leave its own out)."""
        place = len(self._nodes)
        self._nodes.append((node, owner))
        for block in blocks_of_node(node):
            self._postings.setdefault(block, []).append(place)
        if self._meaning is not None:
            self._meaning.add(node.label)

    def candidates(self, node: NodeRecord, other_than: object = None) -> list[NodeRecord]:
        """The best filed nodes sharing a block with `node`, none of owner `other_than`."""
        score: dict[int, int] = {}
        for block in sorted(blocks_of_node(node)):
            weight = EXACT_WEIGHT if block[:2] in EXACT_KINDS else 1
            taken = 0
            for place in reversed(self._postings.get(block, ())):
                if taken == self.per_block:
                    break
                if self._nodes[place][1] == other_than:
                    continue
                score[place] = score.get(place, 0) + weight
                taken += 1
        best = sorted(score, key=lambda place: (-score[place], place))[: self.limit]
        if self._meaning is not None:
            near = self._meaning.nearest(node.label, NEAREST_BY_MEANING, ASK_FROM)
            others = [p for p in near if p not in score and self._nodes[p][1] != other_than]
            best += others[:NEAREST_BY_MEANING]
        return [self._nodes[place][0] for place in best]


class _MeaningIndex:
    """Label vectors of the filed nodes, in filing order, searched by brute force (one matrix
    product per lookup; promotion files one organization's nodes of one type)."""

    def __init__(self) -> None:
        self._vectors = np.zeros((64, DIMENSIONS), dtype=np.float32)
        self._count = 0

    def add(self, label: str) -> None:
        if self._count == len(self._vectors):
            self._vectors = np.concatenate([self._vectors, np.zeros_like(self._vectors)])
        self._vectors[self._count] = encode_one(label)
        self._count += 1

    def nearest(self, label: str, limit: int, at_least: float) -> list[int]:
        if not self._count:
            return []
        scores = self._vectors[: self._count] @ encode_one(label)
        # More than `limit`: the caller leaves out the asking node's own project's.
        order = np.argsort(-scores, kind="stable")[: limit * 4]
        return [int(p) for p in order if scores[p] >= at_least]


# The best `limit` indexed nodes of each lookup by their summed posting weights (the ranked
# postings follow this, as a subquery named `ranked`).
_BEST_PER_LOOKUP = (
    "SELECT lookup, uid, number, node_type, label, key, aliases, alias_keys, subject, "
    "stance, value, valid_at, active FROM ("
    "SELECT ranked.lookup, n.uid, n.number, n.node_type, n.label, n.key, n.aliases, "
    "n.alias_keys, n.subject, n.stance, n.value, n.valid_at, n.active, ROW_NUMBER() OVER "
    "(PARTITION BY ranked.lookup ORDER BY ranked.score DESC, n.number ASC) AS place FROM "
)


def _postings_ranked_sql(
    project_id: int, lookups: list[tuple[str | None, list[str]]], per_block: int
) -> tuple[str, list]:
    """The first step of a lookup on SQLite: each lookup's nodes with their summed block
    weights and their number, from the postings alone (each block's newest `per_block`). The
    node rows are read after, only for the best (`_best_rows`): joining every posting's row
    first costs most of a lookup once blocks are common (a few hundred rows for two dozen)."""
    posting = IndexPosting._meta.db_table
    parts, params = [], []
    for i, (node_type, blocks) in enumerate(lookups):
        typed = "AND node_type = %s " if node_type else ""
        for j, block in enumerate(blocks):
            weight = EXACT_WEIGHT if block[:2] in EXACT_KINDS else 1
            parts.append(
                f"SELECT * FROM (SELECT {i:d} AS lookup, node_uid, {weight:d} AS weight, number "  # noqa: S608
                f"FROM {posting} WHERE project_id = %s {typed}AND block = %s "
                f"ORDER BY number DESC LIMIT {int(per_block):d}) b{i}_{j}"
            )
            params += [project_id, *([node_type] if node_type else []), block]
    sql = (
        "SELECT lookup, node_uid, SUM(weight), MAX(number) "  # noqa: S608
        f"FROM ({' UNION ALL '.join(parts)}) hits GROUP BY lookup, node_uid"
    )
    return sql, params


_NODE_COLUMNS = (
    "uid, number, node_type, label, key, aliases, alias_keys, subject, stance, value, valid_at, "
    "active"
)


def _best_rows(
    project: Project, ranked: list[list[tuple[int, int, str]]], limit: int
) -> list[list[NodeRecord]]:
    """Each lookup's best `limit` active nodes by (score, number), from its postings ranked
    best first ((-score, number, uid) each). A posting carries its node's number, so the best
    are among the first ranked: their rows are read `limit` at a time, for all lookups in one
    statement, until each has `limit` active ones or none is left (inactive ones are few)."""
    rows: dict[str, tuple] = {}
    read: set[str] = set()
    taken = [0] * len(ranked)
    while True:
        wanted = set()
        for i, order in enumerate(ranked):
            active = sum(1 for _, _, uid in order[: taken[i]] if uid in rows)
            if active >= limit or taken[i] >= len(order):
                continue
            taken[i] += limit
            wanted |= {uid for _, _, uid in order[taken[i] - limit : taken[i]]}
        wanted -= read
        if not wanted:
            break
        read |= wanted
        chosen = sorted(wanted)
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT {_NODE_COLUMNS} FROM {IndexedNode._meta.db_table} "  # noqa: S608
                f"WHERE project_id = %s AND active AND uid IN ({', '.join(['%s'] * len(chosen))})",
                [project.pk, *chosen],
            )
            rows |= {row[0]: row for row in cursor.fetchall()}
    found = []
    for i, order in enumerate(ranked):
        best = sorted(
            (score, rows[uid][1], uid) for score, _, uid in order[: taken[i]] if uid in rows
        )
        found.append(_records([rows[uid] for _, _, uid in best[:limit]]))
    return found


def _ranking_lateral_sql(
    project_id: int,
    lookups: list[tuple[str | None, list[str]]],
    limit: int,
    per_block: int,
) -> tuple[str, list]:
    """Each lookup's best `limit` nodes on PostgreSQL, in one statement: the lookups' blocks
    passed as arrays, each block's newest postings read by a lateral range scan (of the typed
    index for a typed lookup, of the other one for any type). The statement stays small
    however many blocks are looked up: planning one of a hundred unions costs the server more
    than running it."""
    posting, node = IndexPosting._meta.db_table, IndexedNode._meta.db_table
    typed: tuple[list, list, list, list] = ([], [], [], [])
    untyped: tuple[list, list, list] = ([], [], [])
    for i, (node_type, blocks) in enumerate(lookups):
        for block in blocks:
            weight = EXACT_WEIGHT if block[:2] in EXACT_KINDS else 1
            if node_type:
                for column, value in zip(typed, (i, node_type, block, weight), strict=True):
                    column.append(value)
            else:
                for column, value in zip(untyped, (i, block, weight), strict=True):
                    column.append(value)
    ranked = (
        "(SELECT lookup, node_uid, SUM(weight) AS score FROM ("  # noqa: S608
        "SELECT q.lookup, p.node_uid, q.weight "
        "FROM unnest(%s::int[], %s::text[], %s::text[], %s::int[]) "
        "AS q(lookup, node_type, block, weight) CROSS JOIN LATERAL ("
        f"SELECT node_uid FROM {posting} WHERE project_id = %s AND node_type = q.node_type "
        "AND block = q.block ORDER BY number DESC LIMIT %s) p "
        "UNION ALL SELECT q.lookup, p.node_uid, q.weight "
        "FROM unnest(%s::int[], %s::text[], %s::int[]) AS q(lookup, block, weight) "
        f"CROSS JOIN LATERAL (SELECT node_uid FROM {posting} WHERE project_id = %s "
        "AND block = q.block ORDER BY number DESC LIMIT %s) p"
        f") hits GROUP BY lookup, node_uid) ranked JOIN {node} n "
        "ON n.project_id = %s AND n.uid = ranked.node_uid WHERE n.active) best "
        "WHERE place <= %s ORDER BY lookup, place"
    )
    params = [*typed, project_id, per_block, *untyped, project_id, per_block, project_id, limit]
    return _BEST_PER_LOOKUP + ranked, params


def _json_list(value: object) -> list[str]:
    if isinstance(value, str):  # SQLite hands JSON columns back as text in raw queries
        value = json.loads(value)
    return list(value or [])


def _lookup(
    project: Project,
    blocks: Iterable[str],
    node_type: str | None,
    limit: int,
    per_block: int = POSTINGS_PER_BLOCK,
) -> list[NodeRecord]:
    chosen = sorted(set(blocks))
    if not chosen:
        return []
    return _lookup_many(project, [(node_type, chosen)], limit, per_block)[0]


def _records(rows) -> list[NodeRecord]:
    return [
        NodeRecord(
            uid=uid,
            number=number,
            type=kind,
            label=label,
            key=key,
            aliases=_json_list(aliases),
            alias_keys=_json_list(alias_keys),
            valid_at=valid_at,
            invalid_at=None if active else valid_at,
            subject=subject,
            stance=stance,
            value=value,
        )
        for (
            uid,
            number,
            kind,
            label,
            key,
            aliases,
            alias_keys,
            subject,
            stance,
            value,
            valid_at,
            active,
        ) in rows
    ]


def candidates_for(
    project: Project, node_type: str, label: str, limit: int = MAX_CANDIDATES
) -> list[NodeRecord]:
    """The active nodes of a type most likely meant by a mention, best first."""
    return _lookup(project, blocks_of_names([label]), node_type, limit)


def neighbours_by_meaning(
    project: Project,
    mentions: Sequence[tuple[str, str]],
    decided: Collection[int] = (),
    known: Sequence[Iterable[NodeRecord]] = (),
    vectors: Sequence[list[float]] | None = None,
) -> list[tuple[list[NodeRecord], dict[str, float] | None]]:
    """For each (node type, label) mention, the active nodes of its type nearest in meaning
    (the graph's vector index, across languages), and each one's cosine with the mention.
    Mentions at the positions in `decided` (matched exactly already) are not looked up. The
    cosines are None where the graph keeps no vectors: resolution computes them itself.

    All mentions are asked of the vector index in one statement. `known`: nodes already read
    from the index (the mentions' candidates), whose rows are not read again; `vectors`: the
    mentions' label vectors where the caller has them (else they are encoded here)."""
    if not mentions:
        return []
    if not store.keeps_vectors():
        return [([], None) for _ in mentions]
    asked = [i for i in range(len(mentions)) if i not in decided]
    if vectors is None:
        asked_vectors = names_vectors([[mentions[i][1]] for i in asked])
    else:
        asked_vectors = [vectors[i] for i in asked]
    answers = store.nearest_nodes_many(
        project.graph_scope,
        [(mentions[i][0], vector) for i, vector in zip(asked, asked_vectors, strict=True)],
        NEAREST_BY_MEANING,
    )
    # Only nodes near enough to be a question (kg.language.meaning): the rest of the nearest
    # are merely the least far, and must not enter the fuzzy band by their spelling.
    hits: list[list[tuple[str, float]] | None] = [[] for _ in mentions]
    for place, i in enumerate(asked):
        hits[i] = None if answers is None else [(u, c) for u, c in answers[place] if c >= ASK_FROM]
    records = {node.uid: node for nodes in known for node in nodes if node.invalid_at is None}
    records |= indexed_nodes(
        project, {uid for found in hits for uid, _ in found or () if uid not in records}
    )
    return [
        ([], None)
        if found is None
        else ([records[uid] for uid, _ in found if uid in records], dict(found))
        for found in hits
    ]


def resolution_pools(
    project: Project,
    mentions: Sequence[Mention],
    found: Sequence[list[NodeRecord]] | None = None,
    vectors: Sequence[list[float]] | None = None,
) -> list[tuple[list[NodeRecord], dict[str, float] | None]]:
    """What each mention is resolved against (`resolve_candidate`'s nodes and cosines): its
    candidates from the blocks (`found`, when the caller looked them up), then the nodes
    nearest in meaning not among them, with the vector index's cosines; a mention its
    candidates match exactly is not looked up by meaning (the ladder's first rung decides)."""
    asked = [(m.node_type, m.label) for m in mentions]
    if found is None:
        found = candidates_for_many(project, asked)
    decided = {
        i
        for i, (m, pool) in enumerate(zip(mentions, found, strict=True))
        if matched_exactly(m, pool)
    }
    nearest = neighbours_by_meaning(project, asked, decided, found, vectors)
    return [
        (_joined(pool, near), cosines) for pool, (near, cosines) in zip(found, nearest, strict=True)
    ]


def _joined(pool: list[NodeRecord], more: list[NodeRecord]) -> list[NodeRecord]:
    seen = {n.uid for n in pool}
    return pool + [n for n in more if n.uid not in seen]


def indexed_nodes(project: Project, uids: Iterable[str]) -> dict[str, NodeRecord]:
    """The active indexed nodes with these uids, by uid."""
    wanted = sorted(set(uids))
    if not wanted:
        return {}
    rows = IndexedNode.objects.filter(project=project, uid__in=wanted, active=True).values_list(
        "uid", "number", "node_type", "label", "key", "aliases", "alias_keys", "subject",
        "stance", "value", "valid_at", "active",
    )  # fmt: skip
    return {record.uid: record for record in _records(rows)}


# Blocks of one statement of `candidates_for_many` (SQLite allows 500 terms in a compound
# SELECT): lookups past it go in the next statement.
BLOCKS_PER_STATEMENT = 400


def candidates_for_many(
    project: Project, mentions: Iterable[tuple[str, str]], limit: int = MAX_CANDIDATES
) -> list[list[NodeRecord]]:
    """`candidates_for` of several (node type, label) mentions, in as few statements as the
    database allows (one, for the mentions of a message): each mention's list as it would be
    alone."""
    lookups = [(node_type, sorted(blocks_of_names([label]))) for node_type, label in mentions]
    return _lookup_many(project, lookups, limit)


def _lookup_many(
    project: Project,
    lookups: list[tuple[str | None, list[str]]],
    limit: int,
    per_block: int = POSTINGS_PER_BLOCK,
) -> list[list[NodeRecord]]:
    """Each lookup's best `limit` nodes, as `_lookup` finds them one by one, in as few
    statements as the database allows (PostgreSQL: one)."""
    found: list[list[NodeRecord]] = [[] for _ in lookups]
    if connection.vendor == "postgresql":
        if any(blocks for _, blocks in lookups):
            sql, params = _ranking_lateral_sql(project.pk, lookups, limit, per_block)
            with connection.cursor() as cursor:
                cursor.execute(sql, params)
                rows = cursor.fetchall()
            for row in rows:
                found[row[0]].extend(_records([row[1:]]))
        return found
    start = 0
    while start < len(lookups):
        end, blocks = start, 0
        while end < len(lookups) and (
            end == start or blocks + len(lookups[end][1]) <= BLOCKS_PER_STATEMENT
        ):
            blocks += len(lookups[end][1])
            end += 1
        chunk = [(i, lookup) for i, lookup in enumerate(lookups[start:end], start) if lookup[1]]
        if chunk:
            sql, params = _postings_ranked_sql(
                project.pk, [lookup for _, lookup in chunk], per_block
            )
            with connection.cursor() as cursor:
                cursor.execute(sql, params)
                postings = cursor.fetchall()
            ranked: list[list[tuple[int, int, str]]] = [[] for _ in chunk]
            for lookup, uid, score, number in postings:
                ranked[lookup].append((-score, number, uid))
            for order in ranked:
                order.sort()
            for (i, _), best in zip(chunk, _best_rows(project, ranked, limit), strict=True):
                found[i] = best
        start = end
    return found


def nodes_for_text(project: Project, text: str, limit: int = 12) -> list[NodeRecord]:
    """The active nodes of any type a message most likely speaks about, best first."""
    return _lookup(project, _text_blocks(text), None, limit)


def nodes_for_texts(
    project: Project, texts: Sequence[str], limit: int = 12
) -> list[list[NodeRecord]]:
    """`nodes_for_text` of several messages (a batch's), in one statement where it can."""
    return _lookup_many(project, [(None, _text_blocks(text)) for text in texts], limit)


def _text_blocks(text: str) -> list[str]:
    lemmas = sorted(content_lemmas(text))[:MAX_TEXT_LEMMAS]
    return sorted({_block("t", lemma) for lemma in lemmas})


def exact_matches(project: Project, node_type: str, label: str) -> list[NodeRecord]:
    """Active nodes of the type sharing the mention's key or meaning key (no fuzzy scores)."""
    blocks = {b for b in blocks_of_names([label]) if b[:2] in ("k:", "m:", "k#", "m#")}
    return _lookup(project, blocks, node_type, MAX_CANDIDATES)


def opinions_on(project: Project, node_type: str, subject: str) -> list[NodeRecord]:
    """Active nodes of the type about a subject (contradiction partners)."""
    if not subject.strip():
        return []
    subject_block = [_block("s", subject.strip().lower())]
    return _lookup(project, subject_block, node_type, OPINIONS_PER_SUBJECT, OPINIONS_PER_SUBJECT)


def subject_uses(project: Project, before: str) -> QuerySet:
    """Opinion subjects of nodes valid before `before` with how many nodes use each, most used
    first: counted from the index on (project, subject, valid_at) of the nodes that have a
    subject, without reading the table or any node without one."""
    return (
        IndexedNode.objects.filter(project=project, valid_at__lt=before)
        .exclude(subject="")
        .values("subject")
        .annotate(uses=Count("subject"))
        .order_by("-uses", "subject")
    )


def known_subjects(project: Project, before: str, limit: int) -> list[str]:
    """Opinion subjects of nodes valid before `before`, most used first."""
    return [row["subject"] for row in subject_uses(project, before)[: limit * 2]]


def next_number(project: Project) -> int:
    """The number the project's next node takes: numbers are never reused."""
    last = IndexedNode.objects.filter(project=project).aggregate(n=Max("number"))["n"]
    return (last or 0) + 1


class FiledNodes:
    """What the index holds for some of a project's nodes, as read or filed in one hold of the
    project lease: no other writer files the project's nodes while it is held, so a node
    known here is compared with this, not with its row read again (None: known not filed).
    Kept by the caller for one hold only, and forgotten when a commit that filed nodes fails.
    """

    def __init__(self, project: Project) -> None:
        self.project = project
        self.rows: dict[str, dict | None] = {}

    def read(self, uids: Iterable[str]) -> None:
        """Know the rows of the nodes not known yet (one statement, none when all are)."""
        unknown = sorted({u for u in uids if u and u not in self.rows})
        if not unknown:
            return
        for uid in unknown:
            self.rows[uid] = None
        for uid, *values in IndexedNode.objects.filter(
            project=self.project, uid__in=unknown
        ).values_list("uid", *INDEXED_FIELDS):
            self.rows[uid] = dict(zip(INDEXED_FIELDS, values, strict=True))

    def forget(self) -> None:
        self.rows.clear()


def index_nodes(
    project: Project, nodes: Iterable[NodeRecord], filed: FiledNodes | None = None
) -> None:
    """File (or re-file) nodes, just before they are written to the graph. `filed`: what this
    hold of the lease knows the index holds (kept up to date here)."""
    nodes = list(nodes)
    if not nodes:
        return
    if filed is None or filed.project.pk != project.pk:
        filed = FiledNodes(project)
    filed.read(n.uid for n in nodes)
    # Most touched nodes only gained evidence, which the index does not hold: nothing to do.
    nodes = [n for n in nodes if _fields(n) != filed.rows[n.uid]]
    if not nodes:
        return
    # Postings are filed with their node, in one transaction: a node not filed has none.
    refiled = [n.uid for n in nodes if filed.rows[n.uid] is not None]
    # No savepoint of its own (the pipeline files nodes inside its transaction): a failure here
    # fails the whole transaction, as the caller re-raises it anyway.
    with transaction.atomic(savepoint=False):
        old_blocks: dict[str, set[str]] = {}
        existing: dict[str, IndexedNode] = {}
        if refiled:
            existing = {
                row.uid: row for row in IndexedNode.objects.filter(project=project, uid__in=refiled)
            }
            for uid, block in IndexPosting.objects.filter(
                project=project, node_uid__in=refiled
            ).values_list("node_uid", "block"):
                old_blocks.setdefault(uid, set()).add(block)
        creates, updates, postings, stale = [], [], [], []
        for node in nodes:
            fields = _fields(node)
            row = existing.get(node.uid)
            if row is None:
                creates.append(IndexedNode(project=project, uid=node.uid, **fields))
            else:
                for name, value in fields.items():
                    setattr(row, name, value)
                updates.append(row)
            wanted = blocks_of_node(node)
            had = old_blocks.get(node.uid, set())
            postings += [
                IndexPosting(
                    project=project,
                    node_type=node.type,
                    block=block,
                    node_uid=node.uid,
                    number=node.number,
                )
                for block in sorted(wanted - had)
            ]
            stale += [(node.uid, block) for block in had - wanted]
        if creates:
            IndexedNode.objects.bulk_create(creates)
        if updates:
            IndexedNode.objects.bulk_update(updates, [*INDEXED_FIELDS])
        for uid, block in stale:
            IndexPosting.objects.filter(project=project, node_uid=uid, block=block).delete()
        IndexPosting.objects.bulk_create(postings, ignore_conflicts=True)
        for node in nodes:
            filed.rows[node.uid] = _fields(node)


def _fields(node: NodeRecord) -> dict:
    return {
        "node_type": node.type,
        "number": node.number,
        "label": node.label,
        "key": node.key,
        "aliases": list(node.aliases),
        "alias_keys": list(node.alias_keys),
        "subject": node.subject.strip()[:300],
        "stance": node.stance,
        "value": node.value,
        "valid_at": node.valid_at,
        "active": node.invalid_at is None,
    }


INDEXED_FIELDS = (
    "node_type",
    "number",
    "label",
    "key",
    "aliases",
    "alias_keys",
    "subject",
    "stance",
    "value",
    "valid_at",
    "active",
)


def clear_index(project: Project) -> None:
    with transaction.atomic():
        IndexPosting.objects.filter(project=project).delete()
        IndexedNode.objects.filter(project=project).delete()


def rebuild_index(project: Project, scope: GraphScope | None = None) -> int:
    """Refill the project's index from its graph; returns the number of nodes filed."""
    nodes = store.list_nodes(scope or project.graph_scope)
    clear_index(project)
    for start in range(0, len(nodes), 1000):
        index_nodes(project, nodes[start : start + 1000])
    return len(nodes)
