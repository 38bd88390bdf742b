"""A node's evidence: append and read-by-page cost by size, for the layouts weighed in
kg.graph.evidence. Run: python -m benchmarks.evidence_records

One node is given EVIDENCE_SIZES items (default 1,000, 10,000, 50,000), each from an episode of
its own, in each layout:

- `graph_records` (the one kept): EvidenceItem records beside the node, written and read
  through the store (`append_node_changes`, `node_evidence_page`, `node_evidence`);
- `sql_table`: an SQL table keyed by project, node and item, an index on (project, node,
  order); the append is one INSERT committed on its own, the page one indexed SELECT;
- `property_list`: the list as one JSON property of the node, as graphs kept it before: what
  reading the node's evidence cost (every item parsed), for comparison.

Timings are the median of REPEATS (default 20) after one warm-up; appends go to the end of the
list and (graph) also before its first item (an older episode arriving late). Targets (issue:
evidence as records): first page <= 50 ms at 50,000 items, append <= 2 ms whatever the size.
The figures replace results/evidence_records.json; the machine is shared and they are noisy.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import time
from collections.abc import Callable

from benchmarks.environment import RESULTS, bench_environment

PAGE = 50
FILL_BATCH = 1000
FIRST_PAGE_TARGET_MS = 50.0
APPEND_TARGET_MS = 2.0


def _median_ms(action: Callable[[], object], repeats: int) -> float:
    action()
    samples = []
    for _ in range(repeats):
        started = time.perf_counter()
        action()
        samples.append((time.perf_counter() - started) * 1000)
    return round(statistics.median(samples), 3)


def _item(number: int, day_offset: int = 0):
    from kg.graph import Evidence

    quote = f"the app loses my orders when the signal drops, report {number}"
    minute = number + day_offset
    return Evidence(
        episode_uid=f"bench-ep-{number}",
        episode_number=number,
        quote=quote,
        start=0,
        end=len(quote),
        valid_at=f"2026-{1 + minute // 1_000_000:02d}-01T00:00:00.{minute % 1_000_000:06d}Z",
        author=f"user{number % 97}",
    )


def graph_records(size: int, repeats: int) -> dict:
    from kg.graph import GraphScope, store
    from kg.graph.records import EpisodeStub
    from tests.kg.pipeline_helpers import node_record

    scope = GraphScope(org="bench", project=f"evidence-{size}")
    node = node_record(1, "Orders get lost", valid_at=_item(1).valid_at)
    # The episodes the items and the timed appends mention (each append links its episode).
    last = size + 2 * repeats + 4
    for low in range(1, last + 1, FILL_BATCH):
        numbers = range(low, min(last, low + FILL_BATCH - 1) + 1)
        stubs = [EpisodeStub(uid=f"bench-ep-{n}", number=n, valid_at="x") for n in numbers]
        store.upsert_episode_stubs(scope, stubs)
    started = time.perf_counter()
    for low in range(1, size + 1, FILL_BATCH):
        numbers = range(low, min(size, low + FILL_BATCH - 1) + 1)
        batch = [_item(n) for n in numbers]
        node.evidence += batch
        store.append_node_changes(scope, [node], [(node.uid, e) for e in batch])
    fill_seconds = round(time.perf_counter() - started, 1)

    counter = [size]

    def append_last() -> None:
        counter[0] += 1
        said = _item(counter[0])
        node.evidence.append(said)
        store.append_node_changes(scope, [node], [(node.uid, said)])

    def append_first() -> None:  # an older episode, late: sorts before every item
        counter[0] += 1
        said = _item(counter[0]).model_copy(update={"valid_at": "2025-01-01T00:00:00.000000Z"})
        node.evidence.insert(0, said)
        store.append_node_changes(scope, [node], [(node.uid, said)])

    first_page = _median_ms(lambda: store.node_evidence_page(scope, node.uid, limit=PAGE), repeats)
    middle = store.node_evidence_page(scope, node.uid, limit=size // 2).after
    middle_page = _median_ms(
        lambda: store.node_evidence_page(scope, node.uid, after=middle, limit=PAGE), repeats
    )
    figures = {
        "fill_seconds": fill_seconds,
        "first_page_ms": first_page,
        "middle_page_ms": middle_page,
        "append_last_ms": _median_ms(append_last, repeats),
        "append_late_older_ms": _median_ms(append_first, repeats),
        "whole_list_read_ms": _median_ms(
            lambda: store.node_evidence(scope, [node.uid]), max(3, repeats // 4)
        ),
    }
    page = store.node_evidence_page(scope, node.uid, limit=PAGE)
    assert page.total == len(node.evidence) and len(page.items) == PAGE, "pages read wrong"
    store.delete_project_graph(scope)
    return figures


def sql_table(size: int, repeats: int) -> dict:
    from django.db import connection, transaction

    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE IF EXISTS bench_evidence_items")
        cursor.execute(
            "CREATE TABLE bench_evidence_items (project_id integer NOT NULL, "
            "node_uid varchar(64) NOT NULL, "
            "item_key varchar(200) NOT NULL, item_order varchar(80) NOT NULL, "
            "episode_uid varchar(64) NOT NULL, episode_number integer NOT NULL, "
            "quote text NOT NULL, start_at integer NOT NULL, end_at integer NOT NULL, "
            "valid_at varchar(40) NOT NULL, author varchar(200) NOT NULL, "
            "PRIMARY KEY (project_id, node_uid, item_key))"
        )
        cursor.execute(
            "CREATE INDEX bench_evidence_items_order ON bench_evidence_items "
            "(project_id, node_uid, item_order)"
        )
    from kg.graph.evidence import item_key, item_order

    def row(number: int) -> tuple:
        e = _item(number)
        return (
            1,
            "n1",
            item_key("n1", e),
            item_order(e),
            e.episode_uid,
            e.episode_number,
            e.quote,
            e.start,
            e.end,
            e.valid_at,
            e.author,
        )

    insert = "INSERT INTO bench_evidence_items VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
    started = time.perf_counter()
    for low in range(1, size + 1, FILL_BATCH):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.executemany(
                insert, [row(n) for n in range(low, min(size, low + FILL_BATCH - 1) + 1)]
            )
    fill_seconds = round(time.perf_counter() - started, 1)
    counter = [size]

    def append() -> None:
        counter[0] += 1
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(insert, row(counter[0]))

    def first_page() -> list:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT * FROM bench_evidence_items WHERE project_id = %s AND node_uid = %s "
                "ORDER BY item_order LIMIT %s",
                [1, "n1", PAGE],
            )
            return cursor.fetchall()

    figures = {
        "database": connection.vendor,
        "fill_seconds": fill_seconds,
        "first_page_ms": _median_ms(first_page, repeats),
        "append_ms": _median_ms(append, repeats),
    }
    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE bench_evidence_items")
    return figures


def property_list(size: int, repeats: int) -> dict:
    """Reading a node whose evidence is one JSON property (the layout before records)."""
    from kg.graph import get_client
    from kg.graph.cypher import NODES_EVIDENCE_BY_UIDS
    from kg.graph.records import evidence_json, stored_evidence

    client = get_client()
    project = f"evidence-list-{size}"
    client.run(
        "CREATE (:Entity {uid: $uid, project: $project, evidence: $evidence})",
        uid=f"list-{size}",
        project=project,
        evidence=evidence_json([_item(n) for n in range(1, size + 1)]),
    )

    def read() -> list:
        rows = client.run(NODES_EVIDENCE_BY_UIDS, uids=[f"list-{size}"], project=project)
        return stored_evidence(rows[0])

    figures = {"whole_list_read_ms": _median_ms(read, max(3, repeats // 4))}
    client.run("MATCH (n:Entity {project: $project}) DELETE n", project=project)
    return figures


def _verdicts(sizes: dict[str, dict]) -> list[str]:
    largest = max(sizes, key=int)
    graph = sizes[largest]["graph_records"]
    said = []
    page_ok = graph["first_page_ms"] <= FIRST_PAGE_TARGET_MS
    said.append(
        f"first page at {int(largest):,} items: {graph['first_page_ms']} ms "
        f"({'meets' if page_ok else 'MISSES'} the {FIRST_PAGE_TARGET_MS:g} ms target)"
    )
    worst = max(s["graph_records"]["append_last_ms"] for s in sizes.values())
    late = max(s["graph_records"]["append_late_older_ms"] for s in sizes.values())
    for name, value in (("append", worst), ("late append", late)):
        ok = value <= APPEND_TARGET_MS
        said.append(
            f"{name}, worst over the sizes: {value} ms "
            f"({'meets' if ok else 'MISSES'} the {APPEND_TARGET_MS:g} ms target)"
        )
    return said


def main() -> None:
    bench_environment()
    sizes = [int(n) for n in os.environ.get("EVIDENCE_SIZES", "1000,10000,50000").split(",")]
    repeats = int(os.environ.get("REPEATS", "20"))
    figures: dict = {
        "machine": f"{platform.machine()} {platform.python_version()}, {os.cpu_count()} cores",
        "taken_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "load_average_at_start": [round(x, 1) for x in os.getloadavg()],
        "page_size": PAGE,
        "sizes": {},
    }
    for size in sizes:
        figures["sizes"][str(size)] = {
            "graph_records": graph_records(size, repeats),
            "sql_table": sql_table(size, repeats),
            "property_list": property_list(size, repeats),
        }
        print(json.dumps({size: figures["sizes"][str(size)]}), flush=True)
    figures["verdicts"] = _verdicts(figures["sizes"])
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "evidence_records.json").write_text(json.dumps(figures, indent=2) + "\n")
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
