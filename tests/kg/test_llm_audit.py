"""A model that keeps writing invalid JSON is reported: rejected answers per operation and reason
in the admin's extraction audit, the endpoint's probe and recent rejections on /health and the
chat's engine badge."""

from __future__ import annotations

import contextlib

import openai
import pytest
from django.urls import reverse

from chat.services import engine_label
from kg.llm import LLMOutputError, call_llm
from kg.llm.audit import rejected_answers
from kg.llm.prompts import extraction
from kg.llm.prompts.extraction_models import ExtractionRequest, ExtractionResponse
from kg.operations.embedded import free_port
from tests.fixtures.llm_server import Reply

pytestmark = pytest.mark.django_db

VALID = {"nodes": [{"ref": "n1", "type": "pain", "label": "Slow app", "quote": "slow"}]}


def _answers(server, settings) -> None:
    """Four extraction answers: one valid, one not JSON, one of the wrong shape, one cut off."""
    settings.LLM_MAX_OUTPUT_TOKENS = 80
    server.script(
        VALID,
        "I think the nodes are: slow app",
        {"nodes": [{"ref": "n1"}]},
        Reply(
            ExtractionResponse.model_validate(VALID).model_dump_json() * 3, completion_tokens=500
        ),
    )
    for number in range(4):
        request = ExtractionRequest(text=f"The app is slow ({number}).", product="Couriers")
        with contextlib.suppress(LLMOutputError):
            call_llm(extraction.OPERATION, request)


def test_rejected_answers_are_counted_per_operation_and_reason(openai_mode, settings):
    _answers(openai_mode, settings)

    (row,) = rejected_answers()

    assert (row.operation, row.model, row.calls, row.rejected) == (
        "extraction",
        "scripted-model",
        4,
        3,
    )
    assert row.rejected_percent == 75.0
    assert dict(row.reasons) == {"not JSON": 1, "wrong shape": 1, "cut off at the token cap": 1}


def test_the_audit_page_shows_the_rejected_answer_rate(openai_mode, settings, admin_client):
    _answers(openai_mode, settings)

    page = admin_client.get(reverse("admin:kg_llmcall_changelist")).content.decode()
    only_valid = admin_client.get(
        reverse("admin:kg_llmcall_changelist") + "?parsed_ok__exact=1"
    ).content.decode()

    assert 'id="answer-rates"' in page
    assert "<td>75%</td>" in page
    assert "cut off at the token cap: 1" in page and "not JSON: 1" in page
    assert "<td>0%</td>" in only_valid  # the filters select the calls counted


def test_health_shows_whether_the_model_answered_its_probe(
    admin_client, openai_mode, settings, embedded_server
):
    settings.LLM_STRUCTURED_OUTPUT = "auto"
    assert engine_label() == "model scripted-model (not probed yet)"  # the badge never probes
    openai_mode.script({"ok": True})

    llm = admin_client.get("/health").json()["llm"]

    assert llm["model"] == "scripted-model"
    assert (llm["probe"], llm["dialect"]) == ("answered", "json_schema")
    assert llm["rejected_answers"] == "0 of the last 0"
    assert openai_mode.calls == 1
    admin_client.get("/health")
    assert openai_mode.calls == 1  # remembered, not asked on every /health
    assert engine_label() == "model scripted-model"


def test_a_model_rejected_again_and_again_shows_on_the_badge(openai_mode, settings):
    _answers(openai_mode, settings)

    assert engine_label().endswith(", 3 of its last 4 answers rejected")


def test_health_reports_an_endpoint_that_is_down(
    admin_client, openai_mode, settings, embedded_server
):
    settings.LLM_STRUCTURED_OUTPUT = "auto"
    settings.OPENAI_BASE_URL = f"http://127.0.0.1:{free_port()}/v1"

    llm = admin_client.get("/health").json()["llm"]

    assert llm["probe"].startswith("no answer: APIConnectionError")
    assert "model" in engine_label()


def test_empty_objects_and_timeouts_are_counted_by_reason(openai_mode, settings):
    settings.LLM_TIMEOUT_SECONDS = 1
    settings.LLM_MAX_RETRIES = 0
    openai_mode.script({}, Reply(VALID, delay=1.5), VALID)
    for number in range(3):
        request = ExtractionRequest(text=f"The app is slow ({number}).", product="Couriers")
        with contextlib.suppress(LLMOutputError, openai.APITimeoutError):
            call_llm(extraction.OPERATION, request)

    (row,) = rejected_answers()

    assert (row.calls, row.rejected) == (3, 2)
    assert dict(row.reasons) == {"empty object": 1, "timed out": 1}
    assert engine_label().endswith(", 2 of its last 3 answers rejected")
