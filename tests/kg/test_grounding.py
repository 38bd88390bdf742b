"""A quote must say what it supports: the write-time grounding check (kg.pipeline.grounding).

Crafted answers through the scripted OpenAI-compatible server and extract_episode (the model
path), the same answers through check_answer (the path every engine's answer takes, the offline
engine's included), and the offline engine's own output on a message.
"""

from __future__ import annotations

import pytest

from kg.graph import store
from kg.ledger.episodes import EpisodeInput, record_episode
from kg.llm.offline.extractor import extract_offline
from kg.llm.prompts.extraction_models import ExtractionRequest, ExtractionResponse
from kg.models import ExtractionRejection
from kg.pipeline.evidence import locate_quote
from kg.pipeline.extract import check_answer, extract_episode
from kg.pipeline.grounding import (
    claim_supported,
    node_grounding_problem,
    quote_too_short,
)
from kg.pipeline.ingest import episode_ingest

TEXT = (
    "We are freelance designers. We tried Stripe for invoices, but the dashboard is slow "
    "and I gave up. Now we use Jira and a spreadsheet."
)
RU_TEXT = "Бухгалтер ведёт учёт в 1С, а 40% счетов приходят с опозданием."


def node(ref, type_, label, quote, **extra):
    return {"ref": ref, "type": type_, "label": label, "quote": quote, **extra}


SEGMENT = node("n1", "segment", "freelance designers", "freelance designers")
STRIPE_TRIED = node("n2", "competitor", "Stripe", "tried")
LOVE_E = node("n3", "pain", "users love the dashboard", "e")
NUDGE_I = node("n4", "product", "InvoiceNudge", "I")
STRIPE = node("n5", "competitor", "Stripe", "We tried Stripe for invoices")
USES_A = {"relation": "uses", "source": "n1", "target": "n5", "quote": "a"}
CRAFTED = {"nodes": [SEGMENT, STRIPE_TRIED, LOVE_E, NUDGE_I, STRIPE], "relations": [USES_A]}


@pytest.fixture
def episode(org_project):
    return record_episode(org_project, EpisodeInput(content=TEXT), enqueue=False)


def _rejected(checked) -> dict[str, str]:
    return {
        r.item.get("label") or f"{r.item['relation']} {r.item['quote']!r}": r.reason
        for r in checked.rejections
    }


def test_crafted_answer_is_refused_item_by_item_with_reasons():
    checked = check_answer(TEXT, ExtractionResponse.model_validate(CRAFTED))

    reasons = _rejected(checked)
    assert "does not name it" in reasons["Stripe"]  # quoted as "tried"
    assert "not a whole word" in reasons["users love the dashboard"]  # quoted as "e"
    assert "not a whole word" in reasons["InvoiceNudge"]  # quoted as "I"
    assert "not a whole word" in reasons["uses 'a'"]
    assert sorted(n.candidate.label for n in checked.nodes) == ["Stripe", "freelance designers"]
    assert [n.candidate.quote for n in checked.nodes if n.candidate.type == "competitor"] == [
        "We tried Stripe for invoices"
    ]
    assert checked.relations == []


def test_crafted_answer_from_the_model_is_sent_back_once_then_dropped(openai_mode, episode):
    openai_mode.script(CRAFTED, CRAFTED)

    outcome = extract_episode(episode)

    assert openai_mode.calls == 2
    repair = openai_mode.requests[1]["messages"][-1]["content"]
    assert "'Stripe': its quote 'tried' does not name it" in repair
    assert "users love the dashboard" in repair
    assert sorted(n.candidate.label for n in outcome.nodes) == ["Stripe", "freelance designers"]
    final = ExtractionRejection.objects.filter(episode=episode, final=True)
    reasons = sorted(r.reason for r in final)
    assert len(reasons) == 4, reasons
    assert sum("not a whole word" in r for r in reasons) == 3
    assert sum("does not name it" in r for r in reasons) == 1


def test_a_repaired_answer_is_accepted(openai_mode, episode):
    fixed = {
        "nodes": [SEGMENT, STRIPE, node("n3", "pain", "Slow dashboard", "the dashboard is slow")],
        "relations": [
            {
                "relation": "uses",
                "source": "n1",
                "target": "n5",
                "quote": "We are freelance designers. We tried Stripe for invoices",
            }
        ],
    }
    openai_mode.script(CRAFTED, fixed)

    outcome = extract_episode(episode)

    assert sorted(n.candidate.label for n in outcome.nodes) == [
        "Slow dashboard",
        "Stripe",
        "freelance designers",
    ]
    assert [r.relation for r in outcome.relations] == ["uses"]


def test_crafted_nodes_never_reach_the_graph(openai_mode, graph, episode):
    openai_mode.script(CRAFTED, CRAFTED)

    episode_ingest(episode.pk)

    labels = sorted((n.type, n.label) for n in store.list_nodes(episode.project.graph_scope))
    assert ("pain", "users love the dashboard") not in labels
    assert ("product", "InvoiceNudge") not in labels
    assert ("competitor", "Stripe") in labels  # from its honest quote


@pytest.mark.parametrize(
    ("node_type", "label", "quote", "value", "text"),
    [
        ("competitor", "Jira", "Jira", "", TEXT),
        ("competitor", "1С", "1С", "", RU_TEXT),
        ("metric", "Late invoices", "40%", "40%", RU_TEXT),
    ],
)
def test_legitimate_short_quotes_pass(node_type, label, quote, value, text):
    answer = ExtractionResponse.model_validate(
        {"nodes": [node("n1", node_type, label, quote, value=value)]}
    )

    checked = check_answer(text, answer)

    assert checked.rejections == []
    assert [n.candidate.label for n in checked.nodes] == [label]


def test_a_name_is_found_in_any_case_form():
    text = "Перешли в Сбер, но в Сбере комиссия выше."
    assert node_grounding_problem("competitor", "Сбер", "в Сбере комиссия выше") == ""
    assert "does not name it" in node_grounding_problem("competitor", "Тинькофф", "в Сбере")
    assert locate_quote("в Сбере", text) is not None


@pytest.mark.parametrize(
    ("label", "quote"),
    [
        # a label in the other language than its message
        ("App freezes when the signal is weak", "приложение зависает при слабом сигнале"),
        # the same finding in other words
        (
            "tablet app crashed twice in one evening",
            "last month our tablet app crashed two times one night",
        ),
    ],
)
def test_paraphrase_quotes_pass_by_the_similarity_bar(label, quote):
    assert node_grounding_problem("pain", label, quote) == ""


def test_a_shared_word_is_not_enough_for_another_statement():
    problem = node_grounding_problem("pain", "users love the dashboard", "the dashboard is slow")
    assert "does not say it" in problem


def test_quotes_are_whole_words():
    assert locate_quote("e", "the app") is None  # inside "the"
    assert locate_quote("ried", "We tried it") is None
    assert locate_quote("tried", "We tried it").text == "tried"
    assert locate_quote("40%", "about 40% of them").text == "40%"
    assert quote_too_short("I") and quote_too_short("a") and quote_too_short("")
    assert not quote_too_short("1С") and not quote_too_short("40%")


def test_an_edge_quote_must_reach_both_ends():
    text = "Couriers in Almaty say the app lags. Average delivery takes 42 minutes."
    answer = ExtractionResponse.model_validate(
        {
            "nodes": [
                node("n1", "pain", "App lags", "the app lags"),
                node("n2", "metric", "Average delivery time", "Average delivery takes 42 minutes"),
            ],
            "relations": [
                {
                    "relation": "measured_by",
                    "source": "n1",
                    "target": "n2",
                    "quote": "Average delivery takes 42 minutes",
                }
            ],
        }
    )

    checked = check_answer(text, answer)

    (refused,) = checked.rejections
    assert "does not mention 'App lags'" in refused.reason


def test_a_claim_that_adds_to_its_quote_is_not_supported():
    sources = ["Slow dashboard", "the dashboard is slow"]
    assert not claim_supported("Users love the dashboard.", sources)
    assert claim_supported("The dashboard is slow.", sources)
    template = frozenset({"requirement"})
    assert claim_supported("Requirement: slow dashboard.", sources, ignore=template)


def test_the_offline_engines_nodes_pass_the_check():
    for text, language in ((TEXT, "en"), (RU_TEXT, "ru")):
        answer = extract_offline(ExtractionRequest(text=text, language=language, product=""))

        checked = check_answer(text, answer)

        assert answer.nodes, text
        assert checked.rejections == []
