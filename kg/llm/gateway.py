"""call_llm: build the prompt, answer from the record if this exact prompt was seen, else call
the engine; validate into the operation's pydantic model; record everything.

Cached by (model, prompt hash): a replay (kg_rebuild) never pays twice and gets the same
answers, including the broken ones, so a rebuild reproduces the original graph.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import logging
import time
import uuid
from dataclasses import dataclass
from typing import Any, Generic

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from openai import APITimeoutError
from pydantic import BaseModel, ValidationError

from kg.llm.engines import (
    JsonSchemaFormat,
    OfflineEngine,
    OpenAIEngine,
    RawCompletion,
    current_engine,
)
from kg.llm.operation import LLMOperation, Messages, RequestT, ResponseT
from kg.models import Episode, LLMCall, Project

logger = logging.getLogger("groundwork.llm")


class LLMOutputError(ValueError):
    """The model's answer was not valid JSON for the operation's schema."""

    def __init__(self, message: str, call: LLMCall) -> None:
        super().__init__(message)
        self.call = call


@dataclass(frozen=True)
class LLMResult(Generic[ResponseT]):
    value: ResponseT
    call: LLMCall
    cached: bool


@dataclass(frozen=True)
class StructuredOperation(LLMOperation[RequestT, ResponseT]):
    """An operation whose answer shape also goes to the model as a strict JSON schema.

    schema_model may be stricter than response_model (enums where the response model keeps a
    plain str): the schema steers the model, while the answer is still parsed with the lenient
    response_model so that a value outside the enum reaches the caller's own checks, which say
    why it was rejected. Endpoints differ in how strictly they follow a schema.
    """

    schema_model: type[BaseModel] | None = None


def strict_json_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON schema in the form strict structured output accepts.

    Self-contained ($refs inlined: not every OpenAI-compatible server resolves them), every
    property required, no extra properties, no titles or defaults. Built once per model (pydantic
    takes milliseconds of CPU to generate it, on every call otherwise); each caller gets its own
    copy.
    """
    return copy.deepcopy(_strict_json_schema(model))


@functools.lru_cache(maxsize=64)
def _strict_json_schema(model: type[BaseModel]) -> dict[str, Any]:
    schema = model.model_json_schema()
    definitions = schema.pop("$defs", {})

    def strict(node: Any, seen: tuple[str, ...]) -> Any:
        if isinstance(node, list):
            return [strict(item, seen) for item in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[-1]
            if name in seen:
                raise ValueError(f"{model.__name__}: recursive schema {name} cannot be inlined")
            siblings = {k: v for k, v in node.items() if k != "$ref"}
            return strict({**definitions[name], **siblings}, (*seen, name))
        out = {
            key: (
                {name: strict(sub, seen) for name, sub in value.items()}  # names, not keywords
                if key == "properties"
                else strict(value, seen)
            )
            for key, value in node.items()
            if key not in ("title", "default")
        }
        if out.get("type") == "object" and "properties" in out:
            out["required"] = list(out["properties"])
            out["additionalProperties"] = False
        return out

    return strict(schema, ())


def response_schema(operation: LLMOperation) -> JsonSchemaFormat:
    """What call_llm asks the engine to constrain the answer to: the operation's schema model,
    else its response model. A small model left with bare JSON mode writes any JSON at all."""
    model = operation.response_model
    if isinstance(operation, StructuredOperation) and operation.schema_model is not None:
        model = operation.schema_model
    return JsonSchemaFormat(name=operation.name, schema=strict_json_schema(model))


# --- the answer's token cap -------------------------------------------------------------------

# Deliberately low (English prose runs ~4 characters a token): quotes, names and markup cost more.
CHARS_PER_TOKEN = 3
# An answer of fixed shape (a yes/no with a reason) does not grow with the request.
FIXED_ANSWER_TOKENS = 64
TOKENS_PER_TEXT_FIELD = 256
# An answer with lists (nodes, claims) grows with the request: its items quote it verbatim and
# put a label and some structure around each quote.
LIST_ANSWER_TOKENS = 512
LIST_ANSWER_TOKENS_PER_REQUEST_TOKEN = 3


def answer_token_cap(schema: dict[str, Any], messages: Messages) -> int:
    """max_tokens for one call: sized from the request and the answer's schema, never above
    LLM_MAX_OUTPUT_TOKENS. Only what the user side says counts: not the system prompt
    (instructions), and not an earlier answer sent back in a repair round — a rambling answer
    must not buy its retry a larger cap."""
    request_chars = sum(len(m.get("content") or "") for m in messages if m["role"] == "user")
    request_tokens = request_chars // CHARS_PER_TOKEN + 1
    kinds = [node.get("type") for node in _schema_nodes(schema)]
    if "array" in kinds:
        cap = LIST_ANSWER_TOKENS + LIST_ANSWER_TOKENS_PER_REQUEST_TOKEN * request_tokens
    else:
        cap = FIXED_ANSWER_TOKENS + TOKENS_PER_TEXT_FIELD * kinds.count("string")
    return min(cap, settings.LLM_MAX_OUTPUT_TOKENS)


def operation_token_cap(operation: LLMOperation, messages: Messages) -> int:
    return answer_token_cap(response_schema(operation).schema, messages)


def _schema_nodes(node: Any) -> Any:
    if isinstance(node, dict):
        if "type" in node:
            yield node
        for value in node.values():
            yield from _schema_nodes(value)
    elif isinstance(node, list):
        for value in node:
            yield from _schema_nodes(value)


def prompt_hash(operation: str, messages: Messages) -> str:
    payload = json.dumps({"operation": operation, "messages": messages}, sort_keys=True)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def _unfenced(text: str) -> str:
    cleaned = text.strip()
    if cleaned.startswith("```"):  # some endpoints wrap JSON in a fence despite JSON mode
        cleaned = cleaned.strip("`").removeprefix("json").strip()
    return cleaned


def _parse(operation: LLMOperation, text: str) -> BaseModel:
    return operation.response_model.model_validate_json(_unfenced(text))


def _without_fields(operation: LLMOperation, text: str) -> list[str]:
    """The answer's fields when the answer, a JSON object, has none of them (`{}` above all);
    else nothing. Such an answer validates when every field has a default (an extraction's
    lists do) and would pass for "nothing found", though the schema asked for every field."""
    fields = list(operation.response_model.model_fields)
    try:
        answer = json.loads(_unfenced(text))
    except ValueError:
        return []
    if not fields or not isinstance(answer, dict) or set(answer) & set(fields):
        return []
    return fields


def call_llm(
    operation: LLMOperation,
    request: BaseModel,
    *,
    project: Project | None = None,
    episode: Episode | None = None,
    extra_messages: Messages | None = None,
    engine: OpenAIEngine | OfflineEngine | None = None,
) -> LLMResult:
    engine = engine or current_engine()
    messages = operation.build_messages(request) + list(extra_messages or [])
    digest = prompt_hash(operation.name, messages)

    if isinstance(engine, OfflineEngine):
        # The rules' answer is the same every time: computed first, then recorded unless it
        # was already, in one statement (no lookup before, no transaction of its own).
        started = time.monotonic()
        answer = operation.offline_answer(request)
        raw = RawCompletion(
            text=answer.model_dump_json(), latency_ms=int((time.monotonic() - started) * 1000)
        )
        call, cached = _record_once(
            _new_call(operation, engine, digest, messages, raw, project, episode)
        )
    else:
        call = LLMCall.objects.filter(model=engine.model, prompt_hash=digest).first()
        cached = call is not None
        if call is None:
            schema = response_schema(operation)
            started = time.monotonic()
            try:
                raw = engine.complete(
                    messages,
                    json_schema=schema,
                    max_tokens=answer_token_cap(schema.schema, messages),
                )
            except APITimeoutError:
                _record_timeout(operation, engine, digest, messages, started, project, episode)
                raise
            call = _record(_new_call(operation, engine, digest, messages, raw, project, episode))

    if not call.parsed_ok:
        raise LLMOutputError(call.error, call)
    return LLMResult(value=_parse(operation, call.raw_output), call=call, cached=cached)


# Why an answer was rejected: the first words of LLMCall.error, counted by the admin's audit.
CUT_AT_TOKEN_CAP = "cut off at the token cap"  # noqa: S105 (not a secret)
NOT_JSON = "not JSON"
WRONG_SHAPE = "wrong shape"
EMPTY_OBJECT = "empty object"  # a JSON object with none of the answer's fields, such as {}
TIMED_OUT = "timed out"  # no answer came: recorded so that the audit counts it too


def answer_problem(operation: LLMOperation, raw: RawCompletion) -> str:
    """Empty when the answer parses; else '<reason>: <details>' with one of the reasons above."""
    empty = _without_fields(operation, raw.text)
    if empty:
        return (
            f"{EMPTY_OBJECT}: the answer has none of the fields {', '.join(empty)} "
            f"of {operation.response_model.__name__}: {raw.text.strip()[:200]}"
        )
    try:
        _parse(operation, raw.text)
        return ""
    except ValidationError as exc:
        problem: Exception = exc
        not_json = any(e["type"] == "json_invalid" for e in exc.errors())
    except ValueError as exc:
        problem, not_json = exc, True
    details = f"answer is not valid {operation.response_model.__name__} JSON: {problem}"
    if raw.finish_reason == "length":
        reason = f"{CUT_AT_TOKEN_CAP} ({raw.max_tokens or '?'} tokens)"
    else:
        reason = NOT_JSON if not_json else WRONG_SHAPE
    return f"{reason}: {details}"[:2000]


def rejection_reason(error: str) -> str:
    """The reason an LLMCall.error starts with, without its details (counts by reason)."""
    head = error.split(":", 1)[0].strip()
    return head.split(" (", 1)[0] if head.startswith(CUT_AT_TOKEN_CAP) else head


BROKEN_JSON_REPAIR = (
    "Your answer was not a valid JSON object of the requested shape ({error}). "
    "Answer again with only that JSON object."
)


def call_llm_repairing_json(
    operation: LLMOperation,
    request: BaseModel,
    *,
    calls: list[LLMCall] | None = None,
    extra_messages: Messages | None = None,
    **kwargs,
) -> LLMResult:
    """call_llm, but a broken answer is sent back once with its parse error.

    Every call made is appended to `calls`; a second broken answer raises LLMOutputError.
    """
    made = calls if calls is not None else []
    extra = list(extra_messages or [])
    try:
        result = call_llm(operation, request, extra_messages=extra, **kwargs)
    except LLMOutputError as first:
        made.append(first.call)
        repair = extra + [
            {"role": "assistant", "content": first.call.raw_output},
            {"role": "user", "content": BROKEN_JSON_REPAIR.format(error=first.call.error[:300])},
        ]
        try:
            result = call_llm(operation, request, extra_messages=repair, **kwargs)
        except LLMOutputError as second:
            made.append(second.call)
            raise
    made.append(result.call)
    return result


def _new_call(
    operation: LLMOperation,
    engine: OpenAIEngine | OfflineEngine,
    digest: str,
    messages: Messages,
    raw: RawCompletion,
    project: Project | None,
    episode: Episode | None,
) -> LLMCall:
    """The record of a call, not saved yet."""
    error = answer_problem(operation, raw)
    return LLMCall(
        operation=operation.name,
        engine=engine.name,
        model=engine.model,
        prompt_hash=digest,
        prompt=messages,
        raw_output=raw.text,
        parsed_ok=not error,
        error=error,
        prompt_tokens=raw.prompt_tokens,
        completion_tokens=raw.completion_tokens,
        latency_ms=raw.latency_ms,
        project=project,
        episode=episode,
    )


def _record_timeout(
    operation: LLMOperation,
    engine: OpenAIEngine,
    digest: str,
    messages: Messages,
    started: float,
    project: Project | None,
    episode: Episode | None,
) -> None:
    """A call that got no answer in time, recorded as a rejected one so that the audit counts
    it by reason. Its key is the prompt's hash made unique: it is never served as the
    prompt's answer, and the prompt is asked again when its task is retried."""
    attempts = settings.LLM_MAX_RETRIES + 1
    key = hashlib.sha256(f"{digest}|{TIMED_OUT}|{uuid.uuid4().hex}".encode()).hexdigest()
    _record(
        LLMCall(
            operation=operation.name,
            engine=engine.name,
            model=engine.model,
            prompt_hash=key,
            prompt=messages,
            raw_output="",
            parsed_ok=False,
            error=(
                f"{TIMED_OUT}: no answer in {attempts} attempt(s), the first given "
                f"{settings.LLM_TIMEOUT_SECONDS}s (LLM_TIMEOUT_SECONDS)"
            ),
            latency_ms=int((time.monotonic() - started) * 1000),
            project=project,
            episode=episode,
        )
    )


def _record_once(call: LLMCall) -> tuple[LLMCall, bool]:
    """The call recorded unless its prompt was already, in one statement that a parallel
    worker's record of the same prompt cannot fail: (the row, whether it was recorded before).
    """
    fields = [f for f in LLMCall._meta.concrete_fields if not f.primary_key]
    values = [f.get_db_prep_save(f.pre_save(call, add=True), connection) for f in fields]
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {quote(LLMCall._meta.db_table)} "  # noqa: S608 (names from the model)
            f"({', '.join(quote(f.column) for f in fields)}) "
            f"VALUES ({', '.join(['%s'] * len(fields))}) "
            f"ON CONFLICT ({quote('model')}, {quote('prompt_hash')}) DO NOTHING "
            f"RETURNING {quote(LLMCall._meta.pk.column)}",
            values,
        )
        row = cursor.fetchone()
    if row is None:
        return LLMCall.objects.get(model=call.model, prompt_hash=call.prompt_hash), True
    call.pk = row[0]
    call._state.adding = False
    call._state.db = connection.alias
    return call, False


def _record(call: LLMCall) -> LLMCall:
    try:
        with transaction.atomic():
            call.save(force_insert=True)
            return call
    except IntegrityError:  # a parallel worker recorded the same prompt first: use theirs
        return LLMCall.objects.get(model=call.model, prompt_hash=call.prompt_hash)
