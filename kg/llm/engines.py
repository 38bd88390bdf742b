"""The two engines behind the gateway. Both return raw text; the gateway parses and records."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings

logger = logging.getLogger("groundwork.llm")

OFFLINE_MODEL = "offline-rules-v1"
JSON_MODE: dict[str, Any] = {"type": "json_object"}


@dataclass(frozen=True)
class JsonSchemaFormat:
    """A strict JSON schema the answer must follow (structured output)."""

    name: str
    schema: dict[str, Any]

    def response_format(self) -> dict[str, Any]:
        return {
            "type": "json_schema",
            "json_schema": {"name": self.name, "schema": self.schema, "strict": True},
        }


@dataclass(frozen=True)
class RawCompletion:
    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_ms: int = 0


class OpenAIEngine:
    """Any OpenAI-compatible endpoint through the official SDK.

    The SDK retries 429, 5xx, connection errors and timeouts with exponential backoff
    (max_retries). An operation with a schema is sent as structured output (json_schema),
    otherwise JSON mode asks for one JSON object; the gateway validates either way.
    """

    name = "openai"

    def __init__(self) -> None:
        from openai import OpenAI

        self.model = settings.LLM_MODEL
        self._client = OpenAI(
            api_key=settings.OPENAI_API_KEY or "not-needed",
            base_url=settings.OPENAI_BASE_URL or None,
            timeout=settings.LLM_TIMEOUT_SECONDS,
            max_retries=settings.LLM_MAX_RETRIES,
        )

    def complete(
        self, messages: list[dict[str, str]], json_schema: JsonSchemaFormat | None = None
    ) -> RawCompletion:
        from openai import BadRequestError

        started = time.monotonic()
        if json_schema is None:
            response = self._create(messages, JSON_MODE)
        else:
            try:
                response = self._create(messages, json_schema.response_format())
            except BadRequestError as error:
                # Some OpenAI-compatible servers reject json_schema; JSON mode plus the prompt
                # still works there, and the answer is checked the same way. A 400 for another
                # reason fails again below and is raised.
                logger.warning(
                    "%s: endpoint refused response_format json_schema (%s); using JSON mode",
                    json_schema.name,
                    error,
                )
                response = self._create(messages, JSON_MODE)
        usage = response.usage
        return RawCompletion(
            text=response.choices[0].message.content or "",
            prompt_tokens=usage.prompt_tokens if usage else 0,
            completion_tokens=usage.completion_tokens if usage else 0,
            latency_ms=int((time.monotonic() - started) * 1000),
        )

    def _create(self, messages: list[dict[str, str]], response_format: dict[str, Any]) -> Any:
        return self._client.chat.completions.create(
            model=self.model,
            messages=messages,  # type: ignore[arg-type]
            response_format=response_format,  # type: ignore[arg-type]
            temperature=0,
        )


class OfflineEngine:
    """Deterministic and network-free: the operation's own offline answer."""

    name = "offline"
    model = OFFLINE_MODEL


def current_engine() -> OpenAIEngine | OfflineEngine:
    return OpenAIEngine() if settings.LLM_ENGINE == "openai" else OfflineEngine()
