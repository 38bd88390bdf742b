"""The openai engine against servers that behave like local ones: the structured-output dialect
each takes, the token cap, retries under a slow single-slot server, the per-endpoint limit.

The real openai client talks to the scripted server, set to behave like the kind of server
under test (tests/fixtures/llm_server.py)."""

from __future__ import annotations

import threading
import time

import openai
import pytest

from kg.llm import LLMOutputError, call_llm, call_llm_repairing_json, endpoint
from kg.llm.engines import JSON_END_STOPS, PROBE_MAX_TOKENS, OpenAIEngine, close_cut_object
from kg.llm.gateway import (
    CUT_AT_TOKEN_CAP,
    answer_token_cap,
    operation_token_cap,
    rejection_reason,
    response_schema,
    strict_json_schema,
)
from kg.llm.prompts import extraction, resolution
from kg.llm.prompts.extraction_models import CandidateNode, ExtractionRequest, ExtractionResponse
from kg.models import LLMCall
from kg.operations.embedded import free_port
from tests.fixtures.llm_server import Reply, Status, request_dialect

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
PROBE_ANSWER = {"ok": True}
SCHEMA = strict_json_schema(extraction.ExtractionSchema)
LLAMA_CPP = frozenset({"json_object+schema", "json_object"})


def _extract(text: str = TEXT):
    return call_llm(extraction.OPERATION, ExtractionRequest(text=text, product="Couriers app"))


def _dialects(server) -> list[str]:
    return [request_dialect(body) for body in server.requests]


# --- structured-output dialects ---------------------------------------------------------------


def test_auto_finds_json_schema_once_and_remembers_it(openai_mode, settings):
    settings.LLM_STRUCTURED_OUTPUT = "auto"
    openai_mode.script(PROBE_ANSWER, ANSWER, ExtractionResponse())

    assert _extract().value == ANSWER
    _extract("Another message.")

    assert _dialects(openai_mode) == ["json_schema"] * 3  # one probe, then two calls
    probe = openai_mode.requests[0]
    assert probe["max_tokens"] == PROBE_MAX_TOKENS
    assert probe["response_format"]["json_schema"]["name"] == "probe"
    assert openai_mode.requests[1]["response_format"]["json_schema"]["schema"] == SCHEMA
    assert LLMCall.objects.count() == 2  # the probe is not an operation's call


def test_auto_speaks_json_object_with_a_schema_to_a_llama_cpp_server(
    openai_mode, settings, embedded_server
):
    settings.LLM_STRUCTURED_OUTPUT = "auto"
    openai_mode.accepts, openai_mode.refusal_status = LLAMA_CPP, 500
    openai_mode.script(PROBE_ANSWER, ANSWER)

    result = _extract()

    assert result.value == ANSWER
    # json_schema refused with a 500, not retried; the schema goes beside json_object instead.
    assert _dialects(openai_mode) == ["json_schema", "json_object+schema", "json_object+schema"]
    assert [code for code, _ in openai_mode.responses] == [500, 200, 200]
    assert openai_mode.requests[2]["response_format"] == {"type": "json_object", "schema": SCHEMA}
    assert "stop" not in openai_mode.requests[2]  # the schema's grammar ends the answer

    # Another worker (another process) finds the answer in Redis without asking again.
    endpoint._process_probes.clear()
    remembered = OpenAIEngine().remembered_probe()
    assert remembered is not None and remembered.answered and remembered.dialect == "json_object"
    openai_mode.script(ExtractionResponse())
    _extract("A second message.")
    assert _dialects(openai_mode)[3:] == ["json_object+schema"]


def test_auto_falls_back_to_plain_json_mode_with_a_stop(openai_mode, settings):
    settings.LLM_STRUCTURED_OUTPUT = "auto"
    openai_mode.accepts = frozenset({"json_object"})
    # The stop "}\n\n" ended the answer and took its closing brace with it.
    cut_by_stop = ANSWER.model_dump_json()[:-1]
    openai_mode.script(PROBE_ANSWER, cut_by_stop)

    result = _extract()

    assert result.value == ANSWER
    assert result.call.raw_output == ANSWER.model_dump_json()
    assert _dialects(openai_mode) == [
        "json_schema",
        "json_object+schema",
        "json_object",
        "json_object",
    ]
    sent = openai_mode.requests[3]
    assert sent["response_format"] == {"type": "json_object"}
    assert sent["stop"] == JSON_END_STOPS


def test_plain_json_mode_answers_are_validated_and_repaired(openai_mode, settings):
    settings.LLM_STRUCTURED_OUTPUT = "none"
    chatter = "Sure! Here are the nodes: nodes=[pain]"
    openai_mode.script(chatter, ANSWER)
    calls: list[LLMCall] = []

    result = call_llm_repairing_json(extraction.OPERATION, REQUEST, calls=calls)

    assert result.value == ANSWER
    assert [c.parsed_ok for c in calls] == [False, True]
    assert rejection_reason(calls[0].error) == "not JSON"
    assert _dialects(openai_mode) == ["json_object", "json_object"]  # no probe with a setting
    assert openai_mode.requests[1]["messages"][-2]["content"] == chatter


def test_a_wrong_shape_is_told_apart_from_broken_json(openai_mode):
    openai_mode.script({"nodes": [{"ref": "n1"}]})

    with pytest.raises(LLMOutputError):
        _extract()

    assert rejection_reason(LLMCall.objects.get().error) == "wrong shape"


@pytest.mark.parametrize(
    ("setting", "expected"),
    [
        ("json_schema", "json_schema"),
        ("json_object", "json_object+schema"),
        ("none", "json_object"),
    ],
)
def test_an_explicit_setting_is_used_without_a_probe(openai_mode, settings, setting, expected):
    settings.LLM_STRUCTURED_OUTPUT = setting
    openai_mode.script(ANSWER)

    assert _extract().value == ANSWER
    assert _dialects(openai_mode) == [expected]


def test_an_endpoint_that_refuses_every_format_is_reported_by_the_probe(openai_mode, settings):
    settings.LLM_STRUCTURED_OUTPUT = "auto"
    openai_mode.accepts = frozenset()

    probe = OpenAIEngine().probe()

    assert probe.answered is False
    assert "refused every response format" in probe.detail
    assert openai_mode.calls == 3


def test_a_server_that_is_down_did_not_answer_its_probe(openai_mode, settings):
    settings.LLM_STRUCTURED_OUTPUT = "auto"
    settings.OPENAI_BASE_URL = f"http://127.0.0.1:{free_port()}/v1"

    probe = OpenAIEngine().probe(timeout=2)

    assert probe.answered is False
    assert "APIConnectionError" in probe.detail


# --- the token cap --------------------------------------------------------------------------------


def test_every_call_carries_a_cap_sized_from_its_request(openai_mode):
    openai_mode.script(ANSWER, ExtractionResponse())

    _extract()
    _extract(" ".join([TEXT] * 20))

    short_cap, long_cap = (body["max_tokens"] for body in openai_mode.requests)
    messages = extraction.build_messages(REQUEST)
    assert short_cap == operation_token_cap(extraction.OPERATION, messages)
    assert long_cap > short_cap + 1000  # the answer quotes the request: it grows with it


def test_a_fixed_shape_answer_has_a_small_cap(openai_mode):
    openai_mode.script({"same": True, "reason": "same thing"})
    request = resolution.ResolutionRequest(
        node_type="pain", mention="slow app", mention_quote="slow app", existing_label="app lags"
    )

    call_llm(resolution.OPERATION, request)

    cap = openai_mode.requests[0]["max_tokens"]
    assert cap == answer_token_cap(response_schema(resolution.OPERATION).schema, [])
    assert cap < 400  # one bool and one short reason, whatever the request's size


def test_the_cap_never_exceeds_the_ceiling(settings):
    settings.LLM_MAX_OUTPUT_TOKENS = 300
    huge = [{"role": "user", "content": "word " * 50_000}]

    assert answer_token_cap(SCHEMA, huge) == 300


def test_an_answer_cut_at_the_cap_is_recorded_as_such(openai_mode, settings):
    settings.LLM_MAX_OUTPUT_TOKENS = 64
    many = ExtractionResponse(nodes=[ANSWER.nodes[0]] * 20)  # far longer than 64 tokens
    openai_mode.script(many)

    with pytest.raises(LLMOutputError):
        _extract()

    call = LLMCall.objects.get()
    assert openai_mode.requests[0]["max_tokens"] == 64
    assert call.completion_tokens == 64
    assert call.error.startswith(f"{CUT_AT_TOKEN_CAP} (64 tokens): ")
    assert rejection_reason(call.error) == CUT_AT_TOKEN_CAP


def test_close_cut_object_puts_back_only_a_missing_outer_brace():
    assert close_cut_object('{"a": {"b": 1}') == '{"a": {"b": 1}}'
    assert close_cut_object('{"a": "}"') == '{"a": "}"}'
    assert close_cut_object('{"a": 1}') == '{"a": 1}'
    assert close_cut_object('{"a": [1, 2') == '{"a": [1, 2'  # cut inside a list: left broken
    assert close_cut_object('{"a": "unfinished') == '{"a": "unfinished'
    assert close_cut_object("no json") == "no json"


# --- retries under a slow server, the per-endpoint limit ---------------------------------------


def test_a_timed_out_call_is_retried_behind_the_answer_still_in_progress(openai_mode, settings):
    settings.LLM_TIMEOUT_SECONDS = 1
    settings.LLM_MAX_RETRIES = 1
    openai_mode.single_slot = True  # like llama.cpp: the abandoned answer keeps the slot
    openai_mode.script(Reply(ANSWER, delay=1.8), ANSWER)

    result = _extract()

    assert result.value == ANSWER
    assert openai_mode.calls == 2
    first, second = openai_mode.arrivals
    assert second - first >= 1.0  # sent after the first timed out, not at once
    assert openai_mode.requests[0] == openai_mode.requests[1]
    # The retry waited in the server's queue behind the abandoned answer (1.8 s) and still
    # finished: its timeout grew by the abandoned call's time.
    assert LLMCall.objects.get().parsed_ok is True


def test_retries_stop_after_llm_max_retries_when_the_server_stays_slow(openai_mode, settings):
    settings.LLM_TIMEOUT_SECONDS = 1
    settings.LLM_MAX_RETRIES = 1
    openai_mode.single_slot = True
    openai_mode.script(Reply(ANSWER, delay=2.5), Reply(ANSWER, delay=2.5))

    with pytest.raises(openai.APITimeoutError):
        _extract()

    assert openai_mode.calls == 2  # one resend, never a pile of them
    (call,) = LLMCall.objects.all()  # recorded for the audit, never served as the answer
    assert (call.parsed_ok, rejection_reason(call.error)) == (False, "timed out")


def _complete_in_threads(count: int) -> list[Exception]:
    engine = OpenAIEngine()
    schema = response_schema(extraction.OPERATION)
    messages = extraction.build_messages(REQUEST)
    errors: list[Exception] = []

    def call() -> None:
        try:
            engine.complete(messages, json_schema=schema, max_tokens=500)
        except Exception as exc:  # collected: a thread's failure must fail the test
            errors.append(exc)

    threads = [threading.Thread(target=call) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return errors


@pytest.mark.parametrize("limit", [1, 3])
def test_calls_in_flight_per_endpoint_are_limited(openai_mode, settings, embedded_server, limit):
    settings.LLM_MAX_CONCURRENCY = limit
    openai_mode.script(*[Reply(ANSWER, delay=0.4) for _ in range(4)])
    started = time.monotonic()

    assert _complete_in_threads(4) == []

    assert openai_mode.calls == 4
    if limit == 1:
        assert openai_mode.max_in_flight == 1
        assert time.monotonic() - started >= 1.6  # four 0.4 s answers one after the other
    else:
        assert 2 <= openai_mode.max_in_flight <= 3


def test_without_redis_the_limit_holds_per_process(openai_mode, settings):
    settings.LOCK_REDIS_URL = f"redis://127.0.0.1:{free_port()}/2"
    settings.LLM_MAX_CONCURRENCY = 1
    openai_mode.script(*[Reply(ANSWER, delay=0.3) for _ in range(3)])

    assert _complete_in_threads(3) == []

    assert openai_mode.calls == 3
    assert openai_mode.max_in_flight == 1


def test_a_repair_round_gets_the_cap_of_the_request_not_of_the_failed_answer():
    request = [
        {"role": "system", "content": "instructions " * 500},
        {"role": "user", "content": "The app lags on weak internet."},
    ]
    repair = [
        *request,
        {"role": "assistant", "content": '{"nodes": [' + "x" * 12000},
        {"role": "user", "content": "That was not valid JSON; answer again."},
    ]
    first, again = answer_token_cap(SCHEMA, request), answer_token_cap(SCHEMA, repair)
    assert again < first + 50  # the rambling answer sent back buys no larger cap


# --- an explicit dialect the endpoint refuses --------------------------------------------------


def test_an_explicit_dialect_refused_with_a_500_falls_back_as_auto_does(
    openai_mode, settings, embedded_server
):
    # llama-cpp-python's server answers 500 to json_schema however often it is asked: after
    # the bounded resends the endpoint is probed from the set dialect on, not left to the
    # pipeline's retries of a "transient" error for half an hour.
    settings.LLM_STRUCTURED_OUTPUT = "json_schema"
    openai_mode.accepts, openai_mode.refusal_status = LLAMA_CPP, 500
    openai_mode.script(PROBE_ANSWER, ANSWER, ExtractionResponse())

    result = _extract()

    assert result.value == ANSWER
    resends = settings.LLM_MAX_RETRIES + 1
    assert _dialects(openai_mode) == ["json_schema"] * (resends + 1) + ["json_object+schema"] * 2
    assert openai_mode.requests[resends]["max_tokens"] == PROBE_MAX_TOKENS  # the probe
    assert openai_mode.requests[-1]["response_format"] == {"type": "json_object", "schema": SCHEMA}

    # Remembered: the next call (in another process too) goes in the dialect the probe found.
    endpoint._process_probes.clear()
    assert OpenAIEngine().dialect() == "json_object"
    _extract("A second message.")
    assert _dialects(openai_mode)[resends + 3 :] == ["json_object+schema"]


def test_an_explicit_dialect_refused_with_a_404_is_probed_at_once(openai_mode, settings):
    settings.LLM_STRUCTURED_OUTPUT = "json_object"
    openai_mode.accepts, openai_mode.refusal_status = frozenset({"json_object"}), 404
    openai_mode.script(PROBE_ANSWER, ANSWER)

    assert _extract().value == ANSWER

    # 404 is not resent; the probe goes on from json_object to plain JSON mode.
    assert _dialects(openai_mode) == ["json_object+schema"] * 2 + ["json_object"] * 2
    assert openai_mode.requests[-1]["stop"] == JSON_END_STOPS


def test_a_500_the_probe_does_not_confirm_sends_that_request_in_json_mode(openai_mode, settings):
    # The endpoint takes the dialect (its probe is answered) but keeps failing this request:
    # that one request goes in plain JSON mode and is checked the same way.
    settings.LLM_STRUCTURED_OUTPUT = "json_schema"
    settings.LLM_MAX_RETRIES = 1
    openai_mode.script(Status(500), Status(500), PROBE_ANSWER, ANSWER)

    assert _extract().value == ANSWER

    assert [code for code, _ in openai_mode.responses] == [500, 500, 200, 200]
    assert _dialects(openai_mode) == ["json_schema"] * 3 + ["json_object"]
    assert OpenAIEngine().dialect() == "json_schema"  # still the set one for later calls


def test_a_500_whose_probe_is_not_answered_raises_the_calls_own_error(openai_mode, settings):
    # Too busy to answer even the probe: the call fails as a transient failure, retried later.
    settings.LLM_STRUCTURED_OUTPUT = "json_schema"
    settings.LLM_MAX_RETRIES = 0
    settings.LLM_TIMEOUT_SECONDS = 1
    openai_mode.script(Status(500, "overloaded"), Reply(PROBE_ANSWER, delay=1.5))

    with pytest.raises(openai.InternalServerError, match="overloaded"):
        _extract()

    assert openai_mode.calls == 2  # the call and the unanswered probe, nothing more
    assert LLMCall.objects.count() == 0
    probe = OpenAIEngine().remembered_probe()
    assert probe is not None and not probe.answered
    assert OpenAIEngine().dialect() == "json_schema"  # an unanswered probe changes nothing
