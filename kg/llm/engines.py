"""The two engines behind the gateway. Both return raw text; the gateway parses and records."""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.conf import settings

OFFLINE_MODEL = "offline-rules-v1"


@dataclass(frozen=True)
class RawCompletion:
    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_ms: int = 0


class OpenAIEngine:
    """Any OpenAI-compatible endpoint through the official SDK.

    The SDK retries 429, 5xx, connection errors and timeouts with exponential backoff
    (max_retries); JSON mode asks for one JSON object, which the gateway validates.
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

    def complete(self, messages: list[dict[str, str]]) -> RawCompletion:
        started = time.monotonic()
        response = self._client.chat.completions.create(
            model=self.model,
            messages=messages,  # type: ignore[arg-type]
            response_format={"type": "json_object"},
            temperature=0,
        )
        usage = response.usage
        return RawCompletion(
            text=response.choices[0].message.content or "",
            prompt_tokens=usage.prompt_tokens if usage else 0,
            completion_tokens=usage.completion_tokens if usage else 0,
            latency_ms=int((time.monotonic() - started) * 1000),
        )


class OfflineEngine:
    """Deterministic and network-free: the operation's own offline answer."""

    name = "offline"
    model = OFFLINE_MODEL


def current_engine() -> OpenAIEngine | OfflineEngine:
    return OpenAIEngine() if settings.LLM_ENGINE == "openai" else OfflineEngine()
