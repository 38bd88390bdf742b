"""The gateway with the real openai client against the scripted server, recorded in SQL."""

from __future__ import annotations

import openai
import pytest
from pydantic import BaseModel, Field

from kg.llm import LLMOutputError, call_llm, call_llm_repairing_json
from kg.llm.engines import OFFLINE_MODEL
from kg.llm.gateway import (
    EMPTY_OBJECT,
    TIMED_OUT,
    prompt_hash,
    rejection_reason,
    strict_json_schema,
)
from kg.llm.offline.ahead import rules_version
from kg.llm.prompts import extraction, resolution
from kg.llm.prompts.extraction_models import CandidateNode, ExtractionRequest, ExtractionResponse
from kg.models import LLMCall
from kg.ontology import NodeType
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
    assert sent["response_format"] == {
        "type": "json_schema",
        "json_schema": {
            "name": "extraction",
            "schema": strict_json_schema(extraction.ExtractionSchema),
            "strict": True,
        },
    }
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


@pytest.mark.parametrize("empty", ["{}", '```json\n{"answer": "none"}\n```'])
def test_an_object_without_any_of_the_fields_is_rejected_not_an_empty_extraction(
    openai_mode, empty
):
    # ExtractionResponse's lists have defaults, so {} validates: taken as it is, it would pass
    # for "nothing found" in the message.
    assert ExtractionResponse.model_validate_json("{}") == ExtractionResponse()
    openai_mode.script(empty)

    with pytest.raises(LLMOutputError, match="^empty object: "):
        _call()

    call = LLMCall.objects.get()
    assert call.parsed_ok is False
    assert rejection_reason(call.error) == EMPTY_OBJECT
    assert "nodes, relations" in call.error


def test_an_answer_with_some_of_the_fields_is_taken(openai_mode):
    openai_mode.script({"nodes": []})  # nothing found, said in the schema's words

    result = _call()

    assert result.value == ExtractionResponse()
    assert result.call.parsed_ok is True


def test_an_empty_object_is_sent_back_for_repair_like_broken_json(openai_mode):
    openai_mode.script({}, ANSWER)
    calls: list[LLMCall] = []

    result = call_llm_repairing_json(extraction.OPERATION, REQUEST, calls=calls)

    assert result.value == ANSWER
    assert [rejection_reason(c.error) for c in calls] == [EMPTY_OBJECT, ""]
    assert "empty object" in openai_mode.requests[1]["messages"][-1]["content"]


def test_a_timed_out_call_is_recorded_for_the_audit_and_asked_again_later(
    openai_mode, settings, org_project
):
    settings.LLM_TIMEOUT_SECONDS = 1
    settings.LLM_MAX_RETRIES = 0
    openai_mode.script(Reply(ANSWER, delay=1.5), ANSWER)

    with pytest.raises(openai.APITimeoutError):
        _call(project=org_project)

    timed_out = LLMCall.objects.get()
    assert (timed_out.parsed_ok, rejection_reason(timed_out.error)) == (False, TIMED_OUT)
    assert timed_out.raw_output == "" and timed_out.project == org_project
    assert timed_out.operation == "extraction" and timed_out.latency_ms >= 1000
    messages = extraction.build_messages(REQUEST)
    assert timed_out.prompt == messages
    assert timed_out.prompt_hash != prompt_hash("extraction", messages)

    again = _call(project=org_project)  # a task's retry: asked again, not served the timeout

    assert again.cached is False and again.value == ANSWER
    assert openai_mode.calls == 2
    assert LLMCall.objects.count() == 2


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


def test_an_answer_recorded_by_other_rules_is_not_taken_for_theirs(settings, llm_server):
    """The same prompt answered by an older version of the rules: today's rules answer it (a
    text imported again after the rules improved gets the improved answer); under the same
    rules the recorded answer is replayed."""
    settings.LLM_ENGINE = "offline"
    messages = extraction.OPERATION.build_messages(REQUEST)
    stale = LLMCall.objects.create(
        operation="extraction",
        engine="offline",
        model="offline-rules-older",
        prompt_hash=prompt_hash(extraction.OPERATION.name, messages),
        prompt=messages,
        raw_output=ExtractionResponse().model_dump_json(),
        parsed_ok=True,
    )

    first = _call()
    again = _call()

    # the rules' model is named by their version: rules changed are another model
    assert f"offline-rules-{rules_version()}" == OFFLINE_MODEL
    assert first.call != stale and first.call.model == OFFLINE_MODEL
    assert first.value.nodes and first.value != ExtractionResponse()
    assert again.cached is True and again.call == first.call


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
    assert call.model == OFFLINE_MODEL and OFFLINE_MODEL.startswith("offline-rules-")
    assert call.operation == "extraction"
    assert call.parsed_ok is True
    assert ExtractionResponse.model_validate_json(call.raw_output) == result.value

    again = _call()
    assert again.cached is True
    assert again.call.pk == call.pk
    assert llm_server.calls == 0


def test_a_recorded_offline_answer_is_replayed_even_where_the_rules_now_answer_otherwise(
    settings,
):
    settings.LLM_ENGINE = "offline"
    first = _call()
    recorded = ExtractionResponse(nodes=[], relations=[])
    assert first.value != recorded  # the rules find something in the message
    LLMCall.objects.filter(pk=first.call.pk).update(raw_output=recorded.model_dump_json())

    again = _call()

    assert again.cached is True
    assert again.value == recorded
    assert LLMCall.objects.count() == 1


# --- how the answer's shape is sent -----------------------------------------------------------


def test_an_operation_without_a_schema_model_is_held_to_its_response_model(openai_mode):
    openai_mode.script({"same": True, "reason": "same"})
    request = resolution.ResolutionRequest(
        node_type="pain", mention="slow app", mention_quote="slow app", existing_label="app lags"
    )

    call_llm(resolution.OPERATION, request)

    sent = openai_mode.requests[0]["response_format"]
    assert sent["type"] == "json_schema"
    assert sent["json_schema"]["schema"] == strict_json_schema(resolution.ResolutionResponse)


def test_endpoint_refusing_json_schema_is_asked_again_in_json_mode(openai_mode, caplog):
    openai_mode.script(Status(400, "response_format json_schema is not supported"), ANSWER)

    result = _call()

    assert result.value == ANSWER
    assert [code for code, _ in openai_mode.responses] == [400, 200]
    first, second = openai_mode.requests
    assert first["response_format"]["type"] == "json_schema"
    assert second["response_format"] == {"type": "json_object"}
    assert second["messages"] == first["messages"]
    assert LLMCall.objects.get().parsed_ok is True
    assert "refused response_format json_schema" in caplog.text


def test_a_request_refused_in_json_mode_too_raises(openai_mode):
    openai_mode.script(Status(400, "context too long"), Status(400, "context too long"), ANSWER)

    with pytest.raises(openai.BadRequestError, match="context too long"):
        _call()

    assert openai_mode.calls == 2  # no loop: one fallback, then the error
    assert LLMCall.objects.count() == 0


def test_an_answer_outside_the_schema_enums_still_parses_for_the_write_time_checks(openai_mode):
    # The schema is a hint: an endpoint may not enforce it. The lenient response model lets the
    # value through so that kg.pipeline.extract can reject it with a reason.
    answer = {"nodes": [{"ref": "n1", "type": "person", "label": "x", "quote": "x"}]}
    openai_mode.script(answer)

    result = _call()

    assert result.call.parsed_ok is True
    assert result.value.nodes[0].type == "person"


class _Inner(BaseModel):
    kind: NodeType
    note: str = "a default"
    title: str  # a property may be called like a schema keyword


class _Outer(BaseModel):
    """Top."""

    items: list[_Inner]
    first: _Inner = Field(description="the first one")
    count: int = 0


def _walk(node):
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


def test_strict_json_schema_is_self_contained_and_strict():
    schema = strict_json_schema(_Outer)

    objects = [n for n in _walk(schema) if n.get("type") == "object"]
    assert len(objects) == 3  # the outer model and both inlined inner ones
    for obj in objects:
        assert obj["required"] == list(obj["properties"])
        assert obj["additionalProperties"] is False
    for node in _walk(schema):
        assert not {"$ref", "$defs", "default"} & set(node)
        assert "title" not in node or isinstance(node["title"], dict)  # only the property
    assert schema["properties"]["items"]["items"]["properties"]["kind"]["enum"] == [
        t.value for t in NodeType
    ]
    # A description next to a reference survives the inlining.
    assert schema["properties"]["first"]["description"] == "the first one"
    assert schema["properties"]["first"]["properties"]["note"] == {"type": "string"}
    assert schema["properties"]["first"]["properties"]["title"] == {"type": "string"}
    assert schema["properties"]["first"]["required"] == ["kind", "note", "title"]


class _Tree(BaseModel):
    children: list[_Tree] = Field(default_factory=list)


def test_strict_json_schema_refuses_a_recursive_model():
    with pytest.raises(ValueError, match="recursive schema"):
        strict_json_schema(_Tree)


def test_the_engine_is_built_once_per_process_and_configuration(openai_mode, settings, monkeypatch):
    # Building a client loads the certificate store: a chat message asks for the engine
    # three times, and a worker for every message.
    from kg.llm import engines

    first = engines.current_engine()
    assert engines.current_engine() is first
    settings.LLM_MODEL = "another-model"
    other = engines.current_engine()
    assert other is not first and other.model == "another-model"
    settings.LLM_MODEL = first.model
    assert engines.current_engine() is first
    # A forked process never uses its parent's client (its connections are the parent's).
    pid = engines.os.getpid()
    monkeypatch.setattr(engines.os, "getpid", lambda: pid + 1)
    assert engines.current_engine() is not first
    settings.LLM_ENGINE = "offline"
    assert engines.current_engine().name == "offline"


def test_the_strict_schema_is_built_once_and_each_caller_gets_its_own_copy():
    first = strict_json_schema(_Outer)
    first["properties"].clear()  # a caller changing its copy changes no one else's
    second = strict_json_schema(_Outer)
    assert second["properties"] and second == strict_json_schema(_Outer)
    assert second is not strict_json_schema(_Outer)
