"""The candidate index (blocking for resolution) and the replay of the recorded integration."""

from __future__ import annotations

import pytest

from kg.graph import store
from kg.models import EpisodeIntegration, IndexedNode, LLMCall
from kg.operations.rebuild import rebuild_project_graph
from kg.pipeline import candidates
from kg.pipeline.ingest import episode_ingest
from kg.pipeline.resolve import node_key
from kg.reading.export import export_project
from tests.kg.pipeline_helpers import make_project, node_record, record_messages

pytestmark = pytest.mark.django_db


def test_lookup_finds_by_key_lemma_and_alias_within_type_and_project():
    project, other = make_project("indexed"), make_project("other")
    candidates.index_nodes(
        project,
        [
            node_record(1, "Salon owners", "segment"),
            node_record(2, "App lags on weak internet", aliases=["slow sync"]),
            node_record(3, "Pricing is confusing"),
        ],
    )
    candidates.index_nodes(other, [node_record(9, "Owners of salons", "segment")])

    assert [
        n.number for n in candidates.candidates_for(project, "segment", "owners of salons")
    ] == [1]
    assert [n.number for n in candidates.candidates_for(project, "pain", "sync is slow")][0] == 2
    assert candidates.candidates_for(project, "segment", "weak internet") == []
    assert [n.number for n in candidates.nodes_for_text(project, "Pricing confuses us")] == [3]
    assert candidates.next_number(project) == 4


def test_a_hold_refiles_the_nodes_it_knows_without_reading_them_again(
    django_assert_num_queries,
):
    project = make_project("filed")
    filed = candidates.FiledNodes(project)
    node = node_record(1, "Restaurant owners", "segment")
    filed.read([node.uid])
    candidates.index_nodes(project, [node], filed)
    with django_assert_num_queries(0):  # unchanged, and known filed as it is
        candidates.index_nodes(project, [node], filed)
    node.aliases.append("Cafe owners")
    node.alias_keys.append(node_key("Cafe owners"))
    candidates.index_nodes(project, [node], filed)
    assert [n.number for n in candidates.candidates_for(project, "segment", "cafe owners")] == [1]
    # What a fresh hold reads is what this one knew.
    fresh = candidates.FiledNodes(project)
    fresh.read([node.uid])
    assert fresh.rows == filed.rows


def test_a_node_closed_or_renamed_is_refiled():
    project = make_project("refile")
    node = node_record(1, "Restaurant owners", "segment")
    candidates.index_nodes(project, [node])
    node.invalid_at = "2026-02-01T00:00:00.000000Z"
    candidates.index_nodes(project, [node])
    assert candidates.candidates_for(project, "segment", "restaurant owners") == []
    assert IndexedNode.objects.filter(project=project).count() == 1


def test_lookup_reads_a_bounded_number_of_postings_per_block():
    project = make_project("crowded")
    crowd = [node_record(i, f"app problem {i} widget{i}") for i in range(1, 400)]
    candidates.index_nodes(project, crowd)
    found = candidates.candidates_for(project, "pain", "app problem widget350")
    assert len(found) <= candidates.MAX_CANDIDATES
    assert found[0].number == 350


def test_many_mentions_looked_up_together_get_what_each_gets_alone(monkeypatch):
    """One statement for the mentions of a message: each list is the one `candidates_for`
    returns, in its order, also across statements (a message past one statement's blocks)."""
    project = make_project("many")
    crowd = [node_record(i, f"app problem {i} widget{i}") for i in range(1, 120)]
    crowd += [node_record(200, "Salon owners", "segment")]
    crowd += [node_record(201, "App lags", aliases=["slow"])]
    crowd += [node_record(202, "Retired", "segment", invalid_at="2026-02-01T00:00:00.000000Z")]
    candidates.index_nodes(project, crowd)
    mentions = [
        ("pain", "app problem widget35"),
        ("segment", "owners of salons"),
        ("pain", "slow app"),
        ("segment", "retired"),
        ("pain", "nothing of the kind"),
        ("segment", "app problem"),
    ]
    alone = [candidates.candidates_for(project, t, label) for t, label in mentions]
    assert len(alone[0]) > 1 and alone[1][0].number == 200 and not alone[3]
    assert candidates.candidates_for_many(project, mentions) == alone
    monkeypatch.setattr(candidates, "BLOCKS_PER_STATEMENT", 3)
    assert candidates.candidates_for_many(project, mentions) == alone
    assert candidates.candidates_for_many(project, []) == []


MESSAGES = [
    {
        "at": "2026-03-01T10:00:00Z",
        "text": "Salon owners say the booking app lags on weak internet.",
    },
    {"at": "2026-03-02T10:00:00Z", "text": "Owners of salons hate that the booking app lags."},
    {"at": "2026-03-03T10:00:00Z", "text": "Price is the main factor for salon owners."},
    {"at": "2026-03-04T10:00:00Z", "text": "Price does not matter to salon owners at all."},
    {"at": "2026-03-05T10:00:00Z", "text": "Our product targets small restaurant owners now."},
]


def test_index_rebuilt_from_the_graph_equals_the_incremental_one(graph):
    project = make_project("rebuild-index")
    for episode in record_messages(project, MESSAGES):
        episode_ingest(episode.pk)
    incremental = sorted(IndexedNode.objects.filter(project=project).values_list("uid", "label"))
    assert incremental
    assert candidates.rebuild_index(project) == len(incremental)
    rebuilt = sorted(IndexedNode.objects.filter(project=project).values_list("uid", "label"))
    assert rebuilt == incremental


def test_rebuild_replays_the_recorded_order_with_no_model_call(graph, openai_mode):
    project = make_project("replayed", name="Salon booking")
    episodes = record_messages(project, MESSAGES[:3])
    pain = {"ref": "n1", "type": "pain", "label": "booking app lags", "quote": "booking app lags"}
    segment = {"ref": "n2", "type": "segment", "label": "salon owners", "quote": "Salon owners"}
    openai_mode.script(
        {"nodes": [pain, segment], "relations": []},
        {"nodes": [{**segment, "quote": "salon owners", "same_as": 2}], "relations": []},
        {"nodes": [{**pain, "same_as": 1}], "relations": []},
    )
    # Integrated out of valid_at order (answers scripted in that order), as workers may.
    for episode in (episodes[0], episodes[2], episodes[1]):
        episode_ingest(episode.pk)
    order = list(
        EpisodeIntegration.objects.filter(project=project)
        .order_by("order")
        .values_list("episode__number", flat=True)
    )
    assert order == [1, 3, 2]
    before = export_project(project)
    calls = openai_mode.calls
    llm_rows = LLMCall.objects.count()

    rebuild_project_graph(project)

    assert openai_mode.calls == calls  # no model call
    assert LLMCall.objects.count() == llm_rows
    assert export_project(project) == before
    nodes = store.list_nodes(project.graph_scope)
    assert sorted(n.number for n in nodes) == [1, 2]


def test_the_oldest_node_is_found_by_its_key_among_many_newer_sharing_its_words():
    project = make_project("oldest")
    first = node_record(1, "app problem")
    crowd = [
        node_record(i, f"app problem {i} widget{i}")
        for i in range(2, 2 + 2 * candidates.POSTINGS_PER_BLOCK)
    ]
    candidates.index_nodes(project, [first, *crowd])
    found = candidates.candidates_for(project, "pain", "App problem")
    assert found[0].number == 1
    assert len(found) <= candidates.MAX_CANDIDATES


def test_a_failed_index_write_after_the_graph_write_reuses_no_number(graph, monkeypatch):
    from kg.pipeline import integrate as integration_step

    project = make_project("numbers")
    first, second, third = record_messages(
        project,
        [
            {"at": "2026-03-01T10:00:00Z", "text": "Salon owners say the booking app lags."},
            {"at": "2026-03-02T10:00:00Z", "text": "Couriers hate paper maps."},
            {"at": "2026-03-03T10:00:00Z", "text": "Florists lose orders written on paper."},
        ],
    )
    episode_ingest(first.pk)
    real_write_edges = integration_step.store.append_edge_changes

    def edges_down(scope, edges, new_evidence):
        raise RuntimeError("edge write failed")

    # The index and the nodes are written before the edges: a crash between them.
    monkeypatch.setattr(integration_step.store, "append_edge_changes", edges_down)
    with pytest.raises(RuntimeError, match="edge write failed"):
        episode_ingest(second.pk)  # nodes written, edges not
    monkeypatch.setattr(integration_step.store, "append_edge_changes", real_write_edges)
    given_to_second = dict(EpisodeIntegration.objects.get(episode=second).numbers)
    assert given_to_second

    episode_ingest(third.pk)  # before the retry: must not take the second episode's numbers
    episode_ingest(second.pk)

    nodes = store.list_nodes(project.graph_scope)
    numbers = [n.number for n in nodes]
    assert len(numbers) == len(set(numbers))
    assert {n.uid: n.number for n in nodes if n.uid in given_to_second} == given_to_second
    assert dict(EpisodeIntegration.objects.get(episode=second).numbers) == given_to_second


def test_blocks_in_memory_rank_as_the_index_and_leave_the_owner_out():
    blocks = candidates.NodeBlocks(limit=3, per_block=50)
    # Many nodes that share only a common lemma ("app"), then the ones that matter.
    for n in range(1, 41):
        blocks.add(node_record(n, f"App number {'abcdefghijklmnopqrstuvwxyz'[n % 26]} row"), "b")
    blocks.add(node_record(50, "Sync is slow"), "a")  # the asking node's own project
    blocks.add(node_record(51, "Slow sync", aliases=["syncing is slow"]), "b")
    blocks.add(node_record(52, "Pricing is confusing"), "b")

    found = blocks.candidates(node_record(99, "Sync is slow on the app"), other_than="a")

    assert [n.number for n in found][0] == 51  # two shared lemmas outweigh one
    assert 50 not in [n.number for n in found]  # its own project's node is left out
    assert len(found) == 3  # the list is cut, however many nodes share "app"
    assert 52 not in [n.number for n in found]  # shares nothing: never compared
    assert blocks.candidates(node_record(98, "Onboarding emails"), other_than="a") == []
