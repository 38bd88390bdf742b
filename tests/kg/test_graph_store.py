"""Graph functions against the real embedded FalkorDB over Bolt."""

from __future__ import annotations

from kg.graph import EdgeRecord, Evidence, GraphScope, NodeRecord, store
from kg.graph.records import EpisodeStub

A = GraphScope(org="acme", project="alpha")
B = GraphScope(org="acme", project="beta")


def _node(uid: str, number: int, label: str, node_type: str = "pain") -> NodeRecord:
    return NodeRecord(
        uid=uid,
        number=number,
        type=node_type,
        label=label,
        key=label.lower(),
        confidence=65,
        valid_at="2026-03-05T10:00:00Z",
        evidence=[
            Evidence(
                episode_uid="ep-1",
                episode_number=1,
                quote=label,
                start=0,
                end=len(label),
                valid_at="2026-03-05T10:00:00Z",
            )
        ],
    )


def test_node_create_and_read_back(graph):
    store.upsert_episode_stub(A, EpisodeStub(uid="ep-1", number=1, valid_at="2026-03-05T10:00:00Z"))
    store.write_nodes(A, [_node("n1", 1, "App lags on weak internet")])

    [node] = store.list_nodes(A)
    assert node.uid == "n1"
    assert node.label == "App lags on weak internet"
    assert node.evidence[0].quote == "App lags on weak internet"
    assert store.node_by_number(A, 1) == node
    assert [n.uid for n in store.nodes_for_episode(A, "ep-1")] == ["n1"]


def test_merge_is_idempotent(graph):
    store.upsert_episode_stub(A, EpisodeStub(uid="ep-1", number=1, valid_at="2026-03-05T10:00:00Z"))
    nodes = [_node("n1", 1, "Slow sync"), _node("n2", 2, "Couriers", "segment")]
    edge = EdgeRecord(
        uid="e1",
        relation="experiences",
        source="n2",
        target="n1",
        confidence=65,
        valid_at="2026-03-05T10:00:00Z",
        evidence=nodes[0].evidence,
    )
    for _ in range(2):
        store.write_nodes(A, nodes)
        store.write_edges(A, [edge])
        store.upsert_episode_stub(
            A, EpisodeStub(uid="ep-1", number=1, valid_at="2026-03-05T10:00:00Z")
        )

    assert store.count_nodes(A) == 2
    assert [(e.uid, e.relation, e.source, e.target) for e in store.list_edges(A)] == [
        ("e1", "experiences", "n2", "n1")
    ]
    rows = graph.run("MATCH (:Entity)-[m:MENTIONED_IN]->(:Episode) RETURN count(m) AS c")
    assert rows[0]["c"] == 2
    rows = graph.run("MATCH (e:Episode) RETURN count(e) AS c")
    assert rows[0]["c"] == 1


def test_project_isolation(graph):
    store.write_nodes(A, [_node("a1", 1, "Pain in alpha")])
    store.write_nodes(B, [_node("b1", 1, "Pain in beta")])

    assert [n.uid for n in store.list_nodes(A)] == ["a1"]
    assert [n.uid for n in store.list_nodes(B)] == ["b1"]
    assert [n.uid for n in store.list_nodes(A, "pain")] == ["a1"]
    assert store.node_by_number(A, 1).uid == "a1"
    assert store.nodes_by_uids(A, ["a1", "b1"])[0].uid == "a1"
    assert len(store.nodes_by_uids(A, ["a1", "b1"])) == 1

    store.delete_project_graph(A)
    assert store.list_nodes(A) == []
    assert [n.uid for n in store.list_nodes(B)] == ["b1"]


def test_edge_between_projects_is_never_written(graph):
    store.write_nodes(A, [_node("a1", 1, "Pain in alpha")])
    store.write_nodes(B, [_node("b2", 1, "Couriers", "segment")])
    edge = EdgeRecord(
        uid="x", relation="experiences", source="b2", target="a1", valid_at="2026-03-05T10:00:00Z"
    )
    assert store.write_edges(A, [edge]) == 0
    assert store.list_edges(A) == [] and store.list_edges(B) == []


def test_indexes_can_be_created_again(graph):
    store.ensure_indexes(graph)
    store.ensure_indexes(graph)
    info = store.ping(graph)
    assert info.agent
