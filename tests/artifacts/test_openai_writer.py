"""The writer and reviewer through the real openai client against the scripted server:
invented node numbers, invented numbers and uncited sentences are repaired or dropped, and
never rendered as facts."""

from __future__ import annotations

import json

import pytest

from artifacts.checks import names_grounded
from artifacts.models import ArtifactVersion, Claim, Section, VersionStatus
from artifacts.prompts import prd_writer
from artifacts.rendering import load_document, render_html, to_json
from artifacts.services import GenerationError, generate_prd
from kg.llm.gateway import strict_json_schema
from kg.models import LLMCall
from tests.artifacts.invariants import (
    assert_claims_name_their_nodes,
    assert_evidence_traced,
    assert_open_questions_complete,
    writer_claims,
)

pytestmark = pytest.mark.django_db

# Node numbers of the `couriers` fixture.
LAG, DELAYED, WHATSAPP, OFFLINE, TIPS, GOAL, METRIC = 4, 5, 6, 7, 8, 9, 10

FIRST_ANSWER = {
    "sections": [
        {
            "key": "problem",
            "claims": [
                {"text": "Couriers lose time when the app lags on weak internet.", "nodes": [LAG]},
                {"text": "Offline mode cuts churn by 73%.", "nodes": [OFFLINE]},
                {"text": "Everyone loves the product.", "nodes": []},
                {"text": "Dispatchers reassign orders in WhatsApp groups.", "nodes": [99]},
            ],
        },
        {
            "key": "goals",
            "claims": [
                {
                    "text": "Late deliveries are 12% today; the goal is 5% by June.",
                    "nodes": [GOAL, METRIC],
                }
            ],
        },
        {
            "key": "requirements",
            "claims": [
                {"text": "Support tips in the app.", "nodes": [TIPS]},
                {"text": "Build an offline mode.", "nodes": [OFFLINE]},
            ],
        },
        {"key": "pains", "claims": [{"text": "3 of 10 orders get delayed.", "nodes": [DELAYED]}]},
    ]
}
REPAIR_ANSWER = {
    "sections": [
        {
            "key": "problem",
            "claims": [
                {"text": "Offline mode cuts churn by 73%.", "nodes": [OFFLINE]},
                {"text": "Everyone loves the product.", "nodes": []},
                {"text": "Dispatchers reassign orders in WhatsApp groups.", "nodes": [WHATSAPP]},
            ],
        }
    ]
}
NO_REMARKS = {"remarks": []}


def _rendered(version: ArtifactVersion) -> tuple[str, str]:
    return version.markdown, str(render_html(load_document(version)))


def test_invented_nodes_numbers_and_uncited_sentences_never_become_facts(openai_mode, couriers):
    openai_mode.script(
        FIRST_ANSWER,
        REPAIR_ANSWER,
        {
            "remarks": [
                {"quote": "this sentence is not in the PRD", "nodes": [LAG], "remark": "vague"},
                {"quote": "Couriers lose time", "nodes": [99], "remark": "no such node"},
            ]
        },
    )

    version = generate_prd(couriers.project)

    assert openai_mode.calls == 3
    assert version.status == VersionStatus.COMPLETE
    assert (version.engine, version.writer_model) == ("openai", "scripted-model")

    # The repair round went back with the reasons, after the first answer.
    repair_messages = openai_mode.requests[1]["messages"]
    assert repair_messages[-2] == {"role": "assistant", "content": json.dumps(FIRST_ANSWER)}
    reasons = repair_messages[-1]["content"]
    assert "node #99 is not in the context" in reasons
    assert "the number(s) 73 appear in no quote" in reasons
    assert "cites no node" in reasons
    assert "Couriers lose time" not in reasons  # passing claims are not sent back

    dropped = {d["text"]: d["reason"] for d in version.report["dropped"]}
    assert set(dropped) == {"Offline mode cuts churn by 73%.", "Everyone loves the product."}
    assert dropped["Offline mode cuts churn by 73%."].startswith("after repair: the number(s) 73")
    assert "cites no node" in dropped["Everyone loves the product."]
    assert version.report["repaired"] == 1
    doc = to_json(load_document(version))
    assert {d["text"] for d in doc["dropped"]} == set(dropped)

    claims = {c.text: c for c in writer_claims(version)}
    assert claims["Dispatchers reassign orders in WhatsApp groups."].nodes == [WHATSAPP]
    # The system orders requirements by evidence: offline mode (2 episodes) before tips (1).
    requirements = list(
        Claim.objects.filter(version=version, section=Section.REQUIREMENTS).order_by("order")
    )
    assert [c.text for c in requirements] == ["Build an offline mode.", "Support tips in the app."]
    # Numbers from two nodes: each shown in the quote that holds it.
    goal_claim = claims["Late deliveries are 12% today; the goal is 5% by June."]
    assert {c.quote for c in goal_claim.citations.all()} == {
        "cut late deliveries to 5% by June",
        "Late deliveries are 12% today",
    }
    assert_evidence_traced(version)
    assert_open_questions_complete(version)

    markdown, html = _rendered(version)
    for rendered in (markdown, html):
        assert "73%" not in rendered
        assert "Everyone loves" not in rendered
        assert "#99" not in rendered
        assert "Dispatchers reassign orders in WhatsApp groups." in rendered
    assert "(alternative #6, confidence 65; message #4, 8 March:" in markdown

    ignored = {r["quote"]: r["reason"] for r in version.report["reviewer"]["ignored"]}
    assert ignored == {
        "this sentence is not in the PRD": "the quote is not in the PRD",
        "Couriers lose time": "names nodes that do not exist: #99",
    }
    assert version.report["reviewer"]["remarks"] == []


def test_regenerating_makes_no_model_call(openai_mode, couriers):
    openai_mode.script(FIRST_ANSWER, REPAIR_ANSWER, NO_REMARKS)
    first = generate_prd(couriers.project)
    calls, recorded = openai_mode.calls, LLMCall.objects.count()

    again = generate_prd(couriers.project)

    assert again.pk == first.pk
    assert openai_mode.calls == calls == 3
    assert LLMCall.objects.count() == recorded
    assert ArtifactVersion.objects.count() == 1


def test_the_prompt_lists_numbered_nodes_with_quotes(openai_mode, couriers):
    openai_mode.script({"sections": []})

    generate_prd(couriers.project, review=False)

    [request] = openai_mode.requests
    user = request["messages"][1]["content"]
    assert (
        '#4 [pain] "App lags on weak internet" confidence=85 messages=3 quotes: '
        '"the app lags on weak internet" | "the app lags on weak internet in basements"' in user
    )
    assert "#1 -targets_market-> #2" in user
    assert "- requirements: Requirements" in user
    # The answer's shape goes with the request: the writer's response model as a strict schema.
    assert request["response_format"]["type"] == "json_schema"
    assert request["response_format"]["json_schema"]["schema"] == strict_json_schema(
        prd_writer.WriterResponse
    )


def test_reviewer_remark_gets_the_claim_rewritten(openai_mode, couriers):
    openai_mode.script(
        {
            "sections": [
                {
                    "key": "pains",
                    "claims": [
                        {
                            "text": "The app lags on weak internet for hours.",
                            "nodes": [LAG],
                        },
                        {"text": "3 of 10 orders get delayed.", "nodes": [DELAYED]},
                    ],
                }
            ]
        },
        {
            "remarks": [
                {
                    "quote": "for hours",
                    "nodes": [LAG],
                    "remark": "no quote says how long couriers lose",
                }
            ]
        },
        {
            "sections": [
                {
                    "key": "pains",
                    "claims": [{"text": "The app lags on weak internet.", "nodes": [LAG]}],
                }
            ]
        },
    )

    version = generate_prd(couriers.project)

    assert openai_mode.calls == 3
    rewrite_request = openai_mode.requests[2]["messages"][-1]["content"]
    assert "no quote says how long couriers lose" in rewrite_request
    texts = [c.text for c in writer_claims(version)]
    assert "The app lags on weak internet." in texts
    assert "3 of 10 orders get delayed." in texts
    assert not any("for hours" in t for t in texts)
    [remark] = version.report["reviewer"]["remarks"]
    assert remark["outcome"] == "rewritten"
    assert "for hours" not in version.markdown


def test_reviewer_rewrite_that_fails_the_checks_keeps_the_original(openai_mode, couriers):
    claim = {"text": "The app lags on weak internet.", "nodes": [LAG]}
    openai_mode.script(
        {"sections": [{"key": "pains", "claims": [claim]}]},
        {"remarks": [{"quote": "The app lags", "nodes": [LAG], "remark": "add the impact"}]},
        {
            "sections": [
                {
                    "key": "pains",
                    "claims": [{"text": "The app lags and 40% of couriers quit.", "nodes": [LAG]}],
                }
            ]
        },
    )

    version = generate_prd(couriers.project)

    assert [c.text for c in writer_claims(version)] == ["The app lags on weak internet."]
    [remark] = version.report["reviewer"]["remarks"]
    assert remark["outcome"].startswith("kept: the rewrite failed the checks: the number(s) 40")
    assert "40%" not in version.markdown


def test_reviewer_remark_can_withdraw_a_claim(openai_mode, couriers):
    openai_mode.script(
        {
            "sections": [
                {
                    "key": "pains",
                    "claims": [
                        {"text": "The app lags on weak internet.", "nodes": [LAG]},
                        {
                            "text": "Orders get delayed because couriers are lazy.",
                            "nodes": [DELAYED],
                        },
                    ],
                }
            ]
        },
        {
            "remarks": [
                {"quote": "couriers are lazy", "nodes": [DELAYED], "remark": "not in any quote"}
            ]
        },
        {"sections": [{"key": "pains", "claims": [{"text": "", "nodes": []}]}]},
    )

    version = generate_prd(couriers.project)

    assert [c.text for c in writer_claims(version)] == ["The app lags on weak internet."]
    [dropped] = version.report["dropped"]
    assert dropped["reason"] == "withdrawn after a reviewer remark: not in any quote"
    assert "lazy" not in version.markdown


def test_broken_json_is_sent_back_once(openai_mode, couriers):
    openai_mode.script(
        "this is not JSON",
        {"sections": [{"key": "pains", "claims": [{"text": "Pain: slow app.", "nodes": [LAG]}]}]},
    )

    version = generate_prd(couriers.project, review=False)

    assert openai_mode.calls == 2
    assert "not a valid JSON object" in openai_mode.requests[1]["messages"][-1]["content"]
    assert [c.text for c in writer_claims(version)] == ["Pain: slow app."]


def test_a_writer_that_never_answers_fails_the_run(openai_mode, couriers):
    openai_mode.script("not JSON", "still not JSON")

    with pytest.raises(GenerationError, match="no usable answer"):
        generate_prd(couriers.project, review=False)

    run = ArtifactVersion.objects.get()
    assert run.status == VersionStatus.FAILED
    assert run.number is None
    assert "no usable answer" in run.error
    assert run.claims.count() == 0


def test_unknown_sections_and_duplicates_are_dropped_with_reasons(openai_mode, couriers):
    claim = {"text": "The app lags on weak internet.", "nodes": [LAG]}
    openai_mode.script(
        {
            "sections": [
                {"key": "pains", "claims": [claim, claim]},
                {"key": "marketing", "claims": [{"text": "Buy ads.", "nodes": [LAG]}]},
            ]
        }
    )

    version = generate_prd(couriers.project, review=False)

    assert openai_mode.calls == 1
    reasons = sorted(d["reason"] for d in version.report["dropped"])
    assert reasons == ["duplicate of an earlier claim", "unknown section 'marketing'"]
    assert [c.text for c in writer_claims(version)] == ["The app lags on weak internet."]


def test_claims_naming_nodes_their_quotes_do_not_name_are_repaired_or_dropped(
    openai_mode, couriers
):
    # A segment whose only quote is about dispatchers: no claim may name it.
    owners = couriers.node(
        "segment", "Restaurant owners", (couriers.e[4], "Dispatchers use WhatsApp groups")
    ).number
    segment, risk = couriers.segment.number, couriers.risk.number
    # Each node's own quote names it, but the quote of their relation names only the pain.
    assert names_grounded([couriers.segment.label], couriers.segment.evidence[0].quote)
    assert not names_grounded([couriers.segment.label], couriers.edges[2].evidence[0].quote)
    relation = {"text": "Gig couriers on bikes suffer when the app lags.", "nodes": [segment, LAG]}
    first = {
        "sections": [
            {
                "key": "segments",
                "claims": [
                    {"text": "Restaurant owners coordinate in WhatsApp groups.", "nodes": [owners]}
                ],
            },
            {
                "key": "pains",
                "claims": [
                    {"text": "The app lags on weak internet.", "nodes": [LAG]},
                    relation,
                ],
            },
            {
                "key": "risks",
                "claims": [
                    {"text": "Yandex Delivery may copy offline mode.", "nodes": [risk, OFFLINE]}
                ],
            },
        ]
    }
    repair = {
        "sections": [
            {
                "key": "segments",
                "claims": [
                    {"text": "Dispatchers coordinate in WhatsApp groups.", "nodes": [WHATSAPP]}
                ],
            },
            {"key": "pains", "claims": [relation]},
        ]
    }
    openai_mode.script(first, repair)

    version = generate_prd(couriers.project, review=False)

    owners_reason = f"node #{owners} 'Restaurant owners' not in its cited quote"
    relation_reason = (
        f"node #{segment} 'Gig couriers on bikes' not in its cited quote "
        f"(the quote of its relation #{segment} experiences #{LAG})"
    )
    sent_back = openai_mode.requests[1]["messages"][-1]["content"]
    assert owners_reason in sent_back and relation_reason in sent_back
    assert "The app lags on weak internet." not in sent_back  # grounded claims pass
    assert "Yandex Delivery may copy" not in sent_back

    assert {c.text for c in writer_claims(version)} == {
        "Dispatchers coordinate in WhatsApp groups.",
        "The app lags on weak internet.",
        "Yandex Delivery may copy offline mode.",
    }
    assert version.report["repaired"] == 1
    assert version.report["dropped"] == [
        {
            "section": "pains",
            "text": relation["text"],
            "nodes": [segment, LAG],
            "reason": "after repair: " + relation_reason,
        }
    ]
    # The relation claim that passed cites the relation's own quote.
    risky = Claim.objects.get(version=version, text="Yandex Delivery may copy offline mode.")
    assert {(c.node_number, c.quote) for c in risky.citations.all()} == {
        (risk, "Yandex Delivery may copy offline mode quickly"),
        (OFFLINE, "copy offline mode quickly"),
    }
    assert "Restaurant owners" not in version.markdown.split("## Open questions")[0]
    assert_evidence_traced(version)
    assert_claims_name_their_nodes(version)
