"""The knowledge graph in the admin. It lives in the graph DB, not in SQL, so it gets custom
views instead of ModelAdmins, mounted by ProjectAdmin.get_urls (staff only):

    /admin/kg/project/<project id>/nodes/            the project's nodes, filtered and paginated
    /admin/kg/project/<project id>/nodes/<number>/   one node's evidence trail

The data comes from the read models in kg.reading.node_trail; the views only parse the request
and render.
"""

from __future__ import annotations

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse

from kg.graph import GraphUnavailable
from kg.models import Project
from kg.ontology import NODE_TYPES
from kg.reading.node_trail import (
    CONFIDENCE_BANDS,
    VALIDITY,
    NodeFilters,
    node_listing,
    node_trail,
    nodes_admin_url,
)

# --- views ------------------------------------------------------------------------------


def _project_for(request: HttpRequest, model_admin: admin.ModelAdmin, project_id: int) -> Project:
    project = Project.objects.select_related("organization").filter(pk=project_id).first()
    if project is None:
        raise Http404(f"project {project_id} does not exist")
    if not model_admin.has_view_permission(request, project):
        raise PermissionDenied
    return project


def _context(request: HttpRequest, model_admin: admin.ModelAdmin, project: Project, **extra):
    return {
        **model_admin.admin_site.each_context(request),
        "opts": model_admin.model._meta,
        "project": project,
        "nodes_url": nodes_admin_url(project),
        "project_url": reverse("admin:kg_project_change", args=[project.pk]),
        **extra,
    }


def project_nodes_view(
    request: HttpRequest, model_admin: admin.ModelAdmin, project_id: int
) -> HttpResponse:
    project = _project_for(request, model_admin, project_id)
    filters = NodeFilters.from_query(request.GET)
    try:
        listing = node_listing(project, filters, request.GET.get("p", 1))
    except GraphUnavailable as exc:
        listing, error = None, str(exc)
    else:
        error = ""
    context = _context(
        request,
        model_admin,
        project,
        title=f"Knowledge graph of {project}",
        listing=listing,
        graph_error=error,
        filters=filters,
        node_types=NODE_TYPES,
        bands=CONFIDENCE_BANDS,
        validity=VALIDITY,
    )
    return TemplateResponse(request, "admin/kg/project/nodes.html", context)


def node_trail_view(
    request: HttpRequest, model_admin: admin.ModelAdmin, project_id: int, number: int
) -> HttpResponse:
    project = _project_for(request, model_admin, project_id)
    try:
        trail = node_trail(project, number)
    except GraphUnavailable as exc:
        context = _context(
            request, model_admin, project, title=f"Node #{number}", graph_error=str(exc)
        )
        return TemplateResponse(request, "admin/kg/project/node.html", context, status=503)
    if trail is None:
        raise Http404(f"project {project.slug} has no node #{number}")
    context = _context(
        request,
        model_admin,
        project,
        title=f"{trail.node.type} #{trail.node.number}: {trail.node.label}",
        trail=trail,
        graph_error="",
    )
    return TemplateResponse(request, "admin/kg/project/node.html", context)
