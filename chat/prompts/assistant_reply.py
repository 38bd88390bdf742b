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
from kg.ontology import type_name


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


# --- the offline (deterministic) reply ------------------------------------------------------

BEST_SUPPORTED = 3  # nodes named as the best supported

TEXTS = {
    "en": {
        "nothing": "Nothing in the research yet.",
        "failed": "I could not analyse this message: {error}.",
        "nothing_new": "I found nothing new in this message.",
        "from_message": "From this message: {items}.",
        "holds": "The research now holds {count} {facts}: {breakdown} "
        "(average confidence {average}).",
        "best": "Best supported: {items}.",
        "best_item": "{kind} #{number} “{label}” (confidence {confidence}, {sources})",
        "sources": "{n} source",
        "sources_plural": "{n} sources",
        "fact": "fact",
        "facts": "facts",
        "contradiction": "The research disagrees about {subject}: #{a} “{label_a}” vs "
        "#{b} “{label_b}”. Which holds now?",
        "opening": "Who is the product for, and what problem does it solve for them today?",
        "follow_up": "What else did you hear from customers?",
    },
    "ru": {
        "nothing": "В исследовании пока ничего нет.",
        "failed": "Не удалось разобрать это сообщение: {error}.",
        "nothing_new": "В этом сообщении я не нашёл ничего нового.",
        "from_message": "Из этого сообщения: {items}.",
        "holds": "Сейчас в исследовании {count} {facts}: {breakdown} "
        "(средняя уверенность {average}).",
        "best": "Лучше всего подтверждено: {items}.",
        "best_item": "{kind} #{number} «{label}» (уверенность {confidence}, {sources})",
        "sources": "источников: {n}",
        "sources_plural": "источников: {n}",
        "fact": "фактов",
        "facts": "фактов",
        "contradiction": "Данные расходятся ({subject}): #{a} «{label_a}» и #{b} «{label_b}». "
        "Что верно сейчас?",
        "opening": "Для кого этот продукт и какую проблему он решает для них сегодня?",
        "follow_up": "Что ещё вы слышали от клиентов?",
    },
}


def reply_texts(language: str) -> dict[str, str]:
    return TEXTS.get(language, TEXTS["en"])


def _breakdown(language: str, counts: dict[str, int]) -> str:
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    if language == "ru":
        return ", ".join(f"{type_name(t, language)} — {n}" for t, n in ordered)
    return ", ".join(f"{n} {t}{'' if n == 1 else 's'}" for t, n in ordered)


def offline_reply(request: AssistantReplyRequest) -> AssistantReplyResponse:
    """Acknowledge what the research knows now, citing node numbers; then ask one question."""
    language = request.language if request.language in TEXTS else "en"
    texts = TEXTS[language]
    lines: list[str] = []
    cited: list[int] = []
    if request.failure:
        lines.append(texts["failed"].format(error=request.failure.rstrip(".")))
    if not request.node_count:
        lines.append(texts["nothing"])
    else:
        by_number = {n.number: n for n in request.nodes}
        new = [by_number[n] for n in request.from_message if n in by_number]
        if new:
            items = ", ".join(f"{type_name(n.type, language)} #{n.number} “{n.label}”" for n in new)
            lines.append(texts["from_message"].format(items=items))
            cited += [n.number for n in new]
        elif not request.failure:
            lines.append(texts["nothing_new"])
        lines.append(
            texts["holds"].format(
                count=request.node_count,
                facts=texts["fact"] if request.node_count == 1 else texts["facts"],
                breakdown=_breakdown(language, request.type_counts),
                average=f"{request.average_confidence:.0f}",
            )
        )
        best = sorted(
            (n for n in request.nodes if n.number not in request.from_message),
            key=lambda n: (-n.confidence, -n.sources, n.number),
        )[:BEST_SUPPORTED]
        if best:
            items = "; ".join(
                texts["best_item"].format(
                    kind=type_name(n.type, language),
                    number=n.number,
                    label=n.label,
                    confidence=n.confidence,
                    sources=texts["sources" if n.sources == 1 else "sources_plural"].format(
                        n=n.sources
                    ),
                )
                for n in best
            )
            lines.append(texts["best"].format(items=items))
            cited += [n.number for n in best]
    question = (
        request.questions[0]
        if request.questions
        else Question(kind="opening", text=texts["opening"])
    )
    lines.append(question.text)
    cited += question.nodes
    return AssistantReplyResponse(text="\n".join(lines), cited_nodes=sorted(set(cited)))


OPERATION: LLMOperation[AssistantReplyRequest, AssistantReplyResponse] = LLMOperation(
    name="assistant_reply",
    response_model=AssistantReplyResponse,
    build_messages=build_messages,
    offline_answer=offline_reply,
)
