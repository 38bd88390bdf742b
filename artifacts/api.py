"""The artifacts API (DRF). Every view checks organization membership: another org's → 404.

`router_urls` is a list of URL patterns for the site's /api/ prefix, e.g.
path("api/", include(artifacts.api.router_urls)).
"""

from __future__ import annotations

from django.db.models import QuerySet
from django.http import HttpResponse
from django.urls import path, reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

import kg.web.api.converters  # noqa: F401  registers <project:...>
from artifacts.editing import Edit, EditRejected, edit_prd, version_changes
from artifacts.models import Artifact, ArtifactVersion, Claim
from artifacts.rendering import load_document, to_json
from artifacts.serializers import (
    ArtifactSerializer,
    ClaimRowSerializer,
    EditRequestSerializer,
    EditResponseSerializer,
    GenerateRequestSerializer,
    GenerateResponseSerializer,
    RunSerializer,
    VersionDetailSerializer,
    VersionSummarySerializer,
)
from artifacts.services import run_for_project, start_prd_generation
from artifacts.versions import complete_versions, version_by_number
from kg.models import Project
from kg.tenancy import project_for_user, writable_project_for_user


def _version(project: Project, number: int) -> ArtifactVersion:
    try:
        return version_by_number(project, number)
    except ArtifactVersion.DoesNotExist:
        raise NotFound("no such version") from None


def _reverse(request: Request, name: str, *args) -> str:
    """Reverse within whatever namespace the lead included router_urls under."""
    namespace = request.resolver_match.namespace if request.resolver_match else ""
    return reverse(f"{namespace}:{name}" if namespace else name, args=args)


class MarkdownRenderer(BaseRenderer):
    media_type = "text/markdown"
    format = "md"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None) -> bytes:
        if isinstance(data, dict):  # an error body: {"detail": ...}
            data = str(data.get("detail", data))
        return str(data).encode(self.charset)


@extend_schema(tags=["artifacts"], summary="Artifacts of a project")
class ArtifactList(generics.ListAPIView):
    serializer_class = ArtifactSerializer

    def get_queryset(self) -> QuerySet[Artifact]:
        project = project_for_user(self.request.user, self.kwargs["slug"])
        return Artifact.objects.filter(project=project).order_by("kind")


@extend_schema(tags=["artifacts"], summary="Complete PRD versions, newest first")
class VersionList(generics.ListAPIView):
    serializer_class = VersionSummarySerializer

    def get_queryset(self) -> QuerySet[ArtifactVersion]:
        project = project_for_user(self.request.user, self.kwargs["slug"])
        return complete_versions(project).defer("markdown")


class Generate(APIView):
    # A JSON object or nothing (the API's default parser): a form or a garbage multipart body
    # is refused (415/400), not read as "no options".

    @extend_schema(
        tags=["artifacts"],
        summary="Start generating the PRD (reuses the latest version if nothing changed)",
        request=GenerateRequestSerializer,
        responses={202: GenerateResponseSerializer},
    )
    def post(self, request: Request, slug: str) -> Response:
        project = writable_project_for_user(request.user, slug)
        form = GenerateRequestSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        run = start_prd_generation(project, form.validated_data.get("as_of"))
        body = {
            "task_id": run.task_id,
            "version_id": run.pk,
            "status": run.status,
            "status_url": _reverse(request, "api-prd-run", project.slug, run.pk),
        }
        return Response(GenerateResponseSerializer(body).data, status=status.HTTP_202_ACCEPTED)


class RunDetail(APIView):
    @extend_schema(
        tags=["artifacts"], summary="A generation run's status and stage", responses=RunSerializer
    )
    def get(self, request: Request, slug: str, run_id: int) -> Response:
        project = project_for_user(request.user, slug)
        try:
            run = run_for_project(project, run_id)
        except ArtifactVersion.DoesNotExist:
            raise NotFound("no such run") from None
        return Response(RunSerializer(run).data)


class VersionDetail(APIView):
    @extend_schema(
        tags=["artifacts"],
        summary="One PRD version: sections, claims, citations",
        responses=VersionDetailSerializer,
    )
    def get(self, request: Request, slug: str, number: int) -> Response:
        version = _version(project_for_user(request.user, slug), number)
        return Response(VersionDetailSerializer(to_json(load_document(version))).data)


@extend_schema(tags=["artifacts"], summary="Claims of a PRD version with their citations")
class ClaimList(generics.ListAPIView):
    serializer_class = ClaimRowSerializer

    def get_queryset(self) -> QuerySet[Claim]:
        version = _version(
            project_for_user(self.request.user, self.kwargs["slug"]), self.kwargs["number"]
        )
        return version.claims.order_by("section", "order").prefetch_related("citations")


class EditVersion(APIView):
    @extend_schema(
        tags=["artifacts"],
        summary="Rewrite (or, with an empty text, remove) one sentence: a new version",
        request=EditRequestSerializer,
        responses={201: EditResponseSerializer},
    )
    def post(self, request: Request, slug: str, number: int) -> Response:
        project = writable_project_for_user(request.user, slug)
        form = EditRequestSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        edit = Edit(**form.validated_data)
        try:
            version = edit_prd(project, request.user, number, edit)
        except ArtifactVersion.DoesNotExist:
            raise NotFound("no such version") from None
        except EditRejected as exc:
            raise ValidationError({"edit": [str(exc)]}) from None
        body = {
            "version": version.number,
            "edited_from": number,
            "edited_by": version.edited_by,
            "changes": [c.as_report() for c in version_changes(version.edited_from, version)],
        }
        return Response(EditResponseSerializer(body).data, status=status.HTTP_201_CREATED)


class MarkdownExport(APIView):
    renderer_classes = [MarkdownRenderer, JSONRenderer]

    @extend_schema(
        tags=["artifacts"],
        summary="A PRD version as Markdown",
        responses={(200, "text/markdown"): OpenApiResponse(response=OpenApiTypes.STR)},
    )
    def get(self, request: Request, slug: str, number: int) -> HttpResponse:
        project = project_for_user(request.user, slug)
        version = _version(project, number)
        response = HttpResponse(version.markdown, content_type="text/markdown; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{project.slug}-prd-v{number}.md"'
        return response


router_urls = [
    path("projects/<project:slug>/artifacts/", ArtifactList.as_view(), name="api-artifacts"),
    path("projects/<project:slug>/prd/versions/", VersionList.as_view(), name="api-prd-versions"),
    path("projects/<project:slug>/prd/generate/", Generate.as_view(), name="api-prd-generate"),
    path("projects/<project:slug>/prd/runs/<int:run_id>/", RunDetail.as_view(), name="api-prd-run"),
    path(
        "projects/<project:slug>/prd/versions/<int:number>/",
        VersionDetail.as_view(),
        name="api-prd-version",
    ),
    path(
        "projects/<project:slug>/prd/versions/<int:number>/claims/",
        ClaimList.as_view(),
        name="api-prd-claims",
    ),
    path(
        "projects/<project:slug>/prd/versions/<int:number>/edit/",
        EditVersion.as_view(),
        name="api-prd-edit",
    ),
    path(
        "projects/<project:slug>/prd/versions/<int:number>/markdown/",
        MarkdownExport.as_view(),
        name="api-prd-markdown",
    ),
]
