"""API views for kg resources: parse the request, call one service function, present.

Every project-scoped view finds its project through kg.tenancy, so a project of another
organization answers 404 exactly like one that does not exist. Graph lists are Python lists;
the default PageNumberPagination pages them like querysets.
"""

from __future__ import annotations

from django.db.models import Count, QuerySet
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import generics, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from kg.graph import store
from kg.ledger.importing import record_uploaded_notes
from kg.models import Episode, Organization, Project
from kg.tenancy import (
    NotAllowed,
    check_can_write,
    create_project,
    org_for_user,
    project_for_user,
    projects_for_user,
    set_project_archived,
    update_project,
)
from kg.web.api import serializers as s
from kg.web.api import services
from kg.web.api.parsers import StrictMultiPartParser


class ProjectScoped:
    # Mixin: the project named by the URL's slug, if the user belongs to its organization.
    # (A comment, not a docstring: drf-spectacular would show it on every operation.)

    request: Request
    kwargs: dict

    def get_project(self) -> Project:
        if not hasattr(self, "_project"):
            self._project = project_for_user(self.request.user, self.kwargs["slug"])
        return self._project

    def get_writable_project(self) -> Project:
        """The project for a write: 404 for a non-member, 403 for a viewer or an archive."""
        project = self.get_project()
        try:
            check_can_write(self.request.user, project)
        except NotAllowed as exc:
            raise PermissionDenied(str(exc)) from None
        return project

    def query(self, serializer_class) -> dict:
        """The validated query parameters (400 with the reasons when they are not valid)."""
        # A plain dict: given a QueryDict, DRF reads a missing boolean as an unticked checkbox
        # (False), which would silently filter ?valid=false on every request.
        serializer = serializer_class(data=self.request.query_params.dict())
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data


# --- tenancy ---------------------------------------------------------------------------------


@extend_schema(tags=["tenancy"], summary="Organizations you belong to")
class OrganizationList(generics.ListAPIView):
    serializer_class = s.OrganizationSerializer

    def get_queryset(self) -> QuerySet[Organization]:
        return Organization.objects.filter(memberships__user=self.request.user).distinct()


@extend_schema(tags=["tenancy"], summary="One of your organizations")
class OrganizationDetail(generics.RetrieveAPIView):
    serializer_class = s.OrganizationSerializer
    lookup_field = "slug"

    def get_queryset(self) -> QuerySet[Organization]:
        return Organization.objects.filter(memberships__user=self.request.user).distinct()


def _projects(user) -> QuerySet[Project]:
    counted = projects_for_user(user).annotate(episode_count=Count("episodes", distinct=True))
    return counted.order_by("slug")  # an aggregate drops Meta.ordering; pages need an order


def _project_view(user, slug: str) -> Project:
    """The project a path names (kg.tenancy resolves `slug` or `<org>~<slug>`), counted."""
    return _projects(user).get(pk=project_for_user(user, slug).pk)


@extend_schema_view(
    get=extend_schema(tags=["tenancy"], summary="Projects of your organizations"),
    post=extend_schema(
        tags=["tenancy"],
        summary="Create a project (owners and admins of the organization)",
        request=s.NewProjectSerializer,
        responses={201: s.ProjectSerializer, 403: s.ErrorSerializer, 409: s.ErrorSerializer},
    ),
)
class ProjectList(generics.ListAPIView):
    serializer_class = s.ProjectSerializer

    def get_queryset(self) -> QuerySet[Project]:
        return _projects(self.request.user)

    def post(self, request: Request) -> Response:
        body = s.NewProjectSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        project = create_project(
            request.user,
            org_for_user(request.user, data["organization"]),
            data["name"],
            data["language"],
            data.get("description", ""),
        )
        return Response(
            s.ProjectSerializer(_projects(request.user).get(pk=project.pk)).data,
            status=status.HTTP_201_CREATED,
        )


@extend_schema_view(
    get=extend_schema(tags=["tenancy"], summary="One of your projects"),
    patch=extend_schema(
        tags=["tenancy"],
        summary="Rename, change the language or description, archive or restore a project "
        "(owners and admins)",
        request=s.ProjectChangeSerializer,
        responses={200: s.ProjectSerializer, 403: s.ErrorSerializer, 409: s.ErrorSerializer},
    ),
)
class ProjectDetail(generics.RetrieveAPIView):
    serializer_class = s.ProjectSerializer
    lookup_field = "slug"

    def get_queryset(self) -> QuerySet[Project]:
        return _projects(self.request.user)

    def get_object(self) -> Project:
        return _project_view(self.request.user, self.kwargs["slug"])

    def patch(self, request: Request, slug: str) -> Response:
        project = project_for_user(request.user, slug)
        body = s.ProjectChangeSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        change = body.validated_data
        # The same rules as the pages: kg.tenancy checks the role, whatever is changed.
        if {"name", "language", "description"} & change.keys() or not change:
            update_project(
                request.user,
                project,
                change.get("name", project.name),
                change.get("language", project.language),
                change.get("description", project.description),
            )
        if "archived" in change:
            set_project_archived(request.user, project, change["archived"])
        return Response(s.ProjectSerializer(_project_view(request.user, slug)).data)


# --- episodes ---------------------------------------------------------------------------------


@extend_schema(
    tags=["episodes"],
    summary="The project's episodes (read-only), with their processing status",
    parameters=[s.EpisodeQuerySerializer],
)
class EpisodeList(ProjectScoped, generics.ListAPIView):
    serializer_class = s.EpisodeSerializer

    def get_queryset(self) -> QuerySet[Episode]:
        query = self.query(s.EpisodeQuerySerializer)
        episodes = Episode.objects.filter(project=self.get_project()).select_related("processing")
        if "status" in query:
            episodes = episodes.filter(processing__status=query["status"])
        if "kind" in query:
            episodes = episodes.filter(kind=query["kind"])
        return episodes.order_by("number")


@extend_schema(
    tags=["episodes"],
    summary="One episode, with the nodes extracted from it",
    responses=s.EpisodeDetailSerializer,
)
class EpisodeDetail(ProjectScoped, generics.GenericAPIView):
    serializer_class = s.EpisodeDetailSerializer

    def get(self, request: Request, slug: str, number: int) -> Response:
        project = self.get_project()
        episode = generics.get_object_or_404(
            Episode.objects.select_related("processing"), project=project, number=number
        )
        episode.extracted_nodes = store.nodes_for_episode(project.graph_scope, str(episode.uid))
        return Response(self.get_serializer(episode).data)


# --- the graph --------------------------------------------------------------------------------


@extend_schema(
    tags=["graph"],
    summary="Nodes: pains, segments, jobs, competitors, metrics…",
    parameters=[s.NodeQuerySerializer],
)
class NodeList(ProjectScoped, generics.ListAPIView):
    serializer_class = s.NodeSerializer

    def get_queryset(self) -> list:
        query = self.query(s.NodeQuerySerializer)
        return services.list_project_nodes(
            self.get_project(),
            node_type=query.get("type"),
            valid=query.get("valid"),
            min_confidence=query.get("min_confidence"),
        )


@extend_schema(
    tags=["graph"],
    summary="One node with its evidence trail, confidence explanation and edges",
    responses=s.NodeDetailSerializer,
)
class NodeDetail(ProjectScoped, generics.GenericAPIView):
    serializer_class = s.NodeDetailSerializer

    def get(self, request: Request, slug: str, number: int) -> Response:
        trail = services.node_trail(self.get_project(), number)
        return Response(self.get_serializer(trail).data)


@extend_schema(tags=["graph"], summary="Edges between nodes", parameters=[s.EdgeQuerySerializer])
class EdgeList(ProjectScoped, generics.ListAPIView):
    serializer_class = s.EdgeSerializer

    def get_queryset(self) -> list:
        query = self.query(s.EdgeQuerySerializer)
        return services.list_project_edges(
            self.get_project(), relation=query.get("relation"), valid=query.get("valid")
        )


@extend_schema(tags=["graph"], summary="Research gaps, each with the question that fills it")
class GapList(ProjectScoped, generics.ListAPIView):
    serializer_class = s.GapSerializer

    def get_queryset(self) -> list:
        return services.project_gaps(self.get_project())


@extend_schema(
    tags=["graph"],
    summary="Contradictions (open ones are questions)",
    parameters=[s.ContradictionQuerySerializer],
)
class ContradictionList(ProjectScoped, generics.ListAPIView):
    serializer_class = s.ContradictionSerializer

    def get_queryset(self) -> list:
        query = self.query(s.ContradictionQuerySerializer)
        return services.list_project_contradictions(self.get_project(), status=query.get("status"))


@extend_schema(tags=["graph"], summary="One contradiction", responses=s.ContradictionSerializer)
class ContradictionDetail(ProjectScoped, generics.GenericAPIView):
    serializer_class = s.ContradictionSerializer

    def get(self, request: Request, slug: str, uid) -> Response:
        view = services.contradiction(self.get_project(), str(uid))
        return Response(self.get_serializer(view).data)


@extend_schema_view(
    post=extend_schema(
        tags=["graph"],
        summary="Answer an open contradiction; the answer is recorded as an episode",
        request=s.ResolveSerializer,
        responses={201: s.ResolvedSerializer, 409: s.ErrorSerializer},
    )
)
class ContradictionResolve(ProjectScoped, generics.GenericAPIView):
    serializer_class = s.ResolveSerializer

    def post(self, request: Request, slug: str, uid) -> Response:
        project = self.get_writable_project()
        body = self.get_serializer(data=request.data)
        body.is_valid(raise_exception=True)
        episode = services.resolve_contradiction(
            project,
            str(uid),
            body.validated_data["answer"],
            services.author_name(request.user),
            keep=body.validated_data.get("keep"),
        )
        result = {"contradiction": services.contradiction(project, str(uid)), "episode": episode}
        return Response(s.ResolvedSerializer(result).data, status=status.HTTP_201_CREATED)


@extend_schema(
    tags=["episodes"],
    summary="Upload notes: each chunk or record becomes an episode, queued for the pipeline",
    request={"multipart/form-data": s.UploadSerializer},
    responses={201: s.UploadedSerializer, 200: s.UploadedSerializer},
)
class NotesUpload(ProjectScoped, generics.GenericAPIView):
    serializer_class = s.UploadSerializer
    parser_classes = [StrictMultiPartParser]

    def post(self, request: Request, slug: str) -> Response:
        project = self.get_writable_project()
        body = self.get_serializer(data=request.data)
        body.is_valid(raise_exception=True)
        upload = body.validated_data["file"]
        report = record_uploaded_notes(
            project,
            upload.name,
            upload.read(),
            services.author_name(request.user),
            body.import_options(),
        )
        # Nothing new (every chunk already recorded): 200 with the duplicates, not 201.
        created = status.HTTP_201_CREATED if report.episodes else status.HTTP_200_OK
        return Response(s.UploadedSerializer(report).data, status=created)


# --- tasks ------------------------------------------------------------------------------------


@extend_schema(
    tags=["tasks"], summary="The state of a background task", responses=s.TaskStatusSerializer
)
class TaskStatusView(generics.GenericAPIView):
    serializer_class = s.TaskStatusSerializer

    def get(self, request: Request, task_id) -> Response:
        return Response(self.get_serializer(services.task_status(str(task_id), request.user)).data)
