"""The assistant's reply to a user message.

reply_to_message runs the message's episode through the pipeline (idempotent: a no-op when it
already ran), reads what the research holds now, asks the engine for a reply and checks it:
every node number the reply mentions must be a node the project holds, and a statement that
cites anything else is dropped before the reply is saved. The offline engine writes the reply
deterministically from the same request the model would see.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction

from chat.answers import answer_message, answer_question
from chat.models import Message, Role
from chat.prompts import assistant_reply
from chat.prompts.assistant_reply import (
    AssistantReplyRequest,
    AssistantReplyResponse,
    NodeBrief,
    Question,
    offline_reply,
    reply_texts,
)
from kg.commands import TRANSIENT_ERRORS, analyse_episode
from kg.llm import call_llm
from kg.models import Episode, Project
from kg.read_models import ArtifactContext, artifact_context

logger = logging.getLogger("groundwork.chat")

# Failures worth a retry of the whole task (the pipeline is idempotent; its own list, redis's,
# openai's and the database's outage errors included); anything else is a property of the
# message and is reported in the reply instead.
__all__ = ["TRANSIENT_ERRORS", "reply_to_message"]

MAX_BRIEF_NODES = 30
MAX_QUESTIONS = 5


@dataclass(frozen=True)
class ReplyDraft:
    text: str
    cited_nodes: list[int]
    engine: str
    dropped: int = 0
    citations: list[dict] = field(default_factory=list)


def reply_to_message(message_id: int, *, unavailable: str = "") -> Message:
    """Write (once) the assistant's reply to a user message and return it.

    `unavailable` is set by the task after its retries ran out: the reply then only says why
    the message could not be analysed. Transient errors propagate so that the task retries.
    """
    message = Message.objects.select_related("conversation__project__organization", "episode").get(
        pk=message_id
    )
    if message.role != Role.USER:
        raise ValueError(f"message {message_id} is an assistant message; only users get replies")
    existing = Message.objects.filter(reply_to=message, role=Role.ASSISTANT).first()
    if existing:
        return existing
    project = message.conversation.project
    if unavailable:
        text = reply_texts(project.language)["failed"].format(error=unavailable.rstrip("."))
        draft = ReplyDraft(text, [], "system")
    elif message.episode_id is None:  # a question to the research (chat.services)
        answer = answer_question(project, message.text)
        text, citations = answer_message(answer)
        draft = ReplyDraft(text, [], answer.engine or "system", answer.dropped, citations)
    else:
        failure = analyse_episode(message.episode) if message.episode_id else ""
        draft = compose_reply(project, message, failure)
    try:
        with transaction.atomic():
            return Message.objects.create(
                conversation=message.conversation,
                role=Role.ASSISTANT,
                text=draft.text,
                reply_to=message,
                cited_nodes=draft.cited_nodes,
                engine=draft.engine,
                citations=draft.citations,
            )
    except IntegrityError:  # a parallel run of the task saved its reply first
        return Message.objects.get(reply_to=message, role=Role.ASSISTANT)


def compose_reply(project: Project, message: Message, failure: str = "") -> ReplyDraft:
    context = artifact_context(project)
    recent = list(
        Message.objects.filter(conversation=message.conversation, role=Role.ASSISTANT)
        .order_by("-id")
        .values_list("text", flat=True)[:2]
    )
    request = build_request(project, message, context, failure, recent)
    known = {n.number for n in context.nodes}
    try:
        result = call_llm(
            assistant_reply.OPERATION, request, project=project, episode=message.episode
        )
        answer, engine = result.value, f"{result.call.engine}:{result.call.model}"
    except Exception:
        # A broken or unreachable model must not leave the user without an answer.
        logger.exception("assistant_reply: model failed; using the offline reply")
        answer, engine = offline_reply(request), "offline:fallback"
    draft = checked_reply(answer, known, project, engine)
    if not draft.text:
        logger.warning("assistant_reply: nothing survived the checks; using the offline reply")
        draft = checked_reply(offline_reply(request), known, project, "offline:fallback")
    return draft


def build_request(
    project: Project,
    message: Message,
    context: ArtifactContext,
    failure: str = "",
    recently_asked: list[str] | None = None,
) -> AssistantReplyRequest:
    number = message.episode.number if message.episode_id else None
    from_message = sorted(
        n.number for n in context.nodes if number is not None and number in n.episode_numbers
    )
    ranked = sorted(
        context.nodes,
        key=lambda n: (n.number not in from_message, -n.confidence, -len(n.episode_numbers)),
    )
    briefs = [
        NodeBrief(
            number=n.number,
            type=n.type,
            label=n.label,
            confidence=n.confidence,
            sources=len(n.episode_numbers),
            quote=n.evidence[0].quote if n.evidence else "",
            value=n.value,
        )
        for n in ranked[:MAX_BRIEF_NODES]
    ]
    return AssistantReplyRequest(
        language=project.language,
        product=project.name or project.slug,
        message=message.text,
        failure=failure,
        from_message=from_message,
        node_count=len(context.nodes),
        average_confidence=context.average_confidence,
        type_counts=dict(Counter(n.type for n in context.nodes)),
        nodes=briefs,
        questions=ranked_questions(context, set(from_message), recently_asked or []),
    )


def ranked_questions(
    context: ArtifactContext, from_message: set[int], recently_asked: list[str]
) -> list[Question]:
    """Contradictions first, then gaps about what this message touched, then other gaps.

    A question the assistant asked in its last replies goes to the back, so it does not repeat
    itself while other questions are open.
    """
    texts = reply_texts(context.language)
    by_number = {n.number: n for n in context.nodes}
    questions = [
        Question(
            kind="contradiction",
            text=texts["contradiction"].format(
                subject=c.subject or "?",
                a=c.a,
                b=c.b,
                label_a=by_number[c.a].label,
                label_b=by_number[c.b].label,
            ),
            nodes=[c.a, c.b],
        )
        for c in context.contradictions
        if c.status == "open" and c.a in by_number and c.b in by_number
    ]
    gaps = sorted(context.gaps, key=lambda g: g.node not in from_message)  # stable: rule order
    questions += [
        Question(
            kind="gap",
            text=f"{g.question} (#{g.node})" if g.node is not None else g.question,
            nodes=[g.node] if g.node is not None else [],
        )
        for g in gaps
    ]
    if not questions:
        key = "follow_up" if context.nodes else "opening"
        questions = [Question(kind="opening", text=texts[key])]
    fresh = [q for q in questions if not any(q.text in previous for previous in recently_asked)]
    repeated = [q for q in questions if q not in fresh]
    return (fresh + repeated)[:MAX_QUESTIONS]


# --- checking a reply before it is saved ----------------------------------------------------

# "#12" is a node reference unless it follows the word "message(s)" (then it is an episode).
REFERENCE = re.compile(r"(?P<message>\b(?:messages?|сообщени[а-яё]*)\s+)?#(?P<number>\d+)", re.I)
# Labels and quotes are user words: a "#4521" inside quotation marks is not a reference.
QUOTED = re.compile(r"“[^”]*”|«[^»]*»|\"[^\"]*\"")
SENTENCE_BREAK = re.compile(r"(?<=[.!?…])\s+")


def references(statement: str) -> tuple[set[int], set[int]]:
    """(node numbers, message numbers) a statement refers to, outside quotation marks."""
    nodes: set[int] = set()
    messages: set[int] = set()
    for match in REFERENCE.finditer(QUOTED.sub("", statement)):
        (messages if match.group("message") else nodes).add(int(match.group("number")))
    return nodes, messages


def checked_reply(
    answer: AssistantReplyResponse, known_nodes: set[int], project: Project, engine: str
) -> ReplyDraft:
    """Keep the statements whose every reference exists; cite what the kept text refers to."""
    statements = [
        [s for s in SENTENCE_BREAK.split(line.strip()) if s]
        for line in answer.text.splitlines()
        if line.strip()
    ]
    mentioned_messages = {m for line in statements for s in line for m in references(s)[1]}
    known_messages = set(
        Episode.objects.filter(project=project, number__in=mentioned_messages).values_list(
            "number", flat=True
        )
    )
    kept_lines: list[str] = []
    cited: set[int] = set()
    dropped = 0
    for line in statements:
        kept = []
        for statement in line:
            nodes, messages = references(statement)
            if nodes - known_nodes or messages - known_messages:
                dropped += 1
                continue
            kept.append(statement)
            cited |= nodes
        if kept:
            kept_lines.append(" ".join(kept))
    if dropped:
        logger.warning("assistant_reply: dropped %d statement(s) citing unknown numbers", dropped)
    cited |= set(answer.cited_nodes) & known_nodes
    return ReplyDraft("\n".join(kept_lines), sorted(cited), engine, dropped)
