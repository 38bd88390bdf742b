"""Records the pipeline keeps in SQL: every model call, every rejection, every resolution."""

from __future__ import annotations

from django.db import models


class LLMCall(models.Model):
    """One model call (or a cached replay source). Cached by (model, prompt_hash)."""

    operation = models.CharField(max_length=60)
    engine = models.CharField(max_length=20)
    model = models.CharField(max_length=120)
    prompt_hash = models.CharField(max_length=64)
    prompt = models.JSONField(help_text="The messages sent.")
    raw_output = models.TextField(blank=True)
    parsed_ok = models.BooleanField(default=True)
    error = models.TextField(blank=True)
    prompt_tokens = models.PositiveIntegerField(default=0)
    completion_tokens = models.PositiveIntegerField(default=0)
    latency_ms = models.PositiveIntegerField(default=0)
    project = models.ForeignKey("kg.Project", null=True, blank=True, on_delete=models.CASCADE)
    episode = models.ForeignKey(
        "kg.Episode", null=True, blank=True, on_delete=models.PROTECT, related_name="llm_calls"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["model", "prompt_hash"], name="unique_llm_call_prompt")
        ]
        verbose_name = "model call"

    def __str__(self) -> str:
        return f"{self.operation} {self.model} {self.prompt_hash[:8]}"


class ExtractionRejection(models.Model):
    """A candidate (node or relation) the system refused, and why."""

    episode = models.ForeignKey("kg.Episode", on_delete=models.PROTECT, related_name="rejections")
    llm_call = models.ForeignKey(LLMCall, null=True, blank=True, on_delete=models.SET_NULL)
    round = models.PositiveSmallIntegerField(help_text="1 = first answer, 2 = after repair.")
    item_kind = models.CharField(max_length=10)  # node | relation
    item = models.JSONField()
    reason = models.TextField()
    final = models.BooleanField(help_text="True when the item was dropped for good.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["episode", "round", "id"]

    def __str__(self) -> str:
        return f"{self.episode}: {self.reason}"


class ResolutionMethod(models.TextChoices):
    EXACT = "exact", "Exact key or alias"
    FUZZY = "fuzzy", "Fuzzy above the merge threshold"
    LLM = "llm", "Model confirmation"
    NEW = "new", "New node"


class ResolutionDecision(models.Model):
    project = models.ForeignKey("kg.Project", on_delete=models.CASCADE, related_name="resolutions")
    episode = models.ForeignKey("kg.Episode", on_delete=models.PROTECT, related_name="resolutions")
    node_type = models.CharField(max_length=20)
    candidate_label = models.CharField(max_length=500)
    method = models.CharField(max_length=10, choices=ResolutionMethod.choices)
    score = models.FloatField(null=True, blank=True)
    compared_label = models.CharField(max_length=500, blank=True)
    node_uid = models.CharField(max_length=64)
    node_number = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        # Append-only (kg.ledger.lock): a reprocessed episode adds decisions beside the old.
        ordering = ["project", "id"]
        indexes = [models.Index(fields=["project", "node_uid"])]

    def __str__(self) -> str:
        return f"{self.candidate_label} → #{self.node_number} ({self.method})"


class ProjectRevision(models.Model):
    """How many times a project's graph has changed: read to tell "nothing changed" cheaply.

    One row per project, incremented (never decremented) wherever `project_graph_changed`
    fires; a project without a row is at revision 0.
    """

    project = models.OneToOneField(
        "kg.Project", on_delete=models.CASCADE, related_name="graph_revision", primary_key=True
    )
    revision = models.PositiveBigIntegerField(default=0)
    # The last node number handed out (kg.pipeline.numbering): numbers are never reused.
    last_node_number = models.PositiveBigIntegerField(default=0)
    changed_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.project_id}@{self.revision}"


class BrokerEpoch(models.Model):
    """The broker epoch the stale-work sweep last saw (kg.pipeline.recovery): one row.

    The epoch itself is a key in the broker's own Redis database, gone with its queue when the
    broker loses its data; kept here too, a new epoch tells a lost queue from a first start.
    """

    epoch = models.CharField(max_length=100)
    seen_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return self.epoch
