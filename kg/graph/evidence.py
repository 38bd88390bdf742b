"""A node's evidence as records: one `EvidenceItem` per item, appended alone, read by page.

How evidence is stored
----------------------
Each item a node has (the episode, its number and time, the verbatim quote, its offsets, the
author and the passage fingerprints) is one `EvidenceItem` in the graph, beside the node: `node`
is the node's uid, `key` the item's identity (node, episode, place: a write of the same item
again finds it), `order` its place in the node's list (time, episode number, offset) as one
string, and `json` its fields. The node itself keeps what is shown without the items:
`evidence_count`, `episodes` (distinct episodes) and `evidence_sample`, the keys of a few items
from distinct sources.

- An append writes the new items only (one MERGE each), wherever they sort: its cost does not
  depend on how much the node already has.
- A page is the node's items after a given `order`, sorted, cut at the page size
  (`evidence_page`); the whole list (`node_evidence`, and the nodes the store's reads return)
  is every item, sorted by the reader.
- A write of a node's whole list (a person's correction moved items off it) stamps the items it
  writes with the write's version and deletes the node's other items.
- The items are part of the graph, so `kg_rebuild` (which deletes a project's graph and replays
  its ledger) writes them again and deletes the project's with the rest. A graph written before
  evidence records keeps each node's list in properties; it is read as before, items appended
  since are read with it, and `kg_rebuild` (or any whole write of the node) turns it into items.

Why records in the graph, not an SQL table keyed by project, node and episode. Measured by
`python -m benchmarks.evidence_records` (results/evidence_records.json: 2 shared cores, load
average 5-8 from other work while it ran), one node of N items, median of 20:

| N = 50,000 (1,000)                 | first page (50) | append one item | whole list   |
|------------------------------------|-----------------|-----------------|--------------|
| EvidenceItem records (kept)        | 30 ms (2.9 ms)  | 2.8 ms (0.8 ms) | 1.8 s (9 ms) |
| SQL table, SQLite, own commit      | 0.09 ms (0.09)  | 24 ms (20 ms)   | -            |
| one JSON property (before)         | whole list      | amortised copy  | 1.9 s (6 ms) |

The SQL table reads a page in a fraction of a millisecond whatever the size; the records' page
grows with the node (its items are sorted for each page: about 0.6 µs an item) and meets the
50 ms target at 50,000 items, not far beyond. The records' append does not grow with the node
(0.8 ms alone; 2-3.6 ms at every size under the load above, so the 2 ms target is missed there);
the SQL append, committed on its own, is ten times it. The records were chosen for that, and
because they are written in the same statement as the node's counts (FalkorDB has no
transaction across two stores, nor across two statements), go with the project's graph wherever
it is kept and are rebuilt with it, and sit beside the nodes for the quote vectors of the
semantic layer. A node expected to hold several hundred thousand items would want the SQL table
(or an `order` bucketed so that a page reads one bucket).
"""

from __future__ import annotations

from pydantic import BaseModel, TypeAdapter

from kg.graph import cypher
from kg.graph.client import GraphClient
from kg.graph.records import Evidence, GraphScope, evidence_order, stored_evidence

# How many items of distinct sources a node keeps as its representative quotes.
SAMPLE_SIZE = 3
# How far into a node's list its representative items are looked for (its oldest items): the
# choice costs the same however much the node has.
SAMPLE_SCAN = 200
PAGE_SIZE = 50


class EvidencePage(BaseModel):
    """One page of a node's evidence, in order, with the node's totals."""

    items: list[Evidence]
    total: int  # items the node has
    episodes: int  # distinct episodes they come from
    sample: list[Evidence]  # the node's representative items
    after: str | None  # pass as `after` for the next page; None: this is the last


def item_order(e: Evidence) -> str:
    """The item's place in its node's list (kg.graph.records.evidence_order) as one string."""
    return f"{e.valid_at}|{e.episode_number:012d}|{e.start:010d}"


def item_key(node_uid: str, e: Evidence) -> str:
    """The item's identity: a node has one item per episode and place."""
    return f"{node_uid}/{e.episode_uid}/{e.start}"


def item_row(node_uid: str, e: Evidence) -> list:
    """The item as written: [key, order, its fields as JSON] (kg.graph.cypher)."""
    return [item_key(node_uid, e), item_order(e), e.model_dump_json()]


def _source_keys(e: Evidence) -> set[str]:
    """What makes two items one source: the episode, and a long passage both carry."""
    return {e.episode_uid, *e.passages}


def representative_evidence(items: list[Evidence], limit: int = SAMPLE_SIZE) -> list[Evidence]:
    """Up to `limit` items of distinct sources, the oldest first; the list's first item when
    every item is of one source."""
    chosen: list[Evidence] = []
    seen: set[str] = set()
    for e in items[:SAMPLE_SCAN]:
        keys = _source_keys(e)
        if keys & seen:
            continue
        chosen.append(e)
        seen |= keys
        if len(chosen) == limit:
            break
    return chosen


def sample_keys(node_uid: str, items: list[Evidence]) -> list[str]:
    """What a node keeps of its representative items: their keys."""
    return [item_key(node_uid, e) for e in representative_evidence(items)]


def combined(legacy: list[Evidence], items: list[Evidence]) -> list[Evidence]:
    """A node's list: the items kept in properties before evidence records, and its records
    (an item in both counted once), in order."""
    if not legacy:
        return sorted(items, key=evidence_order)
    keys = {(e.episode_uid, e.start) for e in legacy}
    extra = [e for e in items if (e.episode_uid, e.start) not in keys]
    return sorted(legacy + extra, key=evidence_order)


def items_by_node(
    c: GraphClient, scope: GraphScope, uids: list[str] | None
) -> dict[str, list[Evidence]]:
    """The items of the given nodes (None: every node of the project), each node's unordered."""
    if uids is None:
        rows = c.run(cypher.EVIDENCE_ITEMS_BY_PROJECT, project=scope.project)
    elif uids:
        rows = c.run(cypher.EVIDENCE_ITEMS_BY_NODES, uids=uids, project=scope.project)
    else:
        return {}
    found: dict[str, list[Evidence]] = {}
    for row in rows:
        found.setdefault(row["uid"], []).extend(_items(row["items"]))
    return found


def _items(texts: list[str]) -> list[Evidence]:
    """Items from their JSON, parsed and checked in one pass."""
    return _ITEMS.validate_json(f"[{','.join(texts)}]") if texts else []


_ITEMS = TypeAdapter(list[Evidence])


def evidence_page(
    c: GraphClient,
    scope: GraphScope,
    uid: str,
    after: str | None = None,
    limit: int = PAGE_SIZE,
) -> EvidencePage | None:
    """A page of the node's evidence after `after` (None: the first page); None when the
    project has no such node."""
    summary = c.run(cypher.NODE_EVIDENCE_SUMMARY, uid=uid, project=scope.project)
    if not summary:
        return None
    node = summary[0]
    legacy = stored_evidence(node)
    if legacy:  # a node written before evidence records: its list is read whole
        return _legacy_page(c, scope, uid, legacy, after, limit)
    # One more than the page: whether another page follows.
    rows = c.run(cypher.EVIDENCE_PAGE, uid=uid, after=after, limit=limit + 1, project=scope.project)
    items = _items([r["item"] for r in rows[:limit]])
    total = int(node["count"] or 0)
    keys = list(node["sample"] or [])
    found = c.run(cypher.EVIDENCE_ITEMS_BY_KEYS, keys=keys, project=scope.project) if keys else []
    sample = _items([r["item"] for r in found])
    return EvidencePage(
        items=items,
        total=total,
        episodes=int(node["episodes"] or 0),
        sample=sample,
        after=rows[limit - 1]["order"] if len(rows) > limit else None,
    )


def _legacy_page(
    c: GraphClient,
    scope: GraphScope,
    uid: str,
    legacy: list[Evidence],
    after: str | None,
    limit: int,
) -> EvidencePage:
    whole = combined(legacy, items_by_node(c, scope, [uid]).get(uid, []))
    rest = [e for e in whole if after is None or item_order(e) > after]
    page = rest[:limit]
    return EvidencePage(
        items=page,
        total=len(whole),
        episodes=len({e.episode_uid for e in whole}),
        sample=representative_evidence(whole),
        after=item_order(page[-1]) if len(rest) > limit else None,
    )
