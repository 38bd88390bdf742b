"""The two engines behind the gateway. Both return raw text; the gateway parses and records."""

from __future__ import annotations

import json
import logging
import os
import random
import threading
import time
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django.conf import settings

from kg.llm.endpoint import (
    EndpointProbe,
    endpoint_key,
    endpoint_slot,
    remember_probe,
    remembered_probe,
)
from kg.llm.offline.ahead import rules_version

logger = logging.getLogger("groundwork.llm")

# The rules' version is part of their model's name, as a model's is: an answer recorded by
# other rules is never taken for theirs (the same text imported after the rules improved gets
# the improved answer), while a rebuild under the same rules replays the recorded ones.
OFFLINE_MODEL = f"offline-rules-{rules_version()}"
JSON_MODE: dict[str, Any] = {"type": "json_object"}

# Plain JSON mode leaves the end of the answer to the model: a small one goes on writing after
# the object. These stops end it there (the stop itself is not returned; the brace is put back).
JSON_END_STOPS = ["}\n\n", "}\n```"]

RETRY_BASE_SECONDS = 0.5
RETRY_MAX_SECONDS = 30.0
# Statuses worth sending again; anything else is the request's own fault and is raised.
RETRYABLE_STATUSES = frozenset({408, 409, 429, 500, 502, 503, 504})
# Statuses with which servers refuse a response_format they do not know (llama.cpp: 500).
REFUSAL_STATUSES = frozenset({400, 404, 415, 422, 500, 501})
PROBE_TIMEOUT_SECONDS = 20
PROBE_MAX_TOKENS = 24
PROBE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"ok": {"type": "boolean"}},
    "required": ["ok"],
    "additionalProperties": False,
}
PROBE_MESSAGES = [
    {"role": "system", "content": 'Answer with exactly this JSON object: {"ok": true}'},
    {"role": "user", "content": "Are you ready?"},
]


class Dialect(StrEnum):
    """How an endpoint is asked for an answer of a given JSON shape."""

    JSON_SCHEMA = "json_schema"  # OpenAI, vLLM, recent Ollama
    JSON_OBJECT = "json_object"  # llama.cpp servers: JSON mode with a "schema" beside it
    NONE = "none"  # plain JSON mode; the gateway validates and repairs


PROBE_ORDER = (Dialect.JSON_SCHEMA, Dialect.JSON_OBJECT, Dialect.NONE)


@dataclass(frozen=True)
class JsonSchemaFormat:
    """A strict JSON schema the answer must follow (structured output)."""

    name: str
    schema: dict[str, Any]

    def response_format(self, dialect: Dialect = Dialect.JSON_SCHEMA) -> dict[str, Any]:
        if dialect == Dialect.JSON_SCHEMA:
            return {
                "type": "json_schema",
                "json_schema": {"name": self.name, "schema": self.schema, "strict": True},
            }
        if dialect == Dialect.JSON_OBJECT:
            return {"type": "json_object", "schema": self.schema}
        return dict(JSON_MODE)


@dataclass(frozen=True)
class RawCompletion:
    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_ms: int = 0
    finish_reason: str = ""
    max_tokens: int = 0  # the cap the call was sent with; 0 = none


def close_cut_object(text: str) -> str:
    """Put back the closing brace a JSON_END_STOPS stop took away, and nothing else.

    Only when the text is one object left open at exactly one level outside any string.
    """
    start = text.find("{")
    if start < 0:
        return text
    depth, in_string, escaped = 0, False, False
    for char in text[start:]:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
            if depth == 0:
                return text  # already closed
    return text.rstrip() + "}" if depth == 1 and not in_string else text


def _retry_delay(error: Exception, retries_done: int) -> float:
    """The server's Retry-After when it gives one, else exponential backoff with jitter."""
    response = getattr(error, "response", None)
    if response is not None:
        for header, divisor in (("retry-after-ms", 1000), ("retry-after", 1)):
            try:
                return min(float(response.headers[header]) / divisor, RETRY_MAX_SECONDS * 2)
            except (KeyError, ValueError):
                continue
    delay = min(RETRY_BASE_SECONDS * 2**retries_done, RETRY_MAX_SECONDS)
    return delay * (1 - 0.25 * random.random())


class OpenAIEngine:
    """Any OpenAI-compatible endpoint through the official SDK.

    Every call is bounded: `max_tokens` (sized by the gateway per call), a timeout
    (LLM_TIMEOUT_SECONDS) and one of the endpoint's LLM_MAX_CONCURRENCY slots held from the
    first attempt to the last. The SDK's own retries are off: they resend at once while a
    single-slot server is still generating the abandoned answer, and every resend then waits
    behind it and times out in turn. Here a retry waits (Retry-After or exponential backoff)
    with the slot held, so nothing else joins the queue, and after a timeout it is given the
    time of the abandoned answer on top of its own (the timeout grows by LLM_TIMEOUT_SECONDS
    per attempt).

    The answer's shape goes out in the endpoint's dialect (LLM_STRUCTURED_OUTPUT; `auto`
    probes once and remembers); the gateway validates the answer either way.
    """

    name = "openai"

    def __init__(self) -> None:
        from openai import OpenAI

        self.model = settings.LLM_MODEL
        self.base_url = settings.OPENAI_BASE_URL or ""
        self.endpoint = endpoint_key(self.base_url, self.model)
        self.setting = settings.LLM_STRUCTURED_OUTPUT
        self._client = OpenAI(
            api_key=settings.OPENAI_API_KEY or "not-needed",
            base_url=self.base_url or None,
            timeout=settings.LLM_TIMEOUT_SECONDS,
            max_retries=0,
        )

    # --- calls -----------------------------------------------------------------------------

    def complete(
        self,
        messages: list[dict[str, str]],
        json_schema: JsonSchemaFormat | None = None,
        max_tokens: int | None = None,
    ) -> RawCompletion:
        from openai import APIStatusError

        timeout = settings.LLM_TIMEOUT_SECONDS
        retries = settings.LLM_MAX_RETRIES
        # Long enough for every attempt at its growing timeout, plus the waits between them,
        # and for the probe a refused dialect may lead to.
        lease = timeout * (retries + 1) * (retries + 2) / 2 + RETRY_MAX_SECONDS * retries + 60
        lease += timeout * len(PROBE_ORDER) * (retries + 1)
        with endpoint_slot(self.endpoint, settings.LLM_MAX_CONCURRENCY, lease, wait_seconds=lease):
            started = time.monotonic()
            dialect = self.dialect()
            try:
                response = self._create(messages, json_schema, dialect, max_tokens)
            except APIStatusError as error:
                if json_schema is None or dialect == Dialect.NONE or not _may_be_refusal(error):
                    raise
                dialect = self._dialect_after_refusal(dialect, json_schema, error)
                # Sent once more in that dialect; a refusal there too is raised.
                response = self._create(messages, json_schema, dialect, max_tokens)
        choice = response.choices[0]
        text = choice.message.content or ""
        if dialect == Dialect.NONE and choice.finish_reason == "stop":
            text = close_cut_object(text)
        usage = response.usage
        return RawCompletion(
            text=text,
            prompt_tokens=usage.prompt_tokens if usage else 0,
            completion_tokens=usage.completion_tokens if usage else 0,
            latency_ms=int((time.monotonic() - started) * 1000),
            finish_reason=choice.finish_reason or "",
            max_tokens=max_tokens or 0,
        )

    def _dialect_after_refusal(
        self, dialect: Dialect, json_schema: JsonSchemaFormat, error: Exception
    ) -> Dialect:
        """The dialect a call refused in `dialect` is sent again in.

        A 400 names this request: the endpoint took the dialect when probed but refuses it for
        this schema, and plain JSON mode still works (the answer is checked the same way).
        Any other refusal status (llama-cpp-python answers 500 to `json_schema`; resent, it
        answers 500 again) may refuse the dialect itself, whether set or found by `auto`: the
        endpoint is probed from that dialect on, as `auto` probes it, and what the probe finds
        is remembered for the calls after this one. Should the probe find the dialect taken,
        the refusal was this request's, and it goes in plain JSON mode too; should the endpoint
        not answer the probe, the call's own error is raised (a transient failure).
        """
        from openai import BadRequestError

        if not isinstance(error, BadRequestError):
            probe = self.probe(
                timeout=settings.LLM_TIMEOUT_SECONDS,
                retries=settings.LLM_MAX_RETRIES,
                start=dialect,
            )
            if not probe.answered:
                raise error
            if probe.dialect != dialect.value:
                logger.warning(
                    "%s: endpoint refused response_format %s (%s); using %s from now on",
                    json_schema.name,
                    dialect.value,
                    _short(error),
                    probe.dialect,
                )
                return Dialect(probe.dialect)
        logger.warning(
            "%s: endpoint refused response_format %s (%s); using JSON mode",
            json_schema.name,
            dialect.value,
            _short(error),
        )
        return Dialect.NONE

    def _create(
        self,
        messages: list[dict[str, str]],
        json_schema: JsonSchemaFormat | None,
        dialect: Dialect,
        max_tokens: int | None,
    ) -> Any:
        request: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "response_format": (
                json_schema.response_format(dialect) if json_schema else dict(JSON_MODE)
            ),
            "temperature": 0,
        }
        if max_tokens:
            request["max_tokens"] = max_tokens
        if dialect == Dialect.NONE:
            request["stop"] = JSON_END_STOPS
        return self._send(request)

    def _send(
        self,
        request: dict[str, Any],
        retries: int | None = None,
        retry_statuses: frozenset[int] = RETRYABLE_STATUSES,
    ) -> Any:
        from openai import APIConnectionError, APIStatusError, APITimeoutError

        retries = settings.LLM_MAX_RETRIES if retries is None else retries
        timeout = float(settings.LLM_TIMEOUT_SECONDS)
        attempt_timeout = timeout
        for attempt in range(retries + 1):
            try:
                return self._client.with_options(timeout=attempt_timeout).chat.completions.create(
                    **request
                )
            except APITimeoutError as error:
                # The server may still be generating the abandoned answer: the resend queues
                # behind it, so it gets that time on top of its own.
                attempt_timeout += timeout
                failure: Exception = error
            except APIStatusError as error:
                if error.status_code not in retry_statuses or (
                    error.response.headers.get("x-should-retry") == "false"
                ):
                    raise
                failure = error
            except APIConnectionError as error:
                failure = error
            if attempt == retries:
                raise failure
            delay = _retry_delay(failure, attempt)
            logger.warning(
                "model call failed (%s); retry %d of %d in %.1fs",
                type(failure).__name__,
                attempt + 1,
                retries,
                delay,
            )
            time.sleep(delay)
        raise AssertionError("unreachable")

    # --- the dialect ----------------------------------------------------------------------------

    def dialect(self) -> Dialect:
        """The dialect calls are sent in: the setting, or what the probe found (`auto`)."""
        known = remembered_probe(self.endpoint, self.setting)
        if self.setting != "auto":
            # Set, the dialect is used without a probe, until the endpoint refuses it: then
            # what the probe found instead (see _dialect_after_refusal) is remembered.
            if known is not None and known.answered:
                return Dialect(known.dialect)
            return Dialect(self.setting)
        if known is None:
            known = self.probe(
                timeout=settings.LLM_TIMEOUT_SECONDS, retries=settings.LLM_MAX_RETRIES
            )
        if not known.answered:
            # Down or too busy: the call goes in plain JSON mode and fails or succeeds on its
            # own; an unanswered probe is remembered only briefly, then asked again.
            return Dialect.NONE
        return Dialect(known.dialect)

    def probe(
        self,
        timeout: float = PROBE_TIMEOUT_SECONDS,
        retries: int = 0,
        start: Dialect | None = None,
    ) -> EndpointProbe:
        """Ask the endpoint a tiny structured question in each dialect until one is taken.

        The dialects are tried in PROBE_ORDER from `start` on: by default from the first one
        with `auto`, from the set one with an explicit setting (a dialect the endpoint refuses
        falls back as it does under `auto`). A refusal (4xx, or the 500 some servers answer an
        unknown response_format with) moves on to the next dialect; a timeout or a connection
        error means the endpoint did not answer. The result is remembered.
        """
        from openai import APIConnectionError, APIStatusError

        if start is None:
            start = Dialect.JSON_SCHEMA if self.setting == "auto" else Dialect(self.setting)
        order = PROBE_ORDER[PROBE_ORDER.index(start) :]
        schema = JsonSchemaFormat(name="probe", schema=PROBE_SCHEMA)
        refusals: list[str] = []
        fallback: EndpointProbe | None = None
        for dialect in order:
            request: dict[str, Any] = {
                "model": self.model,
                "messages": PROBE_MESSAGES,
                "response_format": schema.response_format(dialect),
                "temperature": 0,
                "max_tokens": PROBE_MAX_TOKENS,
            }
            try:
                if retries:  # refusals are answers here, not failures to resend
                    response = self._send(request, retries, RETRYABLE_STATUSES - REFUSAL_STATUSES)
                else:
                    client = self._client.with_options(timeout=timeout)
                    response = client.chat.completions.create(**request)
            except APIStatusError as error:
                if error.status_code in REFUSAL_STATUSES:
                    refusals.append(f"{dialect.value}: {error.status_code}")
                    continue
                probe = EndpointProbe(False, detail=_short(error), checked_at=time.time())
                break
            except APIConnectionError as error:  # timeouts included
                probe = EndpointProbe(False, detail=_short(error), checked_at=time.time())
                break
            text = response.choices[0].message.content or ""
            taken = EndpointProbe(True, dialect.value, "answered", checked_at=time.time())
            if _is_probe_answer(text) or dialect == Dialect.NONE:
                probe = taken
                break
            # Accepted but not followed (a server that ignores what it does not know).
            fallback = fallback or EndpointProbe(
                True, dialect.value, "answered, shape not followed", checked_at=time.time()
            )
        else:
            probe = fallback or EndpointProbe(
                False,
                detail="refused every response format (" + ", ".join(refusals) + ")",
                checked_at=time.time(),
            )
        remember_probe(self.endpoint, self.setting, probe)
        logger.info("model endpoint %s probed: %s", self.endpoint, probe)
        return probe

    def remembered_probe(self) -> EndpointProbe | None:
        return remembered_probe(self.endpoint, self.setting)


def _is_probe_answer(text: str) -> bool:
    try:
        answer = json.loads(text.strip())
    except ValueError:
        return False
    return isinstance(answer, dict) and isinstance(answer.get("ok"), bool)


def _may_be_refusal(error: Any) -> bool:
    """Whether an error status may be the endpoint refusing the request's response_format.

    Not when the server marked its error as final (`x-should-retry: false`): it failed, and
    says so; it did not refuse a format.
    """
    if error.status_code not in REFUSAL_STATUSES:
        return False
    return error.response.headers.get("x-should-retry") != "false"


def _short(error: Exception) -> str:
    return f"{type(error).__name__}: {error}"[:300]


class OfflineEngine:
    """Deterministic and network-free: the operation's own offline answer."""

    name = "offline"
    model = OFFLINE_MODEL


def rules_answer() -> bool:
    """Whether the offline rules answer (no model configured): their answer for a message
    depends on its text alone, so it can be computed ahead, batched freely and needs no
    known nodes or subjects."""
    return settings.LLM_ENGINE != "openai"


def current_engine() -> OpenAIEngine | OfflineEngine:
    if rules_answer():
        return OfflineEngine()
    # One engine per process and configuration: building its client loads the system's
    # certificate store (tens of milliseconds of CPU, three times per chat message), and a
    # kept client reuses its connections. Keyed by process: a client is never shared across
    # a fork (a worker's pool processes).
    key = (
        os.getpid(),
        settings.LLM_MODEL,
        settings.OPENAI_BASE_URL,
        settings.OPENAI_API_KEY,
        settings.LLM_TIMEOUT_SECONDS,
        settings.LLM_STRUCTURED_OUTPUT,
    )
    with _ENGINES_LOCK:
        engine = _ENGINES.get(key)
        if engine is None:
            engine = _ENGINES[key] = OpenAIEngine()
    return engine


_ENGINES: dict[tuple, OpenAIEngine] = {}
_ENGINES_LOCK = threading.Lock()
