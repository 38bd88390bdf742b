"""What an LLM operation is: a name, a response schema, a prompt and an offline answer."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from pydantic import BaseModel

RequestT = TypeVar("RequestT", bound=BaseModel)
ResponseT = TypeVar("ResponseT", bound=BaseModel)

Messages = list[dict[str, str]]


@dataclass(frozen=True)
class LLMOperation(Generic[RequestT, ResponseT]):
    """Defined once per prompt module (kg/llm/prompts/*, and the apps' own prompt modules).

    build_messages turns the request into chat messages for a real model; offline_answer is the
    deterministic, network-free engine's answer to the same request.
    """

    name: str
    response_model: type[ResponseT]
    build_messages: Callable[[RequestT], Messages]
    offline_answer: Callable[[RequestT], ResponseT]
