"""Conversations and their messages.

A user's message is the visible side of an episode: the text is the episode's content and the
episode number is the number citations use; within its conversation a message is also numbered
1, 2, 3… (uploads and other conversations take ledger numbers in between). Assistant replies
are not episodes — they say what the research holds and must never become evidence for it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Conversation(models.Model):
    project = models.ForeignKey(
        "kg.Project", on_delete=models.CASCADE, related_name="conversations"
    )
    title = models.CharField(max_length=200)
    # False while the title is the default or taken from the first message; a user's own
    # title is never replaced.
    named = models.BooleanField(default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="conversations",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["project", "-created_at", "-id"]

    def __str__(self) -> str:
        return self.title


class Role(models.TextChoices):
    USER = "user", "User"
    ASSISTANT = "assistant", "Assistant"


class Message(models.Model):
    conversation = models.ForeignKey(
        Conversation, on_delete=models.CASCADE, related_name="messages"
    )
    role = models.CharField(max_length=10, choices=Role.choices)
    # PROTECT: the ledger outlives the chat; a message never takes its episode with it.
    episode = models.OneToOneField(
        "kg.Episode",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="chat_message",
        help_text="The episode a user message became (assistant replies have none).",
    )
    text = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)
    reply_to = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="replies"
    )
    cited_nodes = models.JSONField(
        default=list, blank=True, help_text="Node numbers an assistant reply cites, all checked."
    )
    engine = models.CharField(
        max_length=120, blank=True, help_text="Which engine wrote an assistant reply."
    )
    citations = models.JSONField(
        default=list,
        blank=True,
        help_text="An answer's citations, all checked: {marker, message, start, end, quote}.",
    )
    reply_task_id = models.CharField(
        max_length=64, blank=True, help_text="Celery task that writes the reply to this message."
    )

    class Meta:
        ordering = ["conversation", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(role="user") | models.Q(episode__isnull=True),
                name="chat_only_user_messages_have_episodes",
            ),
            # The reply task may run twice (retries, acks_late); only one reply may land.
            models.UniqueConstraint(
                fields=["reply_to"],
                condition=models.Q(role="assistant"),
                name="chat_one_reply_per_message",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.role}: {self.text[:60]}"

    @property
    def number(self) -> int | None:
        """The message's number in the project's ledger (its episode's): what citations say."""
        return self.episode.number if self.episode_id else None

    @property
    def position(self) -> int | None:
        """The user message's number within its conversation (1, 2, 3…), when annotated by
        chat.services.messages_of; file chunks and other conversations take no numbers here."""
        return getattr(self, "conversation_position", None)

    @property
    def answers_position(self) -> int | None:
        """A reply's message's number within the conversation, when annotated by
        chat.services.messages_of."""
        return getattr(self, "reply_to_position", None)

    @property
    def dom_id(self) -> str:
        return f"message-{self.episode.number}" if self.episode_id else f"reply-{self.pk}"
