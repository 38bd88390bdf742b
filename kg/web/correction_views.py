"""Undo from the research pages (editors and above): parse, call kg.undo, redirect."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from kg.corrections import CorrectionRefused, NodeNotFound
from kg.tenancy import NotAllowed
from kg.undo import undo_correction
from kg.web.page_access import readable_project


@login_required
@require_POST
def undo(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    project = readable_project(request, slug)
    try:
        done = undo_correction(project, request.user, number, request.POST.get("note", ""))
    except NotAllowed as exc:
        return HttpResponse(str(exc), status=403, content_type="text/plain; charset=utf-8")
    except NodeNotFound as exc:
        raise Http404(str(exc)) from None
    except CorrectionRefused as exc:
        return render(request, "workspace/error.html", {"error": f"Refused: {exc}"}, status=400)
    messages.success(request, done.message)
    return redirect("research:nodes", slug=project.slug)
