"""Layer 1: episodes, the append-only ledger of everything that was said.

An episode never changes after it is written. The model refuses update and delete, and a
database trigger (see the migration and kg.ledger.lock) refuses them for raw SQL as well.
Pipeline state is mutable, so it lives beside the episode in EpisodeProcessing.
"""

from __future__ import annotations

import hashlib
import uuid

from django.db import models


class ImmutableEpisodeError(Exception):
    """Raised when code tries to change or delete an episode."""


class EpisodeKind(models.TextChoices):
    CHAT_MESSAGE = "chat_message", "Chat message"
    FILE_CHUNK = "file_chunk", "File chunk"
    IMPORT = "import", "Imported record"


class RecordKind(models.TextChoices):
    """What the records of an imported file are, as the person importing them says. Kept in
    each episode's source_ref ("records"), so a rebuild reads the episode as it was read."""

    BUG_REPORT = "bug_report", "Bug reports (tickets)"


def record_kind(source_ref: dict | None) -> str:
    """The kind its import gave an episode's record, or "" (chat, notes, unsaid)."""
    value = (source_ref or {}).get("records", "")
    return value if value in RecordKind.values else ""


class EpisodeQuerySet(models.QuerySet):
    def update(self, **kwargs):  # type: ignore[override]
        raise ImmutableEpisodeError("Episodes are immutable; they cannot be updated.")

    def delete(self):  # type: ignore[override]
        raise ImmutableEpisodeError("Episodes are immutable; they cannot be deleted.")


def content_sha256(content: str) -> str:
    return hashlib.sha256(content.encode("utf-8")).hexdigest()


class Episode(models.Model):
    uid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    project = models.ForeignKey("kg.Project", on_delete=models.PROTECT, related_name="episodes")
    number = models.PositiveIntegerField(help_text="Sequential within the project, from 1.")
    kind = models.CharField(max_length=20, choices=EpisodeKind.choices)
    content = models.TextField()
    author = models.CharField(max_length=200, blank=True)
    source_ref = models.JSONField(
        default=dict, blank=True, help_text="conversation/message, or file/page/section."
    )
    valid_at = models.DateTimeField(help_text="When what it says became true (when it was said).")
    recorded_at = models.DateTimeField(auto_now_add=True)
    content_sha256 = models.CharField(max_length=64)

    objects = EpisodeQuerySet.as_manager()

    class Meta:
        ordering = ["project", "number"]
        constraints = [
            models.UniqueConstraint(fields=["project", "number"], name="unique_episode_number")
        ]
        indexes = [
            models.Index(fields=["project", "valid_at"]),
            # Uploads and imports look their content up: the same words are one source.
            models.Index(fields=["project", "content_sha256"], name="episode_content_hash"),
        ]

    def __str__(self) -> str:
        return f"{self.project.slug} #{self.number}"

    def save(self, *args, **kwargs) -> None:
        if self.pk is not None and not self._state.adding:
            raise ImmutableEpisodeError("Episodes are immutable; they cannot be updated.")
        self.content_sha256 = content_sha256(self.content)
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ImmutableEpisodeError("Episodes are immutable; they cannot be deleted.")

    @property
    def source_label(self) -> str:
        """Where in its file the episode came from: 'survey.csv, row 212'."""
        from kg.ledger.sources.reference import (
            source_label,  # kg.ledger.sources reads into these models
        )

        return source_label(self.source_ref)

    @property
    def record_kind(self) -> str:
        return record_kind(self.source_ref)

    @property
    def message_number(self) -> int | None:
        value = (self.source_ref or {}).get("message")
        return int(value) if value is not None else None


class ProcessingStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


class EpisodeProcessing(models.Model):
    """The pipeline's mutable state for one episode."""

    episode = models.OneToOneField(Episode, on_delete=models.PROTECT, related_name="processing")
    status = models.CharField(
        max_length=10, choices=ProcessingStatus.choices, default=ProcessingStatus.PENDING
    )
    stage = models.CharField(max_length=30, blank=True)
    error = models.TextField(blank=True)
    attempts = models.PositiveIntegerField(default=0)
    # Recovery: how often the stale-work sweep re-queued it, when a scheduled retry is due
    # (the sweep leaves it alone until then) and which worker process runs it.
    requeues = models.PositiveIntegerField(default=0)
    retry_at = models.DateTimeField(null=True, blank=True)
    worker = models.CharField(max_length=200, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [models.Index(fields=["status", "updated_at"])]

    def __str__(self) -> str:
        return f"{self.episode}: {self.status}"
