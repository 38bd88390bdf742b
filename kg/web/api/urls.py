"""API routes of kg resources (mounted under /api/ by config.urls)."""

from django.urls import path

import kg.web.api.converters  # noqa: F401  registers <num:...> and <project:...>
from kg.web.api import corrections, views

P = "projects/<project:slug>/"

urlpatterns = [
    path("organizations/", views.OrganizationList.as_view(), name="api-organizations"),
    path(
        "organizations/<slug:slug>/",
        views.OrganizationDetail.as_view(),
        name="api-organization",
    ),
    path("projects/", views.ProjectList.as_view(), name="api-projects"),
    path(P, views.ProjectDetail.as_view(), name="api-project"),
    path(P + "episodes/", views.EpisodeList.as_view(), name="api-episodes"),
    path(P + "episodes/<num:number>/", views.EpisodeDetail.as_view(), name="api-episode"),
    path(P + "uploads/", views.NotesUpload.as_view(), name="api-uploads"),
    path(P + "nodes/", views.NodeList.as_view(), name="api-nodes"),
    path(P + "nodes/<num:number>/", views.NodeDetail.as_view(), name="api-node"),
    path(
        P + "nodes/<num:number>/corrections/",
        corrections.NodeCorrections.as_view(),
        name="api-node-corrections",
    ),
    path(P + "corrections/", corrections.CorrectionList.as_view(), name="api-corrections"),
    path(
        P + "corrections/<num:number>/undo/",
        corrections.UndoCorrection.as_view(),
        name="api-undo-correction",
    ),
    path(P + "edges/", views.EdgeList.as_view(), name="api-edges"),
    path(P + "gaps/", views.GapList.as_view(), name="api-gaps"),
    path(P + "contradictions/", views.ContradictionList.as_view(), name="api-contradictions"),
    path(
        P + "contradictions/<uuid:uid>/",
        views.ContradictionDetail.as_view(),
        name="api-contradiction",
    ),
    path(
        P + "contradictions/<uuid:uid>/resolve/",
        views.ContradictionResolve.as_view(),
        name="api-contradiction-resolve",
    ),
    path("tasks/<uuid:task_id>/", views.TaskStatusView.as_view(), name="api-task"),
]
