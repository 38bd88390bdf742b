"""Layer 4: artifacts as immutable versions made of claims that cite graph nodes.

A version is a run of the generator. While it runs it is mutable (status, stage, report); once
it is complete it is frozen: the version row, its claims and its citations refuse every change
in model code (save, delete, queryset update/delete, bulk_create), and the foreign keys are
PROTECT so no cascade can remove them either. Regenerating makes a new version.

Each citation snapshots what the claim relied on at write time (node label, confidence,
episode, quote, offsets), so a version reads the same after the graph has moved on.
"""

from __future__ import annotations

from django.db import models


class FrozenVersionError(Exception):
    """Raised when code tries to change a completed version, its claims or its citations."""


class ArtifactKind(models.TextChoices):
    PRD = "prd", "PRD"


class VersionStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    RUNNING = "running", "Running"
    COMPLETE = "complete", "Complete"
    FAILED = "failed", "Failed"
    # The context had not changed since the latest complete version: that one was returned.
    REUSED = "reused", "Reused an identical version"


class Stage(models.TextChoices):
    QUEUED = "queued", "Queued"
    CONTEXT = "context", "Reading the knowledge graph"
    WRITING = "writing", "Writing claims"
    CHECKING = "checking", "Checking every claim"
    REPAIR = "repair", "Repairing failed claims"
    REVIEW = "review", "Reviewer pass"
    RENDERING = "rendering", "Rendering"
    DONE = "done", "Done"


class Section(models.TextChoices):
    PROBLEM = "problem", "Problem statement"
    SEGMENTS = "segments", "Target users and their top pains"
    JOBS = "jobs", "Jobs to be done"
    PAINS = "pains", "Pains with evidence"
    ALTERNATIVES = "alternatives", "Current alternatives and competitors"
    GOALS = "goals", "Goals and success metrics"
    NON_GOALS = "non_goals", "Non-goals"
    REQUIREMENTS = "requirements", "Requirements"
    USER_STORIES = "user_stories", "User stories"
    ACCEPTANCE = "acceptance", "Acceptance criteria"
    RISKS = "risks", "Risks"
    DECISIONS = "decisions", "Decisions"
    OPEN_QUESTIONS = "open_questions", "Open questions"
    APPENDIX = "appendix", "Evidence appendix"


class ClaimKind(models.TextChoices):
    FACT = "fact", "Fact"
    HYPOTHESIS = "hypothesis", "Hypothesis"
    GAP = "gap", "Research gap"
    CONTRADICTION = "contradiction", "Open contradiction"
    DECISION = "decision", "Decision"  # what a user's answer to a contradiction decided
    EVIDENCE = "evidence", "Evidence entry"  # one per cited node in the appendix


class Artifact(models.Model):
    project = models.ForeignKey("kg.Project", on_delete=models.PROTECT, related_name="artifacts")
    kind = models.CharField(max_length=20, choices=ArtifactKind.choices, default=ArtifactKind.PRD)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["project", "kind"]
        constraints = [
            models.UniqueConstraint(fields=["project", "kind"], name="unique_artifact_kind")
        ]

    def __str__(self) -> str:
        return f"{self.project.slug} {self.kind}"


class VersionQuerySet(models.QuerySet):
    def _refuse_if_complete(self, action: str) -> None:
        if self.filter(status=VersionStatus.COMPLETE).exists():
            raise FrozenVersionError(f"completed versions are frozen; they cannot be {action}")

    def update(self, **kwargs):  # type: ignore[override]
        self._refuse_if_complete("updated")
        return super().update(**kwargs)

    def delete(self):  # type: ignore[override]
        self._refuse_if_complete("deleted")
        return super().delete()

    def complete(self) -> VersionQuerySet:
        return self.filter(status=VersionStatus.COMPLETE)


class ArtifactVersion(models.Model):
    artifact = models.ForeignKey(Artifact, on_delete=models.PROTECT, related_name="versions")
    # Given when the version completes, so failed or reused runs leave no holes in the numbering.
    number = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    completed_at = models.DateTimeField(null=True, blank=True)
    language = models.CharField(max_length=2)
    as_of = models.DateTimeField(null=True, blank=True)
    context_hash = models.CharField(max_length=64, blank=True, db_index=True)
    revision_key = models.CharField(
        max_length=64,
        blank=True,
        db_index=True,
        help_text="Graph revision and generation parameters it was made or reused at.",
    )
    engine = models.CharField(max_length=20, blank=True)
    writer_model = models.CharField(max_length=200, blank=True)
    status = models.CharField(
        max_length=10, choices=VersionStatus.choices, default=VersionStatus.PENDING
    )
    stage = models.CharField(max_length=10, choices=Stage.choices, default=Stage.QUEUED)
    task_id = models.CharField(max_length=64, blank=True)
    error = models.TextField(blank=True)
    same_as = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="For a reused run: the complete version it returned.",
    )
    report = models.JSONField(
        default=dict, blank=True, help_text="Dropped claims with reasons, reviewer remarks, counts."
    )
    markdown = models.TextField(blank=True, help_text="The rendered Markdown, frozen with it.")
    # A version a person made by editing another (artifacts.editing): from which, and who.
    edited_from = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="For an edit: the version it was edited from.",
    )
    edited_by = models.CharField(max_length=150, blank=True, help_text="Who made the edit.")

    objects = VersionQuerySet.as_manager()

    class Meta:
        ordering = ["artifact", "-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["artifact", "number"], name="unique_version_number")
        ]

    def __str__(self) -> str:
        label = f"v{self.number}" if self.number else f"run {self.pk}"
        return f"{self.artifact} {label} ({self.status})"

    def save(self, *args, **kwargs) -> None:
        if not self._state.adding and self._stored_complete():
            raise FrozenVersionError("completed versions are frozen; they cannot be changed")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        if self._stored_complete():
            raise FrozenVersionError("completed versions are frozen; they cannot be deleted")
        return super().delete(*args, **kwargs)

    def _stored_complete(self) -> bool:
        return (
            self.pk is not None
            and type(self).objects.filter(pk=self.pk, status=VersionStatus.COMPLETE).exists()
        )


class _FrozenChildQuerySet(models.QuerySet):
    """Refuses writes to rows that belong to a completed version (path set per model)."""

    version_path = ""

    def _refuse_if_frozen(self, action: str) -> None:
        if self.filter(**{f"{self.version_path}__status": VersionStatus.COMPLETE}).exists():
            raise FrozenVersionError(
                f"rows of a completed version are frozen; they cannot be {action}"
            )

    def update(self, **kwargs):  # type: ignore[override]
        self._refuse_if_frozen("updated")
        return super().update(**kwargs)

    def delete(self):  # type: ignore[override]
        self._refuse_if_frozen("deleted")
        return super().delete()


class ClaimQuerySet(_FrozenChildQuerySet):
    version_path = "version"

    def bulk_create(self, objs, *args, **kwargs):  # type: ignore[override]
        objs = list(objs)
        version_ids = {o.version_id for o in objs}
        if ArtifactVersion.objects.filter(pk__in=version_ids).complete().exists():
            raise FrozenVersionError("a completed version cannot get new claims")
        return super().bulk_create(objs, *args, **kwargs)


class Claim(models.Model):
    version = models.ForeignKey(ArtifactVersion, on_delete=models.PROTECT, related_name="claims")
    section = models.CharField(max_length=20, choices=Section.choices)
    order = models.PositiveIntegerField()
    text = models.TextField()
    kind = models.CharField(max_length=15, choices=ClaimKind.choices, default=ClaimKind.FACT)
    nodes = models.JSONField(default=list, help_text="Node numbers the claim rests on.")
    # Why an edited sentence is no longer supported by its citations (a number no quote holds,
    # words the quotes do not say); empty when it passes the checks.
    flag = models.TextField(blank=True)
    edited = models.BooleanField(default=False, help_text="A person rewrote this sentence.")

    objects = ClaimQuerySet.as_manager()

    class Meta:
        ordering = ["version", "section", "order"]
        indexes = [models.Index(fields=["version", "section", "order"])]

    def __str__(self) -> str:
        return f"{self.section} {self.order}: {self.text[:60]}"

    def save(self, *args, **kwargs) -> None:
        if self._frozen():
            raise FrozenVersionError("claims of a completed version are frozen")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        if self._frozen():
            raise FrozenVersionError("claims of a completed version are frozen")
        return super().delete(*args, **kwargs)

    def _frozen(self) -> bool:
        return ArtifactVersion.objects.filter(
            pk=self.version_id, status=VersionStatus.COMPLETE
        ).exists()


class CitationQuerySet(_FrozenChildQuerySet):
    version_path = "claim__version"

    def bulk_create(self, objs, *args, **kwargs):  # type: ignore[override]
        objs = list(objs)
        # The claims come with their instance when built by the generator: no id list needed,
        # which keeps the check within the databases' bind-parameter limits at any size.
        claim_field = Citation._meta.get_field("claim")
        version_ids = {o.claim.version_id for o in objs if claim_field.is_cached(o)}
        loose = sorted({o.claim_id for o in objs if not claim_field.is_cached(o)})
        for i in range(0, len(loose), 500):
            version_ids |= set(
                Claim.objects.filter(pk__in=loose[i : i + 500]).values_list("version_id", flat=True)
            )
        if ArtifactVersion.objects.filter(pk__in=version_ids).complete().exists():
            raise FrozenVersionError("a completed version cannot get new citations")
        return super().bulk_create(objs, *args, **kwargs)


class Citation(models.Model):
    """One quote a claim relies on: a snapshot of the node and the episode at write time."""

    claim = models.ForeignKey(Claim, on_delete=models.PROTECT, related_name="citations")
    order = models.PositiveIntegerField()
    node_number = models.PositiveIntegerField()
    node_uid = models.CharField(max_length=64)
    node_type = models.CharField(max_length=20)
    node_label = models.TextField()
    confidence = models.PositiveSmallIntegerField()
    episode_number = models.PositiveIntegerField()
    episode_uid = models.CharField(max_length=64)
    date = models.DateTimeField()
    author = models.CharField(max_length=200, blank=True)
    quote = models.TextField()
    start = models.PositiveIntegerField()
    end = models.PositiveIntegerField()
    file = models.CharField(max_length=300, blank=True)
    page = models.CharField(max_length=50, blank=True)
    # Other episodes that support the same node ("confirmed in messages #8, #18").
    confirmed_in = models.JSONField(default=list, blank=True)

    objects = CitationQuerySet.as_manager()

    class Meta:
        ordering = ["claim", "order"]

    def __str__(self) -> str:
        return f"{self.node_type} #{self.node_number} ← message #{self.episode_number}"

    def save(self, *args, **kwargs) -> None:
        if self._frozen():
            raise FrozenVersionError("citations of a completed version are frozen")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        if self._frozen():
            raise FrozenVersionError("citations of a completed version are frozen")
        return super().delete(*args, **kwargs)

    def _frozen(self) -> bool:
        return Claim.objects.filter(
            pk=self.claim_id, version__status=VersionStatus.COMPLETE
        ).exists()
