"""Organization memory: insights that two or more projects of one organization share.

Why SQL and not a PROMOTED_FROM edge in the graph: the graph is per project by design (every
graph query takes a project scope, and the graph is rebuilt from each project's ledger).
An org insight is derived, cross-project knowledge: it must not live inside any one
project's graph, it must survive a project's graph rebuild (it is recomputed by promotion),
and it must respect per-project visibility. InsightSource is the PROMOTED_FROM link kept as a
row (insight → project + node uid/number + an evidence snapshot), so "which of these sources
may this user see" is a plain SQL filter joined to memberships, and nothing in the graph ever
spans two projects.
"""

from __future__ import annotations

from django.db import models


class InsightStatus(models.TextChoices):
    ACTIVE = "active", "Active"
    INACTIVE = "inactive", "Inactive"


class OrgInsight(models.Model):
    """One node-level fact (a pain, a job, a competitor, ...) held by two or more projects."""

    organization = models.ForeignKey(
        "kg.Organization", on_delete=models.CASCADE, related_name="org_insights"
    )
    node_type = models.CharField(max_length=20)
    label = models.CharField(max_length=500)
    key = models.CharField(max_length=500, help_text="Normalised label (kg node_key).")
    confidence = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(
        max_length=10, choices=InsightStatus.choices, default=InsightStatus.ACTIVE
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    deactivated_at = models.DateTimeField(null=True, blank=True)
    history = models.JSONField(
        default=list,
        blank=True,
        help_text="Status changes: [{at, status, event, projects, reason}], oldest first.",
    )

    class Meta:
        ordering = ["organization", "status", "-confidence", "id"]
        indexes = [
            models.Index(fields=["organization", "node_type", "status"]),
            models.Index(fields=["organization", "key"]),
        ]
        verbose_name = "org insight"

    def __str__(self) -> str:
        return f"{self.node_type}: {self.label} ({self.status}, {self.confidence})"


class InsightSource(models.Model):
    """The PROMOTED_FROM link: one project node an org insight rests on, with its evidence.

    The evidence is a snapshot ([{episode_number, episode_uid, quote, valid_at}]) so the chain
    stays readable when the project's graph is down or being rebuilt. `active` turns false when
    the node is gone or no longer valid; the row is kept as history.
    """

    insight = models.ForeignKey(OrgInsight, on_delete=models.CASCADE, related_name="sources")
    project = models.ForeignKey(
        "kg.Project", on_delete=models.CASCADE, related_name="org_insight_sources"
    )
    node_uid = models.CharField(max_length=64)
    node_number = models.PositiveIntegerField()
    node_label = models.CharField(max_length=500)
    node_confidence = models.PositiveSmallIntegerField(default=0)
    evidence = models.JSONField(default=list, blank=True)
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["insight", "project__slug", "node_number"]
        constraints = [
            models.UniqueConstraint(
                fields=["insight", "project", "node_uid"], name="unique_insight_source"
            )
        ]
        indexes = [models.Index(fields=["project", "node_uid"])]
        verbose_name = "insight source"

    def __str__(self) -> str:
        return f"{self.project.slug} #{self.node_number} → insight {self.insight_id}"
