"""Graph functions against the real embedded FalkorDB, through both adapters (native, Bolt)."""

from __future__ import annotations

import pytest

from kg.graph import EdgeRecord, Evidence, GraphScope, NodeRecord, store
from kg.graph.records import EpisodeStub

A = GraphScope(org="acme", project="alpha")
B = GraphScope(org="acme", project="beta")
STUB = EpisodeStub(uid="ep-1", number=1, valid_at="2026-03-05T10:00:00Z")


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


@pytest.fixture
def c(any_graph_client):
    return any_graph_client


def test_node_create_and_read_back(c):
    store.upsert_episode_stub(A, STUB, client=c)
    store.write_nodes(A, [_node("n1", 1, "App lags on weak internet")], client=c)

    [node] = store.list_nodes(A, client=c)
    assert node.uid == "n1"
    assert node.label == "App lags on weak internet"
    assert node.evidence[0].quote == "App lags on weak internet"
    assert store.node_by_number(A, 1, client=c) == node
    assert [n.uid for n in store.nodes_for_episode(A, "ep-1", client=c)] == ["n1"]


def test_merge_is_idempotent(c):
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
        store.upsert_episode_stub(A, STUB, client=c)
        store.write_nodes(A, nodes, client=c)
        store.write_edges(A, [edge], client=c)

    assert store.count_nodes(A, client=c) == 2
    assert [(e.uid, e.relation, e.source, e.target) for e in store.list_edges(A, client=c)] == [
        ("e1", "experiences", "n2", "n1")
    ]
    assert (
        store.project_graph(A, c).run(
            "MATCH (:Entity)-[m:MENTIONED_IN]->(:Episode) RETURN count(m) AS c"
        )[0]["c"]
        == 2
    )
    assert store.project_graph(A, c).run("MATCH (e:Episode) RETURN count(e) AS c")[0]["c"] == 1


def test_project_isolation(c):
    store.write_nodes(A, [_node("a1", 1, "Pain in alpha")], client=c)
    store.write_nodes(B, [_node("b1", 1, "Pain in beta")], client=c)

    assert [n.uid for n in store.list_nodes(A, client=c)] == ["a1"]
    assert [n.uid for n in store.list_nodes(B, client=c)] == ["b1"]
    assert [n.uid for n in store.list_nodes(A, "pain", client=c)] == ["a1"]
    assert store.node_by_number(A, 1, client=c).uid == "a1"
    assert [n.uid for n in store.nodes_by_uids(A, ["a1", "b1"], client=c)] == ["a1"]

    store.delete_project_graph(A, client=c)
    assert store.list_nodes(A, client=c) == []
    assert [n.uid for n in store.list_nodes(B, client=c)] == ["b1"]


def test_edge_between_projects_is_never_written(c):
    store.write_nodes(A, [_node("a1", 1, "Pain in alpha")], client=c)
    store.write_nodes(B, [_node("b2", 1, "Couriers", "segment")], client=c)
    edge = EdgeRecord(
        uid="x", relation="experiences", source="b2", target="a1", valid_at="2026-03-05T10:00:00Z"
    )
    assert store.write_edges(A, [edge], client=c) == 0
    assert store.list_edges(A, client=c) == [] and store.list_edges(B, client=c) == []


def test_indexes_can_be_created_again(c):
    store.ensure_indexes(c)
    store.ensure_indexes(c)
    info = store.ping(c)
    assert info.agent.startswith("FalkorDB/") or "bolt" in info.protocol


def test_large_unicode_evidence_round_trips_on_the_native_adapter(embedded_server):
    # The reason for the native adapter: FalkorDB's Bolt listener dies on requests over ~4 KB.
    from kg.graph import make_client

    client = make_client(embedded_server.graph_uri)
    quote = "приложение тормозит при слабом интернете в подвалах; " * 400
    node = _node("big", 1, "тормозит").model_copy(
        update={
            "evidence": [
                Evidence(
                    episode_uid="e",
                    episode_number=1,
                    quote=quote,
                    start=0,
                    end=len(quote),
                    valid_at="2026-03-05T10:00:00Z",
                )
            ]
        }
    )
    store.write_nodes(GraphScope(org="o", project="big"), [node], client=client)
    [back] = store.list_nodes(GraphScope(org="o", project="big"), client=client)
    assert back.evidence[0].quote == quote
    store.delete_project_graph(GraphScope(org="o", project="big"), client=client)


def test_quotes_and_backslashes_are_data_not_cypher(request, c):
    if request.node.callspec.params["any_graph_client"] == "bolt":
        # FalkorDB's Bolt listener pastes parameter values into the query text unescaped
        # (upstream, experimental); Neo4j's Bolt does not. Recorded, not hidden.
        request.applymarker(pytest.mark.xfail(strict=True, reason="FalkorDB Bolt escaping"))
    label = "couriers don't \\\\ trust 'it' \"at all\" } MATCH (n) DETACH DELETE n //"
    store.write_nodes(A, [_node("q1", 1, label)], client=c)
    store.write_nodes(B, [_node("q2", 1, "untouched")], client=c)
    [node] = store.list_nodes(A, client=c)
    assert node.label == label
    assert [n.label for n in store.list_nodes(B, client=c)] == ["untouched"]


def _said(episode: int, quote: str, start: int = 0) -> Evidence:
    return Evidence(
        episode_uid=f"ep-{episode}",
        episode_number=episode,
        quote=quote,
        start=start,
        end=start + len(quote),
        valid_at=f"2026-03-{episode:02d}T10:00:00Z",
    )


def _stubs(c, numbers) -> None:
    """Episode stubs ep-<n> for the mentions appended evidence links to."""
    for number in numbers:
        store.upsert_episode_stub(
            A, EpisodeStub(uid=f"ep-{number}", number=number, valid_at="2026-03-05T10:00:00Z"), c
        )


def _append_to_both(c, node: NodeRecord, edge: EdgeRecord, said: Evidence) -> None:
    """Append one item to a node's and an edge's evidence, as the pipeline writes them."""
    node.evidence.append(said)
    edge.evidence.append(said)
    store.append_node_changes(A, [node], [(node.uid, said)], c)
    store.append_edge_changes(A, [edge], [(edge.uid, said)], c)


def test_appended_evidence_reads_back_as_the_whole_list(c):
    """The pipeline appends a later episode's evidence to the stored list (non-ASCII quotes
    too), or writes it whole where it does not sort last; a reader sees one list in order, and
    each write gives the record a new version."""
    _stubs(c, (1, 2, 3, 4))
    node = _node("n1", 1, "Курьеры теряют заказы")
    node.evidence = [_said(2, "Курьеры теряют заказы")]
    edge = EdgeRecord(
        uid="e1", relation="experiences", source="s1", target="n1", valid_at="2026-03-02T10:00Z"
    )
    segment = _node("s1", 2, "Couriers", "segment")
    versions = store.append_node_changes(
        A,
        [node, segment],
        [(node.uid, node.evidence[0]), *[(segment.uid, e) for e in segment.evidence]],
        c,
    )
    later, earlier = _said(4, "курьеры 😀 снова", 5), _said(3, "и ещё раз")
    node.evidence += [later]  # sorts last: appended
    again = store.append_node_changes(A, [node], [(node.uid, later)], c)
    assert again[node.uid] != versions[node.uid]
    node.evidence = [node.evidence[0], earlier, later]  # sorts before the last one: whole
    store.append_node_changes(A, [node], [(node.uid, earlier)], c)
    [read] = store.nodes_by_uids(A, ["n1"], client=c)
    assert [e.quote for e in read.evidence] == [e.quote for e in node.evidence]
    assert [n.episode_uids for n in store.nodes_for_episode(A, "ep-4", client=c)] == [
        ["ep-2", "ep-3", "ep-4"]
    ]
    [(light, version, open_count)] = store.nodes_without_evidence(A, ["n1"], client=c)
    assert light.evidence == [] and light.label == node.label and open_count == 0
    assert store.node_evidence(A, ["n1"], client=c) == {"n1": (version, node.evidence)}

    edge.evidence = [_said(2, "Курьеры теряют заказы")]
    store.append_edge_changes(A, [edge], [(edge.uid, edge.evidence[0])], c)
    edge.evidence.append(_said(4, "курьеры 😀 снова", 5))
    store.append_edge_changes(A, [edge], [(edge.uid, edge.evidence[1])], c)
    edge.invalid_at = "2026-03-09T10:00:00Z"
    store.append_edge_changes(A, [edge], [], c)  # no new evidence: the stored list stands
    [(found, edge_version)] = store.edges_without_evidence(A, between=[("s1", "n1")], client=c)
    assert found.invalid_at == edge.invalid_at and found.evidence == []
    assert store.edge_evidence(A, [found], client=c) == {"e1": (edge_version, edge.evidence)}
    assert store.edges_between(A, [("s1", "n1")], client=c)[0].evidence == edge.evidence


def test_evidence_appended_past_the_latest_part_is_moved_on_and_read_in_order(c, monkeypatch):
    """Appends go to a small part of the latest items, moved onto the other appended items once
    it would grow past its size: the list read back is every item in order, whichever part
    holds each (quotes with an emoji too, where FalkorDB's substring() loses characters), and a
    whole write afterwards leaves no appended part behind."""
    monkeypatch.setattr(store, "RECENT_EVIDENCE_CHARS", 600)
    count = 12
    _stubs(c, range(1, count + 1))
    node = _node("f1", 1, "Курьеры теряют заказы")
    node.evidence = []
    edge = EdgeRecord(
        uid="f-e1", relation="experiences", source="f2", target="f1", valid_at="2026-03-01T10:00Z"
    )
    segment = _node("f2", 2, "Couriers", "segment")
    store.write_nodes(A, [segment], client=c)
    for number in range(1, count + 1):
        said = _said(number, f"курьеры 😀 теряют заказы, раз {number}", number)
        _append_to_both(c, node, edge, said)
        [read] = store.nodes_by_uids(A, ["f1"], client=c)
        assert read.evidence == node.evidence
        assert store.edges_between(A, [("f2", "f1")], client=c)[0].evidence == edge.evidence
    [(_, version, _)] = store.nodes_without_evidence(A, ["f1"], client=c)
    assert store.node_evidence(A, ["f1"], client=c) == {"f1": (version, node.evidence)}
    [(found, edge_version)] = store.edges_without_evidence(A, between=[("f2", "f1")], client=c)
    assert store.edge_evidence(A, [found], client=c) == {"f-e1": (edge_version, edge.evidence)}

    node.evidence = node.evidence[:3]  # written whole: the appended parts go
    store.write_node_changes(A, [node], [], c)
    [read] = store.nodes_by_uids(A, ["f1"], client=c)
    assert read.evidence == node.evidence


def test_a_write_that_meets_the_uniqueness_constraint_is_a_conflict_worth_retrying(c):
    from kg.graph import GraphConflict
    from kg.pipeline import retry_policy

    if not store.ensure_indexes(c)["Entity.uid"]:  # FalkorDB's Bolt takes no constraint
        pytest.skip("no uniqueness constraint through this adapter")
    store.write_nodes(A, [_node("n1", 1, "Slow sync")], client=c)
    # What a concurrent MERGE of the same key amounts to: a second node with the uid.
    with pytest.raises(GraphConflict) as raised:
        store.project_graph(A, c).run(
            "CREATE (:Entity {uid: $uid, project: $project})", uid="n1", project="alpha"
        )
    assert retry_policy.is_transient(raised.value)
    assert store.count_nodes(A, client=c) == 1
    # Any other error the server answers stays what it is: not retried.
    with pytest.raises(Exception) as other:
        store.project_graph(A, c).run("MATCH (n:Entity) RETURN n.uid +")
    assert not isinstance(other.value, GraphConflict)
    assert not retry_policy.is_transient(other.value)


def test_a_node_counts_its_distinct_episodes_as_mentions_are_appended(c):
    """The count the PRD ranks by (corroboration) is raised by the episodes appended items are
    the first from: a second mention from the same episode adds nothing, a whole write sets it
    from its list, and a node stored with the former list of episode uids starts from that
    list's size."""
    _stubs(c, (1, 2, 3, 4))

    def episodes(uid: str) -> int:
        return store.project_graph(A, c).run(
            "MATCH (n:Entity {uid: $uid}) RETURN n.episodes AS e", uid=uid
        )[0]["e"]

    node = _node("n1", 1, "Exports time out")
    node.evidence = [_said(1, "Exports time out")]
    store.append_node_changes(A, [node], [(node.uid, node.evidence[0])], c)
    for item in (_said(2, "exports time out"), _said(2, "time out", 8), _said(3, "timeouts")):
        node.evidence.append(item)
        store.append_node_changes(A, [node], [(node.uid, item)], c)
    assert episodes("n1") == 3  # episodes 1, 2 and 3; episode 2 twice

    other = _node("n2", 2, "Exports are slow")
    other.evidence = [_said(4, "Exports are slow")]
    store.write_nodes(A, [other], client=c)
    assert episodes("n2") == 1
    # The better corroborated of two equally confident nodes comes first.
    assert [n.uid for n in store.top_nodes_of_type(A, "pain", 2, client=c)] == ["n1", "n2"]

    # A node as the former code stored it: the episodes' uids in a list, no count.
    store.project_graph(A, c).run(
        "MATCH (n:Entity {uid: 'n2'}) SET n.episode_uids = ['ep-1', 'ep-2', 'ep-4'], "
        "n.episodes = null"
    )
    later = _said(3, "slow exports")
    other.evidence.append(later)
    store.append_node_changes(A, [other], [(other.uid, later)], c)
    assert episodes("n2") == 4


def test_an_append_onto_appended_evidence_of_exactly_512_bytes_keeps_every_item(c):
    """FalkorDB's string `+` loses bytes where a string of exactly 512 bytes takes part (the
    right operand, when the left one is that long): appended evidence is kept as a list of
    strings, so an append onto appended items of that size keeps them and its own (a write's
    items were lost this way)."""
    from kg.graph.records import appended_items

    _stubs(c, (1, 2, 3))
    first = _said(1, "Exports time out")
    size = len(appended_items([first]).encode())
    # The second item brings the appended items to exactly 512 bytes (one character is two).
    second = next(
        said
        for length in range(1, 600)
        if size + len(appended_items([said := _said(2, "é" + "e" * length)]).encode()) == 512
    )
    node = _node("n1", 1, "Exports time out")
    node.evidence = []
    edge = EdgeRecord(
        uid="e1", relation="experiences", source="s1", target="n1", valid_at="2026-03-01T10:00Z"
    )
    store.write_nodes(A, [_node("s1", 2, "Couriers", "segment")], client=c)
    for said in (first, second, _said(3, "timeouts")):
        _append_to_both(c, node, edge, said)
    [read] = store.nodes_by_uids(A, ["n1"], client=c)
    assert read.evidence == node.evidence
    assert store.edges_between(A, [("s1", "n1")], client=c)[0].evidence == edge.evidence
    # What a check of a large graph compares: the episodes linked as mentioned, in evidence.
    assert store.mentioned_episodes(A, c)["n1"] == {e.episode_uid for e in read.evidence}


def test_appended_evidence_stored_as_one_string_by_earlier_versions_reads_and_grows(c):
    """Graphs written before the appended parts were lists hold each part as one string: it
    reads back (also where FalkorDB's string + cut its last space off), and an append adds to
    it without a migration."""
    from kg.graph.records import appended_items

    _stubs(c, (1, 2, 3))
    node = _node("n1", 1, "Exports time out")
    node.evidence = [_said(1, "Exports time out"), _said(2, "exports time out")]
    store.write_nodes(A, [node], client=c)
    later = _said(3, "timeouts")
    store.project_graph(A, c).run(
        "MATCH (n:Entity {uid: 'n1'}) SET n.evidence = $whole, n.evidence_more = $more, "
        "n.evidence_last = $last",
        whole="[]",
        more=appended_items(node.evidence[:1]),
        last=appended_items(node.evidence[1:]).removesuffix(" "),
    )
    assert store.nodes_by_uids(A, ["n1"], client=c)[0].evidence == node.evidence
    node.evidence.append(later)
    store.append_node_changes(A, [node], [(node.uid, later)], c)
    assert store.nodes_by_uids(A, ["n1"], client=c)[0].evidence == node.evidence


def test_nodes_named_like_search_one_project_and_type_by_label_or_alias(c):
    wanted = _node("a1", 1, "Slow checkout")
    alias = _node("a2", 2, "Payment freezes")
    alias.aliases, alias.alias_keys = ["checkout hangs"], ["checkout hangs"]
    closed = _node("a3", 3, "Checkout is slow again")
    closed.invalid_at = "2026-03-06T10:00:00Z"
    segment = _node("a4", 4, "Checkout staff", "segment")
    store.write_nodes(A, [wanted, alias, closed, segment], client=c)
    store.write_nodes(B, [_node("b1", 1, "Checkout in beta")], client=c)

    found = store.nodes_named_like(A, "pain", "CHECKOUT", client=c)
    assert sorted(n.uid for n in found) == ["a1", "a2"]  # open pains of alpha, label or alias
    assert [n.uid for n in store.nodes_named_like(A, "pain", "checkout", ["a1"], client=c)] == [
        "a2"
    ]
    assert store.nodes_named_like(A, "pain", "nothing like it", client=c) == []


def test_a_supersession_is_deleted_in_its_project_only(c):
    from kg.graph import SupersessionRecord

    for scope in (A, B):
        pair = [_node(f"{scope.project}-old", 1, "Old"), _node(f"{scope.project}-new", 2, "New")]
        store.write_nodes(scope, pair, client=c)
        store.write_supersession(
            scope,
            SupersessionRecord(
                old=f"{scope.project}-old",
                new=f"{scope.project}-new",
                relation="merged into",
                at="2026-03-06T10:00:00Z",
            ),
            client=c,
        )
    store.delete_supersession(A, "beta-old", "beta-new", client=c)  # another project's: kept
    assert len(store.list_supersessions(B, client=c)) == 1
    store.delete_supersession(A, "alpha-old", "alpha-new", client=c)
    assert store.list_supersessions(A, client=c) == []
    assert len(store.list_supersessions(B, client=c)) == 1
