"""Operation `assistant_reply`: the assistant's answer to one chat message.

The model sees what the research holds (nodes by number, with a quote each) and the questions
worth asking, most useful first. It answers {"text", "cited_nodes"}; chat.assistant checks
every node number against the project before anything is saved, so the model can refer to
facts but never invent one.
"""

from __future__ import annotations

import json
from typing import Literal

from pydantic import BaseModel, Field

from kg.llm.operation import LLMOperation


class NodeBrief(BaseModel):
    number: int
    type: str
    label: str
    confidence: int
    sources: int = Field(description="How many different messages support it.")
    quote: str = Field(default="", description="One verbatim quote that supports it.")
    value: str = ""


class Question(BaseModel):
    kind: Literal["contradiction", "gap", "opening"]
    text: str
    nodes: list[int] = Field(default_factory=list)


class AssistantReplyRequest(BaseModel):
    language: str = "en"
    product: str
    message: str = Field(description="The user's message being answered.")
    failure: str = Field(default="", description="Why the message could not be analysed.")
    from_message: list[int] = Field(
        default_factory=list, description="Numbers of the nodes this message supports."
    )
    node_count: int = 0
    average_confidence: float = 0.0
    type_counts: dict[str, int] = Field(default_factory=dict)
    nodes: list[NodeBrief] = Field(
        default_factory=list, description="What the research holds now, best supported first."
    )
    questions: list[Question] = Field(
        default_factory=list, description="Questions worth asking, most useful first."
    )


class AssistantReplyResponse(BaseModel):
    text: str
    cited_nodes: list[int] = Field(default_factory=list)


SYSTEM = """You are the research assistant of a product manager working on "{product}".
After each of their messages you say briefly what the research now knows and ask ONE question.
Answer with one JSON object: {{"text": "<your reply>", "cited_nodes": [<node numbers>]}}.
Rules:
- Refer to research items only by their number written as #N (e.g. "pain #12"), and only to
  numbers listed below. Never invent a number, a fact or a quote.
- Do not write message numbers with "#".
- Mention first what this message added (the nodes listed as from_message), then what is best
  supported overall, then ask the first of the questions (a contradiction comes first).
- If the research holds nothing, say so and ask the opening question.
- If "failure" is not empty, say the message could not be analysed and why, in plain words.
- Write in the language "{language}", at most six short sentences.
- cited_nodes lists every number you referred to."""


def build_messages(request: AssistantReplyRequest) -> list[dict[str, str]]:
    research = request.model_dump(exclude={"message", "product", "language"})
    return [
        {
            "role": "system",
            "content": SYSTEM.format(product=request.product, language=request.language),
        },
        {
            "role": "user",
            "content": "Research state:\n"
            + json.dumps(research, ensure_ascii=False, sort_keys=True)
            + "\n\nMessage:\n"
            + request.message,
        },
    ]


def _offline(request: AssistantReplyRequest) -> AssistantReplyResponse:
    from chat.assistant import offline_reply

    return offline_reply(request)


OPERATION: LLMOperation[AssistantReplyRequest, AssistantReplyResponse] = LLMOperation(
    name="assistant_reply",
    response_model=AssistantReplyResponse,
    build_messages=build_messages,
    offline_answer=_offline,
)
