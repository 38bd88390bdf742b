"""API serializers: explicit fields, so drf-spectacular documents the shapes exactly."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from artifacts.models import Artifact, ArtifactVersion, Citation, Claim, VersionStatus
from artifacts.services import parse_as_of, shown_version


class ArtifactSerializer(serializers.ModelSerializer):
    versions = serializers.SerializerMethodField()
    latest_version = serializers.SerializerMethodField()

    class Meta:
        model = Artifact
        fields = ["id", "kind", "created_at", "versions", "latest_version"]

    @extend_schema_field(serializers.IntegerField())
    def get_versions(self, artifact: Artifact) -> int:
        return artifact.versions.filter(status=VersionStatus.COMPLETE).count()

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_latest_version(self, artifact: Artifact) -> int | None:
        latest = artifact.versions.filter(status=VersionStatus.COMPLETE).order_by("-number").first()
        return latest.number if latest else None


class VersionSummarySerializer(serializers.ModelSerializer):
    counts = serializers.SerializerMethodField()
    dropped = serializers.SerializerMethodField()

    class Meta:
        model = ArtifactVersion
        fields = [
            "id",
            "number",
            "status",
            "language",
            "as_of",
            "created_at",
            "completed_at",
            "engine",
            "writer_model",
            "context_hash",
            "counts",
            "dropped",
        ]

    @extend_schema_field(serializers.DictField(child=serializers.IntegerField()))
    def get_counts(self, version: ArtifactVersion) -> dict:
        return dict((version.report or {}).get("counts", {}))

    @extend_schema_field(serializers.IntegerField())
    def get_dropped(self, version: ArtifactVersion) -> int:
        return len((version.report or {}).get("dropped", []))


class RunSerializer(serializers.ModelSerializer):
    """A generation run: pending → running (stage) → complete / reused / failed."""

    version = serializers.SerializerMethodField()

    class Meta:
        model = ArtifactVersion
        fields = ["id", "task_id", "status", "stage", "error", "created_at", "version"]

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_version(self, run: ArtifactVersion) -> int | None:
        done = shown_version(run)
        return done.number if done else None


class GenerateRequestSerializer(serializers.Serializer):
    as_of = serializers.CharField(
        required=False,
        allow_blank=True,
        help_text="ISO-8601 date or time; a date alone means the end of that day (UTC).",
    )

    def validate_as_of(self, value: str):
        try:
            return parse_as_of(value)
        except ValueError as exc:
            raise serializers.ValidationError(str(exc)) from None


class GenerateResponseSerializer(serializers.Serializer):
    task_id = serializers.CharField()
    version_id = serializers.IntegerField(help_text="The run's id; its number comes at the end.")
    status = serializers.CharField()
    status_url = serializers.CharField()


# --- the document shape (artifacts.rendering.to_json) ----------------------------------------


class CitationShapeSerializer(serializers.Serializer):
    node = serializers.IntegerField()
    node_type = serializers.CharField()
    node_label = serializers.CharField()
    confidence = serializers.IntegerField()
    episode = serializers.CharField(help_text="The episode's uid.")
    message_number = serializers.IntegerField(help_text="The episode number ('message #N').")
    date = serializers.CharField()
    quote = serializers.CharField()
    file = serializers.CharField(allow_blank=True)
    page = serializers.CharField(allow_blank=True)
    confirmed_in = serializers.ListField(child=serializers.IntegerField())


class ClaimShapeSerializer(serializers.Serializer):
    text = serializers.CharField()
    kind = serializers.CharField()
    nodes = serializers.ListField(child=serializers.IntegerField())
    citations = CitationShapeSerializer(many=True)


class SectionShapeSerializer(serializers.Serializer):
    key = serializers.CharField()
    title = serializers.CharField()
    claims = ClaimShapeSerializer(many=True)


class AppendixShapeSerializer(serializers.Serializer):
    node = serializers.IntegerField()
    node_type = serializers.CharField()
    label = serializers.CharField()
    confidence = serializers.IntegerField()
    quotes = CitationShapeSerializer(many=True)


class DroppedShapeSerializer(serializers.Serializer):
    text = serializers.CharField(allow_blank=True)
    reason = serializers.CharField()
    section = serializers.CharField(allow_blank=True)
    nodes = serializers.ListField(child=serializers.IntegerField())


class OrgInsightShapeSerializer(serializers.Serializer):
    """Also seen in other projects of the organization: not a claim, not this project's evidence."""

    label = serializers.CharField()
    node_type = serializers.CharField()
    confidence = serializers.IntegerField()
    note = serializers.CharField(help_text='e.g. "also seen in 2 other projects"')
    local_nodes = serializers.ListField(
        child=serializers.IntegerField(), help_text="This project's node numbers."
    )
    other_projects = serializers.ListField(
        child=serializers.CharField(), help_text="Names only: their quotes stay with them."
    )


class VersionDetailSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    language = serializers.CharField()
    project = serializers.CharField()
    as_of = serializers.CharField(allow_null=True)
    created_at = serializers.CharField()
    engine = serializers.CharField()
    writer_model = serializers.CharField()
    sections = SectionShapeSerializer(many=True)
    decisions = ClaimShapeSerializer(
        many=True, help_text="What answers to contradictions decided, each citing its answer."
    )
    open_questions = ClaimShapeSerializer(many=True)
    appendix = AppendixShapeSerializer(many=True)
    dropped = DroppedShapeSerializer(many=True)
    reviewer = serializers.DictField()
    org_insights = OrgInsightShapeSerializer(many=True)


# --- rows -----------------------------------------------------------------------------------


class CitationRowSerializer(serializers.ModelSerializer):
    node = serializers.IntegerField(source="node_number")
    episode = serializers.CharField(source="episode_uid")
    message_number = serializers.IntegerField(source="episode_number")

    class Meta:
        model = Citation
        fields = [
            "node",
            "node_type",
            "node_label",
            "confidence",
            "episode",
            "message_number",
            "date",
            "quote",
            "start",
            "end",
            "file",
            "page",
            "confirmed_in",
        ]


class ClaimRowSerializer(serializers.ModelSerializer):
    citations = CitationRowSerializer(many=True, read_only=True)
    nodes = serializers.ListField(child=serializers.IntegerField())

    class Meta:
        model = Claim
        fields = ["id", "section", "order", "text", "kind", "nodes", "citations"]
