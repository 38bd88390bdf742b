"""The gateway with the real openai client against the scripted server, recorded in SQL."""

from __future__ import annotations

import openai
import pytest

from kg.llm import LLMOutputError, call_llm
from kg.llm.engines import OFFLINE_MODEL
from kg.llm.gateway import prompt_hash
from kg.llm.prompts import extraction
from kg.llm.prompts.extraction import (
    CandidateNode,
    ExtractionRequest,
    ExtractionResponse,
)
from kg.models import LLMCall
from tests.fixtures.llm_server import SCRIPT_EXHAUSTED, Reply, Status

pytestmark = pytest.mark.django_db

TEXT = "Couriers say the app lags on weak internet, so they call the dispatcher instead."
REQUEST = ExtractionRequest(text=TEXT, product="Couriers app")
ANSWER = ExtractionResponse(
    nodes=[
        CandidateNode(
            ref="n1",
            type="pain",
            label="App lags on weak internet",
            quote="the app lags on weak internet",
        )
    ]
)


def _call(**kwargs):
    return call_llm(extraction.OPERATION, REQUEST, **kwargs)


def test_valid_answer_is_parsed_and_recorded(openai_mode, org_project):
    openai_mode.script(Reply(ANSWER, prompt_tokens=321, completion_tokens=45))

    result = _call(project=org_project)

    assert isinstance(result.value, ExtractionResponse)
    assert result.value == ANSWER
    assert result.cached is False
    assert openai_mode.calls == 1

    sent = openai_mode.requests[0]
    assert sent["model"] == "scripted-model"
    assert sent["response_format"] == {"type": "json_object"}
    assert sent["temperature"] == 0
    messages = extraction.build_messages(REQUEST)
    assert sent["messages"] == messages

    call = LLMCall.objects.get()
    assert call == result.call
    assert call.operation == "extraction"
    assert call.engine == "openai"
    assert call.model == "scripted-model"
    assert call.prompt_hash == prompt_hash("extraction", messages)
    assert call.prompt == messages
    assert call.raw_output == ANSWER.model_dump_json()
    assert call.raw_output == openai_mode.responses[0][1]["choices"][0]["message"]["content"]
    assert call.parsed_ok is True
    assert call.error == ""
    assert (call.prompt_tokens, call.completion_tokens) == (321, 45)
    assert call.project == org_project
    assert call.latency_ms >= 0


def test_default_usage_tokens_are_recorded(openai_mode):
    openai_mode.script(ANSWER)

    call = _call().call

    usage = openai_mode.responses[0][1]["usage"]
    assert call.prompt_tokens == usage["prompt_tokens"] > 0
    assert call.completion_tokens == usage["completion_tokens"] > 0


def test_same_request_is_served_from_the_record_without_http(openai_mode):
    openai_mode.script(ANSWER)  # exactly one answer: a second HTTP call would hit "exhausted"
    first = _call()
    assert openai_mode.calls == 1

    again = _call()

    assert openai_mode.calls == 1
    assert again.cached is True
    assert again.call.pk == first.call.pk
    assert again.value == first.value
    assert LLMCall.objects.count() == 1


def test_a_different_prompt_is_not_served_from_the_record(openai_mode):
    openai_mode.script(ANSWER, ExtractionResponse())
    _call()

    other = call_llm(extraction.OPERATION, ExtractionRequest(text=TEXT, product="Other product"))

    assert other.cached is False
    assert other.value == ExtractionResponse()
    assert openai_mode.calls == 2
    assert LLMCall.objects.count() == 2


def test_the_record_is_per_model(openai_mode, settings):
    openai_mode.script(ANSWER, ExtractionResponse())
    _call()

    settings.LLM_MODEL = "another-model"
    other = _call()

    assert other.cached is False
    assert other.call.model == "another-model"
    assert openai_mode.requests[1]["model"] == "another-model"
    assert openai_mode.calls == 2


@pytest.mark.parametrize("status", [429, 500])
def test_transient_error_then_success_is_retried(openai_mode, status):
    openai_mode.script(Status(status), ANSWER)

    result = _call()

    assert result.value == ANSWER
    assert openai_mode.calls == 2
    assert [code for code, _ in openai_mode.responses] == [status, 200]
    assert openai_mode.requests[0] == openai_mode.requests[1]  # the same request, resent
    assert LLMCall.objects.count() == 1  # the failed attempt is not a recorded call


def test_retries_are_bounded_by_llm_max_retries(openai_mode):
    openai_mode.script(Status(429), Status(429), Status(429), ANSWER)

    with pytest.raises(openai.RateLimitError):
        _call()

    assert openai_mode.calls == 3  # 1 + LLM_MAX_RETRIES(2)
    assert openai_mode.remaining == 1
    assert LLMCall.objects.count() == 0


def test_broken_json_raises_and_is_recorded_as_not_parsed(openai_mode):
    broken = '{"nodes": [{"ref": "n1", "type": "pain"'
    openai_mode.script(broken)

    with pytest.raises(LLMOutputError) as caught:
        _call()

    call = LLMCall.objects.get()
    assert caught.value.call == call
    assert call.parsed_ok is False
    assert call.raw_output == broken
    assert "ExtractionResponse" in call.error
    assert call.model == "scripted-model"
    assert openai_mode.calls == 1


def test_valid_json_of_the_wrong_shape_is_an_output_error(openai_mode):
    openai_mode.script({"nodes": [{"ref": "n1"}]})  # type, label and quote missing

    with pytest.raises(LLMOutputError):
        _call()

    assert LLMCall.objects.get().parsed_ok is False


def test_a_recorded_broken_answer_replays_as_broken_without_http(openai_mode):
    openai_mode.script("not json at all")
    with pytest.raises(LLMOutputError):
        _call()

    with pytest.raises(LLMOutputError) as caught:
        _call()

    assert openai_mode.calls == 1
    assert caught.value.call.parsed_ok is False


def test_json_in_a_code_fence_is_accepted(openai_mode):
    openai_mode.script("```json\n" + ANSWER.model_dump_json() + "\n```")

    result = _call()

    assert result.value == ANSWER
    assert result.call.parsed_ok is True


def test_exhausted_script_fails_loudly(openai_mode):
    with pytest.raises(openai.InternalServerError, match=SCRIPT_EXHAUSTED):
        _call()

    assert openai_mode.calls == 1  # not retried
    assert LLMCall.objects.count() == 0


def test_offline_engine_answers_without_http_and_is_recorded(settings, llm_server):
    settings.LLM_ENGINE = "offline"
    settings.OPENAI_BASE_URL = llm_server.base_url  # would be reachable, must not be used
    settings.OPENAI_API_KEY = "test"

    result = _call()

    assert isinstance(result.value, ExtractionResponse)
    assert llm_server.calls == 0
    call = LLMCall.objects.get()
    assert call == result.call
    assert call.engine == "offline"
    assert call.model == OFFLINE_MODEL == "offline-rules-v1"
    assert call.operation == "extraction"
    assert call.parsed_ok is True
    assert ExtractionResponse.model_validate_json(call.raw_output) == result.value

    again = _call()
    assert again.cached is True
    assert again.call.pk == call.pk
    assert llm_server.calls == 0
