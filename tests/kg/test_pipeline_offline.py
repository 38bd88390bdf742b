"""The whole pipeline in offline mode, on conversations it was never tuned on (tests/kg/unseen)."""

from __future__ import annotations

import pytest

from kg.graph import store
from kg.models import Episode, EpisodeProcessing, ProcessingStatus, ResolutionDecision
from kg.operations.rebuild import rebuild_project_graph
from kg.pipeline.ingest import episode_ingest
from kg.pipeline.resolve import node_key
from kg.reading.export import export_project
from tests.kg.pipeline_helpers import UNSEEN, at, ingest_conversation, make_project, record_messages

pytestmark = pytest.mark.django_db


@pytest.fixture(params=UNSEEN, ids=lambda p: p.stem)
def ingested(request, graph):
    project, conversation, episodes = ingest_conversation(request.param, "unseen")
    return project, conversation, {e.number: e for e in episodes}


def test_every_quote_is_literally_in_its_episode(ingested):
    project, _, episodes = ingested
    scope = project.graph_scope
    nodes, edges = store.list_nodes(scope), store.list_edges(scope)
    assert nodes and edges
    for record in [*nodes, *edges]:
        assert record.evidence, record
        for evidence in record.evidence:
            text = episodes[evidence.episode_number].content
            assert text[evidence.start : evidence.end] == evidence.quote
            assert evidence.quote in text


def test_no_two_active_nodes_of_a_type_share_a_label(ingested):
    project, _, _ = ingested
    keys = [
        (n.type, node_key(n.label))
        for n in store.list_nodes(project.graph_scope)
        if n.invalid_at is None
    ]
    assert len(keys) == len(set(keys))


@pytest.mark.xfail(
    strict=True,
    reason="the unseen conversations repeat their pain in words that share too little "
    '("takes forever on 3G" / "painfully slow in basements"): the sentence encoder puts them '
    "at cosines of 0.45-0.52, under the bar at which two statements are one (0.8) and under "
    "the one at which the offline rules are even asked (0.55); it merged them before only "
    "through concept groups written for these very conversations",
)
def test_repeated_pain_in_different_words_is_one_node(ingested):
    project, conversation, _ = ingested
    pains = [n for n in conversation["expected"]["nodes"] if n["type"] == "pain"]
    repeated = max(pains, key=lambda n: len(n["mentions"]))
    assert len(repeated["mentions"]) >= 3
    nodes = store.list_nodes(project.graph_scope, "pain")
    first = repeated["mentions"][0]
    [home] = [
        n
        for n in nodes
        if any(
            e.episode_number == first["message"]
            and first["quote"].lower() in e.quote.lower()
            or e.quote.lower() in first["quote"].lower()
            and e.episode_number == first["message"]
            for e in n.evidence
        )
    ]
    episodes = {e.episode_number for e in home.evidence}
    assert len(episodes) >= 2, home
    assert home.confidence >= 80  # corroborated by independent episodes
    decisions = ResolutionDecision.objects.filter(project=project, node_uid=home.uid)
    assert {d.method for d in decisions} - {"new"}, "a merge was logged with its method"


def test_pains_the_gold_keeps_apart_are_never_one_node(ingested):
    project, conversation, _ = ingested
    pains = [n for n in conversation["expected"]["nodes"] if n["type"] == "pain"]
    for node in store.list_nodes(project.graph_scope, "pain"):
        told = {
            pain["label"]
            for pain in pains
            for mention in pain["mentions"]
            for e in node.evidence
            if e.episode_number == mention["message"]
            and (
                mention["quote"].lower() in e.quote.lower()
                or e.quote.lower() in mention["quote"].lower()
            )
        }
        assert len(told) <= 1, (node.label, told)


def test_pivot_closes_the_old_market_with_the_pivot_date(ingested):
    project, conversation, _ = ingested
    [expected] = conversation["expected"]["invalidations"]
    scope = project.graph_scope
    by_uid = {n.uid: n for n in store.list_nodes(scope)}
    markets = [e for e in store.list_edges(scope) if e.relation == "targets_market"]
    closed = [e for e in markets if e.invalid_at]
    open_ = [e for e in markets if not e.invalid_at]
    assert len(closed) == 1 and len(open_) == 1
    assert at(closed[0].invalid_at) == at(expected["at"])
    assert node_key(by_uid[closed[0].target].label) == node_key(expected["target"])
    assert by_uid[closed[0].target].invalid_at is not None
    supersessions = store.list_supersessions(scope)
    assert [(s.old, s.new) for s in supersessions] == [(closed[0].target, open_[0].target)]


def test_price_contradiction_is_found(ingested):
    project, _, _ = ingested
    scope = project.graph_scope
    contradictions = store.list_contradictions(scope)
    assert len(contradictions) == 1
    [c] = contradictions
    by_uid = {n.uid: n for n in store.list_nodes(scope)}
    assert c.status == "open"
    assert {by_uid[c.a].stance, by_uid[c.b].stance} == {"positive", "negative"}
    assert c.quote_a and c.quote_b
    assert by_uid[c.a].confidence < 65  # an open contradiction lowers confidence


def test_running_an_episode_again_changes_nothing(ingested):
    project, _, episodes = ingested
    before = export_project(project)
    for episode in episodes.values():
        assert episode_ingest(episode.pk).skipped is True
    episode_ingest(episodes[2].pk, force=True)  # a forced retry converges too
    assert export_project(project) == before


def test_rebuild_from_the_ledger_equals_the_original(ingested):
    from kg.models import LLMCall

    project, _, _ = ingested
    before = export_project(project)
    calls = LLMCall.objects.count()
    rebuild_project_graph(project)
    assert export_project(project) == before
    assert LLMCall.objects.count() == calls  # every answer came from the record


def test_late_older_episode_never_closes_a_newer_fact(graph):
    project = make_project("late", name="Shop")
    [newer] = record_messages(
        project, [{"at": "2026-04-01T00:00:00Z", "text": "Our market is B2C."}]
    )
    episode_ingest(newer.pk)
    [older] = record_messages(
        project, [{"at": "2026-03-01T00:00:00Z", "text": "Our market is B2B."}]
    )
    episode_ingest(older.pk)
    scope = project.graph_scope
    by_uid = {n.uid: n for n in store.list_nodes(scope)}
    edges = {
        by_uid[e.target].label.upper(): e
        for e in store.list_edges(scope)
        if e.relation == "targets_market"
    }
    assert edges["B2C"].invalid_at is None
    assert at(edges["B2B"].invalid_at) == at("2026-04-01T00:00:00Z")


def test_failed_step_is_marked_and_a_retry_completes(graph, openai_mode):
    project = make_project("fails", name="Shop")
    [episode] = record_messages(
        project, [{"at": "2026-04-01T00:00:00Z", "text": "Couriers hate paper maps."}]
    )
    # No answer scripted: the endpoint fails, the episode is kept and marked failed.
    with pytest.raises(Exception):  # noqa: B017 - the SDK's own error type
        episode_ingest(episode.pk)
    processing = EpisodeProcessing.objects.get(episode=episode)
    assert processing.status == ProcessingStatus.FAILED
    assert processing.error
    assert Episode.objects.filter(pk=episode.pk).exists()

    openai_mode.script(
        {
            "nodes": [
                {"ref": "n1", "type": "segment", "label": "couriers", "quote": "Couriers"},
                {"ref": "n2", "type": "pain", "label": "paper maps", "quote": "hate paper maps"},
            ],
            "relations": [
                {
                    "relation": "experiences",
                    "source": "n1",
                    "target": "n2",
                    "quote": "Couriers hate paper maps.",
                }
            ],
        },
    )
    episode_ingest(episode.pk)
    processing.refresh_from_db()
    assert processing.status == ProcessingStatus.DONE and processing.attempts == 2
    assert [e.relation for e in store.list_edges(project.graph_scope)] == ["experiences"]
