"""API for corrections: make one on a node (editors and above), list the project's ledger.

A project of another organization is 404; a viewer is 403; a refused correction is 400 with
the reason, and nothing is recorded.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, generics, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from kg.api.serializers import NodeSerializer
from kg.api.views import ProjectScoped
from kg.corrections import CorrectionRefused, NodeNotFound, correct
from kg.models import Correction, CorrectionAction


class CorrectionRequestSerializer(serializers.Serializer):
    action = serializers.ChoiceField(choices=CorrectionAction.choices)
    other = serializers.IntegerField(
        required=False, min_value=1, help_text="merge: the node this one absorbs"
    )
    alias = serializers.CharField(required=False, max_length=500, help_text="split: the alias")
    label = serializers.CharField(required=False, max_length=500, help_text="rename: new label")
    type = serializers.CharField(required=False, max_length=20, help_text="retype: new type")
    edge = serializers.CharField(
        required=False, max_length=64, help_text="edit_edge/remove_edge: the edge's uid"
    )
    relation = serializers.CharField(
        required=False, allow_blank=True, max_length=40, help_text="edit_edge: new relation"
    )
    target = serializers.IntegerField(
        required=False, min_value=1, help_text="edit_edge: the edge's new target node"
    )
    note = serializers.CharField(required=False, allow_blank=True, max_length=2000)


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
    serializer_class = CorrectionRequestSerializer

    @extend_schema(
        summary="Correct a node (editors and above)",
        request=CorrectionRequestSerializer,
        responses={201: CorrectionDoneSerializer},
    )
    def post(self, request: Request, slug: str, number: int) -> Response:
        project = self.get_writable_project()
        data = self.get_serializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        try:
            done = correct(project, request.user, number, fields.pop("action"), fields)
        except NodeNotFound as exc:
            raise exceptions.NotFound(str(exc)) from None
        except CorrectionRefused as exc:
            raise exceptions.ValidationError({"correction": [str(exc)]}) from None
        return Response(CorrectionDoneSerializer(done).data, status=status.HTTP_201_CREATED)


@extend_schema(tags=["graph"], summary="The project's corrections, in the order they were made")
class CorrectionList(ProjectScoped, generics.ListAPIView):
    serializer_class = CorrectionSerializer

    def get_queryset(self):
        return Correction.objects.filter(project=self.get_project()).order_by("number")
