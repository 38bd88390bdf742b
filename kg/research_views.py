"""The research view in the product: the project's nodes, one node's evidence trail, and one
message with the quoted words highlighted. Every member reads them (viewers included); a
project of another organization is a 404. Parse, call one read function, render.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from kg.admin_graph import CONFIDENCE_BANDS, VALIDITY, node_trail
from kg.graph import GraphUnavailable
from kg.models import Project
from kg.ontology import NODE_TYPES
from kg.research import (
    STATUSES,
    MessageNotFound,
    ResearchFilters,
    highlighted_message,
    research_listing,
)
from kg.tenancy import ProjectNotFound, can_write, project_for_user


def _project(request: HttpRequest, slug: str) -> Project:
    try:
        return project_for_user(request.user, slug)
    except ProjectNotFound as exc:
        raise Http404(str(exc)) from None


def _number(value: str | None) -> int | None:
    return int(value) if value and value.isascii() and value.isdigit() and len(value) <= 9 else None


@login_required
@require_GET
def nodes_page(request: HttpRequest, slug: str) -> HttpResponse:
    project = _project(request, slug)
    filters = ResearchFilters.from_query(request.GET)
    context = {
        "project": project,
        "filters": filters,
        "node_types": NODE_TYPES,
        "bands": CONFIDENCE_BANDS,
        "validity": VALIDITY,
        "statuses": STATUSES,
        "can_write": can_write(request.user, project),
    }
    try:
        context["listing"] = research_listing(project, filters, request.GET.get("page", 1))
    except GraphUnavailable as exc:
        context["graph_error"] = str(exc)
    return render(request, "research/nodes.html", context)


@login_required
@require_GET
def node_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    project = _project(request, slug)
    context: dict = {"project": project, "cited": _number(request.GET.get("episode"))}
    try:
        trail = node_trail(project, number)
    except GraphUnavailable as exc:
        context["graph_error"] = str(exc)
        return render(request, "research/node.html", context, status=503)
    if trail is None:
        raise Http404(f"node #{number} not found in project {project.slug!r}")
    context["trail"] = trail
    return render(request, "research/node.html", context)


@login_required
@require_GET
def message_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    project = _project(request, slug)
    try:
        message = highlighted_message(project, number, _number(request.GET.get("node")))
    except MessageNotFound as exc:
        raise Http404(str(exc)) from None
    except GraphUnavailable as exc:
        return render(
            request,
            "research/message.html",
            {"project": project, "graph_error": str(exc)},
            status=503,
        )
    return render(request, "research/message.html", {"project": project, "message": message})
