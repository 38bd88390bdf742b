"""PRD pages: server-rendered, login and organization membership required (else 404)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from artifacts.editing import Edit, EditRejected, edit_prd, editable_sentences, version_changes
from artifacts.exports import prd_docx, requirements_csv
from artifacts.models import ArtifactVersion, Stage
from artifacts.rendering import load_document, render_html
from artifacts.services import (
    parse_as_of,
    prd_page,
    run_for_project,
    shown_version,
    start_prd_generation,
)
from artifacts.versions import version_by_number
from kg.models import Project
from kg.tenancy import NotAllowed, can_write, check_can_write
from kg.web.page_access import readable_project

DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


def _page(
    request: HttpRequest,
    project: Project,
    number: int | None,
    *,
    error: str = "",
    as_of: str = "",
    status: int = 200,
) -> HttpResponse:
    try:
        page = prd_page(project, number)
    except ArtifactVersion.DoesNotExist:
        raise Http404("no such version") from None
    document = load_document(page.version) if page.version else None
    edited_from = page.version.edited_from if page.version else None
    context = {
        "editable": editable_sentences(page.version) if page.version else [],
        "edited_from": edited_from,
        "changes": version_changes(edited_from, page.version) if edited_from else [],
        "project": project,
        "page": page,
        "document": document,
        "document_html": render_html(document) if document else "",
        "error": error,
        "as_of": as_of,
        "can_write": can_write(request.user, project),
    }
    return render(request, "artifacts/prd.html", context, status=status)


@login_required
@require_GET
def prd_view(request: HttpRequest, slug: str) -> HttpResponse:
    project = readable_project(request, slug)
    raw = request.GET.get("version")
    if raw is not None and not raw.isdigit():
        raise Http404("no such version")
    return _page(request, project, int(raw) if raw else None)


def _download(request: HttpRequest, slug: str, number: int, render, content_type: str, name: str):
    """One version of a readable project's PRD as a file: `render(version)` gives its bytes."""
    project = readable_project(request, slug)
    try:
        version = version_by_number(project, number)
    except ArtifactVersion.DoesNotExist:
        raise Http404("no such version") from None
    response = HttpResponse(render(version), content_type=content_type)
    filename = f"{project.slug}-prd-v{number}{name}"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_GET
def prd_markdown(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return _download(
        request, slug, number, lambda v: v.markdown, "text/markdown; charset=utf-8", ".md"
    )


@login_required
@require_GET
def prd_docx_download(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return _download(
        request, slug, number, lambda v: prd_docx(load_document(v)), DOCX_TYPE, ".docx"
    )


@login_required
@require_GET
def prd_requirements_csv(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return _download(
        request,
        slug,
        number,
        lambda v: requirements_csv(load_document(v)),
        "text/csv; charset=utf-8",
        "-requirements.csv",
    )


@login_required
@require_POST
def prd_edit(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """One sentence rewritten (or removed, with an empty text): a new version."""
    project = readable_project(request, slug)
    section, _, order = request.POST.get("sentence", "").partition(":")
    if not order.isdigit():
        return _page(request, project, number, error="Choose the sentence to edit.", status=400)
    edit = Edit(section=section, order=int(order), text=request.POST.get("text", ""))
    try:
        version = edit_prd(project, request.user, number, edit)
    except NotAllowed as exc:
        return _page(request, project, number, error=str(exc), status=403)
    except ArtifactVersion.DoesNotExist:
        raise Http404("no such version") from None
    except EditRejected as exc:
        return _page(request, project, number, error=f"Edit: {exc}", status=400)
    return redirect(f"{reverse('artifacts:prd', args=[project.slug])}?version={version.number}")


@login_required
@require_POST
def prd_generate(request: HttpRequest, slug: str) -> HttpResponse:
    project = readable_project(request, slug)
    try:
        check_can_write(request.user, project)
    except NotAllowed as exc:
        return _page(request, project, None, error=str(exc), status=403)
    raw = request.POST.get("as_of", "")
    try:
        as_of = parse_as_of(raw)
    except ValueError as exc:
        return _page(request, project, None, error=f"As of: {exc}", as_of=raw, status=400)
    run = start_prd_generation(project, as_of)
    return redirect("artifacts:prd-progress", slug=project.slug, run_id=run.pk)


@login_required
@require_GET
def prd_progress(request: HttpRequest, slug: str, run_id: int) -> HttpResponse:
    project = readable_project(request, slug)
    run = _run(project, run_id)
    done = shown_version(run)
    if done is not None:
        return redirect(_version_url(project, done))
    context = {
        "project": project,
        "run": run,
        "stages": [s for s in Stage if s not in (Stage.QUEUED,)],
        "status_url": reverse("artifacts:prd-status", args=[project.slug, run.pk]),
    }
    return render(request, "artifacts/prd_progress.html", context)


@login_required
@require_GET
def prd_status(request: HttpRequest, slug: str, run_id: int) -> JsonResponse:
    project = readable_project(request, slug)
    run = _run(project, run_id)
    done = shown_version(run)
    return JsonResponse(
        {
            "id": run.pk,
            "task_id": run.task_id,
            "status": run.status,
            "stage": run.stage,
            "stage_label": Stage(run.stage).label,
            "error": run.error,
            "version": done.number if done else None,
            "url": _version_url(project, done) if done else None,
        }
    )


def _run(project: Project, run_id: int) -> ArtifactVersion:
    try:
        return run_for_project(project, run_id)
    except ArtifactVersion.DoesNotExist:
        raise Http404("no such run") from None


def _version_url(project: Project, version: ArtifactVersion) -> str:
    return f"{reverse('artifacts:prd', args=[project.slug])}?version={version.number}"
