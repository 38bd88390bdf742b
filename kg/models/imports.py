"""A research file recorded by a worker rather than during the upload request: what it was,
how far it got, and its per-file report."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class SourceImportStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RECORDING = "recording", "Recording"
    RECORDED = "recorded", "Recorded"
    FAILED = "failed", "Failed"


class SourceImport(models.Model):
    project = models.ForeignKey(
        "kg.Project", on_delete=models.CASCADE, related_name="source_imports"
    )
    file_name = models.CharField(max_length=200)
    options = models.JSONField(
        default=dict, blank=True, help_text="kg.ledger.sources.ImportOptions"
    )
    author = models.CharField(max_length=200, blank=True)
    # The uploaded bytes until a worker has read them; emptied once recorded or refused.
    raw = models.BinaryField(blank=True, default=b"")
    status = models.CharField(
        max_length=10, choices=SourceImportStatus.choices, default=SourceImportStatus.QUEUED
    )
    report = models.JSONField(default=dict, blank=True, help_text="the per-file report")
    error = models.TextField(blank=True)
    episodes = models.ManyToManyField("kg.Episode", related_name="source_imports", blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.project.slug}: {self.file_name} ({self.status})"
