"""Research gaps: a question is reported only when the research truly has no node answering it.

One case per gap kind: the subject node alone (gap), with an edge answering it (no gap), with
an answering node said in the same words but never linked (no gap), and with a node of a type
that does not answer the question, however close its words (gap)."""

from __future__ import annotations

import itertools
import random

import pytest

from kg.reading import context
from kg.reading.context import (
    COMBINATIONS_PER_NAME,
    COMBINATIONS_PER_QUOTE,
    GAP_RULES,
    ContextEdge,
    ContextNode,
    EvidenceView,
    _Answers,
    _names,
    research_gaps,
)

_numbers = itertools.count(1)


def node(node_type: str, label: str, quote: str, episode: str, start: int = 0) -> ContextNode:
    number = next(_numbers)
    return ContextNode(
        uid=f"n{number}",
        number=number,
        type=node_type,
        label=label,
        confidence=70,
        valid_at="2026-03-01T00:00:00Z",
        evidence=[
            EvidenceView(
                episode_uid=episode,
                episode_number=int(episode.removeprefix("e")),
                date="2026-03-01T00:00:00Z",
                quote=quote,
                start=start,
                end=start + len(quote),
            )
        ],
    )


def edge(relation: str, source: ContextNode, target: ContextNode) -> ContextEdge:
    return ContextEdge(
        uid=f"{source.number}-{relation}-{target.number}",
        relation=relation,
        source=source.number,
        target=target.number,
        confidence=65,
        valid_at="2026-03-01T00:00:00Z",
    )


# rule: (subject (type, label, quote), answer (type, label, quote naming the subject),
#        relation joining them (source is the subject when "out"), a node of another type)
CASES = {
    "segment_without_pains": (
        ("segment", "Salon owners", "We interviewed salon owners in Kazan"),
        ("pain", "Lost bookings", "Salon owners lose bookings when clients forget"),
        "experiences",
        ("feature", "Booking reminders", "reminders for salon owners"),
    ),
    "segment_without_triggers": (
        ("segment", "Salon owners", "We interviewed salon owners in Kazan"),
        ("trigger", "A new branch opens", "salon owners look for software when a new branch opens"),
        "triggered_by",
        ("pain", "Lost bookings", "salon owners lose bookings"),
    ),
    "pain_without_alternatives": (
        ("pain", "Lost bookings", "clients forget and bookings get lost"),
        ("alternative", "Paper notebooks", "paper notebooks so that bookings are not lost"),
        "addresses",
        ("segment", "Salon owners", "salon owners have lost bookings"),
    ),
    "pain_without_segment": (
        ("pain", "Lost bookings", "clients forget and bookings get lost"),
        ("segment", "Salon owners", "salon owners complain about lost bookings"),
        "experiences",
        ("alternative", "Paper notebooks", "paper notebooks for lost bookings"),
    ),
    "feature_without_evidence": (
        ("feature", "Booking reminders", "send booking reminders by SMS"),
        ("pain", "Clients forget bookings", "clients forget bookings without reminders"),
        "solves",
        ("competitor", "YClients", "YClients sends booking reminders"),
    ),
    "goal_without_metric": (
        ("goal", "Fewer no-shows", "our goal is fewer no-shows"),
        ("metric", "No-show rate", "we track the no-show rate weekly"),
        "measured_by",
        ("pain", "No-shows cost money", "no-shows cost money"),
    ),
    "competitor_without_features": (
        ("competitor", "YClients", "YClients is the market leader"),
        ("feature", "Online booking widget", "YClients has an online booking widget"),
        "offers",
        ("pain", "YClients is expensive", "YClients is too expensive for us"),
    ),
}


def _rule(name: str):
    return next(r for r in GAP_RULES if r.rule == name)


def _link(name: str, subject: ContextNode, answer: ContextNode) -> ContextEdge:
    rule = _rule(name)
    relation = CASES[name][2]
    if rule.end == "out":
        return edge(relation, subject, answer)
    return edge(relation, answer, subject)


def _gaps(name: str, nodes: list[ContextNode], edges: list[ContextEdge], subject: ContextNode):
    return [
        g for g in research_gaps(nodes, edges, "en") if g.rule == name and g.node == subject.number
    ]


def test_every_gap_kind_has_a_case():
    assert {r.rule for r in GAP_RULES} == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_gap_is_reported_only_when_no_node_answers_it(name):
    (s_type, s_label, s_quote), (a_type, a_label, a_quote), _, other_spec = CASES[name]
    subject = node(s_type, s_label, s_quote, "e1")
    answer = node(a_type, a_label, a_quote, "e2")
    unlinked = node(a_type, "Something else entirely", "an unrelated remark about weather", "e3")
    other = node(*other_spec, "e4")

    # Nothing answers it: an answering type that names something else, a near miss of the
    # wrong type. The question is asked, once, naming the node.
    alone = _gaps(name, [subject, unlinked, other], [], subject)
    assert len(alone) == 1
    assert s_label in alone[0].question

    # An edge answers it (its other end may lie outside the nodes given).
    assert _gaps(name, [subject], [_link(name, subject, answer)], subject) == []
    # A node of an answering type, said in words that name the subject, answers it unlinked.
    assert _gaps(name, [subject, answer, other], [], subject) == []


@pytest.mark.parametrize("name", sorted(CASES))
def test_one_sentence_stating_both_answers_the_question(name):
    """Two nodes extracted from overlapping words of one message are said together, even when
    neither label appears in the other's quote."""
    (s_type, s_label, _), (a_type, a_label, _), _, _ = CASES[name]
    sentence = "Alpha beta gamma delta epsilon zeta"
    subject = node(s_type, s_label, sentence[:17], "e7", start=0)
    answer = node(a_type, a_label, sentence[11:], "e7", start=11)
    elsewhere = node(a_type, a_label, sentence[11:], "e8", start=11)

    assert _gaps(name, [subject, answer], [], subject) == []
    assert len(_gaps(name, [subject, elsewhere], [], subject)) == 1


def test_the_question_is_asked_in_the_project_language():
    subject = node("segment", "Владельцы салонов", "владельцы салонов в Казани", "e9")
    gaps = research_gaps([subject], [], "ru")
    assert {g.rule for g in gaps} == {"segment_without_pains", "segment_without_triggers"}
    assert all("Владельцы салонов" in g.question for g in gaps)


def _said_together_pairwise(subject: ContextNode, others: list[ContextNode]) -> bool:
    """The definition, node by node: a shared span of one message, or a quote of one naming
    the other (half the lemmas of a name, at least one)."""
    for other in others:
        if other.number == subject.number:
            continue
        for e in subject.evidence:
            for f in other.evidence:
                if e.episode_uid == f.episode_uid and e.start < f.end and f.start < e.end:
                    return True
        if any(_names(subject, f.quote) for f in other.evidence):
            return True
        if any(_names(other, e.quote) for e in subject.evidence):
            return True
    return False


@pytest.mark.parametrize(
    "name_limit,quote_limit", [(COMBINATIONS_PER_NAME, COMBINATIONS_PER_QUOTE), (0, 0), (70, 0)]
)
def test_the_indexed_answer_check_agrees_with_the_pairwise_definition(
    monkeypatch, name_limit, quote_limit
):
    """The index answers exactly what comparing every pair would, by its lookups of half-name
    combinations and (limits 0) by counting shared lemmas: names of 1 to 7 words from a small
    vocabulary, so common words are shared by many nodes, and quotes of 2 to 40 words."""
    monkeypatch.setattr(context, "COMBINATIONS_PER_NAME", name_limit)
    monkeypatch.setattr(context, "COMBINATIONS_PER_QUOTE", quote_limit)
    rng = random.Random(43)
    words = [
        "courier",
        "route",
        "invoice",
        "basement",
        "signal",
        "photo",
        "upload",
        "queue",
        "tablet",
        "battery",
        "barcode",
        "refund",
        "receipt",
        "warehouse",
        "driver",
        "delay",
        "shift",
        "bonus",
        "fuel",
        "camera",
        "ticket",
        "parcel",
        "locker",
        "window",
        "scanner",
        "printer",
        "pallet",
        "trailer",
    ]

    def random_node(node_type: str, episode: int, name_words: tuple[int, int]) -> ContextNode:
        label = " ".join(rng.sample(words, rng.randint(*name_words)))
        quote = " ".join(rng.choice(words) for _ in range(rng.choice((2, 4, 8, 40))))
        return node(node_type, label, quote, f"e{episode}", start=rng.randint(0, 500))

    checked = answered = 0
    for _ in range(60):
        name_words = rng.choice(((1, 3), (5, 7), (1, 7)))
        answers = [
            random_node("pain", rng.randint(1, 400), name_words) for _ in range(rng.randint(1, 25))
        ]
        subject = random_node("segment", rng.randint(1, 400), name_words)
        expected = _said_together_pairwise(subject, answers)
        assert _Answers(answers).answers(subject) == expected, subject
        checked += 1
        answered += expected
    assert checked == 60 and 0 < answered < 60  # both outcomes were exercised


def test_the_panel_names_no_gap_a_node_it_does_not_show_answers(graph, db):
    """The panel reads the first nodes of each type only; a pain said with a shown segment but
    not shown itself still answers "what problems do they have?"."""
    from kg.graph import EpisodeStub, Evidence, store
    from kg.models import Episode
    from kg.reading.overview import research_overview
    from tests.kg.pipeline_helpers import make_project, node_record, record_messages

    project = make_project("salon-gaps")
    texts = ["Owners lose bookings when the phone is busy.", "Stylists double-book chairs."]
    record_messages(project, [{"text": t, "at": "2026-03-01T10:00:00Z"} for t in texts])
    episodes = {e.number: e for e in Episode.objects.filter(project=project)}
    for e in episodes.values():  # what the pipeline writes first: the messages nodes link to
        store.upsert_episode_stub(
            project.graph_scope,
            EpisodeStub(uid=str(e.uid), number=e.number, valid_at="2026-03-01T10:00:00Z"),
        )

    def said(number: int, quote: str) -> list[Evidence]:
        text = episodes[number].content
        start = text.index(quote)
        return [
            Evidence(
                episode_uid=str(episodes[number].uid),
                episode_number=number,
                quote=quote,
                start=start,
                end=start + len(quote),
                valid_at="2026-03-01T10:00:00.000000Z",
            )
        ]

    store.write_nodes(
        project.graph_scope,
        [
            node_record(1, "owners", "segment", confidence=90, evidence=said(1, "Owners")),
            node_record(2, "lose bookings", "pain", confidence=20, evidence=said(1, texts[0])),
            node_record(3, "double-book chairs", "pain", confidence=95, evidence=said(2, texts[1])),
        ],
    )
    shown_one = research_overview(project, nodes_per_type=1)
    pains = next(g for g in shown_one.groups if g.type == "pain")
    assert [n.number for n in pains.nodes] == [3]  # the answering pain is not shown
    assert ("segment_without_pains", 1) not in {(g.rule, g.node) for g in shown_one.gaps}
    # The pain said in another message answers nothing about the owners: without #2, a gap.
    store.write_nodes(
        project.graph_scope,
        [
            node_record(
                2,
                "lose bookings",
                "pain",
                confidence=20,
                evidence=said(1, texts[0]),
                invalid_at="2026-03-02T00:00:00.000000Z",
            )
        ],
    )
    gaps = {(g.rule, g.node) for g in research_overview(project, nodes_per_type=1).gaps}
    assert ("segment_without_pains", 1) in gaps
