"""Chat services: conversations, user messages that become episodes, and the research panel.

A user message and its episode are written in one transaction; the assistant's reply task is
queued only once that transaction has committed, so a worker never looks for a message that
does not exist yet. The task runs the episode's pipeline itself before replying, which is why
the episode is recorded with enqueue=False (the pipeline would otherwise be queued twice).
"""

from __future__ import annotations

import functools
import logging
import uuid
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import (
    Case,
    Count,
    F,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.functions import Coalesce

from chat.answers import is_question
from chat.models import Conversation, Message, Role
from kg import read_models
from kg.commands import EpisodeInput, ResourceNotFound, author_name, record_episode
from kg.models import EpisodeKind, EpisodeProcessing, ProcessingStatus, Project
from kg.read_models import (
    ContextContradiction,
    Gap,
    GraphUnavailable,
    OrgInsightNote,
    llm_mode,
    recent_rejections,
)
from kg.tenancy import bidi_control_in, without_bidi_controls

logger = logging.getLogger("groundwork.chat")

DEFAULT_TITLE = "Research notes"
MAX_TITLE = 200


class ConversationNotFound(ResourceNotFound):
    pass


def conversations_of(project: Project) -> QuerySet[Conversation]:
    counted = Conversation.objects.filter(project=project).annotate(message_count=Count("messages"))
    return counted.order_by("-created_at", "-id")  # an aggregate drops Meta.ordering


TITLE_FROM_MESSAGE = 60  # characters of the first message a conversation is titled with


class TitleRefused(ValueError):
    """A conversation's title must say something, and be shown as it is written."""


def _clean_title(title: str) -> str:
    title = " ".join(title.split())[:MAX_TITLE]
    control = bidi_control_in(title)
    if control:
        raise TitleRefused(
            f"the title contains {control}, which changes how the text around it is shown; "
            "remove it"
        )
    return title


def create_conversation(project: Project, user, title: str = "") -> Conversation:
    """A new conversation, titled by the user or (when `title` is empty) by its first message.
    TitleRefused for a title that would not be shown as written."""
    title = _clean_title(title)
    return Conversation.objects.create(
        project=project, title=title or DEFAULT_TITLE, named=bool(title), created_by=user
    )


def rename_conversation(conversation: Conversation, title: str) -> Conversation:
    """Give the conversation the user's own title (kept from then on)."""
    title = _clean_title(title)
    if not title:
        raise TitleRefused("a conversation needs a title")
    conversation.title = title
    conversation.named = True
    conversation.save(update_fields=["title", "named"])
    return conversation


def title_from_message(text: str) -> str:
    """The first words of a message, cut at a word: 'Couriers in Kazan say the app lags…'.
    A title is a name: the message's bidirectional controls stay in the message."""
    words = " ".join(without_bidi_controls(text).split())
    if len(words) <= TITLE_FROM_MESSAGE:
        return words
    cut = words.rfind(" ", 0, TITLE_FROM_MESSAGE)
    return words[: cut if cut > 0 else TITLE_FROM_MESSAGE].rstrip(" ,.;:—-") + "…"


def _title_from_first_message(conversation: Conversation, text: str) -> None:
    if conversation.named or conversation.messages.filter(role=Role.USER).exists():
        return
    title = title_from_message(text)
    if title:
        conversation.title = title
        conversation.save(update_fields=["title"])


def conversation_in(project: Project, conversation_id: int) -> Conversation:
    """The conversation if it belongs to the project (ids of other projects are not found)."""
    try:
        return Conversation.objects.get(project=project, pk=conversation_id)
    except Conversation.DoesNotExist:
        raise ConversationNotFound(
            f"conversation {conversation_id} not found in project {project.slug!r}"
        ) from None


def current_conversation(project: Project, user) -> Conversation:
    """The most recently started conversation, or a new one for a project without any."""
    latest = Conversation.objects.filter(project=project).first()
    return latest or create_conversation(project, user)


def conversation_of_message(project: Project, episode_number: int) -> Conversation | None:
    message = (
        Message.objects.filter(conversation__project=project, episode__number=episode_number)
        .select_related("conversation")
        .first()
    )
    return message.conversation if message else None


def _user_messages_up_to(pk_field: str) -> Subquery:
    """How many user messages of the conversation have an id up to the row's `pk_field`."""
    return Subquery(
        Message.objects.filter(
            conversation=OuterRef("conversation"), role=Role.USER, pk__lte=OuterRef(pk_field)
        )
        .order_by()
        .values("conversation")
        .annotate(n=Count("pk"))
        .values("n")
    )


def messages_of(conversation: Conversation, after: int | None = None) -> QuerySet[Message]:
    """The conversation's messages threaded: each user message followed by the reply to it,
    whenever the reply was written (replies to messages sent close together finish in any
    order). Each user message carries its position in the conversation (Message.position):
    numbers that do not jump over uploads or other chats; each reply the position of the
    message it answers (Message.reply_to_position). `after` keeps the messages with a
    larger id: those written since a page last asked, in thread order too."""
    messages = (
        conversation.messages.select_related("episode__processing", "reply_to__episode")
        .annotate(
            conversation_position=Case(
                When(role=Role.USER, then=_user_messages_up_to("pk")),
                default=Value(None),
                output_field=IntegerField(),
            ),
            reply_to_position=Case(
                When(reply_to__isnull=False, then=_user_messages_up_to("reply_to_id")),
                default=Value(None),
                output_field=IntegerField(),
            ),
            thread=Coalesce("reply_to_id", "id"),
        )
        .order_by("thread", F("reply_to_id").asc(nulls_first=True), "id")
    )
    return messages.filter(pk__gt=after) if after else messages


def last_message_id(messages: list[Message], after: int | None = None) -> int:
    """The largest id shown: what the page asks `after` next (threaded, the last shown is not
    always the newest)."""
    return max((m.pk for m in messages), default=after or 0)


def awaiting_reply(conversation: Conversation) -> list[Message]:
    """User messages the assistant has not answered yet (oldest first)."""
    return list(
        conversation.messages.filter(role=Role.USER)
        .exclude(replies__role=Role.ASSISTANT)
        .select_related("episode__processing")
        .order_by("id")
    )


def post_user_message(conversation: Conversation, user, text: str) -> Message:
    """Record the message and its episode; queue the reply task once both are committed.
    A question to the research (chat.answers.is_question) is no research: it is kept as a
    message without an episode, and its reply is the research's answer.

    Raises kg.ledger.episodes.EpisodeRejected (nothing written) when the text cannot be an episode.
    """
    text = text.strip()
    if is_question(text):  # asked of the research, not said about the product: no episode
        with transaction.atomic():
            return _user_message(conversation, None, text)
    with transaction.atomic():
        episode = record_episode(
            conversation.project,
            EpisodeInput(
                content=text,
                kind=EpisodeKind.CHAT_MESSAGE,
                author=author_name(user),
                source_ref={"channel": "chat", "conversation": conversation.pk},
            ),
            enqueue=False,
        )
        message = _user_message(conversation, episode, text)
    return message


def answer_contradiction(
    project: Project,
    conversation: Conversation,
    user,
    contradiction_uid: str,
    answer: str,
    keep: int | None = None,
) -> Message:
    """A user's answer to an open contradiction: an episode that resolves it, shown in the chat.
    `keep` is the number of the statement that holds (else the one the answer sides with); the
    other is superseded, with the answer as its evidence.

    Raises kg.web.api.services.ContradictionNotFound / ContradictionAlreadyResolved /
    NotOneOfTheTwo, or kg.ledger.episodes.EpisodeRejected for an empty answer.
    """
    from kg.commands import resolve_contradiction

    answer = answer.strip()
    with transaction.atomic():
        # The reply task runs the pipeline for this episode, so it is not queued twice.
        episode = resolve_contradiction(
            project, contradiction_uid, answer, author_name(user), keep=keep, enqueue=False
        )
        message = _user_message(conversation, episode, answer)
    return message


def _user_message(conversation: Conversation, episode, text: str) -> Message:
    task_id = str(uuid.uuid4())  # known now, so the API can hand it out before the task runs
    _title_from_first_message(conversation, text)
    message = Message.objects.create(
        conversation=conversation,
        role=Role.USER,
        episode=episode,
        text=text,
        reply_task_id=task_id,
    )
    message.conversation_position = conversation.messages.filter(
        role=Role.USER, pk__lte=message.pk
    ).count()
    # robust: the message is committed either way; a broker outage must not turn the request
    # into an error after the fact (the episode stays pending and is visible as such).
    transaction.on_commit(functools.partial(_queue_reply, message.pk, task_id), robust=True)
    return message


def _queue_reply(message_id: int, task_id: str) -> None:
    from chat.tasks import assistant_reply_task

    assistant_reply_task.apply_async(args=[message_id], task_id=task_id)


# --- what an upload gave -------------------------------------------------------------------


@dataclass(frozen=True)
class UploadNotice:
    """The one line the page says after an upload; `added` False when nothing new was kept
    (the file was already recorded), which is not shown as a success."""

    added: bool
    text: str


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def upload_notice(summary: dict) -> UploadNotice:
    """Says what an upload added, from kg's report summary (report_summary)."""
    name = summary.get("file") or "the file"
    made, duplicates = summary.get("episodes", 0), summary.get("duplicate_count", 0)
    skipped = summary.get("skipped_count", 0)
    if not made:
        if duplicates:
            first = (summary.get("duplicates") or [""])[0]
            return UploadNotice(
                False,
                f"Nothing added: {name} is already recorded"
                + (f" ({first})" if first else "")
                + "; the same words count as one source.",
            )
        return UploadNotice(False, f"Nothing added from {name}.")
    text = f"{_count(made, 'part')} of {name} added as evidence"
    if duplicates:
        text += f"; {_count(duplicates, 'part')} already recorded, not added again"
    if skipped:
        text += f"; {skipped:,} skipped (the reasons are listed below)"
    return UploadNotice(True, text + ". The panel shows what they add once analysed.")


# --- the research panel ---------------------------------------------------------------------

TYPE_TITLES = {
    "product": "Product",
    "market": "Markets",
    "segment": "Segments",
    "pain": "Pains",
    "job": "Jobs to be done",
    "trigger": "Triggers",
    "alternative": "Alternatives",
    "competitor": "Competitors",
    "feature": "Features",
    "metric": "Metrics",
    "goal": "Goals",
    "risk": "Risks",
    "insight": "Insights",
}


@dataclass(frozen=True)
class PanelNode:
    number: int
    label: str
    confidence: int
    sources: int
    value: str = ""


@dataclass(frozen=True)
class PanelGroup:
    type: str
    title: str
    nodes: list[PanelNode]  # the first of the type by priority (confidence, sources, recency)
    total: int = 0  # valid nodes of the type: the research view lists them all

    @property
    def more(self) -> int:
        return max(self.total - len(self.nodes), 0)


@dataclass
class ResearchPanel:
    groups: list[PanelGroup] = field(default_factory=list)
    gaps: list[Gap] = field(default_factory=list)
    contradictions: list[ContextContradiction] = field(default_factory=list)
    open_contradictions: int = 0
    # Also seen elsewhere in the organization: shown apart, never as this project's facts.
    org_insights: list[OrgInsightNote] = field(default_factory=list)
    node_count: int = 0
    average_confidence: float = 0.0
    in_progress: int = 0
    failed: list[tuple[int, str]] = field(default_factory=list)
    engine: str = ""
    graph_error: str = ""

    @property
    def more_contradictions(self) -> int:
        return max(self.open_contradictions - len(self.contradictions), 0)


# Above this share of rejected recent answers the badge says so: the graph is not just quiet.
REJECTED_SHARE_SHOWN = 0.2


def engine_label() -> str:
    mode = llm_mode(probe=False)  # the badge never waits for a model: /health probes
    if mode["mode"] == "offline":
        return "offline engine (rule-based, no model)"
    label = f"model {mode['model']}"
    if mode["probe"] != "answered":
        label += f" ({mode['probe']})"
    rejected, answers = recent_rejections(mode["model"])
    if answers and rejected / answers > REJECTED_SHARE_SHOWN:
        label += f", {rejected} of its last {answers} answers rejected"
    return label


def research_revision(project: Project) -> str:
    """What the panel's poll compares (kg.reading.overview.research_revision): a few indexed
    reads, no graph read. The panel is read again only when it changed; org insights that
    change without any change of this project show on the next change or reload."""
    return read_models.research_revision(project)


def research_panel(project: Project) -> ResearchPanel:
    """What the research holds now: valid nodes by type, gaps and open contradictions, and
    the org insights other projects of the organization share with it."""
    panel = ResearchPanel(engine=engine_label())
    processing = EpisodeProcessing.objects.filter(episode__project=project)
    panel.in_progress = processing.filter(
        Q(status=ProcessingStatus.PENDING) | Q(status=ProcessingStatus.RUNNING)
    ).count()
    panel.failed = list(
        processing.filter(status=ProcessingStatus.FAILED)
        .order_by("episode__number")
        .values_list("episode__number", "error")
    )
    try:
        overview = read_models.research_overview(project)
    except GraphUnavailable as exc:
        # The ledger is still readable; say what is wrong instead of failing the whole page.
        logger.warning("research panel for %s: %s", project.slug, exc)
        panel.graph_error = "The knowledge graph is unavailable right now."
        return panel
    for group in overview.groups:
        nodes = [
            PanelNode(n.number, n.label, n.confidence, len(n.episode_numbers), n.value)
            for n in group.nodes
        ]
        title = TYPE_TITLES.get(group.type, group.type)
        panel.groups.append(PanelGroup(group.type, title, nodes, group.total))
    panel.gaps = overview.gaps
    panel.contradictions = overview.contradictions
    panel.open_contradictions = overview.open_contradictions
    panel.org_insights = overview.org_insights
    panel.node_count = overview.node_count
    panel.average_confidence = overview.average_confidence
    return panel
