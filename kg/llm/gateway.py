"""call_llm: build the prompt, answer from the record if this exact prompt was seen, else call
the engine; validate into the operation's pydantic model; record everything.

Cached by (model, prompt hash): a replay (kg_rebuild) never pays twice and gets the same
answers, including the broken ones, so a rebuild reproduces the original graph.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from dataclasses import dataclass
from typing import Any, Generic

from django.db import IntegrityError, transaction
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
    property required, no extra properties, no titles or defaults.
    """
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


def response_schema(operation: LLMOperation) -> JsonSchemaFormat | None:
    """What call_llm asks the engine to constrain the answer to; None means JSON mode."""
    if isinstance(operation, StructuredOperation) and operation.schema_model is not None:
        return JsonSchemaFormat(
            name=operation.name, schema=strict_json_schema(operation.schema_model)
        )
    return None


def prompt_hash(operation: str, messages: Messages) -> str:
    payload = json.dumps({"operation": operation, "messages": messages}, sort_keys=True)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def _parse(operation: LLMOperation, text: str) -> BaseModel:
    cleaned = text.strip()
    if cleaned.startswith("```"):  # some endpoints wrap JSON in a fence despite JSON mode
        cleaned = cleaned.strip("`").removeprefix("json").strip()
    return operation.response_model.model_validate_json(cleaned)


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

    call = LLMCall.objects.filter(model=engine.model, prompt_hash=digest).first()
    cached = call is not None
    if call is None:
        if isinstance(engine, OfflineEngine):
            started = time.monotonic()
            answer = operation.offline_answer(request)
            raw = RawCompletion(
                text=answer.model_dump_json(),
                latency_ms=int((time.monotonic() - started) * 1000),
            )
        else:
            raw = engine.complete(messages, json_schema=response_schema(operation))
        call = _record(operation, engine, digest, messages, raw, project, episode)

    if not call.parsed_ok:
        raise LLMOutputError(call.error, call)
    return LLMResult(value=_parse(operation, call.raw_output), call=call, cached=cached)


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


def _record(
    operation: LLMOperation,
    engine: OpenAIEngine | OfflineEngine,
    digest: str,
    messages: Messages,
    raw: RawCompletion,
    project: Project | None,
    episode: Episode | None,
) -> LLMCall:
    error = ""
    try:
        _parse(operation, raw.text)
    except (ValidationError, ValueError) as exc:
        error = f"answer is not valid {operation.response_model.__name__} JSON: {exc}"[:2000]
    try:
        with transaction.atomic():
            return LLMCall.objects.create(
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
    except IntegrityError:  # a parallel worker recorded the same prompt first: use theirs
        return LLMCall.objects.get(model=engine.model, prompt_hash=digest)
