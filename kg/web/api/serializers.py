"""How kg resources look in the API. Graph records are read through their attributes."""

from __future__ import annotations

from rest_framework import serializers

from kg.graph.records import ListedNode
from kg.ledger.sources import FORMAT_CHOICES, ImportOptions
from kg.models import (
    Episode,
    EpisodeProcessing,
    Language,
    Membership,
    Organization,
    Project,
    RecordKind,
)
from kg.ontology import NODE_TYPES, RELATIONS
from kg.web.api.fields import StrictBooleanField, StrictIntegerField, StringField, WrittenTextField


class ErrorSerializer(serializers.Serializer):
    """Every error the API returns (see kg.web.api.exceptions)."""

    status = serializers.IntegerField()
    code = serializers.CharField()
    message = serializers.CharField()
    errors = serializers.DictField(required=False, child=serializers.JSONField())


class OrganizationSerializer(serializers.ModelSerializer):
    role = serializers.SerializerMethodField()

    class Meta:
        model = Organization
        fields = ["slug", "name", "role", "created_at"]

    def get_role(self, organization: Organization) -> str:
        user = self.context["request"].user
        membership = Membership.objects.filter(user=user, organization=organization).first()
        return membership.role if membership else ""


class ProjectSerializer(serializers.ModelSerializer):
    organization = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    episode_count = serializers.IntegerField(read_only=True)
    archived = serializers.BooleanField(
        read_only=True, help_text="Archived projects can be read, not changed."
    )

    class Meta:
        model = Project
        fields = [
            "slug",
            "name",
            "organization",
            "language",
            "description",
            "created_at",
            "episode_count",
            "archived",
        ]


class NewProjectSerializer(serializers.Serializer):
    organization = serializers.SlugField(help_text="The organization's slug (owners, admins).")
    name = WrittenTextField(max_length=200)
    language = serializers.ChoiceField(choices=Language.choices, default=Language.EN)
    description = StringField(max_length=2000, required=False, allow_blank=True)


class ProjectChangeSerializer(serializers.Serializer):
    """Only the fields sent change; an empty object changes nothing (the role is still
    checked)."""

    name = WrittenTextField(max_length=200, required=False)
    language = serializers.ChoiceField(choices=Language.choices, required=False)
    description = StringField(max_length=2000, required=False, allow_blank=True)
    archived = StrictBooleanField(
        required=False, help_text="true archives the project (read-only), false restores it."
    )


class ProcessingSerializer(serializers.ModelSerializer):
    class Meta:
        model = EpisodeProcessing
        fields = ["status", "stage", "error", "attempts", "updated_at"]


class EpisodeSerializer(serializers.ModelSerializer):
    processing = ProcessingSerializer(read_only=True, allow_null=True)

    class Meta:
        model = Episode
        fields = [
            "number",
            "uid",
            "kind",
            "author",
            "content",
            "source_ref",
            "valid_at",
            "recorded_at",
            "content_sha256",
            "processing",
        ]


class NodeRefSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    type = serializers.CharField()
    label = serializers.CharField()


class EpisodeNodeSerializer(NodeRefSerializer):
    confidence = serializers.IntegerField()


class EpisodeDetailSerializer(EpisodeSerializer):
    nodes = EpisodeNodeSerializer(many=True, read_only=True, source="extracted_nodes")

    class Meta(EpisodeSerializer.Meta):
        fields = [*EpisodeSerializer.Meta.fields, "nodes"]


class EpisodeQuerySerializer(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=["pending", "running", "done", "failed"], required=False
    )
    kind = serializers.ChoiceField(
        choices=[c[0] for c in Episode._meta.get_field("kind").choices], required=False
    )


class NodeQuerySerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=list(NODE_TYPES), required=False)
    valid = serializers.BooleanField(
        required=False, help_text="true: only current nodes; false: only closed ones."
    )
    min_confidence = serializers.IntegerField(required=False, min_value=0, max_value=100)


class NodeSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    uid = serializers.CharField()
    type = serializers.CharField()
    label = serializers.CharField()
    aliases = serializers.ListField(child=serializers.CharField())
    confidence = serializers.IntegerField()
    valid_at = serializers.CharField()
    invalid_at = serializers.CharField(allow_null=True)
    valid = serializers.SerializerMethodField()
    subject = serializers.CharField()
    stance = serializers.CharField()
    value = serializers.CharField()
    sources = serializers.SerializerMethodField(help_text="How many episodes support it.")

    def get_valid(self, node) -> bool:
        return node.invalid_at is None

    def get_sources(self, node) -> int:
        # A listed node carries the graph's count; a whole node counts its evidence.
        return node.sources if isinstance(node, ListedNode) else len(node.episode_uids)


class EvidenceSerializer(serializers.Serializer):
    episode_number = serializers.IntegerField()
    episode_uid = serializers.CharField()
    quote = serializers.CharField()
    start = serializers.IntegerField()
    end = serializers.IntegerField()
    valid_at = serializers.CharField()
    author = serializers.CharField(allow_blank=True)
    kind = serializers.CharField(allow_blank=True)
    source_ref = serializers.JSONField()
    excerpt = serializers.CharField(allow_blank=True, help_text="The quote with its surroundings.")
    message_url = serializers.CharField(help_text="The page showing the message.")


class EdgeSerializer(serializers.Serializer):
    uid = serializers.CharField()
    relation = serializers.CharField()
    direction = serializers.CharField(
        allow_blank=True, help_text="out or in, seen from the node asked about."
    )
    source = NodeRefSerializer()
    target = NodeRefSerializer()
    confidence = serializers.IntegerField()
    valid_at = serializers.CharField()
    invalid_at = serializers.CharField(allow_null=True)
    valid = serializers.BooleanField()
    quotes = serializers.ListField(child=serializers.CharField())


class EdgeQuerySerializer(serializers.Serializer):
    relation = serializers.ChoiceField(choices=sorted(RELATIONS), required=False)
    valid = serializers.BooleanField(
        required=False, help_text="true: only current edges; false: only closed ones."
    )


class ContradictionSerializer(serializers.Serializer):
    uid = serializers.CharField()
    subject = serializers.CharField(allow_blank=True)
    status = serializers.CharField()
    a = NodeRefSerializer()
    b = NodeRefSerializer()
    quote_a = serializers.CharField(allow_blank=True)
    quote_b = serializers.CharField(allow_blank=True)
    opened_at = serializers.CharField()
    resolved_at = serializers.CharField(allow_null=True)
    resolution = serializers.CharField(allow_blank=True)
    question = serializers.CharField()
    kept = serializers.IntegerField(
        allow_null=True, help_text="The statement the answer kept (node number), once resolved."
    )
    superseded = serializers.IntegerField(
        allow_null=True, help_text="The statement the answer superseded (node number)."
    )
    answer_message = serializers.IntegerField(
        allow_null=True, help_text="The message (episode number) that answered it."
    )


class ContradictionQuerySerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["open", "resolved"], required=False)


class NodeDetailSerializer(NodeSerializer):
    evidence = EvidenceSerializer(many=True)
    confidence_explanation = serializers.CharField()
    edges = EdgeSerializer(many=True)
    contradictions = ContradictionSerializer(many=True)

    def to_representation(self, trail):
        # The trail wraps the node: node fields come from trail.node, the rest from the trail.
        data = NodeSerializer(trail.node, context=self.context).data
        data["evidence"] = EvidenceSerializer(trail.evidence, many=True).data
        data["confidence_explanation"] = trail.confidence_explanation
        data["edges"] = EdgeSerializer(trail.edges, many=True).data
        data["contradictions"] = ContradictionSerializer(trail.contradictions, many=True).data
        return data


class GapSerializer(serializers.Serializer):
    rule = serializers.CharField()
    node = serializers.IntegerField(allow_null=True)
    question = serializers.CharField()


class UploadSerializer(serializers.Serializer):
    file = serializers.FileField(
        help_text="UTF-8 notes: .txt/.md become file chunks (paragraphs, with their heading); "
        ".jsonl is one {author, at, text} record per line. Documents and exports: .pdf (pages), "
        ".docx (sections), .html (main content), .csv/.tsv (one episode per row), a Slack "
        "export .zip (one episode per message)."
    )
    format = serializers.ChoiceField(
        choices=list(FORMAT_CHOICES),
        required=False,
        help_text="The file's format when its extension does not say it.",
    )
    text_columns = serializers.ListField(
        child=serializers.CharField(max_length=200),
        required=False,
        max_length=20,
        help_text="CSV/TSV: the column(s) with what people said (optional with one column).",
    )
    author_column = serializers.CharField(max_length=200, required=False, allow_blank=True)
    date_column = serializers.CharField(max_length=200, required=False, allow_blank=True)
    records = serializers.ChoiceField(
        choices=RecordKind.choices,
        required=False,
        allow_blank=True,
        help_text="What the file's records are, when all are of one kind: bug_report for an "
        "issue tracker's tickets (the parts they name are where the fault is, not features "
        "asked for).",
    )

    def import_options(self) -> ImportOptions:
        data = self.validated_data
        return ImportOptions(
            format=data.get("format", ""),
            text_columns=tuple(data.get("text_columns") or ()),
            author_column=data.get("author_column", ""),
            date_column=data.get("date_column", ""),
            records=data.get("records", ""),
        )


class DuplicateSerializer(serializers.Serializer):
    where = serializers.CharField(help_text='Where in the file: "part 2", "line 14", "row 3".')
    duplicate_of = serializers.IntegerField(
        source="of", help_text="The number of the message that already holds this content."
    )
    message = serializers.CharField(help_text='"part 2: duplicate of message #7"')


class UploadedSerializer(serializers.Serializer):
    episodes = EpisodeSerializer(many=True)
    errors = serializers.ListField(
        child=serializers.CharField(), help_text="Skipped lines, pages or rows, with the reason."
    )
    warnings = serializers.ListField(
        child=serializers.CharField(),
        help_text="Rows recorded with a problem, said: a date that is not a date (the row is "
        "kept, dated when imported).",
    )
    format = serializers.CharField(required=False, help_text="The reader used (documents).")
    units = serializers.IntegerField(required=False, help_text="Pages, rows or messages read.")
    unit = serializers.CharField(required=False, help_text="page, row, message, paragraph…")
    duplicates = DuplicateSerializer(
        many=True,
        help_text="Chunks or records whose content the project already holds: not recorded "
        "again, so they add no corroboration.",
    )


class ResolveSerializer(serializers.Serializer):
    answer = WrittenTextField(
        max_length=200_000,
        help_text="What holds now, in the user's words; becomes an episode. Something besides "
        "spaces; a NUL character is refused (400).",
    )
    keep = StrictIntegerField(
        required=False,
        min_value=1,
        max_value=999_999_999,
        help_text="The number of the statement that holds (one of the two: another number is "
        "409); without it, the one the answer sides with: named by number, repeated in its "
        "words, or by stance.",
    )


class ResolvedSerializer(serializers.Serializer):
    contradiction = ContradictionSerializer()
    episode = EpisodeSerializer()


class TaskStatusSerializer(serializers.Serializer):
    id = serializers.CharField()
    state = serializers.CharField(help_text="PENDING (or unknown), STARTED, RETRY, SUCCESS…")
    ready = serializers.BooleanField()
    successful = serializers.BooleanField(allow_null=True)
    error = serializers.CharField(allow_blank=True, help_text="Why it failed, when it did.")
