"""Records of the write side: the candidate index (kg.pipeline.candidates) and the order in
which episodes were integrated, with the proposal each one was integrated from."""

from __future__ import annotations

from django.db import models


class IndexedNode(models.Model):
    """What resolution needs of a graph node, without its evidence."""

    # No index of its own: the unique constraint and the index below open on the project.
    project = models.ForeignKey(
        "kg.Project", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    uid = models.CharField(max_length=64)
    node_type = models.CharField(max_length=20)
    number = models.PositiveIntegerField()
    label = models.TextField()
    key = models.TextField()
    aliases = models.JSONField(default=list)
    alias_keys = models.JSONField(default=list)
    subject = models.CharField(max_length=300, blank=True)
    stance = models.CharField(max_length=10, blank=True)
    value = models.TextField(blank=True)
    valid_at = models.CharField(max_length=40)
    active = models.BooleanField(default=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["project", "uid"], name="unique_indexed_node")
        ]
        indexes = [
            models.Index(fields=["project", "number"], name="kg_indexed_node_number"),
            # The subjects an extraction prompt lists (kg.pipeline.candidates.known_subjects):
            # counted from this index alone, over the opinion nodes only, never the table.
            models.Index(
                fields=["project", "subject", "valid_at"],
                name="kg_indexed_node_subject",
                condition=~models.Q(subject=""),
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.number} {self.node_type}: {self.label}"


class IndexPosting(models.Model):
    """One block key of one node: its key, meaning key, a content lemma or its subject."""

    # No index of its own: each of the indexes below opens on the project, and every posting
    # filed would update a fourth index no lookup needs.
    project = models.ForeignKey(
        "kg.Project", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    node_type = models.CharField(max_length=20)
    block = models.CharField(max_length=200)
    node_uid = models.CharField(max_length=64)
    number = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["project", "block", "node_uid"], name="unique_index_posting"
            )
        ]
        indexes = [
            models.Index(
                fields=["project", "node_type", "block", "-number"], name="kg_posting_typed"
            ),
            models.Index(fields=["project", "block", "-number"], name="kg_posting_any_type"),
            models.Index(fields=["project", "node_uid"], name="kg_posting_node"),
        ]

    def __str__(self) -> str:
        return f"{self.block} → {self.node_uid}"


class EpisodeIntegration(models.Model):
    """An episode's proposal (what the model calls before the lock decided) and its place in
    the order of integration: kg_rebuild replays these in `order`, with no model call.

    `numbers` holds the numbers allocated to the nodes the episode created (uid → number):
    taken from the project's counter before the graph is written, so a retry after a failed
    write, and a rebuild, give each node the number it had and no number is ever reused."""

    episode = models.OneToOneField(
        "kg.Episode", on_delete=models.CASCADE, related_name="integration"
    )
    project = models.ForeignKey("kg.Project", on_delete=models.CASCADE, related_name="+")
    proposal = models.JSONField()
    order = models.PositiveBigIntegerField(null=True, blank=True)
    numbers = models.JSONField(default=dict)

    class Meta:
        indexes = [models.Index(fields=["project", "order"], name="kg_integration_order")]

    def __str__(self) -> str:
        return f"{self.episode_id} @{self.order}"
