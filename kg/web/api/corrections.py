"""API for corrections: make one on a node (editors and above), list the project's ledger.

Each action has its own request shape (a oneOf on `action` in the schema). A body that does
not fit it is 400; a correction the graph as it is refuses (a node merged into itself, a type
that would leave an edge outside the ontology, a label another node has) is 409 with the
reason; a node or edge not in the project is 404. A viewer is 403, a project of another
organization 404. Nothing is recorded unless the answer is 201.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, PolymorphicProxySerializer, extend_schema
from rest_framework import exceptions, generics, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from kg.corrections import (
    MAX_LABEL,
    MAX_NOTE,
    MAX_QUOTE,
    CorrectionRefused,
    NodeNotFound,
    correct,
)
from kg.models import Correction, CorrectionAction
from kg.ontology import NODE_TYPES, RELATIONS
from kg.undo import undo_correction
from kg.web.api.exceptions import Conflict
from kg.web.api.fields import StrictIntegerField, StringField, WrittenTextField
from kg.web.api.serializers import ErrorSerializer, NodeSerializer
from kg.web.api.views import ProjectScoped

NODE_NUMBER = {"min_value": 1, "max_value": 999_999_999}


class AnyCorrectionRequest(serializers.Serializer):
    """What every correction says: its action, and a note for the ledger."""

    action = serializers.ChoiceField(
        choices=[c for c in CorrectionAction.choices if c[0] != CorrectionAction.UNDO]
    )
    note = StringField(required=False, allow_blank=True, max_length=MAX_NOTE)


def _request(action: CorrectionAction, doc: str, **fields) -> type[serializers.Serializer]:
    """The request of one action: `action` can only be its name (so the oneOf is exclusive)."""
    attrs = {
        "__doc__": doc,
        "__module__": __name__,
        "action": serializers.ChoiceField(choices=[action.value]),
        **fields,
    }
    name = "".join(part.title() for part in action.value.split("_")) + "Correction"
    return type(name, (AnyCorrectionRequest,), attrs)


REQUESTS: dict[str, type[serializers.Serializer]] = {
    CorrectionAction.MERGE: _request(
        CorrectionAction.MERGE,
        "Node `other` joins this one (its evidence, edges and names) and closes.",
        other=StrictIntegerField(help_text="The node this one absorbs.", **NODE_NUMBER),
    ),
    CorrectionAction.SPLIT: _request(
        CorrectionAction.SPLIT,
        "The alias, with the quotes that say it, becomes a node of its own.",
        alias=WrittenTextField(max_length=MAX_LABEL, help_text="One of the node's aliases."),
    ),
    CorrectionAction.RENAME: _request(
        CorrectionAction.RENAME,
        "A new label; the old one stays an alias.",
        label=WrittenTextField(max_length=MAX_LABEL, help_text="The new label."),
    ),
    CorrectionAction.RETYPE: _request(
        CorrectionAction.RETYPE,
        "Another type, when every open edge of the node stays inside the ontology.",
        type=serializers.ChoiceField(choices=list(NODE_TYPES), help_text="The new type."),
    ),
    CorrectionAction.REJECT: _request(
        CorrectionAction.REJECT, "Not a finding: the node closes with its open edges."
    ),
    CorrectionAction.CONFIRM: _request(
        CorrectionAction.CONFIRM, "You vouch for the node: it counts as a source."
    ),
    CorrectionAction.EDIT_EDGE: _request(
        CorrectionAction.EDIT_EDGE,
        "Another relation or another target for an edge of the node (the old edge closes).",
        edge=WrittenTextField(max_length=64, help_text="The edge's uid."),
        relation=serializers.ChoiceField(
            choices=sorted(RELATIONS),
            required=False,
            allow_blank=True,
            help_text="The new relation; empty or absent keeps it.",
        ),
        target=StrictIntegerField(
            required=False, help_text="The edge's new target node; absent keeps it.", **NODE_NUMBER
        ),
    ),
    CorrectionAction.REMOVE_EDGE: _request(
        CorrectionAction.REMOVE_EDGE,
        "The edge is wrong: it closes (its evidence kept).",
        edge=WrittenTextField(max_length=64, help_text="The edge's uid."),
    ),
    CorrectionAction.ADD_EDGE: _request(
        CorrectionAction.ADD_EDGE,
        "An edge between this node and node `other`, inside the ontology, citing a quote of "
        "one of the project's messages.",
        relation=serializers.ChoiceField(choices=sorted(RELATIONS), help_text="The relation."),
        other=StrictIntegerField(help_text="The node at the other end.", **NODE_NUMBER),
        direction=serializers.ChoiceField(
            choices=["out", "in"],
            required=False,
            help_text="“out” (default): from this node to `other`; “in”: from `other` to it.",
        ),
        message=StrictIntegerField(help_text="The message the edge cites.", **NODE_NUMBER),
        quote=WrittenTextField(max_length=MAX_QUOTE, help_text="Words of that message."),
    ),
    CorrectionAction.RESOURCE_EDGE: _request(
        CorrectionAction.RESOURCE_EDGE,
        "An edge of the node cites this quote instead of what it cited.",
        edge=WrittenTextField(max_length=64, help_text="The edge's uid."),
        message=StrictIntegerField(help_text="The message the edge cites.", **NODE_NUMBER),
        quote=WrittenTextField(max_length=MAX_QUOTE, help_text="Words of that message."),
    ),
}

CORRECTION_REQUEST = PolymorphicProxySerializer(
    component_name="NodeCorrection",
    serializers={action: serializer for action, serializer in REQUESTS.items()},
    resource_type_field_name="action",
)


class CorrectionSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    action = serializers.CharField()
    node_uid = serializers.CharField()
    other_uid = serializers.CharField()
    params = serializers.DictField()
    note = serializers.CharField()
    author = serializers.CharField(source="author_name")
    created_at = serializers.DateTimeField()


class CorrectionDoneSerializer(serializers.Serializer):
    correction = CorrectionSerializer()
    node = NodeSerializer(help_text="The node to show next: the survivor, the split-off node…")
    message = serializers.CharField()


@extend_schema(tags=["graph"])
class NodeCorrections(ProjectScoped, generics.GenericAPIView):
    serializer_class = AnyCorrectionRequest

    @extend_schema(
        summary="Correct a node (editors and above)",
        request=CORRECTION_REQUEST,
        responses={
            201: CorrectionDoneSerializer,
            409: OpenApiResponse(
                ErrorSerializer,
                description="The graph as it is refuses the correction; `message` says why "
                "(e.g. a node merged into itself, a label another node has, a type that "
                "would leave one of its edges outside the ontology). Nothing is recorded.",
            ),
        },
    )
    def post(self, request: Request, slug: str, number: int) -> Response:
        project = self.get_writable_project()
        data = _correction_request(request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        try:
            done = correct(project, request.user, number, fields.pop("action"), fields)
        except NodeNotFound as exc:
            raise exceptions.NotFound(str(exc)) from None
        except CorrectionRefused as exc:
            raise Conflict(str(exc)) from None
        return Response(CorrectionDoneSerializer(done).data, status=status.HTTP_201_CREATED)


def _correction_request(data) -> serializers.Serializer:
    """The request serializer of the action the body names (the common one when it names
    none it knows, so that its refusal says which actions there are)."""
    action = data.get("action") if isinstance(data, dict) else None
    chosen = REQUESTS.get(action, AnyCorrectionRequest) if isinstance(action, str) else None
    return (chosen or AnyCorrectionRequest)(data=data)


@extend_schema(tags=["graph"], summary="The project's corrections, in the order they were made")
class CorrectionList(ProjectScoped, generics.ListAPIView):
    serializer_class = CorrectionSerializer

    def get_queryset(self):
        return Correction.objects.filter(project=self.get_project()).order_by("number")


class UndoRequest(serializers.Serializer):
    note = StringField(required=False, allow_blank=True, max_length=MAX_NOTE)


class UndoDoneSerializer(serializers.Serializer):
    correction = CorrectionSerializer(help_text="The undo: a correction of its own.")
    reverted = CorrectionSerializer(help_text="The correction it reverts.")
    message = serializers.CharField()


@extend_schema(tags=["graph"])
class UndoCorrection(ProjectScoped, generics.GenericAPIView):
    serializer_class = UndoRequest

    @extend_schema(
        summary="Undo a correction (editors and above)",
        description="Records an undo in the ledger (it stays append-only) and replays the "
        "graph without the correction. Undoing an undo makes the correction hold again.",
        request=UndoRequest,
        responses={
            201: UndoDoneSerializer,
            409: OpenApiResponse(ErrorSerializer, description="Already undone."),
        },
    )
    def post(self, request: Request, slug: str, number: int) -> Response:
        project = self.get_writable_project()
        data = UndoRequest(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            done = undo_correction(project, request.user, number, data.validated_data.get("note"))
        except NodeNotFound as exc:
            raise exceptions.NotFound(str(exc)) from None
        except CorrectionRefused as exc:
            raise Conflict(str(exc)) from None
        return Response(UndoDoneSerializer(done).data, status=status.HTTP_201_CREATED)
