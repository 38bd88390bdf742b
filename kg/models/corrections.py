"""The correction ledger: what people changed in a project's graph, beside the episodes.

A correction is immutable like an episode (the model refuses update and delete, and the
database triggers of kg.ledger.lock refuse them for raw SQL): an undo is a new correction.
kg_rebuild replays corrections between the episodes at the place they were made
(`after_order`: the place in the order of integration of the last episode integrated before
it), so the rebuilt graph is the corrected one.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models


class ImmutableCorrectionError(Exception):
    """Raised when code tries to change or delete a correction."""


class CorrectionAction(models.TextChoices):
    MERGE = "merge", "Merge"
    SPLIT = "split", "Split an alias off"
    RENAME = "rename", "Rename"
    RETYPE = "retype", "Change the type"
    REJECT = "reject", "Reject"
    CONFIRM = "confirm", "Confirm"
    EDIT_EDGE = "edit_edge", "Change an edge's relation"
    REMOVE_EDGE = "remove_edge", "Remove an edge"
    ADD_EDGE = "add_edge", "Add an edge"
    RESOURCE_EDGE = "resource_edge", "Change the evidence an edge cites"
    # Reverts the correction numbered params["reverts"] (an undo of an undo makes it again).
    UNDO = "undo", "Undo a correction"


def reverted_numbers(corrections: list[Correction]) -> set[int]:
    """The numbers of the corrections an undo among `corrections` reverts: read from the
    latest back, since an undo can itself be undone (then what it reverted holds again)."""
    reverted: set[int] = set()
    for c in sorted(corrections, key=lambda c: c.number, reverse=True):
        if c.action == CorrectionAction.UNDO and c.number not in reverted:
            reverts = (c.params or {}).get("reverts")
            if isinstance(reverts, int):
                reverted.add(reverts)
    return reverted


class CorrectionQuerySet(models.QuerySet):
    def update(self, **kwargs):  # type: ignore[override]
        raise ImmutableCorrectionError("Corrections are immutable; they cannot be updated.")

    def delete(self):  # type: ignore[override]
        raise ImmutableCorrectionError("Corrections are immutable; make a new correction.")


class Correction(models.Model):
    uid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    project = models.ForeignKey("kg.Project", on_delete=models.PROTECT, related_name="corrections")
    number = models.PositiveIntegerField(help_text="Sequential within the project, from 1.")
    action = models.CharField(max_length=20, choices=CorrectionAction.choices)
    # The node it acts on (the survivor of a merge, the source of an edge), and the other one
    # (the node a merge absorbs, the target of an edge).
    node_uid = models.CharField(max_length=64)
    other_uid = models.CharField(max_length=64, blank=True)
    # What the action needs and what it decided, so that a replay does the same: the new
    # label or type, the alias split off with the evidence it took and the number it was given.
    params = models.JSONField(default=dict, blank=True)
    note = models.TextField(blank=True)
    # A user id without a foreign key: deleting a user must not rewrite the ledger.
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        related_name="+",
    )
    author_name = models.CharField(max_length=200, blank=True)
    after_order = models.PositiveBigIntegerField(default=0)
    created_at = models.DateTimeField()

    objects = CorrectionQuerySet.as_manager()

    class Meta:
        ordering = ["project", "number"]
        constraints = [
            models.UniqueConstraint(fields=["project", "number"], name="unique_correction_number")
        ]
        indexes = [
            models.Index(fields=["project", "node_uid"], name="kg_correction_node"),
            models.Index(fields=["project", "other_uid"], name="kg_correction_other"),
        ]

    def __str__(self) -> str:
        return f"correction #{self.number}: {self.action}"

    def save(self, *args, **kwargs) -> None:
        if self.pk is not None and not self._state.adding:
            raise ImmutableCorrectionError("Corrections are immutable; they cannot be updated.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ImmutableCorrectionError("Corrections are immutable; make a new correction.")
