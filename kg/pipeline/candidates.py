"""The candidate index: which few existing nodes a mention or a message could mean (blocking).

Resolution compares a mention with the nodes this index returns, never with every node of
the type, so its cost does not grow with the project. Each node is filed under block keys:

    k:<normalised key>   for its label and every alias          (exact matches)
    m:<meaning key>      lemmas + codes + negation, per name    (inflection-free matches)
    t:<lemma>            each content lemma of each name         (fuzzy neighbours)
    s:<subject>          an opinion's subject                    (contradiction partners)

A lookup reads at most POSTINGS_PER_BLOCK postings per block (the newest), so a lemma shared
by thousands of nodes costs no more than a rare one, ranks nodes by the blocks they share
with the mention and returns the best MAX_CANDIDATES.

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
from collections import Counter
from collections.abc import Iterable

from django.db import transaction
from django.db.models import Max

from kg.graph import GraphScope, NodeRecord, store
from kg.language import content_lemmas
from kg.models import IndexedNode, IndexPosting, Project
from kg.pipeline.resolve import meaning_key, node_key

POSTINGS_PER_BLOCK = 200
MAX_CANDIDATES = 24
MAX_TEXT_LEMMAS = 60  # a long message is looked up by its first this-many distinct lemmas
BLOCK_CHARS = 200


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


def _record(row: IndexedNode) -> NodeRecord:
    """A node as resolution sees it: everything but the evidence."""
    return NodeRecord(
        uid=row.uid,
        number=row.number,
        type=row.node_type,
        label=row.label,
        key=row.key,
        aliases=list(row.aliases),
        alias_keys=list(row.alias_keys),
        valid_at=row.valid_at,
        invalid_at=None if row.active else row.valid_at,
        subject=row.subject,
        stance=row.stance,
        value=row.value,
    )


def _lookup(
    project: Project, blocks: Iterable[str], node_type: str | None, limit: int
) -> list[NodeRecord]:
    shared: Counter[str] = Counter()
    numbers: dict[str, int] = {}
    for block in sorted(set(blocks)):
        postings = IndexPosting.objects.filter(project=project, block=block)
        if node_type:
            postings = postings.filter(node_type=node_type)
        for uid, number in postings.order_by("-number").values_list("node_uid", "number")[
            :POSTINGS_PER_BLOCK
        ]:
            weight = 4 if block.startswith(("k:", "m:", "k#", "m#")) else 1
            shared[uid] += weight
            numbers[uid] = number
    best = sorted(shared, key=lambda uid: (-shared[uid], numbers[uid]))[: limit * 2]
    rows = IndexedNode.objects.filter(project=project, uid__in=best, active=True)
    found = {row.uid: _record(row) for row in rows}
    return [found[uid] for uid in best if uid in found][:limit]


def candidates_for(
    project: Project, node_type: str, label: str, limit: int = MAX_CANDIDATES
) -> list[NodeRecord]:
    """The active nodes of a type most likely meant by a mention, best first."""
    return _lookup(project, blocks_of_names([label]), node_type, limit)


def nodes_for_text(project: Project, text: str, limit: int = 12) -> list[NodeRecord]:
    """The active nodes of any type a message most likely speaks about, best first."""
    lemmas = sorted(content_lemmas(text))[:MAX_TEXT_LEMMAS]
    return _lookup(project, [_block("t", lemma) for lemma in lemmas], None, limit)


def exact_matches(project: Project, node_type: str, label: str) -> list[NodeRecord]:
    """Active nodes of the type sharing the mention's key or meaning key (no fuzzy scores)."""
    blocks = {b for b in blocks_of_names([label]) if b[:2] in ("k:", "m:", "k#", "m#")}
    return _lookup(project, blocks, node_type, MAX_CANDIDATES)


def opinions_on(project: Project, node_type: str, subject: str) -> list[NodeRecord]:
    """Active nodes of the type about a subject (contradiction partners)."""
    if not subject.strip():
        return []
    return _lookup(project, [_block("s", subject.strip().lower())], node_type, POSTINGS_PER_BLOCK)


def known_subjects(project: Project, before: str, limit: int) -> list[str]:
    """Opinion subjects of nodes valid before `before`, most used first."""
    from django.db.models import Count

    rows = (
        IndexedNode.objects.filter(project=project, valid_at__lt=before)
        .exclude(subject="")
        .values("subject")
        .annotate(uses=Count("uid"))
        .order_by("-uses", "subject")
    )
    return [row["subject"] for row in rows[: limit * 2]]


def next_number(project: Project) -> int:
    """The number the project's next node takes: numbers are never reused."""
    last = IndexedNode.objects.filter(project=project).aggregate(n=Max("number"))["n"]
    return (last or 0) + 1


def index_nodes(project: Project, nodes: Iterable[NodeRecord]) -> None:
    """File (or re-file) nodes after they were written to the graph."""
    nodes = list(nodes)
    if not nodes:
        return
    uids = [n.uid for n in nodes]
    with transaction.atomic():
        existing = {
            row.uid: row for row in IndexedNode.objects.filter(project=project, uid__in=uids)
        }
        old_blocks: dict[str, set[str]] = {}
        for uid, block in IndexPosting.objects.filter(
            project=project, node_uid__in=uids
        ).values_list("node_uid", "block"):
            old_blocks.setdefault(uid, set()).add(block)
        creates, updates, postings, stale = [], [], [], []
        for node in nodes:
            fields = {
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
        IndexedNode.objects.bulk_create(creates)
        if updates:
            IndexedNode.objects.bulk_update(updates, [*fields])
        for uid, block in stale:
            IndexPosting.objects.filter(project=project, node_uid=uid, block=block).delete()
        IndexPosting.objects.bulk_create(postings, ignore_conflicts=True)


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
