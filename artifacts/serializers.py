"""API serializers: explicit fields, so drf-spectacular documents the shapes exactly."""

from __future__ import annotations

import datetime as dt
import re

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from artifacts.models import Artifact, ArtifactVersion, Citation, Claim, VersionStatus
from artifacts.services import parse_as_of, shown_version
from kg.web.api.fields import StringField


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


# RFC 3339 as the schema's `date` and `date-time` formats say: a date, or a date and time with
# Z or an offset (a time without one would be read in some unknown zone).
_AS_OF = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}"
    r"([Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2}))?"
)


@extend_schema_field(
    {
        "type": "string",
        "anyOf": [{"format": "date"}, {"format": "date-time"}],
        "example": "2026-03-05",
    }
)
class AsOfField(serializers.Field):
    """A date (the end of that day, UTC) or an RFC 3339 date-time with Z or an offset."""

    def to_internal_value(self, data) -> dt.datetime:
        if not isinstance(data, str) or not _AS_OF.fullmatch(data):
            raise serializers.ValidationError(
                "a date (2026-03-05, the end of that day in UTC) or a date and time with Z or "
                "an offset (2026-03-05T12:00:00Z)"
            )
        text = data.upper()
        if "." in text:  # Python reads at most six digits of a second's fraction
            head, _, tail = text.partition(".")
            digits = len(tail) - len(tail.lstrip("0123456789"))
            text = f"{head}.{tail[:digits][:6].ljust(6, '0')}{tail[digits:]}"
        try:
            moment = parse_as_of(text)
        except ValueError as exc:
            raise serializers.ValidationError(str(exc)) from None
        try:
            return moment.astimezone(dt.UTC)
        except OverflowError:  # year 1 or 9999 with an offset: before or after everything
            return (
                dt.datetime.min.replace(tzinfo=dt.UTC)
                if moment.year == 1
                else (dt.datetime.max.replace(tzinfo=dt.UTC))
            )

    def to_representation(self, value):
        return value.isoformat()


class GenerateRequestSerializer(serializers.Serializer):
    as_of = AsOfField(
        required=False,
        allow_null=True,
        help_text="The PRD as of this date or time: a date alone means the end of that day "
        "(UTC); a time needs Z or an offset. Omitted or null: now.",
    )


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
    flag = serializers.CharField(
        allow_blank=True,
        required=False,
        help_text="Why an edited sentence is no longer supported by its citations.",
    )
    edited = serializers.BooleanField(required=False)


class EditRequestSerializer(serializers.Serializer):
    section = StringField(help_text="A body section key, e.g. requirements.")
    order = serializers.IntegerField(min_value=0, help_text="The sentence's place in it.")
    text = StringField(
        allow_blank=True, max_length=800, help_text="The new sentence; empty removes it."
    )


class EditChangeSerializer(serializers.Serializer):
    section = serializers.CharField()
    before = serializers.CharField(allow_blank=True)
    after = serializers.CharField(allow_blank=True)
    flag = serializers.CharField(allow_blank=True)


class EditResponseSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    edited_from = serializers.IntegerField()
    edited_by = serializers.CharField()
    changes = EditChangeSerializer(many=True)


class SectionShapeSerializer(serializers.Serializer):
    key = serializers.CharField()
    title = serializers.CharField()
    claims = ClaimShapeSerializer(many=True)


class AppendixNodeSerializer(serializers.Serializer):
    node = serializers.IntegerField()
    node_type = serializers.CharField()
    node_label = serializers.CharField()
    confidence = serializers.IntegerField()


class AppendixQuoteSerializer(serializers.Serializer):
    quote = serializers.CharField()
    nodes = AppendixNodeSerializer(many=True, help_text="The cited nodes this quote supports.")


class AppendixShapeSerializer(serializers.Serializer):
    """One message of the evidence appendix: each of its quotes once, with its nodes."""

    message_number = serializers.IntegerField()
    episode = serializers.CharField()
    date = serializers.CharField()
    author = serializers.CharField(allow_blank=True)
    file = serializers.CharField(allow_blank=True)
    page = serializers.CharField(allow_blank=True)
    nodes = serializers.ListField(child=serializers.IntegerField())
    quotes = AppendixQuoteSerializer(many=True)


class AppendixMoreSerializer(serializers.Serializer):
    """A node whose quotes the appendix cuts at three: how many more its page holds."""

    node = serializers.IntegerField()
    node_type = serializers.CharField()
    more = serializers.IntegerField()


class NamedNodeSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    label = serializers.CharField()


class PriorityShapeSerializer(serializers.Serializer):
    """A requirement's score: reach × impact × confidence (see the README), and its parts."""

    node = serializers.IntegerField()
    label = serializers.CharField()
    rank = serializers.IntegerField()
    score = serializers.FloatField()
    reach = serializers.IntegerField(help_text="people who mention it + segments it serves")
    impact = serializers.IntegerField(
        help_text="1 + pains it solves + jobs it supports (+1 when the research recommends it)"
    )
    confidence = serializers.IntegerField()
    people = serializers.IntegerField()
    sources = serializers.IntegerField()
    latest = serializers.CharField()
    recommended = serializers.BooleanField()
    segments = NamedNodeSerializer(many=True)
    pains = NamedNodeSerializer(many=True)
    jobs = NamedNodeSerializer(many=True)
    why = serializers.CharField()


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
    appendix_more = AppendixMoreSerializer(
        many=True, help_text="Nodes with more quotes than the appendix shows, and how many more."
    )
    priorities = PriorityShapeSerializer(many=True, help_text="Requirements, best score first.")
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
        fields = ["id", "section", "order", "text", "kind", "nodes", "flag", "edited", "citations"]
