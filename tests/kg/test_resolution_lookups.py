"""How resolution looks up what a mention could be: the candidate index and the graph's vector
index, in as few round trips as the answers allow, with the same answers as one by one."""

from __future__ import annotations

import pytest
from falkordb.helpers import stringify_param_value

from kg.graph import store
from kg.graph.client import _numbers_written, get_client
from kg.language.meaning import ASK_FROM
from kg.language.names import names_vectors
from kg.pipeline import candidates
from kg.pipeline.resolve import Mention, codes_conflict
from tests.kg.pipeline_helpers import make_project, node_record

pytestmark = pytest.mark.django_db

LABELS = [
    "the app freezes when the mobile signal is weak in basements",
    "delivery fees are too high for small orders",
    "couriers cannot find the entrance of large buildings",
]


def _filed(slug: str):
    """A project whose three pains are in the index and in the graph, with their vectors."""
    project = make_project(slug)
    nodes = [
        node_record(i, label).model_copy(update={"uid": f"{slug}-{i}"})
        for i, label in enumerate(LABELS, start=1)
    ]
    candidates.index_nodes(project, nodes)
    store.write_nodes(project.graph_scope, nodes)
    return project, nodes


MENTIONS = [
    Mention("pain", "app hangs in the basement when there is hardly any signal", ""),
    Mention("pain", "delivery fees are too high for small orders", ""),  # its label, exactly
    Mention("pain", "shipping costs too much on a small order", ""),
]


def _statements_run(monkeypatch, scope) -> list[str]:
    """The statements the project's graph runs from now on (each still runs on the server)."""
    client = store.project_graph(scope, get_client())
    run = client.run
    seen: list[str] = []

    def counted(statement: str, **params):
        seen.append(statement)
        return run(statement, **params)

    monkeypatch.setattr(client, "run", counted)
    return seen


def test_an_episodes_mentions_are_asked_of_the_vector_index_in_one_statement(graph, monkeypatch):
    project, nodes = _filed("batched")
    asked = [(m.node_type, m.label) for m in MENTIONS]
    found = candidates.candidates_for_many(project, asked)
    seen = _statements_run(monkeypatch, project.graph_scope)

    pools = candidates.resolution_pools(project, MENTIONS, found)

    assert len(seen) == 1  # two mentions looked up by meaning, one statement
    # The exact match is not looked up by meaning; the others have their nearest and cosines.
    assert pools[1] == (found[1], {})
    for mention, (pool, cosines) in zip(MENTIONS[::2], pools[::2], strict=True):
        [vector] = names_vectors([[mention.label]])
        one_by_one = store.nearest_nodes(project.graph_scope, "pain", vector, 8)
        assert cosines == {uid: c for uid, c in one_by_one if c >= ASK_FROM}
        assert {n.uid for n in pool} >= set(cosines)
    assert pools[0][1] and max(pools[0][1], key=pools[0][1].get) == nodes[0].uid


def test_nearest_of_several_vectors_at_once_equal_each_asked_alone(graph):
    project, _ = _filed("many")
    vectors = names_vectors([[m.label] for m in MENTIONS])
    asked = [("pain", v) for v in vectors] + [("segment", vectors[0])]

    together = store.nearest_nodes_many(project.graph_scope, asked, 2)

    alone = [store.nearest_nodes(project.graph_scope, t, v, 2) for t, v in asked]
    assert together == alone
    assert [len(found) for found in together] == [2, 2, 2, 0]
    assert store.nearest_nodes_many(project.graph_scope, [], 2) == []


def test_nodes_already_read_as_candidates_are_not_read_again(graph, django_assert_num_queries):
    project, nodes = _filed("known")
    found = [[nodes[0]], [nodes[2]]]
    mentions = [MENTIONS[0], Mention("pain", "couriers can't find the way into big buildings", "")]

    with django_assert_num_queries(0):  # every node near enough is among the candidates
        pools = candidates.resolution_pools(project, mentions, found)

    assert [[n.uid for n in pool] for pool, _ in pools] == [[nodes[0].uid], [nodes[2].uid]]
    with django_assert_num_queries(1):  # one not among them: its row read once
        pools = candidates.resolution_pools(project, mentions, [[], []])
    assert nodes[0].uid in {n.uid for n in pools[0][0]}


def test_a_vector_parameter_is_spelled_as_the_client_spells_it(graph):
    vector = [0.12345, -0.5, 1e-05, 0.0, -0.0, 3.0, 1e16, -7.25e-05]
    params = {"vector": vector, "rows": [{"uid": "a", "vector": vector, "n": 2}], "k": 3}

    written = _numbers_written(params)

    assert {k: stringify_param_value(v) for k, v in written.items()} == {
        k: stringify_param_value(v) for k, v in params.items()
    }
    assert not isinstance(written["vector"], list)  # spelled once, not number by number
    [row] = get_client().run("RETURN $vector AS v, $rows[0].vector AS w", **params)
    assert row["v"] == vector and row["w"] == vector


@pytest.mark.parametrize(
    ("a", "b", "conflict"),
    [
        ("photoshop cs3", "photoshop cs2", True),
        ("dsc-w170 camera", "DSC-W120 camera", True),
        ("sx110 black", "sx110isb", False),
        ("mac os 10.4", "mac os 10.4.6", True),
        ("iOS 16 crash", "iOS 17 crash", True),
        ("office 2007", "office", False),
        ("4GB card", "4 gb card", False),
        ("v. 10.0", "version 10", False),
        ("w12 w345 w6789", "w6789 w345 w12", False),
        ("w12 w345 w6789", "w6789 w345 w13", True),
    ],
)
def test_codes_conflict_both_ways_alike(a, b, conflict):
    assert codes_conflict(a, b) is conflict
    assert codes_conflict(b, a) is conflict


def test_the_best_candidates_are_found_past_closed_nodes_that_rank_first():
    """Rows are read for the best ranked postings only; where closed nodes rank first, the
    next are read until MAX_CANDIDATES open ones are found, in the order score, number."""
    project = make_project("closed-first")
    limit = candidates.MAX_CANDIDATES
    closed = [
        node_record(i, f"couriers wait widget{i}", invalid_at="2026-02-01T00:00:00.000000Z")
        for i in range(1, limit + 6)
    ]
    open_ = [node_record(i, f"couriers wait widget{i}") for i in range(limit + 6, 3 * limit)]
    best = node_record(500, "couriers wait at the counter")  # more blocks shared: ranks first
    candidates.index_nodes(project, [*closed, *open_, best])

    found = candidates.candidates_for(project, "pain", "couriers wait at the counter")

    assert [n.number for n in found] == [500] + [n.number for n in open_][: limit - 1]
    assert candidates.candidates_for_many(project, [("pain", "couriers wait")]) == [
        candidates.candidates_for(project, "pain", "couriers wait")
    ]
    assert [n.number for n in candidates.candidates_for(project, "pain", "couriers wait")] == [
        n.number for n in [*open_, best][:limit]
    ]
