"""Meaning, not strings: the sentence encoder under resolution, corrections, contradictions and
corroboration, through the real pipeline (offline engine), SQL ledger and embedded graph."""

from __future__ import annotations

import pytest

from kg import corrections as fix
from kg.graph import store
from kg.language.encoder import DIMENSIONS, encode, similarity
from kg.language.meaning import same_subject, subject_phrase
from kg.language.names import names_vectors
from kg.models import ResolutionDecision
from kg.operations.rebuild import rebuild_project_graph
from kg.pipeline.confidence import independent_sources
from kg.pipeline.ingest import episode_ingest
from kg.pipeline.resolve import Mention, resolve_candidate
from tests.kg.pipeline_helpers import make_project, node_record, record_messages
from tests.kg.test_corrections import _user

pytestmark = pytest.mark.django_db


def _ingest(project, texts: list[str], author: str = "") -> None:
    messages = [
        {"text": text, "at": f"2026-02-{day:02d}T10:00:00Z", "author": author}
        for day, text in enumerate(texts, start=1)
    ]
    for episode in record_messages(project, messages):
        episode_ingest(episode.pk)


def _active(project, node_type: str):
    return [n for n in store.list_nodes(project.graph_scope, node_type) if n.invalid_at is None]


FREEZES = [
    "The app freezes when the mobile signal is weak in basements.",
    "Couriers told us the app freezes when their mobile signal is weak underground.",
    "The app freezes when the mobile signal is weak in underground parking.",
]


def test_encoder_gives_unit_vectors_the_same_for_the_same_text():
    first = encode(["app freezes in basements", "", "приложение зависает"])
    again = encode(["приложение зависает", "app freezes in basements"])
    assert first.shape == (3, DIMENSIONS)
    assert abs(float(first[0] @ first[0]) - 1) < 1e-3 and not first[1].any()
    assert (first[0] == again[1]).all() and (first[2] == again[0]).all()
    # across languages: the same finding is closer than another finding
    assert similarity("app freezes when the signal is weak", "приложение зависает") > similarity(
        "app freezes when the signal is weak", "цены на доставку слишком высокие"
    )


def test_three_paraphrases_of_one_pain_are_one_node_citing_three_episodes(graph):
    project = make_project("freezes")

    _ingest(project, FREEZES)

    [pain] = _active(project, "pain")
    assert {e.episode_number for e in pain.evidence} == {1, 2, 3}
    assert pain.confidence >= 80  # corroborated by independent episodes
    methods = set(
        ResolutionDecision.objects.filter(project=project).values_list("method", flat=True)
    )
    assert "vector" in methods
    # The vector index finds the node by meaning, in another language too.
    [vector] = names_vectors([["приложение зависает при слабом сигнале в подвале"]])
    nearest = store.nearest_nodes(project.graph_scope, "pain", vector, 3)
    assert [uid for uid, _ in nearest] == [pain.uid]


def test_a_statement_and_its_denial_or_another_place_stay_apart():
    node = node_record(1, "florists in Hull lose orders", "pain")
    denied = node_record(2, "the app freezes in basements", "pain")
    never = lambda _m, _n: False  # noqa: E731

    other_town = Mention("pain", "florists in York lose orders", "")
    denial = Mention("pain", "the app never freezes in basements", "")

    assert resolve_candidate(other_town, [node], never).node is None
    assert resolve_candidate(denial, [denied], never).method == "new"


def test_a_merged_alias_catches_the_same_words_in_other_words(graph):
    project = make_project("tablets")
    _ingest(
        project,
        [
            "The tablet app crashed twice in one evening.",
            "Orders get lost when the tablet app restarts.",
        ],
    )
    anna = _user(project, "anna", first="Anna")
    crashed = next(n for n in _active(project, "pain") if "crashed" in n.label)
    lost = next(n for n in _active(project, "pain") if "lost" in n.label)
    fix.merge_nodes(project, anna, lost.number, crashed.number)

    _ingest(project, ["Last month our tablet app crashed twice in one evening."])

    survivor = store.node_by_number(project.graph_scope, lost.number)
    assert 3 in {e.episode_number for e in survivor.evidence}
    assert len(_active(project, "pain")) == 1


def test_a_rejected_label_also_takes_its_paraphrases(graph):
    project = make_project("rejects")
    _ingest(project, FREEZES[:1])
    anna = _user(project, "anna", first="Anna")
    [junk] = _active(project, "pain")
    fix.reject_node(project, anna, junk.number)

    _ingest(project, FREEZES[1:2])

    rejected = store.node_by_number(project.graph_scope, junk.number)
    assert 2 in {e.episode_number for e in rejected.evidence}  # attached, still hidden
    assert _active(project, "pain") == []


def test_payout_speed_does_not_contradict_delivery_speed(graph):
    project = make_project("speeds")
    _ingest(
        project,
        [
            "Speed of payout matters a lot to couriers.",
            "Delivery speed does not matter to couriers.",
            "Price is the main factor for couriers.",
            "Price does not matter to couriers.",
        ],
    )

    pairs = store.list_contradictions(project.graph_scope)

    assert [c.subject for c in pairs] == ["price"]


def test_a_narrowed_subject_is_read_from_the_label_or_its_quote():
    assert subject_phrase("speed of payout matters a lot", "speed") == "speed of payout"
    assert subject_phrase("скорость доставки не важна", "скорость") == "скорость доставки"
    assert not same_subject(
        ["speed matters", "Speed of payout matters"], ["delivery speed"], "speed"
    )
    assert same_subject(["payout speed is key"], ["speed of payout does not matter"], "speed")
    assert same_subject(["speed matters"], ["delivery speed does not matter"], "speed")


def test_a_re_export_of_the_same_rows_adds_no_source(graph):
    project = make_project("survey")
    _ingest(project, ["answer: Commission fees are too high."], author="respondent 17")
    _ingest(project, ["Q3 answer: commission fees are too high"], author="respondent 17")
    [pain] = _active(project, "pain")
    assert len(pain.episode_uids) == 2
    assert independent_sources(pain.evidence) == 1
    assert pain.confidence == 65  # one source: still a hypothesis in the PRD

    _ingest(project, ["Commission fees are too high, says another courier."], author="Ivan")

    [pain] = _active(project, "pain")
    assert independent_sources(pain.evidence) == 2 and pain.confidence == 80


def test_rebuild_writes_the_same_vectors_and_graph(graph):
    project = make_project("rebuilt")
    _ingest(project, FREEZES)
    before = sorted(n.model_dump_json() for n in store.list_nodes(project.graph_scope))
    [pain] = _active(project, "pain")
    [vector] = names_vectors([pain.names])

    rebuild_project_graph(project)

    after = sorted(n.model_dump_json() for n in store.list_nodes(project.graph_scope))
    assert after == before
    assert store.nearest_nodes(project.graph_scope, "pain", vector, 1)[0][0] == pain.uid
    assert store.nearest_nodes(project.graph_scope, "pain", vector, 1)[0][1] > 0.999


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("окно экспорта открывается", "окно экспорта закрывается"),
        ("enable sync for shared folders", "disable sync for shared folders"),
        ("Error", "ошибка"),
        ("couriers in Leeds wait at the counter", "couriers in Derby wait at the counter"),
        ("the map loads offline", "the map does not load offline"),
        ("the login page lags on weak internet", "the payment page lags on weak internet"),
    ],
)
def test_guards_keep_statements_apart_that_vectors_put_together(a, b):
    from kg.language.meaning import kept_apart

    assert kept_apart(a, b)


def test_guards_let_paraphrases_through():
    from kg.language.meaning import kept_apart

    assert not kept_apart(FREEZES[0], FREEZES[1])
    assert not kept_apart(FREEZES[0], FREEZES[2])  # another place, the same finding
    assert not kept_apart("the map does not load offline", "the map won't load without internet")
