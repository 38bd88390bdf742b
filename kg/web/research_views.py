"""The research view in the product: the project's nodes, one node's evidence trail, and one
message with the quoted words highlighted. Every member reads them (viewers included); a
project of another organization is a 404. Parse, call one read function, render.
"""

from __future__ import annotations

from django.contrib import messages as notices
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from kg.confirmation import ConfirmationNeeded
from kg.corrections import CorrectionRefused, NodeNotFound, correct
from kg.graph import GraphUnavailable
from kg.models import Project
from kg.ontology import NODE_TYPES, RELATIONS
from kg.reading.correcting import merge_candidates, recent_corrections
from kg.reading.export import export_chunks
from kg.reading.node_history import node_history
from kg.reading.node_trail import CONFIDENCE_BANDS, VALIDITY, node_trail
from kg.reading.research import (
    STATUSES,
    MessageNotFound,
    ResearchFilters,
    highlighted_message,
    research_listing,
)
from kg.reading.search import search_quotes
from kg.tenancy import NotAllowed, can_write
from kg.web.confirm_page import confirmation_page, is_confirmed
from kg.web.page_access import readable_project

MAX_SEARCH_CHARS = 200


def _number(value: str | None) -> int | None:
    return int(value) if value and value.isascii() and value.isdigit() and len(value) <= 9 else None


def _span(value: str | None) -> tuple[int, int] | None:
    """ "start-end" of a citation's words in a message; anything else is no span."""
    start, _, end = (value or "").partition("-")
    first, last = _number(start), _number(end)
    return (first, last) if first is not None and last is not None else None


@login_required
@require_GET
def nodes_page(request: HttpRequest, slug: str) -> HttpResponse:
    project = readable_project(request, slug)
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
        context["recent_corrections"] = recent_corrections(project)
    except GraphUnavailable as exc:
        context["graph_error"] = str(exc)
    return render(request, "research/nodes.html", context)


@login_required
@require_GET
def export_download(request: HttpRequest, slug: str) -> StreamingHttpResponse:
    """The project's ledger and graph as JSON (what kg_export prints), streamed as it is read."""
    project = readable_project(request, slug)
    response = StreamingHttpResponse(
        export_chunks(project), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{project.slug}-export.json"'
    return response


@login_required
@require_GET
def search_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Every message holding the words searched for, the words marked in their sentence."""
    project = readable_project(request, slug)
    query = request.GET.get("q", "")[:MAX_SEARCH_CHARS].strip()
    hits = search_quotes(project, query) if query else []
    return render(
        request, "research/search.html", {"project": project, "query": query, "hits": hits}
    )


@login_required
@require_GET
def node_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return _node_page(request, readable_project(request, slug), number)


def _node_page(
    request: HttpRequest, project: Project, number: int, refused: str = "", status: int = 200
) -> HttpResponse:
    context: dict = {
        "project": project,
        "cited": _number(request.GET.get("episode")),
        "can_write": can_write(request.user, project),
        "node_types": NODE_TYPES,
        "relations": sorted(RELATIONS),
        "refused": refused,
        "merge_words": request.GET.get("merge", "")[:200],
    }
    try:
        trail = node_trail(project, number)
        if trail is not None:
            context["history"] = node_history(project, trail.node)
            context["merge_candidates"] = merge_candidates(project, number, context["merge_words"])
            context["recent_corrections"] = recent_corrections(project)
    except GraphUnavailable as exc:
        context["graph_error"] = str(exc)
        return render(request, "research/node.html", context, status=503)
    if trail is None:
        raise Http404(f"node #{number} not found in project {project.slug!r}")
    context["trail"] = trail
    return render(request, "research/node.html", context, status=status)


@login_required
@require_POST
def correct_node(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A correction from the node page (editors and above): redirected to the node to show
    next on success, the page again with the reason (400) when refused."""
    project = readable_project(request, slug)
    try:
        done = correct(
            project,
            request.user,
            number,
            request.POST.get("action", ""),
            request.POST,
            confirmed=is_confirmed(request),
        )
    except ConfirmationNeeded as needed:
        back = reverse("research:node", args=[project.slug, number])
        return confirmation_page(request, needed, back)
    except NotAllowed as exc:
        return HttpResponse(str(exc), status=403, content_type="text/plain; charset=utf-8")
    except NodeNotFound as exc:
        raise Http404(str(exc)) from None
    except CorrectionRefused as exc:
        return _node_page(request, project, number, refused=str(exc), status=400)
    # Said once by the server on the next page, never carried in the address (a link could
    # forge it).
    notices.success(request, done.message, extra_tags="correction-done")
    return redirect("research:node", project.slug, done.node.number)


@login_required
@require_GET
def message_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    project = readable_project(request, slug)
    try:
        message = highlighted_message(
            project, number, _number(request.GET.get("node")), _span(request.GET.get("span"))
        )
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
