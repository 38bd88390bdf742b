"""A node's evidence as records (kg.graph.evidence): appended item by item, read by page, kept
by a rebuild, and read together with a list an earlier graph kept in the node's properties."""

from __future__ import annotations

import json

import pytest

from kg.graph import Evidence, GraphScope, store
from kg.graph.cypher import NODE_BY_NUMBER
from kg.graph.records import EpisodeStub, evidence_json, evidence_order
from tests.kg.pipeline_helpers import node_record

SCOPE = GraphScope(org="acme", project="records")


def _said(number: int, quote: str, start: int = 0, valid_at: str = "") -> Evidence:
    valid_at = valid_at or f"2026-03-{1 + number // 60:02d}T10:{number % 60:02d}:00.000000Z"
    return Evidence(
        episode_uid=f"ep-{number}",
        episode_number=number,
        quote=quote,
        start=start,
        end=start + len(quote),
        valid_at=valid_at,
        author=f"user{number % 4}",
    )


def _stubs(c, numbers) -> None:
    rows = [EpisodeStub(uid=f"ep-{n}", number=n, valid_at="2026-03-01T00:00:00Z") for n in numbers]
    store.upsert_episode_stubs(SCOPE, rows, c)


def _pages(uid: str, c, limit: int) -> list[list[Evidence]]:
    pages, after = [], None
    while True:
        page = store.node_evidence_page(SCOPE, uid, after=after, limit=limit, client=c)
        pages.append(page.items)
        if page.after is None:
            return pages
        after = page.after


def test_items_are_appended_one_write_each_and_read_back_by_page_in_order(graph):
    """120 episodes each append one item (the pipeline's write), one of them an earlier
    episode's arriving late: pages of 50 give every item once, in order of time, the node's
    totals come with each page, and the node's own properties hold no list of its evidence."""
    _stubs(graph, range(1, 122))
    node = node_record(1, "Couriers lose orders", valid_at="2026-03-01T10:01:00.000000Z")
    for number in range(1, 121):
        said = _said(number, f"couriers lose orders, time {number}")
        node.evidence.append(said)
        store.append_node_changes(SCOPE, [node], [(node.uid, said)], graph)
    late = _said(121, "couriers lost orders back then", 4, "2026-02-27T08:00:00.000000Z")
    node.evidence.insert(0, late)
    store.append_node_changes(SCOPE, [node], [(node.uid, late)], graph)

    pages = _pages(node.uid, graph, limit=50)
    assert [len(p) for p in pages] == [50, 50, 21]
    assert [e for p in pages for e in p] == sorted(node.evidence, key=evidence_order)
    assert pages[0][0] == late
    first = store.node_evidence_page(SCOPE, node.uid, client=graph)
    assert (first.total, first.episodes) == (121, 121)
    # Representative items come from distinct sources, the oldest first.
    assert len(first.sample) == 3
    assert len({e.episode_uid for e in first.sample}) == 3 and first.sample[0] == late

    [row] = store.project_graph(SCOPE, graph).run(NODE_BY_NUMBER, project=SCOPE.project, number=1)
    props = row["props"]
    assert props["evidence_count"] == 121 and props["episodes"] == 121
    assert not {"evidence", "evidence_more", "evidence_last"} & set(props)
    # The whole list reads back the same through every reader.
    assert (
        store.node_evidence(SCOPE, [node.uid], graph)[node.uid][1]
        == pages[0] + pages[1] + (pages[2])
    )
    assert store.nodes_by_uids(SCOPE, [node.uid], graph)[0].evidence == node.evidence
    assert store.list_nodes(SCOPE, client=graph)[0].evidence == node.evidence


def test_a_page_of_a_node_outside_the_project_is_none(graph):
    _stubs(graph, [1])
    node = node_record(1, "Slow sync", evidence=[_said(1, "sync is slow")])
    store.write_nodes(SCOPE, [node], graph)
    other = GraphScope(org="acme", project="elsewhere")
    assert store.node_evidence_page(other, node.uid, client=graph) is None
    page = store.node_evidence_page(SCOPE, node.uid, client=graph)
    assert page.items == node.evidence and page.after is None and page.total == 1


def test_a_whole_write_deletes_the_items_the_list_no_longer_holds(graph):
    """A person's correction moved items off a node: the node is written whole, and its items
    not in the list are gone from every read."""
    _stubs(graph, range(1, 7))
    node = node_record(
        1, "Maps are paper", evidence=[_said(n, f"paper maps {n}") for n in range(1, 7)]
    )
    store.write_nodes(SCOPE, [node], graph)
    node.evidence = node.evidence[:2]
    store.write_node_changes(SCOPE, [node], [], graph)

    page = store.node_evidence_page(SCOPE, node.uid, client=graph)
    assert page.items == node.evidence and page.total == 2
    assert store.list_nodes(SCOPE, client=graph)[0].evidence == node.evidence
    [row] = store.project_graph(SCOPE, graph).run(
        "MATCH (x:EvidenceItem {project: $project}) RETURN count(x) AS items", project=SCOPE.project
    )
    assert row["items"] == 2


def test_a_list_kept_in_properties_by_an_earlier_graph_is_read_with_items_appended_since(graph):
    """A graph written before evidence records: the node's list is in its `evidence` property.
    The pipeline appends records to it; readers see one list; a whole write turns it into
    records."""
    _stubs(graph, range(1, 5))
    old = [_said(1, "couriers hate maps"), _said(2, "maps again")]
    store.project_graph(SCOPE, graph).run(
        "CREATE (:Entity {uid: 'u1', project: $project, org: 'acme', number: 1, type: 'pain', "
        "label: 'Maps', key: 'maps', valid_at: $at, confidence: 70, evidence: $evidence, "
        "episodes: 2})",
        project=SCOPE.project,
        at=old[0].valid_at,
        evidence=evidence_json(old),
    )
    node = store.nodes_by_uids(SCOPE, ["u1"], graph)[0]
    assert node.evidence == old
    later = _said(3, "maps once more")
    node.evidence.append(later)
    store.append_node_changes(SCOPE, [node], [(node.uid, later)], graph)
    assert store.node_evidence(SCOPE, ["u1"], graph)["u1"][1] == old + [later]
    page = store.node_evidence_page(SCOPE, "u1", limit=2, client=graph)
    assert page.items == old and page.total == 3
    rest = store.node_evidence_page(SCOPE, "u1", after=page.after, limit=2, client=graph)
    assert rest.items == [later] and rest.after is None

    store.write_node_changes(SCOPE, [node], [], graph)
    [row] = store.project_graph(SCOPE, graph).run(NODE_BY_NUMBER, project=SCOPE.project, number=1)
    assert "evidence" not in row["props"] and row["props"]["evidence_count"] == 3
    assert store.node_evidence_page(SCOPE, "u1", client=graph).items == old + [later]


@pytest.mark.django_db
def test_a_rebuild_writes_every_item_again_and_leaves_none_behind(graph):
    """Twelve messages from four people about one thing: its items, read by page, are the same
    after the project's graph is rebuilt from the ledger, and the graph holds exactly the items
    the nodes count."""
    from kg.operations.rebuild import rebuild_project_graph
    from kg.pipeline.ingest import episode_ingest
    from tests.kg.pipeline_helpers import make_project, record_messages

    project = make_project("evidence-rebuild", name="Couriers app")
    messages = [
        {
            "at": f"2026-03-{day:02d}T09:00:00Z",
            "author": f"courier{day % 4}",
            "text": f"Couriers lose orders in the rain. Day {day} was the worst.",
        }
        for day in range(1, 13)
    ]
    for episode in record_messages(project, messages):
        episode_ingest(episode.pk)
    scope = project.graph_scope

    def snapshot():
        nodes = store.list_nodes(scope)
        pages = {n.uid: _pages_of(scope, n.uid) for n in nodes}
        [row] = store.project_graph(scope, None).run(
            "MATCH (x:EvidenceItem {project: $project}) RETURN count(x) AS items",
            project=scope.project,
        )
        return nodes, pages, row["items"]

    nodes, pages, items = snapshot()
    busiest = max(nodes, key=lambda n: len(n.evidence))
    assert len(busiest.evidence) >= 12 and len({e.episode_uid for e in busiest.evidence}) == 12
    assert items == sum(len(n.evidence) for n in nodes)
    rebuild_project_graph(project)
    assert snapshot() == (nodes, pages, items)


def _pages_of(scope: GraphScope, uid: str) -> list[list[dict]]:
    pages, after = [], None
    while True:
        page = store.node_evidence_page(scope, uid, after=after, limit=5)
        pages.append([json.loads(e.model_dump_json()) for e in page.items])
        if page.after is None:
            return pages
        after = page.after
